#ifndef BOOTAB_REPORT_LEGEND_H
#define BOOTAB_REPORT_LEGEND_H

#include <stdbool.h>
#include <stdio.h>

#include "judge/compare.h"
#include "report/compare-report.h"

/*
 * The lines the text and Markdown reports end with, each starting with
 * prefix: the summary, the boot-level summary, and the legend (the short
 * one, or the long ones that explain every column, bootab compare --legend),
 * each wrapped to width columns (0: unwrapped), continued indented.
 */
void report_summary_line(FILE *out, const struct compare_result *res, const char *head, const char *end);
void report_boot_level_summary(FILE *out, const struct compare_result *res, const char *prefix, size_t width);
/*
 * "cost: ...": the box time the campaign recorded and, of its claims, the
 * cheapest design for the hardest to find (nothing when no time was
 * recorded); md: names escaped for Markdown.
 */
/* A row of the cheapest design, and its reps. */
struct report_cost_row {
	const char *row;
	unsigned reps;
};

/*
 * What the campaign cost: its boots over its modes and the box time it
 * recorded (reboots, idle waits, timed reps); and, when it has claims in
 * rows whose reboots and reps were timed, the cheapest design that finds
 * each at its estimate with 80 % power (stats_campaign_design(), as bootab
 * plan --effect prices it): boots per mode (rounds), the reps of each
 * claim's row, and its box time. False when no time was recorded.
 */
struct report_cost {
	size_t boots, modes;
	double box_s;
	bool has_design;
	size_t claims;
	unsigned rounds;
	struct report_cost_row *rows;
	size_t n_rows;
	double design_s;
};
bool report_cost_get(const struct compare_result *res, struct report_cost *ret);
void report_cost_release(struct report_cost *c);
void report_design_cost(FILE *out, const struct compare_result *res, size_t width, bool md);
void report_legend(FILE *out, const struct compare_result *res, const struct report_options *o, const char *prefix,
		   size_t width);
void report_legend_boot_level(FILE *out, const struct compare_result *res, const char *prefix, size_t width);
void report_legend_short(FILE *out, const struct compare_result *res, const struct report_options *o,
			 size_t width, const char *prefix);

#endif
