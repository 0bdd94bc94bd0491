#ifndef BOOTAB_LIB_ESCAPE_H
#define BOOTAB_LIB_ESCAPE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "lib/strbuf.h"

/*
 * Text from files and boxes made safe for a terminal, a text file or a
 * Markdown or CSV table: every character a terminal could act on is
 * written as a visible escape, so a benchmark cannot move the cursor,
 * erase or reorder what bootab prints.
 *
 * Escaped: C0 controls but newline and tab as \xNN (ESC is \x1b, CR \x0d),
 * DEL as \x7f, C1 controls (U+0080-U+009F, which some terminals read as
 * CSI and the like) and the bidirectional embeddings, overrides and
 * isolates (U+202A-U+202E, U+2066-U+2069, Unicode's Trojan Source list)
 * as \u{NNNN}, and bytes that are not UTF-8 as \xNN. Everything else,
 * UTF-8 included, is kept. Newline and tab are kept: they move no text
 * already printed. Quoting done before escaping stays correct, since an
 * escape adds only '\\', 'x', 'u', '{', '}' and hex digits.
 */

enum text_escape_flags {
	TEXT_ESCAPE_NEWLINE = 1 << 0,   /* newline too, as \x0a: for one-line messages */
	TEXT_ESCAPE_BACKSLASH = 1 << 1, /* '\\' too, as \x5c: an escaped name then never equals another's as written */
};

/*
 * Appends s (len bytes) to sb, escaped. allow: NULL, or a NULL-terminated
 * list of byte sequences copied unchanged where they occur (the SGR colour
 * codes bootab writes itself).
 */
void text_escape_append(struct strbuf *sb, const char *s, size_t len, unsigned flags,
			const char *const *allow);

/* s escaped, NUL-terminated; the caller's. */
char *text_escape(const char *s);

/* Writes s (len bytes) to out, escaped. Returns 0, or -EIO. */
int text_escape_write(FILE *out, const char *s, size_t len, unsigned flags, const char *const *allow);

/*
 * Whether s (len bytes) is UTF-8 without any control character: no C0
 * (newline and tab included), DEL or C1. What a name must be to go into
 * meta.json and every report unchanged.
 */
bool utf8_printable(const char *s, size_t len);

#endif
