/*
 * bench/method: how often each of bootab's verdicts is wrong.
 *
 * Simulates campaigns whose truth is known, on logs:
 *   x = mu_mode + boot effect + rep-position effect + noise
 * with mu_b - mu_a = log(1 + delta), boot effects N(0, sigma_b^2), noise
 * N(0, sigma_w^2), in bootab's default order with `rounds = b`
 * (A B A B ... A: b boots of B, b + 1 of A). Each simulated campaign is a
 * set of struct side that goes through compare_sides(), the function
 * `bootab compare` reports from, and the verdicts are read from its result:
 *   naive    Welch's t on the reps of the first A and first B boot (cell rep_p)
 *   seed     the seed rule on the first B side (counts / not)
 *   boot     the boot-level pooled t (compare_test, METHOD_BOOT)
 *   history  the history-calibrated t (METHOD_HISTORY), undecided when the
 *            campaign's repeat boots show the box noisier than its history
 *            (judge/drift.h), with a history of HISTORY_ENTRIES simulated A/A
 *            pairs; each call's METRICS_PER_CALL metrics are one campaign for
 *            that check
 *   history-unchecked  the same history t without the check
 *   noisier  how often the check found the box noisier (its claim rate is
 *            the rate at which the history t is undecided for that reason)
 *   equiv    "same within -/+ 2 %" (two one-sided tests), by whichever test
 *            judged; a claim of it is false when |delta| >= 2 %
 *   answer   the one verdict of the mode and metric, whichever test the
 *            design calls for (boot, history, or none: not tested)
 *   minp     a claim when the smallest of the boot t's, Welch's and the
 *            paired p is below 0.05: a reader picking the p he likes
 *   wild     a rep of the metric flagged wild on any side (compare_cell.n_wild):
 *            a false flag under the model, a found one under wild-rep
 *   headline what the report's headline claims of the mode and metric, read
 *            through answer_of() (report/answer.h): a boot t or history t
 *            claim that survives the Benjamini-Hochberg correction over the
 *            call's METRICS_PER_CALL metrics (and modes)
 *   headline-report  a report (one call: METRICS_PER_CALL metrics) whose
 *            headline makes any claim (answer_view_build(), the view the
 *            headline walks): its draws are reports, not metrics
 * For each method and cell it prints the claim rate (false-claim rate when
 * delta = 0, power otherwise), wrong-sign rate among claims, exaggeration
 * among right-sign claims (mean |estimate| / |delta|) and CI coverage, as CSV.
 *
 *   usage: method [--quick] [--equiv-grid] [--stress-only|--normal-only|--stress KIND] [--boots B,...] [--draws N]
 *                 [--null-draws N] [--seed S] [--reverse] [--shard I/N] [--skip CSV]
 *                 [--cell SB,SW,REPS,BOOTS,DELTA] [--sequential [--history]] [--answer-grid] [--headline-grid] [--fdr Q]
 * --skip CSV (repeatable) leaves out the cells a CSV already holds, to resume
 * a run. docs/statistics.md has the method and the table of a full run.
 */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_integration.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "judge/compare.h"
#include "judge/history.h"
#include "lib/alloc.h"
#include "report/answer.h"
#include "results/side.h"
#include "stats/stats.h"

#define METRICS_PER_CALL 16       /* independent draws per compare_sides() call */
#define HISTORY_ENTRIES 10        /* A/A pairs in the simulated history */
#define BATCH 1024
#define MC_SE_TARGET 0.005        /* 0.5 percentage points */

/* --fdr Q: the Benjamini-Hochberg level the campaigns are judged at (0: the report's default). */
static double fdr_level;

enum method { M_NAIVE, M_SEED, M_BOOT, M_HISTORY, M_EQUIV, M_ANSWER, M_MINP, M_UNCHECKED, M_NOISIER, M_WILD,
	      M_HEADLINE, M_REPORT, N_METHODS };
static const char *const method_names[N_METHODS] = { "naive", "seed", "boot", "history", "equiv", "answer",
						     "minp", "history-unchecked", "noisier", "wild",
						     "headline", "headline-report" };

/* The equivalence margin every simulated campaign is judged with (%). */
#define EQUIV_MARGIN 2.0

enum stress {
	S_NONE,
	S_HEAVY,        /* boot effects from t with 3 df, scaled to sd sigma_b */
	S_BAD_BOOTS,    /* each boot with probability 0.05 is 2 % + 3 sigma_b slower */
	S_COLD,         /* rep 1 of every boot 10 % slower, row not marked by-run */
	S_COLD_BY_RUN,  /* the same, row marked by-run (boots are their warm reps) */
	S_DRIFT,        /* +0.25 % per boot over the campaign */
	S_NOISIER2,     /* the history was recorded with sigma_b / 2 (the machine got noisier) */
	S_NOISIER3,     /* the history was recorded with sigma_b / 3 */
	S_QUIETER,      /* the history was recorded with 2 sigma_b (the machine got quieter) */
	S_NO_HISTORY,   /* no history: one boot per mode is not tested */
	S_TESTED_NOISY, /* mode b's boots and reps 3x noisier than a's */
	S_THIRD_NOISY,  /* three modes a b c, c 3x noisier and no effect; b has the delta */
	S_WILD_REP,     /* rep 2 of the first b boot 35 % slow (reps >= 3) */
	S_CORRELATED,   /* every metric of a campaign (and of a history entry) shares its boots' effect */
	S_WILD_REP10,   /* the same as S_WILD_REP, 10 % slow */
	N_STRESS,
};
static const char *const stress_names[N_STRESS] = { "normal", "heavy-tailed", "bad-boots", "cold-first-rep",
						    "cold-first-rep-by-run", "linear-drift", "history-2x-quieter",
						    "history-3x-quieter", "history-2x-noisier", "no-history",
						    "tested-3x-noisier", "third-mode-3x-noisier", "wild-rep",
						    "correlated-metrics", "wild-rep-10" };

/* Modes of a campaign: a and b, and c under S_THIRD_NOISY. */
static unsigned stress_modes(enum stress s)
{
	return s == S_THIRD_NOISY ? 3 : 2;
}

