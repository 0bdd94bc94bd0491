#ifndef BOOTAB_COMPARE_H
#define BOOTAB_COMPARE_H

#include <stdbool.h>
#include <stddef.h>

#include "lib/strlist.h"
#include "side.h"
#include "stats.h"

/*
 * Every side against the first, metric by metric, judged with the seed
 * rule: a delta counts when |delta| >= 2 |drift| and |delta| > the first
 * side's within-boot spread (as % of its mean), where the drift is the
 * delta of a repeat of the first side's mode against the first side.
 */

enum verdict {
	VERDICT_BASELINE,       /* the first side itself */
	VERDICT_COUNTS,
	VERDICT_WITHIN_NOISE,
	VERDICT_LOUD,           /* spread too loud for one repeat boot: reported, not judged */
	VERDICT_NO_DRIFT,       /* no repeat of the first side: nothing judged */
	VERDICT_DRIFT,          /* this side is a repeat of the first: its delta is the drift */
	VERDICT_MISSING,        /* the metric is absent (or unusable) on this side */
};

/* "counts", "within-noise", "loud", "no-drift", "drift", "baseline", "missing". */
const char *verdict_name(enum verdict v);

struct compare_cell {
	bool present;
	double value;           /* the row's statistic */
	double spread;          /* sample stddev of the samples; NaN for n < 2 */
	double spread_pct;      /* spread as % of the mean */
	size_t n;
	double delta_pct;       /* vs the first side, sign so that + is better */
	double drift_pct;       /* the drift this delta is judged against */
	double q;               /* |delta| / |drift| */
	double p;               /* stats_drift_rule_p(q) */
	enum verdict verdict;
	/* By-run rows: ranges of the per-run deltas and drifts. */
	double delta_lo, delta_hi, drift_lo, drift_hi;
	size_t runs;
	/* Sign across pairs of this side's mode with the first side's mode. */
	size_t pairs;
	size_t pairs_agree;     /* pairs whose delta has this cell's sign */
};

struct compare_metric {
	char *row;
	char *metric;
	enum metric_better better;
	char *unit;
	enum stat_kind stat;
	bool by_run;
	struct compare_cell *cells;   /* one per side */
};

struct compare_cost {
	size_t side;
	char *row;
	int rc;
	bool fails_on_first;    /* the check fails on the first side too */
};

struct compare_version {
	char *name;
	char **values;          /* one per side, NULL where not recorded */
};

struct compare_options {
	enum stat_kind stat;          /* default statistic */
	double loud_pct;              /* spread above this % of the mean: loud */
	const struct strlist *by_run; /* rows compared run by run */
	const struct strlist *row_stats; /* "ROW=STAT" overrides */
};

#define COMPARE_LOUD_PCT_DEFAULT 5.0

struct compare_result {
	const struct side *sides;     /* borrowed */
	size_t n_sides;
	size_t n_repeats;             /* sides after the first with the first's mode */
	struct compare_metric *metrics;
	size_t n_metrics;
	struct compare_cost *costs;
	size_t n_costs;
	struct compare_version *versions;   /* only those that differ */
	size_t n_versions;
	size_t n_counts, n_within_noise, n_loud, n_no_drift;
};

/*
 * Compares sides[1..n-1] with sides[0]. Problems that leave a metric
 * unjudged (present on one side only, a non-positive mean, unequal run
 * counts in a by-run row) are appended to warnings. Returns 0, or -EINVAL
 * for fewer than two sides or a bad option. *ret is written only on 0 and
 * released with compare_result_release().
 */
int compare_sides(const struct side *sides, size_t n_sides, const struct compare_options *options,
		  struct compare_result *ret, struct strlist *warnings);

/* Number of (metric, side) cells that could be compared with the first side. */
size_t compare_result_compared(const struct compare_result *result);

void compare_result_release(struct compare_result *result);

#endif
