#include "compare.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lib/alloc.h"

const char *verdict_name(enum verdict v)
{
	switch (v) {
	case VERDICT_BASELINE:
		return "baseline";
	case VERDICT_COUNTS:
		return "counts";
	case VERDICT_WITHIN_NOISE:
		return "within-noise";
	case VERDICT_LOUD:
		return "loud";
	case VERDICT_NO_DRIFT:
		return "no-drift";
	case VERDICT_DRIFT:
		return "drift";
	case VERDICT_MISSING:
	default:
		return "missing";
	}
}

/* Percent change of value against base, signed so that + is better. */
static double delta_pct(double value, double base, enum metric_better better)
{
	return (value / base - 1) * 100 * (double)better;
}

/* How warnings name a metric: a one-number row is named by the row alone. */
static char *metric_label(const char *row, const char *metric)
{
	if (!strcmp(metric, "value"))
		return xasprintf("row '%s'", row);
	return xasprintf("row '%s' metric '%s'", row, metric);
}

static const struct metric *find_metric(const struct side *side, const char *row,
					const struct row **ret_row, const char *metric)
{
	const struct row *r = side_find_row(side, row);

	if (ret_row)
		*ret_row = r;
	if (!r || r->kind != ROW_BENCH)
		return NULL;
	return metric_set_find(&r->metrics, metric);
}

static bool metric_known(const struct compare_metric *ms, size_t n, const char *row,
			 const char *metric)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(ms[i].row, row) && !strcmp(ms[i].metric, metric))
			return true;
	return false;
}

static int row_stat_override(const struct compare_options *o, const char *row,
			     enum stat_kind *ret)
{
	size_t len = strlen(row);

	if (!o->row_stats)
		return 0;
	for (size_t i = 0; i < o->row_stats->n; i++) {
		const char *s = o->row_stats->items[i];

		if (!strncmp(s, row, len) && s[len] == '=')
			return stat_kind_from_name(s + len + 1, ret) == 0 ? 1 : -EINVAL;
	}
	return 0;
}

