#include "report/html.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "judge/kernels.h"
#include "kernel/iommu.h"
#include "lib/alloc.h"
#include "lib/parse-error.h"
#include "report/chart.h"
#include "report/headline.h"
#include "report/timeline.h"
#include "lib/version.h"

/* Colour-blind-safe mode colours (Okabe and Ito's palette, yellow left out: it fades on white). */
static const char *const mode_colors[] = {
	"#0072b2", "#e69f00", "#009e73", "#cc79a7", "#56b4e9", "#d55e00", "#555555", "#7a5195",
};
#define N_MODE_COLORS (sizeof(mode_colors) / sizeof(mode_colors[0]))

/* Bytes of the valid UTF-8 sequence at p (RFC 3629), 0 when it is not one. */
static size_t utf8_length(const unsigned char *p)
{
	if (p[0] < 0x80)
		return 1;
	if (p[0] >= 0xc2 && p[0] <= 0xdf)
		return (p[1] & 0xc0) == 0x80 ? 2 : 0;
	if (p[0] >= 0xe0 && p[0] <= 0xef) {
		unsigned char lo = p[0] == 0xe0 ? 0xa0 : 0x80, hi = p[0] == 0xed ? 0x9f : 0xbf;

		return p[1] >= lo && p[1] <= hi && (p[2] & 0xc0) == 0x80 ? 3 : 0;
	}
	if (p[0] >= 0xf0 && p[0] <= 0xf4) {
		unsigned char lo = p[0] == 0xf0 ? 0x90 : 0x80, hi = p[0] == 0xf4 ? 0x8f : 0xbf;

		return p[1] >= lo && p[1] <= hi && (p[2] & 0xc0) == 0x80 && (p[3] & 0xc0) == 0x80 ? 4 : 0;
	}
	return 0;
}

#define REPLACEMENT "\xef\xbf\xbd"

void html_escape(struct strbuf *sb, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	while (*p) {
		size_t n = utf8_length(p);

		if (n == 0) {
			strbuf_addstr(sb, REPLACEMENT);
			p++;
			continue;
		}
		if (n > 1) {
			/* C1 controls (U+0080 to U+009F) are not characters a page may hold. */
			if (p[0] == 0xc2 && p[1] < 0xa0)
				strbuf_addstr(sb, REPLACEMENT);
			else
				strbuf_add(sb, p, n);
			p += n;
			continue;
		}
		switch (*p) {
		case '&':
			strbuf_addstr(sb, "&amp;");
			break;
		case '<':
			strbuf_addstr(sb, "&lt;");
			break;
		case '>':
			strbuf_addstr(sb, "&gt;");
			break;
		case '"':
			strbuf_addstr(sb, "&quot;");
			break;
		case '\'':
			strbuf_addstr(sb, "&#39;");
			break;
		case '\t':
		case '\n':
		case '\r':
			strbuf_addch(sb, (char)*p);
			break;
		default:
			if (*p < 0x20 || *p == 0x7f)
				strbuf_addstr(sb, REPLACEMENT);
			else
				strbuf_addch(sb, (char)*p);
		}
		p++;
	}
}

/* What the page knows about one boot beyond its numbers: its meta.json. */
struct html_side {
	const json_t *meta;           /* the side's meta.json (borrowed); NULL when it has none */
	char *meta_problem;           /* why there is none, for the page */
	struct iommu_map iommu;
	bool has_iommu;
	struct timeline_lane lane;
	size_t mode_index;            /* colour */
};

struct page {
	struct strbuf *sb;
	const struct compare_result *res;
	const struct report_options *o;
	struct html_side *sides;
	size_t n_modes;
};

static void put(struct page *pg, const char *s)
{
	strbuf_addstr(pg->sb, s);
}