/* The noise (sigma_b and sigma_w) of mode m against mode a's. */
static double mode_noise(enum stress s, unsigned m)
{
	return (s == S_TESTED_NOISY && m == 1) || (s == S_THIRD_NOISY && m == 2) ? 3 : 1;
}

/* The history's sigma_b against the campaign's. */
static double history_sb_factor(enum stress s)
{
	return s == S_NOISIER2 ? 0.5 : s == S_NOISIER3 ? 1.0 / 3 : s == S_QUIETER ? 2 : 1;
}

struct cell {
	enum stress stress;
	double sb, sw;          /* % (log units x 100) */
	unsigned reps, boots;
	double delta;           /* % */
};

struct tally {
	unsigned long draws, claims, right, wrong;
	double exaggeration;    /* sum over right-sign claims */
	unsigned long ci_n, covered;
};

struct sim {
	struct cell c;
	gsl_rng *rng;
	struct side *sides;
	size_t n_sides;
	unsigned modes;         /* a b (c): side k is of mode k % modes */
	struct history history;
	bool use_history;
	struct strlist by_run;
};

/* --sequential --history: rounds = auto with the box's history, looking after round 1 too. */
static bool seq_with_history;

static double boot_effect_sd(struct sim *s, double sb)
{
	double u;

	if (sb == 0)
		return 0;
	if (s->c.stress == S_HEAVY)
		/* t with 3 df has variance 3: scale to sd sb. */
		return gsl_ran_tdist(s->rng, 3) * sb / sqrt(3);
	u = gsl_ran_gaussian_ziggurat(s->rng, sb);
	if (s->c.stress == S_BAD_BOOTS && gsl_rng_uniform(s->rng) < 0.05)
		u -= 0.02 + 3 * sb;
	return u;
}

/* Rep-position effect: a small warm-up common to every boot; a big one under S_COLD*. */
static double rep_position(const struct sim *s, unsigned r)
{
	if ((s->c.stress == S_COLD || s->c.stress == S_COLD_BY_RUN) && r == 0)
		return log(0.9);
	return -0.5 * (s->c.sw / 100) * exp(-(double)r);
}

/* One boot's reps with boot sd sb and rep sd sw times the cell's sigma_w. */
static void fill_boot_sd(struct sim *s, double *x, double mu, double extra, double sb, double sw_factor)
{
	double u = boot_effect_sd(s, sb) + extra;

	for (unsigned r = 0; r < s->c.reps; r++)
		x[r] = 100 * exp(mu + u + rep_position(s, r) +
				 gsl_ran_gaussian_ziggurat(s->rng, sw_factor * s->c.sw / 100));
}

/* One boot of mode m. */
static void fill_boot(struct sim *s, double *x, double mu, double extra, unsigned m)
{
	double f = mode_noise(s->c.stress, m);

	fill_boot_sd(s, x, mu, extra, f * s->c.sb / 100, f);
}

static void sim_init(struct sim *s, const struct cell *c, unsigned long seed)
{
	char name[32];

	memset(s, 0, sizeof(*s));
	s->c = *c;
	s->rng = gsl_rng_alloc(gsl_rng_mt19937);
	gsl_rng_set(s->rng, seed);
	s->modes = stress_modes(c->stress);
	s->n_sides = s->modes * c->boots + 1;
	s->sides = xcalloc(s->n_sides, sizeof(*s->sides));
	for (size_t k = 0; k < s->n_sides; k++) {
		struct side *sd = &s->sides[k];
		size_t nth = k / s->modes + 1;

		sd->mode = xstrdup((const char *[]){ "a", "b", "c" }[k % s->modes]);
		sd->label = nth == 1 ? xstrdup(sd->mode) : xasprintf("%s%zu", sd->mode, nth);
		sd->dir = xstrdup(sd->label);
		sd->boot_id = xasprintf("%zx", k);
		for (unsigned m = 0; m < METRICS_PER_CALL; m++) {
			struct row *row;

			GROW(sd->rows, sd->alloc_rows, sd->n_rows + 1);
			row = &sd->rows[sd->n_rows++];
			memset(row, 0, sizeof(*row));
			snprintf(name, sizeof(name), "m%u", m);
			row->name = xstrdup(name);
			row->source = xstrdup(name);
			for (unsigned r = 0; r < c->reps; r++)
				metric_set_add_sample(&row->metrics, "x", BETTER_HIGHER, "", 1);
		}
	}
	if (c->stress == S_COLD_BY_RUN)
		for (unsigned m = 0; m < METRICS_PER_CALL; m++) {
			snprintf(name, sizeof(name), "m%u", m);
			strlist_add(&s->by_run, name);
		}
	/* The history method is bootab's answer for one boot per mode (and rounds = auto's first look). */
	s->use_history = (c->boots == 1 || seq_with_history) && c->stress != S_NO_HISTORY;
	if (!s->use_history)
		return;
	for (unsigned e = 0; e < HISTORY_ENTRIES; e++) {
		struct history_entry he = { .key = xasprintf("aa%u", e), .recorded = xstrdup(""),
					    .kind = xstrdup("aa") };

		he.metrics = xcalloc(METRICS_PER_CALL, sizeof(*he.metrics));
		he.n_metrics = METRICS_PER_CALL;
		for (unsigned m = 0; m < METRICS_PER_CALL; m++) {
			snprintf(name, sizeof(name), "m%u", m);
			he.metrics[m].row = xstrdup(name);
			he.metrics[m].metric = xstrdup("x");
			he.metrics[m].boots = xcalloc(2, sizeof(struct stats_boot));
			he.metrics[m].n_boots = 2;
		}
		history_add(&s->history, &he);
	}
}

static void sim_release(struct sim *s)
{
	for (size_t k = 0; k < s->n_sides; k++)
		side_release(&s->sides[k]);
	free(s->sides);
	history_release(&s->history);
	strlist_release(&s->by_run);
	gsl_rng_free(s->rng);
}

