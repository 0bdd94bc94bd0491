/* report.html: the forest plot of every boot-level result and a chart per metric. */
#include "report/html-page.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "judge/kernels.h"
#include "lib/alloc.h"
#include "report/answer.h"
#include "report/chart.h"
#include "report/words.h"

/* ---- the forest plot: every boot-level result on one % axis ---- */

/* Where v sits on the forest's axis, in % of the strip's width (2 % kept clear at each end). */
static double forest_x(const struct chart_axis *axis, double v)
{
	return chart_axis_map(axis, v, 2, 98);
}

static void forest_number(struct page *pg, const char *attr, double pct)
{
	page_putf(pg, " %s=\"%.2f%%\"", attr, pct);
}

/* The metrics with a boot level, as the text report and report.json show them: a mode with two boots, or a history. */
static bool forest_metric(const struct compare_metric *cm)
{
	return cm->has_components || cm->has_history;
}

/* The forest's axis: its tick labels in %. */
static void forest_ticks(struct page *pg, const struct chart_axis *axis)
{
	for (size_t t = 0; t < axis->n_ticks; t++) {
		double v = axis->lo + (double)t * axis->step;
		struct strbuf label = STRBUF_INIT;

		chart_tick_label(&label, v, axis->step);
		page_put(pg, "<text");
		forest_number(pg, "x", forest_x(axis, v));
		page_putf(pg, " y=\"15\" text-anchor=\"%s\">%s", t == 0 ? "start" : t + 1 == axis->n_ticks ? "end" : "middle",
		     v > 0 ? "+" : "");
		page_esc(pg, strbuf_str(&label));
		page_put(pg, "%</text>");
		strbuf_release(&label);
	}
}

/* The forest's line of test ct of metric cm (the i-th): the estimate, its CI and margin, the verdict. */
static void forest_row(struct page *pg, size_t i, const struct compare_metric *cm, const struct compare_test *ct,
		       const struct chart_axis *axis)
{
	const char *color = page_test_color(pg, ct);
	bool ci = ct->method != METHOD_NONE && isfinite(ct->lo_pct) && isfinite(ct->hi_pct);
	struct strbuf w = STRBUF_INIT;
	char *title = report_metric_title(cm);
	struct answer ans;

	page_put(pg, "<div class=\"fr\"");
	page_test_attrs(pg, cm, ct);
	page_put(pg, "><div class=\"fl\"><a href=\"#");
	page_metric_anchor(pg, i);
	page_put(pg, "\">");
	page_metric_heading(pg, cm);
	page_putf(pg, "</a> <span class=\"fm\"><span class=\"sw\" style=\"background:%s\"></span>", color);
	page_esc(pg, ct->mode);
	page_put(pg, "</span></div><svg class=\"fp\" height=\"26\" role=\"img\" aria-label=\"");
	page_esc(pg, title);
	page_put(pg, ", ");
	page_esc(pg, ct->mode);
	page_put(pg, "\">");
	if (ct->has_equivalence && cm->margin_pct > 0) {
		double a = forest_x(axis, -cm->margin_pct), b = forest_x(axis, cm->margin_pct);

		page_put(pg, "<rect class=\"margin\"");
		forest_number(pg, "x", a);
		forest_number(pg, "width", b - a);
		page_putf(pg, " y=\"2\" height=\"22\"><title>equivalence margin ±%g%%</title></rect>", cm->margin_pct);
	}
	page_put(pg, "<line class=\"zero\"");
	forest_number(pg, "x1", forest_x(axis, 0));
	forest_number(pg, "x2", forest_x(axis, 0));
	page_put(pg, " y1=\"0\" y2=\"26\"/>");
	if (ci) {
		double a = forest_x(axis, ct->lo_pct), b = forest_x(axis, ct->hi_pct);

		page_putf(pg, "<line class=\"ci\" stroke=\"%s\"", color);
		forest_number(pg, "x1", a);
		forest_number(pg, "x2", b);
		page_putf(pg, " y1=\"13\" y2=\"13\"/><line class=\"ci\" stroke=\"%s\"", color);
		forest_number(pg, "x1", a);
		forest_number(pg, "x2", a);
		page_putf(pg, " y1=\"7\" y2=\"19\"/><line class=\"ci\" stroke=\"%s\"", color);
		forest_number(pg, "x1", b);
		forest_number(pg, "x2", b);
		page_put(pg, " y1=\"7\" y2=\"19\"/>");
	}
	if (isfinite(ct->delta_pct)) {
		/* Hollow: an estimate no test bounds. */
		page_putf(pg, "<circle class=\"est%s\" stroke=\"%s\" fill=\"%s\"", ci ? "" : " open", color,
		     ci ? color : "#fff");
		forest_number(pg, "cx", forest_x(axis, ct->delta_pct));
		page_put(pg, " cy=\"13\" r=\"5\"/>");
	}
	page_put(pg, "</svg><div class=\"fv\"><span class=\"fd\">");
	answer_of(pg->res, cm, ct, ct->side, &ans);
	answer_add_effect(&w, &ans, true, false);
	page_esc(pg, strbuf_str(&w));
	strbuf_truncate(&w, 0);
	answer_add_verdict(&w, &ans);
	page_putf(pg, "</span> <span class=\"pill %s\">", page_test_class(ct));
	page_esc(pg, strbuf_str(&w));
	page_put(pg, "</span></div></div>\n");
	strbuf_release(&w);
	free(title);
}

