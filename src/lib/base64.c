#include "lib/base64.h"

#include <errno.h>
#include <stdint.h>

static const char alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

void base64_encode_append(struct strbuf *sb, const void *data, size_t len)
{
	const unsigned char *p = data;

	for (size_t i = 0; i < len; i += 3) {
		uint32_t v = (uint32_t)p[i] << 16;
		size_t left = len - i;

		if (left > 1)
			v |= (uint32_t)p[i + 1] << 8;
		if (left > 2)
			v |= p[i + 2];
		strbuf_addch(sb, alphabet[v >> 18 & 63]);
		strbuf_addch(sb, alphabet[v >> 12 & 63]);
		strbuf_addch(sb, left > 1 ? alphabet[v >> 6 & 63] : '=');
		strbuf_addch(sb, left > 2 ? alphabet[v & 63] : '=');
	}
}

static int value_of(char c)
{
	if (c >= 'A' && c <= 'Z')
		return c - 'A';
	if (c >= 'a' && c <= 'z')
		return c - 'a' + 26;
	if (c >= '0' && c <= '9')
		return c - '0' + 52;
	if (c == '+')
		return 62;
	if (c == '/')
		return 63;
	return -1;
}

int base64_decode_append(struct strbuf *sb, const char *text, size_t len)
{
	if (len % 4)
		return -EINVAL;
	for (size_t i = 0; i < len; i += 4) {
		int v[4];
		size_t pad = 0;

		for (size_t k = 0; k < 4; k++) {
			char c = text[i + k];

			/* '=' only ends the text: "x===" and "xx=y" are not base64. */
			if (c == '=' && i + 4 == len && k >= 2 && (k == 3 || text[i + 3] == '=')) {
				v[k] = 0;
				pad++;
				continue;
			}
			if ((v[k] = value_of(c)) < 0 || pad)
				return -EINVAL;
		}
		uint32_t w = (uint32_t)v[0] << 18 | (uint32_t)v[1] << 12 | (uint32_t)v[2] << 6 | (uint32_t)v[3];

		strbuf_addch(sb, (char)(w >> 16));
		if (pad < 2)
			strbuf_addch(sb, (char)(w >> 8 & 0xff));
		if (pad < 1)
			strbuf_addch(sb, (char)(w & 0xff));
	}
	return 0;
}
