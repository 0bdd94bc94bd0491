#ifndef BOOTAB_LIB_BASE64_H
#define BOOTAB_LIB_BASE64_H

#include <stddef.h>

#include "lib/strbuf.h"

/*
 * Base64 of RFC 4648 section 4 (the alphabet of base64(1), '=' padding).
 */

/* Appends the encoding of data (one line, no newline). */
void base64_encode_append(struct strbuf *sb, const void *data, size_t len);

/*
 * Appends the bytes text (len characters, complete quanta with '='
 * padding only at its end) encodes. Returns 0, or -EINVAL for a character
 * outside the alphabet or a length that is not a multiple of 4 (sb then
 * holds what decoded before it).
 */
int base64_decode_append(struct strbuf *sb, const char *text, size_t len);

#endif
