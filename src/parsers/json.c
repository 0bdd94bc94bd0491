/*
 * Any JSON output, one number per document picked by a selector:
 * ".results[0].mean", "results.0.mean", ".[\"fio version\"]", ".[-1]".
 * Each document in the file (a row's reps appended one after another) gives
 * one sample of the metric named by the selector.
 */
#include "parsers/parser-internal.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "lib/alloc.h"
#include "lib/parse-number.h"
#include "parsers/parser.h"

#define SELECTOR_MAX 1024

enum segment_kind {
	SEGMENT_NAME,    /* .name: an object key, or an array index when all digits */
	SEGMENT_KEY,     /* ["name"]: an object key */
	SEGMENT_INDEX,   /* [N]: an array index, negative from the end */
};

struct segment {
	enum segment_kind kind;
	char *key;
	long index;
	size_t end;      /* where the segment ends in the selector text */
};

struct selector {
	struct segment *v;
	size_t n, alloc;
};

static void selector_release(struct selector *sel)
{
	for (size_t i = 0; i < sel->n; i++)
		free(sel->v[i].key);
	free(sel->v);
	sel->v = NULL;
	sel->n = sel->alloc = 0;
}

static struct segment *segment_add(struct selector *sel, enum segment_kind kind)
{
	struct segment *seg;

	GROW(sel->v, sel->alloc, sel->n + 1);
	seg = &sel->v[sel->n++];
	memset(seg, 0, sizeof(*seg));
	seg->kind = kind;
	return seg;
}

static int selector_fail(struct parse_error *err, const char *text, size_t at, const char *what)
{
	parse_error_set(err, 0, 0, "bad JSON selector '%s' at character %zu: %s", text, at + 1, what);
	return -EINVAL;
}

static int selector_compile(const char *text, struct selector *sel, struct parse_error *err)
{
	size_t len = text ? strlen(text) : 0, i = 0;

	if (!len) {
		parse_error_set(err, 0, 0, "the json parser needs a selector, such as .results[0].mean");
		return -EINVAL;
	}
	if (len > SELECTOR_MAX)
		return selector_fail(err, text, SELECTOR_MAX, "too long");
	if (!strcmp(text, "."))
		return 0;
	while (i < len) {
		struct segment *seg;
		size_t begin;

		if (text[i] == '[') {
			begin = ++i;
			if (text[i] == '"') {
				begin = ++i;
				while (i < len && text[i] != '"')
					i++;
				if (i == len || text[i + 1] != ']')
					return selector_fail(err, text, begin - 1,
							     "'[\"' needs a closing '\"]'");
				seg = segment_add(sel, SEGMENT_KEY);
				seg->key = xstrndup(text + begin, i - begin);
				i += 2;
			} else {
				const char *stop = NULL;
				long index;

				while (i < len && text[i] != ']')
					i++;
				if (i == len)
					return selector_fail(err, text, begin - 1, "'[' needs a closing ']'");
				if (i == begin ||
				    number_scan_long(text + begin, 10, LONG_MIN + 1, LONG_MAX - 1, &index, &stop) < 0 ||
				    stop != text + i)
					return selector_fail(err, text, begin,
							     "expected an array index such as [0] or [-1], or a key such as [\"name\"]");
				seg = segment_add(sel, SEGMENT_INDEX);
				seg->index = index;
				i++;
			}
			seg->end = i;
			continue;
		}
		if (text[i] == '.') {
			i++;
			if (i < len && text[i] == '[')
				continue;
		} else if (i > 0) {
			return selector_fail(err, text, i, "expected '.' or '['");
		}
		begin = i;
		while (i < len && text[i] != '.' && text[i] != '[')
			i++;
		if (i == begin)
			return selector_fail(err, text, begin, "empty key");
		seg = segment_add(sel, SEGMENT_NAME);
		seg->key = xstrndup(text + begin, i - begin);
		seg->end = i;
	}
	return 0;
}

int parser_selector_check(const char *selector, struct parse_error *err)
{
	struct selector sel = { NULL, 0, 0 };
	int r = selector_compile(selector, &sel, err);

	selector_release(&sel);
	return r;
}

static const json_t *array_at(const json_t *array, long index)
{
	size_t n = json_array_size(array);

	if (index < 0) {
		if ((unsigned long)-(index + 1) >= n)
			return NULL;
		return json_array_get(array, n - (size_t)-(index + 1) - 1);
	}
	return json_array_get(array, (size_t)index);
}

/*
 * The number the selector picks in doc, or -EINVAL with *err naming the
 * part of the selector that found nothing.
 */
static int select_number(const char *text, const struct selector *sel, const json_t *doc,
			 const char *data, size_t offset, double *ret, struct parse_error *err)
{
	const json_t *v = doc;
	size_t done = 0;

	for (size_t i = 0; i < sel->n; i++) {
		const struct segment *seg = &sel->v[i];
		const json_t *next = NULL;
		long index;

		if (json_is_object(v) && seg->kind != SEGMENT_INDEX)
			next = json_object_get(v, seg->key);
		else if (json_is_array(v) && seg->kind == SEGMENT_INDEX)
			next = array_at(v, seg->index);
		else if (json_is_array(v) && seg->kind == SEGMENT_NAME && number_is_digits(seg->key) &&
			 number_parse_long(seg->key, 0, LONG_MAX, &index) == 0)
			next = array_at(v, index);
		if (!next) {
			const char *where = done ? "" : "the document";

			if (json_is_object(v) && seg->kind != SEGMENT_INDEX)
				parser_error_at(err, data, offset,
						"selector '%s' finds nothing: %s%.*s has no key '%s'",
						text, where, (int)done, text, seg->key);
			else if (json_is_array(v))
				parser_error_at(err, data, offset,
						"selector '%s' finds nothing: %s%.*s has %zu elements, no '%.*s'",
						text, where, (int)done, text, json_array_size(v),
						(int)(seg->end - done), text + done);
			else
				parser_error_at(err, data, offset,
						"selector '%s' finds nothing: %s%.*s is %s",
						text, where, (int)done, text, json_type_phrase(v));
			return -EINVAL;
		}
		v = next;
		done = seg->end;
	}
	if (json_sample(v, true, ret) < 0) {
		parser_error_at(err, data, offset, "selector '%s' finds %s, not a number", text,
				json_type_phrase(v));
		return -EINVAL;
	}
	return 0;
}

int json_select_parse(const char *selector, const char *data, size_t len, struct metric_set *set,
		      struct parse_error *err, struct parse_error *warning)
{
	struct json_docs docs = JSON_DOCS_INIT(data, len);
	struct selector sel = { NULL, 0, 0 };
	size_t n_docs = 0;
	int r;

	(void)warning;
	r = selector_compile(selector, &sel, err);
	while (r == 0) {
		size_t offset;
		json_t *doc;
		double x;

		r = json_docs_next(&docs, JSON_DECODE_ANY, &doc, &offset, err, NULL);
		if (r <= 0)
			break;
		r = select_number(selector, &sel, doc, data, offset, &x, err);
		json_decref(doc);
		if (r < 0)
			break;
		metric_set_add_sample(set, selector, BETTER_HIGHER, "", x);
		n_docs++;
	}
	if (r == 0 && !n_docs) {
		parse_error_set(err, 0, 0, "no JSON document");
		r = -EINVAL;
	}
	selector_release(&sel);
	return r;
}