/* A fresh history of HISTORY_ENTRIES A/A pairs (x: reps scratch). */
static void fill_history(struct sim *s, double *x)
{
	for (unsigned e = 0; s->use_history && e < HISTORY_ENTRIES; e++) {
		double shared[2] = { 0, 0 };

		if (s->c.stress == S_CORRELATED)
			for (unsigned b = 0; b < 2; b++)
				shared[b] = gsl_ran_gaussian_ziggurat(s->rng, s->c.sb / 100);
		for (unsigned m = 0; m < METRICS_PER_CALL; m++)
			for (unsigned b = 0; b < 2; b++) {
				if (s->c.stress == S_CORRELATED)
					fill_boot_sd(s, x, 0, shared[b], 0, 1);
				else
					fill_boot_sd(s, x, 0, 0, s->c.sb / 100 * history_sb_factor(s->c.stress), 1);
				stats_boot_summarise(x, s->c.reps, 0, &s->history.entries[e].metrics[m].boots[b]);
			}
	}
}

/* The one test of a simulated metric: every draw is positive, so each mode has its boots. */
static const struct compare_test *first_test(const struct compare_metric *cm)
{
	if (cm->n_tests == 0) {
		fprintf(stderr, "method: a metric without a boot-level test\n");
		exit(2);
	}
	return &cm->tests[0];
}

/*
 * One compare_sides() call: METRICS_PER_CALL independent draws of a metric,
 * which are also one campaign of that many metrics for the check of the box
 * against its history (one verdict for all of them).
 */
static void sim_run(struct sim *s, struct tally *t)
{
	double mu_b = log1p(s->c.delta / 100), truth = s->c.delta;
	double *x = xcalloc(s->c.reps, sizeof(*x));
	struct compare_options o = { .stat = STAT_MEAN, .loud_pct = COMPARE_LOUD_PCT_DEFAULT,
				     .by_run = &s->by_run, .history = s->use_history ? &s->history : NULL,
				     .equivalence_pct = EQUIV_MARGIN, .fdr_q = fdr_level };
	struct compare_result res;
	struct answer_view view;
	struct strlist w = STRLIST_INIT;

	for (size_t k = 0; k < s->n_sides; k++) {
		/* Linear drift: boot k of the campaign is k steps later. */
		double drift = s->c.stress == S_DRIFT ? 0.0025 * (double)k : 0;
		/* Correlated metrics: one boot effect for all of them, their own rep noise. */
		double shared = s->c.stress == S_CORRELATED ? gsl_ran_gaussian_ziggurat(s->rng, s->c.sb / 100) : 0;

		for (unsigned m = 0; m < METRICS_PER_CALL; m++) {
			struct metric *mt = &s->sides[k].rows[m].metrics.metrics[0];

			if (s->c.stress == S_CORRELATED)
				fill_boot_sd(s, mt->samples, k % s->modes == 1 ? mu_b : 0, drift + shared, 0, 1);
			else
				fill_boot(s, mt->samples, k % s->modes == 1 ? mu_b : 0, drift, (unsigned)(k % s->modes));
			/* One wild rep: a throttle or a stray job during rep 2 of the first b boot. */
			if ((s->c.stress == S_WILD_REP || s->c.stress == S_WILD_REP10) && k == 1 && s->c.reps >= 3)
				mt->samples[2] *= s->c.stress == S_WILD_REP ? 0.65 : 0.90;
		}
	}
	fill_history(s, x);
	if (compare_sides(s->sides, s->n_sides, &o, &res, &w) < 0) {
		fprintf(stderr, "method: compare_sides failed\n");
		exit(2);
	}
	for (size_t i = 0; i < res.n_metrics; i++) {
		const struct compare_metric *cm = &res.metrics[i];
		const struct compare_cell *c = &cm->cells[1];
		const struct compare_test *ct = first_test(cm);
		bool tested = ct->method != METHOD_NONE, wild = false;
		struct answer a;
		/* The smallest of the boot t's, Welch's and the paired p: a reader who picks the one he likes. */
		double minp = fmin(ct->test.p, fmin(ct->has_welch ? ct->welch.p : 1, ct->has_paired ? ct->paired.p : 1));
		struct {
			bool applies, claim, has_ci;
			double est, lo, hi;
		} v[N_METHODS] = {
			[M_NAIVE] = { !isnan(c->rep_p), c->rep_p < COMPARE_ALPHA_DEFAULT, true, c->delta_pct,
				      c->rep_lo_pct, c->rep_hi_pct },
			[M_SEED] = { true, c->verdict == VERDICT_COUNTS, false, c->delta_pct, NAN, NAN },
			[M_BOOT] = { !s->use_history && ct->method == METHOD_BOOT, ct->verdict == VERDICT_COUNTS, true, ct->delta_pct,
				     ct->lo_pct, ct->hi_pct },
			/* One boot per mode with a history: what bootab says, by whichever test judged it. */
			[M_HISTORY] = { s->use_history && ct->method != METHOD_NONE, ct->verdict == VERDICT_COUNTS, true,
					ct->delta_pct, ct->lo_pct, ct->hi_pct },
			/*
			 * "Same within -/+ 2 %" by whichever test judged: a claim of
			 * equivalence, false when |delta| >= the margin. Its CI is the
			 * 1 - 2 alpha one.
			 */
			[M_EQUIV] = { ct->method != METHOD_NONE && ct->has_equivalence, ct->equivalent, true,
				      ct->delta_pct, ct->eq_lo_pct, ct->eq_hi_pct },
			/*
			 * The one verdict of the mode and metric, whatever the design:
			 * what the headline claims. Untested (one boot per mode and no
			 * history) is no claim; its CI is counted where it was tested.
			 */
			[M_ANSWER] = { true, tested && ct->verdict == VERDICT_COUNTS, tested, ct->delta_pct,
				       ct->lo_pct, ct->hi_pct },
			[M_MINP] = { ct->method == METHOD_BOOT, minp < COMPARE_ALPHA_DEFAULT, false, ct->delta_pct,
				     NAN, NAN },
			/* The history t as if the box were never checked against its history. */
			[M_UNCHECKED] = { s->use_history && ct->method == METHOD_HISTORY,
					  ct->test.lo > 0 || ct->test.hi < 0, true, ct->delta_pct, ct->lo_pct, ct->hi_pct },
			/*
			 * Which way the history test went: its "claim" is being
			 * undecided because the box looks noisier than its history
			 * (the rate at which the check trips; per campaign, since
			 * the check is one for all the campaign's metrics).
			 */
			[M_NOISIER] = { s->use_history && ct->method == METHOD_HISTORY, cm->history.drift, false, NAN,
					NAN, NAN },
			[M_WILD] = { true, false, false, NAN, NAN, NAN },
			/* Filled below from answer_of(): what the headline claims. */
			[M_HEADLINE] = { true, false, false, NAN, NAN, NAN },
		};

		for (size_t k = 0; k < s->n_sides; k++)
			wild |= cm->cells[k].n_wild > 0;
		v[M_WILD].claim = wild;
		answer_of(&res, cm, ct, 1, &a);
		v[M_HEADLINE].claim = a.kind == ANSWER_CLAIM;
		v[M_HEADLINE].has_ci = a.kind != ANSWER_NOT_TESTED && a.kind != ANSWER_MISSING;
		v[M_HEADLINE].est = a.delta_pct;
		v[M_HEADLINE].lo = a.lo_pct;
		v[M_HEADLINE].hi = a.hi_pct;

		for (int m = 0; m < N_METHODS; m++) {
			struct tally *tm = &t[m];

			if (!v[m].applies)
				continue;
			tm->draws++;
			if (v[m].has_ci && !isnan(v[m].lo)) {
				tm->ci_n++;
				tm->covered += v[m].lo <= truth && truth <= v[m].hi;
			}
			if (!v[m].claim)
				continue;
			tm->claims++;
			if (truth == 0)
				continue;
			if ((v[m].est > 0) == (truth > 0)) {
				tm->right++;
				tm->exaggeration += fabs(v[m].est) / fabs(truth);
			} else {
				tm->wrong++;
			}
		}
	}
	/* The report's headline: any claim of any mode and metric (counters aside). */
	answer_view_build(&res, &view);
	t[M_REPORT].draws++;
	t[M_REPORT].claims += view.n_claims > 0;
	answer_view_release(&view);
	compare_result_release(&res);
	strlist_release(&w);
	free(x);
}

