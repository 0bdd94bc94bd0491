#ifndef BOOTAB_REPORT_COMPARE_REPORT_H
#define BOOTAB_REPORT_COMPARE_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "judge/compare.h"
#include "lib/strbuf.h"
#include "lib/timestamp.h"

enum report_format {
	REPORT_TEXT,
	REPORT_MD,
	REPORT_CSV,
	REPORT_JSON,
	REPORT_HTML,
	REPORT_MAIL,            /* plain text for a mailing-list reply (report/mail.h) */
};

/* Returns 0 and sets *ret for "txt"/"text", "md", "csv", "json", "html", "mail", else -EINVAL. */
int report_format_from_name(const char *name, enum report_format *ret);

struct report_options {
	enum report_format format;
	bool color;             /* ANSI colour (text only) */
	double loud_pct;        /* for the legend */
	const struct strlist *warnings;   /* printed in json and html; text/md print them on stderr */
	/* html only (NULL: none): the page's title and the plan's watched device. */
	const char *title;
	const char *watch;
	/* txt and md: text printed after the headline, before the sides (NULL: none). */
	const char *preamble;
	/* txt and md: end with the long legend, every column explained (else the short one). */
	bool legend_long;
	/* Text only: the columns lines are wrapped to; 0: REPORT_WIDTH_DEFAULT. */
	unsigned width;
	/* json and html: when the report was written, RFC 3339 ("2026-12-01T11:46:16Z"); NULL: now. */
	const char *generated;
};

#define REPORT_WIDTH_DEFAULT 100

/*
 * report.json says what it is: "format" is REPORT_JSON_FORMAT and
 * "format_version" REPORT_JSON_FORMAT_VERSION, raised when a field changes
 * meaning or goes away (docs/report-json.md, docs/report.schema.json).
 */
#define REPORT_JSON_FORMAT "bootab-report"
#define REPORT_JSON_FORMAT_VERSION 2

/*
 * The time a report is written as RFC 3339 UTC with seconds
 * ("2026-12-01T11:46:16Z") into buf: SOURCE_DATE_EPOCH
 * when it holds a whole number of seconds since the epoch (the
 * reproducible-builds.org convention, so that one input gives one report),
 * else the time now.
 */
void report_time_now(char buf[TIMESTAMP_UTC_SIZE]);

/*
 * Writes the comparison to out in the given format. Returns 0, or -EIO
 * when out reports a write error.
 */
int report_compare(FILE *out, const struct compare_result *result, const struct report_options *options);

#endif
