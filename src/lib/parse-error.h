#ifndef BOOTAB_LIB_PARSE_ERROR_H
#define BOOTAB_LIB_PARSE_ERROR_H

#include <stddef.h>

/*
 * Where and why input was rejected. Parsers fill one in and return an
 * error code; the command prints it once as "FILE:LINE:COLUMN: MESSAGE"
 * (LINE and COLUMN are 1-based; 0 means unknown and is left out).
 */
struct parse_error {
	char *file;       /* the caller's name for the input; may be NULL */
	unsigned line;
	unsigned column;
	char *message;
};

#define PARSE_ERROR_INIT { NULL, 0, 0, NULL }

/* Sets line, column and message (replacing any earlier one); file is kept. */
void parse_error_set(struct parse_error *err, unsigned line, unsigned column,
		     const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* Sets the input's name (copied). */
void parse_error_set_file(struct parse_error *err, const char *file);
/* "file:line:column: message"; the result is the caller's. */
char *parse_error_format(const struct parse_error *err);
void parse_error_release(struct parse_error *err);

/* Line and column (1-based) of byte offset in data. */
void text_position(const char *data, size_t offset, unsigned *ret_line, unsigned *ret_column);

#endif
