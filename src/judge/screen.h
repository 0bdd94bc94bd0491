#ifndef BOOTAB_SCREEN_H
#define BOOTAB_SCREEN_H

#include <stdbool.h>
#include <stddef.h>

#include "judge/compare.h"
#include "judge/design.h"
#include "lib/strlist.h"

/*
 * A screening campaign's answer (plan [factor] sections), built once from
 * the comparison and walked by every report format: per metric, each
 * factor's main effect (on minus off, from the log boot means of the
 * design's boots: design_effects()) with its CI from the fit's residual
 * (the repeated standing boots and the interactions left out), its
 * verdict, ranked by size; where the design estimates them clear of the
 * main effects (design_interactions_clear()), every two-factor
 * interaction from a fit with them; and per factor the costs (failed
 * check rows, costs bootab found) seen on some boot where the factor was
 * on and on none where it was off.
 */

enum screen_verdict {
	SCREEN_BETTER,          /* the CI excludes 0 and the effect is better */
	SCREEN_WORSE,
	SCREEN_WITHIN_NOISE,    /* the CI holds 0 */
	SCREEN_NO_CI,           /* the design left no boot to measure the noise */
};

struct screen_effect {
	size_t a, b;            /* the factor (b == a), or the interaction of a and b */
	double effect;          /* on minus off of the log boot mean */
	double log_effect;      /* the same, + is better */
	/* + is better (compare_log_pct()): the effect and its CI in %, NaN without CI. */
	double delta_pct, lo_pct, hi_pct;
	double log_lo, log_hi;  /* the + is better log CI; NaN without CI */
	double p;
	enum screen_verdict verdict;
	bool alias;             /* a main effect the design mixes with two-factor interactions (the boots' design: fold_complete) */
};

struct screen_metric {
	const struct compare_metric *metric;   /* borrowed */
	size_t boots;           /* the design's boots with a boot mean */
	bool estimable;         /* false: too few boots for every effect */
	size_t df;              /* the main-effect fit's residual df (0: no CI) */
	/*
	 * A folded design (design->folded) with a boot of every fold-over
	 * run: the combined design's aliasing holds. False: the design's
	 * alone (design_main_aliased_unfolded(), base_resolution).
	 */
	bool fold_complete;
	struct screen_effect *mains;    /* k, ranked by |effect| */
	struct screen_effect *interactions;   /* every pair when estimable, ranked by |effect| */
	size_t n_interactions;
	size_t df_interactions;
};

/* A cost seen on some boot where the factor was on and on none where it was off. */
struct screen_cost {
	size_t factor;
	char *what;             /* "check syscalls failed, rc=1", "kernel-log: ..." (as found, unescaped) */
	size_t boots_on;        /* the boots of the design with it */
	size_t boots_factor_on; /* the design's boots with the factor on */
};

struct screen_result {
	const struct design *design;   /* borrowed */
	size_t k;
	char **names, **args;          /* k each */
	long *side_run;                /* per side of the comparison: its run of the design, -1: none */
	size_t n_sides;
	double alpha;
	struct screen_metric *metrics; /* the metrics of res that are not counters, in res's order */
	size_t n_metrics;
	struct screen_cost *costs;
	size_t n_costs, alloc_costs;
};

/*
 * Builds the answer of design d (k factors, names[i] and args[i] naming
 * factor i) over the comparison res; side_run[s] is side s's row of the
 * design (-1: a side that is no run of it). Never fails; release with
 * screen_release().
 */
void screen_build(const struct design *d, const char *const *names, const char *const *args, const long *side_run,
		  const struct compare_result *res, double alpha, struct screen_result *ret);
void screen_release(struct screen_result *s);

/* The resolution of the design m's boots make: the combined one when its fold-over is complete, else the design's alone. */
unsigned screen_metric_resolution(const struct screen_result *s, const struct screen_metric *m);

/* Whether side k is a run of the design other than the standing config (a run the answer is per factor for). */
bool screen_side_is_run(const struct screen_result *s, size_t k);

/*
 * Takes the boot-level tests of the design's runs (screen_side_is_run())
 * out of res, with their counts: the runs are answered per factor, never
 * as modes. The Benjamini-Hochberg correction of the tests left was made
 * over them too (compare_sides()): it stays, on the safe side.
 */
void screen_drop_run_tests(const struct screen_result *s, struct compare_result *res);

/* "better", "worse", "within-noise", "no-ci". */
const char *screen_verdict_name(enum screen_verdict v);

#endif
