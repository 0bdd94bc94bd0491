/*
 * The new,old table the kernel's generic page table comparison test
 * prints (drivers/iommu/generic_pt, KUnit test_map_unmap_benchmark) and
 * that patch authors paste into mail, e.g.
 *
 *   map_pages
 *      pgsz  ,avg new,old ns, min new,old ns  , min % (+ve is better)
 *        2^12,    331,249   ,     289,214     , -35.35
 *    256*2^12,    386,1909  ,     367,1795    ,  79.79 (AMDV1)
 *
 * A title line names the table; each row is a page size (an optional
 * "(NAME)" after the last column names a group of rows, until a blank
 * line). Every row gives four metrics, lower is better, in the header's
 * unit: "TITLE PGSZ avg new", "... avg old", "... min new", "... min old"
 * (with the group after PGSZ). The last column is read and checked to be
 * a number but not kept: it is the integer percentage printed twice
 * ("-35.35" for -35.05 %), so bootab computes its own deltas.
 * Text around the tables (mail, KUnit diagnostics) is skipped; a line
 * that starts like a row but is not one is an error. The test prints the
 * tables with kunit_info(), so in a kernel log each line may carry a
 * dmesg or journalctl -k prefix and "    # test_map_unmap_benchmark: ":
 * both are cut before the line is read.
 */
#include "parsers/parser-internal.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lib/alloc.h"
#include "lib/strbuf.h"
#include "parsers/parser.h"

#define TITLE_MAX 80
#define UNIT_MAX 16

/*
 * The text of a line as the test printed it: without a kernel log prefix
 * (dmesg's "[    4.000700] ", journalctl -k's "Jan 23 14:01:07 box
 * kernel: "), leading blanks, and kunit_info's "# TEST_NAME: " prefix.
 */
static void line_body(const char *data, size_t *begin, size_t *end)
{
	size_t i;

	*begin += parser_kernel_log_prefix(data + *begin, *end - *begin);
	text_trim(data, begin, end);
	if (*begin == *end || data[*begin] != '#')
		return;
	i = *begin + 1;
	while (i < *end && data[i] == ' ')
		i++;
	if (i == *end || !(isalnum((unsigned char)data[i]) || data[i] == '_'))
		return;
	while (i < *end && (isalnum((unsigned char)data[i]) || data[i] == '_'))
		i++;
	if (i < *end && data[i] == ':') {
		*begin = i + 1;
		text_trim(data, begin, end);
	}
}

/* Whether [begin, end) is a table header: "pgsz ,avg new,old ns, min new,old ns , min % ...". */
static bool is_header(const char *data, size_t begin, size_t end)
{
	return text_starts(data, begin, end, "pgsz") && memmem(data + begin, end - begin, "new,old", 7);
}

bool new_old_table_recognise(const char *data, size_t len)
{
	size_t pos = 0, begin, end;

	while (text_next_line(data, len, &pos, &begin, &end)) {
		line_body(data, &begin, &end);
		if (is_header(data, begin, end))
			return true;
	}
	return false;
}

/* A page size as the test prints it: "2^12", "256*2^21". */
static bool is_page_size(const char *data, size_t begin, size_t end)
{
	bool digit = false;

	for (size_t i = begin; i < end; i++) {
		if (data[i] >= '0' && data[i] <= '9')
			digit = true;
		else if (data[i] != '^' && data[i] != '*')
			return false;
	}
	return digit;
}

/* The unit after "new,old" in the header ("ns"), or "". */
static void header_unit(const char *data, size_t begin, size_t end, char *unit)
{
	const char *p = memmem(data + begin, end - begin, "new,old", 7);
	size_t i = (size_t)(p - data) + 7, n = 0;

	while (i < end && data[i] == ' ')
		i++;
	while (i < end && n < UNIT_MAX && ((data[i] >= 'a' && data[i] <= 'z') || (data[i] >= 'A' && data[i] <= 'Z')))
		unit[n++] = data[i++];
	unit[n] = '\0';
}

struct table_state {
	bool in_table;
	char title[TITLE_MAX + 1];
	char group[TITLE_MAX + 1];
	char unit[UNIT_MAX + 1];
};

/* A printable copy of [begin, end) into dst (at most TITLE_MAX bytes), or an empty one. */
static void copy_name(char *dst, const char *data, size_t begin, size_t end)
{
	size_t n = 0;

	for (size_t i = begin; i < end && n < TITLE_MAX; i++)
		if ((unsigned char)data[i] >= 0x20 && (unsigned char)data[i] < 0x7f)
			dst[n++] = data[i];
	dst[n] = '\0';
}

