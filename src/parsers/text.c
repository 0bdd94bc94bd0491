/*
 * What the line-oriented parsers (dma_map_benchmark, KTAP, the new,old
 * table, regex) share: walking lines, reading a decimal number, quoting
 * a piece of the input in a message.
 */
#include "parsers/parser-internal.h"
#include "parsers/parser.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lib/strbuf.h"

#define DECIMAL_MAX 64

bool text_next_line(const char *data, size_t len, size_t *pos, size_t *ret_begin, size_t *ret_end)
{
	size_t begin = *pos, end;

	if (begin >= len)
		return false;
	end = begin;
	while (end < len && data[end] != '\n')
		end++;
	*pos = end < len ? end + 1 : end;
	if (end > begin && data[end - 1] == '\r')
		end--;
	*ret_begin = begin;
	*ret_end = end;
	return true;
}

void text_trim(const char *data, size_t *begin, size_t *end)
{
	while (*begin < *end && (data[*begin] == ' ' || data[*begin] == '\t'))
		(*begin)++;
	while (*end > *begin && (data[*end - 1] == ' ' || data[*end - 1] == '\t'))
		(*end)--;
}

bool text_starts(const char *data, size_t begin, size_t end, const char *prefix)
{
	size_t n = strlen(prefix);

	return end - begin >= n && !memcmp(data + begin, prefix, n);
}

int text_decimal(const char *data, size_t begin, size_t end, double *ret)
{
	char token[DECIMAL_MAX + 1], *stop;
	size_t n = end - begin;
	double x;

	if (n == 0 || n > DECIMAL_MAX)
		return -EINVAL;
	/* Decimal only: strtod would also take "inf", "nan" and hex floats. */
	for (size_t i = begin; i < end; i++) {
		char c = data[i];

		if (!((c >= '0' && c <= '9') || c == '.' || c == '-' || c == '+' || c == 'e' || c == 'E'))
			return -EINVAL;
	}
	memcpy(token, data + begin, n);
	token[n] = '\0';
	x = strtod(token, &stop);
	if (stop == token || *stop || !isfinite(x))
		return -EINVAL;
	*ret = x;
	return 0;
}

char *text_quote(const char *data, size_t begin, size_t end)
{
	return text_quote_max(data, begin, end, 40);
}

char *text_quote_max(const char *data, size_t begin, size_t end, size_t max)
{
	struct strbuf sb = STRBUF_INIT;
	size_t n = end - begin > max ? max : end - begin;

	for (size_t i = begin; i < begin + n; i++) {
		unsigned char c = (unsigned char)data[i];

		if (c >= 0x20 && c < 0x7f && c != '\\')
			strbuf_addch(&sb, (char)c);
		else
			strbuf_addf(&sb, "\\x%02x", c);
	}
	if (n < end - begin)
		strbuf_addstr(&sb, "...");
	return strbuf_detach(&sb, NULL);
}

/* dmesg's "[    4.000700] " (and "[T123] " or "[    4.000700][  T123] " caller ids): its length, or 0. */
static size_t dmesg_prefix(const char *line, size_t len)
{
	size_t i = 0;

	while (i < len && line[i] == '[') {
		size_t j = i + 1;

		while (j < len && line[j] != ']' && (line[j] == ' ' || line[j] == '.' || line[j] == 'T' || line[j] == 'C' ||
						     (line[j] >= '0' && line[j] <= '9')))
			j++;
		if (j >= len || line[j] != ']' || j == i + 1)
			break;
		i = j + 1;
	}
	if (i == 0)
		return 0;
	return i < len && line[i] == ' ' ? i + 1 : i;
}

/* journalctl -k's "Mon DD HH:MM:SS HOST kernel: " (journalctl's short format): its length, or 0. */
static size_t journal_prefix(const char *line, size_t len)
{
	size_t i = 0, host;

	/* "Jan 23 14:01:07 ": a month name, a day, a time. */
	if (len < 16 || !isupper((unsigned char)line[0]) || !islower((unsigned char)line[1]) ||
	    !islower((unsigned char)line[2]) || line[3] != ' ')
		return 0;
	i = 4;
	while (i < len && line[i] == ' ')
		i++;
	while (i < len && isdigit((unsigned char)line[i]))
		i++;
	if (i >= len || line[i] != ' ')
		return 0;
	i++;
	for (size_t k = 0; k < 8; k++, i++)
		if (i >= len || ((k == 2 || k == 5) ? line[i] != ':' : !isdigit((unsigned char)line[i])))
			return 0;
	if (i < len && line[i] == '.')     /* short-precise: "14:01:07.123456" */
		for (i++; i < len && isdigit((unsigned char)line[i]);)
			i++;
	if (i >= len || line[i] != ' ')
		return 0;
	host = ++i;
	while (i < len && line[i] != ' ')
		i++;
	if (i == host || len - i < 9 || memcmp(line + i, " kernel: ", 9))
		return 0;
	return i + 9;
}

size_t parser_kernel_log_prefix(const char *line, size_t len)
{
	size_t n = journal_prefix(line, len);

	return n ? n + dmesg_prefix(line + n, len - n) : dmesg_prefix(line, len);
}