static void putf(struct page *pg, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void putf(struct page *pg, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(pg->sb, fmt, ap);
	va_end(ap);
}

static void esc(struct page *pg, const char *s)
{
	html_escape(pg->sb, s ? s : "");
}

static const char *mode_color(const struct page *pg, size_t k)
{
	return mode_colors[pg->sides[k].mode_index % N_MODE_COLORS];
}

static const char *meta_string(const struct html_side *s, const char *key)
{
	return s->meta ? json_string_value(json_object_get(s->meta, key)) : NULL;
}

/* The page's facts of one boot, from its meta.json as side_load() kept it. */
static void side_load_meta(const struct side *side, struct html_side *hs)
{
	hs->iommu = (struct iommu_map)IOMMU_MAP_INIT;
	if (side->meta_problem)
		hs->meta_problem = xstrdup(side->meta_problem);
	if (!side->meta)
		return;
	hs->meta = side->meta;
	{
		json_t *iommu = json_object_get(hs->meta, "iommu");
		struct parse_error err = PARSE_ERROR_INIT;

		if (json_is_object(iommu) &&
		    iommu_map_from_json(json_object_get(iommu, "groups"), &hs->iommu, &err) == 0) {
			iommu_map_sort(&hs->iommu);
			hs->has_iommu = true;
		}
		parse_error_release(&err);
	}
	timeline_lane_from_meta(hs->meta, &hs->lane);
}

static void sides_load(struct page *pg)
{
	const struct compare_result *res = pg->res;

	pg->sides = xcalloc(res->n_sides, sizeof(*pg->sides));
	for (size_t k = 0; k < res->n_sides; k++) {
		size_t m = 0;

		side_load_meta(&res->sides[k], &pg->sides[k]);
		/* Colours follow the order in which modes first appear. */
		for (; m < k; m++)
			if (!strcmp(res->sides[m].mode, res->sides[k].mode))
				break;
		if (m < k) {
			pg->sides[k].mode_index = pg->sides[m].mode_index;
		} else {
			pg->sides[k].mode_index = pg->n_modes++;
		}
	}
}

static void sides_release(struct page *pg)
{
	for (size_t k = 0; k < pg->res->n_sides; k++) {
		free(pg->sides[k].meta_problem);
		iommu_map_release(&pg->sides[k].iommu);
		timeline_lane_release(&pg->sides[k].lane);
	}
	free(pg->sides);
}

/* ---- verdicts ---- */

/* CSS class of a verdict: colour by what it means for the reader. */
static const char *verdict_class(const struct compare_cell *c)
{
	if (c->verdict == VERDICT_COUNTS && c->delta_pct < 0)
		return "v-loss";
	return verdict_text(c->verdict)->css;
}

/* The screen's verdict in the words of the text report (the verdict table's); the first side is the baseline. */
static const char *verdict_label(const struct compare_cell *c)
{
	return c->verdict == VERDICT_BASELINE ? "baseline" : report_verdict_words(c->verdict);
}

/* CSS class of a boot-level test's verdict: a claim is a gain or a loss by its sign. */
static const char *test_class(const struct compare_test *t)
{
	if (t->verdict == VERDICT_COUNTS && t->delta_pct < 0)
		return "v-loss";
	return verdict_text(t->verdict)->css;
}

static void test_attrs(struct page *pg, const struct compare_metric *cm, const struct compare_test *t)
{
	putf(pg, " data-test-verdict=\"%s\" data-row=\"", verdict_name(t->verdict));
	esc(pg, cm->row);
	put(pg, "\" data-metric=\"");
	esc(pg, cm->metric);
	put(pg, "\" data-mode=\"");
	esc(pg, t->mode);
	put(pg, "\"");
}

/* The colour of a mode: that of its first side. */
static const char *test_color(const struct page *pg, const struct compare_test *t)
{
	return mode_color(pg, t->side);
}

static void verdict_attrs(struct page *pg, const struct compare_metric *cm, size_t k)
{
	putf(pg, " data-verdict=\"%s\" data-row=\"", verdict_name(cm->cells[k].verdict));
	esc(pg, cm->row);
	put(pg, "\" data-metric=\"");
	esc(pg, cm->metric);
	put(pg, "\" data-side=\"");
	esc(pg, pg->res->sides[k].label);
	put(pg, "\"");
}

static bool metric_shown(const struct compare_result *res, const struct compare_metric *cm)
{
	for (size_t k = 0; k < res->n_sides; k++)
		if (cm->cells[k].present)
			return true;
	return false;
}

static void metric_anchor(struct page *pg, size_t i)
{
	putf(pg, "m%zu", i);
}

/* ---- header and summary ---- */

/* report.css, embedded at build time as report_css[]. */
#include "report-css.h"

static void page_head(struct page *pg)
{
	const char *title = pg->o->title ? pg->o->title : "comparison";

	put(pg, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
		"<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
		"<meta name=\"generator\" content=\"bootab " BOOTAB_VERSION "\">\n<title>bootab report: ");
	esc(pg, title);
	put(pg, "</title>\n<style>\n");
	put(pg, report_css);
	put(pg, "</style>\n</head>\n<body>\n");
}

static void page_header(struct page *pg)
{
	const struct compare_result *res = pg->res;
	const char *title = pg->o->title ? pg->o->title : "comparison";

	put(pg, "<header class=\"top\"><div class=\"in\">\n<h1>bootab report<small>");
	esc(pg, title);
	putf(pg, "</small></h1>\n<p>%zu boot%s, every one against <b>", res->n_sides, res->n_sides == 1 ? "" : "s");
	esc(pg, res->sides[0].label);
	put(pg, "</b>; + is better.</p>\n<div class=\"chips\" id=\"summary-counts\">");
	/* The boot-level test first where one ran; the seed rule is a screen. */
	if (res->n_tests)
		putf(pg, "<span class=\"chip v-gain\" data-summary=\"test_claims\"><b>%zu</b> claim%s of %zu boot-level tests</span>",
		     res->n_claims, res->n_claims == 1 ? "" : "s", res->n_tests);
	put(pg, "<span class=\"chip\">screen (seed rule):</span>");
	putf(pg, "<span class=\"chip v-gain\" data-summary=\"counts\"><b>%zu</b> count</span>"
		 "<span class=\"chip\" data-summary=\"within_noise\"><b>%zu</b> within noise</span>"
		 "<span class=\"chip v-loud\" data-summary=\"loud\"><b>%zu</b> loud</span>"
		 "<span class=\"chip\" data-summary=\"no_drift\"><b>%zu</b> without drift</span>",
	     res->n_counts, res->n_within_noise, res->n_loud, res->n_no_drift);
	if (res->n_costs)
		putf(pg, "<span class=\"chip v-loss\" data-summary=\"costs\"><b>%zu</b> failed check%s</span>",
		     res->n_costs, res->n_costs == 1 ? "" : "s");
	if (res->found.n_costs)
		putf(pg, "<span class=\"chip v-loss\" data-summary=\"found_costs\"><b>%zu</b> cost%s found by bootab</span>",
		     res->found.n_costs, res->found.n_costs == 1 ? "" : "s");
	put(pg, "</div>\n</div></header>\n<main>\n");
}

static void cell_text(struct page *pg, void (*fn)(struct strbuf *, const struct compare_metric *,
						  const struct compare_cell *),
		      const struct compare_metric *cm, const struct compare_cell *c)
{
	struct strbuf t = STRBUF_INIT;

	fn(&t, cm, c);
	esc(pg, strbuf_str(&t));
	strbuf_release(&t);
}

/* "row metric" with the row muted; a one-number row is named by the row alone. */
static void metric_heading(struct page *pg, const struct compare_metric *cm)
{
	if (!strcmp(cm->metric, "value")) {
		esc(pg, cm->row);
		return;
	}
	put(pg, "<span class=\"rowname\">");
	esc(pg, cm->row);
	put(pg, "</span> ");
	esc(pg, cm->metric);
}

static void metric_sub(struct page *pg, const struct compare_metric *cm)
{
	esc(pg, cm->unit);
	put(pg, *cm->unit ? ", " : "");
	for (size_t j = 0; j < cm->n_stats; j++)
		putf(pg, "%s%s", j == 0 ? "" : j + 1 == cm->n_stats ? " and " : ", ", stat_kind_name(cm->stats[j]));
	if (!cm->n_stats)
		put(pg, stat_kind_name(cm->stat));
	put(pg, cm->better == BETTER_LOWER ? ", lower is better" : ", higher is better");
	if (cm->by_run)
		put(pg, ", run by run");
}

/* The metric's other statistics (--stat mean,min) under a side's row: value, delta, drift, verdict each. */
static void stat_rows(struct page *pg, const struct compare_metric *cm, size_t k)
{
	const struct compare_cell *c = &cm->cells[k];

	for (size_t j = 1; j < cm->n_stats; j++) {
		const struct compare_stat *st = &c->stats[j];
		struct compare_cell as = { .present = true, .verdict = st->verdict, .delta_pct = st->delta_pct };
		struct strbuf t = STRBUF_INIT;

		putf(pg, "<tr class=\"stat\"><td>&nbsp;&nbsp;%s</td><td class=\"num\">", stat_kind_name(cm->stats[j]));
		if (st->value > 0)
			report_add_value(&t, st->value, c->value);
		else
			strbuf_addstr(&t, "-");
		esc(pg, strbuf_str(&t));
		put(pg, "</td><td></td><td></td><td></td><td class=\"num\">");
		strbuf_truncate(&t, 0);
		if (!isnan(st->delta_pct))
			strbuf_addf(&t, "%+.1f%%", st->delta_pct);
		esc(pg, strbuf_str(&t));
		put(pg, "</td><td class=\"num\">");
		strbuf_truncate(&t, 0);
		if (!isnan(st->drift_pct) && st->verdict != VERDICT_DRIFT && st->verdict != VERDICT_MISSING)
			strbuf_addf(&t, "%+.1f%%", st->drift_pct);
		esc(pg, strbuf_str(&t));
		put(pg, "</td><td class=\"num\">");
		strbuf_truncate(&t, 0);
		report_add_q(&t, st->q);
		esc(pg, strbuf_str(&t));
		put(pg, "</td><td class=\"num\">");
		strbuf_truncate(&t, 0);
		report_add_p(&t, st->p);
		esc(pg, strbuf_str(&t));
		putf(pg, "</td><td class=\"verdict %s\" data-stat=\"%s\" data-stat-verdict=\"%s\">%s</td></tr>\n",
		     verdict_class(&as), stat_kind_name(cm->stats[j]), verdict_name(st->verdict),
		     k == 0 ? "" : report_verdict_words(st->verdict));
		strbuf_release(&t);
	}
}

static void summary_table(struct page *pg)
{
	const struct compare_result *res = pg->res;

	put(pg, "<section id=\"summary\">\n<h2>Summary</h2>\n");
	if (res->n_repeats == 0) {
		put(pg, "<div class=\"callout\">No repeat of <b>");
		esc(pg, res->sides[0].label);
		put(pg, "</b>: no drift was measured, nothing is judged.</div>\n");
	}
	for (size_t i = 0; i < res->n_versions; i++) {
		const struct compare_version *v = &res->versions[i];

		put(pg, "<div class=\"callout\">Versions differ: <code>");
		esc(pg, v->name);
		put(pg, "</code>:");
		for (size_t k = 0; k < res->n_sides; k++) {
			put(pg, " ");
			esc(pg, res->sides[k].label);
			put(pg, "=<code>");
			esc(pg, v->values[k] ? v->values[k] : "(not recorded)");
			put(pg, "</code>");
		}
		put(pg, "</div>\n");
	}
	put(pg, "<div class=\"scroll\"><table class=\"summary\">\n<thead><tr><th>side</th><th class=\"num\">value</th>"
		"<th class=\"num\">± spread</th><th class=\"num\">spread</th><th class=\"num\">n</th>"
		"<th class=\"num\">delta</th><th class=\"num\">drift</th><th class=\"num\">q</th><th class=\"num\">p</th>"
		"<th>screen</th></tr></thead>\n");
	for (size_t i = 0; i < res->n_metrics; i++) {
		const struct compare_metric *cm = &res->metrics[i];

		if (!metric_shown(res, cm))
			continue;
		put(pg, "<tbody class=\"metric\"><tr class=\"head\"><td colspan=\"10\"><a href=\"#");
		metric_anchor(pg, i);
		put(pg, "\">");
		metric_heading(pg, cm);
		put(pg, "</a><span class=\"sub\">");
		metric_sub(pg, cm);
		put(pg, "</span></td></tr>\n");
		for (size_t k = 0; k < res->n_sides; k++) {
			const struct compare_cell *c = &cm->cells[k];
			struct strbuf t = STRBUF_INIT;

			putf(pg, "<tr><td><span class=\"sw\" style=\"background:%s\"></span>", mode_color(pg, k));
			esc(pg, res->sides[k].label);
			put(pg, "</td>");
			if (!c->present) {
				put(pg, "<td class=\"num\">-</td><td></td><td></td><td></td><td></td><td></td><td></td><td></td>");
			} else {
				report_add_value(&t, c->value, c->value);
				put(pg, "<td class=\"num\">");
				esc(pg, strbuf_str(&t));
				strbuf_truncate(&t, 0);
				report_add_value(&t, c->spread, c->value);
				put(pg, "</td><td class=\"num\">± ");
				esc(pg, strbuf_str(&t));
				put(pg, "</td><td class=\"num\">");
				if (!isnan(c->spread_pct))
					putf(pg, "%.1f%%", c->spread_pct);
				putf(pg, "</td><td class=\"num\">%zu</td><td class=\"num\">", c->n);
				cell_text(pg, report_add_delta, cm, c);
				put(pg, "</td><td class=\"num\">");
				cell_text(pg, report_add_drift, cm, c);
				strbuf_truncate(&t, 0);
				report_add_q(&t, c->q);
				put(pg, "</td><td class=\"num\">");
				esc(pg, strbuf_str(&t));
				strbuf_truncate(&t, 0);
				report_add_p(&t, c->p);
				put(pg, "</td><td class=\"num\">");
				esc(pg, strbuf_str(&t));
				put(pg, "</td>");
			}
			putf(pg, "<td class=\"verdict %s\"", verdict_class(c));
			verdict_attrs(pg, cm, k);
			put(pg, ">");
			put(pg, c->present ? report_verdict_words(c->verdict) : "missing");
			if (c->present && c->pairs >= 2)
				putf(pg, "; sign agrees in %zu of %zu pairs", c->pairs_agree, c->pairs);
			put(pg, "</td></tr>\n");
			strbuf_release(&t);
			if (c->present)
				stat_rows(pg, cm, k);
		}
		put(pg, "</tbody>\n");
	}
	put(pg, "</table></div>\n</section>\n");
}

/* ---- the headline: the answer first, as every report opens ---- */

static void headline_section(struct page *pg)
{
	const struct compare_result *res = pg->res;
	struct headline h;

	headline_build(res, &h);
	put(pg, "<section id=\"headline\">\n<h2>The answer</h2>\n");
	if (h.all_one_mode) {
		put(pg, "<p class=\"hl\" data-null=\"aa\">Every side is ");
		esc(pg, res->sides[0].mode);
		put(pg, ": an A/A campaign; nothing to compare, its boots measure the machine's noise floor.</p>\n");
	}
	for (size_t i = 0; i < h.n_lines; i++) {
		const struct headline_line *l = &h.lines[i];
		size_t n_gain = 0, n_loss = 0, n_cost = 0, prefix = strlen(l->mode) + strlen(" vs ") + strlen(l->first_mode) + 2;
		const char *rest = l->text;

		for (size_t j = 0; j < l->n_items; j++) {
			const struct headline_item *it = &l->items[j];

			n_cost += it->kind == HEADLINE_COST;
			n_gain += it->kind == HEADLINE_CLAIM && it->delta_pct >= 0;
			n_loss += it->kind == HEADLINE_CLAIM && it->delta_pct < 0;
		}
		/* The line's text is "MODE vs FIRST: ..."; the names are set apart. */
		if (strlen(l->text) >= prefix && !strncmp(l->text, l->mode, strlen(l->mode)))
			rest = l->text + prefix;
		putf(pg, "<p class=\"hl%s%s\" data-null=\"%s\" data-mode=\"", n_gain ? " gain" : "",
		     n_loss || n_cost ? " loss" : "", headline_null_name(l->null));
		esc(pg, l->mode);
		putf(pg, "\" data-claims=\"%zu\" data-costs=\"%zu\"><span class=\"sw\" style=\"background:%s\"></span>"
			 "<span class=\"hm\">", n_gain + n_loss, n_cost, mode_color(pg, l->side));
		if (rest != l->text) {
			esc(pg, l->mode);
			put(pg, " vs ");
			esc(pg, l->first_mode);
			put(pg, ":</span> ");
		} else {
			put(pg, "</span>");
		}
		esc(pg, rest);
		put(pg, "</p>\n");
	}
	put(pg, "<p class=\"note\">The headline of report.txt: for each mode, every metric whose decisive verdict moved "
		"(the boot-level test's where one ran, else the screen's, as each item says), the checks that failed, or "
		"what no difference means.</p>\n</section>\n");
	headline_release(&h);
}

/* ---- the forest plot: every boot-level result on one % axis ---- */

/* Where v sits on the forest's axis, in % of the strip's width (2 % kept clear at each end). */
static double forest_x(const struct chart_axis *axis, double v)
{
	return chart_axis_map(axis, v, 2, 98);
}

static void forest_number(struct page *pg, const char *attr, double pct)
{
	putf(pg, " %s=\"%.2f%%\"", attr, pct);
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
		put(pg, "<text");
		forest_number(pg, "x", forest_x(axis, v));
		putf(pg, " y=\"15\" text-anchor=\"%s\">%s", t == 0 ? "start" : t + 1 == axis->n_ticks ? "end" : "middle",
		     v > 0 ? "+" : "");
		esc(pg, strbuf_str(&label));
		put(pg, "%</text>");
		strbuf_release(&label);
	}
}

