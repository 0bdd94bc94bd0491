#ifndef BOOTAB_COMPARE_INTERNAL_H
#define BOOTAB_COMPARE_INTERNAL_H

/*
 * What the files of compare_sides() share; nothing outside them includes
 * this.
 *   compare.c             the options, the metrics, each metric judged, the
 *                         false-discovery control, the result's queries
 *   compare-seed-rule.c   the seed rule and the sign across pairs
 *   compare-boot-level.c  the boot-level tests
 *   compare-facts.c       failed rows and tests, tool mismatches, versions
 */

#include <stddef.h>

#include "judge/compare.h"
#include "lib/strlist.h"
#include "results/side.h"

/* Metric of row on side (NULL: no such bench row or metric); *ret_row (if given): the row, or NULL. */
const struct metric *compare_find_metric(const struct side *side, const char *row,
					 const struct row **ret_row, const char *metric);

/* How warnings name a metric ("row 'R'" or "row 'R' metric 'M'"). The caller's. */
char *compare_metric_label(const char *row, const char *metric);

/*
 * The seed rule of metric cm on every cell's value: each cell's delta,
 * drift, q, p and verdict (the first side the baseline). A warning for
 * by-run rows whose sides have different run counts.
 */
void compare_seed_rule(const struct side *sides, size_t n_sides, struct compare_metric *cm,
		       const struct compare_options *o, struct strlist *warnings);

/* The seed rule on statistic i > 0 of cm, its results into each cell's stats[i]; the cells otherwise as they were. */
void compare_seed_rule_stat(const struct side *sides, size_t n_sides, struct compare_metric *cm, size_t i,
			    const struct compare_options *o, struct strlist *warnings);

/* Each side's partner for the sign across pairs, into partner (n_sides of them; -1: none). */
void compare_pair_partners(const struct side_modes *modes, size_t n_sides, long *partner);

/* Each cell's pairs and pairs_agree from the partners. */
void compare_count_pairs(const struct side_modes *modes, const long *partner, struct compare_metric *cm);

/* The wild reps of every present cell of cm, into the cell's wild (allocated) and n_wild. */
void compare_flag_wild(const struct side *sides, size_t n_sides, const struct side_modes *modes,
		       struct compare_metric *cm);

/*
 * Each present cell's boot (has_boot), its wild reps left out; none for
 * the metric when a sample is not positive (a warning says so), and a
 * warning when its boots have different rep counts.
 */
void compare_summarise_boots(const struct side *sides, size_t n_sides, struct compare_metric *cm,
			     struct strlist *warnings);

/* The naive pair of each mode's first side against the first side, rep by rep (rep_p, rep_lo_pct, rep_hi_pct). */
void compare_rep_tests(const struct side_modes *modes, size_t n_sides, struct compare_metric *cm, double alpha);

/*
 * The boot level of cm: its variance components, its history (when
 * o->history holds it), and one test (cm->tests, allocated) per mode that
 * has boots of the metric, against the first side's mode.
 */
void compare_boot_level(const struct side *sides, size_t n_sides, const struct side_modes *modes,
			const unsigned *rounds, struct compare_metric *cm, const struct compare_options *o,
			double alpha, const struct strlist *history_ids);

/* res->costs: rows that exited non-zero and test suites with failed tests, each against the first side's. */
void compare_collect_costs(const struct side *sides, size_t n_sides, struct compare_result *res);

/* res->mismatches: rows whose tool recorded another build or setting than the first side's. */
void compare_collect_mismatches(const struct side *sides, size_t n_sides, struct compare_result *res);

/* res->versions: the versions whose values differ between sides. */
void compare_collect_versions(const struct side *sides, size_t n_sides, struct compare_result *res);

#endif
