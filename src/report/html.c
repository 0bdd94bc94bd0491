#include "report/html.h"
#include "report/html-page.h"

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
#include "report/answer.h"
#include "report/chart.h"
#include "report/headline.h"
#include "report/legend.h"
#include "report/timeline.h"
#include "report/words.h"
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

void page_put(struct page *pg, const char *s)
{
	strbuf_addstr(pg->sb, s);
}



void page_putf(struct page *pg, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(pg->sb, fmt, ap);
	va_end(ap);
}

void page_esc(struct page *pg, const char *s)
{
	html_escape(pg->sb, s ? s : "");
}

const char *page_mode_color(const struct page *pg, size_t k)
{
	return mode_colors[pg->sides[k].mode_index % N_MODE_COLORS];
}

const char *page_meta_string(const struct html_side *s, const char *key)
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
const char *page_verdict_class(const struct compare_cell *c)
{
	if (c->verdict == VERDICT_COUNTS && c->delta_pct < 0)
		return "v-loss";
	return verdict_text(c->verdict)->css;
}

/* The screen's verdict in the words of the text report (the verdict table's); the first side is the baseline. */
const char *page_verdict_label(const struct compare_cell *c)
{
	return c->verdict == VERDICT_BASELINE ? "baseline" : report_verdict_words(c->verdict);
}

/* CSS class of a boot-level test's verdict: a claim is a gain or a loss by its sign. */
const char *page_test_class(const struct compare_test *t)
{
	/* A claim only when it survives FDR, as the answer says (report/answer.h). */
	if (t->verdict == VERDICT_COUNTS && !t->survives)
		return verdict_text(VERDICT_WITHIN_NOISE)->css;
	if (t->verdict == VERDICT_COUNTS && t->delta_pct < 0)
		return "v-loss";
	return verdict_text(t->verdict)->css;
}

void page_test_attrs(struct page *pg, const struct compare_metric *cm, const struct compare_test *t)
{
	page_putf(pg, " data-test-verdict=\"%s\" data-row=\"", verdict_name(t->verdict));
	page_esc(pg, cm->row);
	page_put(pg, "\" data-metric=\"");
	page_esc(pg, cm->metric);
	page_put(pg, "\" data-mode=\"");
	page_esc(pg, t->mode);
	page_put(pg, "\"");
}

/* The colour of a mode: that of its first side. */
const char *page_test_color(const struct page *pg, const struct compare_test *t)
{
	return page_mode_color(pg, t->side);
}

void page_verdict_attrs(struct page *pg, const struct compare_metric *cm, size_t k)
{
	page_putf(pg, " data-verdict=\"%s\" data-row=\"", verdict_name(cm->cells[k].verdict));
	page_esc(pg, cm->row);
	page_put(pg, "\" data-metric=\"");
	page_esc(pg, cm->metric);
	page_put(pg, "\" data-side=\"");
	page_esc(pg, pg->res->sides[k].label);
	page_put(pg, "\"");
}

bool page_metric_shown(const struct compare_result *res, const struct compare_metric *cm)
{
	for (size_t k = 0; k < res->n_sides; k++)
		if (cm->cells[k].present)
			return true;
	return false;
}

void page_metric_anchor(struct page *pg, size_t i)
{
	page_putf(pg, "m%zu", i);
}

/* ---- header and summary ---- */

/* report.css, embedded at build time as report_css[]. */
#include "report-css.h"

static void page_head(struct page *pg)
{
	const char *title = pg->o->title ? pg->o->title : "comparison";

	page_put(pg, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
		"<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
		"<meta name=\"generator\" content=\"bootab " BOOTAB_VERSION "\">\n<title>bootab report: ");
	page_esc(pg, title);
	page_put(pg, "</title>\n<style>\n");
	page_put(pg, report_css);
	page_put(pg, "</style>\n</head>\n<body>\n");
}