void html_forest_section(struct page *pg)
{
	const struct compare_result *res = pg->res;
	double lo = 0, hi = 0;
	size_t n_rows = 0;
	struct chart_axis axis;

	for (size_t i = 0; i < res->n_metrics; i++) {
		const struct compare_metric *cm = &res->metrics[i];

		for (size_t t = 0; forest_metric(cm) && t < cm->n_tests; t++) {
			const struct compare_test *ct = &cm->tests[t];
			double v[] = { ct->delta_pct, ct->lo_pct, ct->hi_pct,
				       ct->has_equivalence ? cm->margin_pct : NAN, ct->has_equivalence ? -cm->margin_pct : NAN };

			for (size_t j = 0; j < sizeof(v) / sizeof(v[0]); j++)
				if (isfinite(v[j])) {
					lo = fmin(lo, v[j]);
					hi = fmax(hi, v[j]);
				}
			n_rows++;
		}
	}
	page_put(pg, "<section id=\"forest\">\n<h2>Every mode against ");
	page_esc(pg, res->sides[0].mode);
	page_put(pg, ", metric by metric</h2>\n");
	if (n_rows == 0) {
		page_put(pg, "<p class=\"note\">No boot-level result: no mode has two boots, and the machine has no history "
			"(a repeat of the first side, more rounds, or a recorded A/A campaign make one).</p>\n</section>\n");
		return;
	}
	if (chart_axis_nice(lo, hi, 6, &axis) < 0)
		axis = (struct chart_axis){ .lo = -1, .hi = 1, .step = 1, .n_ticks = 3 };
	page_putf(pg, "<div class=\"forest\" data-rows=\"%zu\">\n<div class=\"fr axis\"><div class=\"fl\"></div>"
		 "<svg class=\"fp\" height=\"22\" aria-hidden=\"true\">", n_rows);
	forest_ticks(pg, &axis);
	page_put(pg, "</svg><div class=\"fv note\">estimate [CI], verdict</div></div>\n");
	for (size_t i = 0; i < res->n_metrics; i++)
		for (size_t t = 0; forest_metric(&res->metrics[i]) && t < res->metrics[i].n_tests; t++)
			forest_row(pg, i, &res->metrics[i], &res->metrics[i].tests[t], &axis);
	page_put(pg, "</div>\n<p class=\"note\">Each line: a mode's boot-level delta against ");
	page_esc(pg, res->sides[0].mode);
	page_putf(pg, " (+ is better), the mean of its boot means in logs, with its %.0f%% confidence interval; a hollow "
		 "dot is an estimate that no test bounds (one boot of a mode and no history). Shaded: the equivalence "
		 "margin, where one is set. The verdicts are those of the text report's boot-level tables.</p>\n"
		 "</section>\n", 100 * (1 - res->alpha));
}

/* ---- one chart per metric ---- */

#define CHART_W 640.0
#define CHART_H 270.0
#define CHART_LEFT 62.0
#define CHART_RIGHT 64.0
#define CHART_TOP 22.0
#define CHART_BOTTOM 52.0

