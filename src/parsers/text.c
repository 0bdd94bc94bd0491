/*
 * What the line-oriented parsers (dma_map_benchmark, KTAP, the new,old
 * table, regex) share: walking lines, reading a decimal number, quoting
 * a piece of the input in a message.
 */
#include "parsers/parser-internal.h"

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
