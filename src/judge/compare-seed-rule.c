/*
 * The seed rule of compare_sides() (docs/statistics.md): each side's
 * delta against the first side, judged against the drift of the first
 * side's repeats, per statistic; and the sign of each mode's pairs.
 */
#include "judge/compare.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "judge/compare-internal.h"
#include "lib/alloc.h"

/* Percent change of value against base, signed so that + is better. */
static double delta_pct(double value, double base, enum metric_better better)
{
	double d = (value / base - 1) * 100 * (double)better;

	/*
	 * Equal samples summed in another order differ in the last bit: that is
	 * no drift (it made q 2e15). And no "-0.0%" for lower-is-better.
	 */
	return fabs(d) < 1e-9 ? 0 : d;
}

/* Per-run deltas of side metric m against base b over their common runs. */
static size_t run_deltas(const struct metric *m, const struct metric *b, double *lo, double *hi,
			 double *min_abs, int *sign)
{
	size_t runs = m->n_samples < b->n_samples ? m->n_samples : b->n_samples;

	*lo = INFINITY;
	*hi = -INFINITY;
	*min_abs = INFINITY;
	*sign = 0;
	for (size_t i = 0; i < runs; i++) {
		double d = delta_pct(m->samples[i], b->samples[i], m->better);
		int s = (d > 0) - (d < 0);

		*lo = fmin(*lo, d);
		*hi = fmax(*hi, d);
		*min_abs = fmin(*min_abs, fabs(d));
		if (i == 0)
			*sign = s;
		else if (s != *sign)
			*sign = 0;
	}
	return runs;
}

void compare_seed_rule(const struct side *sides, size_t n_sides, struct compare_metric *cm,
		       const struct compare_options *o, struct strlist *warnings)
{
	struct compare_cell *base = &cm->cells[0];
	const struct metric *bm = compare_find_metric(&sides[0], cm->row, NULL, cm->metric);
	double drift = NAN, drift_spread_pct = NAN, run_drift_lo = INFINITY, run_drift_hi = -INFINITY;
	double run_drift_max_abs = 0;
	bool have_drift = false, drift_wild = false;

	base->verdict = base->present ? VERDICT_BASELINE : VERDICT_MISSING;

	/* The drift: the largest |delta| among the repeats of the first side's mode. */
	for (size_t k = 1; k < n_sides; k++) {
		struct compare_cell *c = &cm->cells[k];

		if (!c->present || !base->present)
			continue;
		c->delta_pct = delta_pct(c->value, base->value, cm->better);
		if (strcmp(sides[k].mode, sides[0].mode))
			continue;
		if (!have_drift || fabs(c->delta_pct) > fabs(drift)) {
			drift = c->delta_pct;
			drift_spread_pct = c->spread_pct;
			drift_wild = c->n_wild > 0;
		}
		have_drift = true;
		if (cm->by_run) {
			const struct metric *m = compare_find_metric(&sides[k], cm->row, NULL, cm->metric);
			double lo, hi, min_abs;
			int sign;

			if (run_deltas(m, bm, &lo, &hi, &min_abs, &sign) == 0)
				continue;
			run_drift_lo = fmin(run_drift_lo, lo);
			run_drift_hi = fmax(run_drift_hi, hi);
			run_drift_max_abs = fmax(run_drift_max_abs, fmax(fabs(lo), fabs(hi)));
		}
	}

	for (size_t k = 1; k < n_sides; k++) {
		struct compare_cell *c = &cm->cells[k];
		bool repeat = !strcmp(sides[k].mode, sides[0].mode);
		double bar;

		if (!c->present || !base->present) {
			c->verdict = VERDICT_MISSING;
			continue;
		}
		if (have_drift)
			c->drift_pct = drift;
		if (cm->by_run) {
			const struct metric *m = compare_find_metric(&sides[k], cm->row, NULL, cm->metric);
			double min_abs;
			int sign;

			if (m->n_samples != bm->n_samples) {
				char *what = compare_metric_label(cm->row, cm->metric);

				strlist_addf(warnings, "%s: %zu runs on %s but %zu on %s; comparing the first %zu run by run",
					     what, m->n_samples, sides[k].label, bm->n_samples, sides[0].label,
					     m->n_samples < bm->n_samples ? m->n_samples : bm->n_samples);
				free(what);
			}
			c->runs = run_deltas(m, bm, &c->delta_lo, &c->delta_hi, &min_abs, &sign);
			if (have_drift && run_drift_lo <= run_drift_hi) {
				c->drift_lo = run_drift_lo;
				c->drift_hi = run_drift_hi;
			}
			if (repeat) {
				c->verdict = VERDICT_DRIFT;
				continue;
			}
			if (!have_drift) {
				c->verdict = VERDICT_NO_DRIFT;
				continue;
			}
			/* Every run must move the same way, each by twice the largest per-run drift. */
			c->q = run_drift_max_abs > 0 ? min_abs / run_drift_max_abs : INFINITY;
			c->p = stats_drift_rule_p(c->q);
			c->verdict = sign != 0 && c->q >= 2 ? VERDICT_COUNTS : VERDICT_WITHIN_NOISE;
			continue;
		}
		if (repeat) {
			c->verdict = VERDICT_DRIFT;
			continue;
		}
		if (!have_drift) {
			c->verdict = VERDICT_NO_DRIFT;
			continue;
		}
		c->q = drift != 0 ? fabs(c->delta_pct) / fabs(drift) : (c->delta_pct != 0 ? INFINITY : 0);
		c->p = stats_drift_rule_p(c->q);
		/* A side too loud to judge is too loud wherever it stands: here, first or the drift's. */
		if (base->spread_pct > o->loud_pct || drift_spread_pct > o->loud_pct || c->spread_pct > o->loud_pct ||
		    base->n_wild || drift_wild || c->n_wild) {
			c->verdict = VERDICT_LOUD;
			continue;
		}
		/* The larger spread of the two sides; with a single rep it is unknown and only the drift bar applies. */
		bar = fmax(isnan(base->spread_pct) ? 0 : base->spread_pct, isnan(c->spread_pct) ? 0 : c->spread_pct);
		c->verdict = fabs(c->delta_pct) >= 2 * fabs(drift) && fabs(c->delta_pct) > bar
			     ? VERDICT_COUNTS : VERDICT_WITHIN_NOISE;
	}
}

