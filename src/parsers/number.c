/*
 * The simplest benchmark output: one number per line, in rep order.
 * Blank lines and lines starting with '#' are skipped, except two
 * settings: "# better: lower" (or higher, the default) and "# unit: ms".
 */
#include "parsers/parser-internal.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lib/alloc.h"
#include "lib/parse-number.h"

#define NUMBER_TOKEN_MAX 64

struct number_file {
	const char *data;
	enum metric_better better;
	char *unit;
	double *values;
	size_t n_values, alloc_values;
};

static bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

/* Strips blanks from both ends of [*begin, *end). */
static void trim(const char *data, size_t *begin, size_t *end)
{
	while (*begin < *end && is_space(data[*begin]))
		(*begin)++;
	while (*end > *begin && is_space(data[*end - 1]))
		(*end)--;
}

/* "# better: lower", "# unit: ms"; other comments are ignored. */
static int read_comment(struct number_file *f, size_t begin, size_t end, struct parse_error *err)
{
	const char *data = f->data;
	size_t key, value;

	begin++;   /* '#' */
	trim(data, &begin, &end);
	key = begin;
	while (begin < end && data[begin] != ':' && !is_space(data[begin]))
		begin++;
	if (begin == end || data[begin] != ':')
		return 0;
	value = begin + 1;
	trim(data, &value, &end);
	if (begin - key == 6 && !strncmp(data + key, "better", 6)) {
		if (end - value == 5 && !strncmp(data + value, "lower", 5)) {
			f->better = BETTER_LOWER;
		} else if (end - value == 6 && !strncmp(data + value, "higher", 6)) {
			f->better = BETTER_HIGHER;
		} else {
			parser_error_at(err, data, value, "'# better:' takes lower or higher");
			return -EINVAL;
		}
	} else if (begin - key == 4 && !strncmp(data + key, "unit", 4)) {
		if (end - value > 32) {
			parser_error_at(err, data, value, "'# unit:' is longer than 32 bytes");
			return -EINVAL;
		}
		free(f->unit);
		f->unit = xstrndup(data + value, end - value);
	}
	return 0;
}

static int read_number(struct number_file *f, size_t begin, size_t end, struct parse_error *err)
{
	const char *data = f->data;
	char token[NUMBER_TOKEN_MAX + 1];
	const char *stop = NULL;
	size_t n = end - begin;
	double x;
	int r;

	/* Decimal only: strtod would also take "inf", "nan" and hex floats. */
	for (size_t i = begin; i < end; i++) {
		char c = data[i];

		if (!((c >= '0' && c <= '9') || c == '.' || c == '-' || c == '+' || c == 'e' || c == 'E')) {
			parser_error_at(err, data, i, "not a number: '%.*s'",
					(int)(n > 40 ? 40 : n), data + begin);
			return -EINVAL;
		}
	}
	if (n > NUMBER_TOKEN_MAX) {
		parser_error_at(err, data, begin, "number longer than %d characters", NUMBER_TOKEN_MAX);
		return -EINVAL;
	}
	memcpy(token, data + begin, n);
	token[n] = '\0';
	r = number_scan_double(token, -HUGE_VAL, HUGE_VAL, &x, &stop);
	if (r == -ERANGE) {
		parser_error_at(err, data, begin, "number out of range: '%s'", token);
		return -EINVAL;
	}
	if (r < 0 || *stop) {
		parser_error_at(err, data, begin + (size_t)(r < 0 ? 0 : stop - token), "not a number: '%s'", token);
		return -EINVAL;
	}
	GROW(f->values, f->alloc_values, f->n_values + 1);
	f->values[f->n_values++] = x;
	return 0;
}

int number_parse(const char *data, size_t len, struct metric_set *set,
		 struct parse_error *err, struct parse_error *warning)
{
	struct number_file f = { data, BETTER_HIGHER, NULL, NULL, 0, 0 };
	size_t pos = 0;
	int r = 0;

	(void)warning;
	while (pos < len && r == 0) {
		size_t begin = pos, end;

		while (pos < len && data[pos] != '\n')
			pos++;
		end = pos;
		if (pos < len)
			pos++;
		trim(data, &begin, &end);
		if (begin == end)
			continue;
		if (data[begin] == '#')
			r = read_comment(&f, begin, end, err);
		else
			r = read_number(&f, begin, end, err);
	}
	if (r == 0 && !f.n_values) {
		parse_error_set(err, 0, 0, "no numbers (one number per line expected)");
		r = -EINVAL;
	}
	if (r == 0) {
		struct metric *m = metric_set_add_sample(set, "value", f.better, f.unit, f.values[0]);

		for (size_t i = 1; i < f.n_values; i++)
			metric_append(m, f.values[i]);
	}
	free(f.unit);
	free(f.values);
	return r;
}
