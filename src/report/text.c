/* The text report (--format txt): what a terminal shows. */
#include "report/formats.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "judge/drift.h"
#include "judge/kernels.h"
#include "lib/alloc.h"
#include "lib/strbuf.h"
#include "report/answer.h"
#include "report/headline.h"
#include "report/kernels.h"
#include "report/legend.h"
#include "report/new-old-words.h"
#include "report/words.h"

/* The columns of the text report's metric tables. */
struct text_table {
	size_t width, label_w, value_w, stat_w;
	size_t delta_w;         /* the delta and drift columns: as wide as their widest cell */
	struct report_unit unit;
	const char *reset;
};

/*
 * The costs bootab found, one line each: "off: cost: ...". Every string in
 * them came from a boot; the inventory keeps only printable text.
 */
static void text_found(FILE *out, const struct compare_result *res)
{
	const struct costs_result *f = &res->found;
	struct strbuf sb = STRBUF_INIT;

	if (!report_found_any_judged(res))
		return;
	fprintf(out, "costs found by bootab (every side against every boot of %s: %s):\n", res->sides[0].mode,
		f->baseline);
	for (size_t k = 1; k < res->n_sides; k++) {
		size_t n = 0;

		if (!f->judged[k])
			continue;
		for (size_t i = 0; i < f->n_found; i++) {
			const struct found *x = &f->found[i];

			if (x->side != k)
				continue;
			fprintf(out, "  %s: %s: %s\n", res->sides[k].label, x->gain ? "gain" : "cost", x->text);
			n++;
		}
		if (n == 0)
			fprintf(out, "  %s: nothing lost\n", res->sides[k].label);
	}
	if (f->noise_klog || f->noise_devices || f->noise_units) {
		report_add_noise(&sb, f);
		fprintf(out, "  baseline noise, blamed on no mode: the boots of %s differ in%s\n", res->sides[0].mode,
			strbuf_str(&sb));
		for (size_t i = 0; i < f->noise_examples.n; i++)
			fprintf(out, "    %s\n", f->noise_examples.items[i]);
	}
	if (f->n_ignored)
		fprintf(out, "  %zu finding%s matched an ignore pattern\n", f->n_ignored, f->n_ignored == 1 ? "" : "s");
	for (size_t i = 0; i < f->notes.n; i++)
		fprintf(out, "  %s\n", f->notes.items[i]);
	strbuf_release(&sb);
}


static const char *color_of(const struct compare_cell *c, bool on)
{
	if (!on)
		return "";
	switch (c->verdict) {
	case VERDICT_COUNTS:
		return c->delta_pct >= 0 ? "\033[32m" : "\033[31m";
	case VERDICT_LOUD:
		return "\033[33m";
	case VERDICT_WITHIN_NOISE:
	case VERDICT_DRIFT:
		return "\033[2m";
	default:
		return "";
	}
}

/*
 * A table row and its notes: "ROW; NOTES" when that fits in width columns,
 * else the row, then the notes wrapped on lines of their own, indented.
 * invisible: bytes of the row that take no column (colour).
 */
static void put_row_notes(FILE *out, struct strbuf *row, struct strbuf *notes, size_t width, size_t invisible)
{
	size_t cols = 0;

	for (size_t i = 0; i < row->len; i++)
		cols += ((unsigned char)row->buf[i] & 0xc0) != 0x80;
	cols -= invisible;
	for (size_t i = 0; i < notes->len; i++)
		cols += ((unsigned char)notes->buf[i] & 0xc0) != 0x80;
	if (!notes->len || cols + 2 <= width) {
		if (notes->len)
			strbuf_addf(row, "; %s", strbuf_str(notes));
		report_put_line(out, row);
		return;
	}
	report_put_line(out, row);
	fputs("      ", out);
	report_put_wrapped(out, strbuf_str(notes), width > 6 ? width - 6 : 1, "      ");
	strbuf_truncate(notes, 0);
}