/* The largest Monte-Carlo standard error of a claim rate over the methods. */
static double worst_se(const struct tally *t)
{
	double worst = 0;

	for (int m = 0; m < N_METHODS; m++) {
		double p;

		/* Reports are METRICS_PER_CALL times fewer than metrics: their error is not what stops a cell. */
		if (!t[m].draws || m == M_REPORT)
			continue;
		p = (double)t[m].claims / (double)t[m].draws;
		/* Guard against a rate estimated at 0 or 1 from few draws. */
		p = fmin(fmax(p, 2.0 / (double)t[m].draws), 1 - 2.0 / (double)t[m].draws);
		worst = fmax(worst, sqrt(p * (1 - p) / (double)t[m].draws));
	}
	return worst;
}

static unsigned long cell_seed(unsigned long base, const struct cell *c)
{
	unsigned long h = base * 1000003UL;

	h = h * 31 + (unsigned long)c->stress;
	h = h * 31 + (unsigned long)llround(c->sb * 10);
	h = h * 31 + (unsigned long)llround(c->sw * 10);
	h = h * 31 + c->reps;
	h = h * 31 + c->boots;
	h = h * 31 + (unsigned long)llround(c->delta * 10);
	return h & 0xffffffffUL;
}

static void run_cell(const struct cell *c, unsigned long min_draws, unsigned long max_draws,
		     unsigned long seed)
{
	struct tally t[N_METHODS] = { 0 };
	struct sim s;
	unsigned long done = 0;

	sim_init(&s, c, cell_seed(seed, c));
	while (done < max_draws) {
		for (unsigned long i = 0; i < BATCH; i += METRICS_PER_CALL)
			sim_run(&s, t);
		done += BATCH;
		if (done >= min_draws && worst_se(t) < MC_SE_TARGET)
			break;
	}
	sim_release(&s);
	for (int m = 0; m < N_METHODS; m++) {
		const struct tally *tm = &t[m];
		double rate, se;

		if (!tm->draws)
			continue;
		rate = (double)tm->claims / (double)tm->draws;
		se = sqrt(rate * (1 - rate) / (double)tm->draws);
		printf("%s,%g,%g,%u,%u,%g,%s,%lu,%.4f,%.4f,", stress_names[c->stress], c->sb, c->sw, c->reps,
		       c->boots, c->delta, method_names[m], tm->draws, rate, se);
		if (m == M_NOISIER || m == M_REPORT) {
			printf(",,,\n");
			continue;
		}
		if (c->delta != 0 && tm->claims) {
			printf("%.4f,%.4f,", (double)tm->right / (double)tm->draws,
			       (double)tm->wrong / (double)tm->claims);
			if (tm->right)
				printf("%.3f,", tm->exaggeration / (double)tm->right);
			else
				printf(",");
		} else if (c->delta != 0) {
			printf("0.0000,,,");
		} else {
			printf(",,,");
		}
		if (tm->ci_n)
			printf("%.4f\n", (double)tm->covered / (double)tm->ci_n);
		else
			printf("\n");
	}
	fflush(stdout);
}


/*
 * --sequential: rounds = auto. A campaign of at most `boots` rounds looks
 * after every round j >= 2 (round 1 has one boot per mode and no test) at
 * the nominal level compare_sequential_alpha(j, boots), and stops a metric
 * at the first look that decides it: a claim (the CI at that level excludes
 * 0) or the same within -/+ 2 %. From the same draws, the fixed design of
 * j rounds (alpha 0.05 at look j alone) gives the power curve that the
 * sequential design's boots are set against, and "peek" (a claim at any look
 * at alpha 0.05) the false-claim rate of looking without a boundary.
 */
#define SEQ_MAX 20

struct seq_tally {
	unsigned long draws, claims, same, covered, ci_n, fixed_claims[SEQ_MAX + 1];
	unsigned long peek_claims;      /* a claim at any look at alpha 0.05: peeking without a boundary */
	double rounds;          /* sum of the rounds used */
};