/* The drift the verdict is judged against, as a fraction of the first side's value; NaN if none. */
static double metric_drift_fraction(const struct compare_result *res, const struct compare_metric *cm)
{
	for (size_t k = 1; k < res->n_sides; k++) {
		const struct compare_cell *c = &cm->cells[k];

		if (!c->present || c->verdict == VERDICT_MISSING)
			continue;
		/* By-run rows are judged against the largest per-run drift. */
		if (cm->by_run && c->runs && !isnan(c->drift_lo) && !isnan(c->drift_hi))
			return fmax(fabs(c->drift_lo), fabs(c->drift_hi)) / 100;
		if (!isnan(c->drift_pct))
			return fabs(c->drift_pct) / 100;
	}
	return NAN;
}

static void chart_num(struct page *pg, const char *attr, double v)
{
	page_putf(pg, " %s=\"%.1f\"", attr, v);
}

/* A metric chart's value axis and plot area, in viewBox units. */
struct chart_frame {
	struct chart_axis axis;
	double x0, x1, y0, y1;
};

/*
 * The value axis of metric cm's chart: every boot's value and spread,
 * every rep and twice the drift band around the first side; the points
 * and reps drawn counted in *n_points, *n_reps.
 */
static void metric_chart_axis(const struct compare_result *res, const struct compare_metric *cm, double f,
			      struct chart_axis *ret, size_t *n_points, size_t *n_reps)
{
	const struct compare_cell *base = &cm->cells[0];
	double lo = INFINITY, hi = -INFINITY;

	for (size_t k = 0; k < res->n_sides; k++) {
		const struct compare_cell *c = &cm->cells[k];
		double s = isnan(c->spread) ? 0 : c->spread;

		if (!c->present)
			continue;
		(*n_points)++;
		lo = fmin(lo, c->value - s);
		hi = fmax(hi, c->value + s);
	}
	/* Every rep of every boot is drawn: the axis holds them all. */
	for (size_t k = 0; k < res->n_sides; k++) {
		const struct metric *m = cm->cells[k].present ? compare_side_metric(res, cm, k) : NULL;

		for (size_t n = 0; m && n < m->n_samples; n++) {
			lo = fmin(lo, m->samples[n]);
			hi = fmax(hi, m->samples[n]);
			(*n_reps)++;
		}
	}
	if (base->present && !isnan(f)) {
		lo = fmin(lo, base->value * (1 - 2 * f));
		hi = fmax(hi, base->value * (1 + 2 * f));
	}
	if (chart_axis_nice(lo, hi, 5, ret) < 0)
		*ret = (struct chart_axis){ .lo = 0, .hi = 1, .step = 1, .n_ticks = 2 };
}

/* Grid lines, tick labels, the axis and which way is better. */
static void metric_chart_grid(struct page *pg, const struct compare_metric *cm, const struct chart_frame *fr)
{
	for (size_t t = 0; t < fr->axis.n_ticks; t++) {
		double v = fr->axis.lo + (double)t * fr->axis.step, y = chart_axis_map(&fr->axis, v, fr->y0, fr->y1);
		struct strbuf label = STRBUF_INIT;

		chart_tick_label(&label, v, fr->axis.step);
		page_putf(pg, "<line class=\"grid\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\"/>", fr->x0, fr->x1, y, y);
		page_putf(pg, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\" dominant-baseline=\"middle\">", fr->x0 - 8, y);
		page_esc(pg, strbuf_str(&label));
		page_put(pg, "</text>\n");
		strbuf_release(&label);
	}
	page_putf(pg, "<line class=\"axis\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\"/>\n", fr->x0, fr->x1, fr->y0, fr->y0);
	page_putf(pg, "<text class=\"dir\" x=\"%.1f\" y=\"12\" text-anchor=\"start\">", fr->x0 - 52);
	page_esc(pg, cm->unit);
	page_put(pg, cm->better == BETTER_LOWER ? " · lower is better ↓</text>\n" : " · higher is better ↑</text>\n");
}

