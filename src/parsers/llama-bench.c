/*
 * llama-bench (llama.cpp tools/llama-bench/llama-bench.cpp) results.
 *
 * -o jsonl prints one JSON object per line; -o json prints "[", the same
 * objects separated by ",\n", flushing after each, and "\n]" at the end, so
 * a run killed half-way leaves an array without its "]" and maybe half an
 * object. Each object carries the test shape (n_prompt, n_gen, n_depth),
 * the model (model_type, model_filename), the configuration (n_threads,
 * n_batch, ...) and the per-repetition speeds in samples_ts (tokens/s).
 */
#include "parsers/parser-internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lib/alloc.h"
#include "lib/strbuf.h"

struct llama_result {
	json_t *obj;
	size_t offset;          /* where the object starts in the data */
	const char *model_key;  /* model_filename, else model_type; borrowed from obj */
	const char *model_type;
	size_t model_index;
	char *test;             /* "pp512", "tg128 @ d4096", "pp512+tg128" */
	char *group_key;        /* model_key, a separator, test */
	char *name;             /* the metric name */
};

struct llama_results {
	struct llama_result *v;
	size_t n, alloc;
};

/*
 * Fields that describe one result or the model rather than how the test
 * was configured. Two results of the same model and test that differ in
 * any other field (n_threads, n_batch, type_k, ...) are different metrics.
 * build_commit is here on purpose: runs appended after a rebuild are still
 * repetitions; the campaign's version records flag the rebuild.
 */
static const char *const result_fields[] = {
	"build_commit", "build_number", "cpu_info", "gpu_info", "model_filename",
	"model_type", "model_size", "model_n_params", "n_prompt", "n_gen", "n_depth",
	"test_time", "avg_ns", "stddev_ns", "avg_ts", "stddev_ts", "samples_ns", "samples_ts",
};

static bool is_result_field(const char *key)
{
	for (size_t i = 0; i < sizeof(result_fields) / sizeof(result_fields[0]); i++)
		if (!strcmp(key, result_fields[i]))
			return true;
	return false;
}

bool llama_bench_recognise(const json_t *doc)
{
	if (json_is_array(doc))
		doc = json_array_get(doc, 0);
	return json_is_object(doc) && (json_object_get(doc, "n_prompt") ||
				       json_object_get(doc, "avg_ts") ||
				       json_object_get(doc, "samples_ts"));
}

static int shape_get(const json_t *obj, const char *key, bool required, json_int_t *ret)
{
	const json_t *v = json_object_get(obj, key);

	if (!v && !required) {
		*ret = 0;
		return 0;
	}
	if (!json_is_integer(v) || json_integer_value(v) < 0 || json_integer_value(v) > 1000000000)
		return -EINVAL;
	*ret = json_integer_value(v);
	return 0;
}

/* The test as llama-bench's markdown printer names it. */
static char *test_name(json_int_t n_prompt, json_int_t n_gen, json_int_t n_depth)
{
	struct strbuf sb = STRBUF_INIT;

	if (n_prompt > 0 && n_gen == 0)
		strbuf_addf(&sb, "pp%lld", (long long)n_prompt);
	else if (n_gen > 0 && n_prompt == 0)
		strbuf_addf(&sb, "tg%lld", (long long)n_gen);
	else
		strbuf_addf(&sb, "pp%lld+tg%lld", (long long)n_prompt, (long long)n_gen);
	if (n_depth > 0)
		strbuf_addf(&sb, " @ d%lld", (long long)n_depth);
	return strbuf_detach(&sb, NULL);
}