static size_t wider(size_t w, const char *s)
{
	return strlen(s) > w ? strlen(s) : w;
}

/*
 * The boot-level table of metric cm: a line per mode, the cells of its
 * answer (report/answer.h), each column as wide as its widest cell.
 */
static void text_tests(FILE *out, const struct compare_result *res, const struct compare_metric *cm,
		       const struct report_options *o, size_t label_w, size_t width)
{
	const char *reset = o->color ? "\033[0m" : "";
	struct answer_row *rows;
	struct answer *answers;
	struct strbuf sb = STRBUF_INIT, ci = STRBUF_INIT;
	size_t bw = 5, dw = 5, cw, pw = 1, tw = 4, vw = 7;
	bool narrow;

	if (cm->n_tests == 0)
		return;
	strbuf_addf(&ci, "%.0f%% CI", 100 * (1 - res->alpha));
	cw = ci.len;
	rows = xcalloc(cm->n_tests, sizeof(*rows));
	answers = xcalloc(cm->n_tests, sizeof(*answers));
	for (size_t t = 0; t < cm->n_tests; t++) {
		answer_of(res, cm, &cm->tests[t], cm->tests[t].side, &answers[t]);
		answer_row_build(res, &answers[t], &rows[t]);
		bw = wider(bw, rows[t].boots);
		dw = wider(dw, rows[t].delta);
		cw = wider(cw, rows[t].ci);
		pw = wider(pw, rows[t].p);
		tw = wider(tw, rows[t].test);
		vw = wider(vw, rows[t].verdict);
	}
	/* Too wide for the terminal: each verdict opens the line of its notes, under its row. */
	narrow = 2 + label_w + 2 + bw + 2 + dw + 2 + cw + 2 + pw + 2 + tw + 2 + vw > width;
	strbuf_addf(&sb, "  %-*s  %*s  %*s  %*s  %*s  %-*s  %s", (int)label_w, "mode", (int)bw, "boots", (int)dw, "delta",
		    (int)cw, strbuf_str(&ci), (int)pw, "p", (int)tw, "test", narrow ? "" : "verdict");
	report_put_line(out, &sb);
	for (size_t t = 0; t < cm->n_tests; t++) {
		const struct answer_row *r = &rows[t];
		struct strbuf notes = STRBUF_INIT;
		struct compare_cell fake = { .verdict = VERDICT_COUNTS, .delta_pct = answers[t].delta_pct };
		const char *color = answers[t].kind == ANSWER_CLAIM ? color_of(&fake, o->color) : "";

		strbuf_addstr(&notes, r->notes);
		strbuf_addf(&sb, "  %-*s  %*s  %*s  %*s  %*s  %-*s  ", (int)label_w, cm->tests[t].mode, (int)bw,
			    r->boots, (int)dw, r->delta, (int)cw, r->ci, (int)pw, r->p, (int)tw, r->test);
		if (narrow) {
			report_put_line(out, &sb);
			strbuf_addstr(&sb, "      ");
		}
		strbuf_addf(&sb, "%s%s%s", color, r->verdict, *color ? reset : "");
		put_row_notes(out, &sb, &notes, width, *color ? strlen(color) + strlen(reset) : 0);
		strbuf_release(&notes);
		answer_row_release(&rows[t]);
	}
	free(rows);
	free(answers);
	strbuf_release(&ci);
	strbuf_release(&sb);
}