/* The drift band around the first side: a delta inside it is noise, one beyond twice it may count. */
static void metric_chart_band(struct page *pg, const struct compare_metric *cm, double f,
			      const struct chart_frame *fr)
{
	const struct compare_cell *base = &cm->cells[0];

	if (base->present && !isnan(f) && f > 0) {
		double ya = chart_axis_map(&fr->axis, base->value * (1 + f), fr->y0, fr->y1);
		double yb = chart_axis_map(&fr->axis, base->value * (1 - f), fr->y0, fr->y1);
		double y2a = chart_axis_map(&fr->axis, base->value * (1 + 2 * f), fr->y0, fr->y1);
		double y2b = chart_axis_map(&fr->axis, base->value * (1 - 2 * f), fr->y0, fr->y1);

		page_putf(pg, "<rect class=\"band2\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\"><title>2 × drift: "
			 "a delta must leave this to count</title></rect>\n", fr->x0, y2a, fr->x1 - fr->x0, y2b - y2a);
		page_putf(pg, "<rect class=\"band\" data-drift=\"%.4f\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\">"
			 "<title>drift ±%.1f%%: the first side against its repeat</title></rect>\n",
		     f * 100, fr->x0, ya, fr->x1 - fr->x0, yb - ya, f * 100);
		/* Labels in the right margin, clear of the boots; pushed apart when the band is thin. */
		page_putf(pg, "<text class=\"bandlab\" x=\"%.1f\" y=\"%.1f\" dominant-baseline=\"middle\">±%.1f%%</text>\n",
		     fr->x1 + 6, fmin(ya, (ya + yb) / 2 - 7), f * 100);
		page_putf(pg, "<text class=\"bandlab\" x=\"%.1f\" y=\"%.1f\" dominant-baseline=\"middle\">2×</text>\n",
		     fr->x1 + 6, fmin(y2a, (ya + yb) / 2 - 21));
	}
	if (base->present) {
		double yb = chart_axis_map(&fr->axis, base->value, fr->y0, fr->y1);

		page_putf(pg, "<line class=\"base\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\"/>\n", fr->x0, fr->x1, yb, yb);
		page_putf(pg, "<text class=\"bandlab\" x=\"%.1f\" y=\"%.1f\" dominant-baseline=\"middle\">", fr->x1 + 6, yb + 1);
		page_esc(pg, pg->res->sides[0].label);
		page_put(pg, "</text>\n");
	}
}

/*
 * Every rep, spread across its boot's slot in rep order. A by-run row
 * pairs run i with run i: a line joins each run across the boots.
 */
static void metric_chart_reps(struct page *pg, const struct compare_metric *cm, const struct chart_frame *fr)
{
	const struct compare_result *res = pg->res;
	size_t max_runs = 0;

	for (size_t k = 0; k < res->n_sides; k++) {
		const struct metric *m = cm->cells[k].present ? compare_side_metric(res, cm, k) : NULL;

		if (m && m->n_samples > max_runs)
			max_runs = m->n_samples;
	}
	if (cm->by_run)
		for (size_t n = 0; n < max_runs; n++) {
			size_t drawn = 0;

			page_putf(pg, "<path class=\"run\" data-run=\"%zu\" d=\"", n + 1);
			for (size_t k = 0; k < res->n_sides; k++) {
				const struct metric *m = cm->cells[k].present ? compare_side_metric(res, cm, k) : NULL;
				double x = chart_slot_center(k, res->n_sides, fr->x0, fr->x1);
				double w = (fr->x1 - fr->x0) / (double)res->n_sides * 0.5;

				if (!m || n >= m->n_samples)
					continue;
				page_putf(pg, "%s%.1f %.1f", drawn++ ? " L" : "M", x - w / 2 + w * ((double)n + 0.5) / (double)max_runs,
				     chart_axis_map(&fr->axis, m->samples[n], fr->y0, fr->y1));
			}
			page_putf(pg, "\"><title>run %zu of every boot</title></path>\n", n + 1);
		}
	for (size_t k = 0; k < res->n_sides; k++) {
		const struct metric *m = cm->cells[k].present ? compare_side_metric(res, cm, k) : NULL;
		double x = chart_slot_center(k, res->n_sides, fr->x0, fr->x1);
		double w = (fr->x1 - fr->x0) / (double)res->n_sides * 0.5;
		size_t across = cm->by_run ? max_runs : (m ? m->n_samples : 0);

		for (size_t n = 0; m && n < m->n_samples; n++) {
			struct strbuf v = STRBUF_INIT;
			bool wild = false;

			for (size_t w2 = 0; w2 < cm->cells[k].n_wild; w2++)
				wild |= cm->cells[k].wild[w2] == n;
			report_add_value(&v, m->samples[n], cm->cells[k].value);
			/* A wild rep is drawn as such: a ring, left out of the boot mean. */
			page_putf(pg, "<circle class=\"rep%s\" data-side=\"", wild ? " wild" : "");
			page_esc(pg, res->sides[k].label);
			page_putf(pg, "\" cx=\"%.1f\" cy=\"%.1f\" r=\"2.8\" fill=\"%s\"><title>", x - w / 2 + w * ((double)n + 0.5) / (double)across,
			     chart_axis_map(&fr->axis, m->samples[n], fr->y0, fr->y1), page_mode_color(pg, k));
			page_esc(pg, res->sides[k].label);
			page_putf(pg, cm->by_run ? " run %zu: " : " rep %zu: ", n + 1);
			page_esc(pg, strbuf_str(&v));
			page_put(pg, wild ? " (wild: left out of the boot mean)</title></circle>" : "</title></circle>");
			strbuf_release(&v);
		}
		page_put(pg, m ? "\n" : "");
	}
}

