/* bootab compare's report: the format asked for, escaped on its way out. */
#include "report/compare-report.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lib/escape.h"
#include "lib/parse-number.h"
#include "lib/timestamp.h"
#include "report/formats.h"
#include "report/html.h"
#include "report/mail.h"

int report_format_from_name(const char *name, enum report_format *ret)
{
	if (!strcmp(name, "txt") || !strcmp(name, "text"))
		*ret = REPORT_TEXT;
	else if (!strcmp(name, "md"))
		*ret = REPORT_MD;
	else if (!strcmp(name, "csv"))
		*ret = REPORT_CSV;
	else if (!strcmp(name, "json"))
		*ret = REPORT_JSON;
	else if (!strcmp(name, "html"))
		*ret = REPORT_HTML;
	else if (!strcmp(name, "mail"))
		*ret = REPORT_MAIL;
	else
		return -EINVAL;
	return 0;
}

/* The colours report_text() writes itself: they change colour, never move text. */
static const char *const own_sgr[] = { "\033[32m", "\033[31m", "\033[33m", "\033[2m", "\033[0m", NULL };

int report_compare(FILE *out, const struct compare_result *res, const struct report_options *o)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *mem;
	int r = 0;

	/* JSON, HTML and mail escape what they hold themselves. */
	if (o->format == REPORT_JSON)
		r = report_json(out, res, o);
	else if (o->format == REPORT_HTML)
		r = report_html(out, res, o);
	else if (o->format == REPORT_MAIL)
		r = report_mail(out, res, o);
	if (o->format == REPORT_JSON || o->format == REPORT_HTML || o->format == REPORT_MAIL)
		goto flush;
	/*
	 * Text, Markdown and CSV carry names and values from files and boxes
	 * (units, job names, commands, directory names): the whole report is
	 * escaped on its way out (lib/escape.h), after md and CSV quoting,
	 * which an escape cannot break.
	 */
	mem = open_memstream(&buf, &len);
	if (!mem)
		return -errno;
	if (o->format == REPORT_MD)
		report_md(mem, res, o);
	else if (o->format == REPORT_CSV)
		report_csv(mem, res);
	else
		report_text(mem, res, o);
	if (fclose(mem) != 0) {
		free(buf);
		return -ENOMEM;
	}
	r = text_escape_write(out, buf, len, 0, o->color ? own_sgr : NULL);
	free(buf);
flush:
	/* The buffered part fails again here and says why (ENOSPC on a full disk). */
	errno = 0;
	if (fflush(out) != 0 || ferror(out))
		return errno ? -errno : -EIO;
	return r;
}

void report_time_now(char buf[TIMESTAMP_UTC_SIZE])
{
	const char *epoch = getenv("SOURCE_DATE_EPOCH");
	long v;

	/* Up to the last time RFC 3339's four-digit year holds. */
	if (!epoch || number_parse_long(epoch, 0, TIMESTAMP_UTC_MAX, &v) < 0)
		v = (long)time(NULL);
	timestamp_format_utc(v, buf);
}
