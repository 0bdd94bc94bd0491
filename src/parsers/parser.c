#include "parsers/parser.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lib/alloc.h"
#include "lib/escape.h"
#include "parsers/parser-internal.h"

static const char *const kind_names[] = {
	[PARSER_AUTO] = "auto",
	[PARSER_LLAMA_BENCH] = "llama-bench",
	[PARSER_FIO] = "fio",
	[PARSER_HYPERFINE] = "hyperfine",
	[PARSER_NUMBER] = "number",
	[PARSER_JSON] = "json",
	[PARSER_DMA_MAP_BENCHMARK] = "dma-map-benchmark",
	[PARSER_KTAP] = "ktap",
	[PARSER_NEW_OLD_TABLE] = "new-old-table",
	[PARSER_REGEX] = "regex",
};

#define N_KINDS (sizeof(kind_names) / sizeof(kind_names[0]))

const char *parser_kind_name(enum parser_kind kind)
{
	if ((size_t)kind >= N_KINDS)
		return NULL;
	return kind_names[kind];
}

int parser_kind_from_name(const char *name, enum parser_kind *ret_kind)
{
	for (size_t i = 0; name && i < N_KINDS; i++) {
		if (!strcmp(name, kind_names[i])) {
			*ret_kind = (enum parser_kind)i;
			return 0;
		}
	}
	return -EINVAL;
}

static bool is_blank(char c)
{
	return c == ' ' || c == '\t';
}

int parser_spec_parse(const char *spec, enum parser_kind *ret_kind, char **ret_selector)
{
	enum parser_kind kind;
	size_t n = 0, rest;
	char *name;
	int r;

	if (!spec)
		return -EINVAL;
	while (spec[n] && !is_blank(spec[n]))
		n++;
	rest = n;
	while (is_blank(spec[rest]))
		rest++;
	name = xstrndup(spec, n);
	r = parser_kind_from_name(name, &kind);
	free(name);
	if (r < 0)
		return r;
	if ((kind == PARSER_JSON) != (spec[rest] != '\0'))
		return -EINVAL;
	if (kind == PARSER_JSON) {
		size_t end = strlen(spec);

		while (end > rest && is_blank(spec[end - 1]))
			end--;
		if (parser_selector_check(spec + rest, NULL) < 0)
			return -EINVAL;
		*ret_selector = xstrndup(spec + rest, end - rest);
	} else {
		*ret_selector = NULL;
	}
	*ret_kind = kind;
	return 0;
}

/* The line of the first line that is neither blank nor a comment, or 0. */
static unsigned first_data_line(const char *data, size_t len)
{
	unsigned line = 1;
	size_t pos = 0;

	while (pos < len) {
		while (pos < len && (is_blank(data[pos]) || data[pos] == '\r'))
			pos++;
		if (pos < len && data[pos] != '\n' && data[pos] != '#')
			return line;
		while (pos < len && data[pos] != '\n')
			pos++;
		pos++;
		line++;
	}
	return 0;
}

/*
 * Whether the data is a plain list of numbers (comments allowed). When it
 * is not, but its first line is a number, it was meant as one: *err gets
 * the number parser's complaint, which says more than "not recognised".
 */
static bool is_number_list(const char *data, size_t len, struct parse_error *err)
{
	struct metric_set scratch = METRIC_SET_INIT;
	struct parse_error failure = PARSE_ERROR_INIT;
	int r = number_parse(data, len, &scratch, &failure, NULL);

	if (r < 0 && failure.line && failure.line != first_data_line(data, len) && err)
		parse_error_set(err, failure.line, failure.column, "%s", failure.message);
	metric_set_release(&scratch);
	parse_error_release(&failure);
	return r == 0;
}

/*
 * The first JSON value from offset: for an array, its first element, so
 * that a llama-bench array cut off by a killed run is still recognised.
 */
static json_t *first_value(const char *data, size_t len, size_t offset, bool *ret_cut,
			   struct parse_error *err)
{
	struct json_docs docs = JSON_DOCS_INIT(data, len);
	size_t start;
	json_t *doc = NULL;

	*ret_cut = false;
	docs.pos = offset;
	if (!json_docs_skip_blanks(&docs))
		return NULL;
	if (data[docs.pos] == '[') {
		docs.pos++;
		if (!json_docs_skip_blanks(&docs) || data[docs.pos] != '{')
			return NULL;
	}
	if (json_docs_next(&docs, 0, &doc, &start, err, ret_cut) <= 0)
		return NULL;
	return doc;
}

