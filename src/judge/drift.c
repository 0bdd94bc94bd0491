#include "judge/drift.h"

#include <math.h>
#include <stdlib.h>

#include "lib/alloc.h"

/*
 * The squared correlation of two metrics' boot-to-boot deviations over the
 * history entries that hold both with the same boots, less its bias under
 * no correlation (1 / df of the entries). Without two such degrees of
 * freedom they are taken as one metric (1): that only lowers the
 * effective degrees of freedom, so the box is called noisier sooner.
 */
static double shared_rho2(const struct history_metric *const *a, const struct history_metric *const *b,
			  size_t n_entries)
{
	double cross = 0, ssa = 0, ssb = 0, df = 0, r2;

	for (size_t e = 0; e < n_entries; e++) {
		double ma = 0, mb = 0;
		size_t n;

		if (!a[e] || !b[e] || a[e]->n_boots != b[e]->n_boots)
			continue;
		n = a[e]->n_boots;
		for (size_t i = 0; i < n; i++) {
			ma += a[e]->boots[i].mean / (double)n;
			mb += b[e]->boots[i].mean / (double)n;
		}
		for (size_t i = 0; i < n; i++) {
			double da = a[e]->boots[i].mean - ma, db = b[e]->boots[i].mean - mb;

			cross += da * db;
			ssa += da * da;
			ssb += db * db;
		}
		df += (double)(n - 1);
	}
	if (df < 2 || !(ssa > 0) || !(ssb > 0))
		return 1;
	r2 = cross * cross / (ssa * ssb);
	return (r2 - 1 / df) / (1 - 1 / df);
}

/*
 * The mean and variance of df x F(df, df_history), the ratio of one
 * metric's campaign SS to its history variance on a box no noisier than
 * its history. A history of 4 df or fewer has no finite variance: it is
 * taken as 4.5, which only makes the box look noisier sooner.
 */
static void ratio_moments(double df, double df_history, double *ret_mean, double *ret_var)
{
	double h = fmax(df_history, 4.5);

	*ret_mean = df * h / (h - 2);
	*ret_var = df * df * 2 * h * h * (df + h - 2) / (df * (h - 2) * (h - 2) * (h - 4));
}

/*
 * The law of the pooled ratio from its mean and variance: F(a, b) scaled
 * to the mean where an F has them (one metric: exactly its own F), else a
 * scaled chi-square (many metrics average their histories' errors away).
 */
static void fit_law(struct history_box *box, double mean, double var)
{
	double b = mean > 1 ? 2 * mean / (mean - 1) : INFINITY, den = NAN;

	if (isfinite(b) && b > 4)
		den = var * (b - 2) * (b - 2) * (b - 4) - 2 * b * b;
	box->expected = mean;
	if (den > 0) {
		box->df = 2 * b * b * (b - 2) / den;
		box->df_history = b;
	} else {
		box->df = 2 * mean * mean / var;
		box->df_history = INFINITY;
	}
}

