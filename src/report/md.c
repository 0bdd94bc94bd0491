/* The Markdown report (--format md, report.md). */
#include "report/formats.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "judge/kernels.h"
#include "lib/strbuf.h"
#include "report/answer.h"
#include "report/headline.h"
#include "report/kernels.h"
#include "report/legend.h"
#include "report/new-old-words.h"
#include "report/words.h"

/*
 * s as a code span: fenced by one backtick more than its longest run of
 * them (CommonMark 6.1), so a value from a box cannot close the span and
 * carry raw HTML after it.
 */
static void md_code(FILE *out, const char *s)
{
	size_t run = 0, longest = 0;
	bool pad;

	for (const char *p = s; *p; p++) {
		run = *p == '`' ? run + 1 : 0;
		if (run > longest)
			longest = run;
	}
	pad = longest && (s[0] == '`' || s[strlen(s) - 1] == '`');
	for (size_t i = 0; i <= longest; i++)
		fputc('`', out);
	fprintf(out, pad ? " %s " : "%s", s);
	for (size_t i = 0; i <= longest; i++)
		fputc('`', out);
}

static void md_found(FILE *out, const struct compare_result *res)
{
	const struct costs_result *f = &res->found;
	struct strbuf sb = STRBUF_INIT;

	if (!report_found_any_judged(res))
		return;
	fputs("\n## Costs found by bootab\n\nEvery side against every boot of ", out);
	report_md_plain(out, res->sides[0].mode);
	fputs(" (", out);
	report_md_plain(out, f->baseline);
	fputs("): PCI devices and their drivers, device nodes, network interfaces, kernel error and warning lines, failed units.\n\n",
	      out);
	for (size_t k = 1; k < res->n_sides; k++) {
		size_t n = 0;

		if (!f->judged[k])
			continue;
		for (size_t i = 0; i < f->n_found; i++) {
			const struct found *x = &f->found[i];

			if (x->side != k)
				continue;
			report_md_text(&sb, x->text);
			fputs("- ", out);
			report_md_plain(out, res->sides[k].label);
			fprintf(out, ": %s: %s\n", x->gain ? "gain" : "cost", strbuf_str(&sb));
			strbuf_truncate(&sb, 0);
			n++;
		}
		if (n == 0) {
			fputs("- ", out);
			report_md_plain(out, res->sides[k].label);
			fputs(": nothing lost\n", out);
		}
	}
	if (f->noise_klog || f->noise_devices || f->noise_units) {
		report_add_noise(&sb, f);
		fputs("\nBaseline noise, blamed on no mode: the boots of ", out);
		report_md_plain(out, res->sides[0].mode);
		fprintf(out, " differ in%s:\n\n", strbuf_str(&sb));
		for (size_t i = 0; i < f->noise_examples.n; i++) {
			strbuf_truncate(&sb, 0);
			report_md_text(&sb, f->noise_examples.items[i]);
			fprintf(out, "- %s\n", strbuf_str(&sb));
		}
	}
	if (f->n_ignored)
		fprintf(out, "\n%zu finding%s matched an ignore pattern.\n", f->n_ignored, f->n_ignored == 1 ? "" : "s");
	for (size_t i = 0; i < f->notes.n; i++) {
		strbuf_truncate(&sb, 0);
		report_md_text(&sb, f->notes.items[i]);
		fprintf(out, "\n%s\n", strbuf_str(&sb));
	}
	strbuf_release(&sb);
}