/* The forest's line of test ct of metric cm (the i-th): the estimate, its CI and margin, the verdict. */
static void forest_row(struct page *pg, size_t i, const struct compare_metric *cm, const struct compare_test *ct,
		       const struct chart_axis *axis)
{
	const char *color = test_color(pg, ct);
	bool ci = ct->method != METHOD_NONE && isfinite(ct->lo_pct) && isfinite(ct->hi_pct);
	struct strbuf w = STRBUF_INIT;
	char *title = report_metric_title(cm);

	put(pg, "<div class=\"fr\"");
	test_attrs(pg, cm, ct);
	put(pg, "><div class=\"fl\"><a href=\"#");
	metric_anchor(pg, i);
	put(pg, "\">");
	metric_heading(pg, cm);
	putf(pg, "</a> <span class=\"fm\"><span class=\"sw\" style=\"background:%s\"></span>", color);
	esc(pg, ct->mode);
	put(pg, "</span></div><svg class=\"fp\" height=\"26\" role=\"img\" aria-label=\"");
	esc(pg, title);
	put(pg, ", ");
	esc(pg, ct->mode);
	put(pg, "\">");
	if (ct->has_equivalence && cm->margin_pct > 0) {
		double a = forest_x(axis, -cm->margin_pct), b = forest_x(axis, cm->margin_pct);

		put(pg, "<rect class=\"margin\"");
		forest_number(pg, "x", a);
		forest_number(pg, "width", b - a);
		putf(pg, " y=\"2\" height=\"22\"><title>equivalence margin ±%g%%</title></rect>", cm->margin_pct);
	}
	put(pg, "<line class=\"zero\"");
	forest_number(pg, "x1", forest_x(axis, 0));
	forest_number(pg, "x2", forest_x(axis, 0));
	put(pg, " y1=\"0\" y2=\"26\"/>");
	if (ci) {
		double a = forest_x(axis, ct->lo_pct), b = forest_x(axis, ct->hi_pct);

		putf(pg, "<line class=\"ci\" stroke=\"%s\"", color);
		forest_number(pg, "x1", a);
		forest_number(pg, "x2", b);
		putf(pg, " y1=\"13\" y2=\"13\"/><line class=\"ci\" stroke=\"%s\"", color);
		forest_number(pg, "x1", a);
		forest_number(pg, "x2", a);
		putf(pg, " y1=\"7\" y2=\"19\"/><line class=\"ci\" stroke=\"%s\"", color);
		forest_number(pg, "x1", b);
		forest_number(pg, "x2", b);
		put(pg, " y1=\"7\" y2=\"19\"/>");
	}
	if (isfinite(ct->delta_pct)) {
		/* Hollow: an estimate no test bounds. */
		putf(pg, "<circle class=\"est%s\" stroke=\"%s\" fill=\"%s\"", ci ? "" : " open", color,
		     ci ? color : "#fff");
		forest_number(pg, "cx", forest_x(axis, ct->delta_pct));
		put(pg, " cy=\"13\" r=\"5\"/>");
	}
	put(pg, "</svg><div class=\"fv\"><span class=\"fd\">");
	strbuf_addf(&w, "%+.1f%%", ct->delta_pct);
	if (ci)
		strbuf_addf(&w, " [%+.1f, %+.1f]", ct->lo_pct, ct->hi_pct);
	esc(pg, strbuf_str(&w));
	strbuf_truncate(&w, 0);
	report_add_test_verdict(&w, cm, ct);
	putf(pg, "</span> <span class=\"pill %s\">", test_class(ct));
	esc(pg, strbuf_str(&w));
	put(pg, "</span>");
	if (ct->verdict == VERDICT_COUNTS && !ct->survives)
		put(pg, " <span class=\"note\">not after FDR</span>");
	put(pg, "</div></div>\n");
	strbuf_release(&w);
	free(title);
}

static void forest_section(struct page *pg)
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
	put(pg, "<section id=\"forest\">\n<h2>Every mode against ");
	esc(pg, res->sides[0].mode);
	put(pg, ", metric by metric</h2>\n");
	if (n_rows == 0) {
		put(pg, "<p class=\"note\">No boot-level result: no mode has two boots, and the machine has no history "
			"(a repeat of the first side, more rounds, or a recorded A/A campaign make one).</p>\n</section>\n");
		return;
	}
	if (chart_axis_nice(lo, hi, 6, &axis) < 0)
		axis = (struct chart_axis){ .lo = -1, .hi = 1, .step = 1, .n_ticks = 3 };
	putf(pg, "<div class=\"forest\" data-rows=\"%zu\">\n<div class=\"fr axis\"><div class=\"fl\"></div>"
		 "<svg class=\"fp\" height=\"22\" aria-hidden=\"true\">", n_rows);
	forest_ticks(pg, &axis);
	put(pg, "</svg><div class=\"fv note\">estimate [CI], verdict</div></div>\n");
	for (size_t i = 0; i < res->n_metrics; i++)
		for (size_t t = 0; forest_metric(&res->metrics[i]) && t < res->metrics[i].n_tests; t++)
			forest_row(pg, i, &res->metrics[i], &res->metrics[i].tests[t], &axis);
	put(pg, "</div>\n<p class=\"note\">Each line: a mode's boot-level delta against ");
	esc(pg, res->sides[0].mode);
	putf(pg, " (+ is better), the mean of its boot means in logs, with its %.0f%% confidence interval; a hollow "
		 "dot is an estimate that no test bounds (one boot of a mode and no history). Shaded: the equivalence "
		 "margin, where one is set. The verdicts are those of the text report's boot-level tables.</p>\n"
		 "</section>\n", 100 * (1 - res->alpha));
}

/* ---- gains and costs ---- */

/* Side k's claims of the boot-level test (they stand on its mode's first side), as the text words them. */
static void gc_claims(struct page *pg, size_t k)
{
	const struct compare_result *res = pg->res;

	/* The test stands on its mode's first side: the claims of its CI, as the text words them. */
	size_t n_claim = 0, n_tested = 0, n_tests = 0;

	for (size_t i = 0; i < res->n_metrics; i++) {
		const struct compare_metric *cm = &res->metrics[i];

		for (size_t t = 0; t < cm->n_tests; t++) {
			const struct compare_test *ct = &cm->tests[t];
			struct strbuf w = STRBUF_INIT;
			char *title;

			if (ct->side != k)
				continue;
			n_tests++;
			n_tested += ct->method != METHOD_NONE;
			if (ct->verdict != VERDICT_COUNTS)
				continue;
			title = report_metric_title(cm);
			strbuf_addf(&w, "%+.1f%% [%+.1f, %+.1f] ", ct->delta_pct, ct->lo_pct, ct->hi_pct);
			putf(pg, "%s<span class=\"%s\">", n_claim++ ? "<br>" : "", ct->delta_pct >= 0 ? "g" : "l");
			esc(pg, strbuf_str(&w));
			put(pg, "</span>");
			esc(pg, title);
			if (!ct->survives)
				put(pg, " <span class=\"note\">(does not survive FDR)</span>");
			free(title);
			strbuf_release(&w);
		}
	}
	if (n_claim == 0)
		put(pg, k == 0 ? "<span class=\"note\">first side</span>"
			       : n_tested ? "none" : n_tests ? "<span class=\"note\">not tested</span>" : "-");
}

