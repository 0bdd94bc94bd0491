#include "report/legend.h"

#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "judge/drift.h"
#include "judge/screen.h"
#include "lib/alloc.h"
#include "lib/strbuf.h"
#include "stats/stats.h"
#include "report/answer.h"
#include "report/words.h"

/* One entry of the long legend: prefix, then fmt's text wrapped to width (0: one line), continued indented. */
static void __attribute__((format(printf, 4, 5)))
entry(FILE *out, size_t width, const char *prefix, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	char *indent = xasprintf("%s  ", prefix);
	va_list ap;

	strbuf_addstr(&sb, prefix);
	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	report_put_words(out, strbuf_str(&sb), width ? width : SIZE_MAX, indent);
	free(indent);
	strbuf_release(&sb);
}

void report_legend(FILE *out, const struct compare_result *res, const struct report_options *o,
		   const char *prefix, size_t width)
{
	entry(out, width, prefix, "delta: one boot's statistic against the first side's, in %%, + is better: b/a - 1 "
	      "when higher is better, 1 - b/a when lower is better (10%% less time is +10%%); boot-level deltas, "
	      "CIs and margins alike.");
	entry(out, width, prefix, "drift: the largest delta of a repeat of the first side's mode (%s) against it.",
	      res->sides[0].mode);
	entry(out, width, prefix, "screen (the seed rule, no test): counts when |delta| >= 2 |drift| and > the larger "
	      "spread (%% of the mean) of the side and the first side; by-run rows: every run's delta has one sign "
	      "and is >= 2x the largest per-run drift.");
	entry(out, width, prefix, "q = |delta|/|drift|; p = 1 - (2/pi) atan(q/sqrt(0.75)) (report.json's screen_p): "
	      "the screen read as a t-test with 1 degree of freedom; at q = 2 it claims falsely about 26%% of the "
	      "time when boot-to-boot noise dominates, so it is no verdict of the answer.");
	entry(out, width, prefix, "loud: the side's, the first side's or the drift repeat's spread is over %.1f%% of "
	      "the mean, or one of them holds a wild rep: a side too loud to judge is too loud wherever it stands, "
	      "so it is reported, not judged.", o->loud_pct);
	entry(out, width, prefix, "wild rep: a rep more than six robust scales from its boot's median (and more than "
	      "1%%), named in the report and left out of its boot's mean and every test.");
	entry(out, width, prefix, "not tested (the answer): one boot of a mode and no history; the line says what "
	      "would test it.");
}

/*
 * The short legend every txt and md report ends with; the long one
 * (report_options.legend_long, bootab compare --legend) explains each column.
 */
void report_legend_short(FILE *out, const struct compare_result *res, const struct report_options *o,
			 size_t width, const char *prefix)
{
	struct strbuf sb = STRBUF_INIT;
	char *indent = xasprintf("%s  ", prefix);

	strbuf_addf(&sb, "%slegend: + is better (10%% less time is +10%%). delta: one boot's, against the first "
		    "side. screen (the seed rule, no verdict of the answer): counts when |delta| >= 2 |drift| and > "
		    "both sides' own spreads. loud: spread over %.1f%%, not judged.",
		    prefix, o->loud_pct);
	if (report_any_boot_level(res))
		strbuf_addf(&sb, " boot t, history t: a t-test on boot means, counts when its %.0f%% CI excludes 0, "
			    "a claim of the answer survives FDR too. not tested: one boot of a mode and no history.",
			    100 * (1 - res->alpha));
	strbuf_addstr(&sb, " 'bootab compare --legend' explains every column.");
	report_put_wrapped(out, strbuf_str(&sb), width ? width : SIZE_MAX, indent);
	free(indent);
	strbuf_release(&sb);
}

