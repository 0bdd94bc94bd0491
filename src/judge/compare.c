#include "judge/compare.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <jansson.h>

#include "judge/drift.h"
#include "lib/alloc.h"
#include "lib/strbuf.h"

/* Every verdict's names, in one table: the reports and the page take them from here. */
static const struct verdict_text verdict_texts[] = {
	[VERDICT_BASELINE] = { "baseline", "", "", "v-base" },
	[VERDICT_COUNTS] = { "counts", "counts", "counts", "v-gain" },
	[VERDICT_WITHIN_NOISE] = { "within-noise", "within noise", "noise", "v-noise" },
	[VERDICT_LOUD] = { "loud", "loud: not judged", "loud", "v-loud" },
	[VERDICT_NO_DRIFT] = { "no-drift", "no drift measured", "no drift", "v-nodrift" },
	[VERDICT_DRIFT] = { "drift", "drift", "drift", "v-drift" },
	[VERDICT_MISSING] = { "missing", "missing", "missing", "v-missing" },
	[VERDICT_UNTESTED] = { "untested", "not tested", "untested", "v-untested" },
	[VERDICT_SAME] = { "same", "same", "same", "v-same" },
	[VERDICT_UNDECIDED] = { "undecided", "undecided", "undecided", "v-undecided" },
};

const struct verdict_text *verdict_text(enum verdict v)
{
	if ((size_t)v >= sizeof(verdict_texts) / sizeof(verdict_texts[0]) || !verdict_texts[v].name)
		v = VERDICT_MISSING;
	return &verdict_texts[v];
}

const char *verdict_name(enum verdict v)
{
	return verdict_text(v)->name;
}

const char *compare_method_name(enum compare_method m)
{
	switch (m) {
	case METHOD_BOOT:
		return "boot";
	case METHOD_HISTORY:
		return "history";
	case METHOD_NONE:
	default:
		return "none";
	}
}

int compare_parse_margin(const char *s, double *ret)
{
	char *end;
	double v;

	/* Decimal only: strtod would also take 0x10 (16), inf or 1e1. */
	if (strspn(s, "0123456789.") != strcspn(s, "%") || !strpbrk(s, "0123456789") || strchr(s, '.') != strrchr(s, '.'))
		return -EINVAL;
	errno = 0;
	v = strtod(s, &end);
	if (end != s && *end == '%')
		end++;
	if (errno || end == s || *end || !(v > 0 && v <= COMPARE_MARGIN_MAX))
		return -EINVAL;
	*ret = v;
	return 0;
}

/* The margin of a row: "ROW=PCT" in the options, else the default. */
static double row_margin(const struct compare_options *o, const char *row)
{
	size_t len = strlen(row);
	double v;

	for (size_t i = 0; o->row_equivalence && i < o->row_equivalence->n; i++) {
		const char *s = o->row_equivalence->items[i];

		if (!strncmp(s, row, len) && s[len] == '=' && compare_parse_margin(s + len + 1, &v) == 0)
			return v;
	}
	return o->equivalence_pct > 0 ? o->equivalence_pct : 0;
}

bool compare_rounds(const struct side *sides, size_t n_sides, unsigned *ret)
{
	bool recorded = true;
	unsigned r = 1;

	for (size_t k = 0; k < n_sides; k++)
		recorded &= sides[k].round > 0;
	if (recorded) {
		for (size_t k = 0; k < n_sides; k++)
			ret[k] = sides[k].round;
		return false;
	}
	for (size_t k = 0; k < n_sides; k++) {
		if (k > 0 && !strcmp(sides[k].mode, sides[0].mode))
			r++;
		ret[k] = r;
	}
	return true;
}

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

/*
 * Whether (row, metric) is already listed; known is a jansson object used
 * as a hash set, so listing n metrics is linear, not n^2. Row and metric
 * names hold no control character, so a newline separates them.
 */
static bool metric_known(json_t *known, const char *row, const char *metric)
{
	char *key = xasprintf("%s\n%s", row, metric);
	bool seen = json_object_get(known, key) != NULL;

	if (!seen)
		json_object_set_new(known, key, json_true());
	free(key);
	return seen;
}

/* "ROW=mean,min": the statistics of that row, into cm. */
static int row_stat_override(const struct compare_options *o, struct compare_metric *cm)
{
	size_t len = strlen(cm->row);

	if (!o->row_stats)
		return 0;
	for (size_t i = 0; i < o->row_stats->n; i++) {
		const char *s = o->row_stats->items[i];
		enum stat_kind kinds[STAT_KINDS];
		int n;

		if (strncmp(s, cm->row, len) || s[len] != '=')
			continue;
		n = stat_list_parse(s + len + 1, kinds);
		if (n < 0)
			return -EINVAL;
		memcpy(cm->stats, kinds, (size_t)n * sizeof(*kinds));
		cm->n_stats = (size_t)n;
		cm->stat = kinds[0];
		return 1;
	}
	return 0;
}

