#include "parsers/parser-internal.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>

#include "lib/alloc.h"
#include "lib/strbuf.h"

void parser_error_at(struct parse_error *err, const char *data, size_t offset,
		     const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	unsigned line, column;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	text_position(data, offset, &line, &column);
	parse_error_set(err, line, column, "%s", strbuf_str(&sb));
	strbuf_release(&sb);
}

static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

bool json_docs_skip_blanks(struct json_docs *docs)
{
	while (docs->pos < docs->len && is_blank(docs->data[docs->pos]))
		docs->pos++;
	return docs->pos < docs->len;
}

int json_docs_next(struct json_docs *docs, size_t flags, json_t **ret_doc, size_t *ret_offset,
		   struct parse_error *err, bool *ret_cut)
{
	size_t start, left, rest;
	json_error_t jerr;
	json_t *doc;

	if (!json_docs_skip_blanks(docs))
		return 0;
	start = docs->pos;
	left = docs->len - start;
	doc = json_loadb(docs->data + start, left, JSON_DISABLE_EOF_CHECK | flags, &jerr);
	if (!doc) {
		/*
		 * jansson's position is the number of bytes it read, so the
		 * byte it stopped at is the one before. The data ended inside
		 * the value when jansson says so, or when the bad token is
		 * the last thing in the data ("tr" of a cut "true").
		 */
		size_t at = jerr.position > 0 ? (size_t)jerr.position - 1 : 0;

		rest = left;
		while (rest > 0 && is_blank(docs->data[start + rest - 1]))
			rest--;
		if (ret_cut)
			*ret_cut = json_error_code(&jerr) == json_error_premature_end_of_input ||
				   (size_t)jerr.position >= rest;
		parser_error_at(err, docs->data, start + at, "invalid JSON: %s", jerr.text);
		return -EINVAL;
	}
	docs->pos = start + (size_t)jerr.position;
	*ret_doc = doc;
	*ret_offset = start;
	return 1;
}

int json_sample(const json_t *v, bool allow_negative, double *ret_value)
{
	double x;

	if (!json_is_number(v))
		return -EINVAL;
	x = json_number_value(v);
	if (!isfinite(x) || (!allow_negative && x < 0))
		return -EINVAL;
	*ret_value = x;
	return 0;
}

void metric_append(struct metric *m, double value)
{
	GROW(m->samples, m->alloc_samples, m->n_samples + 1);
	m->samples[m->n_samples++] = value;
}

const char *json_type_phrase(const json_t *v)
{
	if (!v)
		return "missing";
	switch (json_typeof(v)) {
	case JSON_OBJECT:
		return "an object";
	case JSON_ARRAY:
		return "an array";
	case JSON_STRING:
		return "a string";
	case JSON_INTEGER:
	case JSON_REAL:
		return "a number";
	case JSON_TRUE:
	case JSON_FALSE:
		return "a boolean";
	case JSON_NULL:
		return "null";
	}
	return "a value";
}