static void seq_run(struct sim *s, struct seq_tally *t)
{
	double mu_b = log1p(s->c.delta / 100), truth = s->c.delta;
	unsigned k = s->c.boots;
	bool stopped[METRICS_PER_CALL] = { false }, peeked[METRICS_PER_CALL] = { false };
	struct strlist w = STRLIST_INIT;

	double *x = xcalloc(s->c.reps, sizeof(*x));

	for (size_t b = 0; b < s->n_sides; b++)
		for (unsigned m = 0; m < METRICS_PER_CALL; m++)
			fill_boot(s, s->sides[b].rows[m].metrics.metrics[0].samples, b % 2 ? mu_b : 0, 0,
				  (unsigned)(b % 2));
	fill_history(s, x);
	free(x);
	/* With a history, round 1 (A B A2) has a test too: the history t. */
	for (unsigned j = s->use_history ? 1 : 2; j <= k; j++) {
		for (int fixed = 0; fixed < 2; fixed++) {
			struct compare_options o = { .stat = STAT_MEAN, .loud_pct = COMPARE_LOUD_PCT_DEFAULT,
						     .by_run = &s->by_run, .equivalence_pct = EQUIV_MARGIN,
						     .history = s->use_history ? &s->history : NULL,
						     .alpha = fixed ? COMPARE_ALPHA_DEFAULT
								    : compare_sequential_alpha(j, k, COMPARE_ALPHA_DEFAULT) };
			struct compare_result res;

			if (compare_sides(s->sides, 2 * j + 1, &o, &res, &w) < 0) {
				fprintf(stderr, "method: compare_sides failed\n");
				exit(2);
			}
			for (size_t i = 0; i < res.n_metrics; i++) {
				const struct compare_test *ct = first_test(&res.metrics[i]);
				bool claim = ct->method != METHOD_NONE && ct->verdict == VERDICT_COUNTS;
				bool same = ct->method != METHOD_NONE && ct->equivalent;

				if (fixed) {
					t->fixed_claims[j] += claim;
					if (claim && !peeked[i]) {
						peeked[i] = true;
						t->peek_claims++;
					}
					continue;
				}
				if (stopped[i] || (!claim && !same && j < k))
					continue;
				stopped[i] = true;
				t->draws++;
				t->rounds += j;
				t->claims += claim;
				t->same += same;
				if (ct->method != METHOD_NONE) {
					t->ci_n++;
					t->covered += ct->lo_pct <= truth && truth <= ct->hi_pct;
				}
			}
			compare_result_release(&res);
		}
	}
	strlist_release(&w);
}

static void run_seq_cell(const struct cell *c, unsigned long draws, unsigned long seed)
{
	struct seq_tally t = { 0 };
	struct sim s;
	struct cell sc = *c;
	double power, fixed_rounds = NAN;

	/* Simulate the ceiling: boots rounds, A B A B ... A. */
	sim_init(&s, &sc, cell_seed(seed + 7919, c));
	s.use_history = seq_with_history;
	while (t.draws < draws)
		seq_run(&s, &t);
	sim_release(&s);
	power = (double)t.claims / (double)t.draws;
	/* The fewest fixed rounds whose power reaches the sequential design's. */
	for (unsigned j = seq_with_history ? 1 : 2; c->delta > 0 && j <= c->boots && isnan(fixed_rounds); j++)
		if ((double)t.fixed_claims[j] / (double)t.draws >= power)
			fixed_rounds = j;
	for (int m = 0; m < 3; m++) {
		double rate = (double)(m == 2 ? t.peek_claims : m ? t.same : t.claims) / (double)t.draws;

		if (m == 2) {
			/* Every look at 0.05, the first claim kept, all rounds run: what the boundary prevents. */
			printf("%s,%g,%g,%u,%u,%g,peek%s,%lu,%.4f,%.4f,%u,,,\n", stress_names[c->stress], c->sb, c->sw,
			       c->reps, c->boots, c->delta, seq_with_history ? "-history" : "", t.draws, rate,
			       sqrt(rate * (1 - rate) / (double)t.draws), c->boots);
			continue;
		}
		printf("%s,%g,%g,%u,%u,%g,%s,%lu,%.4f,%.4f,%.3f,", stress_names[c->stress], c->sb, c->sw, c->reps,
		       c->boots, c->delta,
		       m ? (seq_with_history ? "seq-equiv-history" : "seq-equiv") : seq_with_history ? "seq-history" : "seq",
		       t.draws, rate,
		       sqrt(rate * (1 - rate) / (double)t.draws), t.rounds / (double)t.draws);
		if (c->delta > 0 && !m) {
			if (isnan(fixed_rounds))
				printf(">%u,", c->boots);
			else
				printf("%.0f,", fixed_rounds);
			printf("%.4f,", (double)t.fixed_claims[c->boots] / (double)t.draws);
		} else {
			printf(",,");
		}
		printf("%.4f\n", (double)t.covered / (double)t.ci_n);
	}
	fflush(stdout);
}

/* rounds = auto: ceilings of 3 to 8 rounds, no effect to a large one. */
static const double seq_sb[] = { 0.5, 1, 2, 3 };
static const double seq_sw[] = { 0.5, 2 };
static const unsigned seq_reps[] = { 5 };
static const unsigned seq_boots[] = { 3, 4, 6, 8 };
static const double seq_delta[] = { 0, 1, 2, 3, 5, 8 };

static const double grid_sb[] = { 0, 0.5, 1, 2, 3, 4.4, 6 };
static const double grid_sw[] = { 0.2, 0.5, 1, 2, 4 };
static const unsigned grid_reps[] = { 2, 3, 5, 10 };
static const unsigned grid_boots[] = { 1, 2, 3, 4, 6, 8, 12 };
static const double grid_delta[] = { 0, 1, 2, 3, 5, 8, 14.7 };

static const double quick_sb[] = { 0, 1, 4.4 };
static const double quick_sw[] = { 0.5, 2 };
static const unsigned quick_reps[] = { 3, 10 };
static const unsigned quick_boots[] = { 1, 2, 4 };
static const double quick_delta[] = { 0, 5 };

static const double stress_sb[] = { 1, 3 };
static const double stress_sw[] = { 0.5, 2 };
static const unsigned stress_reps[] = { 5 };
static const unsigned stress_boots[] = { 1, 3, 6 };
static const double stress_delta[] = { 0, 5 };

