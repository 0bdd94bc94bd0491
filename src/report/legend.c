#include "report/legend.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "judge/drift.h"
#include "lib/alloc.h"
#include "lib/strbuf.h"
#include "report/words.h"

void report_legend(FILE *out, const struct compare_result *res, const struct report_options *o,
		   const char *prefix)
{
	fprintf(out, "%sdelta: the side's statistic against the first side's, in %%, + is better: b/a - 1 when\n", prefix);
	fprintf(out, "%s  higher is better, 1 - b/a when lower is better (10%% less time is +10%%); boot-level\n", prefix);
	fprintf(out, "%s  deltas, CIs and margins alike.\n", prefix);
	fprintf(out, "%sdrift: the largest delta of a repeat of the first side's mode (%s) against it.\n",
		prefix, res->sides[0].mode);
	fprintf(out, "%sscreen (the seed rule, not a test): counts when |delta| >= 2 |drift| and |delta| > the first\n", prefix);
	fprintf(out, "%s  side's spread (%% of its mean);\n", prefix);
	fprintf(out, "%s  by-run rows: every run's delta has one sign and is >= 2x the largest per-run drift.\n", prefix);
	fprintf(out, "%sq = |delta|/|drift|; p = 1 - (2/pi) atan(q/sqrt(0.75)): the screen read as a t-test with\n", prefix);
	fprintf(out, "%s  1 degree of freedom; at q = 2 it claims falsely about 26%% of the time when\n", prefix);
	fprintf(out, "%s  boot-to-boot noise dominates. More repeat boots make it a real test.\n", prefix);
	fprintf(out, "%sloud: the first side's or its repeat's spread is over %.1f%% of the mean; one repeat\n",
		prefix, o->loud_pct);
	fprintf(out, "%s  boot cannot characterise it, so it is reported, not judged.\n", prefix);
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

	strbuf_addf(&sb, "%slegend: + is better (10%% less time is +10%%). screen (the seed rule): counts when "
		    "|delta| >= 2 |drift| and > the first side's spread. loud: spread over %.1f%%, not judged.",
		    prefix, o->loud_pct);
	if (report_any_boot_level(res))
		strbuf_addf(&sb, " boot t, history t: a t-test on boot means, counts when its %.0f%% CI excludes 0.",
			    100 * (1 - res->alpha));
	strbuf_addstr(&sb, " 'bootab compare --legend' explains every column.");
	report_put_wrapped(out, strbuf_str(&sb), width ? width : SIZE_MAX, indent);
	free(indent);
	strbuf_release(&sb);
}

void report_legend_boot_level(FILE *out, const struct compare_result *res, const char *prefix)
{
	if (!report_any_boot_level(res))
		return;
	fprintf(out, "%sboots: each boot is the mean of the logs of its reps (by-run rows: without run 1);\n", prefix);
	fprintf(out, "%s  sigma_b, sigma_w: boot-to-boot and rep-to-rep spread (method of moments, in %% of the\n", prefix);
	fprintf(out, "%s  value); ICC = sigma_b^2 / (sigma_b^2 + sigma_w^2): the share of noise that reps cannot average.\n", prefix);
	fprintf(out, "%sboot-level delta: the mode's mean boot against the mean of every %s boot (logs).\n",
		prefix, res->sides[0].mode);
	fprintf(out, "%sboot t: a t-test on boot means, each mode against %s, with the boot variance pooled\n",
		prefix, res->sides[0].mode);
	fprintf(out, "%s  over all modes (df = sum over modes of boots - 1); CI = exp(delta -/+ t SE); needs two\n", prefix);
	fprintf(out, "%s  boots of both. Welch and paired-by-round estimates are shown as checks.\n", prefix);
	fprintf(out, "%shistory t: the same with the variance pooled from this machine's A/A history (df =\n", prefix);
	fprintf(out, "%s  history + campaign), for campaigns with one boot per mode; undecided when the repeat\n", prefix);
	fprintf(out, "%s  boots of every metric together show the box noisier than its history (history check).\n", prefix);
	fprintf(out, "%sA boot or history t claims (counts) when its %.0f%% CI excludes 0: with independent boots it\n",
		prefix, 100 * (1 - res->alpha));
	fprintf(out, "%s  claims falsely %.0f%% of the time (alpha); at alpha 0.05, simulated campaigns gave\n",
		prefix, 100 * res->alpha);
	fprintf(out, "%s  4.4-5.8%% (boot t) in every cell; the history t behind its gate stayed under 5%% on a\n", prefix);
	fprintf(out, "%s  steady machine and under 10%% on one 3x noisier than its history (docs/statistics.md).\n", prefix);
	fprintf(out, "%sFDR: Benjamini-Hochberg over this report's tests at q = %.2f: among surviving claims, at\n",
		prefix, res->fdr_q);
	fprintf(out, "%s  most %.0f%% are false in expectation.\n", prefix, 100 * res->fdr_q);
	if (report_any_margin(res)) {
		fprintf(out, "%ssame within ±M%%: a row's equivalence margin M; two one-sided tests at alpha %.3g, that is\n",
			prefix, res->alpha);
		fprintf(out, "%s  its %.0f%% CI lies inside -M to +M%%. undecided: neither a claim nor inside the margin;\n",
			prefix, 100 * (1 - 2 * res->alpha));
		fprintf(out, "%s  the boots that would decide it have 80%% power at the estimate.\n", prefix);
	}
}

