#include "log.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static void vlog(const char *prefix, const char *fmt, va_list ap)
{
	fputs("bootab: ", stderr);
	if (prefix)
		fputs(prefix, stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
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