static void fill_cell(struct compare_cell *c, const struct metric *m, enum stat_kind stat)
{
	double mean = stats_mean(m->samples, m->n_samples);

	c->present = true;
	c->n = m->n_samples;
	c->value = stats_of(stat, m->samples, m->n_samples);
	c->spread = stats_stddev(m->samples, m->n_samples);
	c->spread_pct = c->spread / mean * 100;
	c->delta_pct = c->drift_pct = c->q = c->p = NAN;
	c->delta_lo = c->delta_hi = c->drift_lo = c->drift_hi = NAN;
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

static void judge_metric(const struct side *sides, size_t n_sides, struct compare_metric *cm,
			 const struct compare_options *o, struct strlist *warnings)
{
	struct compare_cell *base = &cm->cells[0];
	const struct metric *bm = find_metric(&sides[0], cm->row, NULL, cm->metric);
	double drift = NAN, drift_spread_pct = NAN, run_drift_lo = INFINITY, run_drift_hi = -INFINITY;
	double run_drift_max_abs = 0;
	bool have_drift = false;

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
		}
		have_drift = true;
		if (cm->by_run) {
			const struct metric *m = find_metric(&sides[k], cm->row, NULL, cm->metric);
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
			const struct metric *m = find_metric(&sides[k], cm->row, NULL, cm->metric);
			double min_abs;
			int sign;

			if (m->n_samples != bm->n_samples) {
				char *what = metric_label(cm->row, cm->metric);

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
		if (base->spread_pct > o->loud_pct || drift_spread_pct > o->loud_pct) {
			c->verdict = VERDICT_LOUD;
			continue;
		}
		/* With a single rep the spread is unknown and only the drift bar applies. */
		bar = isnan(base->spread_pct) ? 0 : base->spread_pct;
		c->verdict = fabs(c->delta_pct) >= 2 * fabs(drift) && fabs(c->delta_pct) > bar
			     ? VERDICT_COUNTS : VERDICT_WITHIN_NOISE;
	}
}

/*
 * Sign across pairs: each side of a mode is paired with the nearest side
 * of the first side's mode before it (after it when there is none before).
 */
static long pair_partner(const struct side *sides, size_t n_sides, size_t k)
{
	for (size_t i = k; i-- > 0;)
		if (!strcmp(sides[i].mode, sides[0].mode))
			return (long)i;
	for (size_t i = k + 1; i < n_sides; i++)
		if (!strcmp(sides[i].mode, sides[0].mode))
			return (long)i;
	return -1;
}

static void count_pairs(const struct side *sides, size_t n_sides, struct compare_metric *cm)
{
	for (size_t k = 1; k < n_sides; k++) {
		struct compare_cell *c = &cm->cells[k];
		int sign;

		if (!c->present || !strcmp(sides[k].mode, sides[0].mode) || isnan(c->delta_pct))
			continue;
		sign = (c->delta_pct > 0) - (c->delta_pct < 0);
		for (size_t j = 1; j < n_sides; j++) {
			long p;
			double d;
			int s;

			if (strcmp(sides[j].mode, sides[k].mode) || !cm->cells[j].present)
				continue;
			p = pair_partner(sides, n_sides, j);
			if (p < 0 || !cm->cells[p].present)
				continue;
			d = delta_pct(cm->cells[j].value, cm->cells[p].value, cm->better);
			s = (d > 0) - (d < 0);
			c->pairs++;
			if (s == sign)
				c->pairs_agree++;
		}
	}
}

static void collect_costs(const struct side *sides, size_t n_sides, struct compare_result *res)
{
	size_t alloc = 0;

	for (size_t k = 0; k < n_sides; k++) {
		for (size_t i = 0; i < sides[k].n_rows; i++) {
			const struct row *r = &sides[k].rows[i];
			const struct row *first;
			struct compare_cost *c;

			if (!r->has_rc || r->rc == 0)
				continue;
			first = side_find_row(&sides[0], r->name);
			GROW(res->costs, alloc, res->n_costs + 1);
			c = &res->costs[res->n_costs++];
			c->side = k;
			c->row = xstrdup(r->name);
			c->rc = r->rc;
			c->fails_on_first = first && first->has_rc && first->rc != 0;
		}
	}
}

static void collect_versions(const struct side *sides, size_t n_sides, struct compare_result *res)
{
	struct strlist names = STRLIST_INIT;
	size_t alloc = 0;

	for (size_t k = 0; k < n_sides; k++)
		for (size_t i = 0; i < sides[k].n_versions; i++)
			if (strlist_find(&names, sides[k].versions[i].name) < 0)
				strlist_add(&names, sides[k].versions[i].name);
	for (size_t i = 0; i < names.n; i++) {
		const char *first = side_version(&sides[0], names.items[i]);
		bool differ = false;
		struct compare_version *v;

		for (size_t k = 1; k < n_sides; k++) {
			const char *val = side_version(&sides[k], names.items[i]);

			if (!val != !first || (val && strcmp(val, first)))
				differ = true;
		}
		if (!differ)
			continue;
		GROW(res->versions, alloc, res->n_versions + 1);
		v = &res->versions[res->n_versions++];
		v->name = xstrdup(names.items[i]);
		v->values = xcalloc(n_sides, sizeof(*v->values));
		for (size_t k = 0; k < n_sides; k++) {
			const char *val = side_version(&sides[k], names.items[i]);

			v->values[k] = val ? xstrdup(val) : NULL;
		}
	}
	strlist_release(&names);
}

int compare_sides(const struct side *sides, size_t n_sides, const struct compare_options *o,
		  struct compare_result *ret, struct strlist *warnings)
{
	struct compare_result res = { .sides = sides, .n_sides = n_sides };
	size_t alloc = 0;

	if (n_sides < 2 || !(o->loud_pct >= 0))
		return -EINVAL;
	if (o->row_stats)
		for (size_t i = 0; i < o->row_stats->n; i++) {
			const char *eq = strchr(o->row_stats->items[i], '=');
			enum stat_kind k;

			if (!eq || eq == o->row_stats->items[i] || stat_kind_from_name(eq + 1, &k) < 0)
				return -EINVAL;
		}
	for (size_t k = 1; k < n_sides; k++)
		if (!strcmp(sides[k].mode, sides[0].mode))
			res.n_repeats++;

	/* Metrics in first-seen order, the first side's first. */
	for (size_t k = 0; k < n_sides; k++) {
		for (size_t i = 0; i < sides[k].n_rows; i++) {
			const struct row *r = &sides[k].rows[i];

			if (r->kind != ROW_BENCH)
				continue;
			for (size_t j = 0; j < r->metrics.n_metrics; j++) {
				const struct metric *m = &r->metrics.metrics[j];
				struct compare_metric *cm;

				if (metric_known(res.metrics, res.n_metrics, r->name, m->name))
					continue;
				GROW(res.metrics, alloc, res.n_metrics + 1);
				cm = &res.metrics[res.n_metrics++];
				memset(cm, 0, sizeof(*cm));
				cm->row = xstrdup(r->name);
				cm->metric = xstrdup(m->name);
				cm->better = m->better;
				cm->unit = xstrdup(m->unit);
				cm->stat = o->stat;
				cm->cells = xcalloc(n_sides, sizeof(*cm->cells));
			}
		}
	}

	for (size_t i = 0; i < res.n_metrics; i++) {
		struct compare_metric *cm = &res.metrics[i];
		char *what = metric_label(cm->row, cm->metric);
		bool stat_from_row = false;
		size_t present = 0;

		if (o->by_run && strlist_find(o->by_run, cm->row) >= 0)
			cm->by_run = true;
		for (size_t k = 0; k < n_sides; k++) {
			const struct row *r;

			find_metric(&sides[k], cm->row, &r, cm->metric);
			if (!r)
				continue;
			cm->by_run |= r->by_run;
			if (r->has_stat && !stat_from_row) {
				cm->stat = r->stat;
				stat_from_row = true;
			}
		}
		row_stat_override(o, cm->row, &cm->stat);
		for (size_t k = 0; k < n_sides; k++) {
			const struct metric *m = find_metric(&sides[k], cm->row, NULL, cm->metric);
			struct compare_cell *c = &cm->cells[k];

			c->delta_pct = c->drift_pct = c->q = c->p = NAN;
			if (!m)
				continue;
			if (m->better != cm->better) {
				strlist_addf(warnings, "%s on %s: the direction of 'better' differs from the other sides, ignoring it there",
					     what, sides[k].label);
				continue;
			}
			fill_cell(c, m, cm->stat);
			if (!(c->value > 0) || !(stats_mean(m->samples, m->n_samples) > 0)) {
				strlist_addf(warnings, "%s on %s: %s is zero or negative, no percentage can be computed, ignoring it there",
					     what, sides[k].label, stat_kind_name(cm->stat));
				memset(c, 0, sizeof(*c));
				c->delta_pct = c->drift_pct = c->q = c->p = NAN;
				continue;
			}
			present++;
		}
		if (present == 1)
			for (size_t k = 0; k < n_sides; k++)
				if (cm->cells[k].present)
					strlist_addf(warnings, "%s is present on %s only", what, sides[k].label);
		if (!cm->cells[0].present && present > 1)
			strlist_addf(warnings, "%s is missing on the first side %s, nothing to compare it with",
				     what, sides[0].label);
		free(what);
		judge_metric(sides, n_sides, cm, o, warnings);
		count_pairs(sides, n_sides, cm);
		for (size_t k = 1; k < n_sides; k++) {
			switch (cm->cells[k].verdict) {
			case VERDICT_COUNTS:
				res.n_counts++;
				break;
			case VERDICT_WITHIN_NOISE:
				res.n_within_noise++;
				break;
			case VERDICT_LOUD:
				res.n_loud++;
				break;
			case VERDICT_NO_DRIFT:
				res.n_no_drift++;
				break;
			default:
				break;
			}
		}
	}
	collect_costs(sides, n_sides, &res);
	collect_versions(sides, n_sides, &res);
	*ret = res;
	return 0;
}

size_t compare_result_compared(const struct compare_result *res)
{
	size_t n = 0;

	for (size_t i = 0; i < res->n_metrics; i++)
		for (size_t k = 1; k < res->n_sides; k++)
			if (res->metrics[i].cells[k].verdict != VERDICT_MISSING)
				n++;
	return n;
}

void compare_result_release(struct compare_result *res)
{
	for (size_t i = 0; i < res->n_metrics; i++) {
		free(res->metrics[i].row);
		free(res->metrics[i].metric);
		free(res->metrics[i].unit);
		free(res->metrics[i].cells);
	}
	for (size_t i = 0; i < res->n_costs; i++)
		free(res->costs[i].row);
	for (size_t i = 0; i < res->n_versions; i++) {
		for (size_t k = 0; k < res->n_sides; k++)
			free(res->versions[i].values[k]);
		free(res->versions[i].values);
		free(res->versions[i].name);
	}
	free(res->metrics);
	free(res->costs);
	free(res->versions);
	memset(res, 0, sizeof(*res));
}
