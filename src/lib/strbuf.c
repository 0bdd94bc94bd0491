#include "lib/strbuf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/alloc.h"

static void reserve(struct strbuf *sb, size_t extra)
{
	GROW(sb->buf, sb->alloc, sb->len + extra + 1);
}

void strbuf_add(struct strbuf *sb, const void *data, size_t len)
{
	reserve(sb, len);
	if (len)
		memcpy(sb->buf + sb->len, data, len);
	sb->len += len;
	sb->buf[sb->len] = '\0';
}

void strbuf_addstr(struct strbuf *sb, const char *s)
{
	strbuf_add(sb, s, strlen(s));
}

void strbuf_addch(struct strbuf *sb, char c)
{
	strbuf_add(sb, &c, 1);
}

void strbuf_vaddf(struct strbuf *sb, const char *fmt, va_list ap)
{
	va_list copy;
	int n;

	reserve(sb, 64);
	va_copy(copy, ap);
	n = vsnprintf(sb->buf + sb->len, sb->alloc - sb->len, fmt, copy);
	va_end(copy);
	if (n < 0)
		abort();
	if ((size_t)n >= sb->alloc - sb->len) {
		reserve(sb, (size_t)n);
		n = vsnprintf(sb->buf + sb->len, sb->alloc - sb->len, fmt, ap);
		if (n < 0)
			abort();
	}
	sb->len += (size_t)n;
}

void strbuf_addf(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(sb, fmt, ap);
	va_end(ap);
}

void strbuf_truncate(struct strbuf *sb, size_t len)
{
	if (len < sb->len) {
		sb->len = len;
		sb->buf[len] = '\0';
	}
}

const char *strbuf_str(const struct strbuf *sb)
{
	return sb->buf ? sb->buf : "";
}

char *strbuf_detach(struct strbuf *sb, size_t *ret_len)
{
	char *s;

	reserve(sb, 0);
	sb->buf[sb->len] = '\0';
	s = sb->buf;
	if (ret_len)
		*ret_len = sb->len;
	sb->buf = NULL;
	sb->len = sb->alloc = 0;
	return s;
}

void strbuf_release(struct strbuf *sb)
{
	free(sb->buf);
	sb->buf = NULL;
	sb->len = sb->alloc = 0;
}