void report_legend_boot_level(FILE *out, const struct compare_result *res, const char *prefix, size_t width)
{
	const char *first = res->sides[0].mode;

	if (!report_any_boot_level(res))
		return;
	entry(out, width, prefix, "boots: each boot is the mean of the logs of its reps (by-run rows: without run 1); "
	      "sigma_b, sigma_w: boot-to-boot and rep-to-rep spread (method of moments, in %% of the value); "
	      "ICC = sigma_b^2 / (sigma_b^2 + sigma_w^2): the share of noise that reps cannot average.");
	entry(out, width, prefix, "boot-level delta: the mode's mean boot against the mean of every %s boot (logs): "
	      "the mode's one delta, the same in every format.", first);
	entry(out, width, prefix, "boot t: Welch's t on boot means, each mode against %s, with the variance of those "
	      "two modes alone (Welch-Satterthwaite df); CI = exp(delta -/+ t SE) - 1; needs two boots of both. "
	      "The paired-by-round check is in report.json, no second verdict.", first);
	entry(out, width, prefix, "history t: the same with the variance pooled from this machine's A/A history (df "
	      "= history + campaign), for campaigns with one boot per mode; undecided when the repeat boots of every "
	      "metric together show the box noisier than its history (history check).");
	entry(out, width, prefix, "A boot or history t claims (counts) when its %.0f%% CI excludes 0: with independent "
	      "boots it claims falsely %.0f%% of the time (alpha), as measured in docs/statistics.md.",
	      100 * (1 - res->alpha), 100 * res->alpha);
	entry(out, width, prefix, "FDR: Benjamini-Hochberg over this report's tests at q = %.2f: among surviving "
	      "claims, at most %.0f%% are false in expectation; a claim of the answer survives it.",
	      res->fdr_q, 100 * res->fdr_q);
	if (report_any_margin(res)) {
		entry(out, width, prefix, "same within ±M%%: a row's equivalence margin M; two one-sided tests at alpha "
		      "%.3g, that is its %.0f%% CI lies inside -M to +M%%. undecided: neither a claim nor inside the "
		      "margin; the boots that would decide it have 80%% power at the estimate.",
		      res->alpha, 100 * (1 - 2 * res->alpha));
	}
}

/*
 * The summary speaks of the boot-level test wherever one ran; the seed
 * rule's screen comes after it, named as the screen.
 */
void report_summary_line(FILE *out, const struct compare_result *res, const char *head, const char *end)
{
	struct answer_view v;

	answer_view_build(res, &v);
	fputs(head, out);
	if (v.n_tests) {
		fprintf(out, "%zu claim%s, %zu not after FDR, %zu within noise", v.n_claims, v.n_claims == 1 ? "" : "s",
			v.n_not_after_fdr, v.n_not_shown);
		if (v.n_same || v.n_undecided)
			fprintf(out, ", %zu the same, %zu undecided", v.n_same, v.n_undecided);
		fprintf(out, " of %zu tested; ", v.n_tests);
	}
	if (res->screen && !v.n_modes)
		fputs("no mode tested: the design's runs are answered per factor; ", out);
	else
		fprintf(out, "%zu not tested; ", v.n_not_tested);
	fprintf(out, "the screen column (seed rule, not a test): %zu count, %zu within noise, %zu loud, %zu without drift%s\n",
		res->n_counts, res->n_within_noise, res->n_loud, res->n_no_drift, end);
	answer_view_release(&v);
}

/* Whether every side is the first side's mode or a run of a screening design. */
static bool only_design_runs(const struct compare_result *res)
{
	bool only = res->screen != NULL;

	for (size_t k = 1; only && k < res->n_sides; k++)
		only = !strcmp(res->sides[k].mode, res->sides[0].mode) || screen_side_is_run(res->screen, k);
	return only;
}

/* Writes sb's text wrapped to width (0: one line), continued indented, and empties sb. */
static void put_summary(FILE *out, struct strbuf *sb, size_t width)
{
	report_put_wrapped(out, strbuf_str(sb), width ? width : SIZE_MAX, "  ");
	strbuf_truncate(sb, 0);
}

static void add_duration(struct strbuf *sb, double seconds)
{
	unsigned long s = (unsigned long)lround(seconds);

	if (s >= 3600)
		strbuf_addf(sb, "%luh%02lum", s / 3600, s % 3600 / 60);
	else if (s >= 60)
		strbuf_addf(sb, "%lum%02lus", s / 60, s % 60);
	else
		strbuf_addf(sb, "%lus", s);
}

/* The campaign's box time as recorded: reboots, idle waits and timed reps; false when none was. */
static bool box_time(const struct compare_result *res, double *ret)
{
	double t = 0;
	bool any = false;

	for (size_t k = 0; k < res->n_sides; k++) {
		const struct side *s = &res->sides[k];

		if (s->has_reboot) {
			t += s->reboot_s;
			any = true;
		}
		for (size_t i = 0; i < s->n_rows; i++) {
			t += s->rows[i].has_idle_wait ? s->rows[i].idle_wait_s : 0;
			for (size_t j = 0; j < s->rows[i].n_rep_s; j++)
				t += s->rows[i].rep_s[j];
			any |= s->rows[i].n_rep_s > 0;
		}
	}
	*ret = t;
	return any;
}

