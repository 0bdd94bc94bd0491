#ifndef BOOTAB_FUZZ_PARSER_H
#define BOOTAB_FUZZ_PARSER_H

/*
 * The benchmark-output targets (src/parsers/): one per parser kind, each
 * defining FUZZ_PARSER_KIND before including this file. With PARSER_JSON
 * the input's first line is the selector.
 *
 * Properties:
 *  - on error the metric set handed in is exactly as it was (no checks
 *    either);
 *  - a KTAP parse gives checks and no metrics (but the new,old tables a
 *    KUnit test prints in it); parsing it again doubles every count and
 *    failure;
 *  - on success the set gains the parsed metrics, and parsing the same
 *    data again appends the same samples once more;
 *  - data that is one whole JSON document, written back by jansson
 *    (compact, %.17g reals) and parsed again, gives the same metrics;
 *  - number output written back (one %.17g per line, with its better and
 *    unit settings) parses to the same samples.
 */

#include <jansson.h>
#include <math.h>

#include "fuzz-common.h"
#include "lib/strbuf.h"
#include "stats/metric.h"
#include "parsers/parser.h"

static const char *unit_of(const struct metric *m)
{
	return m->unit ? m->unit : "";
}

/* Whether b holds a's metrics with the same samples (== on values). */
static bool same_metrics(const struct metric_set *a, const struct metric_set *b)
{
	if (a->n_metrics != b->n_metrics)
		return false;
	for (size_t i = 0; i < a->n_metrics; i++) {
		const struct metric *x = &a->metrics[i], *y = &b->metrics[i];

		if (strcmp(x->name, y->name) || x->better != y->better ||
		    strcmp(unit_of(x), unit_of(y)) || x->n_samples != y->n_samples)
			return false;
		for (size_t k = 0; k < x->n_samples; k++)
			if (!(x->samples[k] == y->samples[k]))
				return false;
	}
	return true;
}

static void add_sentinel(struct metric_set *set)
{
	metric_set_add_sample(set, "sentinel", BETTER_LOWER, "s", 1.5);
	metric_set_add_sample(set, "sentinel", BETTER_LOWER, "s", 2.5);
}

static void check_sentinel_only(const struct metric_set *set)
{
	FUZZ_ASSERT(set->n_metrics == 1 && !strcmp(set->metrics[0].name, "sentinel") &&
		    set->metrics[0].n_samples == 2 && set->metrics[0].samples[0] == 1.5 &&
		    set->metrics[0].samples[1] == 2.5 && !set->has_checks && !set->n_failed,
		    "a failed parse changed the set");
}

static int parse_into(enum parser_kind kind, const char *selector, const char *text, size_t len,
		      struct metric_set *set)
{
	struct parse_error err = PARSE_ERROR_INIT, warning = PARSE_ERROR_INIT;
	int r = parser_parse(kind, selector, text, len, set, &err, &warning);

	if (r < 0)
		FUZZ_ASSERT(err.message != NULL, "an error without a message");
	else
		FUZZ_ASSERT(err.message == NULL, "success with an error message");
	parse_error_release(&err);
	parse_error_release(&warning);
	return r;
}

static void check_json_round_trip(enum parser_kind kind, const char *selector, const char *text,
				  size_t len, const struct metric_set *parsed)
{
	json_t *doc;
	char *dumped;
	struct metric_set again = METRIC_SET_INIT;
	size_t i = 0;

	while (i < len && strchr(" \t\r\n", text[i]))
		i++;
	if (i == len || (text[i] != '{' && text[i] != '['))
		return;
	doc = json_loadb(text, len, JSON_DECODE_ANY, NULL);
	if (!doc)
		return;
	dumped = json_dumps(doc, JSON_COMPACT | JSON_ENCODE_ANY | JSON_REAL_PRECISION(17));
	json_decref(doc);
	if (!dumped)
		return;
	FUZZ_ASSERT(parse_into(kind, selector, dumped, strlen(dumped), &again) == 0,
		    "the document written back does not parse: %s", dumped);
	FUZZ_ASSERT(same_metrics(parsed, &again), "the document written back parses differently: %s", dumped);
	metric_set_release(&again);
	free(dumped);
}