static void text_boot_level(FILE *out, const struct compare_result *res, const struct compare_metric *cm,
			    const struct report_options *o, size_t label_w, size_t width)
{
	struct strbuf sb = STRBUF_INIT;

	if (!cm->has_components && !cm->has_history)
		return;
	strbuf_addstr(&sb, "  boots (logs): sigma_b ");
	report_add_sd_pct(&sb, cm->components.sigma_b2);
	strbuf_addstr(&sb, ", sigma_w ");
	report_add_sd_pct(&sb, cm->components.sigma_w2);
	strbuf_addstr(&sb, ", ICC ");
	if (isnan(cm->components.icc))
		strbuf_addstr(&sb, "-");
	else
		strbuf_addf(&sb, "%.2f", cm->components.icc);
	strbuf_addf(&sb, " over %zu boots, %zu reps", cm->components.boots, cm->components.samples);
	report_put_line(out, &sb);
	if (cm->has_history) {
		strbuf_addf(&sb, "  history: %zu entries, %.0f df, boot-to-boot sd ", cm->history.entries,
			    cm->history.df);
		report_add_sd_pct(&sb, cm->history.var);
		if (!isnan(cm->history.ratio)) {
			strbuf_addf(&sb, "; this campaign's variance is %.1fx it (p ", cm->history.ratio);
			report_add_p(&sb, cm->history.p);
			strbuf_addf(&sb, ")%s", cm->history.unusual ? ": unusual, check the machine" : "");
		} else if (!cm->history.checked) {
			strbuf_addstr(&sb, "; no repeat boot to check it against");
		}
		report_put_wrapped(out, strbuf_str(&sb), width, "    ");
		strbuf_truncate(&sb, 0);
		if (cm->history.drift) {
			strbuf_addstr(&sb, "  ");
			drift_add_undecided(&sb, res, cm);
			report_put_wrapped(out, strbuf_str(&sb), width, "    ");
			strbuf_truncate(&sb, 0);
		}
	}
	text_tests(out, res, cm, o, label_w, width);
	strbuf_release(&sb);
}

/* "mean", or "mean and min", "mean, median and min". */
static void stats_words(struct strbuf *sb, const struct compare_metric *cm)
{
	for (size_t j = 0; j < cm->n_stats; j++)
		strbuf_addf(sb, "%s%s", j == 0 ? "" : j + 1 == cm->n_stats ? " and " : ", ", stat_kind_name(cm->stats[j]));
	if (!cm->n_stats)
		strbuf_addstr(sb, stat_kind_name(cm->stat));
}

/* Each side's command line against the first side's, its IOMMU group types and load, where recorded. */
static void text_boot_words(FILE *out, const struct compare_result *res, size_t label_w, size_t width)
{
	struct strbuf sb = STRBUF_INIT;
	char *indent = xasprintf("%*s", (int)label_w + 4, "");
	bool any = false;

	for (size_t k = 0; k < res->n_sides; k++)
		any |= res->sides[k].cmdline || res->sides[k].iommu_summary;
	if (!any) {
		free(indent);
		return;
	}
	fprintf(out, "args against %s, IOMMU group types, load at start:\n", res->sides[0].label);
	for (size_t k = 0; k < res->n_sides; k++) {
		const struct side *s = &res->sides[k];
		char *args = side_args_against(s, &res->sides[0]);

		strbuf_addf(&sb, "  %-*s  args %s; iommu %s; load %s", (int)label_w, s->label,
			    !args ? "(not recorded)" : k == 0 ? "(the first side's)" : *args ? args : "the same",
			    s->iommu_summary ? s->iommu_summary : "(not recorded)", s->load ? s->load : "(not recorded)");
		report_put_wrapped(out, strbuf_str(&sb), width, indent);
		strbuf_truncate(&sb, 0);
		free(args);
	}
	free(indent);
	strbuf_release(&sb);
}

/*
 * The plan's [prepare] as the boots ran it (meta.json prepare): each
 * command once with its exit code when every side ran the same, else each
 * side's own.
 */
static void text_prepare(FILE *out, const struct compare_result *res, size_t label_w)
{
	enum report_prepare p = report_prepare_of(res);
	struct strbuf sb = STRBUF_INIT;

	if (p == REPORT_PREPARE_NONE)
		return;
	fprintf(out, "%s:\n", report_prepare_title(p));
	for (size_t k = 0; k < (p == REPORT_PREPARE_SAME ? 1 : res->n_sides); k++) {
		const struct side *s = &res->sides[k];

		if (p == REPORT_PREPARE_DIFFERS && !s->n_prepare) {
			strbuf_addf(&sb, "  %-*s  (none recorded)", (int)label_w, s->label);
			report_put_line(out, &sb);
		}
		for (size_t i = 0; i < s->n_prepare; i++) {
			if (p == REPORT_PREPARE_DIFFERS)
				strbuf_addf(&sb, "  %-*s", (int)label_w, s->label);
			strbuf_addf(&sb, "  rc=%-3d %s", s->prepare[i].rc, s->prepare[i].command);
			report_put_line(out, &sb);
		}
	}
	strbuf_release(&sb);
}