/*
 * The seed rule for statistic i > 0 of a metric: the same compare_seed_rule()
 * on that statistic's values, its results kept in each cell's stats[i].
 */
void compare_seed_rule_stat(const struct side *sides, size_t n_sides, struct compare_metric *cm, size_t i,
			    const struct compare_options *o, struct strlist *warnings)
{
	struct compare_cell *saved = xcalloc(n_sides, sizeof(*saved));

	memcpy(saved, cm->cells, n_sides * sizeof(*saved));
	for (size_t k = 0; k < n_sides; k++) {
		struct compare_cell *c = &cm->cells[k];

		c->value = c->stats[i].value;
		/* A statistic that is zero or negative has no percentage: that cell is missing for it. */
		if (c->present && !(c->value > 0))
			c->present = false;
		c->delta_pct = c->drift_pct = c->q = c->p = NAN;
	}
	compare_seed_rule(sides, n_sides, cm, o, warnings);
	for (size_t k = 0; k < n_sides; k++) {
		struct compare_cell *c = &cm->cells[k];
		struct compare_stat st = { saved[k].stats[i].value, c->delta_pct, c->drift_pct, c->q, c->p, c->verdict };

		*c = saved[k];
		c->stats[i] = st;
	}
	free(saved);
}

/*
 * Sign across pairs: each side of a mode is paired with the nearest side
 * of the first side's mode before it (after it when there is none before:
 * the first side itself). Into partner, one per side; -1: none.
 */
void compare_pair_partners(const struct side_modes *modes, size_t n_sides, long *partner)
{
	long last = -1;

	for (size_t k = 0; k < n_sides; k++) {
		partner[k] = last;
		if (modes->of[k] == 0)
			last = (long)k;
	}
	partner[0] = side_modes_count(modes, 0) >= 2 ? (long)modes->sides[modes->start[0] + 1] : -1;
}

/*
 * Each side of a mode counts the pairs of its mode whose delta has its
 * sign: one tally of signs per mode, so many sides of a mode stay linear.
 */
void compare_count_pairs(const struct side_modes *modes, const long *partner, struct compare_metric *cm)
{
	for (size_t g = 1; g < modes->n; g++) {
		const size_t *of_mode = &modes->sides[modes->start[g]];
		size_t n = side_modes_count(modes, g), pairs = 0, positive = 0, negative = 0;

		for (size_t i = 0; i < n; i++) {
			long p = partner[of_mode[i]];
			double d;

			if (!cm->cells[of_mode[i]].present || p < 0 || !cm->cells[p].present)
				continue;
			d = delta_pct(cm->cells[of_mode[i]].value, cm->cells[p].value, cm->better);
			pairs++;
			positive += d > 0;
			negative += d < 0;
		}
		for (size_t i = 0; i < n; i++) {
			struct compare_cell *c = &cm->cells[of_mode[i]];

			if (!c->present || isnan(c->delta_pct))
				continue;
			c->pairs = pairs;
			/* A delta of exactly 0 has no sign: it agrees with nothing. */
			c->pairs_agree = c->delta_pct > 0 ? positive : c->delta_pct < 0 ? negative : 0;
		}
	}
}