static void page_header(struct page *pg)
{
	const struct compare_result *res = pg->res;
	const char *title = pg->o->title ? pg->o->title : "comparison";

	page_put(pg, "<header class=\"top\"><div class=\"in\">\n<h1>bootab report<small>");
	page_esc(pg, title);
	page_putf(pg, "</small></h1>\n<p>%zu boot%s, every one against <b>", res->n_sides, res->n_sides == 1 ? "" : "s");
	page_esc(pg, res->sides[0].label);
	page_put(pg, "</b>; + is better.</p>\n<div class=\"chips\" id=\"summary-counts\">");
	/* The boot-level test first where one ran; the seed rule is a screen. */
	if (res->n_tests)
		page_putf(pg, "<span class=\"chip v-gain\" data-summary=\"test_claims\"><b>%zu</b> claim%s of %zu boot-level tests</span>",
		     res->n_claims, res->n_claims == 1 ? "" : "s", res->n_tests);
	page_put(pg, "<span class=\"chip\">screen (seed rule):</span>");
	page_putf(pg, "<span class=\"chip v-gain\" data-summary=\"counts\"><b>%zu</b> count</span>"
		 "<span class=\"chip\" data-summary=\"within_noise\"><b>%zu</b> within noise</span>"
		 "<span class=\"chip v-loud\" data-summary=\"loud\"><b>%zu</b> loud</span>"
		 "<span class=\"chip\" data-summary=\"no_drift\"><b>%zu</b> without drift</span>",
	     res->n_counts, res->n_within_noise, res->n_loud, res->n_no_drift);
	if (res->n_costs)
		page_putf(pg, "<span class=\"chip v-loss\" data-summary=\"costs\"><b>%zu</b> failed check%s</span>",
		     res->n_costs, res->n_costs == 1 ? "" : "s");
	if (res->found.n_costs)
		page_putf(pg, "<span class=\"chip v-loss\" data-summary=\"found_costs\"><b>%zu</b> cost%s found by bootab</span>",
		     res->found.n_costs, res->found.n_costs == 1 ? "" : "s");
	page_put(pg, "</div>\n</div></header>\n<main>\n");
}

void page_cell_text(struct page *pg, void (*fn)(struct strbuf *, const struct compare_metric *,
						  const struct compare_cell *),
		      const struct compare_metric *cm, const struct compare_cell *c)
{
	struct strbuf t = STRBUF_INIT;

	fn(&t, cm, c);
	page_esc(pg, strbuf_str(&t));
	strbuf_release(&t);
}

/* "row metric" with the row muted; a one-number row is named by the row alone. */
void page_metric_heading(struct page *pg, const struct compare_metric *cm)
{
	if (!strcmp(cm->metric, "value")) {
		page_esc(pg, cm->row);
		return;
	}
	page_put(pg, "<span class=\"rowname\">");
	page_esc(pg, cm->row);
	page_put(pg, "</span> ");
	page_esc(pg, cm->metric);
}

void page_metric_sub(struct page *pg, const struct compare_metric *cm)
{
	page_esc(pg, cm->unit);
	page_put(pg, *cm->unit ? ", " : "");
	for (size_t j = 0; j < cm->n_stats; j++)
		page_putf(pg, "%s%s", j == 0 ? "" : j + 1 == cm->n_stats ? " and " : ", ", stat_kind_name(cm->stats[j]));
	if (!cm->n_stats)
		page_put(pg, stat_kind_name(cm->stat));
	page_put(pg, cm->better == BETTER_LOWER ? ", lower is better" : ", higher is better");
	if (cm->by_run)
		page_put(pg, ", run by run");
}

/* The metric's other statistics (--stat mean,min) under a side's row: value, delta, drift, verdict each. */
static void stat_rows(struct page *pg, const struct compare_metric *cm, size_t k)
{
	const struct compare_cell *c = &cm->cells[k];

	for (size_t j = 1; j < cm->n_stats; j++) {
		const struct compare_stat *st = &c->stats[j];
		struct compare_cell as = { .present = true, .verdict = st->verdict, .delta_pct = st->delta_pct };
		struct strbuf t = STRBUF_INIT;

		page_putf(pg, "<tr class=\"stat\"><td>&nbsp;&nbsp;%s</td><td class=\"num\">", stat_kind_name(cm->stats[j]));
		if (st->value > 0)
			report_add_value(&t, st->value, c->value);
		else
			strbuf_addstr(&t, "-");
		page_esc(pg, strbuf_str(&t));
		page_put(pg, "</td><td></td><td></td><td></td><td class=\"num\">");
		strbuf_truncate(&t, 0);
		if (!isnan(st->delta_pct))
			strbuf_addf(&t, "%+.1f%%", st->delta_pct);
		page_esc(pg, strbuf_str(&t));
		page_put(pg, "</td><td class=\"num\">");
		strbuf_truncate(&t, 0);
		if (!isnan(st->drift_pct) && st->verdict != VERDICT_DRIFT && st->verdict != VERDICT_MISSING)
			strbuf_addf(&t, "%+.1f%%", st->drift_pct);
		page_esc(pg, strbuf_str(&t));
		page_put(pg, "</td><td class=\"num\">");
		strbuf_truncate(&t, 0);
		report_add_q(&t, st->q);
		page_esc(pg, strbuf_str(&t));
		page_put(pg, "</td><td class=\"num\">");
		strbuf_truncate(&t, 0);
		report_add_p(&t, st->p);
		page_esc(pg, strbuf_str(&t));
		page_putf(pg, "</td><td class=\"verdict %s\" data-stat=\"%s\" data-stat-verdict=\"%s\">%s</td></tr>\n",
		     page_verdict_class(&as), stat_kind_name(cm->stats[j]), verdict_name(st->verdict),
		     k == 0 ? "" : report_verdict_words(st->verdict));
		strbuf_release(&t);
	}
}

