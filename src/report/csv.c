/* The CSV report (--format csv): a row per metric and side, RFC 4180. */
#include "report/formats.h"

#include <math.h>
#include <string.h>

#include "judge/kernels.h"
#include "report/answer.h"
#include "report/kernels.h"
#include "report/new-old-words.h"
#include "report/words.h"

/* RFC 4180: quote every field that needs it, double the quotes inside. */
static void csv_field(FILE *out, const char *s, bool last)
{
	if (strpbrk(s, ",\"\n\r")) {
		fputc('"', out);
		for (; *s; s++) {
			if (*s == '"')
				fputc('"', out);
			fputc(*s, out);
		}
		fputc('"', out);
	} else {
		fputs(s, out);
	}
	fputc(last ? '\n' : ',', out);
}

static void csv_number(FILE *out, double v, bool last)
{
	if (!isnan(v) && !isinf(v))
		fprintf(out, "%.10g", v);
	else if (isinf(v))
		fputs("inf", out);
	fputc(last ? '\n' : ',', out);
}

/* The boot-level columns: components on every row, a test on its mode's first side. */
static void csv_boot_level(FILE *out, const struct compare_result *res, const struct compare_metric *cm, size_t k)
{
	struct answer a;
	const struct compare_test *t = NULL;
	char n[32];

	for (size_t i = 0; i < cm->n_tests; i++)
		if (cm->tests[i].side == k)
			t = &cm->tests[i];
	csv_number(out, cm->has_components ? report_sd_pct(cm->components.sigma_b2) : NAN, false);
	csv_number(out, cm->has_components ? report_sd_pct(cm->components.sigma_w2) : NAN, false);
	csv_number(out, cm->has_components ? cm->components.icc : NAN, false);
	if (!t) {
		fputs(",,,,,,,,,,,,,,,,", out);
		return;
	}
	csv_field(out, compare_method_name(t->method), false);
	snprintf(n, sizeof(n), "%zu", t->boots);
	csv_field(out, n, false);
	snprintf(n, sizeof(n), "%zu", t->boots_first);
	csv_field(out, n, false);
	csv_number(out, t->delta_pct, false);
	csv_number(out, t->lo_pct, false);
	csv_number(out, t->hi_pct, false);
	csv_number(out, t->method != METHOD_NONE ? t->test.p : NAN, false);
	csv_number(out, t->method != METHOD_NONE ? t->test.df : NAN, false);
	csv_number(out, t->fdr_q, false);
	csv_field(out, verdict_name(t->verdict), false);
	/* The answer of the mode (report/answer.h), the one the headline and every format give. */
	if (t->has_boots_needed)
		fprintf(out, "%u", t->boots_needed);
	fputc(',', out);
	answer_of(res, cm, t, k, &a);
	csv_field(out, answer_kind_name(a.kind), false);
	csv_number(out, t->has_equivalence ? cm->margin_pct : NAN, false);
	csv_number(out, t->has_equivalence ? t->eq_lo_pct : NAN, false);
	csv_number(out, t->has_equivalence ? t->eq_hi_pct : NAN, false);
	if (t->has_boots_to_decide)
		fprintf(out, "%u", t->boots_to_decide);
	fputc(',', out);
}

/* The boot column: "kexec" for a side booted by kexec (no firmware reset), else empty. */
static const char *csv_boot(const struct side *s)
{
	return s->kexec ? "kexec" : "";
}

/* Config differences as rows: row "kernel-config", the option as the metric, the side
 * whose kernel differs from the first side's, the value columns empty. */