/* Equivalence within -/+ 2 %: deltas inside, at and beyond the margin. */
static const double equiv_sb[] = { 0.5, 1, 2, 3 };
static const double equiv_sw[] = { 0.5, 2 };
static const unsigned equiv_reps[] = { 5 };
static const unsigned equiv_boots[] = { 1, 2, 3, 4, 6, 8, 12 };
static const double equiv_delta[] = { 0, 1, 2, 3 };

/* A history recorded while the machine was quieter (or noisier): one boot per mode. */
static const double shift_sb[] = { 0.5, 1, 2, 3, 6 };
static const double shift_sw[] = { 0.5, 2 };
static const unsigned shift_reps[] = { 5 };
static const unsigned shift_boots[] = { 1 };
static const double shift_delta[] = { 0, 5 };

/*
 * --answer-grid: the one verdict per mode and metric (method "answer") on
 * each design (one boot per mode with and without a history, 2 and 3
 * rounds), with a tested mode or a third mode 3x noisier than the first,
 * and with one wild rep.
 */
static const double answer_sb[] = { 0.5, 1, 3 };
static const double answer_sw[] = { 0.5, 2 };
static const unsigned answer_reps[] = { 5 };
static const unsigned answer_boots[] = { 1, 2, 3 };
static const unsigned answer_boots1[] = { 1 };
static const unsigned answer_noisy_boots[] = { 2, 3, 4, 6 };
static const unsigned answer_wild_boots[] = { 1, 2, 3 };
static const double answer_delta[] = { 0, 5 };
static const double answer_delta0[] = { 0 };

/*
 * --headline-grid: what the headline claims (methods "headline" and
 * "headline-report") on do-nothing campaigns of each design: one boot per
 * mode without and with a history, 2 and 3 rounds.
 */
static const unsigned headline_boots[] = { 1, 2, 3 };

#define N(a) (sizeof(a) / sizeof((a)[0]))

struct grid {
	const double *sb, *sw, *delta;
	const unsigned *reps, *boots;
	size_t n_sb, n_sw, n_reps, n_boots, n_delta;
};

struct cell_list {
	struct cell *cells;
	size_t n, alloc;
};

static void add_grid(struct cell_list *l, const struct grid *g, enum stress stress)
{
	for (size_t i = 0; i < g->n_sb; i++)
		for (size_t j = 0; j < g->n_sw; j++)
			for (size_t r = 0; r < g->n_reps; r++)
				for (size_t b = 0; b < g->n_boots; b++)
					for (size_t d = 0; d < g->n_delta; d++) {
						GROW(l->cells, l->alloc, l->n + 1);
						l->cells[l->n++] = (struct cell){ stress, g->sb[i], g->sw[j], g->reps[r],
										  g->boots[b], g->delta[d] };
					}
}

/* Cells a CSV already holds complete (four rows: every method that applies), to resume a run. */
struct done {
	char **keys;
	size_t n, alloc;
};

static char *cell_key(const struct cell *c)
{
	return xasprintf("%s,%g,%g,%u,%u,%g", stress_names[c->stress], c->sb, c->sw, c->reps, c->boots, c->delta);
}

static void done_load(struct done *d, const char *file)
{
	FILE *f = fopen(file, "r");
	char line[512], *prev = NULL;
	int count = 0;

	if (!f) {
		fprintf(stderr, "method: --skip: cannot read %s\n", file);
		exit(2);
	}
	while (fgets(line, sizeof(line), f)) {
		char *p = line;

		/* The key is the first six fields. */
		for (int i = 0; i < 6 && p; i++)
			p = strchr(p + (i > 0), ',');
		if (!p || !strchr(line, '\n'))
			continue;
		*p = '\0';
		if (prev && !strcmp(prev, line)) {
			if (++count == 4) {
				GROW(d->keys, d->alloc, d->n + 1);
				d->keys[d->n++] = xstrdup(line);
			}
			continue;
		}
		free(prev);
		prev = xstrdup(line);
		count = 1;
	}
	free(prev);
	fclose(f);
}

static bool done_has(const struct done *d, const struct cell *c)
{
	char *k = cell_key(c);
	bool found = false;

	for (size_t i = 0; i < d->n && !found; i++)
		found = !strcmp(d->keys[i], k);
	free(k);
	return found;
}

static void run_one(const struct cell *c, unsigned long null_draws, unsigned long draws, unsigned long seed)
{
	if (c->delta == 0)
		run_cell(c, null_draws, null_draws, seed);
	else
		run_cell(c, 2 * BATCH, draws, seed);
}

static unsigned long parse_count(const char *opt, const char *v)
{
	char *end;
	unsigned long n;

	errno = 0;
	n = strtoul(v, &end, 10);
	if (errno || end == v || *end || n < BATCH) {
		fprintf(stderr, "method: %s: '%s' is not a count of at least %d\n", opt, v, BATCH);
		exit(2);
	}
	return (n + BATCH - 1) / BATCH * BATCH;
}

/*
 * --bound: the power of the best level-alpha test of one mode with one boot
 * (B) against the first with two (A, A2), the campaign of the history
 * cells, when the boot-mean variance is estimated on df degrees of freedom
 * independent of the boot means: the t test of B - (A + A2) / 2, whose
 * power is the noncentral t's,
 *   P(|Z + d| > t_{1 - alpha/2, df} sqrt(V / df)),  V ~ chi2(df),
 * with d = log(1 + delta) / sqrt(tau^2 (1 + 1/2)), tau^2 = sigma_b^2 +
 * sigma_w^2 / reps. For normal boot means with an unknown variance no
 * level-alpha test that treats an effect of either sign alike has more
 * power (the t test is uniformly most powerful among them). The df are
 * what the information holds; df infinite is a variance known exactly,
 * which no campaign has.
 */
struct bound_law {
	double d, tc, df;
};

static double bound_integrand(double v, void *p)
{
	const struct bound_law *b = p;
	double s = b->tc * sqrt(v / b->df);

	return gsl_ran_chisq_pdf(v, b->df) * (gsl_cdf_ugaussian_Q(s - b->d) + gsl_cdf_ugaussian_P(-s - b->d));
}