static void summary_table(struct page *pg)
{
	const struct compare_result *res = pg->res;

	page_put(pg, "<section id=\"summary\">\n<h2>Summary</h2>\n");
	if (res->n_repeats == 0) {
		page_put(pg, "<div class=\"callout\">No repeat of <b>");
		page_esc(pg, res->sides[0].label);
		page_put(pg, "</b>: no drift was measured, nothing is judged.</div>\n");
	}
	for (size_t i = 0; i < res->n_versions; i++) {
		const struct compare_version *v = &res->versions[i];

		page_put(pg, "<div class=\"callout\">Versions differ: <code>");
		page_esc(pg, v->name);
		page_put(pg, "</code>:");
		for (size_t k = 0; k < res->n_sides; k++) {
			page_put(pg, " ");
			page_esc(pg, res->sides[k].label);
			page_put(pg, "=<code>");
			page_esc(pg, v->values[k] ? v->values[k] : "(not recorded)");
			page_put(pg, "</code>");
		}
		page_put(pg, "</div>\n");
	}
	page_put(pg, "<div class=\"scroll\"><table class=\"summary\">\n<thead><tr><th>side</th><th class=\"num\">value</th>"
		"<th class=\"num\">± spread</th><th class=\"num\">spread</th><th class=\"num\">n</th>"
		"<th class=\"num\">delta</th><th class=\"num\">drift</th><th class=\"num\">q</th><th class=\"num\">p</th>"
		"<th>screen</th></tr></thead>\n");
	for (size_t i = 0; i < res->n_metrics; i++) {
		const struct compare_metric *cm = &res->metrics[i];

		if (!page_metric_shown(res, cm))
			continue;
		page_put(pg, "<tbody class=\"metric\"><tr class=\"head\"><td colspan=\"10\"><a href=\"#");
		page_metric_anchor(pg, i);
		page_put(pg, "\">");
		page_metric_heading(pg, cm);
		page_put(pg, "</a><span class=\"sub\">");
		page_metric_sub(pg, cm);
		page_put(pg, "</span></td></tr>\n");
		for (size_t k = 0; k < res->n_sides; k++) {
			const struct compare_cell *c = &cm->cells[k];
			struct strbuf t = STRBUF_INIT;

			page_putf(pg, "<tr><td><span class=\"sw\" style=\"background:%s\"></span>", page_mode_color(pg, k));
			page_esc(pg, res->sides[k].label);
			page_put(pg, "</td>");
			if (!c->present) {
				page_put(pg, "<td class=\"num\">-</td><td></td><td></td><td></td><td></td><td></td><td></td><td></td>");
			} else {
				report_add_value(&t, c->value, c->value);
				page_put(pg, "<td class=\"num\">");
				page_esc(pg, strbuf_str(&t));
				strbuf_truncate(&t, 0);
				report_add_value(&t, c->spread, c->value);
				page_put(pg, "</td><td class=\"num\">± ");
				page_esc(pg, strbuf_str(&t));
				page_put(pg, "</td><td class=\"num\">");
				if (!isnan(c->spread_pct))
					page_putf(pg, "%.1f%%", c->spread_pct);
				page_putf(pg, "</td><td class=\"num\">%zu</td><td class=\"num\">", c->n);
				page_cell_text(pg, report_add_delta, cm, c);
				page_put(pg, "</td><td class=\"num\">");
				page_cell_text(pg, report_add_drift, cm, c);
				strbuf_truncate(&t, 0);
				report_add_q(&t, c->q);
				page_put(pg, "</td><td class=\"num\">");
				page_esc(pg, strbuf_str(&t));
				strbuf_truncate(&t, 0);
				report_add_p(&t, c->p);
				page_put(pg, "</td><td class=\"num\">");
				page_esc(pg, strbuf_str(&t));
				page_put(pg, "</td>");
			}
			page_putf(pg, "<td class=\"verdict %s\"", page_verdict_class(c));
			page_verdict_attrs(pg, cm, k);
			page_put(pg, ">");
			page_put(pg, c->present ? report_verdict_words(c->verdict) : "missing");
			if (c->present && c->pairs >= 2)
				page_putf(pg, "; sign agrees in %zu of %zu pairs", c->pairs_agree, c->pairs);
			page_put(pg, "</td></tr>\n");
			strbuf_release(&t);
			if (c->present)
				stat_rows(pg, cm, k);
		}
		page_put(pg, "</tbody>\n");
	}
	page_put(pg, "</table></div>\n</section>\n");
}