static void fill_cell(struct compare_cell *c, const struct metric *m, const struct compare_metric *cm)
{
	double mean = stats_mean(m->samples, m->n_samples);

	c->present = true;
	c->n = m->n_samples;
	c->value = stats_of(cm->stat, m->samples, m->n_samples);
	for (size_t i = 0; i < cm->n_stats; i++)
		c->stats[i].value = stats_of(cm->stats[i], m->samples, m->n_samples);
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
 * The seed rule for statistic i > 0 of a metric: the same judge_metric()
 * on that statistic's values, its results kept in each cell's stats[i].
 */
static void judge_stat(const struct side *sides, size_t n_sides, struct compare_metric *cm, size_t i,
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
	judge_metric(sides, n_sides, cm, o, warnings);
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
static void pair_partners(const struct side_modes *modes, size_t n_sides, long *partner)
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
static void count_pairs(const struct side_modes *modes, const long *partner, struct compare_metric *cm)
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

double compare_log_pct(double x, enum metric_better better)
{
	return better == BETTER_LOWER ? -expm1(-x) * 100 : expm1(x) * 100;
}

double compare_pct_log(double pct, enum metric_better better)
{
	return better == BETTER_LOWER ? -log1p(-pct / 100) : log1p(pct / 100);
}

/*
 * Boots of one metric with different rep counts: the boot-level test weighs
 * every boot alike (the variance of a boot mean is taken to be the same
 * for all), so a boot of 1 rep counts as much as one of 5. Said once.
 */
static void reps_warning(const struct side *sides, size_t n_sides, const struct compare_metric *cm,
			 struct strlist *warnings)
{
	size_t lo = SIZE_MAX, hi = 0, k_lo = 0;
	char *what;

	for (size_t k = 0; k < n_sides; k++) {
		/* The reps a boot recorded: a wild one left out is no different rep count. */
		size_t n = cm->cells[k].boot.n + cm->cells[k].n_wild;

		if (!cm->cells[k].has_boot)
			continue;
		if (n < lo) {
			lo = n;
			k_lo = k;
		}
		hi = n > hi ? n : hi;
	}
	if (hi == 0 || lo == hi)
		return;
	what = metric_label(cm->row, cm->metric);
	strlist_addf(warnings, "%s: its boots have %zu to %zu reps (%zu on %s); the boot-level test weighs every boot alike, as if each had the same reps",
		     what, lo, hi, lo, sides[k_lo].label);
	free(what);
}

/* The samples the boot level leaves out first: by-run rows have a cold first run, the boot is its warm runs. */
static size_t boot_skip(const struct compare_metric *cm, const struct metric *m)
{
	return cm->by_run && m->n_samples >= 2 ? 1 : 0;
}

/*
 * The wild reps of every side's boot of metric cm: stats_wild_reps() on
 * the logs of the samples the boot level uses, into each cell's wild (as
 * indices into the side's samples). A metric with a sample that is not
 * positive has no logs: nothing is flagged (and it gets no boot level).
 */
static void flag_wild(const struct side *sides, size_t n_sides, const struct side_modes *modes,
		      struct compare_metric *cm)
{
	size_t *starts = xcalloc(n_sides + 1, sizeof(*starts)), *boot_side = xcalloc(n_sides + 1, sizeof(*boot_side));
	size_t *group = xcalloc(n_sides + 1, sizeof(*group));
	size_t total = 0, nb = 0, pos = 0;
	double *logs;
	bool *wild, usable = true;

	for (size_t k = 0; k < n_sides; k++)
		if (cm->cells[k].present)
			total += find_metric(&sides[k], cm->row, NULL, cm->metric)->n_samples;
	logs = xcalloc(total + 1, sizeof(*logs));
	wild = xcalloc(total + 1, sizeof(*wild));
	for (size_t k = 0; k < n_sides && usable; k++) {
		const struct metric *m;

		if (!cm->cells[k].present)
			continue;
		m = find_metric(&sides[k], cm->row, NULL, cm->metric);
		starts[nb] = pos;
		/* A boot's group is its mode: the first side of that mode. */
		group[nb] = side_modes_first(modes, modes->of[k]);
		boot_side[nb++] = k;
		for (size_t i = boot_skip(cm, m); i < m->n_samples && usable; i++) {
			usable = m->samples[i] > 0 && isfinite(m->samples[i]);
			logs[pos++] = usable ? log(m->samples[i]) : 0;
		}
	}
	starts[nb] = pos;
	if (usable && stats_wild_reps(logs, starts, nb, group, COMPARE_WILD_K, log1p(COMPARE_WILD_MIN_PCT / 100), wild))
		for (size_t j = 0; j < nb; j++) {
			struct compare_cell *c = &cm->cells[boot_side[j]];
			size_t skip = boot_skip(cm, find_metric(&sides[boot_side[j]], cm->row, NULL, cm->metric));

			for (size_t i = starts[j]; i < starts[j + 1]; i++) {
				if (!wild[i])
					continue;
				if (!c->wild)
					c->wild = xcalloc(starts[j + 1] - starts[j], sizeof(*c->wild));
				c->wild[c->n_wild++] = i - starts[j] + skip;
			}
		}
	free(logs);
	free(wild);
	free(starts);
	free(boot_side);
	free(group);
}

/* Side k's boot of metric m into c->boot, without its wild reps. */
static int summarise_boot(const struct compare_metric *cm, const struct metric *m, struct compare_cell *c)
{
	size_t skip = boot_skip(cm, m), kept = 0, w = 0;
	double *x;
	int r;

	if (!c->n_wild)
		return stats_boot_summarise(m->samples, m->n_samples, skip, &c->boot);
	x = xcalloc(m->n_samples, sizeof(*x));
	for (size_t i = skip; i < m->n_samples; i++) {
		if (w < c->n_wild && c->wild[w] == i) {
			w++;
			continue;
		}
		x[kept++] = m->samples[i];
	}
	r = stats_boot_summarise(x, kept, 0, &c->boot);
	free(x);
	return r;
}

/*
 * Each present cell as a boot in log space, its wild reps left out. A
 * sample that is zero or negative has no log: then no boot-level statistic
 * is computed for the metric at all, rather than on the boots that happen
 * to be positive.
 */
static void summarise_boots(const struct side *sides, size_t n_sides, struct compare_metric *cm,
			    struct strlist *warnings)
{
	for (size_t k = 0; k < n_sides; k++) {
		struct compare_cell *c = &cm->cells[k];
		const struct metric *m;

		if (!c->present)
			continue;
		m = find_metric(&sides[k], cm->row, NULL, cm->metric);
		if (summarise_boot(cm, m, c) < 0) {
			char *what = metric_label(cm->row, cm->metric);

			strlist_addf(warnings, "%s on %s: a sample is zero or negative, so no boot-level statistics for it",
				     what, sides[k].label);
			free(what);
			for (size_t j = 0; j < n_sides; j++)
				cm->cells[j].has_boot = false;
			return;
		}
		c->has_boot = true;
	}
	reps_warning(sides, n_sides, cm, warnings);
}

/* A test on +-is-better log values into percentages. */
static void test_pct(const struct stats_test *t, enum metric_better better, double *ret_lo, double *ret_hi)
{
	*ret_lo = compare_log_pct(t->lo, better);
	*ret_hi = compare_log_pct(t->hi, better);
}

/* Flips a test of (b - a) into + is better. */
static void test_better(struct stats_test *t, enum metric_better better)
{
	double lo = -t->hi;

	if (better == BETTER_HIGHER)
		return;
	t->estimate = -t->estimate;
	t->t = -t->t;
	t->hi = -t->lo;
	t->lo = lo;
}

/* The naive pair: each mode's first side against the first side, rep by rep. */
static void rep_tests(const struct side_modes *modes, size_t n_sides, struct compare_metric *cm, double alpha)
{
	const struct compare_cell *base = &cm->cells[0];

	for (size_t k = 0; k < n_sides; k++) {
		struct compare_cell *c = &cm->cells[k];
		struct stats_test t;

		c->rep_p = c->rep_lo_pct = c->rep_hi_pct = NAN;
		if (k == 0 || side_modes_first(modes, modes->of[k]) != k || !c->has_boot || !base->has_boot || c->boot.n < 2 || base->boot.n < 2)
			continue;
		if (stats_welch_test(base->boot.mean, base->boot.ss / (double)(base->boot.n - 1), base->boot.n,
				     c->boot.mean, c->boot.ss / (double)(c->boot.n - 1), c->boot.n, alpha, &t) < 0)
			continue;
		test_better(&t, cm->better);
		c->rep_p = t.p;
		test_pct(&t, cm->better, &c->rep_lo_pct, &c->rep_hi_pct);
	}
}

/* A boot of the first mode or of the mode tested, by round. */
struct round_boot {
	unsigned round;
	size_t side;
	bool first;             /* of the first side's mode */
	double mean;
};

/* By round, then by side: the order the sums of a round are taken in. */
static int round_boot_cmp(const void *a, const void *b)
{
	const struct round_boot *x = a, *y = b;

	if (x->round != y->round)
		return x->round < y->round ? -1 : 1;
	return (x->side > y->side) - (x->side < y->side);
}

/* The paired-by-round estimate of mode g: rounds holding both modes, one difference each. */
static bool paired_test(const struct compare_metric *cm, const struct side_modes *modes, const unsigned *rounds,
			size_t g, double alpha, size_t *ret_rounds, struct stats_test *ret)
{
	size_t n = side_modes_count(modes, 0) + side_modes_count(modes, g), nb = 0, nd = 0;
	struct round_boot *b = xcalloc(n + 1, sizeof(*b));
	double *d = xcalloc(n + 1, sizeof(*d));
	bool ok = false;

	for (size_t i = modes->start[0]; i < modes->start[1]; i++)
		if (cm->cells[modes->sides[i]].has_boot)
			b[nb++] = (struct round_boot){ rounds[modes->sides[i]], modes->sides[i], true,
						       cm->cells[modes->sides[i]].boot.mean };
	for (size_t i = modes->start[g]; i < modes->start[g + 1]; i++)
		if (cm->cells[modes->sides[i]].has_boot)
			b[nb++] = (struct round_boot){ rounds[modes->sides[i]], modes->sides[i], false,
						       cm->cells[modes->sides[i]].boot.mean };
	qsort(b, nb, sizeof(*b), round_boot_cmp);
	for (size_t i = 0, j; i < nb; i = j) {
		double sa = 0, sm = 0;
		size_t na = 0, nm = 0;

		for (j = i; j < nb && b[j].round == b[i].round; j++) {
			*(b[j].first ? &sa : &sm) += b[j].mean;
			*(b[j].first ? &na : &nm) += 1;
		}
		if (na && nm)
			d[nd++] = (sm / (double)nm - sa / (double)na) * (double)cm->better;
	}
	if (nd >= 2) {
		double sd = stats_stddev(d, nd);

		ok = stats_t_test(stats_mean(d, nd), sd / sqrt((double)nd), (double)(nd - 1), alpha, ret) == 0;
		*ret_rounds = nd;
	}
	free(b);
	free(d);
	return ok;
}

static double group_mean(const struct stats_group *g)
{
	double s = 0;

	for (size_t i = 0; i < g->n; i++)
		s += g->boots[i].mean;
	return s / (double)g->n;
}

static double group_var(const struct stats_group *g)
{
	double m = group_mean(g), ss = 0;

	for (size_t i = 0; i < g->n; i++)
		ss += (g->boots[i].mean - m) * (g->boots[i].mean - m);
	return g->n >= 2 ? ss / (double)(g->n - 1) : NAN;
}

/*
 * Equivalence by two one-sided tests at alpha (Schuirmann 1987): the mode
 * is the same within -/+ margin when the 1 - 2 alpha CI of the difference
 * lies inside it. A difference that counts stays a claim (and may be inside
 * the margin too); otherwise the verdict is same or undecided.
 */
static void judge_equivalence(struct compare_test *t, enum metric_better better, double margin_pct, double df,
			      double alpha)
{
	struct stats_test tost;

	if (stats_t_test(t->estimate, t->test.se, df, 2 * alpha, &tost) < 0)
		return;
	t->has_equivalence = true;
	test_pct(&tost, better, &t->eq_lo_pct, &t->eq_hi_pct);
	/* The margin is on the report's delta: -M % < delta < +M % at both ends of the CI. */
	t->equivalent = t->eq_lo_pct > -margin_pct && t->eq_hi_pct < margin_pct;
	if (t->verdict != VERDICT_COUNTS)
		t->verdict = t->equivalent ? VERDICT_SAME : VERDICT_UNDECIDED;
}

/*
 * One group of boots per mode, in first-seen order, the first side's mode
 * first: groups[g] holds the boots (in boots) of mode g that have metric
 * cm. Returns the number of groups; *any_repeat: a mode has two boots or
 * more.
 */
static size_t mode_groups(const struct side_modes *modes, const struct compare_metric *cm,
			  struct stats_boot *boots, struct stats_group *groups, bool *any_repeat)
{
	size_t used = 0;

	for (size_t g = 0; g < modes->n; g++) {
		groups[g].boots = boots + used;
		for (size_t i = modes->start[g]; i < modes->start[g + 1]; i++)
			if (cm->cells[modes->sides[i]].has_boot)
				boots[used++] = cm->cells[modes->sides[i]].boot;
		groups[g].n = (size_t)(boots + used - groups[g].boots);
		*any_repeat |= groups[g].n >= 2;
	}
	return modes->n;
}

/*
 * The machine's history of metric cm (its boot-to-boot variance in *hc)
 * and whether this campaign's boots agree with it.
 */
static void boot_level_history(const struct compare_options *o, struct compare_metric *cm,
			       const struct strlist *history_ids, struct stats_components *hc)
{
	struct stats_group *hist = NULL;
	size_t n_hist;

	n_hist = history_groups(o->history, cm->row, cm->metric, history_ids, &hist);
	if (n_hist) {
		stats_variance_components(hist, n_hist, hc);
		cm->has_history = hc->boot_df > 0;
		cm->history = (struct compare_history){ .entries = n_hist, .df = hc->boot_df,
							.var = hc->boot_var, .ratio = NAN, .p = NAN };
		if (cm->has_history && cm->components.boot_df > 0 && hc->boot_var > 0) {
			cm->history.checked = true;
			cm->history.ratio = cm->components.boot_var / hc->boot_var;
			cm->history.p = stats_f_upper_p(cm->history.ratio, cm->components.boot_df, hc->boot_df);
			cm->history.unusual = cm->history.p < COMPARE_UNUSUAL_P;
		}
	}
	free(hist);
}

/*
 * How many boots test t would need to claim (the power at its estimate),
 * and, undecided, to decide either way: from the boot-mean variance of
 * the campaign's components, else of its boot means, else the history.
 */
static void boots_needed(struct compare_test *t, const struct compare_metric *cm, const struct stats_components *hc,
			 size_t n_groups, double alpha)
{
	/*
	 * The boot-mean variance from the components (sigma_w has many
	 * degrees of freedom), else from boot means alone, else the history.
	 */
	double reps = (double)cm->components.samples / (double)cm->components.boots;
	double v = cm->components.sigma_b2 + cm->components.sigma_w2 / reps;

	/*
	 * Judged by the history: its boot-mean variance at this
	 * campaign's reps is the one a next campaign will be judged by
	 * (bootab plan --effect --history gives the same number).
	 */
	if (t->method == METHOD_HISTORY) {
		v = hc->sigma_b2 + hc->sigma_w2 / reps;
		if (!(v > 0))
			v = hc->boot_var;
	}
	if (!(v > 0))
		v = cm->components.boot_var > 0 ? cm->components.boot_var
		    : cm->has_history ? hc->boot_var : NAN;

	if (v > 0) {
		t->power_var = v;
		t->power_modes = n_groups;
	}
	if (v > 0 && t->estimate != 0) {
		t->has_boots_needed = true;
		t->boots_needed = stats_boots_needed(t->estimate, v, n_groups, alpha, COMPARE_POWER, 1000);
	}
	if (v > 0 && t->verdict == VERDICT_UNDECIDED) {
		unsigned eq = stats_tost_boots_needed(t->estimate,
						      compare_pct_log(-cm->margin_pct, cm->better),
						      compare_pct_log(cm->margin_pct, cm->better), v,
						      n_groups, alpha, COMPARE_POWER, 1000);
		unsigned diff = t->has_boots_needed ? t->boots_needed : 0;

		t->has_boots_to_decide = true;
		t->boots_to_decide = !eq ? diff : !diff ? eq : eq < diff ? eq : diff;
	}
}

/*
 * The boot-level test of group b (mode g) against group a (the first
 * side's mode) into the next of cm's tests; a and b each hold a boot.
 */
static void boot_level_test(const struct side *sides, const struct side_modes *modes, const unsigned *rounds,
			    struct compare_metric *cm, const struct compare_options *o, double alpha,
			    const struct stats_group *a, const struct stats_group *b, size_t g,
			    const struct stats_components *hc, size_t n_groups)
{
	struct compare_test *t = &cm->tests[cm->n_tests++];
	size_t side = side_modes_first(modes, g);
	double var = NAN, df = 0, own_df, own_ss;

	/*
	 * The first side lacks the metric but its mode's repeats have it:
	 * the boot level tests against those (the screen cannot judge it).
	 */
	*t = (struct compare_test){ .mode = sides[side].mode, .side = side,
				    .boots_first = a->n, .boots = b->n, .method = METHOD_NONE,
				    .verdict = VERDICT_UNTESTED, .estimate = NAN, .delta_pct = NAN,
				    .lo_pct = NAN, .hi_pct = NAN, .fdr_q = NAN,
				    .power_var = NAN };
	t->estimate = (group_mean(b) - group_mean(a)) * (double)cm->better;
	t->delta_pct = compare_log_pct(t->estimate, cm->better);
	for (size_t i = modes->start[0]; i < modes->start[1]; i++)
		t->wild_reps += cm->cells[modes->sides[i]].n_wild;
	for (size_t i = modes->start[g]; i < modes->start[g + 1]; i++)
		t->wild_reps += cm->cells[modes->sides[i]].n_wild;
	/* The two modes' own boot-mean variances: a third mode's noise is no part of this comparison. */
	own_df = (a->n >= 2 ? (double)(a->n - 1) : 0) + (b->n >= 2 ? (double)(b->n - 1) : 0);
	own_ss = (a->n >= 2 ? group_var(a) * (double)(a->n - 1) : 0) + (b->n >= 2 ? group_var(b) * (double)(b->n - 1) : 0);
	if (a->n >= 2 && b->n >= 2 &&
	    stats_welch_test(group_mean(a), group_var(a), a->n, group_mean(b), group_var(b), b->n, alpha,
			     &t->welch) == 0) {
		/* Each mode with its own variance (Welch-Satterthwaite): no mode is assumed as noisy as another. */
		t->has_welch = true;
		test_better(&t->welch, cm->better);
		t->method = METHOD_BOOT;
		df = t->welch.df;
	} else if (cm->has_history && hc->boot_var > 0) {
		/* The history's boot-to-boot variance pooled with the two modes' own. */
		t->method = METHOD_HISTORY;
		df = hc->boot_df + own_df;
		var = (hc->boot_ss + own_ss) / df;
	}
	if (t->has_welch)
		t->test = t->welch;
	else if (t->method != METHOD_NONE &&
		 stats_t_test(t->estimate, sqrt(var * (1.0 / (double)a->n + 1.0 / (double)b->n)), df, alpha,
			      &t->test) < 0)
		t->method = METHOD_NONE;
	if (t->method != METHOD_NONE) {
		t->verdict = t->test.lo > 0 || t->test.hi < 0 ? VERDICT_COUNTS : VERDICT_WITHIN_NOISE;
		test_pct(&t->test, cm->better, &t->lo_pct, &t->hi_pct);
		if (cm->margin_pct > 0)
			judge_equivalence(t, cm->better, cm->margin_pct, df, alpha);
	}
	t->has_paired = paired_test(cm, modes, rounds, g, alpha, &t->paired_rounds, &t->paired);
	if (o->boots_needed)
		/* Welch's t compares two modes: its degrees of freedom are those of two modes' boots. */
		boots_needed(t, cm, hc, t->method == METHOD_BOOT ? 2 : n_groups, alpha);
}

static void boot_level(const struct side *sides, size_t n_sides, const struct side_modes *modes,
		       const unsigned *rounds, struct compare_metric *cm, const struct compare_options *o,
		       double alpha, const struct strlist *history_ids)
{
	struct stats_boot *boots = xcalloc(n_sides, sizeof(*boots));
	struct stats_group *groups = xcalloc(modes->n + 1, sizeof(*groups));
	struct stats_components hc = { 0 };
	size_t n_groups, n_tests = 0;
	bool any_repeat = false;

	n_groups = mode_groups(modes, cm, boots, groups, &any_repeat);
	stats_variance_components(groups, n_groups, &cm->components);
	cm->has_components = any_repeat;
	boot_level_history(o, cm, history_ids, &hc);
	/* A mode with no boot of this metric (or a first mode with none) is not a test at all: none kept. */
	for (size_t g = 1; g < n_groups; g++)
		n_tests += groups[0].n > 0 && groups[g].n > 0;
	cm->tests = n_tests ? xcalloc(n_tests, sizeof(*cm->tests)) : NULL;
	for (size_t g = 1; g < n_groups; g++)
		if (groups[0].n > 0 && groups[g].n > 0)
			boot_level_test(sides, modes, rounds, cm, o, alpha, &groups[0], &groups[g], g, &hc,
					n_groups);
	free(boots);
	free(groups);
}

/*
 * Benjamini-Hochberg over every test of the report's own numbers; the
 * counters (perf) that explain them are a family of their own, so that
 * asking for counters never weakens a row's claim, and they stay out of
 * the summary's tallies.
 */
static void control_fdr_family(struct compare_result *res, bool counters)
{
	size_t n = 0, i = 0;
	double *p;

	for (size_t m = 0; m < res->n_metrics; m++)
		if (res->metrics[m].counter == counters)
			n += res->metrics[m].n_tests;
	p = xcalloc(n + 1, sizeof(*p));
	for (size_t m = 0; m < res->n_metrics; m++)
		for (size_t t = 0; res->metrics[m].counter == counters && t < res->metrics[m].n_tests; t++) {
			const struct compare_test *ct = &res->metrics[m].tests[t];

			p[i++] = ct->method != METHOD_NONE ? ct->test.p : NAN;
		}
	stats_bh_adjust(p, n, p);
	i = 0;
	for (size_t m = 0; m < res->n_metrics; m++) {
		struct compare_metric *cm = &res->metrics[m];

		if (cm->counter != counters)
			continue;
		res->n_unusual += cm->has_history && cm->history.unusual;
		res->n_drift += cm->has_history && cm->history.drift;
		for (size_t t = 0; t < cm->n_tests; t++) {
			struct compare_test *ct = &cm->tests[t];

			ct->fdr_q = p[i++];
			if (ct->method == METHOD_NONE)
				continue;
			if (ct->verdict == VERDICT_COUNTS)
				ct->survives = ct->fdr_q <= res->fdr_q;
			if (counters)
				continue;
			res->n_tests++;
			res->n_same += ct->verdict == VERDICT_SAME;
			res->n_undecided += ct->verdict == VERDICT_UNDECIDED;
			if (ct->verdict != VERDICT_COUNTS)
				continue;
			res->n_claims++;
			res->n_survive += ct->survives;
		}
	}
	free(p);
}

static void control_fdr(struct compare_result *res)
{
	control_fdr_family(res, false);
	control_fdr_family(res, true);
}

static bool failed_on(const struct row *r, const char *test)
{
	for (size_t i = 0; r && i < r->metrics.n_failed; i++)
		if (!strcmp(r->metrics.failed[i], test))
			return true;
	return false;
}

/*
 * A side's costs: check rows (and rows) that exited non-zero, and test
 * suites (KTAP rows) with failed tests, each failure compared with the
 * first side's.
 */
static void collect_costs(const struct side *sides, size_t n_sides, struct compare_result *res)
{
	size_t alloc = 0;

	for (size_t k = 0; k < n_sides; k++) {
		for (size_t i = 0; i < sides[k].n_rows; i++) {
			const struct row *r = &sides[k].rows[i];
			const struct metric_set *m = &r->metrics;
			bool tests_failed = m->has_checks && m->checks[CHECK_FAILED] > 0;
			const struct row *first;
			struct compare_cost *c;

			if (!tests_failed && (!r->has_rc || r->rc == 0))
				continue;
			first = side_find_row(&sides[0], r->name);
			GROW(res->costs, alloc, res->n_costs + 1);
			c = &res->costs[res->n_costs++];
			memset(c, 0, sizeof(*c));
			c->side = k;
			c->row = xstrdup(r->name);
			c->rc = r->has_rc ? r->rc : 0;
			c->fails_on_first = first && first->has_rc && first->rc != 0;
			if (!m->has_checks)
				continue;
			c->has_tests = true;
			for (size_t o = 0; o < CHECK_OUTCOMES; o++)
				c->tests_total += m->checks[o];
			c->tests_failed = m->n_failed;
			c->failures = xcalloc(m->n_failed + 1, sizeof(*c->failures));
			for (size_t f = 0; f < m->n_failed; f++) {
				c->failures[f] = xstrdup(m->failed[f]);
				c->tests_new += !failed_on(first, m->failed[f]);
			}
			c->fails_on_first = first && c->tests_failed && c->tests_new == 0;
		}
	}
}

/* Appends to sb, printably, the fields of origin a (0x1f-separated "key=value") that origin b lacks or has otherwise. */
static void origin_diff(struct strbuf *sb, const char *a, const char *b, const char *b_label)
{
	for (const char *p = a; *p;) {
		size_t n = strcspn(p, "\x1f"), kn = strcspn(p, "=");
		const char *q = b, *bv = NULL;
		size_t bn = 0;

		if (kn > n)
			kn = n;
		for (; *q; q += strcspn(q, "\x1f") + (q[strcspn(q, "\x1f")] != '\0')) {
			size_t m = strcspn(q, "\x1f");

			if (m == n && !memcmp(p, q, n))
				break;
			if (m > kn && !memcmp(p, q, kn) && q[kn] == '=') {
				bv = q + kn + 1;
				bn = m - kn - 1;
			}
		}
		if (!*q && sb->len < 400) {
			strbuf_addf(sb, "%s%.*s ", sb->len ? ", " : "", (int)kn, p);
			for (size_t i = kn + 1; i < n; i++)
				strbuf_addch(sb, isprint((unsigned char)p[i]) ? p[i] : '?');
			strbuf_addf(sb, " (%s: ", b_label);
			for (size_t i = 0; bv && i < bn; i++)
				strbuf_addch(sb, isprint((unsigned char)bv[i]) ? bv[i] : '?');
			strbuf_addstr(sb, bv ? ")" : "none)");
		}
		p += n + (p[n] != '\0');
	}
}

/* Rows whose tool recorded another build or setting than the first side's: not comparable. */
static void collect_mismatches(const struct side *sides, size_t n_sides, struct compare_result *res)
{
	size_t alloc = 0;

	for (size_t k = 1; k < n_sides; k++)
		for (size_t r = 0; r < sides[k].n_rows; r++) {
			const struct row *row = &sides[k].rows[r], *first = side_find_row(&sides[0], row->name);
			struct strbuf sb = STRBUF_INIT;

			for (size_t i = 0; first && i < row->metrics.n_metrics && !sb.len; i++) {
				const struct metric *m = &row->metrics.metrics[i];
				const struct metric *f = metric_set_find(&first->metrics, m->name);

				if (f && m->origin && f->origin && strcmp(m->origin, f->origin))
					origin_diff(&sb, m->origin, f->origin, sides[0].label);
			}
			if (!sb.len)
				continue;
			GROW(res->mismatches, alloc, res->n_mismatches + 1);
			res->mismatches[res->n_mismatches++] = (struct compare_mismatch){
				.side = k, .row = xstrdup(row->name), .what = strbuf_detach(&sb, NULL) };
		}
}

const struct compare_mismatch *compare_mismatch_find(const struct compare_result *res, size_t k, const char *row)
{
	for (size_t i = 0; i < res->n_mismatches; i++)
		if (res->mismatches[i].side == k && !strcmp(res->mismatches[i].row, row))
			return &res->mismatches[i];
	return NULL;
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

static void count_verdict(struct compare_result *res, enum verdict v)
{
	switch (v) {
	case VERDICT_COUNTS:
		res->n_counts++;
		break;
	case VERDICT_WITHIN_NOISE:
		res->n_within_noise++;
		break;
	case VERDICT_LOUD:
		res->n_loud++;
		break;
	case VERDICT_NO_DRIFT:
		res->n_no_drift++;
		break;
	default:
		break;
	}
}

/* Whether o is one compare_sides() can work with (compare's options check each the same way first). */
static bool compare_options_valid(const struct compare_options *o, size_t n_sides, double alpha, double fdr_q)
{
	if (n_sides < 2 || !(o->loud_pct >= 0) || !(alpha > 0 && alpha < 1) || !(fdr_q > 0 && fdr_q < 1) ||
	    (o->stats && (o->n_stats < 1 || o->n_stats > STAT_KINDS || o->stats[0] != o->stat)))
		return false;
	if (o->row_stats)
		for (size_t i = 0; i < o->row_stats->n; i++) {
			const char *eq = strchr(o->row_stats->items[i], '=');
			enum stat_kind k[STAT_KINDS];

			if (!eq || eq == o->row_stats->items[i] || stat_list_parse(eq + 1, k) < 0)
				return false;
		}
	if (o->ignore)
		for (size_t i = 0; i < o->ignore->n; i++) {
			char *error = NULL;

			if (costs_pattern_check(o->ignore->items[i], &error) < 0) {
				free(error);
				return false;
			}
		}
	if (!(o->equivalence_pct >= 0 && o->equivalence_pct <= COMPARE_MARGIN_MAX))
		return false;
	if (o->row_equivalence)
		for (size_t i = 0; i < o->row_equivalence->n; i++) {
			const char *eq = strchr(o->row_equivalence->items[i], '=');
			double v;

			if (!eq || eq == o->row_equivalence->items[i] || compare_parse_margin(eq + 1, &v) < 0)
				return false;
		}
	return true;
}

/* The metrics of every bench row, in first-seen order, the first side's first; no cell filled yet. */
static void collect_metrics(const struct side *sides, size_t n_sides, const struct compare_options *o,
			    struct compare_result *res)
{
	size_t alloc = 0;
	json_t *known;

	known = json_object();
	for (size_t k = 0; k < n_sides; k++) {
		for (size_t i = 0; i < sides[k].n_rows; i++) {
			const struct row *r = &sides[k].rows[i];

			if (r->kind != ROW_BENCH)
				continue;
			for (size_t j = 0; j < r->metrics.n_metrics; j++) {
				const struct metric *m = &r->metrics.metrics[j];
				struct compare_metric *cm;

				if (metric_known(known, r->name, m->name))
					continue;
				GROW(res->metrics, alloc, res->n_metrics + 1);
				cm = &res->metrics[res->n_metrics++];
				memset(cm, 0, sizeof(*cm));
				cm->row = xstrdup(r->name);
				cm->metric = xstrdup(m->name);
				cm->better = m->better;
				cm->unit = xstrdup(m->unit);
				cm->counter = m->counter != NULL;
				cm->energy = m->counter && !strcmp(m->counter, "rapl");
				cm->stat = o->stat;
				cm->stats[0] = o->stat;
				cm->n_stats = 1;
				if (o->stats) {
					memcpy(cm->stats, o->stats, o->n_stats * sizeof(*o->stats));
					cm->n_stats = o->n_stats;
				}
				cm->cells = xcalloc(n_sides, sizeof(*cm->cells));
			}
		}
	}
	json_decref(known);
}

/*
 * How metric cm is compared: run by run (--by-run or the row says so),
 * by which statistics (the options', else the first row that names its
 * own), with which equivalence margin.
 */
static void metric_setup(const struct side *sides, size_t n_sides, struct compare_metric *cm,
			 const struct compare_options *o, const char *what, struct strlist *warnings)
{
	bool stat_from_row = false;

	if (o->by_run && strlist_find(o->by_run, cm->row) >= 0)
		cm->by_run = true;
	for (size_t k = 0; k < n_sides; k++) {
		const struct row *r;

		find_metric(&sides[k], cm->row, &r, cm->metric);
		if (!r)
			continue;
		cm->by_run |= r->by_run;
		if (r->has_stat && !stat_from_row && !o->stat_given) {
			cm->stat = r->stat;
			cm->stats[0] = r->stat;
			cm->n_stats = 1;
			for (size_t j = 1; j < r->n_stats; j++)
				cm->stats[cm->n_stats++] = r->stats[j];
			stat_from_row = true;
		}
	}
	row_stat_override(o, cm);
	cm->margin_pct = row_margin(o, cm->row);
	if (cm->by_run && cm->n_stats > 1) {
		strlist_addf(warnings, "%s: compared run by run, so by %s only (one run against one run has no %s)",
			     what, stat_kind_name(cm->stat), stat_kind_name(cm->stats[1]));
		cm->n_stats = 1;
	}
}

/* Each side's value of metric cm, where it has a usable one; what is missing where is a warning. */
static void fill_cells(const struct side *sides, size_t n_sides, struct compare_metric *cm, const char *what,
		       struct strlist *warnings)
{
	size_t present = 0;
	struct compare_stat *stats = xcalloc(n_sides * cm->n_stats, sizeof(*stats));

	for (size_t k = 0; k < n_sides; k++) {
		const struct metric *m = find_metric(&sides[k], cm->row, NULL, cm->metric);
		struct compare_cell *c = &cm->cells[k];

		c->stats = &stats[k * cm->n_stats];
		c->delta_pct = c->drift_pct = c->q = c->p = NAN;
		if (!m)
			continue;
		if (m->better != cm->better) {
			strlist_addf(warnings, "%s on %s: the direction of 'better' differs from the other sides, ignoring it there",
				     what, sides[k].label);
			continue;
		}
		fill_cell(c, m, cm);
		if (!(c->value > 0) || !(stats_mean(m->samples, m->n_samples) > 0)) {
			strlist_addf(warnings, "%s on %s: %s is zero or negative, no percentage can be computed, ignoring it there",
				     what, sides[k].label, stat_kind_name(cm->stat));
			memset(c->stats, 0, cm->n_stats * sizeof(*c->stats));
			*c = (struct compare_cell){ .stats = c->stats };
			c->delta_pct = c->drift_pct = c->q = c->p = NAN;
			continue;
		}
		present++;
	}
	if (present == 1)
		for (size_t k = 0; k < n_sides; k++)
			if (cm->cells[k].present)
				strlist_addf(warnings, "%s is present on %s only", what, sides[k].label);
	if (!cm->cells[0].present && present > 1) {
		bool repeat_has = false;

		for (size_t k = 1; k < n_sides; k++)
			repeat_has |= cm->cells[k].present && !strcmp(sides[k].mode, sides[0].mode);
		if (repeat_has)
			strlist_addf(warnings, "%s is missing on the first side %s: the screen cannot judge it; the boot level compares with the other boots of %s",
				     what, sides[0].label, sides[0].mode);
		else
			strlist_addf(warnings, "%s is missing on the first side %s, nothing to compare it with",
				     what, sides[0].label);
	}
}

/* The screen, the other statistics, the pairs and the boot-level tests of metric cm; the verdicts counted. */
static void judge_all(const struct side *sides, size_t n_sides, struct compare_metric *cm,
		      const struct compare_options *o, double alpha, const long *partner,
		      struct compare_result *res, struct strlist *warnings)
{
	judge_metric(sides, n_sides, cm, o, warnings);
	for (size_t k = 0; k < n_sides; k++) {
		struct compare_cell *c = &cm->cells[k];

		c->stats[0] = (struct compare_stat){ c->value, c->delta_pct, c->drift_pct, c->q, c->p, c->verdict };
	}
	for (size_t j = 1; j < cm->n_stats; j++)
		judge_stat(sides, n_sides, cm, j, o, warnings);
	count_pairs(&res->modes, partner, cm);
	summarise_boots(sides, n_sides, cm, warnings);
	rep_tests(&res->modes, n_sides, cm, alpha);
	boot_level(sides, n_sides, &res->modes, res->rounds, cm, o, alpha, &res->history_ids);
	/* Every statistic's verdict is one of the report's. */
	for (size_t k = 1; k < n_sides; k++)
		for (size_t j = 0; j < cm->n_stats; j++)
			count_verdict(res, cm->cells[k].stats[j].verdict);
}

int compare_sides(const struct side *sides, size_t n_sides, const struct compare_options *o,
		  struct compare_result *ret, struct strlist *warnings)
{
	struct compare_result res = { .sides = sides, .n_sides = n_sides };
	long *partner;
	double alpha = o->alpha != 0 ? o->alpha : COMPARE_ALPHA_DEFAULT;
	double fdr_q = o->fdr_q != 0 ? o->fdr_q : COMPARE_FDR_Q_DEFAULT;

	if (!compare_options_valid(o, n_sides, alpha, fdr_q))
		return -EINVAL;
	side_modes_index(sides, n_sides, &res.modes);
	res.n_repeats = side_modes_count(&res.modes, 0) - 1;
	res.alpha = alpha;
	res.fdr_q = fdr_q;
	/* Pairs depend on the modes only: each side's partner, once. */
	partner = xcalloc(n_sides, sizeof(*partner));
	pair_partners(&res.modes, n_sides, partner);
	res.rounds = xcalloc(n_sides, sizeof(*res.rounds));
	res.rounds_inferred = compare_rounds(sides, n_sides, res.rounds);
	if (o->history) {
		res.history_key = history_campaign_key(sides, n_sides);
		history_campaign_ids(sides, n_sides, &res.history_ids);
	}
	collect_metrics(sides, n_sides, o, &res);
	for (size_t i = 0; i < res.n_metrics; i++) {
		struct compare_metric *cm = &res.metrics[i];
		char *what = metric_label(cm->row, cm->metric);

		metric_setup(sides, n_sides, cm, o, what, warnings);
		fill_cells(sides, n_sides, cm, what, warnings);
		flag_wild(sides, n_sides, &res.modes, cm);
		free(what);
		judge_all(sides, n_sides, cm, o, alpha, partner, &res, warnings);
	}
	free(partner);
	/* The history's tests stand only on a box no noisier than its history. */
	drift_judge_box(&res, o->history);
	control_fdr(&res);
	collect_costs(sides, n_sides, &res);
	costs_find(sides, n_sides, o->ignore, &res.found);
	collect_versions(sides, n_sides, &res);
	collect_mismatches(sides, n_sides, &res);
	new_old_judge(sides, n_sides, res.alpha, &res.new_old);
	*ret = res;
	return 0;
}

void compare_history_entry(const struct compare_result *res, const char *recorded,
			   struct history_entry *ret)
{
	struct history_entry e = { 0 };
	bool aa = true;

	for (size_t k = 1; k < res->n_sides; k++)
		aa &= !strcmp(res->sides[k].mode, res->sides[0].mode);
	e.key = res->history_key ? xstrdup(res->history_key) : history_campaign_key(res->sides, res->n_sides);
	e.recorded = xstrdup(recorded);
	e.kind = xstrdup(aa ? "aa" : "repeat");
	e.metrics = xcalloc(res->n_metrics + 1, sizeof(*e.metrics));
	for (size_t i = 0; i < res->n_metrics; i++) {
		const struct compare_metric *cm = &res->metrics[i];
		struct history_metric *hm = &e.metrics[e.n_metrics];

		hm->boots = xcalloc(res->n_sides, sizeof(*hm->boots));
		for (size_t k = 0; k < res->n_sides; k++)
			if (cm->cells[k].has_boot && !strcmp(res->sides[k].mode, res->sides[0].mode))
				hm->boots[hm->n_boots++] = cm->cells[k].boot;
		if (hm->n_boots < 2) {
			free(hm->boots);
			memset(hm, 0, sizeof(*hm));
			continue;
		}
		hm->row = xstrdup(cm->row);
		hm->metric = xstrdup(cm->metric);
		e.n_metrics++;
	}
	*ret = e;
}

int compare_history_record(const struct compare_result *res, struct history *history, const char *path,
			   size_t *ret_boots)
{
	struct history_entry e;
	char now[32];
	time_t t = time(NULL);
	struct tm tm;
	size_t boots;
	int r;

	gmtime_r(&t, &tm);
	strftime(now, sizeof(now), "%Y-%m-%dT%H:%M:%SZ", &tm);
	compare_history_entry(res, now, &e);
	boots = e.n_metrics ? e.metrics[0].n_boots : 0;
	r = history_record_locked(history, path, &e);
	if (r < 0)
		return r;
	*ret_boots = boots;
	return 0;
}

const struct metric *compare_side_metric(const struct compare_result *res, const struct compare_metric *cm, size_t k)
{
	if (k >= res->n_sides)
		return NULL;
	return find_metric(&res->sides[k], cm->row, NULL, cm->metric);
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
		for (size_t k = 0; res->metrics[i].cells && k < res->n_sides; k++)
			free(res->metrics[i].cells[k].wild);
		/* The metric's block of statistics starts at its first cell's. */
		if (res->metrics[i].cells && res->n_sides)
			free(res->metrics[i].cells[0].stats);
		free(res->metrics[i].cells);
		free(res->metrics[i].tests);
	}
	for (size_t i = 0; i < res->n_costs; i++) {
		free(res->costs[i].row);
		for (size_t f = 0; f < res->costs[i].tests_failed; f++)
			free(res->costs[i].failures[f]);
		free(res->costs[i].failures);
	}
	for (size_t i = 0; i < res->n_mismatches; i++) {
		free(res->mismatches[i].row);
		free(res->mismatches[i].what);
	}
	free(res->mismatches);
	new_old_release(&res->new_old);
	for (size_t i = 0; i < res->n_versions; i++) {
		for (size_t k = 0; k < res->n_sides; k++)
			free(res->versions[i].values[k]);
		free(res->versions[i].values);
		free(res->versions[i].name);
	}
	free(res->metrics);
	free(res->costs);
	costs_result_release(&res->found);
	free(res->versions);
	free(res->rounds);
	side_modes_release(&res->modes);
	free(res->history_key);
	strlist_release(&res->history_ids);
	memset(res, 0, sizeof(*res));
}

bool compare_decided(const struct compare_result *result, size_t *ret_decided, size_t *ret_tests)
{
	size_t decided = 0, tests = 0;

	/* The counters explain the answer; the campaign waits for the answer alone. */
	for (size_t i = 0; i < result->n_metrics; i++)
		for (size_t t = 0; !result->metrics[i].counter && t < result->metrics[i].n_tests; t++) {
			const struct compare_test *ct = &result->metrics[i].tests[t];

			tests++;
			decided += ct->method != METHOD_NONE &&
				   ((ct->verdict == VERDICT_COUNTS && ct->survives) || ct->equivalent);
		}
	if (ret_decided)
		*ret_decided = decided;
	if (ret_tests)
		*ret_tests = tests;
	return tests > 0 && decided == tests;
}