static void csv_kernel_rows(FILE *out, const struct compare_result *res)
{
	struct kernel_compare kc;

	kernel_compare(res->sides, res->n_sides, &kc);
	for (size_t i = 0; i < kc.n_pairs; i++) {
		const struct kernel_pair *p = &kc.pairs[i];
		const struct side *b = &res->sides[p->to];

		for (size_t d = 0; d < p->n_diffs; d++) {
			csv_field(out, "kernel-config", false);
			csv_field(out, p->diffs[d].option, false);
			csv_field(out, b->label, false);
			csv_field(out, b->mode, false);
			/* stat .. boots_to_decide: 35 empty columns */
			for (int c = 0; c < 35; c++)
				fputc(',', out);
			csv_field(out, b->kernel.release ? b->kernel.release : "", false);
			csv_field(out, b->kernel.build_id ? b->kernel.build_id : "", false);
			csv_field(out, csv_boot(b), false);
			csv_field(out, report_config_value(p->diffs[d].from), false);
			csv_field(out, report_config_value(p->diffs[d].to), false);
			fputc('\n', out);
		}
	}
	kernel_compare_release(&kc);
}

/*
 * What bootab found each side lost (or gained): a row each, row
 * "found-by-bootab", metric its kind, the finding in words in the last
 * column; the user's check rows are metric rows above.
 */
static void csv_found_rows(FILE *out, const struct compare_result *res)
{
	for (size_t i = 0; i < res->found.n_found; i++) {
		const struct found *f = &res->found.found[i];
		const struct side *s = &res->sides[f->side];

		csv_field(out, "found-by-bootab", false);
		csv_field(out, found_kind_name(f->kind), false);
		csv_field(out, s->label, false);
		csv_field(out, s->mode, false);
		/* stat .. kernel_build_id: 37 empty columns, then boot, config_from, config_to */
		for (int c = 0; c < 37; c++)
			fputc(',', out);
		csv_field(out, csv_boot(s), false);
		fputs(",,", out);
		csv_field(out, f->text, true);
	}
}

/*
 * New against old code in one kernel, paired in each boot: per table row
 * and statistic a "new" and an "old" line (in mode), value the geometric
 * mean over the boots, n the boots; the new line holds the paired test
 * (test_method "new-old", + is better) and its verdict.
 */
static void csv_new_old_stat(FILE *out, const struct new_old_row *r, const struct new_old_stat *st, const char *stat)
{
	struct new_old_cells c;
	char n[32];

	if (!st->present)
		return;
	report_new_old_cells(st, &c);
	snprintf(n, sizeof(n), "%zu", st->boots);
	for (int old = 0; old < 2; old++) {
		csv_field(out, r->row, false);
		csv_field(out, r->name, false);
		fputc(',', out);
		csv_field(out, old ? "old" : "new", false);
		csv_field(out, stat, false);
		csv_field(out, r->unit, false);
		csv_field(out, "lower", false);
		csv_number(out, old ? st->old_value : st->new_value, false);
		fputs(",,", out);
		csv_field(out, n, false);
		if (old) {
			/* delta_pct .. test_method .. answer .. boots_to_decide: 28 empty columns */
			for (int k = 0; k < 28; k++)
				fputc(',', out);
		} else {
			csv_number(out, st->pct, false);
			/* drift_pct .. icc: 11 empty columns */
			fputs(",,,,,,,,,,,", out);
			csv_field(out, "new-old", false);
			csv_field(out, n, false);
			fputc(',', out);
			csv_number(out, st->pct, false);
			csv_number(out, st->lo, false);
			csv_number(out, st->hi, false);
			fputs(",,,", out);
			csv_field(out, c.verdict, false);
			/* boots_needed .. boots_to_decide: 6 empty columns */
			fputs(",,,,,,", out);
		}
		csv_field(out, r->kernel ? r->kernel : "", false);
		fputs(",,,,\n", out);
	}
}

static void csv_new_old_rows(FILE *out, const struct compare_result *res)
{
	for (size_t i = 0; i < res->new_old.n_rows; i++) {
		csv_new_old_stat(out, &res->new_old.rows[i], &res->new_old.rows[i].avg, "avg");
		csv_new_old_stat(out, &res->new_old.rows[i], &res->new_old.rows[i].min, "min");
	}
}