/* ---- the headline: the answer first, as every report opens ---- */

static void headline_section(struct page *pg)
{
	const struct compare_result *res = pg->res;
	struct headline h;

	headline_build(res, &h);
	page_put(pg, "<section id=\"headline\">\n<h2>The answer</h2>\n");
	if (h.factors) {
		page_put(pg, "<p class=\"hl\" data-null=\"factors\">");
		page_esc(pg, h.factors);
		page_put(pg, "</p>\n");
	}
	if (h.all_one_mode) {
		page_put(pg, "<p class=\"hl\" data-null=\"aa\">Every side is ");
		page_esc(pg, res->sides[0].mode);
		page_put(pg, ": an A/A campaign; nothing to compare, its boots measure the machine's noise floor.</p>\n");
	}
	for (size_t i = 0; i < h.n_lines; i++) {
		const struct headline_line *l = &h.lines[i];
		size_t n_gain = 0, n_loss = 0, n_cost = 0, prefix = strlen(l->mode) + strlen(" vs ") + strlen(l->first_mode) + 2;
		const char *rest = l->text;

		for (size_t j = 0; j < l->n_items; j++) {
			const struct headline_item *it = &l->items[j];

			n_cost += it->kind == HEADLINE_COST;
			n_gain += it->kind == HEADLINE_CLAIM && it->answer->log_effect >= 0;
			n_loss += it->kind == HEADLINE_CLAIM && it->answer->log_effect < 0;
		}
		/* The line's text is "MODE vs FIRST: ..."; the names are set apart. */
		if (strlen(l->text) >= prefix && !strncmp(l->text, l->mode, strlen(l->mode)))
			rest = l->text + prefix;
		page_putf(pg, "<p class=\"hl%s%s\" data-null=\"%s\" data-mode=\"", n_gain ? " gain" : "",
		     n_loss || n_cost ? " loss" : "", headline_null_name(l->null));
		page_esc(pg, l->mode);
		page_putf(pg, "\" data-claims=\"%zu\" data-costs=\"%zu\"><span class=\"sw\" style=\"background:%s\"></span>"
			 "<span class=\"hm\">", n_gain + n_loss, n_cost, page_mode_color(pg, l->side));
		if (rest != l->text) {
			page_esc(pg, l->mode);
			page_put(pg, " vs ");
			page_esc(pg, l->first_mode);
			page_put(pg, ":</span> ");
		} else {
			page_put(pg, "</span>");
		}
		page_esc(pg, rest);
		page_put(pg, "</p>\n");
	}
	page_put(pg, "<p class=\"note\">The headline of report.txt: for each mode, every metric where a boot-level test "
		"claims a difference that survives the correction for many tests, the checks that failed, or what no claim "
		"means; a mode with one boot and no history is not tested.</p>\n</section>\n");
	headline_release(&h);
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
			struct answer a;
			char *title;

			if (ct->side != k)
				continue;
			n_tests++;
			n_tested += ct->method != METHOD_NONE;
			answer_of(res, cm, ct, k, &a);
			if (a.kind != ANSWER_CLAIM && a.kind != ANSWER_NOT_AFTER_FDR)
				continue;
			title = report_metric_title(cm);
			answer_add_effect(&w, &a, true, false);
			strbuf_addch(&w, ' ');
			page_putf(pg, "%s<span class=\"%s\">", n_claim++ ? "<br>" : "",
				  a.kind != ANSWER_CLAIM ? "n" : a.log_effect >= 0 ? "g" : "l");
			page_esc(pg, strbuf_str(&w));
			page_put(pg, "</span>");
			page_esc(pg, title);
			if (a.kind == ANSWER_NOT_AFTER_FDR)
				page_put(pg, " <span class=\"note\">(not a claim: does not survive FDR)</span>");
			free(title);
			strbuf_release(&w);
		}
	}
	if (n_claim == 0)
		page_put(pg, k == 0 ? "<span class=\"note\">first side</span>"
			       : n_tested ? "none" : n_tests ? "<span class=\"note\">not tested</span>" : "-");
}

