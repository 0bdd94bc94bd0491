#include "lib/parse-error.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "lib/alloc.h"
#include "lib/strbuf.h"

void parse_error_set(struct parse_error *err, unsigned line, unsigned column,
		     const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	if (!err)
		return;
	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	free(err->message);
	err->message = strbuf_detach(&sb, NULL);
	err->line = line;
	err->column = column;
}

void parse_error_set_file(struct parse_error *err, const char *file)
{
	if (!err)
		return;
	free(err->file);
	err->file = file ? xstrdup(file) : NULL;
}

char *parse_error_format(const struct parse_error *err)
{
	struct strbuf sb = STRBUF_INIT;

	if (err->file)
		strbuf_addf(&sb, "%s:", err->file);
	if (err->line)
		strbuf_addf(&sb, "%u:", err->line);
	if (err->line && err->column)
		strbuf_addf(&sb, "%u:", err->column);
	if (sb.len)
		strbuf_addch(&sb, ' ');
	strbuf_addstr(&sb, err->message ? err->message : "invalid input");
	return strbuf_detach(&sb, NULL);
}

void parse_error_release(struct parse_error *err)
{
	if (!err)
		return;
	free(err->file);
	free(err->message);
	err->file = err->message = NULL;
	err->line = err->column = 0;
}

void text_position(const char *data, size_t offset, unsigned *ret_line, unsigned *ret_column)
{
	unsigned line = 1, column = 1;

	for (size_t i = 0; i < offset && data[i]; i++) {
		if (data[i] == '\n') {
			line++;
			column = 1;
		} else {
			column++;
		}
	}
	*ret_line = line;
	*ret_column = column;
}