static void md_boot_level(FILE *out, const struct compare_result *res)
{
	struct strbuf sb = STRBUF_INIT;

	if (!report_any_boot_level(res))
		return;
	fprintf(out, "\n| row | metric | sigma_b | sigma_w | ICC | mode | boots | delta | %.0f%% CI | p | test | test verdict | notes |\n"
		"|---|---|---:|---:|---:|---|---:|---:|---:|---:|---|---|---|\n", 100 * (1 - res->alpha));
	for (size_t i = 0; i < res->n_metrics; i++) {
		const struct compare_metric *cm = &res->metrics[i];

		if (!cm->has_components && !cm->has_history)
			continue;
		for (size_t t = 0; t < (cm->n_tests ? cm->n_tests : 1); t++) {
			const struct compare_test *ct = cm->n_tests ? &cm->tests[t] : NULL;
			struct strbuf notes = STRBUF_INIT;

			strbuf_truncate(&sb, 0);
			strbuf_addstr(&sb, "| ");
			report_md_cell(&sb, cm->row);
			strbuf_addstr(&sb, " | ");
			report_md_cell(&sb, cm->metric);
			strbuf_addstr(&sb, " | ");
			report_add_sd_pct(&sb, cm->components.sigma_b2);
			strbuf_addstr(&sb, " | ");
			report_add_sd_pct(&sb, cm->components.sigma_w2);
			strbuf_addstr(&sb, " | ");
			if (!isnan(cm->components.icc))
				strbuf_addf(&sb, "%.2f", cm->components.icc);
			strbuf_addstr(&sb, " | ");
			if (ct) {
				struct answer a;
				struct answer_row r;

				answer_of(res, cm, ct, ct->side, &a);
				answer_row_build(res, &a, &r);
				report_md_cell(&sb, ct->mode);
				strbuf_addf(&sb, " | %s | %s | %s | %s | %s | %s | ", r.boots, r.delta, r.ci, r.p, r.test,
					    r.verdict);
				report_md_cell(&sb, r.notes);
				strbuf_addstr(&sb, " |\n");
				answer_row_release(&r);
			} else {
				strbuf_addstr(&sb, " | | | | | | | |\n");
			}
			fputs(strbuf_str(&sb), out);
			strbuf_release(&notes);
		}
	}
	strbuf_release(&sb);
}

static void md_new_old_stat(struct strbuf *sb, const struct new_old_stat *st)
{
	struct new_old_cells c;

	report_new_old_cells(st, &c);
	strbuf_addf(sb, " %s | %s | %s | %s |", c.nums, c.pct, c.ci, c.verdict);
}

/* New against old code in one kernel, paired in each boot: a table per kernel, a line per table row. */
static void md_new_old(FILE *out, const struct compare_result *res)
{
	const struct new_old_result *no = &res->new_old;
	struct strbuf sb = STRBUF_INIT;

	for (size_t i = 0; i < no->n_rows; i++) {
		const struct new_old_row *r = &no->rows[i];
		char *name = report_new_old_name(no, r);

		if (report_new_old_group_starts(no, i)) {
			fprintf(out, "%sNew against old, paired in each boot: %zu boot%s", i ? "\n" : "", r->avg.boots,
				r->avg.boots == 1 ? "" : "s");
			if (r->kernel) {
				fputs(" of ", out);
				md_code(out, r->kernel);
			}
			fputs(", ", out);
			report_md_plain(out, r->unit);
			fprintf(out, ", + is better, %.0f%% CI of the boots\n\n"
				"| row | avg new,old | %% | CI | verdict | min new,old | %% | CI | verdict |\n"
				"|---|---:|---:|---:|---|---:|---:|---:|---|\n", report_new_old_level(res));
		}
		strbuf_addstr(&sb, "| ");
		report_md_cell(&sb, name);
		strbuf_addstr(&sb, " |");
		md_new_old_stat(&sb, &r->avg);
		md_new_old_stat(&sb, &r->min);
		fprintf(out, "%s\n", strbuf_str(&sb));
		strbuf_truncate(&sb, 0);
		free(name);
	}
	strbuf_release(&sb);
	if (no->n_rows)
		fputc('\n', out);
}

