#ifndef BOOTAB_NEW_OLD_H
#define BOOTAB_NEW_OLD_H

#include <stdbool.h>
#include <stddef.h>

struct side;

/*
 * New code against old code inside one kernel (a KUnit test that times
 * both and prints a new,old table: parsers/new-old-table.c). Each boot
 * pairs its new with its old, so boot-to-boot noise cancels; the boots
 * are the unit: the mean of the per-boot log ratios, with a t CI over the
 * boots (docs/results-format.md, "New against old in one kernel").
 */
enum new_old_verdict {
	NEW_OLD_FASTER,
	NEW_OLD_SLOWER,
	NEW_OLD_WITHIN_NOISE,
	NEW_OLD_ONE_BOOT,       /* one boot: no CI */
};

/* "faster", "slower", "within noise", "one boot". */
const char *new_old_verdict_name(enum new_old_verdict v);

struct new_old_stat {
	bool present;
	size_t boots;
	double new_value, old_value;    /* the geometric mean over the boots of each boot's mean */
	double pct, lo, hi;             /* new against old, + is better (1 - new/old); lo, hi NaN with one boot */
	enum new_old_verdict verdict;
};

/* One row of a table ("map_pages 2^12") over the boots of one kernel. */
struct new_old_row {
	char *row;              /* the side's row (its file) */
	char *name;             /* the table's title, page size and group: "map_pages 2^12" */
	char *table;            /* the title alone ("map_pages"; "" when none) */
	char *size;             /* the page size and its group ("2^12", "256*2^12 (AMDV1)") */
	char *unit;             /* "ns" */
	char *kernel;           /* the kernel release the boots ran, or NULL when not recorded */
	struct new_old_stat avg, min;
};

struct new_old_result {
	struct new_old_row *rows;
	size_t n_rows;
	size_t n_kernels;       /* how many kernels the tables came from */
};

/*
 * Pairs "NAME avg new" with "NAME avg old" (and min) of every row of every
 * side, grouping the sides by the kernel they ran (release and build id;
 * sides that recorded none are one group), and judges each at level alpha.
 * *ret is always written; release it with new_old_release().
 */
void new_old_judge(const struct side *sides, size_t n_sides, double alpha, struct new_old_result *ret);

void new_old_release(struct new_old_result *res);

#endif