/* Side k's deltas the screen counts, the better ones then the worse ones: a cell each. */
static void gc_screen(struct page *pg, size_t k)
{
	const struct compare_result *res = pg->res;
	size_t n_gain = 0, n_loss = 0;

	for (int want_gain = 1; want_gain >= 0; want_gain--) {
		size_t *count = want_gain ? &n_gain : &n_loss;

		page_put(pg, "<td class=\"wrap\">");
		for (size_t i = 0; i < res->n_metrics; i++) {
			const struct compare_metric *cm = &res->metrics[i];
			const struct compare_cell *c = &cm->cells[k];
			char *title;

			if (c->verdict != VERDICT_COUNTS || (c->delta_pct >= 0) != (want_gain == 1))
				continue;
			title = report_metric_title(cm);
			page_putf(pg, "%s<span class=\"%s\">", (*count)++ ? "<br>" : "", want_gain ? "g" : "l");
			page_cell_text(pg, report_add_delta, cm, c);
			page_put(pg, "</span> ");
			page_esc(pg, title);
			free(title);
		}
		if (*count == 0)
			page_put(pg, k == 0 ? "<span class=\"note\">first side</span>" : "-");
		page_put(pg, "</td>");
	}
}

/* Side k's costs: the checks that failed, then what bootab found it lost (or gained): a cell each. */
static void gc_costs(struct page *pg, size_t k)
{
	const struct compare_result *res = pg->res;
	size_t n_cost = 0;

	page_put(pg, "<td class=\"wrap\">");
	for (size_t i = 0; i < res->n_costs; i++) {
		const struct compare_cost *c = &res->costs[i];

		if (c->side != k)
			continue;
		struct strbuf words = STRBUF_INIT;

		page_put(pg, n_cost++ ? "<br>" : "");
		page_put(pg, "<span class=\"c\">");
		if (c->has_tests) {
			report_cost_words(&words, c, k != 0);
			page_esc(pg, strbuf_str(&words));
			page_put(pg, "</span>");
		} else {
			page_esc(pg, c->row);
			page_putf(pg, " failed, rc=%d</span>", c->rc);
			if (k != 0 && c->fails_on_first)
				page_put(pg, " (fails on the first side too)");
		}
		strbuf_release(&words);
	}
	if (n_cost == 0)
		page_put(pg, "none");
	page_put(pg, "</td><td class=\"wrap\">");
	n_cost = 0;
	for (size_t i = 0; i < res->found.n_found; i++) {
		const struct found *f = &res->found.found[i];

		if (f->side != k)
			continue;
		page_put(pg, n_cost++ ? "<br>" : "");
		page_putf(pg, "<span class=\"%s\" data-found=\"%s\" data-side=\"", f->gain ? "g" : "c",
		     found_kind_name(f->kind));
		page_esc(pg, res->sides[k].label);
		page_put(pg, "\">");
		page_put(pg, f->gain ? "gain: " : "cost: ");
		page_esc(pg, f->text);
		page_put(pg, "</span>");
	}
	if (n_cost == 0)
		page_put(pg, !strcmp(res->sides[k].mode, res->sides[0].mode) ? "<span class=\"note\">baseline</span>"
			: res->found.judged[k] ? "none" : "<span class=\"note\">not recorded</span>");
}

