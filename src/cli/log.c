#include "cli/log.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "lib/escape.h"
#include "lib/strbuf.h"

/*
 * Messages quote what files and targets contain (names, values, a tool's
 * stderr). A control character in one could move the cursor, retitle or
 * clear the terminal, reorder the line (bidi overrides) or fake a further
 * message line: each is written as an escape (lib/escape.h).
 */
static void vlog(const char *prefix, const char *fmt, va_list ap) __attribute__((format(printf, 2, 0)));

static void vlog(const char *prefix, const char *fmt, va_list ap)
{
	struct strbuf sb = STRBUF_INIT, line = STRBUF_INIT;

	strbuf_addstr(&sb, "bootab: ");
	if (prefix)
		strbuf_addstr(&sb, prefix);
	strbuf_vaddf(&sb, fmt, ap);
	text_escape_append(&line, sb.buf, sb.len, TEXT_ESCAPE_NEWLINE, NULL);
	strbuf_addch(&line, '\n');
	fputs(strbuf_str(&line), stderr);
	strbuf_release(&sb);
	strbuf_release(&line);
}

void log_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vlog(NULL, fmt, ap);
	va_end(ap);
}

void log_warning(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vlog("warning: ", fmt, ap);
	va_end(ap);
}

void log_info(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vlog(NULL, fmt, ap);
	va_end(ap);
}

const char *errno_string(int negative_errno)
{
	return strerror(negative_errno < 0 ? -negative_errno : negative_errno);
}

void log_campaign_line(void *ctx, int level, const char *line)
{
	(void)ctx;
	if (level >= 2)
		log_error("%s", line);
	else if (level == 1)
		log_warning("%s", line);
	else
		log_info("%s", line);
}