static void check_number_round_trip(const struct metric_set *parsed)
{
	struct strbuf sb = STRBUF_INIT;
	struct metric_set again = METRIC_SET_INIT;
	const struct metric *m;

	FUZZ_ASSERT(parsed->n_metrics == 1, "number output gave %zu metrics", parsed->n_metrics);
	m = &parsed->metrics[0];
	strbuf_addf(&sb, "# better: %s\n# unit: %s\n", m->better == BETTER_LOWER ? "lower" : "higher",
		    unit_of(m));
	for (size_t k = 0; k < m->n_samples; k++)
		strbuf_addf(&sb, "%.17g\n", m->samples[k]);
	FUZZ_ASSERT(parse_into(PARSER_NUMBER, NULL, sb.buf, sb.len, &again) == 0,
		    "written numbers do not parse:\n%s", sb.buf);
	FUZZ_ASSERT(same_metrics(parsed, &again), "written numbers parse differently:\n%s", sb.buf);
	metric_set_release(&again);
	strbuf_release(&sb);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	enum parser_kind kind = FUZZ_PARSER_KIND;
	struct metric_set set = METRIC_SET_INIT, parsed = METRIC_SET_INIT;
	char *input = fuzz_text(data, size), *selector = NULL;
	const char *text;
	size_t len;
	int r;

	if (!input)
		return 0;
	text = input;
	if (kind == PARSER_JSON) {
		char *nl = strchr(input, '\n');
		struct parse_error err = PARSE_ERROR_INIT;

		if (!nl) {
			free(input);
			return 0;
		}
		selector = xstrndup(input, (size_t)(nl - input));
		text = nl + 1;
		if (parser_selector_check(selector, &err) < 0) {
			parse_error_release(&err);
			free(selector);
			free(input);
			return 0;
		}
	}
	len = strlen(text);
	(void)parser_detect(text, len);

	add_sentinel(&set);
	r = parse_into(kind, selector, text, len, &set);
	if (r < 0) {
		check_sentinel_only(&set);
		metric_set_release(&set);
		free(selector);
		free(input);
		return 0;
	}
	FUZZ_ASSERT(parse_into(kind, selector, text, len, &parsed) == 0, "parsing twice gives another answer");
	FUZZ_ASSERT(set.n_metrics == parsed.n_metrics + !metric_set_find(&parsed, "sentinel"),
		    "the set did not gain the parsed metrics");
	for (size_t i = 0; i < parsed.n_metrics; i++)
		FUZZ_ASSERT(parsed.metrics[i].n_samples > 0, "metric '%s' without samples", parsed.metrics[i].name);
	FUZZ_ASSERT(parse_into(kind, selector, text, len, &parsed) == 0, "parsing again fails");
	for (size_t i = 0; i < parsed.n_metrics; i++) {
		const struct metric *m = &parsed.metrics[i];
		size_t half = m->n_samples / 2;

		FUZZ_ASSERT(m->n_samples % 2 == 0, "parsing again did not append every sample");
		for (size_t k = 0; k < half; k++)
			FUZZ_ASSERT(m->samples[k] == m->samples[half + k] && isfinite(m->samples[k]),
				    "parsing again appended other samples");
	}
	if (parsed.has_checks) {
		struct metric_set once = METRIC_SET_INIT;

		FUZZ_ASSERT(parse_into(kind, selector, text, len, &once) == 0, "parsing again fails");
		FUZZ_ASSERT(parsed.n_failed == 2 * once.n_failed, "parsing again did not add every failure");
		for (size_t o = 0; o < CHECK_OUTCOMES; o++)
			FUZZ_ASSERT(parsed.checks[o] == 2 * once.checks[o], "parsing again did not add every check");
		FUZZ_ASSERT(once.checks[CHECK_FAILED] == once.n_failed, "a failed check without a name");
		/* Only the new,old tables a KUnit test prints in its KTAP are metrics. */
		FUZZ_ASSERT(once.n_metrics == 0 || memmem(text, len, "new,old", 7), "KTAP output gave metrics");
		metric_set_release(&once);
	}
	metric_set_release(&parsed);
	FUZZ_ASSERT(parse_into(kind, selector, text, len, &parsed) == 0, "parsing again fails");
	if (kind != PARSER_NUMBER && parser_detect(text, len) != PARSER_NUMBER)
		check_json_round_trip(kind, selector, text, len, &parsed);
	if (kind == PARSER_NUMBER)
		check_number_round_trip(&parsed);
	metric_set_release(&parsed);
	metric_set_release(&set);
	free(selector);
	free(input);
	return 0;
}

#endif
