#ifndef BOOTAB_REPORT_WORDS_H
#define BOOTAB_REPORT_WORDS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "judge/compare.h"
#include "lib/strbuf.h"

/*
 * The words and numbers every report format shows, written once: a value,
 * a percentage, a p, a verdict, a cost, a side's note. Each report_add_*
 * appends to sb; an absent value (NaN) appends nothing unless said.
 */

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

/* Past this factor (2x faster or 2x slower) an effect is told as a factor, "12.0x slower [11.4x, 12.7x]". */
#define REPORT_FACTOR_FROM 2.0

/* v with the decimals a value of like's size deserves; "-" for NaN. */
void report_add_value(struct strbuf *sb, double v, double like);
/* report_add_value(sb, v, v). */
void report_add_number(struct strbuf *sb, double v);
/* "+4.1%". */
void report_add_pct(struct strbuf *sb, double v);
/* A CI, "+2.0 to +5.1%". */
void report_add_ci(struct strbuf *sb, double lo, double hi);
/* A cell's delta (a by-run row: the range of its per-run deltas) and the drift it is judged against. */
void report_add_delta(struct strbuf *sb, const struct compare_metric *cm, const struct compare_cell *c);
void report_add_drift(struct strbuf *sb, const struct compare_metric *cm, const struct compare_cell *c);
/* q = |delta| / |drift| ("inf"), and a p ("<0.001", "0.023"). */
void report_add_q(struct strbuf *sb, double q);
void report_add_p(struct strbuf *sb, double p);
/* A log variance as a percentage-like sd, "1.10%" ("-" for NaN); report_sd_pct: the number, NaN for NaN. */
void report_add_sd_pct(struct strbuf *sb, double var);
double report_sd_pct(double var);

/* "counts", "within noise", "loud: not judged", ...; "" for the baseline. */
const char *report_verdict_words(enum verdict v);
/* "higher is better", "lower is better". */
const char *report_better_words(enum metric_better b);
/* "boot t", "history t", "none". */
const char *report_method_words(enum compare_method m);
/* "row  metric", or the row alone for a one-number row; the caller's. */
char *report_metric_title(const struct compare_metric *cm);
/*
 * A cost in words: "npu-validate failed, rc=1 (fails on the first side
 * too)", or for a test suite "kunit: 1 of 3 tests failed (suite.test)".
 * against_first: say how it compares with the first side.
 */
void report_cost_words(struct strbuf *sb, const struct compare_cost *c, bool against_first);
/* "first side", "repeat of pt: its delta is the drift", "cost: ... failed, rc=1". */
void report_side_note(struct strbuf *sb, const struct compare_result *res, size_t k);
/* The baseline's noise: " 2 kernel lines, 1 failed unit" (with a leading blank). */
void report_add_noise(struct strbuf *sb, const struct costs_result *f);
/*
 * Side k's wild reps of metric cm (compare_cell.wild), numbered from 1 with
 * their values divided by factor (the table's unit): "wild rep #4 (65.0):
 * left out of the boot mean"; nothing when it has none.
 */
void report_add_wild(struct strbuf *sb, const struct compare_result *res, const struct compare_metric *cm, size_t k,
		     double factor);
/* Whether bootab judged the costs of any side. */
bool report_found_any_judged(const struct compare_result *res);
/*
 * The notes after a boot-level test's verdict (report/answer.h words the
 * verdict): FDR, the boots it needs, why no test ran and what would test
 * it. The checks of a test (Welch, paired by round) are report.json's
 * alone: one p per mode and metric.
 */
void report_add_test_notes(struct strbuf *sb, const struct compare_result *res, const struct compare_test *t);
/* Whether a metric has boot-level statistics; whether a test has an equivalence margin. */
bool report_any_boot_level(const struct compare_result *res);
bool report_any_margin(const struct compare_result *res);

/* What the sides' [prepare] (side.prepare) says across them. */
enum report_prepare {
	REPORT_PREPARE_NONE,    /* no side recorded one */
	REPORT_PREPARE_SAME,    /* every side ran the same commands with the same exit codes */
	REPORT_PREPARE_DIFFERS, /* a side ran other commands, or none, or another exit code */
};
enum report_prepare report_prepare_of(const struct compare_result *res);
/* The title every format gives the prepare: "prepare as root on every boot, after verify and before the rows". */
const char *report_prepare_title(enum report_prepare p);

/* Markdown: a backslash before every character Markdown gives a meaning; in table cells, the pipe and backslash. */
void report_md_text(struct strbuf *sb, const char *s);
void report_md_cell(struct strbuf *sb, const char *s);
/* Markdown prose as written, with <, >, & and backslash escaped (no raw HTML). */
void report_md_plain(FILE *out, const char *s);

/* Columns sb's text takes: one per UTF-8 character. */
size_t report_text_columns(const struct strbuf *sb);
/* Writes sb as one line without trailing blanks, and empties it. */
void report_put_line(FILE *out, struct strbuf *sb);
/*
 * Writes text as lines of at most width columns, broken after "; " where
 * it can, else at a space; lines after the first start with indent.
 */
void report_put_wrapped(FILE *out, const char *text, size_t width, const char *indent);
/* The same, broken at spaces only: for prose, as the long legend. */
void report_put_words(FILE *out, const char *text, size_t width, const char *indent);

#endif