/* A reboot, in seconds: the mean over the sides; NaN when none was recorded. */
static double reboot_cost(const struct compare_result *res)
{
	double boot = 0;
	size_t n = 0;

	for (size_t k = 0; k < res->n_sides; k++)
		if (res->sides[k].has_reboot) {
			boot += res->sides[k].reboot_s;
			n++;
		}
	return n ? boot / (double)n : NAN;
}

/* Row's idle wait before its reps (0 when none was recorded) and a rep of it, in seconds, means over the sides; rep NaN when not recorded. */
static void row_costs(const struct compare_result *res, const char *row, double *ret_idle, double *ret_rep)
{
	double idle = 0, rep = 0;
	size_t n_idle = 0, n_rep = 0;

	for (size_t k = 0; k < res->n_sides; k++) {
		const struct row *r = side_find_row(&res->sides[k], row);

		if (!r)
			continue;
		if (r->has_idle_wait) {
			idle += r->idle_wait_s;
			n_idle++;
		}
		for (size_t j = 0; j < r->n_rep_s; j++)
			rep += r->rep_s[j];
		n_rep += r->n_rep_s;
	}
	*ret_idle = n_idle ? idle / (double)n_idle : 0;
	*ret_rep = n_rep ? rep / (double)n_rep : NAN;
}

static size_t count_modes(const struct compare_result *res)
{
	size_t n = 0;

	for (size_t k = 0; k < res->n_sides; k++) {
		bool seen = false;

		for (size_t j = 0; j < k && !seen; j++)
			seen = !strcmp(res->sides[j].mode, res->sides[k].mode);
		n += !seen;
	}
	return n;
}

/* The index of row in c->rows, added when new. */
static size_t cost_row(struct report_cost *c, const char *row, double **idle, double **rep)
{
	for (size_t i = 0; i < c->n_rows; i++)
		if (!strcmp(c->rows[i].row, row))
			return i;
	c->rows = xrealloc(c->rows, (c->n_rows + 1) * sizeof(*c->rows));
	c->rows[c->n_rows] = (struct report_cost_row){ .row = row };
	*idle = xrealloc(*idle, (c->n_rows + 1) * sizeof(**idle));
	*rep = xrealloc(*rep, (c->n_rows + 1) * sizeof(**rep));
	return c->n_rows++;
}

/*
 * The cheapest campaign (stats_campaign_design(), as bootab plan --effect
 * prices it) that finds each claim (not counters') in a timed row at its
 * estimate with 80 % power; nothing when there is no such claim.
 */
static void cheapest_for_claims(const struct compare_result *res, struct report_cost *c)
{
	struct stats_need *needs = NULL;
	double *idle = NULL, *rep = NULL, reboot = reboot_cost(res);
	unsigned *reps;
	size_t n = 0;

	for (size_t i = 0; i < res->n_metrics; i++) {
		const struct compare_metric *cm = &res->metrics[i];
		double ci, cr;

		if (cm->counter || !cm->has_components || isnan(reboot))
			continue;
		row_costs(res, cm->row, &ci, &cr);
		for (size_t j = 0; j < cm->n_tests && !isnan(cr); j++) {
			size_t r;

			if (cm->tests[j].verdict != VERDICT_COUNTS)
				continue;
			r = cost_row(c, cm->row, &idle, &rep);
			idle[r] = ci;
			rep[r] = cr;
			needs = xrealloc(needs, (n + 1) * sizeof(*needs));
			needs[n++] = (struct stats_need){ r, fabs(cm->tests[j].estimate), cm->components.sigma_b2,
							  cm->components.sigma_w2 };
		}
	}
	reps = xcalloc(c->n_rows ? c->n_rows : 1, sizeof(*reps));
	if (n && stats_campaign_design(needs, n, idle, rep, c->n_rows, reboot, c->modes, 50, 1000, &c->rounds, reps,
				       &c->design_s) == 0) {
		c->has_design = true;
		c->claims = n;
		for (size_t i = 0; i < c->n_rows; i++)
			c->rows[i].reps = reps[i];
	} else {
		free(c->rows);
		c->rows = NULL;
		c->n_rows = 0;
	}
	free(reps);
	free(needs);
	free(idle);
	free(rep);
}

bool report_cost_get(const struct compare_result *res, struct report_cost *ret)
{
	*ret = (struct report_cost){ .boots = res->n_sides, .modes = count_modes(res), .design_s = NAN };
	if (ret->modes < 2 || !box_time(res, &ret->box_s))
		return false;
	cheapest_for_claims(res, ret);
	return true;
}