static double bound_power(double d, double df)
{
	gsl_integration_workspace *w;
	struct bound_law b = { d, NAN, df };
	gsl_function f = { bound_integrand, &b };
	double r, err;

	if (isinf(df))
		return gsl_cdf_ugaussian_Q(gsl_cdf_ugaussian_Qinv(0.025) - d) +
		       gsl_cdf_ugaussian_P(-gsl_cdf_ugaussian_Qinv(0.025) - d);
	b.tc = gsl_cdf_tdist_Qinv(0.025, df);
	w = gsl_integration_workspace_alloc(1000);
	gsl_integration_qagiu(&f, 0, 1e-12, 1e-10, 1000, w, &r, &err);
	gsl_integration_workspace_free(w);
	return r;
}

static void print_bound(const struct cell *c)
{
	double tau2 = pow(c->sb / 100, 2) + pow(c->sw / 100, 2) / c->reps;
	double d = log1p(c->delta / 100) / sqrt(tau2 * 1.5);
	unsigned need = 0;

	printf("sigma_b_pct,sigma_w_pct,reps,delta_pct,df,variance_from,power\n");
	printf("%g,%g,%u,%g,%d,history alone (%d A/A pairs),%.4f\n", c->sb, c->sw, c->reps, c->delta, HISTORY_ENTRIES,
	       HISTORY_ENTRIES, bound_power(d, HISTORY_ENTRIES));
	printf("%g,%g,%u,%g,%d,history and the campaign's A vs A2 (the history t),%.4f\n", c->sb, c->sw, c->reps,
	       c->delta, HISTORY_ENTRIES + 1, bound_power(d, HISTORY_ENTRIES + 1));
	printf("%g,%g,%u,%g,%d,pooled over %d metrics of one variance,%.4f\n", c->sb, c->sw, c->reps, c->delta,
	       METRICS_PER_CALL * (HISTORY_ENTRIES + 1), METRICS_PER_CALL,
	       bound_power(d, METRICS_PER_CALL * (HISTORY_ENTRIES + 1)));
	printf("%g,%g,%u,%g,inf,known exactly,%.4f\n", c->sb, c->sw, c->reps, c->delta, bound_power(d, INFINITY));
	for (unsigned df = 1; df <= 10000 && !need; df++)
		if (bound_power(d, df) >= 0.60)
			need = df;
	if (need)
		printf("%g,%g,%u,%g,%u,the fewest df for 60%% power (a history of %u A/A pairs),%.4f\n", c->sb, c->sw,
		       c->reps, c->delta, need, need - 1, bound_power(d, need));
}