/* Side k's deltas the screen counts, the better ones then the worse ones: a cell each. */
static void gc_screen(struct page *pg, size_t k)
{
	const struct compare_result *res = pg->res;
	size_t n_gain = 0, n_loss = 0;

	for (int want_gain = 1; want_gain >= 0; want_gain--) {
		size_t *count = want_gain ? &n_gain : &n_loss;

		put(pg, "<td class=\"wrap\">");
		for (size_t i = 0; i < res->n_metrics; i++) {
			const struct compare_metric *cm = &res->metrics[i];
			const struct compare_cell *c = &cm->cells[k];
			char *title;

			if (c->verdict != VERDICT_COUNTS || (c->delta_pct >= 0) != (want_gain == 1))
				continue;
			title = report_metric_title(cm);
			putf(pg, "%s<span class=\"%s\">", (*count)++ ? "<br>" : "", want_gain ? "g" : "l");
			cell_text(pg, report_add_delta, cm, c);
			put(pg, "</span> ");
			esc(pg, title);
			free(title);
		}
		if (*count == 0)
			put(pg, k == 0 ? "<span class=\"note\">first side</span>" : "-");
		put(pg, "</td>");
	}
}

/* Side k's costs: the checks that failed, then what bootab found it lost (or gained): a cell each. */
static void gc_costs(struct page *pg, size_t k)
{
	const struct compare_result *res = pg->res;
	size_t n_cost = 0;

	put(pg, "<td class=\"wrap\">");
	for (size_t i = 0; i < res->n_costs; i++) {
		const struct compare_cost *c = &res->costs[i];

		if (c->side != k)
			continue;
		struct strbuf words = STRBUF_INIT;

		put(pg, n_cost++ ? "<br>" : "");
		put(pg, "<span class=\"c\">");
		if (c->has_tests) {
			report_cost_words(&words, c, k != 0);
			esc(pg, strbuf_str(&words));
			put(pg, "</span>");
		} else {
			esc(pg, c->row);
			putf(pg, " failed, rc=%d</span>", c->rc);
			if (k != 0 && c->fails_on_first)
				put(pg, " (fails on the first side too)");
		}
		strbuf_release(&words);
	}
	if (n_cost == 0)
		put(pg, "none");
	put(pg, "</td><td class=\"wrap\">");
	n_cost = 0;
	for (size_t i = 0; i < res->found.n_found; i++) {
		const struct found *f = &res->found.found[i];

		if (f->side != k)
			continue;
		put(pg, n_cost++ ? "<br>" : "");
		putf(pg, "<span class=\"%s\" data-found=\"%s\" data-side=\"", f->gain ? "g" : "c",
		     found_kind_name(f->kind));
		esc(pg, res->sides[k].label);
		put(pg, "\">");
		put(pg, f->gain ? "gain: " : "cost: ");
		esc(pg, f->text);
		put(pg, "</span>");
	}
	if (n_cost == 0)
		put(pg, !strcmp(res->sides[k].mode, res->sides[0].mode) ? "<span class=\"note\">baseline</span>"
			: res->found.judged[k] ? "none" : "<span class=\"note\">not recorded</span>");
}

static void gains_and_costs(struct page *pg)
{
	const struct compare_result *res = pg->res;

	put(pg, "<section id=\"gains-costs\">\n<h2>Gains and costs</h2>\n<div class=\"scroll\"><table class=\"gc\">\n"
		"<thead><tr><th>side</th><th>mode</th><th>boot-level test: claims</th><th>screen: counts, better</th>"
		"<th>screen: counts, worse</th><th>costs (failed checks)</th><th>costs found by bootab</th></tr></thead>\n<tbody>\n");
	for (size_t k = 0; k < res->n_sides; k++) {
		putf(pg, "<tr data-side=\"");
		esc(pg, res->sides[k].label);
		putf(pg, "\"><td><span class=\"sw\" style=\"background:%s\"></span><b>", mode_color(pg, k));
		esc(pg, res->sides[k].label);
		put(pg, "</b></td><td>");
		esc(pg, res->sides[k].mode);
		put(pg, "</td><td class=\"wrap\">");
		gc_claims(pg, k);
		put(pg, "</td>");
		gc_screen(pg, k);
		gc_costs(pg, k);
		put(pg, "</td></tr>\n");
	}
	putf(pg, "</tbody></table></div>\n<p class=\"note\">A claim of the boot-level test is a %.0f%% CI of the mode's "
		 "boot means that excludes 0 (the forest plot above); the screen (seed rule) lists a delta that is at "
		 "least twice the drift and above the first side's spread: a screen, not a test. ",
	     100 * (1 - res->alpha));
	put(pg, "A cost found by bootab is what a side "
		"lost against every boot of ");
	esc(pg, res->sides[0].mode);
	put(pg, " (");
	esc(pg, res->found.baseline);
	put(pg, "): a device's driver, a device node, a network interface, a kernel error or warning line none of "
		"them printed, a failed unit.");
	if (res->found.noise_klog || res->found.noise_devices || res->found.noise_units)
		putf(pg, " The boots of the first mode differ among themselves in %zu kernel line%s, %zu device%s and "
			 "%zu failed unit%s: noise, blamed on no mode.",
		     res->found.noise_klog, res->found.noise_klog == 1 ? "" : "s", res->found.noise_devices,
		     res->found.noise_devices == 1 ? "" : "s", res->found.noise_units,
		     res->found.noise_units == 1 ? "" : "s");
	if (res->found.n_ignored)
		putf(pg, " %zu finding%s matched an ignore pattern.", res->found.n_ignored,
		     res->found.n_ignored == 1 ? "" : "s");
	put(pg, "</p>\n</section>\n");
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
	putf(pg, " %s=\"%.1f\"", attr, v);
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
		putf(pg, "<line class=\"grid\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\"/>", fr->x0, fr->x1, y, y);
		putf(pg, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\" dominant-baseline=\"middle\">", fr->x0 - 8, y);
		esc(pg, strbuf_str(&label));
		put(pg, "</text>\n");
		strbuf_release(&label);
	}
	putf(pg, "<line class=\"axis\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\"/>\n", fr->x0, fr->x1, fr->y0, fr->y0);
	putf(pg, "<text class=\"dir\" x=\"%.1f\" y=\"12\" text-anchor=\"start\">", fr->x0 - 52);
	esc(pg, cm->unit);
	put(pg, cm->better == BETTER_LOWER ? " · lower is better ↓</text>\n" : " · higher is better ↑</text>\n");
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

		putf(pg, "<rect class=\"band2\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\"><title>2 × drift: "
			 "a delta must leave this to count</title></rect>\n", fr->x0, y2a, fr->x1 - fr->x0, y2b - y2a);
		putf(pg, "<rect class=\"band\" data-drift=\"%.4f\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\">"
			 "<title>drift ±%.1f%%: the first side against its repeat</title></rect>\n",
		     f * 100, fr->x0, ya, fr->x1 - fr->x0, yb - ya, f * 100);
		/* Labels in the right margin, clear of the boots; pushed apart when the band is thin. */
		putf(pg, "<text class=\"bandlab\" x=\"%.1f\" y=\"%.1f\" dominant-baseline=\"middle\">±%.1f%%</text>\n",
		     fr->x1 + 6, fmin(ya, (ya + yb) / 2 - 7), f * 100);
		putf(pg, "<text class=\"bandlab\" x=\"%.1f\" y=\"%.1f\" dominant-baseline=\"middle\">2×</text>\n",
		     fr->x1 + 6, fmin(y2a, (ya + yb) / 2 - 21));
	}
	if (base->present) {
		double yb = chart_axis_map(&fr->axis, base->value, fr->y0, fr->y1);

		putf(pg, "<line class=\"base\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\"/>\n", fr->x0, fr->x1, yb, yb);
		putf(pg, "<text class=\"bandlab\" x=\"%.1f\" y=\"%.1f\" dominant-baseline=\"middle\">", fr->x1 + 6, yb + 1);
		esc(pg, pg->res->sides[0].label);
		put(pg, "</text>\n");
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

			putf(pg, "<path class=\"run\" data-run=\"%zu\" d=\"", n + 1);
			for (size_t k = 0; k < res->n_sides; k++) {
				const struct metric *m = cm->cells[k].present ? compare_side_metric(res, cm, k) : NULL;
				double x = chart_slot_center(k, res->n_sides, fr->x0, fr->x1);
				double w = (fr->x1 - fr->x0) / (double)res->n_sides * 0.5;

				if (!m || n >= m->n_samples)
					continue;
				putf(pg, "%s%.1f %.1f", drawn++ ? " L" : "M", x - w / 2 + w * ((double)n + 0.5) / (double)max_runs,
				     chart_axis_map(&fr->axis, m->samples[n], fr->y0, fr->y1));
			}
			putf(pg, "\"><title>run %zu of every boot</title></path>\n", n + 1);
		}
	for (size_t k = 0; k < res->n_sides; k++) {
		const struct metric *m = cm->cells[k].present ? compare_side_metric(res, cm, k) : NULL;
		double x = chart_slot_center(k, res->n_sides, fr->x0, fr->x1);
		double w = (fr->x1 - fr->x0) / (double)res->n_sides * 0.5;
		size_t across = cm->by_run ? max_runs : (m ? m->n_samples : 0);

		for (size_t n = 0; m && n < m->n_samples; n++) {
			struct strbuf v = STRBUF_INIT;

			report_add_value(&v, m->samples[n], cm->cells[k].value);
			putf(pg, "<circle class=\"rep\" data-side=\"");
			esc(pg, res->sides[k].label);
			putf(pg, "\" cx=\"%.1f\" cy=\"%.1f\" r=\"2.8\" fill=\"%s\"><title>", x - w / 2 + w * ((double)n + 0.5) / (double)across,
			     chart_axis_map(&fr->axis, m->samples[n], fr->y0, fr->y1), mode_color(pg, k));
			esc(pg, res->sides[k].label);
			putf(pg, cm->by_run ? " run %zu: " : " rep %zu: ", n + 1);
			esc(pg, strbuf_str(&v));
			put(pg, "</title></circle>");
			strbuf_release(&v);
		}
		put(pg, m ? "\n" : "");
	}
}

