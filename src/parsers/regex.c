/*
 * Any tool's text output, read with a POSIX extended regular expression
 * (regcomp(3) with REG_EXTENDED) that has exactly one parenthesised group:
 * every line the pattern matches gives one sample, the group's text read
 * as a decimal number. The metric's name, unit and direction come from
 * the plan, since a pattern cannot know them.
 */
#include "parsers/parser.h"

#include <errno.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>

#include "lib/alloc.h"
#include "lib/pattern.h"
#include "parsers/parser-internal.h"

static int compile(const char *pattern, regex_t *re, char **ret_error)
{
	char *error = NULL;
	int r;

	if (!pattern || !*pattern) {
		*ret_error = xstrdup("the pattern is empty");
		return -EINVAL;
	}
	r = pattern_compile(re, pattern, 0, &error);
	if (r == -EINVAL) {
		*ret_error = xasprintf("not a POSIX extended regular expression: %s", error);
		free(error);
		return r;
	}
	if (r < 0) {
		*ret_error = error;
		return -EINVAL;
	}
	if (re->re_nsub != 1) {
		*ret_error = xasprintf("the pattern has %zu groups; it needs exactly one, around the number", re->re_nsub);
		regfree(re);
		return -EINVAL;
	}
	return 0;
}

int parser_regex_check(const char *pattern, char **ret_error)
{
	regex_t re;
	int r = compile(pattern, &re, ret_error);

	if (r == 0)
		regfree(&re);
	return r;
}

int parser_parse_regex(const struct parser_regex *spec, const char *data, size_t len, struct metric_set *set,
		       struct parse_error *err, struct parse_error *warning)
{
	struct metric_set parsed = METRIC_SET_INIT;
	size_t pos = 0, begin, end, bufsize = 0, samples = 0;
	char *buf = NULL, *error = NULL;
	regex_t re;
	int r = 0;

	(void)warning;
	if (!spec || !spec->metric || !*spec->metric) {
		parse_error_set(err, 0, 0, "the regex parser needs a metric name");
		return -EINVAL;
	}
	if (compile(spec->pattern, &re, &error) < 0) {
		parse_error_set(err, 0, 0, "pattern: %s", error);
		free(error);
		return -EINVAL;
	}
	while (r == 0 && text_next_line(data, len, &pos, &begin, &end)) {
		regmatch_t m[2];
		size_t n = end - begin, gb, ge;
		double x;

		if (n + 1 > bufsize) {
			bufsize = n + 1;
			buf = xrealloc(buf, bufsize);
		}
		memcpy(buf, data + begin, n);
		buf[n] = '\0';
		if (regexec(&re, buf, 2, m, 0) != 0 || m[1].rm_so < 0)
			continue;
		gb = begin + (size_t)m[1].rm_so;
		ge = begin + (size_t)m[1].rm_eo;
		text_trim(data, &gb, &ge);
		if (text_decimal(data, gb, ge, &x) < 0) {
			char *q = text_quote(data, gb, ge);

			parser_error_at(err, data, gb, "the pattern's group matched '%s', not a number", q);
			free(q);
			r = -EINVAL;
			break;
		}
		metric_set_add_sample(&parsed, spec->metric, spec->better, spec->unit ? spec->unit : "", x);
		samples++;
	}
	regfree(&re);
	free(buf);
	if (r == 0 && !samples) {
		char *q = text_quote(spec->pattern, 0, strlen(spec->pattern));

		parse_error_set(err, 0, 0, "no line matches the pattern '%s'", q);
		free(q);
		r = -EINVAL;
	}
	if (r == 0)
		metric_set_merge(set, &parsed);
	metric_set_release(&parsed);
	return r;
}
