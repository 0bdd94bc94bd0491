/*
 * parser = regex: the input's first line is the pattern, the rest the
 * output it reads (parser_parse_regex()).
 *
 * Properties:
 *  - a pattern parser_regex_check() refuses is refused by the parser too,
 *    and one it accepts never fails for a reason of the pattern's;
 *  - on error the metric set handed in is exactly as it was;
 *  - on success the metric has one finite sample per line the pattern
 *    matches, at most one per line, and parsing again appends the same.
 */
#include <math.h>
#include <regex.h>

#include "fuzz-common.h"
#include "parsers/parser.h"
#include "stats/metric.h"

static size_t matching_lines(const char *pattern, const char *text)
{
	regex_t re;
	size_t n = 0;
	const char *p = text;

	if (regcomp(&re, pattern, REG_EXTENDED) != 0)
		return 0;
	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		char *line = xstrndup(p, len);
		regmatch_t m[2];

		if (len && line[len - 1] == '\r')
			line[len - 1] = '\0';
		if (regexec(&re, line, 2, m, 0) == 0 && m[1].rm_so >= 0)
			n++;
		free(line);
		p += len + (nl ? 1 : 0);
	}
	regfree(&re);
	return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct metric_set set = METRIC_SET_INIT;
	struct parse_error err = PARSE_ERROR_INIT;
	char *input = fuzz_text(data, size), *pattern, *error = NULL, *nl;
	const char *text;
	struct parser_regex spec = { "value", NULL, "ms", BETTER_LOWER };
	int checked, r;

	if (!input)
		return 0;
	nl = strchr(input, '\n');
	if (!nl) {
		free(input);
		return 0;
	}
	pattern = xstrndup(input, (size_t)(nl - input));
	text = nl + 1;
	/*
	 * Back-references make glibc's matcher exponential: a plan's pattern is
	 * the user's own, so the fuzzer leaves them out, as it does long inputs.
	 */
	for (const char *p = pattern; *p; p++)
		if (p[0] == '\\' && p[1] >= '1' && p[1] <= '9') {
			free(pattern);
			free(input);
			return 0;
		}
	if (strlen(pattern) > 128 || strlen(text) > 8192) {
		free(pattern);
		free(input);
		return 0;
	}
	spec.pattern = pattern;
	checked = parser_regex_check(pattern, &error);
	metric_set_add_sample(&set, "sentinel", BETTER_HIGHER, "", 1.5);
	r = parser_parse_regex(&spec, text, strlen(text), &set, &err, NULL);
	FUZZ_ASSERT(checked == 0 || r < 0, "a refused pattern parsed: %s", pattern);
	if (r < 0) {
		FUZZ_ASSERT(err.message != NULL, "an error without a message");
		FUZZ_ASSERT(checked < 0 || strncmp(err.message, "pattern: ", 9), "an accepted pattern failed: %s", err.message);
		FUZZ_ASSERT(set.n_metrics == 1 && set.metrics[0].n_samples == 1, "a failed parse changed the set");
	} else {
		const struct metric *m = metric_set_find(&set, "value");
		size_t n;

		FUZZ_ASSERT(m != NULL, "success without the metric");
		n = m->n_samples;
		FUZZ_ASSERT(n == matching_lines(pattern, text), "%zu samples for %zu matching lines", n,
			    matching_lines(pattern, text));
		for (size_t i = 0; i < n; i++)
			FUZZ_ASSERT(isfinite(m->samples[i]), "a sample is not finite");
		FUZZ_ASSERT(parser_parse_regex(&spec, text, strlen(text), &set, &err, NULL) == 0, "parsing again fails");
		m = metric_set_find(&set, "value");
		FUZZ_ASSERT(m->n_samples == 2 * n, "parsing again gave other samples");
		for (size_t i = 0; i < n; i++)
			FUZZ_ASSERT(m->samples[i] == m->samples[n + i], "parsing again gave other samples");
	}
	free(error);
	parse_error_release(&err);
	metric_set_release(&set);
	free(pattern);
	free(input);
	return 0;
}
