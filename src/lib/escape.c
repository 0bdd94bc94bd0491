#include "lib/escape.h"

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

/*
 * The length of the UTF-8 sequence at s (at most len bytes) and its code
 * point, or 0 when it is not UTF-8 (RFC 3629: no overlong forms, no
 * surrogates, nothing past U+10FFFF).
 */
static size_t utf8_char(const unsigned char *s, size_t len, uint32_t *ret)
{
	size_t n;
	uint32_t c;

	if (s[0] < 0x80) {
		*ret = s[0];
		return 1;
	}
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2, c = s[0] & 0x1f;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3, c = s[0] & 0x0f;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4, c = s[0] & 0x07;
	else
		return 0;
	if (n > len)
		return 0;
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		c = (c << 6) | (s[i] & 0x3f);
	}
	if ((n == 3 && c < 0x800) || (n == 4 && (c < 0x10000 || c > 0x10ffff)) ||
	    (c >= 0xd800 && c <= 0xdfff))
		return 0;
	*ret = c;
	return n;
}

static bool code_point_escaped(uint32_t c, unsigned flags)
{
	return (c < 0x20 && c != '\t' && (c != '\n' || (flags & TEXT_ESCAPE_NEWLINE))) || c == 0x7f || (c >= 0x80 && c <= 0x9f) ||
	       (c == '\\' && (flags & TEXT_ESCAPE_BACKSLASH)) ||
	       (c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069);
}

void text_escape_append(struct strbuf *sb, const char *s, size_t len, unsigned flags,
			const char *const *allow)
{
	const unsigned char *p = (const unsigned char *)s, *end = p + len;

	while (p < end) {
		size_t n;
		uint32_t c;
		bool allowed = false;

		for (size_t i = 0; allow && allow[i] && !allowed; i++) {
			size_t al = strlen(allow[i]);

			if (al <= (size_t)(end - p) && !memcmp(p, allow[i], al)) {
				strbuf_add(sb, p, al);
				p += al;
				allowed = true;
			}
		}
		if (allowed)
			continue;
		n = utf8_char(p, (size_t)(end - p), &c);
		if (!n) {
			strbuf_addf(sb, "\\x%02x", *p);
			p++;
		} else if (code_point_escaped(c, flags)) {
			if (c < 0x80)
				strbuf_addf(sb, "\\x%02x", (unsigned)c);
			else
				strbuf_addf(sb, "\\u{%04X}", (unsigned)c);
			p += n;
		} else {
			strbuf_add(sb, p, n);
			p += n;
		}
	}
}

bool utf8_printable(const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s, *end = p + len;

	while (p < end) {
		uint32_t c;
		size_t n = utf8_char(p, (size_t)(end - p), &c);

		if (!n || c < 0x20 || c == 0x7f || (c >= 0x80 && c <= 0x9f))
			return false;
		p += n;
	}
	return true;
}

char *text_escape(const char *s)
{
	struct strbuf sb = STRBUF_INIT;

	text_escape_append(&sb, s, strlen(s), 0, NULL);
	return strbuf_detach(&sb, NULL);
}

int text_escape_write(FILE *out, const char *s, size_t len, unsigned flags, const char *const *allow)
{
	struct strbuf sb = STRBUF_INIT;
	int r = 0;

	text_escape_append(&sb, s, len, flags, allow);
	if (sb.len && fwrite(sb.buf, 1, sb.len, out) != sb.len)
		r = -EIO;
	strbuf_release(&sb);
	return r;
}