static int result_check(const char *data, struct llama_result *r, struct parse_error *err)
{
	const json_t *samples, *v;
	json_int_t n_prompt, n_gen, n_depth;
	size_t i;

	if (!json_is_object(r->obj)) {
		parser_error_at(err, data, r->offset, "expected a llama-bench result object, found %s",
				json_type_phrase(r->obj));
		return -EINVAL;
	}
	v = json_object_get(r->obj, "model_type");
	if (!json_is_string(v) || !json_string_length(v)) {
		parser_error_at(err, data, r->offset, "llama-bench result without model_type");
		return -EINVAL;
	}
	r->model_type = json_string_value(v);
	v = json_object_get(r->obj, "model_filename");
	r->model_key = json_is_string(v) ? json_string_value(v) : r->model_type;
	if (shape_get(r->obj, "n_prompt", true, &n_prompt) < 0 ||
	    shape_get(r->obj, "n_gen", true, &n_gen) < 0 ||
	    shape_get(r->obj, "n_depth", false, &n_depth) < 0) {
		parser_error_at(err, data, r->offset,
				"llama-bench result needs n_prompt and n_gen (and n_depth, if present) as counts of tokens");
		return -EINVAL;
	}
	if (n_prompt == 0 && n_gen == 0) {
		parser_error_at(err, data, r->offset, "llama-bench result with n_prompt and n_gen both 0");
		return -EINVAL;
	}
	r->test = test_name(n_prompt, n_gen, n_depth);

	samples = json_object_get(r->obj, "samples_ts");
	if (samples) {
		if (!json_is_array(samples) || !json_array_size(samples)) {
			parser_error_at(err, data, r->offset,
					"samples_ts of the %s result is not a list of numbers", r->test);
			return -EINVAL;
		}
		json_array_foreach(samples, i, v) {
			double x;

			if (json_sample(v, false, &x) < 0) {
				parser_error_at(err, data, r->offset,
						"samples_ts[%zu] of the %s result is %s, not a speed >= 0",
						i, r->test, json_type_phrase(v));
				return -EINVAL;
			}
		}
	} else {
		double x;

		v = json_object_get(r->obj, "avg_ts");
		if (!v) {
			parser_error_at(err, data, r->offset,
					"the %s result has neither samples_ts nor avg_ts", r->test);
			return -EINVAL;
		}
		if (json_sample(v, false, &x) < 0) {
			parser_error_at(err, data, r->offset,
					"avg_ts of the %s result is %s, not a speed >= 0",
					r->test, json_type_phrase(v));
			return -EINVAL;
		}
	}
	return 0;
}

static void results_release(struct llama_results *rs)
{
	for (size_t i = 0; i < rs->n; i++) {
		json_decref(rs->v[i].obj);
		free(rs->v[i].test);
		free(rs->v[i].group_key);
		free(rs->v[i].name);
	}
	free(rs->v);
}

static int results_add(struct llama_results *rs, const char *data, json_t *obj, size_t offset,
		       struct parse_error *err)
{
	struct llama_result *r;

	GROW(rs->v, rs->alloc, rs->n + 1);
	r = &rs->v[rs->n++];
	memset(r, 0, sizeof(*r));
	r->obj = obj;
	r->offset = offset;
	return result_check(data, r, err);
}

static void cut_warning(struct parse_error *warning, const char *data, size_t offset, size_t n)
{
	parser_error_at(warning, data, offset,
			"llama-bench output ends here, cut off after %zu complete result%s (was the run killed?); the rest is ignored",
			n, n == 1 ? "" : "s");
}

static void cut_error(struct parse_error *err, const char *data, size_t offset)
{
	parser_error_at(err, data, offset,
			"llama-bench output ends inside its first result (was the run killed?)");
}

/*
 * One "-o json" array from docs->pos, which is at its '['. Returns 0, 1 when
 * the data ends inside the array (the run was cut off), or -EINVAL.
 */
static int read_array(struct json_docs *docs, struct llama_results *rs,
		      struct parse_error *err, struct parse_error *warning)
{
	size_t before = rs->n;

	docs->pos++;
	for (;;) {
		size_t offset;
		json_t *obj;
		bool cut = false;
		int r;

		if (!json_docs_skip_blanks(docs))
			goto cut_off;
		if (rs->n == before && docs->data[docs->pos] == ']') {
			docs->pos++;
			return 0;
		}
		if (docs->data[docs->pos] != '{') {
			parser_error_at(err, docs->data, docs->pos,
					"expected a llama-bench result object in the array");
			return -EINVAL;
		}
		r = json_docs_next(docs, JSON_REJECT_DUPLICATES, &obj, &offset, err, &cut);
		if (r < 0) {
			if (cut)
				goto cut_off;
			return r;
		}
		r = results_add(rs, docs->data, obj, offset, err);
		if (r < 0)
			return r;
		if (!json_docs_skip_blanks(docs))
			goto cut_off;
		if (docs->data[docs->pos] == ']') {
			docs->pos++;
			return 0;
		}
		if (docs->data[docs->pos] != ',') {
			parser_error_at(err, docs->data, docs->pos,
					"expected ',' or ']' after a llama-bench result");
			return -EINVAL;
		}
		docs->pos++;
	}
cut_off:
	if (!rs->n) {
		cut_error(err, docs->data, docs->len);
		return -EINVAL;
	}
	cut_warning(warning, docs->data, docs->len, rs->n);
	return 1;
}

static int read_results(const char *data, size_t len, struct llama_results *rs,
			struct parse_error *err, struct parse_error *warning)
{
	struct json_docs docs = JSON_DOCS_INIT(data, len);