/* result->box from the metrics whose repeat boots can be set against their history. */
static void judge_box(struct compare_result *res, const struct history *h)
{
	struct history_box *box = &res->box;
	size_t n = 0, *idx = xcalloc(res->n_metrics + 1, sizeof(*idx));
	double *sd, *rho2, pooled = 0, df_sum = 0, mean = 0, var = 0;
	const struct history_metric **slots;

	for (size_t i = 0; i < res->n_metrics; i++)
		if (res->metrics[i].has_history && res->metrics[i].history.checked)
			idx[n++] = i;
	if (!n) {
		free(idx);
		return;
	}
	sd = xcalloc(n, sizeof(*sd));
	rho2 = xcalloc(n * n, sizeof(*rho2));
	slots = xcalloc(n * h->n_entries + 1, sizeof(*slots));
	for (size_t k = 0; k < n; k++) {
		const struct compare_metric *cm = &res->metrics[idx[k]];
		double m, v;

		ratio_moments(cm->components.boot_df, cm->history.df, &m, &v);
		mean += m;
		sd[k] = sqrt(v);
		pooled += cm->components.boot_ss / cm->history.var;
		df_sum += cm->components.boot_df;
		history_metric_slots(h, cm->row, cm->metric, &res->history_ids, slots + k * h->n_entries);
	}
	/* Metrics that move together add less than their count: their covariances. */
	for (size_t k = 0; k < n; k++)
		for (size_t l = 0; l < n; l++) {
			rho2[k * n + l] = k == l ? 1
				: l < k ? rho2[l * n + k]
				: shared_rho2(slots + k * h->n_entries, slots + l * h->n_entries, h->n_entries);
			var += rho2[k * n + l] * sd[k] * sd[l];
		}
	/* Between independent metrics and one metric counted n times, whatever the estimates. */
	{
		double independent = 0, together = 0;

		for (size_t k = 0; k < n; k++) {
			independent += sd[k] * sd[k];
			together += sd[k];
		}
		var = fmin(fmax(var, independent), together * together);
	}
	box->checked = true;
	box->metrics = n;
	box->ratio = pooled / df_sum;
	fit_law(box, mean / df_sum, var / (df_sum * df_sum));
	box->limit = history_box_limit(box->expected, box->df, box->df_history, res->alpha);
	box->noisier = box->ratio > box->limit;
	free(slots);
	free(rho2);
	free(sd);
	free(idx);
}

void drift_judge_box(struct compare_result *res, const struct history *h)
{
	res->box = (struct history_box){ .ratio = NAN, .expected = NAN, .df = NAN, .df_history = NAN, .limit = NAN };
	if (!h)
		return;
	judge_box(res, h);
	for (size_t i = 0; i < res->n_metrics; i++) {
		struct compare_metric *cm = &res->metrics[i];

		if (!cm->has_history)
			continue;
		/*
		 * A metric far above its own history is as much a sign of a
		 * changed box as the box's pooled ratio.
		 */
		cm->history.drift = res->box.noisier || (cm->history.checked && cm->history.unusual);
		for (size_t t = 0; cm->history.drift && t < cm->n_tests; t++) {
			struct compare_test *ct = &cm->tests[t];

			if (ct->method != METHOD_HISTORY)
				continue;
			ct->verdict = VERDICT_UNDECIDED;
			res->n_noisier++;
			ct->equivalent = false;
			ct->has_boots_to_decide = false;
		}
	}
}

/* 100 x the sd of the difference of two boot means of variance v: an A/A drift in %. */
static double drift_pct(double v)
{
	return 100 * sqrt(2 * v);
}

void drift_add_undecided(struct strbuf *sb, const struct compare_result *res, const struct compare_metric *cm)
{
	/* Even a box exactly as noisy as the history's estimate would be above the limit. */
	if (res->box.checked && res->box.limit < 1 && !(res->box.ratio > 1) && !cm->history.unusual)
		strbuf_addf(sb, "undecided: the history is too short to vouch for this box (%.0f df; ", cm->history.df);
	else
		strbuf_addstr(sb, "undecided: this box is noisier than its history (");
	if (cm->history.checked)
		strbuf_addf(sb, "drift %.1f%% vs expected %.1f%%", drift_pct(cm->history.ratio * cm->history.var),
			    drift_pct(cm->history.var));
	else
		strbuf_addf(sb, "no repeat of this metric; expected drift %.1f%%", drift_pct(cm->history.var));
	strbuf_addstr(sb, "); one more round would decide");
}

void drift_add_summary(struct strbuf *sb, const struct compare_result *res)
{
	const struct history_box *b = &res->box;

	if (!b->checked)
		return;
	strbuf_addf(sb, "history check: over %zu metric%s the repeat boots vary %.2fx the history's (expected %.2fx on %.1f df; above %.2fx the box is noisier than its history): ",
		    b->metrics, b->metrics == 1 ? "" : "s", b->ratio, b->expected, b->df, b->limit);
	if (b->noisier && b->limit < 1 && !(b->ratio > 1))
		strbuf_addstr(sb, "the history is too short to tell, the history tests are undecided; one more round, or more A/A history, would decide");
	else if (b->noisier)
		strbuf_addstr(sb, "noisier, the history tests are undecided; one more round would decide");
	else
		strbuf_addstr(sb, "the history judges");
}