int main(int argc, char **argv)
{
	struct grid normal = { grid_sb, grid_sw, grid_delta, grid_reps, grid_boots,
			       N(grid_sb), N(grid_sw), N(grid_reps), N(grid_boots), N(grid_delta) };
	struct grid quick = { quick_sb, quick_sw, quick_delta, quick_reps, quick_boots,
			      N(quick_sb), N(quick_sw), N(quick_reps), N(quick_boots), N(quick_delta) };
	struct grid stress = { stress_sb, stress_sw, stress_delta, stress_reps, stress_boots,
			       N(stress_sb), N(stress_sw), N(stress_reps), N(stress_boots), N(stress_delta) };
	struct grid equiv = { equiv_sb, equiv_sw, equiv_delta, equiv_reps, equiv_boots,
			      N(equiv_sb), N(equiv_sw), N(equiv_reps), N(equiv_boots), N(equiv_delta) };
	struct grid shift = { shift_sb, shift_sw, shift_delta, shift_reps, shift_boots,
			      N(shift_sb), N(shift_sw), N(shift_reps), N(shift_boots), N(shift_delta) };
	unsigned long null_draws = 10000, draws = 10000, seed = 1;
	bool do_normal = true, do_stress = true, one = false, reverse = false;
	struct cell cell = { 0 };
	struct cell_list cells = { 0 };
	unsigned long shard = 0, shards = 1;
	struct done done = { 0 };
	int only_stress = -1;
	unsigned long only_boots = 0;     /* bit b: cells with b boots per mode; 0: all */
	bool sequential = false, answer = false, headline = false, bound = false;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--quick")) {
			normal = quick;
			null_draws = draws = 2000;
		} else if (!strcmp(argv[i], "--equiv-grid")) {
			/* The normal cells that the equivalence table is read from. */
			normal = equiv;
			do_stress = false;
		} else if (!strcmp(argv[i], "--stress") && i + 1 < argc) {
			/* One stress kind only; with --cell, the cell's kind. */
			i++;
			for (int k = 0; k < N_STRESS; k++)
				if (!strcmp(argv[i], stress_names[k]))
					only_stress = k;
			if (only_stress < 0) {
				fprintf(stderr, "method: --stress: '%s' is not a stress kind\n", argv[i]);
				return 2;
			}
		} else if (!strcmp(argv[i], "--boots") && i + 1 < argc) {
			/* Only the cells with these boots per mode: "1" or "2,4,8". */
			char *list = argv[++i], *end;

			do {
				unsigned long b = strtoul(list, &end, 10);

				if (end == list || b < 1 || b > 63 || (*end && *end != ',')) {
					fprintf(stderr, "method: --boots: expected a list of boots per mode, such as 1,2,4\n");
					return 2;
				}
				only_boots |= 1UL << b;
				list = end + (*end == ',');
			} while (*end);
		} else if (!strcmp(argv[i], "--answer-grid")) {
			answer = true;
		} else if (!strcmp(argv[i], "--history")) {
			/* With --sequential: rounds = auto on a box with a history of 10 A/A pairs. */
			seq_with_history = true;
		} else if (!strcmp(argv[i], "--headline-grid")) {
			headline = true;
		} else if (!strcmp(argv[i], "--fdr") && i + 1 < argc) {
			char *end;

			fdr_level = strtod(argv[++i], &end);
			if (*end || !(fdr_level > 0 && fdr_level < 1)) {
				fprintf(stderr, "method: --fdr: expected a level between 0 and 1\n");
				return 2;
			}
		} else if (!strcmp(argv[i], "--bound")) {
			bound = true;
		} else if (!strcmp(argv[i], "--sequential")) {
			/* rounds = auto: the cells' boots are the ceiling (max_rounds). */
			sequential = true;
		} else if (!strcmp(argv[i], "--stress-only")) {
			do_normal = false;
		} else if (!strcmp(argv[i], "--normal-only")) {
			do_stress = false;
		} else if (!strcmp(argv[i], "--draws") && i + 1 < argc) {
			draws = parse_count("--draws", argv[++i]);
		} else if (!strcmp(argv[i], "--null-draws") && i + 1 < argc) {
			null_draws = parse_count("--null-draws", argv[++i]);
		} else if (!strcmp(argv[i], "--reverse")) {
			/* Cells have their own seeds: a second process can work from the other end. */
			reverse = true;
		} else if (!strcmp(argv[i], "--shard") && i + 1 < argc) {
			if (sscanf(argv[++i], "%lu/%lu", &shard, &shards) != 2 || shards == 0 || shard >= shards) {
				fprintf(stderr, "method: --shard: expected I/N with I < N\n");
				return 2;
			}
		} else if (!strcmp(argv[i], "--skip") && i + 1 < argc) {
			done_load(&done, argv[++i]);
		} else if (!strcmp(argv[i], "--seed") && i + 1 < argc) {
			seed = strtoul(argv[++i], NULL, 10);
		} else if (!strcmp(argv[i], "--cell") && i + 1 < argc) {
			if (sscanf(argv[++i], "%lf,%lf,%u,%u,%lf", &cell.sb, &cell.sw, &cell.reps, &cell.boots,
				   &cell.delta) != 5 || cell.reps < 2 || cell.boots < 1 || cell.boots > 100 ||
			    cell.reps > 1000 || !(cell.sb >= 0) || !(cell.sw > 0) || !(cell.delta >= 0)) {
				fprintf(stderr, "method: --cell: expected SB,SW,REPS,BOOTS,DELTA (%%, reps >= 2)\n");
				return 2;
			}
			one = true;
		} else {
			fprintf(stderr, "usage: method [--quick] [--equiv-grid] [--stress-only|--normal-only|--stress KIND] [--boots B,...] [--draws N] [--null-draws N] [--seed S] [--reverse] [--shard I/N] [--skip CSV] [--cell SB,SW,REPS,BOOTS,DELTA] [--sequential [--history]] [--answer-grid] [--headline-grid] [--fdr Q] [--bound --cell ...]\n");
			return 2;
		}
	}
	if (bound) {
		if (!one) {
			fprintf(stderr, "method: --bound needs --cell\n");
			return 2;
		}
		print_bound(&cell);
		return 0;
	}
	if (sequential) {
		struct grid g = { seq_sb, seq_sw, seq_delta, seq_reps, seq_boots,
				  N(seq_sb), N(seq_sw), N(seq_reps), N(seq_boots), N(seq_delta) };

		if (one && (cell.boots < 2 || cell.boots > SEQ_MAX)) {
			fprintf(stderr, "method: --sequential: the ceiling (BOOTS) is 2 to %d rounds\n", SEQ_MAX);
			return 2;
		}
		printf("stress,sigma_b_pct,sigma_w_pct,reps,max_rounds,delta_pct,method,draws,claim_rate,mc_se,mean_rounds,fixed_rounds,fixed_power_at_max,ci_coverage\n");
		if (one) {
			if (only_stress >= 0)
				cell.stress = (enum stress)only_stress;
			run_seq_cell(&cell, cell.delta == 0 ? null_draws : draws, seed);
			return 0;
		}
		add_grid(&cells, &g, S_NONE);
		for (size_t i = 0; i < cells.n; i++)
			if (i % shards == shard)
				run_seq_cell(&cells.cells[i], cells.cells[i].delta == 0 ? null_draws : draws, seed);
		free(cells.cells);
		return 0;
	}
	printf("stress,sigma_b_pct,sigma_w_pct,reps,boots,delta_pct,method,draws,claim_rate,mc_se,power,wrong_sign,exaggeration,ci_coverage\n");
	if (one) {
		if (only_stress >= 0)
			cell.stress = (enum stress)only_stress;
		run_one(&cell, null_draws, draws, seed);
		return 0;
	}
	if (answer) {
		struct grid g = { answer_sb, answer_sw, answer_delta, answer_reps, answer_boots,
				  N(answer_sb), N(answer_sw), N(answer_reps), N(answer_boots), N(answer_delta) };

		add_grid(&cells, &g, S_NONE);
		g.boots = answer_boots1;
		g.n_boots = N(answer_boots1);
		add_grid(&cells, &g, S_NO_HISTORY);
		g.boots = answer_noisy_boots;
		g.n_boots = N(answer_noisy_boots);
		add_grid(&cells, &g, S_TESTED_NOISY);
		add_grid(&cells, &g, S_THIRD_NOISY);
		g.boots = answer_wild_boots;
		g.n_boots = N(answer_wild_boots);
		g.delta = answer_delta0;
		g.n_delta = N(answer_delta0);
		add_grid(&cells, &g, S_WILD_REP);
		add_grid(&cells, &g, S_WILD_REP10);
		do_normal = do_stress = false;
	}
	if (headline) {
		struct grid g = { answer_sb, answer_sw, answer_delta0, answer_reps, headline_boots,
				  N(answer_sb), N(answer_sw), N(answer_reps), N(headline_boots), N(answer_delta0) };

		add_grid(&cells, &g, S_NONE);
		g.boots = answer_boots1;
		g.n_boots = N(answer_boots1);
		add_grid(&cells, &g, S_NO_HISTORY);
		do_normal = do_stress = false;
	}
	if (do_normal)
		add_grid(&cells, &normal, S_NONE);
	if (do_stress)
		for (int s = S_HEAVY; s < N_STRESS; s++)
			add_grid(&cells, s >= S_NOISIER2 ? &shift : &stress, (enum stress)s);
	for (size_t i = 0; i < cells.n; i++) {
		size_t k = reverse ? cells.n - 1 - i : i;

		if (only_stress >= 0 && cells.cells[k].stress != (enum stress)only_stress)
			continue;
		if (only_boots && !(only_boots & (1UL << cells.cells[k].boots)))
			continue;
		if (k % shards == shard && !done_has(&done, &cells.cells[k]))
			run_one(&cells.cells[k], null_draws, draws, seed);
	}
	free(cells.cells);
	for (size_t i = 0; i < done.n; i++)
		free(done.keys[i]);
	free(done.keys);
	return 0;
}