/*
 * A llama-bench run killed while it wrote its first result leaves no
 * complete object to look at; its field names still say what it was, and
 * the llama-bench parser then explains the cut.
 */
static bool has_llama_bench_fields(const char *data, size_t len)
{
	return memmem(data, len, "\"n_prompt\":", 11) && memmem(data, len, "\"model_type\":", 13);
}

/* The text formats known by a line only their tool prints, or PARSER_AUTO. */
static enum parser_kind text_kind(const char *data, size_t len)
{
	if (dma_map_benchmark_recognise(data, len))
		return PARSER_DMA_MAP_BENCHMARK;
	if (ktap_recognise(data, len))
		return PARSER_KTAP;
	if (new_old_table_recognise(data, len))
		return PARSER_NEW_OLD_TABLE;
	return PARSER_AUTO;
}

/*
 * parser_detect(), and when the data starts as JSON but is not, the JSON
 * error in *err (which stays untouched otherwise).
 */
static enum parser_kind detect(const char *data, size_t len, struct parse_error *err)
{
	enum parser_kind kind = PARSER_AUTO;
	struct parse_error bad_json = PARSE_ERROR_INIT;
	size_t start = 0;
	bool cut;
	json_t *doc;

	while (start < len && (is_blank(data[start]) || data[start] == '\n' || data[start] == '\r'))
		start++;
	if (start == len)
		return PARSER_AUTO;
	if (data[start] != '{' && data[start] != '[') {
		if (text_kind(data, len) != PARSER_AUTO)
			return text_kind(data, len);
		if (is_number_list(data, len, &bad_json)) {
			parse_error_release(&bad_json);
			return PARSER_NUMBER;
		}
		/* fio prints notes and errors before its JSON. */
		start = fio_json_start(data, len);
		doc = first_value(data, len, start, &cut, NULL);
		kind = fio_recognise(doc) ? PARSER_FIO : PARSER_AUTO;
		/* hyperfine --export-json /dev/stdout through a pipe: its human text, then JSON. */
		if (kind == PARSER_AUTO && hyperfine_recognise(doc) && hyperfine_json_start(data, len, 0) == start)
			kind = PARSER_HYPERFINE;
		if (kind == PARSER_AUTO && bad_json.message && err)
			parse_error_set(err, bad_json.line, bad_json.column, "%s", bad_json.message);
		json_decref(doc);
		parse_error_release(&bad_json);
		return kind;
	}
	doc = first_value(data, len, start, &cut, &bad_json);
	if (!doc && cut && has_llama_bench_fields(data, len))
		kind = PARSER_LLAMA_BENCH;
	/* dmesg lines start with '[': "[    0.412344] KTAP version 1". */
	else if (!doc && text_kind(data, len) != PARSER_AUTO)
		kind = text_kind(data, len);
	else if (!doc && bad_json.message && err)
		parse_error_set(err, bad_json.line, bad_json.column, "%s%s", bad_json.message,
				hyperfine_text_mixed(data, len)
					? " (hyperfine's human text written over its JSON: run it with --style none)" : "");
	else if (llama_bench_recognise(doc))
		kind = PARSER_LLAMA_BENCH;
	else if (fio_recognise(doc))
		kind = PARSER_FIO;
	else if (hyperfine_recognise(doc))
		kind = PARSER_HYPERFINE;
	json_decref(doc);
	parse_error_release(&bad_json);
	return kind;
}

enum parser_kind parser_detect(const char *data, size_t len)
{
	return detect(data, len, NULL);
}

/* metric_set_merge(), looking each metric up once rather than once a sample. */
static void merge(struct metric_set *set, struct metric_set *parsed)
{
	if (!set->n_metrics && !set->has_checks) {
		metric_set_release(set);
		*set = *parsed;
		*parsed = (struct metric_set)METRIC_SET_INIT;
		return;
	}
	for (size_t i = 0; i < parsed->n_metrics; i++) {
		const struct metric *from = &parsed->metrics[i];
		struct metric *to = metric_set_add_sample(set, from->name, from->better, from->unit,
							  from->samples[0]);

		for (size_t j = 1; j < from->n_samples; j++)
			metric_append(to, from->samples[j]);
	}
	metric_set_merge_checks(set, parsed);
}

int parser_parse(enum parser_kind kind, const char *selector, const char *data, size_t len,
		 struct metric_set *set, struct parse_error *err, struct parse_error *warning)
{
	struct parse_error note = PARSE_ERROR_INIT, failure = PARSE_ERROR_INIT;
	struct metric_set parsed = METRIC_SET_INIT;
	size_t i;
	int r;