/* One slot per boot, in campaign order: its label, value and spread, its delta. */
static void metric_chart_slots(struct page *pg, const struct compare_metric *cm, const struct chart_frame *fr)
{
	const struct compare_result *res = pg->res;

	for (size_t k = 0; k < res->n_sides; k++) {
		const struct compare_cell *c = &cm->cells[k];
		double x = chart_slot_center(k, res->n_sides, fr->x0, fr->x1);
		const char *color = page_mode_color(pg, k);
		struct strbuf v = STRBUF_INIT;

		page_putf(pg, "<text class=\"lab\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">", x, fr->y0 + 18);
		page_esc(pg, res->sides[k].label);
		page_put(pg, "</text>");
		if (!c->present) {
			page_putf(pg, "<text class=\"val\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">no value</text>\n", x,
			     fr->y0 + 34);
			continue;
		}
		report_add_value(&v, c->value, c->value);
		strbuf_addstr(&v, " ± ");
		report_add_value(&v, c->spread, c->value);
		page_putf(pg, "<text class=\"val\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">", x, fr->y0 + 34);
		if (k == 0)
			page_put(pg, "first side");
		else
			page_cell_text(pg, report_add_delta, cm, c);
		page_put(pg, "</text>\n<g>");
		if (!isnan(c->spread) && c->spread > 0) {
			double ya = chart_axis_map(&fr->axis, c->value + c->spread, fr->y0, fr->y1);
			double yb = chart_axis_map(&fr->axis, c->value - c->spread, fr->y0, fr->y1);

			page_putf(pg, "<line class=\"bar\" stroke=\"%s\"", color);
			chart_num(pg, "x1", x);
			chart_num(pg, "x2", x);
			chart_num(pg, "y1", ya);
			chart_num(pg, "y2", yb);
			page_putf(pg, "/><line class=\"bar\" stroke=\"%s\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\"/>"
				 "<line class=\"bar\" stroke=\"%s\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\"/>",
			     color, x - 7, x + 7, ya, ya, color, x - 7, x + 7, yb, yb);
		}
		page_putf(pg, "<circle class=\"pt\" data-side=\"");
		page_esc(pg, res->sides[k].label);
		page_putf(pg, "\" cx=\"%.1f\" cy=\"%.1f\" r=\"6\" fill=\"%s\"><title>", x,
		     chart_axis_map(&fr->axis, c->value, fr->y0, fr->y1), color);
		page_esc(pg, res->sides[k].label);
		page_put(pg, " (");
		page_esc(pg, res->sides[k].mode);
		page_put(pg, "): ");
		page_esc(pg, strbuf_str(&v));
		page_putf(pg, ", n=%zu</title></circle></g>\n", c->n);
		strbuf_release(&v);
	}
}

static void metric_chart(struct page *pg, size_t i)
{
	const struct compare_result *res = pg->res;
	const struct compare_metric *cm = &res->metrics[i];
	double f = metric_drift_fraction(res, cm);
	struct chart_frame fr = { .x0 = CHART_LEFT, .x1 = CHART_W - CHART_RIGHT, .y0 = CHART_H - CHART_BOTTOM,
				  .y1 = CHART_TOP };
	size_t n_points = 0, n_reps = 0;
	char *title = report_metric_title(cm);

	metric_chart_axis(res, cm, f, &fr.axis, &n_points, &n_reps);
	page_put(pg, "<svg class=\"chart\" viewBox=\"0 0 640 270\" role=\"img\" data-metric=\"");
	page_esc(pg, cm->row);
	page_put(pg, " ");
	page_esc(pg, cm->metric);
	page_putf(pg, "\" data-points=\"%zu\" data-reps=\"%zu\" aria-label=\"", n_points, n_reps);
	page_esc(pg, title);
	page_put(pg, ": every boot's value and within-boot spread\"><title>");
	page_esc(pg, title);
	page_put(pg, "</title>\n");
	free(title);

	metric_chart_grid(pg, cm, &fr);
	metric_chart_band(pg, cm, f, &fr);
	metric_chart_reps(pg, cm, &fr);
	metric_chart_slots(pg, cm, &fr);
	page_put(pg, "</svg>\n");
}

/* The metric's boot-level numbers beside its chart, worded as the text report's boot-level table. */
static void metric_boot_level(struct page *pg, const struct compare_metric *cm)
{
	const struct compare_result *res = pg->res;
	struct strbuf t = STRBUF_INIT;

	if (!cm->has_components && !cm->has_history)
		return;
	page_put(pg, "<div class=\"bl\" data-boot-level=\"");
	page_esc(pg, cm->row);
	page_put(pg, " ");
	page_esc(pg, cm->metric);
	page_put(pg, "\"><h4>boot level</h4><span class=\"d\" data-sigma>sigma_b ");
	report_add_sd_pct(&t, cm->components.sigma_b2);
	strbuf_addstr(&t, ", sigma_w ");
	report_add_sd_pct(&t, cm->components.sigma_w2);
	strbuf_addstr(&t, ", ICC ");
	if (isnan(cm->components.icc))
		strbuf_addstr(&t, "-");
	else
		strbuf_addf(&t, "%.2f", cm->components.icc);
	strbuf_addf(&t, " over %zu boots, %zu reps", cm->components.boots, cm->components.samples);
	page_esc(pg, strbuf_str(&t));
	page_put(pg, "</span>");
	if (cm->has_history) {
		strbuf_truncate(&t, 0);
		strbuf_addf(&t, "history: %zu entries, %.0f df, boot-to-boot sd ", cm->history.entries, cm->history.df);
		report_add_sd_pct(&t, cm->history.var);
		if (cm->history.unusual)
			strbuf_addstr(&t, "; this campaign is unusual: check the machine");
		if (cm->history.drift)
			strbuf_addstr(&t, "; not used: this campaign's boots vary more than it predicts");
		page_put(pg, "<br><span class=\"d\">");
		page_esc(pg, strbuf_str(&t));
		page_put(pg, "</span>");
	}
	page_put(pg, "<ul>");
	for (size_t j = 0; j < cm->n_tests; j++) {
		const struct compare_test *ct = &cm->tests[j];
		struct answer a;
		struct answer_row r;

		page_putf(pg, "<li><span class=\"who\"><span class=\"sw\" style=\"background:%s\"></span>", page_test_color(pg, ct));
		page_esc(pg, ct->mode);
		page_putf(pg, "</span> <span class=\"pill %s\"", page_test_class(ct));
		page_test_attrs(pg, cm, ct);
		page_put(pg, ">");
		answer_of(res, cm, ct, ct->side, &a);
		answer_row_build(res, &a, &r);
		page_esc(pg, r.verdict);
		page_put(pg, "</span><br><span class=\"d\">");
		strbuf_truncate(&t, 0);
		strbuf_addf(&t, "%s boots, delta %s", r.boots, r.delta);
		if (*r.ci)
			strbuf_addf(&t, ", %.0f%% CI %s, p %s (%s)", 100 * (1 - res->alpha), r.ci, r.p, r.test);
		if (*r.notes)
			strbuf_addf(&t, "; %s", r.notes);
		answer_row_release(&r);
		page_esc(pg, strbuf_str(&t));
		page_put(pg, "</span></li>");
	}
	page_put(pg, "</ul></div>\n");
	strbuf_release(&t);
}

static void metric_aside(struct page *pg, size_t i)
{
	const struct compare_result *res = pg->res;
	const struct compare_metric *cm = &res->metrics[i];

	page_put(pg, "<div class=\"bl\"><h4>screen (seed rule), per boot</h4></div><ul class=\"verdicts\">\n");
	for (size_t k = 0; k < res->n_sides; k++) {
		const struct compare_cell *c = &cm->cells[k];

		page_putf(pg, "<li><span class=\"who\"><span class=\"sw\" style=\"background:%s\"></span>", page_mode_color(pg, k));
		page_esc(pg, res->sides[k].label);
		page_putf(pg, "</span><span class=\"pill %s\"", page_verdict_class(c));
		page_verdict_attrs(pg, cm, k);
		page_put(pg, ">");
		page_put(pg, c->present ? page_verdict_label(c) : "missing");
		page_put(pg, "</span>");
		if (c->present && k > 0) {
			page_put(pg, "<span class=\"d\">delta ");
			page_cell_text(pg, report_add_delta, cm, c);
			if (c->verdict != VERDICT_DRIFT && c->verdict != VERDICT_NO_DRIFT) {
				struct strbuf t = STRBUF_INIT;

				page_put(pg, " vs drift ");
				page_cell_text(pg, report_add_drift, cm, c);
				report_add_p(&t, c->p);
				if (t.len) {
					page_put(pg, ", p ");
					page_esc(pg, strbuf_str(&t));
				}
				strbuf_release(&t);
			}
			page_put(pg, "</span>");
		} else if (k == 0) {
			page_put(pg, "<span class=\"d\">the yardstick</span>");
		}
		for (size_t j = 0; j < res->n_costs; j++) {
			if (res->costs[j].side != k)
				continue;
			struct strbuf words = STRBUF_INIT;

			report_cost_words(&words, &res->costs[j], false);
			page_put(pg, "<span class=\"cost\">cost: ");
			page_esc(pg, strbuf_str(&words));
			page_put(pg, "</span>");
			strbuf_release(&words);
		}
		for (size_t j = 0; j < res->found.n_found; j++) {
			if (res->found.found[j].side != k || res->found.found[j].gain)
				continue;
			page_put(pg, "<span class=\"cost\">cost found by bootab: ");
			page_esc(pg, res->found.found[j].text);
			page_put(pg, "</span>");
		}
		page_put(pg, "</li>\n");
	}
	page_put(pg, "</ul>\n");
	metric_boot_level(pg, cm);
}

void html_metric_figures(struct page *pg)
{
	const struct compare_result *res = pg->res;

	page_put(pg, "<section id=\"metrics\">\n<h2>Every boot, metric by metric</h2>\n<p class=\"note\">Dots: each boot's ");
	page_put(pg, "statistic, in campaign order and coloured by mode; small dots: every rep of the boot, in rep order "
		"(run-by-run rows: a grey line joins run i of every boot, the pairs they are compared in); bars: its "
		"within-boot spread (± one standard deviation of the reps); shaded band: the first side's value ± the "
		"drift measured by its repeat; dashed box (2×): twice the drift, which a delta must leave to count. "
		"Beside each chart: the screen's verdict per boot and, where a mode has two boots or the machine a "
		"history, the boot-level test of each mode with sigma_b, sigma_w and the boots it needs.</p>\n");
	for (size_t i = 0; i < res->n_metrics; i++) {
		const struct compare_metric *cm = &res->metrics[i];

		if (!page_metric_shown(res, cm))
			continue;
		page_put(pg, "<div class=\"figure\" id=\"");
		page_metric_anchor(pg, i);
		page_put(pg, "\"><div class=\"head\"><h3>");
		page_metric_heading(pg, cm);
		page_put(pg, "<span class=\"sub\">");
		page_metric_sub(pg, cm);
		page_put(pg, "</span></h3></div>\n<div class=\"plot\">");
		metric_chart(pg, i);
		page_put(pg, "</div>\n<div class=\"aside\">");
		metric_aside(pg, i);
		page_put(pg, "</div></div>\n");
	}
	page_put(pg, "<div class=\"legend\">");
	for (size_t k = 0; k < res->n_sides; k++) {
		size_t m = 0;

		for (; m < k; m++)
			if (pg->sides[m].mode_index == pg->sides[k].mode_index)
				break;
		if (m < k)
			continue;
		page_putf(pg, "<span><i style=\"background:%s\"></i>", page_mode_color(pg, k));
		page_esc(pg, res->sides[k].mode);
		page_put(pg, "</span>");
	}
	page_put(pg, "</div>\n</section>\n");
}