void report_csv(FILE *out, const struct compare_result *res)
{
	fputs("row,metric,side,mode,stat,unit,better,value,spread,spread_pct,n,delta_pct,drift_pct,"
	      "delta_lo_pct,delta_hi_pct,drift_lo_pct,drift_hi_pct,q,screen_p,screen_verdict,"
	      "sigma_b_pct,sigma_w_pct,icc,test_method,test_boots,test_boots_first,test_delta_pct,"
	      "ci_lo_pct,ci_hi_pct,test_p,test_df,fdr_q,test_verdict,boots_needed,answer,"
	      "margin_pct,equiv_ci_lo_pct,equiv_ci_hi_pct,boots_to_decide,"
	      "kernel,kernel_build_id,boot,config_from,config_to,found\n", out);
	for (size_t i = 0; i < res->n_metrics; i++) {
		const struct compare_metric *cm = &res->metrics[i];

		for (size_t k = 0; k < res->n_sides; k++) {
			const struct compare_cell *c = &cm->cells[k];
			char n[32];

			csv_field(out, cm->row, false);
			csv_field(out, cm->metric, false);
			csv_field(out, res->sides[k].label, false);
			csv_field(out, res->sides[k].mode, false);
			csv_field(out, stat_kind_name(cm->stat), false);
			csv_field(out, cm->unit, false);
			csv_field(out, cm->better == BETTER_LOWER ? "lower" : "higher", false);
			csv_number(out, c->present ? c->value : NAN, false);
			csv_number(out, c->present ? c->spread : NAN, false);
			csv_number(out, c->present ? c->spread_pct : NAN, false);
			snprintf(n, sizeof(n), "%zu", c->n);
			csv_field(out, n, false);
			csv_number(out, c->delta_pct, false);
			csv_number(out, c->drift_pct, false);
			csv_number(out, cm->by_run ? c->delta_lo : NAN, false);
			csv_number(out, cm->by_run ? c->delta_hi : NAN, false);
			csv_number(out, cm->by_run ? c->drift_lo : NAN, false);
			csv_number(out, cm->by_run ? c->drift_hi : NAN, false);
			csv_number(out, c->q, false);
			csv_number(out, c->p, false);
			csv_field(out, verdict_name(c->verdict), false);
			csv_boot_level(out, res, cm, k);
			csv_field(out, res->sides[k].kernel.release ? res->sides[k].kernel.release : "", false);
			csv_field(out, res->sides[k].kernel.build_id ? res->sides[k].kernel.build_id : "", false);
			csv_field(out, csv_boot(&res->sides[k]), false);
			fputs(",,\n", out);
			/* The other statistics: a row each, its stat column naming it; no boot level (it is the metric's). */
			for (size_t j = 1; c->present && j < cm->n_stats; j++) {
				const struct compare_stat *st = &c->stats[j];

				csv_field(out, cm->row, false);
				csv_field(out, cm->metric, false);
				csv_field(out, res->sides[k].label, false);
				csv_field(out, res->sides[k].mode, false);
				csv_field(out, stat_kind_name(cm->stats[j]), false);
				csv_field(out, cm->unit, false);
				csv_field(out, cm->better == BETTER_LOWER ? "lower" : "higher", false);
				csv_number(out, st->value, false);
				csv_number(out, c->spread, false);
				csv_number(out, c->spread_pct, false);
				snprintf(n, sizeof(n), "%zu", c->n);
				csv_field(out, n, false);
				csv_number(out, st->delta_pct, false);
				csv_number(out, st->drift_pct, false);
				fputs(",,,,", out);
				csv_number(out, st->q, false);
				csv_number(out, st->p, false);
				csv_field(out, verdict_name(st->verdict), false);
				/* The 19 boot-level columns are the metric's, on its first row; then the kernel's. */
				fputs(",,,,,,,,,,,,,,,,,,,", out);
				csv_field(out, res->sides[k].kernel.release ? res->sides[k].kernel.release : "", false);
				csv_field(out, res->sides[k].kernel.build_id ? res->sides[k].kernel.build_id : "", false);
				csv_field(out, csv_boot(&res->sides[k]), false);
				fputs(",,\n", out);
			}
		}
	}
	csv_new_old_rows(out, res);
	csv_kernel_rows(out, res);
	csv_found_rows(out, res);
}