	for (i = 0; i < len; i++)
		if (!is_blank(data[i]) && data[i] != '\n' && data[i] != '\r')
			break;
	if (i == len) {
		parse_error_set(err, 0, 0, "empty file: no benchmark output");
		return -EINVAL;
	}
	if (kind == PARSER_AUTO || kind == PARSER_LLAMA_BENCH) {
		size_t line = llama_bench_markdown_line(data, len);

		/* The table keeps a mean and a deviation, not the reps a comparison needs. */
		if (line) {
			parse_error_set(err, (unsigned)line, 1, "llama-bench's markdown table (its default output) has no "
					"per-rep samples: run llama-bench with -o jsonl");
			return -EINVAL;
		}
	}
	if (kind == PARSER_AUTO) {
		struct parse_error bad_json = PARSE_ERROR_INIT;

		kind = detect(data, len, &bad_json);
		if (kind == PARSER_AUTO && bad_json.message) {
			parse_error_set(err, bad_json.line, bad_json.column, "%s", bad_json.message);
			parse_error_release(&bad_json);
			return -EINVAL;
		}
		if (kind == PARSER_AUTO) {
			parse_error_set(err, 0, 0,
					"not recognised as llama-bench, fio, hyperfine JSON, dma_map_benchmark, KTAP, a new,old table or one number per line");
			return -ENOMSG;
		}
	}
	switch (kind) {
	case PARSER_LLAMA_BENCH:
		r = llama_bench_parse(data, len, &parsed, &failure, &note);
		break;
	case PARSER_FIO:
		r = fio_parse(data, len, &parsed, &failure, &note);
		break;
	case PARSER_HYPERFINE:
		r = hyperfine_parse(data, len, &parsed, &failure, &note);
		break;
	case PARSER_NUMBER:
		r = number_parse(data, len, &parsed, &failure, &note);
		break;
	case PARSER_JSON:
		r = json_select_parse(selector, data, len, &parsed, &failure, &note);
		break;
	case PARSER_DMA_MAP_BENCHMARK:
		r = dma_map_benchmark_parse(data, len, &parsed, &failure, &note);
		break;
	case PARSER_KTAP:
		r = ktap_parse(data, len, &parsed, &failure, &note);
		/* A KUnit test's new,old tables (kunit_info lines) are in its KTAP. */
		if (r == 0 && new_old_table_recognise(data, len))
			r = new_old_table_parse(data, len, &parsed, &failure, &note);
		break;
	case PARSER_NEW_OLD_TABLE:
		r = new_old_table_parse(data, len, &parsed, &failure, &note);
		break;
	case PARSER_REGEX:
		parse_error_set(&failure, 0, 0, "the regex parser needs a pattern and a metric (parser_parse_regex())");
		r = -EINVAL;
		break;
	default:
		parse_error_set(&failure, 0, 0, "unknown parser");
		r = -EINVAL;
	}
	/* Names and units go into meta.json and every report as they are. */
	for (size_t m = 0; r == 0 && m < parsed.n_metrics; m++) {
		const struct metric *pm = &parsed.metrics[m];
		bool name_ok = metric_text_valid(pm->name, false);

		if (!name_ok || !metric_text_valid(pm->unit, true)) {
			char *shown = text_escape(name_ok ? pm->unit : pm->name);

			parse_error_set(&failure, 0, 0,
					"metric %s '%.200s%s' is not UTF-8 text of at most %d bytes without control characters",
					name_ok ? "unit" : "name", shown, strlen(shown) > 200 ? "..." : "", METRIC_NAME_MAX);
			free(shown);
			r = -EINVAL;
		}
		for (size_t k = 0; r == 0 && k < pm->n_samples; k++)
			if (!metric_sample_valid(pm->samples[k])) {
				char *shown = text_escape(pm->name);

				parse_error_set(&failure, 0, 0,
						"metric '%.200s' sample %zu is %g: beyond what bootab computes with (|x| <= %g)",
						shown, k + 1, pm->samples[k], METRIC_SAMPLE_MAX);
				free(shown);
				r = -EINVAL;
			}
	}
	/* A parser may note an error it later recovers from (a cut-off run): only a failure reaches err. */
	if (r < 0)
		parse_error_set(err, failure.line, failure.column, "%s", failure.message);
	if (r == 0) {
		merge(set, &parsed);
		if (note.message && warning)
			parse_error_set(warning, note.line, note.column, "%s", note.message);
	}
	metric_set_release(&parsed);
	parse_error_release(&note);
	parse_error_release(&failure);
	return r;
}