/* Who the sides are: their modes, no repeat, versions that differ, kernels. */
static void text_sides(FILE *out, const struct compare_result *res, size_t label_w, size_t width)
{
	struct strbuf sb = STRBUF_INIT;
	struct kernel_compare kc;

	fprintf(out, "sides (every side against %s; + is better):\n", res->sides[0].label);
	for (size_t k = 0; k < res->n_sides; k++) {
		struct strbuf note = STRBUF_INIT;

		report_side_note(&note, res, k);
		strbuf_addf(&sb, "  %-*s  mode %-14s %s", (int)label_w, res->sides[k].label,
			    res->sides[k].mode, strbuf_str(&note));
		report_put_line(out, &sb);
		strbuf_release(&note);
	}
	if (res->n_repeats == 0)
		fprintf(out, "no repeat of %s: no drift was measured, nothing is judged\n",
			res->sides[0].label);
	for (size_t i = 0; i < res->n_versions; i++) {
		const struct compare_version *v = &res->versions[i];

		fprintf(out, "versions differ: %s:", v->name);
		for (size_t k = 0; k < res->n_sides; k++)
			fprintf(out, " %s=%s", res->sides[k].label, v->values[k] ? v->values[k] : "(not recorded)");
		fputc('\n', out);
	}
	for (size_t i = 0; i < res->n_mismatches; i++)
		fprintf(out, "not comparable with %s: %s %s: %s\n", res->sides[0].label,
			res->sides[res->mismatches[i].side].label, res->mismatches[i].row, res->mismatches[i].what);
	kernel_compare(res->sides, res->n_sides, &kc);
	report_kernels_text(out, res, &kc, false);
	kernel_compare_release(&kc);
	text_boot_words(out, res, label_w, width);
	text_prepare(out, res, label_w);
	strbuf_release(&sb);
}

/* The value column of metric cm: as wide as its widest "VALUE ± SPREAD", in columns. */
static size_t text_value_width(const struct compare_result *res, const struct compare_metric *cm,
			       const struct report_unit *unit)
{
	size_t value_w = 14;

	for (size_t k = 0; k < res->n_sides; k++) {
		struct strbuf v = STRBUF_INIT;

		if (!cm->cells[k].present)
			continue;
		report_add_number(&v, cm->cells[k].value / unit->factor);
		strbuf_addstr(&v, " ± ");
		report_add_value(&v, cm->cells[k].spread / unit->factor, cm->cells[k].value / unit->factor);
		if (v.len - 1 > value_w)
			value_w = v.len - 1;
		strbuf_release(&v);
	}
	return value_w;
}

/* The delta and drift columns of metric cm: as wide as the widest of them, at least "delta". */
static size_t text_delta_width(const struct compare_result *res, const struct compare_metric *cm)
{
	size_t w = 6;

	for (size_t k = 0; k < res->n_sides; k++) {
		const struct compare_cell *c = &cm->cells[k];
		struct strbuf sb = STRBUF_INIT;

		if (!c->present)
			continue;
		report_add_delta(&sb, cm, c);
		w = sb.len > w ? sb.len : w;
		strbuf_truncate(&sb, 0);
		report_add_drift(&sb, cm, c);
		w = sb.len > w ? sb.len : w;
		for (size_t j = 1; j < cm->n_stats; j++) {
			strbuf_truncate(&sb, 0);
			report_add_pct(&sb, c->stats[j].delta_pct);
			w = sb.len > w ? sb.len : w;
			strbuf_truncate(&sb, 0);
			report_add_pct(&sb, c->stats[j].drift_pct);
			w = sb.len > w ? sb.len : w;
		}
		strbuf_release(&sb);
	}
	return w;
}

