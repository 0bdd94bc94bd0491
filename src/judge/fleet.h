#ifndef BOOTAB_JUDGE_FLEET_H
#define BOOTAB_JUDGE_FLEET_H

#include <stdbool.h>
#include <stddef.h>

#include "judge/compare.h"
#include "lib/strlist.h"
#include "stats/fleet.h"

/*
 * Verdicts pooled over machines (docs/fleet.md): one campaign per machine,
 * each compared as its own report does (compare_sides()), then for every
 * metric and mode the machines' boot-level estimates pooled with the
 * machine as a level above boot and rep (stats_fleet_pool()).
 */

/* One machine's effect of one mode on one metric, from its own comparison. */
struct fleet_effect {
	bool present;           /* the machine's campaign has the metric and both modes */
	enum compare_method method;
	enum verdict verdict;   /* its own test's verdict (UNTESTED without one) */
	double estimate;        /* log, + is better */
	double var, df;         /* its test's se^2 and df; NaN untested */
	double delta_pct, lo_pct, hi_pct;
};

/*
 * The heterogeneity test's level. The fleet verdict claims either a pooled
 * effect (its CI at the report's alpha) or that the effect differs between
 * machines: with both at 5 %, a fleet where nothing differs gets one false
 * claim or the other about 10 % of the time (bench/method/fleet). At 1 %
 * for heterogeneity the two together stay near 6 %, and a clear split (8 %
 * on a third of the machines) is still found (docs/fleet.md).
 */
#define FLEET_HETEROGENEITY_ALPHA 0.01

enum fleet_verdict {
	FLEET_UNTESTED,         /* fewer than two machines, or no variation between them */
	FLEET_COUNTS,           /* the pooled CI excludes 0 */
	FLEET_WITHIN_NOISE,     /* the pooled CI holds 0 */
	FLEET_DIFFERS,          /* heterogeneity p < FLEET_HETEROGENEITY_ALPHA: the effect differs between machines */
};

/* "untested", "counts", "within-noise", "differs". */
const char *fleet_verdict_name(enum fleet_verdict v);

struct fleet_metric {
	char *row, *metric, *mode;
	enum metric_better better;
	char *unit;
	struct fleet_effect *machines;   /* one per machine */
	size_t reference;                /* the first machine that measured it: unit, better and modes from it */
	size_t n_present;
	bool pooled;                     /* stats_fleet_pool() ran (n_present >= 2) */
	int pool_status;                 /* its return: 0, or -ERANGE when the estimates do not vary */
	struct stats_fleet pool;
	double delta_pct, lo_pct, hi_pct;   /* pooled, %; lo/hi NaN when not tested */
	double spread_pct;               /* 100 x the sd of the estimates between machines */
	double tau_pct;                  /* 100 x tau (NaN unless every machine has its own variance) */
	enum fleet_verdict verdict;
	/* The machines by their own verdicts. */
	size_t n_better, n_worse, n_none, n_untested;
	char *words;                     /* "better on all 12, +3.2 % [2.1, 4.3]" */
};

struct fleet_result {
	size_t n_machines;
	char **machines;                 /* names, copied */
	char *first_mode;
	double alpha;
	struct fleet_metric *metrics;
	size_t n_metrics;
	size_t n_counts, n_within_noise, n_differs, n_untested;
};

/*
 * Pools results[0..n-1] (one comparison per machine, named by names[]).
 * Every comparison must have the same first mode. mode_defs: NULL, or one
 * list per machine of what its plan made each mode, "MODE DEFINITION"
 * (the mode's name, a space, then its args and kernel in a form where two
 * equal strings mean the same boot: fleet_mode_definition()).
 *
 * A machine's effect of a mode on a metric is pooled only where it agrees
 * with the metric's first machine (the first that measured it): the same
 * unit, the same direction, and the same definition of the mode and of the
 * first mode; elsewhere it is left out, with a line in warnings saying
 * what differs (once per machine and mode, once per machine and metric).
 * Returns 0, or -EINVAL for fewer than two machines or first modes that
 * differ (a line in warnings says which). Release *ret with
 * fleet_result_release().
 */
int fleet_judge(const struct compare_result *const *results, const char *const *names,
		const struct strlist *mode_defs, size_t n, double alpha, struct fleet_result *ret,
		struct strlist *warnings);

/*
 * "MODE DEFINITION" for fleet_judge(): the args sorted (so their order in
 * the plan does not matter) and joined by spaces ("no args" when there
 * are none), then " on kernel KERNEL" when the mode names one. The
 * caller's.
 */
char *fleet_mode_definition(const char *mode, const char *const *args, const char *kernel);

void fleet_result_release(struct fleet_result *result);

#endif
