#ifndef BOOTAB_LIB_SHELL_QUOTE_H
#define BOOTAB_LIB_SHELL_QUOTE_H

#include "lib/strbuf.h"

/*
 * Quoting words for a POSIX shell. ssh joins its arguments into one line
 * that the remote user's shell parses, so every word bootab sends is quoted
 * here: the result is always a single-quoted word ('...'), with each ' in s
 * written as '\'' (close, escaped quote, reopen). Any byte except NUL is
 * safe inside single quotes (POSIX XCU 2.2.2), including newlines, $, `,
 * \, *, ;, and leading dashes. The empty string becomes ''.
 */

/* Appends the quoted form of s to sb. */
void shell_quote_append(struct strbuf *sb, const char *s);

/* The quoted form of s; the result is the caller's. */
char *shell_quote(const char *s);

/*
 * Appends every word of argv (NULL-terminated), each quoted, separated by
 * single spaces: a command line that a POSIX shell splits back into
 * exactly argv.
 */
void shell_quote_argv_append(struct strbuf *sb, const char *const *argv);

/*
 * The same for a person to read and paste: a word made only of letters,
 * digits and _ @ % + = : , . / - (none of which a shell expands or
 * splits on) stays bare, every other word is quoted as above.
 */
void shell_quote_argv_append_readable(struct strbuf *sb, const char *const *argv);

#endif