/* The lines under a cell's first one: its other statistics, judged alike (the spread is the samples'). */
static void text_other_stats(FILE *out, const struct compare_metric *cm, const struct compare_cell *c, size_t k,
			     const struct report_options *o, const struct text_table *t)
{
	struct strbuf sb = STRBUF_INIT, v = STRBUF_INIT, d = STRBUF_INIT, dr = STRBUF_INIT;
	struct strbuf q = STRBUF_INIT;

	for (size_t j = 1; j < cm->n_stats; j++) {
		const struct compare_stat *st = &c->stats[j];
		struct compare_cell as = { .verdict = st->verdict, .delta_pct = st->delta_pct };
		const char *color = color_of(&as, o->color);

		strbuf_truncate(&v, 0);
		strbuf_truncate(&d, 0);
		strbuf_truncate(&dr, 0);
		strbuf_truncate(&q, 0);
		if (st->verdict == VERDICT_MISSING && !(st->value > 0))
			strbuf_addstr(&v, "-");
		else
			report_add_value(&v, st->value / t->unit.factor, c->value / t->unit.factor);
		/* Under the first line's value: as wide as its " ± SPREAD" in columns. */
		{
			struct strbuf w = STRBUF_INIT;

			report_add_value(&w, c->spread / t->unit.factor, c->value / t->unit.factor);
			for (size_t pad = 0; pad < w.len + 3; pad++)
				strbuf_addch(&v, ' ');
			strbuf_release(&w);
		}
		report_add_pct(&d, st->delta_pct);
		if (st->verdict != VERDICT_DRIFT && st->verdict != VERDICT_MISSING)
			report_add_pct(&dr, st->drift_pct);
		report_add_q(&q, st->q);
		strbuf_addf(&sb, "  %-*s  %-*s%*s %6s %3s  %*s  %*s %5s  %s%s%s", (int)t->label_w, "",
			    (int)t->stat_w, stat_kind_name(cm->stats[j]), (int)t->value_w, strbuf_str(&v), "", "",
			    (int)t->delta_w, strbuf_str(&d), (int)t->delta_w, strbuf_str(&dr), strbuf_str(&q), color,
			    k == 0 ? "" : report_verdict_words(st->verdict), *color ? t->reset : "");
		report_put_line(out, &sb);
	}
	strbuf_release(&sb);
	strbuf_release(&v);
	strbuf_release(&d);
	strbuf_release(&dr);
	strbuf_release(&q);
}