/*
 * The summary speaks of the boot-level test wherever one ran; the seed
 * rule's screen comes after it, named as the screen.
 */
void report_summary_line(FILE *out, const struct compare_result *res, const char *head, const char *end)
{
	size_t noise = res->n_tests - res->n_claims - res->n_same - res->n_undecided;

	fputs(head, out);
	if (res->n_tests) {
		fprintf(out, "test: %zu claim%s (%zu surviv%s FDR), %zu within noise", res->n_claims,
			res->n_claims == 1 ? "" : "s", res->n_survive, res->n_survive == 1 ? "es" : "e", noise);
		if (res->n_same || res->n_undecided)
			fprintf(out, ", %zu the same, %zu undecided", res->n_same, res->n_undecided);
		fprintf(out, " of %zu; ", res->n_tests);
	} else {
		fputs("no test ran; ", out);
	}
	fprintf(out, "screen (seed rule): %zu count, %zu within noise, %zu loud, %zu without drift%s\n", res->n_counts,
		res->n_within_noise, res->n_loud, res->n_no_drift, end);
}

void report_boot_level_summary(FILE *out, const struct compare_result *res, const char *prefix)
{
	bool aa = true;

	if (!report_any_boot_level(res))
		return;

	for (size_t k = 1; k < res->n_sides; k++)
		aa &= !strcmp(res->sides[k].mode, res->sides[0].mode);
	if (aa)
		fprintf(out, "%sboot level: every side is %s (an A/A campaign): nothing to test; its boots measure the\n"
			"%s  machine's noise floor (--record-history keeps them)\n", prefix, res->sides[0].mode, prefix);
	else if (res->n_tests == 0)
		fprintf(out, "%sboot level: nothing tested: a mode has one boot and there is no history (more rounds,\n"
			"%s  or an A/A campaign recorded with --record-history, make tests possible)\n", prefix, prefix);
	else
		fprintf(out, "%sboot level: %zu test%s at alpha = %.3g, %zu claim%s; %zu survive%s Benjamini-Hochberg at q = %.2f\n",
		prefix, res->n_tests, res->n_tests == 1 ? "" : "s", res->alpha, res->n_claims,
		res->n_claims == 1 ? "" : "s", res->n_survive, res->n_survive == 1 ? "s" : "", res->fdr_q);
	if (res->n_same || res->n_undecided > res->n_noisier)
		fprintf(out, "%sequivalence: %zu the same within their margin, %zu undecided\n", prefix, res->n_same,
			res->n_undecided - res->n_noisier);
	if (res->n_unusual)
		fprintf(out, "%sunusual: %zu metric%s with boot-to-boot noise far above this machine's history\n",
			prefix, res->n_unusual, res->n_unusual == 1 ? "" : "s");
	if (res->box.checked) {
		struct strbuf sb = STRBUF_INIT;

		drift_add_summary(&sb, res);
		fprintf(out, "%s%s\n", prefix, strbuf_str(&sb));
		strbuf_release(&sb);
	}
}