/* The sides table (label, mode, note), the versions that differ, the kernels. */
static void md_sides(FILE *out, const struct compare_result *res)
{
	struct strbuf sb = STRBUF_INIT;

	fputs("| side | mode | note |\n|---|---|---|\n", out);
	for (size_t k = 0; k < res->n_sides; k++) {
		struct strbuf note = STRBUF_INIT;

		report_side_note(&note, res, k);
		strbuf_truncate(&sb, 0);
		strbuf_addstr(&sb, "| ");
		report_md_cell(&sb, res->sides[k].label);
		strbuf_addstr(&sb, " | ");
		report_md_cell(&sb, res->sides[k].mode);
		strbuf_addstr(&sb, " | ");
		report_md_cell(&sb, strbuf_str(&note));
		strbuf_addstr(&sb, " |\n");
		fputs(strbuf_str(&sb), out);
		strbuf_release(&note);
	}
	for (size_t i = 0; i < res->n_versions; i++) {
		fputs("\n**versions differ:** ", out);
		md_code(out, res->versions[i].name);
		fputc(':', out);
		for (size_t k = 0; k < res->n_sides; k++) {
			fputc(' ', out);
			report_md_plain(out, res->sides[k].label);
			fputc('=', out);
			md_code(out, res->versions[i].values[k] ? res->versions[i].values[k] : "(not recorded)");
		}
		fputc('\n', out);
	}
	{
		struct kernel_compare kc;

		kernel_compare(res->sides, res->n_sides, &kc);
		report_kernels_text(out, res, &kc, true);
		kernel_compare_release(&kc);
	}
	strbuf_release(&sb);
}

/* The plan's [prepare] as the boots ran it: each command once when every side ran the same, else each side's. */
static void md_prepare(FILE *out, const struct compare_result *res)
{
	enum report_prepare p = report_prepare_of(res);

	if (p == REPORT_PREPARE_NONE)
		return;
	fprintf(out, "\n**%s:**\n\n", report_prepare_title(p));
	for (size_t k = 0; k < (p == REPORT_PREPARE_SAME ? 1 : res->n_sides); k++) {
		const struct side *s = &res->sides[k];

		if (p == REPORT_PREPARE_DIFFERS) {
			fputs("- ", out);
			report_md_plain(out, s->label);
			fputs(s->n_prepare ? ":" : ": none recorded\n", out);
		}
		for (size_t i = 0; i < s->n_prepare; i++) {
			fputs(p == REPORT_PREPARE_SAME ? "- " : i ? "; " : " ", out);
			md_code(out, s->prepare[i].command);
			fprintf(out, " rc=%d%s", s->prepare[i].rc, p == REPORT_PREPARE_SAME || i + 1 == s->n_prepare ? "\n" : "");
		}
	}
}

