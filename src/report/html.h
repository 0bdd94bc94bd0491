#ifndef BOOTAB_REPORT_HTML_H
#define BOOTAB_REPORT_HTML_H

#include <stdio.h>

#include "judge/compare.h"
#include "lib/strbuf.h"
#include "report/compare-report.h"

/*
 * report.html: one self-contained page (inline CSS and SVG, no script, no
 * network) with a forest plot of every boot-level test, the summary table,
 * a chart per metric, gains and costs,
 * the IOMMU map, versions and a timeline of the campaign. The numbers come
 * from the comparison; the facts of each boot (IOMMU map, times) from
 * each side's meta.json as side_load() kept it (struct side's meta), where
 * there is one: the page is a function of the two and reads no file.
 * Every string from a file is escaped.
 *
 * Hooks for tools that read the page: every metric's chart is
 * <svg data-metric="ROW METRIC" data-points="N"> with one
 * <circle class="pt" data-side="LABEL"> per boot that has a value; every
 * verdict is shown in an element with data-verdict (verdict_name()),
 * data-row, data-metric and data-side: in the summary table (class
 * "verdict") and beside each chart (class "pill"). A metric compared by
 * several statistics has a row per further statistic under each side,
 * its verdict in data-stat-verdict with data-stat naming the statistic.
 * Each chart draws every rep as <circle class="rep" data-side="LABEL">
 * (class "rep wild" for a wild rep, left out of the boot mean)
 * (data-reps on the svg counts them), and a run-by-run row one
 * <path class="run" data-run="I"> per run across the boots. Every
 * boot-level test's verdict is in an element with data-test-verdict
 * (verdict_name()), data-row, data-metric and data-mode: a line of the
 * forest plot (<section id="forest">, class "fr") and a pill beside the
 * metric's chart, worded as the text report words it.
 */

/*
 * Writes the page to out. Returns 0, or -EIO when out reports a write
 * error.
 */
int report_html(FILE *out, const struct compare_result *result, const struct report_options *options);

/*
 * Appends s escaped for HTML text and attribute values: & < > " ' become
 * references; bytes that are not UTF-8, and control characters other than
 * tab, newline and carriage return, become U+FFFD.
 */
void html_escape(struct strbuf *sb, const char *s);

#endif
