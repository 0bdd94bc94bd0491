#include "kernel/notes.h"

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lib/alloc.h"

#define NT_GNU_BUILD_ID 3

static uint32_t word(const unsigned char *p, bool big)
{
	if (big)
		return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
	return (uint32_t)p[3] << 24 | (uint32_t)p[2] << 16 | (uint32_t)p[1] << 8 | p[0];
}

static size_t pad4(uint32_t n)
{
	return ((size_t)n + 3) & ~(size_t)3;
}

/* Walks the notes; 0 with the build id's place, -ENOENT without one, -EINVAL when they do not fit. */
static int walk(const unsigned char *notes, size_t len, bool big, size_t *ret_at, size_t *ret_len)
{
	int r = -ENOENT;

	for (size_t at = 0; at < len;) {
		uint32_t namesz, descsz, type;
		size_t name_at, desc_at;

		/* The section may end in zero padding shorter than a header. */
		if (len - at < 12) {
			for (size_t i = at; i < len; i++)
				if (notes[i])
					return -EINVAL;
			break;
		}
		namesz = word(notes + at, big);
		descsz = word(notes + at + 4, big);
		type = word(notes + at + 8, big);
		name_at = at + 12;
		if (pad4(namesz) > len - name_at)
			return -EINVAL;
		desc_at = name_at + pad4(namesz);
		if (pad4(descsz) > len - desc_at)
			return -EINVAL;
		if (r == -ENOENT && type == NT_GNU_BUILD_ID && namesz == 4 &&
		    !memcmp(notes + name_at, "GNU", 4) && descsz > 0) {
			*ret_at = desc_at;
			*ret_len = descsz;
			r = 0;
		}
		at = desc_at + pad4(descsz);
	}
	return r;
}

int kernel_notes_build_id(const unsigned char *notes, size_t len, char **ret_hex)
{
	static const char digits[] = "0123456789abcdef";
	size_t at = 0, n = 0;
	char *hex;
	int r;

	if (!len)
		return -EINVAL;
	r = walk(notes, len, false, &at, &n);
	if (r == -EINVAL)
		r = walk(notes, len, true, &at, &n);
	if (r < 0)
		return r;
	hex = xmalloc(2 * n + 1);
	for (size_t i = 0; i < n; i++) {
		hex[2 * i] = digits[notes[at + i] >> 4];
		hex[2 * i + 1] = digits[notes[at + i] & 15];
	}
	hex[2 * n] = '\0';
	*ret_hex = hex;
	return 0;
}

static int nibble(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

int hex_decode(const char *hex, unsigned char **ret, size_t *ret_len)
{
	size_t n = strlen(hex);
	unsigned char *out;

	if (n % 2)
		return -EINVAL;
	out = xmalloc(n / 2 + 1);
	for (size_t i = 0; i < n / 2; i++) {
		int hi = nibble(hex[2 * i]), lo = nibble(hex[2 * i + 1]);

		if (hi < 0 || lo < 0) {
			free(out);
			return -EINVAL;
		}
		out[i] = (unsigned char)(hi << 4 | lo);
	}
	*ret = out;
	*ret_len = n / 2;
	return 0;
}
