#ifndef BOOTAB_REPORT_NEW_OLD_WORDS_H
#define BOOTAB_REPORT_NEW_OLD_WORDS_H

#include <stdbool.h>
#include <stddef.h>

#include "judge/compare.h"
#include "judge/new-old.h"

/*
 * The words of the new,old tables (judge/new-old.h) that the text,
 * Markdown, HTML and CSV reports share: a row's name, where a kernel's
 * group starts, the level of the CI, and one statistic's cells.
 */

/* A row by its name ("map_pages 2^12"), with its file's when the sides hold several. */
char *report_new_old_name(const struct new_old_result *no, const struct new_old_row *r);
/* Whether row i is the first of its kernel's (the rows are grouped by kernel). */
bool report_new_old_group_starts(const struct new_old_result *no, size_t i);
/* The CI's level in percent: 95 at the default alpha. */
double report_new_old_level(const struct compare_result *res);

struct new_old_cells {
	char nums[48];          /* "339,255", "-" when absent */
	char pct[16];           /* "-32.9", "" when absent */
	char ci[48];            /* "[-34.7, -31.2]", "" with one boot or when absent */
	const char *verdict;    /* "slower", "faster", "within noise", "one boot", "" when absent */
};

void report_new_old_cells(const struct new_old_stat *st, struct new_old_cells *c);

#endif