/* Side k's line in metric cm's table (a dash when it has no value), then its other statistics. */
static void text_cell(FILE *out, const struct compare_result *res, const struct compare_metric *cm, size_t k,
		      const struct report_options *o, const struct text_table *t)
{
	const struct compare_cell *c = &cm->cells[k];
	struct strbuf sb = STRBUF_INIT, words = STRBUF_INIT, v = STRBUF_INIT, d = STRBUF_INIT, dr = STRBUF_INIT;
	struct strbuf q = STRBUF_INIT, sp = STRBUF_INIT, notes = STRBUF_INIT;
	size_t inv = strlen(color_of(c, o->color)) + (*color_of(c, o->color) ? strlen(t->reset) : 0);

	if (!c->present) {
		fprintf(out, "  %-*s  %*s\n", (int)t->label_w, res->sides[k].label, (int)t->value_w, "-");
		return;
	}
	report_add_number(&v, c->value / t->unit.factor);
	strbuf_addstr(&v, " ± ");
	report_add_value(&v, c->spread / t->unit.factor, c->value / t->unit.factor);
	if (!isnan(c->spread_pct))
		strbuf_addf(&sp, "%.1f%%", c->spread_pct);
	report_add_delta(&d, cm, c);
	report_add_drift(&dr, cm, c);
	report_add_q(&q, c->q);
	if (cm->n_stats > 1)
		strbuf_addf(&words, "%-*s", (int)t->stat_w, stat_kind_name(cm->stats[0]));
	strbuf_addf(&sb, "  %-*s  %s%*s %6s %3zu  %*s  %*s %5s  ", (int)t->label_w,
		    res->sides[k].label, strbuf_str(&words), (int)t->value_w + 1, strbuf_str(&v), strbuf_str(&sp), c->n,
		    (int)t->delta_w, strbuf_str(&d), (int)t->delta_w, strbuf_str(&dr), strbuf_str(&q));
	/* The verdict's short words where the long ones would pass the width. */
	strbuf_addf(&sb, "%s%s%s", color_of(c, o->color),
		    report_text_columns(&sb) + strlen(report_verdict_words(c->verdict)) > t->width
		    ? verdict_text(c->verdict)->brief : report_verdict_words(c->verdict),
		    *color_of(c, o->color) ? t->reset : "");
	if (c->pairs >= 2)
		strbuf_addf(&notes, "sign agrees in %zu of %zu pairs", c->pairs_agree, c->pairs);
	if (c->n_wild && notes.len)
		strbuf_addstr(&notes, "; ");
	report_add_wild(&notes, res, cm, k, t->unit.factor);
	put_row_notes(out, &sb, &notes, t->width, inv);
	text_other_stats(out, cm, c, k, o, t);
	strbuf_release(&notes);
	strbuf_release(&sb);
	strbuf_release(&words);
	strbuf_release(&v);
	strbuf_release(&d);
	strbuf_release(&dr);
	strbuf_release(&q);
	strbuf_release(&sp);
}

/* Metric cm's table: its title, header, a line per side, then its boot-level tests. */
static void text_metric(FILE *out, const struct compare_result *res, const struct compare_metric *cm,
			const struct report_options *o, struct text_table *t)
{
	struct strbuf words = STRBUF_INIT;
	char *title;
	bool any = false;

	for (size_t k = 0; k < res->n_sides; k++)
		any |= cm->cells[k].present;
	/* Every side's value was unusable: the warnings said why. */
	if (!any)
		return;
	title = report_metric_title(cm);
	report_unit_of(res, cm, &t->unit);
	t->value_w = text_value_width(res, cm, &t->unit);
	t->delta_w = text_delta_width(res, cm);
	stats_words(&words, cm);
	fprintf(out, "\n%s  (%s%s%s, %s%s)\n", title, t->unit.unit, *t->unit.unit ? ", " : "",
		strbuf_str(&words), report_better_words(cm->better), cm->by_run ? ", run by run" : "");
	strbuf_truncate(&words, 0);
	if (cm->n_stats > 1)
		strbuf_addf(&words, "%-*s", (int)t->stat_w, "stat");
	/* The value column holds "±", two bytes in UTF-8, in header and rows alike. */
	fprintf(out, "  %-*s  %s%*s %6s %3s  %*s  %*s %5s  %s\n", (int)t->label_w, "side",
		strbuf_str(&words), (int)t->value_w + 1, "value ± spread", "", "n", (int)t->delta_w, "delta",
		(int)t->delta_w, "drift", "q",
		"screen");
	for (size_t k = 0; k < res->n_sides; k++)
		text_cell(out, res, cm, k, o, t);
	text_boot_level(out, res, cm, o, t->label_w, t->width);
	strbuf_release(&words);
	free(title);
}

/* The summary line, wrapped to the width; the boot-level summary; the legend. */
static void text_summary(FILE *out, const struct compare_result *res, const struct report_options *o, size_t width)
{
	char *line = NULL;
	size_t line_len = 0;
	FILE *mem = open_memstream(&line, &line_len);

	if (mem) {
		report_summary_line(mem, res, "summary: ", "");
		fclose(mem);
		if (line_len && line[line_len - 1] == '\n')
			line[line_len - 1] = 0;
		report_put_wrapped(out, line, width, "  ");
		free(line);
	}
	report_boot_level_summary(out, res, "", width);
	report_design_cost(out, res, width, false);
	if (o->legend_long) {
		report_legend(out, res, o, "", width);
		report_legend_boot_level(out, res, "", width);
	} else {
		report_legend_short(out, res, o, width, "");
	}
}

