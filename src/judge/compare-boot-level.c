/*
 * The boot-level tests of compare_sides(): each boot summarised in log
 * space without its wild reps, the naive rep-by-rep pair, and each mode
 * against the first side's by its boots (Welch, or pooled with the
 * machine's history), paired by round, with equivalence and the boots a
 * decision needs.
 */
#include "judge/compare.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "judge/compare-internal.h"
#include "lib/alloc.h"

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
	what = compare_metric_label(cm->row, cm->metric);
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
void compare_flag_wild(const struct side *sides, size_t n_sides, const struct side_modes *modes,
		       struct compare_metric *cm)
{
	size_t *starts = xcalloc(n_sides + 1, sizeof(*starts)), *boot_side = xcalloc(n_sides + 1, sizeof(*boot_side));
	size_t *group = xcalloc(n_sides + 1, sizeof(*group));
	size_t total = 0, nb = 0, pos = 0;
	double *logs;
	bool *wild, usable = true;

	for (size_t k = 0; k < n_sides; k++)
		if (cm->cells[k].present)
			total += compare_find_metric(&sides[k], cm->row, NULL, cm->metric)->n_samples;
	logs = xcalloc(total + 1, sizeof(*logs));
	wild = xcalloc(total + 1, sizeof(*wild));
	for (size_t k = 0; k < n_sides && usable; k++) {
		const struct metric *m;

		if (!cm->cells[k].present)
			continue;
		m = compare_find_metric(&sides[k], cm->row, NULL, cm->metric);
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
			size_t skip = boot_skip(cm, compare_find_metric(&sides[boot_side[j]], cm->row, NULL, cm->metric));

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
void compare_summarise_boots(const struct side *sides, size_t n_sides, struct compare_metric *cm,
			     struct strlist *warnings)
{
	for (size_t k = 0; k < n_sides; k++) {
		struct compare_cell *c = &cm->cells[k];
		const struct metric *m;

		if (!c->present)
			continue;
		m = compare_find_metric(&sides[k], cm->row, NULL, cm->metric);
		if (summarise_boot(cm, m, c) < 0) {
			char *what = compare_metric_label(cm->row, cm->metric);

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
void compare_rep_tests(const struct side_modes *modes, size_t n_sides, struct compare_metric *cm, double alpha)
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

void compare_boot_level(const struct side *sides, size_t n_sides, const struct side_modes *modes,
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