/* Side k's rows of metric cm in the table: the first statistic's, then each other's. */
static void md_cell_rows(struct strbuf *sb, const struct compare_result *res, const struct compare_metric *cm,
			 size_t k, const struct report_unit *unit, bool multi)
{
	const struct compare_cell *c = &cm->cells[k];

		strbuf_addstr(sb, "| ");
	report_md_cell(sb, cm->row);
	strbuf_addstr(sb, " | ");
	report_md_cell(sb, cm->metric);
	if (*unit->unit) {
		strbuf_addstr(sb, " (");
		report_md_cell(sb, unit->unit);
		strbuf_addch(sb, ')');
	}
	strbuf_addstr(sb, " | ");
	report_md_cell(sb, res->sides[k].label);
	strbuf_addstr(sb, " | ");
	if (multi)
		strbuf_addf(sb, "%s | ", stat_kind_name(cm->stat));
	if (c->present) {
		report_add_number(sb, c->value / unit->factor);
		strbuf_addstr(sb, " | ");
		report_add_value(sb, c->spread / unit->factor, c->value / unit->factor);
		strbuf_addstr(sb, " | ");
		if (!isnan(c->spread_pct))
			strbuf_addf(sb, "%.1f%%", c->spread_pct);
		strbuf_addf(sb, " | %zu | ", c->n);
		report_add_delta(sb, cm, c);
		strbuf_addstr(sb, " | ");
		report_add_drift(sb, cm, c);
		strbuf_addstr(sb, " | ");
		report_add_q(sb, c->q);
		strbuf_addf(sb, " | %s", report_verdict_words(c->verdict));
		if (c->pairs >= 2)
			strbuf_addf(sb, "; sign agrees in %zu of %zu pairs", c->pairs_agree, c->pairs);
		if (c->n_wild) {
			struct strbuf w = STRBUF_INIT;

			report_add_wild(&w, res, cm, k, unit->factor);
			strbuf_addstr(sb, "; ");
			report_md_cell(sb, strbuf_str(&w));
			strbuf_release(&w);
		}
		strbuf_addstr(sb, " |\n");
	} else {
		strbuf_addstr(sb, "- | | | | | | | missing |\n");
	}
	for (size_t j = 1; c->present && j < cm->n_stats; j++) {
		const struct compare_stat *st = &c->stats[j];

		strbuf_addstr(sb, "| ");
		report_md_cell(sb, cm->row);
		strbuf_addstr(sb, " | ");
		report_md_cell(sb, cm->metric);
		strbuf_addstr(sb, " | ");
		report_md_cell(sb, res->sides[k].label);
		strbuf_addf(sb, " | %s | ", stat_kind_name(cm->stats[j]));
		if (st->value > 0)
			report_add_value(sb, st->value / unit->factor, c->value / unit->factor);
		else
			strbuf_addstr(sb, "-");
		strbuf_addstr(sb, " | | | | ");
		report_add_pct(sb, st->delta_pct);
		strbuf_addstr(sb, " | ");
		if (st->verdict != VERDICT_DRIFT && st->verdict != VERDICT_MISSING)
			report_add_pct(sb, st->drift_pct);
		strbuf_addstr(sb, " | ");
		report_add_q(sb, st->q);
		strbuf_addf(sb, " | %s |\n", report_verdict_words(st->verdict));
	}
}

void report_md(FILE *out, const struct compare_result *res, const struct report_options *o)
{
	struct strbuf sb = STRBUF_INIT;
	bool multi = false;

	/* A kernel's own new against old comes first, as in the text report. */
	md_new_old(out, res);
	headline_write(out, res, 0, true);
	if (o->preamble)
		fputs(o->preamble, out);
	md_sides(out, res);
	md_prepare(out, res);
	/* A stat column only when some metric is compared by several statistics. */
	for (size_t i = 0; i < res->n_metrics; i++)
		multi |= res->metrics[i].n_stats > 1;
	/* The screen's delta beside its drift; its p is report.json's: one p per mode, the boot-level table's. */
	fprintf(out, "\n| row | metric | side |%s value | ± | spread | n | delta | drift | q | screen |\n"
		"|---|---|---|%s---:|---:|---:|---:|---:|---:|---:|---|\n", multi ? " stat |" : "", multi ? "---|" : "");
	for (size_t i = 0; i < res->n_metrics; i++) {
		const struct compare_metric *cm = &res->metrics[i];
		struct report_unit unit;

		report_unit_of(res, cm, &unit);
		for (size_t k = 0; k < res->n_sides; k++) {
			strbuf_truncate(&sb, 0);
			md_cell_rows(&sb, res, cm, k, &unit, multi);
			fputs(strbuf_str(&sb), out);
		}
	}
	md_boot_level(out, res);
	fputc('\n', out);
	report_summary_line(out, res, "Summary: ", ".");
	report_boot_level_summary(out, res, "", 0);
	report_design_cost(out, res, 0, true);
	md_found(out, res);
	fputc('\n', out);
	if (o->legend_long) {
		report_legend(out, res, o, "> ", 0);
		report_legend_boot_level(out, res, "> ", 0);
	} else {
		report_legend_short(out, res, o, 0, "> ");
	}
	strbuf_release(&sb);
}