static int read_row(struct table_state *t, const char *data, size_t begin, size_t end,
		    struct metric_set *set, struct parse_error *err)
{
	static const char *const columns[] = { "avg new", "avg old", "min new", "min old" };
	size_t field[6][2], n = 0, i = begin;
	double values[4], pct;

	while (n < 6) {
		size_t f = i;

		while (i < end && (data[i] != ',' || n == 5))
			i++;
		field[n][0] = f;
		field[n][1] = i;
		text_trim(data, &field[n][0], &field[n][1]);
		n++;
		if (i >= end)
			break;
		i++;
	}
	if (n != 6) {
		parser_error_at(err, data, begin,
				"a row has %zu fields: expected pgsz, avg new,old, min new,old and the min %%", n);
		return -EINVAL;
	}
	for (size_t k = 0; k < 4; k++) {
		if (text_decimal(data, field[k + 1][0], field[k + 1][1], &values[k]) < 0 || values[k] < 0) {
			char *q = text_quote(data, field[k + 1][0], field[k + 1][1]);

			parser_error_at(err, data, field[k + 1][0], "%s '%s' is not a time", columns[k], q);
			free(q);
			return -EINVAL;
		}
	}
	/* The min % column, then an optional "(GROUP)" that names the rows up to a blank line. */
	{
		size_t p = field[5][0], q = p;

		while (q < field[5][1] && data[q] != ' ' && data[q] != '\t' && data[q] != '(')
			q++;
		if (text_decimal(data, p, q, &pct) < 0) {
			char *s = text_quote(data, p, field[5][1]);

			parser_error_at(err, data, p, "min %% '%s' is not a number", s);
			free(s);
			return -EINVAL;
		}
		while (q < field[5][1] && (data[q] == ' ' || data[q] == '\t'))
			q++;
		if (q < field[5][1]) {
			if (data[q] != '(' || data[field[5][1] - 1] != ')' || field[5][1] - q < 3) {
				parser_error_at(err, data, q, "expected '(NAME)' or the end of the row after the min %%");
				return -EINVAL;
			}
			copy_name(t->group, data, q, field[5][1]);
		}
	}
	for (size_t k = 0; k < 4; k++) {
		struct strbuf name = STRBUF_INIT;

		if (*t->title)
			strbuf_addf(&name, "%s ", t->title);
		strbuf_add(&name, data + field[0][0], field[0][1] - field[0][0]);
		if (*t->group)
			strbuf_addf(&name, " %s", t->group);
		strbuf_addf(&name, " %s", columns[k]);
		metric_set_add_sample(set, strbuf_str(&name), BETTER_LOWER, t->unit, values[k]);
		strbuf_release(&name);
	}
	return 0;
}

int new_old_table_parse(const char *data, size_t len, struct metric_set *set,
			struct parse_error *err, struct parse_error *warning)
{
	struct table_state t = { 0 };
	size_t pos = 0, begin, end, rows = 0;

	(void)warning;
	while (text_next_line(data, len, &pos, &begin, &end)) {
		size_t comma;

		line_body(data, &begin, &end);
		if (begin == end) {
			t.group[0] = '\0';
			continue;
		}
		if (is_header(data, begin, end)) {
			t.in_table = true;
			t.group[0] = '\0';
			header_unit(data, begin, end, t.unit);
			continue;
		}
		comma = begin;
		while (comma < end && data[comma] != ',')
			comma++;
		if (t.in_table && comma < end) {
			size_t pe = comma;

			while (pe > begin && data[pe - 1] == ' ')
				pe--;
			if (is_page_size(data, begin, pe)) {
				if (read_row(&t, data, begin, end, set, err) < 0)
					return -EINVAL;
				rows++;
				continue;
			}
		}
		/* Any other line ends the table; a title names the next one (not a KUnit "# ..." line). */
		t.in_table = false;
		if (data[begin] != '#' && data[begin] != '>') {
			size_t e = end;

			while (e > begin && data[e - 1] == ':')
				e--;
			copy_name(t.title, data, begin, e);
		}
	}
	if (!rows) {
		parse_error_set(err, 0, 0, "no table rows (a 'pgsz ,avg new,old ns, min new,old ns, min %%' header and its rows)");
		return -EINVAL;
	}
	return 0;
}