	while (json_docs_skip_blanks(&docs)) {
		size_t offset;
		json_t *obj;
		bool cut = false;
		int r;

		if (data[docs.pos] == '[') {
			r = read_array(&docs, rs, err, warning);
			if (r < 0)
				return r;
			if (r > 0)
				break;
			continue;
		}
		if (data[docs.pos] != '{') {
			parser_error_at(err, data, docs.pos,
					"expected a llama-bench result ('{' of -o jsonl or '[' of -o json)");
			return -EINVAL;
		}
		r = json_docs_next(&docs, JSON_REJECT_DUPLICATES, &obj, &offset, err, &cut);
		if (r < 0) {
			if (!cut)
				return r;
			if (!rs->n) {
				cut_error(err, data, len);
				return -EINVAL;
			}
			cut_warning(warning, data, len, rs->n);
			break;
		}
		r = results_add(rs, data, obj, offset, err);
		if (r < 0)
			return r;
	}
	if (!rs->n) {
		parse_error_set(err, 0, 0, "no llama-bench results");
		return -EINVAL;
	}
	return 0;
}

static int compare_group(const void *a, const void *b)
{
	const struct llama_result *const *x = a, *const *y = b;
	int c = strcmp((*x)->group_key, (*y)->group_key);

	if (c)
		return c;
	return *x < *y ? -1 : *x > *y;
}

static void value_append(struct strbuf *sb, const json_t *v)
{
	char *s;

	switch (json_typeof(v)) {
	case JSON_STRING:
		strbuf_addstr(sb, json_string_value(v));
		return;
	case JSON_INTEGER:
		strbuf_addf(sb, "%lld", (long long)json_integer_value(v));
		return;
	case JSON_REAL:
		strbuf_addf(sb, "%g", json_real_value(v));
		return;
	default:
		s = json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY);
		strbuf_addstr(sb, s ? s : "?");
		free(s);
	}
}

/* Whether key has the same value (or is absent) in every result of the group. */
static bool same_in_group(struct llama_result **group, size_t n, const char *key)
{
	const json_t *first = json_object_get(group[0]->obj, key);

	for (size_t i = 1; i < n; i++) {
		const json_t *v = json_object_get(group[i]->obj, key);

		if (!first != !v || (v && !json_equal(first, v)))
			return false;
	}
	return true;
}

/*
 * Names a group of results with the same model and test. When they were
 * run with different settings (-t 8,16), each gets the differing settings
 * appended, "pp512 n_threads=16"; when not, they are repetitions of one
 * metric.
 */
static void name_group(struct llama_result **group, size_t n, const char *prefix)
{
	struct strbuf varying = STRBUF_INIT;   /* differing keys, NUL-separated */
	size_t n_varying = 0;

	for (size_t i = 0; i < n; i++) {
		const char *key;
		json_t *v;

		json_object_foreach(group[i]->obj, key, v) {
			bool seen = false;
			size_t at = 0;

			if (is_result_field(key))
				continue;
			for (size_t k = 0; k < n_varying; k++) {
				if (!strcmp(varying.buf + at, key))
					seen = true;
				at += strlen(varying.buf + at) + 1;
			}
			if (seen || same_in_group(group, n, key))
				continue;
			strbuf_add(&varying, key, strlen(key) + 1);
			n_varying++;
		}
	}
	for (size_t i = 0; i < n; i++) {
		struct strbuf sb = STRBUF_INIT;
		size_t at = 0;

		strbuf_addf(&sb, "%s%s", prefix ? prefix : "", group[i]->test);
		for (size_t k = 0; k < n_varying; k++) {
			const char *key = varying.buf + at;
			const json_t *v = json_object_get(group[i]->obj, key);

			strbuf_addf(&sb, " %s=", key);
			if (v)
				value_append(&sb, v);
			else
				strbuf_addstr(&sb, "-");
			at += strlen(key) + 1;
		}
		group[i]->name = strbuf_detach(&sb, NULL);
	}
	strbuf_release(&varying);
}

/*
 * The models of a file, in first-seen order. When there are several, names
 * start with the model: model_type ("gpt-oss 120B MXFP4 MoE | pp512"), or
 * model_filename when two files share a model_type.
 */
struct llama_models {
	const char **keys;
	char **prefixes;
	size_t n, alloc, alloc_prefixes;
};

static size_t models_index(struct llama_models *ms, const char *key)
{
	size_t i;

	for (i = 0; i < ms->n; i++)
		if (!strcmp(ms->keys[i], key))
			return i;
	GROW(ms->keys, ms->alloc, ms->n + 1);
	ms->keys[ms->n] = key;
	return ms->n++;
}