static void gains_and_costs(struct page *pg)
{
	const struct compare_result *res = pg->res;

	page_put(pg, "<section id=\"gains-costs\">\n<h2>Gains and costs</h2>\n<div class=\"scroll\"><table class=\"gc\">\n"
		"<thead><tr><th>side</th><th>mode</th><th>boot-level test: claims</th><th>screen: counts, better</th>"
		"<th>screen: counts, worse</th><th>costs (failed checks)</th><th>costs found by bootab</th></tr></thead>\n<tbody>\n");
	for (size_t k = 0; k < res->n_sides; k++) {
		page_putf(pg, "<tr data-side=\"");
		page_esc(pg, res->sides[k].label);
		page_putf(pg, "\"><td><span class=\"sw\" style=\"background:%s\"></span><b>", page_mode_color(pg, k));
		page_esc(pg, res->sides[k].label);
		page_put(pg, "</b></td><td>");
		page_esc(pg, res->sides[k].mode);
		page_put(pg, "</td><td class=\"wrap\">");
		gc_claims(pg, k);
		page_put(pg, "</td>");
		gc_screen(pg, k);
		gc_costs(pg, k);
		page_put(pg, "</td></tr>\n");
	}
	page_putf(pg, "</tbody></table></div>\n<p class=\"note\">A claim of the boot-level test is a %.0f%% CI of the mode's "
		 "boot means that excludes 0 and survives the false-discovery correction (the forest plot above); the "
		 "screen (seed rule) lists a delta that is at least twice the drift and above both sides' spreads: "
		 "a column, not a test. ",
	     100 * (1 - res->alpha));
	/* Only where bootab had boots to compare: no inventory, no baseline to name. */
	if (report_found_any_judged(res) && res->found.baseline && *res->found.baseline) {
		page_put(pg, "A cost found by bootab is what a side lost against every boot of ");
		page_esc(pg, res->sides[0].mode);
		page_put(pg, " (");
		page_esc(pg, res->found.baseline);
		page_put(pg, "): a device's driver, a device node, a network interface, a kernel error or warning line "
			"none of them printed, a failed unit.");
	}
	if (res->found.noise_klog || res->found.noise_devices || res->found.noise_units)
		page_putf(pg, " The boots of the first mode differ among themselves in %zu kernel line%s, %zu device%s and "
			 "%zu failed unit%s: noise, blamed on no mode.",
		     res->found.noise_klog, res->found.noise_klog == 1 ? "" : "s", res->found.noise_devices,
		     res->found.noise_devices == 1 ? "" : "s", res->found.noise_units,
		     res->found.noise_units == 1 ? "" : "s");
	if (res->found.n_ignored)
		page_putf(pg, " %zu finding%s matched an ignore pattern.", res->found.n_ignored,
		     res->found.n_ignored == 1 ? "" : "s");
	page_put(pg, "</p>\n</section>\n");
}

/* ---- the rest ---- */

static void warnings_section(struct page *pg)
{
	const struct strlist *w = pg->o->warnings;

	if (!w || w->n == 0)
		return;
	page_putf(pg, "<section id=\"warnings\">\n<h2>Warnings <span class=\"sub note\">%zu</span></h2>\n<ul class=\"warn\">\n",
	     w->n);
	for (size_t i = 0; i < w->n; i++) {
		page_put(pg, "<li>");
		page_esc(pg, w->items[i]);
		page_put(pg, "</li>\n");
	}
	page_put(pg, "</ul>\n</section>\n");
}

static void rule_section(struct page *pg)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	page_put(pg, "<section id=\"rule\">\n<h2>How to read the verdicts</h2>\n<pre class=\"rule\">");
	if (f) {
		report_legend(f, pg->res, pg->o, "", 80);
		fclose(f);
		page_esc(pg, buf);
		free(buf);
	}
	page_put(pg, "</pre>\n</section>\n");
}

int report_html(FILE *out, const struct compare_result *res, const struct report_options *o)
{
	struct strbuf sb = STRBUF_INIT;
	struct page pg = { .sb = &sb, .res = res, .o = o };

	sides_load(&pg);
	page_head(&pg);
	page_header(&pg);
	/* A kernel's own new against old comes first, as in the text report. */
	html_new_old_section(&pg);
	headline_section(&pg);
	html_factors_section(&pg);
	html_forest_section(&pg);
	summary_table(&pg);
	gains_and_costs(&pg);
	html_metric_figures(&pg);
	html_boots_table(&pg);
	html_iommu_section(&pg);
	html_versions_section(&pg);
	html_kernels_section(&pg);
	html_timeline_section(&pg);
	warnings_section(&pg);
	rule_section(&pg);
	page_put(&pg, "<footer>Written by bootab " BOOTAB_VERSION ". One file: no scripts, fonts or images from "
		 "elsewhere.</footer>\n</main>\n</body>\n</html>\n");
	sides_release(&pg);
	fwrite(sb.buf, 1, sb.len, out);
	strbuf_release(&sb);
	if (fflush(out) != 0 || ferror(out))
		return -EIO;
	return 0;
}