void report_cost_release(struct report_cost *c)
{
	free(c->rows);
	c->rows = NULL;
	c->n_rows = 0;
}

/* A name from a box: in Markdown, what would open raw HTML or an entity escaped (report_md_plain()). */
static void add_name(struct strbuf *sb, const char *s, bool md)
{
	for (; *s; s++) {
		if (md && strchr("\\<>&", *s))
			strbuf_addch(sb, '\\');
		strbuf_addch(sb, *s);
	}
}

/*
 * "cost: 10 boots over 3 modes, 1h07m of box time (reboots and timed reps);
 * the cheapest design that finds each of its claims with 80% power: 2
 * boots per mode (rounds = 2), reps = 2 in [row "prefill"], 25m": what it cost
 * against what it needed for the effects it found, in plan keys. Nothing
 * when no time was recorded.
 */
static void add_design_cost(struct strbuf *sb, const struct compare_result *res, bool md)
{
	struct report_cost c;

	if (!report_cost_get(res, &c))
		return;
	strbuf_addf(sb, "cost: %zu boots over %zu modes, ", c.boots, c.modes);
	add_duration(sb, c.box_s);
	strbuf_addstr(sb, " of box time (reboots and timed reps)");
	if (c.has_design) {
		strbuf_addf(sb, "; the cheapest design that finds %s with 80%% power: %u boots per mode (rounds = %u)",
			    c.claims == 1 ? "its claim" : "each of its claims", c.rounds, c.rounds);
		for (size_t i = 0; i < c.n_rows; i++) {
			strbuf_addf(sb, ", reps = %u in [row \"", c.rows[i].reps);
			add_name(sb, c.rows[i].row, md);
			strbuf_addstr(sb, "\"]");
		}
		strbuf_addstr(sb, ", ");
		add_duration(sb, c.design_s);
	}
	report_cost_release(&c);
}

void report_boot_level_summary(FILE *out, const struct compare_result *res, const char *prefix, size_t width)
{
	struct strbuf sb = STRBUF_INIT;
	bool aa = true;

	if (!report_any_boot_level(res))
		return;

	for (size_t k = 1; k < res->n_sides; k++)
		aa &= !strcmp(res->sides[k].mode, res->sides[0].mode);
	if (aa)
		strbuf_addf(&sb, "%sboot level: every side is %s (an A/A campaign): nothing to test; its boots measure "
			    "the machine's noise floor (--record-history keeps them)", prefix, res->sides[0].mode);
	else if (res->n_tests == 0 && only_design_runs(res))
		strbuf_addf(&sb, "%sboot level: no mode to test: the screening design's runs are answered per factor "
			    "(the factors' lines)", prefix);
	else if (res->n_tests == 0)
		strbuf_addf(&sb, "%sboot level: nothing tested: a mode has one boot and there is no history (more "
			    "rounds, or an A/A campaign recorded with --record-history, make tests possible)", prefix);
	else
		strbuf_addf(&sb, "%sboot level: %zu test%s at alpha = %.3g, %zu claim%s; %zu survive%s "
			    "Benjamini-Hochberg at q = %.2f", prefix, res->n_tests, res->n_tests == 1 ? "" : "s",
			    res->alpha, res->n_claims, res->n_claims == 1 ? "" : "s", res->n_survive,
			    res->n_survive == 1 ? "s" : "", res->fdr_q);
	put_summary(out, &sb, width);
	if (res->n_same || res->n_undecided > res->n_noisier) {
		strbuf_addf(&sb, "%sequivalence: %zu the same within their margin, %zu undecided", prefix, res->n_same,
			    res->n_undecided - res->n_noisier);
		put_summary(out, &sb, width);
	}
	if (res->n_unusual) {
		strbuf_addf(&sb, "%sunusual: %zu metric%s with boot-to-boot noise far above this machine's history",
			    prefix, res->n_unusual, res->n_unusual == 1 ? "" : "s");
		put_summary(out, &sb, width);
	}
	if (res->box.checked) {
		strbuf_addstr(&sb, prefix);
		drift_add_summary(&sb, res);
		put_summary(out, &sb, width);
	}
	strbuf_release(&sb);
}

void report_design_cost(FILE *out, const struct compare_result *res, size_t width, bool md)
{
	struct strbuf sb = STRBUF_INIT;

	add_design_cost(&sb, res, md);
	if (sb.len)
		put_summary(out, &sb, width);
	strbuf_release(&sb);
}