static void models_name(struct llama_models *ms, const struct llama_results *rs)
{
	ms->prefixes = xcalloc(ms->n ? ms->n : 1, sizeof(*ms->prefixes));
	if (ms->n < 2)
		return;
	for (size_t m = 0; m < ms->n; m++) {
		const char *type = NULL;
		bool shared = false;

		for (size_t i = 0; i < rs->n; i++)
			if (rs->v[i].model_index == m) {
				type = rs->v[i].model_type;
				break;
			}
		for (size_t i = 0; i < rs->n; i++)
			if (rs->v[i].model_index != m && !strcmp(rs->v[i].model_type, type))
				shared = true;
		ms->prefixes[m] = xasprintf("%s | ", shared ? ms->keys[m] : type);
	}
}

static void models_release(struct llama_models *ms)
{
	for (size_t i = 0; ms->prefixes && i < ms->n; i++)
		free(ms->prefixes[i]);
	free(ms->prefixes);
	free(ms->keys);
}

/* One field as "key=value" after sep into sb: strings as they are, anything else as compact JSON. */
static void add_origin_field(struct strbuf *sb, const char *key, const json_t *v)
{
	char *text = json_is_string(v) ? NULL : json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT);

	strbuf_addf(sb, "%s%s=%s", sb->len ? "\x1f" : "", key, text ? text : json_string_value(v));
	free(text);
}

/* The build, the model file and every setting of a result: what must match for two sides to compare. */
static char *result_origin(const json_t *obj)
{
	static const char *const named[] = { "build_commit", "model_filename" };
	struct strbuf sb = STRBUF_INIT;
	const char *key;
	json_t *v;

	for (size_t i = 0; i < 2; i++)
		if ((v = json_object_get(obj, named[i])))
			add_origin_field(&sb, named[i], v);
	json_object_foreach((json_t *)obj, key, v)
		if (!is_result_field(key))
			add_origin_field(&sb, key, v);
	return strbuf_detach(&sb, NULL);
}

static void add_samples(struct metric_set *set, const struct llama_result *r)
{
	const json_t *samples = json_object_get(r->obj, "samples_ts"), *v;
	struct metric *m = NULL;
	char *origin = result_origin(r->obj);
	size_t i;

	if (!samples) {
		m = metric_set_add_sample(set, r->name, BETTER_HIGHER, "t/s",
					  json_number_value(json_object_get(r->obj, "avg_ts")));
	} else {
		json_array_foreach(samples, i, v) {
			if (i == 0)
				m = metric_set_add_sample(set, r->name, BETTER_HIGHER, "t/s", json_number_value(v));
			else
				metric_append(m, json_number_value(v));
		}
	}
	if (m)
		metric_set_origin(m, origin);
	free(origin);
}

int llama_bench_parse(const char *data, size_t len, struct metric_set *set,
		      struct parse_error *err, struct parse_error *warning)
{
	struct llama_results rs = { NULL, 0, 0 };
	struct llama_models ms = { NULL, NULL, 0, 0, 0 };
	struct llama_result **order = NULL;
	int r;

	r = read_results(data, len, &rs, err, warning);
	if (r < 0)
		goto out;

	order = xcalloc(rs.n, sizeof(*order));
	for (size_t i = 0; i < rs.n; i++) {
		rs.v[i].model_index = models_index(&ms, rs.v[i].model_key);
		rs.v[i].group_key = xasprintf("%s\x1f%s", rs.v[i].model_key, rs.v[i].test);
		order[i] = &rs.v[i];
	}
	models_name(&ms, &rs);
	qsort(order, rs.n, sizeof(*order), compare_group);
	for (size_t i = 0; i < rs.n;) {
		size_t j = i + 1;

		while (j < rs.n && !strcmp(order[j]->group_key, order[i]->group_key))
			j++;
		name_group(order + i, j - i, ms.prefixes[order[i]->model_index]);
		i = j;
	}
	for (size_t i = 0; i < rs.n; i++)
		add_samples(set, &rs.v[i]);
	r = 0;
out:
	free(order);
	models_release(&ms);
	results_release(&rs);
	return r;
}

size_t llama_bench_markdown_line(const char *data, size_t len)
{
	size_t pos = 0, begin, end, line = 0;

	/* Its header: "| model | size | params | backend | ngl | test | t/s |" (columns vary with the options). */
	while (text_next_line(data, len, &pos, &begin, &end)) {
		line++;
		text_trim(data, &begin, &end);
		if (text_starts(data, begin, end, "| model") && memmem(data + begin, end - begin, " test |", 7) &&
		    memmem(data + begin, end - begin, " t/s |", 6))
			return line;
	}
	return 0;
}
