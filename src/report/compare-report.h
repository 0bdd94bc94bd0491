#ifndef BOOTAB_REPORT_COMPARE_REPORT_H
#define BOOTAB_REPORT_COMPARE_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "judge/compare.h"
#include "lib/strbuf.h"

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
#define REPORT_JSON_FORMAT_VERSION 1

/*
 * The time a report is written as RFC 3339 UTC with seconds
 * ("2026-12-01T11:46:16Z") into buf (at least 21 bytes): SOURCE_DATE_EPOCH
 * when it holds a whole number of seconds since the epoch (the
 * reproducible-builds.org convention, so that one input gives one report),
 * else the time now.
 */
void report_time_now(char *buf, size_t size);

/*
 * Writes the comparison to out in the given format. Returns 0, or -EIO
 * when out reports a write error.
 */
int report_compare(FILE *out, const struct compare_result *result, const struct report_options *options);

/*
 * The cells of the text report, for renderers that show the same numbers
 * (html). Each appends to sb; an absent value appends nothing ("-" for
 * report_add_value).
 */
void report_add_value(struct strbuf *sb, double v, double like);
void report_add_delta(struct strbuf *sb, const struct compare_metric *cm, const struct compare_cell *c);
void report_add_drift(struct strbuf *sb, const struct compare_metric *cm, const struct compare_cell *c);
void report_add_q(struct strbuf *sb, double q);
void report_add_p(struct strbuf *sb, double p);
/*
 * The unit a metric's values are shown in by txt, md and html: one per
 * table, scaled as people read it (36.1 ms, not 36120948 ns; 5.9 k IOPS;
 * 3.30 MiB/s). Shown value = raw value / factor; json and csv keep the raw.
 */
struct report_unit {
	double factor;
	char unit[48];
};
void report_unit_of(const struct compare_result *res, const struct compare_metric *cm, struct report_unit *ret);
/*
 * One value with its unit, scaled and rounded as the tables show it
 * ("5412 IOPS", "1.96 s" for 1960 ms, "14.10 k IOPS"); unit NULL or "": the
 * number alone. The caller's.
 */
char *report_value_in_unit(double v, const char *unit);
/* "counts", "within noise", "loud: not judged", ...; "" for the baseline. */
const char *report_verdict_words(enum verdict v);
/*
 * A cost in words: "npu-validate failed, rc=1 (fails on the first side
 * too)", or for a test suite "kunit: 1 of 3 tests failed (suite.test)".
 * against_first: say how it compares with the first side.
 */
void report_cost_words(struct strbuf *sb, const struct compare_cost *c, bool against_first);
/* "first side", "repeat of pt: its delta is the drift", "cost: ... failed, rc=1". */
void report_side_note(struct strbuf *sb, const struct compare_result *res, size_t k);
/* "row  metric", or the row alone for a one-number row; the caller's. */
char *report_metric_title(const struct compare_metric *cm);
/*
 * A boot-level test as the text report words it: its verdict ("counts",
 * "same within ±2%", "not tested", ...), and the notes after it (FDR, the
 * checks, the boots it needs); report_add_sd_pct: a log variance as
 * "1.10%" ("-" for NaN).
 */
void report_add_test_verdict(struct strbuf *sb, const struct compare_metric *cm, const struct compare_test *t);
void report_add_test_notes(struct strbuf *sb, const struct compare_result *res, const struct compare_metric *cm,
			   const struct compare_test *t);
void report_add_sd_pct(struct strbuf *sb, double var);
/* The legend the text report ends with, each line starting with prefix. */
void report_legend(FILE *out, const struct compare_result *res, const struct report_options *options,
		   const char *prefix);

#endif