/* "  295,219   -34.9 [-36.6, -33.2]  slower": one statistic of a new,old row. */
static void text_new_old_stat(struct strbuf *sb, const struct new_old_stat *st)
{
	struct new_old_cells c;

	report_new_old_cells(st, &c);
	strbuf_addf(sb, "  %11s", c.nums);
	if (st->present)
		strbuf_addf(sb, " %6s %-16s %-6s", c.pct, c.ci, st->verdict == NEW_OLD_WITHIN_NOISE ? "noise" : c.verdict);
	else
		strbuf_addf(sb, " %-30s", "");
}

/* sb as one line without its trailing blanks; sb is emptied. */
static void text_put_trimmed(FILE *out, struct strbuf *sb)
{
	size_t n = sb->len;

	while (n > 0 && sb->buf[n - 1] == ' ')
		n--;
	fprintf(out, "%.*s\n", (int)n, sb->buf);
	strbuf_truncate(sb, 0);
}

/* New against old code in one kernel, paired in each boot: a line per table row, per kernel. */
static void text_new_old(FILE *out, const struct compare_result *res)
{
	const struct new_old_result *no = &res->new_old;
	struct strbuf sb = STRBUF_INIT;
	size_t name_w = 4;

	for (size_t i = 0; i < no->n_rows; i++) {
		char *name = report_new_old_name(no, &no->rows[i]);

		if (strlen(name) > name_w)
			name_w = strlen(name);
		free(name);
	}
	for (size_t i = 0; i < no->n_rows; i++) {
		const struct new_old_row *r = &no->rows[i];
		char *name = report_new_old_name(no, r);

		if (report_new_old_group_starts(no, i)) {
			fprintf(out, "new against old, paired in each boot: %zu boot%s%s%s, %s, + is better, %.0f%% CI of the boots\n",
				r->avg.boots, r->avg.boots == 1 ? "" : "s", r->kernel ? " of " : "", r->kernel ? r->kernel : "",
				r->unit, report_new_old_level(res));
			strbuf_addf(&sb, "  %-*s  %11s %6s %-16s %-6s  %11s %6s %s", (int)name_w, "", "avg new,old", "%",
				    "CI", "", "min new,old", "%", "CI");
			text_put_trimmed(out, &sb);
		}
		strbuf_addf(&sb, "  %-*s", (int)name_w, name);
		text_new_old_stat(&sb, &r->avg);
		text_new_old_stat(&sb, &r->min);
		text_put_trimmed(out, &sb);
		free(name);
	}
	strbuf_release(&sb);
	if (no->n_rows)
		fputc('\n', out);
}

void report_text(FILE *out, const struct compare_result *res, const struct report_options *o)
{
	struct text_table t = { .width = o->width ? o->width : REPORT_WIDTH_DEFAULT, .label_w = 4, .stat_w = 8,
				.reset = o->color ? "\033[0m" : "" };

	for (size_t k = 0; k < res->n_sides; k++)
		if (strlen(res->sides[k].label) > t.label_w)
			t.label_w = strlen(res->sides[k].label);

	/* A kernel's own new against old comes first: it is what such a table asks. */
	text_new_old(out, res);
	headline_write(out, res, t.width, false);
	if (o->preamble)
		fputs(o->preamble, out);
	text_sides(out, res, t.label_w, t.width);
	/* What the sides are comes first (modes, versions, kernels), then what bootab found each side lost. */
	text_found(out, res);
	for (size_t i = 0; i < res->n_metrics; i++)
		text_metric(out, res, &res->metrics[i], o, &t);
	fputc('\n', out);
	text_summary(out, res, o, t.width);
}
