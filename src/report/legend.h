#ifndef BOOTAB_REPORT_LEGEND_H
#define BOOTAB_REPORT_LEGEND_H

#include <stdbool.h>
#include <stdio.h>

#include "judge/compare.h"
#include "report/compare-report.h"

/*
 * The lines the text and Markdown reports end with, each starting with
 * prefix: the summary, the boot-level summary, and the legend (the short
 * one, wrapped to width columns, 0: unwrapped; the long ones explain every
 * column, bootab compare --legend).
 */
void report_summary_line(FILE *out, const struct compare_result *res, const char *head, const char *end);
void report_boot_level_summary(FILE *out, const struct compare_result *res, const char *prefix, size_t width);
/*
 * "cost: ...": the box time the campaign recorded and, of its claims, the
 * cheapest design for the hardest to find (nothing when no time was
 * recorded); md: names escaped for Markdown.
 */
void report_design_cost(FILE *out, const struct compare_result *res, size_t width, bool md);
void report_legend(FILE *out, const struct compare_result *res, const struct report_options *o, const char *prefix);
void report_legend_boot_level(FILE *out, const struct compare_result *res, const char *prefix);
void report_legend_short(FILE *out, const struct compare_result *res, const struct report_options *o,
			 size_t width, const char *prefix);

#endif