/* One slot per boot, in campaign order: its label, value and spread, its delta. */
static void metric_chart_slots(struct page *pg, const struct compare_metric *cm, const struct chart_frame *fr)
{
	const struct compare_result *res = pg->res;

	for (size_t k = 0; k < res->n_sides; k++) {
		const struct compare_cell *c = &cm->cells[k];
		double x = chart_slot_center(k, res->n_sides, fr->x0, fr->x1);
		const char *color = mode_color(pg, k);
		struct strbuf v = STRBUF_INIT;

		putf(pg, "<text class=\"lab\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">", x, fr->y0 + 18);
		esc(pg, res->sides[k].label);
		put(pg, "</text>");
		if (!c->present) {
			putf(pg, "<text class=\"val\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">no value</text>\n", x,
			     fr->y0 + 34);
			continue;
		}
		report_add_value(&v, c->value, c->value);
		strbuf_addstr(&v, " ± ");
		report_add_value(&v, c->spread, c->value);
		putf(pg, "<text class=\"val\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">", x, fr->y0 + 34);
		if (k == 0)
			put(pg, "first side");
		else
			cell_text(pg, report_add_delta, cm, c);
		put(pg, "</text>\n<g>");
		if (!isnan(c->spread) && c->spread > 0) {
			double ya = chart_axis_map(&fr->axis, c->value + c->spread, fr->y0, fr->y1);
			double yb = chart_axis_map(&fr->axis, c->value - c->spread, fr->y0, fr->y1);

			putf(pg, "<line class=\"bar\" stroke=\"%s\"", color);
			chart_num(pg, "x1", x);
			chart_num(pg, "x2", x);
			chart_num(pg, "y1", ya);
			chart_num(pg, "y2", yb);
			putf(pg, "/><line class=\"bar\" stroke=\"%s\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\"/>"
				 "<line class=\"bar\" stroke=\"%s\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\"/>",
			     color, x - 7, x + 7, ya, ya, color, x - 7, x + 7, yb, yb);
		}
		putf(pg, "<circle class=\"pt\" data-side=\"");
		esc(pg, res->sides[k].label);
		putf(pg, "\" cx=\"%.1f\" cy=\"%.1f\" r=\"6\" fill=\"%s\"><title>", x,
		     chart_axis_map(&fr->axis, c->value, fr->y0, fr->y1), color);
		esc(pg, res->sides[k].label);
		put(pg, " (");
		esc(pg, res->sides[k].mode);
		put(pg, "): ");
		esc(pg, strbuf_str(&v));
		putf(pg, ", n=%zu</title></circle></g>\n", c->n);
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
	put(pg, "<svg class=\"chart\" viewBox=\"0 0 640 270\" role=\"img\" data-metric=\"");
	esc(pg, cm->row);
	put(pg, " ");
	esc(pg, cm->metric);
	putf(pg, "\" data-points=\"%zu\" data-reps=\"%zu\" aria-label=\"", n_points, n_reps);
	esc(pg, title);
	put(pg, ": every boot's value and within-boot spread\"><title>");
	esc(pg, title);
	put(pg, "</title>\n");
	free(title);

	metric_chart_grid(pg, cm, &fr);
	metric_chart_band(pg, cm, f, &fr);
	metric_chart_reps(pg, cm, &fr);
	metric_chart_slots(pg, cm, &fr);
	put(pg, "</svg>\n");
}

/* The metric's boot-level numbers beside its chart, worded as the text report's boot-level table. */
static void metric_boot_level(struct page *pg, const struct compare_metric *cm)
{
	const struct compare_result *res = pg->res;
	struct strbuf t = STRBUF_INIT;

	if (!cm->has_components && !cm->has_history)
		return;
	put(pg, "<div class=\"bl\" data-boot-level=\"");
	esc(pg, cm->row);
	put(pg, " ");
	esc(pg, cm->metric);
	put(pg, "\"><h4>boot level</h4><span class=\"d\" data-sigma>sigma_b ");
	report_add_sd_pct(&t, cm->components.sigma_b2);
	strbuf_addstr(&t, ", sigma_w ");
	report_add_sd_pct(&t, cm->components.sigma_w2);
	strbuf_addstr(&t, ", ICC ");
	if (isnan(cm->components.icc))
		strbuf_addstr(&t, "-");
	else
		strbuf_addf(&t, "%.2f", cm->components.icc);
	strbuf_addf(&t, " over %zu boots, %zu reps", cm->components.boots, cm->components.samples);
	esc(pg, strbuf_str(&t));
	put(pg, "</span>");
	if (cm->has_history) {
		strbuf_truncate(&t, 0);
		strbuf_addf(&t, "history: %zu entries, %.0f df, boot-to-boot sd ", cm->history.entries, cm->history.df);
		report_add_sd_pct(&t, cm->history.var);
		if (cm->history.unusual)
			strbuf_addstr(&t, "; this campaign is unusual: check the machine");
		if (cm->history.drift)
			strbuf_addstr(&t, "; not used: this campaign's boots vary more than it predicts");
		put(pg, "<br><span class=\"d\">");
		esc(pg, strbuf_str(&t));
		put(pg, "</span>");
	}
	put(pg, "<ul>");
	for (size_t j = 0; j < cm->n_tests; j++) {
		const struct compare_test *ct = &cm->tests[j];

		putf(pg, "<li><span class=\"who\"><span class=\"sw\" style=\"background:%s\"></span>", test_color(pg, ct));
		esc(pg, ct->mode);
		putf(pg, "</span> <span class=\"pill %s\"", test_class(ct));
		test_attrs(pg, cm, ct);
		put(pg, ">");
		strbuf_truncate(&t, 0);
		report_add_test_verdict(&t, cm, ct);
		esc(pg, strbuf_str(&t));
		put(pg, "</span><br><span class=\"d\">");
		strbuf_truncate(&t, 0);
		strbuf_addf(&t, "%zu/%zu boots, delta %+.1f%%", ct->boots, ct->boots_first, ct->delta_pct);
		if (ct->method != METHOD_NONE) {
			strbuf_addf(&t, ", %.0f%% CI %+.1f to %+.1f%%, p ", 100 * (1 - res->alpha), ct->lo_pct, ct->hi_pct);
			report_add_p(&t, ct->test.p);
			strbuf_addf(&t, " (%s t, df %.0f)", ct->method == METHOD_HISTORY ? "history" : "boot", ct->test.df);
		}
		{
			struct strbuf notes = STRBUF_INIT;

			report_add_test_notes(&notes, res, cm, ct);
			if (notes.len)
				strbuf_addf(&t, "; %s", strbuf_str(&notes));
			strbuf_release(&notes);
		}
		esc(pg, strbuf_str(&t));
		put(pg, "</span></li>");
	}
	put(pg, "</ul></div>\n");
	strbuf_release(&t);
}

static void metric_aside(struct page *pg, size_t i)
{
	const struct compare_result *res = pg->res;
	const struct compare_metric *cm = &res->metrics[i];

	put(pg, "<div class=\"bl\"><h4>screen (seed rule), per boot</h4></div><ul class=\"verdicts\">\n");
	for (size_t k = 0; k < res->n_sides; k++) {
		const struct compare_cell *c = &cm->cells[k];

		putf(pg, "<li><span class=\"who\"><span class=\"sw\" style=\"background:%s\"></span>", mode_color(pg, k));
		esc(pg, res->sides[k].label);
		putf(pg, "</span><span class=\"pill %s\"", verdict_class(c));
		verdict_attrs(pg, cm, k);
		put(pg, ">");
		put(pg, c->present ? verdict_label(c) : "missing");
		put(pg, "</span>");
		if (c->present && k > 0) {
			put(pg, "<span class=\"d\">delta ");
			cell_text(pg, report_add_delta, cm, c);
			if (c->verdict != VERDICT_DRIFT && c->verdict != VERDICT_NO_DRIFT) {
				struct strbuf t = STRBUF_INIT;

				put(pg, " vs drift ");
				cell_text(pg, report_add_drift, cm, c);
				report_add_p(&t, c->p);
				if (t.len) {
					put(pg, ", p ");
					esc(pg, strbuf_str(&t));
				}
				strbuf_release(&t);
			}
			put(pg, "</span>");
		} else if (k == 0) {
			put(pg, "<span class=\"d\">the yardstick</span>");
		}
		for (size_t j = 0; j < res->n_costs; j++) {
			if (res->costs[j].side != k)
				continue;
			struct strbuf words = STRBUF_INIT;

			report_cost_words(&words, &res->costs[j], false);
			put(pg, "<span class=\"cost\">cost: ");
			esc(pg, strbuf_str(&words));
			put(pg, "</span>");
			strbuf_release(&words);
		}
		for (size_t j = 0; j < res->found.n_found; j++) {
			if (res->found.found[j].side != k || res->found.found[j].gain)
				continue;
			put(pg, "<span class=\"cost\">cost found by bootab: ");
			esc(pg, res->found.found[j].text);
			put(pg, "</span>");
		}
		put(pg, "</li>\n");
	}
	put(pg, "</ul>\n");
	metric_boot_level(pg, cm);
}

static void metric_figures(struct page *pg)
{
	const struct compare_result *res = pg->res;

	put(pg, "<section id=\"metrics\">\n<h2>Every boot, metric by metric</h2>\n<p class=\"note\">Dots: each boot's ");
	put(pg, "statistic, in campaign order and coloured by mode; small dots: every rep of the boot, in rep order "
		"(run-by-run rows: a grey line joins run i of every boot, the pairs they are compared in); bars: its "
		"within-boot spread (± one standard deviation of the reps); shaded band: the first side's value ± the "
		"drift measured by its repeat; dashed box (2×): twice the drift, which a delta must leave to count. "
		"Beside each chart: the screen's verdict per boot and, where a mode has two boots or the machine a "
		"history, the boot-level test of each mode with sigma_b, sigma_w and the boots it needs.</p>\n");
	for (size_t i = 0; i < res->n_metrics; i++) {
		const struct compare_metric *cm = &res->metrics[i];

		if (!metric_shown(res, cm))
			continue;
		put(pg, "<div class=\"figure\" id=\"");
		metric_anchor(pg, i);
		put(pg, "\"><div class=\"head\"><h3>");
		metric_heading(pg, cm);
		put(pg, "<span class=\"sub\">");
		metric_sub(pg, cm);
		put(pg, "</span></h3></div>\n<div class=\"plot\">");
		metric_chart(pg, i);
		put(pg, "</div>\n<div class=\"aside\">");
		metric_aside(pg, i);
		put(pg, "</div></div>\n");
	}
	put(pg, "<div class=\"legend\">");
	for (size_t k = 0; k < res->n_sides; k++) {
		size_t m = 0;

		for (; m < k; m++)
			if (pg->sides[m].mode_index == pg->sides[k].mode_index)
				break;
		if (m < k)
			continue;
		putf(pg, "<span><i style=\"background:%s\"></i>", mode_color(pg, k));
		esc(pg, res->sides[k].mode);
		put(pg, "</span>");
	}
	put(pg, "</div>\n</section>\n");
}

/* ---- boots, IOMMU map, versions ---- */

static const char *type_class(const char *type)
{
	if (!type)
		return "";
	if (!strcmp(type, "DMA") || !strcmp(type, "DMA-FQ"))
		return "t-translated";
	if (!strcmp(type, "identity"))
		return "t-identity";
	return "t-other";
}

static void boots_table(struct page *pg)
{
	const struct compare_result *res = pg->res;
	const char *watch = pg->o->watch;

	put(pg, "<section id=\"boots\">\n<h2>Boots</h2>\n<div class=\"scroll\"><table>\n<thead><tr><th class=\"num\">#</th>"
		"<th>side</th><th>mode</th><th>kernel</th><th>verify</th><th class=\"num\">reboot</th><th>IOMMU groups</th>");
	if (watch) {
		put(pg, "<th>");
		esc(pg, watch);
		put(pg, "</th>");
	}
	put(pg, "<th>note</th></tr></thead>\n<tbody>\n");
	for (size_t k = 0; k < res->n_sides; k++) {
		const struct html_side *hs = &pg->sides[k];
		json_t *reboot = hs->meta ? json_object_get(hs->meta, "reboot_s") : NULL;
		struct strbuf note = STRBUF_INIT;

		putf(pg, "<tr><td class=\"num\">%zu</td><td><span class=\"sw\" style=\"background:%s\"></span><b>", k + 1,
		     mode_color(pg, k));
		esc(pg, res->sides[k].label);
		put(pg, "</b></td><td>");
		esc(pg, res->sides[k].mode);
		put(pg, "</td><td class=\"mono\">");
		esc(pg, meta_string(hs, "kernel") ? meta_string(hs, "kernel") : "-");
		put(pg, "</td><td>");
		esc(pg, meta_string(hs, "verify") ? meta_string(hs, "verify") : "-");
		put(pg, "</td><td class=\"num\">");
		if (json_is_number(reboot))
			putf(pg, "%.1f s", json_number_value(reboot));
		else
			put(pg, "-");
		put(pg, "</td><td>");
		if (hs->has_iommu) {
			char *summary = iommu_map_summary(&hs->iommu);

			esc(pg, summary);
			free(summary);
		} else {
			put(pg, "(not recorded)");
		}
		put(pg, "</td>");
		if (watch) {
			const char *type = hs->has_iommu ? iommu_map_device_type(&hs->iommu, watch) : NULL;

			putf(pg, "<td class=\"%s\">", type_class(type));
			esc(pg, type ? type : !hs->has_iommu ? "(not recorded)" : hs->iommu.n_groups ? "in no group"
												       : "no IOMMU groups");
			put(pg, "</td>");
		}
		report_side_note(&note, res, k);
		if (hs->meta_problem) {
			strbuf_addstr(&note, note.len ? "; " : "");
			strbuf_addstr(&note, hs->meta_problem);
		}
		put(pg, "<td class=\"wrap\">");
		esc(pg, strbuf_str(&note));
		put(pg, "</td></tr>\n");
		strbuf_release(&note);
	}
	put(pg, "</tbody></table></div>\n");
	{
		bool any_cmdline = false;

		for (size_t k = 0; k < res->n_sides; k++)
			any_cmdline |= meta_string(&pg->sides[k], "cmdline") != NULL;
		if (any_cmdline) {
			put(pg, "<details><summary class=\"note\">kernel command lines</summary><div class=\"scroll\"><table>");
			for (size_t k = 0; k < res->n_sides; k++) {
				put(pg, "<tr><td>");
				esc(pg, res->sides[k].label);
				put(pg, "</td><td class=\"mono\">");
				esc(pg, meta_string(&pg->sides[k], "cmdline") ? meta_string(&pg->sides[k], "cmdline") : "-");
				put(pg, "</td></tr>");
			}
			put(pg, "</table></div></details>\n");
		}
	}
	put(pg, "</section>\n");
}

struct device_row {
	const char *name;               /* borrowed from one of the maps */
	const struct iommu_device *any; /* the first side's record of it */
	bool changed;
};

static int device_row_cmp(const void *a, const void *b)
{
	const struct device_row *x = a, *y = b;

	if (x->any->group != y->any->group)
		return x->any->group < y->any->group ? -1 : 1;
	return strcmp(x->name, y->name);
}

/* Every device of every side's IOMMU map, once, in first-seen order; *n_maps: the sides that recorded one. */
static struct device_row *iommu_device_rows(const struct page *pg, size_t *n_rows, size_t *n_maps)
{
	const struct compare_result *res = pg->res;
	struct device_row *rows = NULL;
	size_t alloc_rows = 0;

	for (size_t k = 0; k < res->n_sides; k++) {
		const struct iommu_map *m = &pg->sides[k].iommu;

		if (!pg->sides[k].has_iommu)
			continue;
		(*n_maps)++;
		for (size_t d = 0; d < m->n_devices; d++) {
			size_t r = 0;

			for (; r < *n_rows; r++)
				if (!strcmp(rows[r].name, m->devices[d].name))
					break;
			if (r < *n_rows)
				continue;
			GROW(rows, alloc_rows, *n_rows + 1);
			rows[(*n_rows)++] = (struct device_row){ .name = m->devices[d].name, .any = &m->devices[d] };
		}
	}
	return rows;
}

/* Marks each device whose group's type differs between two sides that recorded a map; how many. */
static size_t iommu_mark_changed(const struct page *pg, struct device_row *rows, size_t n_rows)
{
	const struct compare_result *res = pg->res;
	size_t n_changed = 0;

	for (size_t r = 0; r < n_rows; r++) {
		const char *first = NULL;
		bool seen = false;

		for (size_t k = 0; k < res->n_sides; k++) {
			const char *t;

			if (!pg->sides[k].has_iommu)
				continue;
			t = iommu_map_device_type(&pg->sides[k].iommu, rows[r].name);
			if (!seen) {
				first = t;
				seen = true;
			} else if ((t == NULL) != (first == NULL) || (t && strcmp(t, first))) {
				rows[r].changed = true;
			}
		}
		n_changed += rows[r].changed;
	}
	return n_changed;
}

/* What the watched device was on each boot: in no group, the same type everywhere, or each side's. */
static void iommu_watch_callout(struct page *pg, const char *watch, size_t n_maps)
{
	const struct compare_result *res = pg->res;
	const char *watch_first = NULL;
	bool watch_seen = false, watch_same = true;

	for (size_t k = 0; k < res->n_sides; k++) {
		const char *t;

		if (!pg->sides[k].has_iommu)
			continue;
		t = iommu_map_device_type(&pg->sides[k].iommu, watch);
		if (t)
			watch_seen = true;
		if (!watch_first)
			watch_first = t ? t : "";
		else if (strcmp(watch_first, t ? t : ""))
			watch_same = false;
	}
	if (!watch_seen) {
		put(pg, "<div class=\"callout bad\">The watched device <code>");
		esc(pg, watch);
		put(pg, "</code> is in no IOMMU group on any boot.</div>\n");
	} else if (watch_same && n_maps > 1) {
		put(pg, "<div class=\"callout bad\">The watched device <code>");
		esc(pg, watch);
		put(pg, "</code> is ");
		esc(pg, watch_first);
		put(pg, " in every mode: the setting did not change this device's DMA path; a gain needs another "
			"explanation.</div>\n");
	} else {
		put(pg, "<div class=\"callout info\">The watched device <code>");
		esc(pg, watch);
		put(pg, "</code>:");
		for (size_t k = 0; k < res->n_sides; k++) {
			const char *t;

			if (!pg->sides[k].has_iommu)
				continue;
			t = iommu_map_device_type(&pg->sides[k].iommu, watch);
			put(pg, " ");
			esc(pg, res->sides[k].label);
			put(pg, " <b>");
			esc(pg, t ? t : "in no group");
			put(pg, "</b>");
		}
		put(pg, ".</div>\n");
	}
}

/* One device's row: group, name (watched, changed), driver, and its group's type on each side. */
static void iommu_device_row(struct page *pg, const struct device_row *row, const char *watch)
{
	const struct compare_result *res = pg->res;

	const struct iommu_device *d = row->any;
	bool watched = watch && !strcmp(watch, row->name);
	const char *driver = NULL;

	for (size_t k = 0; k < res->n_sides && !driver; k++) {
		const struct iommu_device *dk = pg->sides[k].has_iommu
			? iommu_map_device(&pg->sides[k].iommu, row->name) : NULL;

		if (dk && dk->driver)
			driver = dk->driver;
	}
	put(pg, "<tr");
	if (row->changed || watched)
		putf(pg, " class=\"%s%s\"", row->changed ? "changed" : "",
		     watched ? (row->changed ? " watch" : "watch") : "");
	put(pg, " data-device=\"");
	esc(pg, row->name);
	putf(pg, "\"><td class=\"num\">%u</td><td><span class=\"mono\">", d->group);
	esc(pg, row->name);
	put(pg, "</span>");
	if (watched)
		put(pg, "<span class=\"tag watch\">watched</span>");
	if (row->changed)
		put(pg, "<span class=\"tag chg\">changed</span>");
	if (d->description) {
		put(pg, "<br><span class=\"note\">");
		esc(pg, d->description);
		put(pg, "</span>");
	}
	put(pg, "</td><td class=\"mono\">");
	esc(pg, driver ? driver : "-");
	put(pg, "</td>");
	for (size_t k = 0; k < res->n_sides; k++) {
		const struct iommu_device *dk;
		const struct iommu_group *g;

		if (!pg->sides[k].has_iommu)
			continue;
		dk = iommu_map_device(&pg->sides[k].iommu, row->name);
		g = dk ? iommu_map_group(&pg->sides[k].iommu, dk->group) : NULL;
		if (!g) {
			put(pg, "<td class=\"t-other\">absent</td>");
			continue;
		}
		putf(pg, "<td class=\"%s\">", type_class(g->type));
		esc(pg, g->type);
		if (dk->group != d->group)
			putf(pg, " <span class=\"note\">group %u</span>", dk->group);
		put(pg, "</td>");
	}
	put(pg, "</tr>\n");
}

static void iommu_section(struct page *pg)
{
	const struct compare_result *res = pg->res;
	const char *watch = pg->o->watch;
	struct device_row *rows;
	size_t n_rows = 0, n_changed, n_maps = 0;

	rows = iommu_device_rows(pg, &n_rows, &n_maps);
	put(pg, "<section id=\"iommu\">\n<h2>IOMMU groups</h2>\n");
	if (n_maps == 0) {
		put(pg, "<p class=\"note\">No side recorded an IOMMU map.</p>\n</section>\n");
		free(rows);
		return;
	}
	n_changed = iommu_mark_changed(pg, rows, n_rows);
	if (n_rows > 1)
		qsort(rows, n_rows, sizeof(*rows), device_row_cmp);
	if (watch)
		iommu_watch_callout(pg, watch, n_maps);
	putf(pg, "<p class=\"note\">%zu device%s in %zu map%s; %zu changed type between boots (highlighted).</p>\n",
	     n_rows, n_rows == 1 ? "" : "s", n_maps, n_maps == 1 ? "" : "s", n_changed);
	put(pg, "<div class=\"scroll\"><table class=\"iommu\">\n<thead><tr><th class=\"num\">group</th><th>device</th>"
		"<th>driver</th>");
	for (size_t k = 0; k < res->n_sides; k++) {
		if (!pg->sides[k].has_iommu)
			continue;
		putf(pg, "<th><span class=\"sw\" style=\"background:%s\"></span>", mode_color(pg, k));
		esc(pg, res->sides[k].label);
		put(pg, "</th>");
	}
	put(pg, "</tr></thead>\n<tbody>\n");
	for (size_t r = 0; r < n_rows; r++)
		iommu_device_row(pg, &rows[r], watch);
	put(pg, "</tbody></table></div>\n<p class=\"note\">Types are the kernel's default domain of each group "
		"(/sys/kernel/iommu_groups/N/type): DMA and DMA-FQ translate, identity passes through.</p>\n</section>\n");
	free(rows);
}

static void versions_section(struct page *pg)
{
	const struct compare_result *res = pg->res;
	const char **names = NULL;
	size_t n = 0, alloc = 0;

	for (size_t k = 0; k < res->n_sides; k++)
		for (size_t v = 0; v < res->sides[k].n_versions; v++) {
			size_t j = 0;

			for (; j < n; j++)
				if (!strcmp(names[j], res->sides[k].versions[v].name))
					break;
			if (j < n)
				continue;
			GROW(names, alloc, n + 1);
			names[n++] = res->sides[k].versions[v].name;
		}
	put(pg, "<section id=\"versions\">\n<h2>Versions</h2>\n");
	if (n == 0) {
		put(pg, "<p class=\"note\">No versions were recorded.</p>\n</section>\n");
		free(names);
		return;
	}
	put(pg, "<div class=\"scroll\"><table>\n<thead><tr><th>software</th>");
	for (size_t k = 0; k < res->n_sides; k++) {
		put(pg, "<th>");
		esc(pg, res->sides[k].label);
		put(pg, "</th>");
	}
	put(pg, "</tr></thead>\n<tbody>\n");
	for (size_t j = 0; j < n; j++) {
		const char *first = side_version(&res->sides[0], names[j]);
		bool differs = false;

		for (size_t k = 1; k < res->n_sides; k++) {
			const char *v = side_version(&res->sides[k], names[j]);

			if ((v == NULL) != (first == NULL) || (v && strcmp(v, first)))
				differs = true;
		}
		putf(pg, "<tr%s><td><b>", differs ? " class=\"changed\"" : "");
		esc(pg, names[j]);
		put(pg, "</b>");
		if (differs)
			put(pg, "<span class=\"tag chg\">differs</span>");
		put(pg, "</td>");
		for (size_t k = 0; k < res->n_sides; k++) {
			const char *v = side_version(&res->sides[k], names[j]);

			put(pg, "<td class=\"mono\">");
			esc(pg, v ? v : "(not recorded)");
			put(pg, "</td>");
		}
		put(pg, "</tr>\n");
	}
	put(pg, "</tbody></table></div>\n</section>\n");
	free(names);
}

/* Config differences the page lists for each pair of kernels; report.json holds them all. */
#define HTML_KERNEL_DIFFS 200

static void kernels_section(struct page *pg)
{
	const struct compare_result *res = pg->res;
	struct kernel_compare kc;

	kernel_compare(res->sides, res->n_sides, &kc);
	if (!kc.recorded) {
		kernel_compare_release(&kc);
		return;
	}
	put(pg, "<section id=\"kernels\">\n<h2>Kernels</h2>\n");
	if (kc.same) {
		put(pg, "<p>Every side ran <span class=\"mono\">");
		esc(pg, res->sides[0].kernel.release);
		put(pg, "</span>");
		if (res->sides[0].kernel.build_id) {
			put(pg, " (build id <span class=\"mono\">");
			esc(pg, res->sides[0].kernel.build_id);
			put(pg, "</span>)");
		}
		put(pg, ".</p>\n</section>\n");
		kernel_compare_release(&kc);
		return;
	}
	put(pg, "<div class=\"scroll\"><table>\n<thead><tr><th>side</th><th>release</th><th>uname -v</th>"
		"<th>build id</th><th>package</th></tr></thead>\n<tbody>\n");
	for (size_t k = 0; k < res->n_sides; k++) {
		const struct side_kernel *kn = &res->sides[k].kernel;
		bool other = !kernel_same(&res->sides[0].kernel, kn);

		putf(pg, "<tr%s><td>", other ? " class=\"changed\"" : "");
		esc(pg, res->sides[k].label);
		put(pg, "</td><td class=\"mono\">");
		esc(pg, kn->release ? kn->release : "(not recorded)");
		put(pg, "</td><td class=\"mono\">");
		esc(pg, kn->version ? kn->version : "");
		put(pg, "</td><td class=\"mono\">");
		esc(pg, kn->build_id ? kn->build_id : "");
		put(pg, "</td><td class=\"mono\">");
		esc(pg, kn->package ? kn->package : "");
		put(pg, "</td></tr>\n");
	}
	put(pg, "</tbody></table></div>\n");
	for (size_t i = 0; i < kc.n_rebuilds; i++) {
		const struct side *a = &res->sides[kc.rebuilds[i].first], *b = &res->sides[kc.rebuilds[i].other];

		put(pg, "<p class=\"warn\">Kernel rebuilt within mode ");
		esc(pg, a->mode);
		put(pg, ": ");
		esc(pg, a->label);
		put(pg, " and ");
		esc(pg, b->label);
		put(pg, " ran the same release with different build ids.</p>\n");
	}
	for (size_t i = 0; i < kc.n_pairs; i++) {
		const struct kernel_pair *p = &kc.pairs[i];
		const struct side *a = &res->sides[p->from], *b = &res->sides[p->to];

		put(pg, "<h3>Config differences, <span class=\"mono\">");
		esc(pg, a->kernel.release);
		put(pg, "</span> (");
		esc(pg, a->label);
		put(pg, ") to <span class=\"mono\">");
		esc(pg, b->kernel.release);
		put(pg, "</span> (");
		esc(pg, b->label);
		put(pg, ")</h3>\n");
		if (!p->configs) {
			put(pg, "<p class=\"note\">Not known: a side recorded no kernel config.</p>\n");
			continue;
		}
		putf(pg, "<p class=\"note\">%zu option%s differ: %zu changed, %zu unset, %zu added.</p>\n<pre class=\"mono\">",
		     p->n_diffs, p->n_diffs == 1 ? "" : "s", p->n_changed, p->n_unset, p->n_added);
		for (size_t d = 0; d < p->n_diffs && d < HTML_KERNEL_DIFFS; d++) {
			esc(pg, p->diffs[d].option);
			put(pg, " ");
			esc(pg, p->diffs[d].from ? p->diffs[d].from : "(not set)");
			put(pg, " -&gt; ");
			esc(pg, p->diffs[d].to ? p->diffs[d].to : "(not set)");
			put(pg, "\n");
		}
		if (p->n_diffs > HTML_KERNEL_DIFFS)
			putf(pg, "... and %zu more (report.json lists every one)\n", p->n_diffs - HTML_KERNEL_DIFFS);
		put(pg, "</pre>\n");
	}
	put(pg, "</section>\n");
	kernel_compare_release(&kc);
}

/* ---- timeline ---- */

#define TL_W 960.0
#define TL_LEFT 14.0
#define TL_RIGHT 14.0
#define TL_BAR_Y 44.0
#define TL_BAR_H 30.0

static const char *timeline_fill(const struct page *pg, size_t k, const struct timeline_span *s)
{
	switch (s->kind) {
	case TIMELINE_REBOOT:
		return "#57606a";
	case TIMELINE_SETUP:
		return "#afb8c1";
	case TIMELINE_GATE:
		return "#d4a72c";
	case TIMELINE_ROW:
		return mode_color(pg, k);
	case TIMELINE_CHECK:
		return s->rc ? "#cf222e" : "#2da44e";
	case TIMELINE_FETCH:
	default:
		return "#d0d7de";
	}
}

static void span_seconds(struct page *pg, double s)
{
	if (s >= 90)
		putf(pg, "%.1f min", s / 60);
	else
		putf(pg, "%.0f s", s);
}

static void timeline_section(struct page *pg)
{
	const struct compare_result *res = pg->res;
	double t0 = INFINITY, t1 = -INFINITY, x0 = TL_LEFT, x1 = TL_W - TL_RIGHT;
	struct chart_axis axis;
	size_t n_spans = 0;

	for (size_t k = 0; k < res->n_sides; k++) {
		double a, b;

		if (timeline_lane_bounds(&pg->sides[k].lane, &a, &b)) {
			t0 = fmin(t0, a);
			t1 = fmax(t1, b);
		}
		n_spans += pg->sides[k].lane.n_spans;
	}
	put(pg, "<section id=\"timeline\">\n<h2>Timeline</h2>\n");
	if (n_spans == 0 || !(t1 > t0)) {
		put(pg, "<p class=\"note\">No times were recorded.</p>\n</section>\n");
		return;
	}
	if (chart_axis_nice(0, (t1 - t0) / 60, 8, &axis) < 0 || axis.lo != 0)
		axis = (struct chart_axis){ .lo = 0, .hi = (t1 - t0) / 60, .step = (t1 - t0) / 60, .n_ticks = 2 };
	putf(pg, "<svg class=\"timeline\" viewBox=\"0 0 960 108\" role=\"img\" data-spans=\"%zu\" "
		 "aria-label=\"timeline of the campaign\"><title>timeline of the campaign</title>\n", n_spans);
	for (size_t t = 0; t < axis.n_ticks; t++) {
		double v = axis.lo + (double)t * axis.step, x = chart_axis_map(&axis, v, x0, x1);
		struct strbuf label = STRBUF_INIT;

		chart_tick_label(&label, v, axis.step);
		putf(pg, "<line class=\"grid\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\"/>", x, x, TL_BAR_Y - 6,
		     TL_BAR_Y + TL_BAR_H + 6);
		putf(pg, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\">", x, TL_BAR_Y + TL_BAR_H + 22,
		     t == 0 ? "start" : t + 1 == axis.n_ticks ? "end" : "middle");
		esc(pg, strbuf_str(&label));
		put(pg, t == 0 ? " min" : "");
		put(pg, "</text>\n");
		strbuf_release(&label);
	}
	for (size_t k = 0; k < res->n_sides; k++) {
		const struct timeline_lane *lane = &pg->sides[k].lane;
		double a, b, xa, xb;

		if (!timeline_lane_bounds(lane, &a, &b))
			continue;
		xa = chart_axis_map(&axis, (a - t0) / 60, x0, x1);
		xb = chart_axis_map(&axis, (b - t0) / 60, x0, x1);
		/* The boot's bracket and name above the bar. */
		putf(pg, "<path d=\"M%.1f %.1f V%.1f H%.1f V%.1f\" fill=\"none\" stroke=\"%s\" stroke-width=\"2\"/>", xa,
		     TL_BAR_Y - 4, TL_BAR_Y - 12, xb, TL_BAR_Y - 4, mode_color(pg, k));
		putf(pg, "<text class=\"lab\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">", (xa + xb) / 2,
		     TL_BAR_Y - 18);
		esc(pg, res->sides[k].label);
		put(pg, "</text>\n");
		for (size_t i = 0; i < lane->n_spans; i++) {
			const struct timeline_span *s = &lane->spans[i];
			double sa = chart_axis_map(&axis, (s->start - t0) / 60, x0, x1);
			double sb = chart_axis_map(&axis, (s->end - t0) / 60, x0, x1);

			putf(pg, "<rect class=\"span\" data-kind=\"%s\" x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" height=\"%.1f\" "
				 "fill=\"%s\"><title>",
			     timeline_kind_name(s->kind), sa, TL_BAR_Y, fmax(sb - sa, 0.8), TL_BAR_H,
			     timeline_fill(pg, k, s));
			esc(pg, res->sides[k].label);
			put(pg, ": ");
			put(pg, timeline_kind_name(s->kind));
			if (s->row) {
				put(pg, " ");
				esc(pg, s->row);
			}
			if (s->kind == TIMELINE_ROW || s->kind == TIMELINE_CHECK)
				putf(pg, " (rc=%d)", s->rc);
			put(pg, ", ");
			span_seconds(pg, s->end - s->start);
			put(pg, "</title></rect>");
			for (size_t r = 0; r < s->n_reps; r++) {
				double xr = chart_axis_map(&axis, (s->reps[r] - t0) / 60, x0, x1);

				putf(pg, "<line x1=\"%.2f\" x2=\"%.2f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#fff\" stroke-width=\"1\"/>",
				     xr, xr, TL_BAR_Y + 4, TL_BAR_Y + TL_BAR_H - 4);
			}
			put(pg, "\n");
		}
	}
	put(pg, "</svg>\n<div class=\"legend\"><span><i style=\"background:#57606a\"></i>reboot</span>"
		"<span><i style=\"background:#afb8c1\"></i>verify and start</span>"
		"<span><i style=\"background:#d4a72c\"></i>idle gate</span>"
		"<span><i style=\"background:linear-gradient(90deg,#0072b2,#e69f00)\"></i>bench rows (mode colour; "
		"white ticks: reps)</span><span><i style=\"background:#2da44e\"></i>check passed</span>"
		"<span><i style=\"background:#cf222e\"></i>check failed</span>"
		"<span><i style=\"background:#d0d7de\"></i>fetch</span></div>\n");

	/* The same times as numbers, per boot. */
	put(pg, "<div class=\"scroll\"><table class=\"times\">\n<thead><tr><th>side</th><th class=\"num\">reboot</th>"
		"<th class=\"num\">verify and start</th><th class=\"num\">idle gates</th><th class=\"num\">rows</th>"
		"<th class=\"num\">checks</th><th class=\"num\">fetch</th><th class=\"num\">boot total</th></tr></thead>\n<tbody>\n");
	for (size_t k = 0; k < res->n_sides; k++) {
		const struct timeline_lane *lane = &pg->sides[k].lane;
		double sum[TIMELINE_FETCH + 1] = { 0 }, a, b;

		if (!timeline_lane_bounds(lane, &a, &b))
			continue;
		for (size_t i = 0; i < lane->n_spans; i++)
			sum[lane->spans[i].kind] += lane->spans[i].end - lane->spans[i].start;
		put(pg, "<tr><td>");
		esc(pg, res->sides[k].label);
		put(pg, "</td>");
		for (int kind = TIMELINE_REBOOT; kind <= TIMELINE_FETCH; kind++) {
			put(pg, "<td class=\"num\">");
			span_seconds(pg, sum[kind]);
			put(pg, "</td>");
		}
		put(pg, "<td class=\"num\">");
		span_seconds(pg, b - a);
		put(pg, "</td></tr>\n");
	}
	put(pg, "</tbody></table></div>\n<p class=\"note\">Campaign span ");
	span_seconds(pg, t1 - t0);
	put(pg, ". Times are the target's clock; a reboot is drawn ending at the boot's snapshot, and the fetch "
		"ends on the controller's clock.</p>\n</section>\n");
}

/* ---- the rest ---- */

static void warnings_section(struct page *pg)
{
	const struct strlist *w = pg->o->warnings;

	if (!w || w->n == 0)
		return;
	putf(pg, "<section id=\"warnings\">\n<h2>Warnings <span class=\"sub note\">%zu</span></h2>\n<ul class=\"warn\">\n",
	     w->n);
	for (size_t i = 0; i < w->n; i++) {
		put(pg, "<li>");
		esc(pg, w->items[i]);
		put(pg, "</li>\n");
	}
	put(pg, "</ul>\n</section>\n");
}

static void rule_section(struct page *pg)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	put(pg, "<section id=\"rule\">\n<h2>How to read the verdicts</h2>\n<pre class=\"rule\">");
	if (f) {
		report_legend(f, pg->res, pg->o, "");
		fclose(f);
		esc(pg, buf);
		free(buf);
	}
	put(pg, "</pre>\n</section>\n");
}

int report_html(FILE *out, const struct compare_result *res, const struct report_options *o)
{
	struct strbuf sb = STRBUF_INIT;
	struct page pg = { .sb = &sb, .res = res, .o = o };

	sides_load(&pg);
	page_head(&pg);
	page_header(&pg);
	headline_section(&pg);
	forest_section(&pg);
	summary_table(&pg);
	gains_and_costs(&pg);
	metric_figures(&pg);
	boots_table(&pg);
	iommu_section(&pg);
	versions_section(&pg);
	kernels_section(&pg);
	timeline_section(&pg);
	warnings_section(&pg);
	rule_section(&pg);
	put(&pg, "<footer>Written by bootab " BOOTAB_VERSION ". One file: no scripts, fonts or images from "
		 "elsewhere.</footer>\n</main>\n</body>\n</html>\n");
	sides_release(&pg);
	fwrite(sb.buf, 1, sb.len, out);
	strbuf_release(&sb);
	if (fflush(out) != 0 || ferror(out))
		return -EIO;
	return 0;
}
