#include "report/factors.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lib/alloc.h"
#include "lib/escape.h"
#include "report/answer.h"
#include "report/headline.h"
#include "report/html-page.h"
#include "report/words.h"

static const char *verdict_words(enum screen_verdict v)
{
	switch (v) {
	case SCREEN_BETTER:
		return "better";
	case SCREEN_WORSE:
		return "worse";
	case SCREEN_WITHIN_NOISE:
		return "within noise";
	case SCREEN_NO_CI:
	default:
		return "no CI: the design left no boot to measure the noise";
	}
}

/* "pti=on", "pti=on x iommu=pt": an effect's factors by their args (unescaped). */
static void factors_add_name(struct strbuf *sb, const struct screen_result *s, const struct screen_effect *e)
{
	strbuf_addstr(sb, s->args[e->a]);
	if (e->b != e->a)
		strbuf_addf(sb, " x %s", s->args[e->b]);
}

/*
 * "+3.1 % [+2.2, +4.0] faster", "10.5x slower [5.2x, 21.3x]", "-3.0% [-9.1,
 * +3.2]" (no CI: the effect alone); direction: name it after a percentage
 * whose CI excludes 0 (a factor always names it).
 */
static void factors_add_effect(struct strbuf *sb, const struct compare_metric *cm, const struct screen_effect *e,
			       bool pct_space, bool direction)
{
	bool ci = !isnan(e->log_lo) && !isnan(e->log_hi);
	double lb = e->log_effect;

	if (answer_factor(lb) >= REPORT_FACTOR_FROM) {
		strbuf_addf(sb, "%.1fx %s", answer_factor(lb), answer_direction(cm, lb));
		/* Ascending factors in the effect's direction: an end across 0 reads below 1x. */
		if (ci)
			strbuf_addf(sb, " [%.1fx, %.1fx]", exp(lb >= 0 ? e->log_lo : -e->log_hi),
				    exp(lb >= 0 ? e->log_hi : -e->log_lo));
		return;
	}
	strbuf_addf(sb, pct_space ? "%+.1f %%" : "%+.1f%%", e->delta_pct);
	if (ci)
		strbuf_addf(sb, " [%+.1f, %+.1f]", e->lo_pct, e->hi_pct);
	if (direction && (e->verdict == SCREEN_BETTER || e->verdict == SCREEN_WORSE))
		strbuf_addf(sb, " %s", answer_direction(cm, lb));
}

static bool claimed(enum screen_verdict v)
{
	return v == SCREEN_BETTER || v == SCREEN_WORSE;
}

struct claim {
	const struct screen_metric *m;
	const struct screen_effect *e;
};

static int by_size(const void *a, const void *b)
{
	double x = fabs(((const struct claim *)a)->e->log_effect), y = fabs(((const struct claim *)b)->e->log_effect);

	return x > y ? -1 : x < y;
}

/* The factors without a claim on any metric, by their verdicts' words: "a, b: within noise". */
static void add_quiet(struct strbuf *sb, const struct screen_result *s, const bool *has_claim, enum screen_verdict v)
{
	bool any = false;

	for (size_t f = 0; f < s->k; f++) {
		bool all = !has_claim[f] && s->n_metrics;

		for (size_t i = 0; i < s->n_metrics && all; i++) {
			const struct screen_metric *m = &s->metrics[i];

			all = false;
			for (size_t j = 0; m->estimable && j < s->k; j++)
				if (m->mains[j].a == f)
					all = (v == SCREEN_NO_CI) == (m->mains[j].verdict == SCREEN_NO_CI);
		}
		if (!all)
			continue;
		strbuf_addstr(sb, any ? ", " : sb->len > strlen("factors: ") ? "; " : "");
		strbuf_addstr(sb, s->args[f]);
		any = true;
	}
	if (any)
		strbuf_addstr(sb, v == SCREEN_NO_CI ? ": no CI (no boot left to measure the noise)" : ": within noise");
}

char *factors_headline(const struct compare_result *res)
{
	const struct screen_result *s = res->screen;
	struct strbuf sb = STRBUF_INIT;
	struct claim *claims;
	bool *has_claim, alias = false;
	size_t n = 0;

	if (!s || !s->k)
		return NULL;
	claims = xcalloc(s->k * s->n_metrics + 1, sizeof(*claims));
	has_claim = xcalloc(s->k, sizeof(*has_claim));
	for (size_t i = 0; i < s->n_metrics; i++)
		for (size_t j = 0; s->metrics[i].estimable && j < s->k; j++)
			if (claimed(s->metrics[i].mains[j].verdict)) {
				claims[n++] = (struct claim){ &s->metrics[i], &s->metrics[i].mains[j] };
				has_claim[s->metrics[i].mains[j].a] = true;
			}
	qsort(claims, n, sizeof(*claims), by_size);
	strbuf_addstr(&sb, "factors: ");
	for (size_t i = 0; i < n; i++) {
		char *name = headline_metric_name(claims[i].m->metric);

		if (i)
			strbuf_addstr(&sb, "; ");
		factors_add_name(&sb, s, claims[i].e);
		strbuf_addch(&sb, ' ');
		factors_add_effect(&sb, claims[i].m->metric, claims[i].e, true, true);
		strbuf_addf(&sb, " on %s", name);
		if (claims[i].e->alias) {
			strbuf_addstr(&sb, " (could be an alias)");
			alias = true;
		}
		free(name);
	}
	add_quiet(&sb, s, has_claim, SCREEN_WITHIN_NOISE);
	add_quiet(&sb, s, has_claim, SCREEN_NO_CI);
	if (sb.len == strlen("factors: "))
		strbuf_addstr(&sb, "not estimable from the boots recorded");
	if (alias)
		strbuf_addstr(&sb, "; an alias: the design mixes that main effect with two-factor interactions");
	free(claims);
	free(has_claim);
	return strbuf_detach(&sb, NULL);
}

/* ---- the text section ---- */

static void add_escaped(struct strbuf *sb, const char *s)
{
	text_escape_append(sb, s, strlen(s), 0, NULL);
}

static void effect_line(const struct screen_result *s, const struct screen_metric *m, const struct screen_effect *e,
			struct strbuf *sb)
{
	struct strbuf name = STRBUF_INIT;
	size_t start = sb->len;

	if (e->a == e->b) {
		strbuf_addf(&name, "%s (", s->names[e->a]);
		factors_add_name(&name, s, e);
		strbuf_addch(&name, ')');
	} else {
		strbuf_addf(&name, "%s x %s", s->names[e->a], s->names[e->b]);
	}
	strbuf_addstr(sb, e->a == e->b ? "    " : "      ");
	add_escaped(sb, name.buf);
	while (sb->len - start < 32)
		strbuf_addch(sb, ' ');
	strbuf_addch(sb, ' ');
	factors_add_effect(sb, m->metric, e, false, false);
	strbuf_addf(sb, "  %s", verdict_words(e->verdict));
	if (e->alias)
		strbuf_addstr(sb, " (could be an alias: the design mixes it with two-factor interactions)");
	strbuf_addch(sb, '\n');
	strbuf_release(&name);
}

static void interactions_text(const struct screen_result *s, const struct screen_metric *m, struct strbuf *sb)
{
	if (s->k < 2)
		return;
	if (!design_interactions_clear(s->design)) {
		/* The boots' design: the combined one once every fold-over run is in. */
		unsigned resolution = screen_metric_resolution(s, m);

		strbuf_addf(sb, "    two-factor interactions: not estimated, the design%s (resolution %s) aliases them %s\n",
			    s->design->folded && m->fold_complete ? " with its fold-over" : "",
			    design_resolution_name(resolution), resolution >= 4 ? "with each other" : "with the main effects");
		return;
	}
	if (!m->n_interactions) {
		strbuf_addf(sb, "    two-factor interactions: not estimable from %zu boots\n", m->boots);
		return;
	}
	strbuf_addf(sb, "    two-factor interactions (clear of the main effects; CI from a fit with them, df %zu):\n",
		    m->df_interactions);
	for (size_t j = 0; j < m->n_interactions; j++)
		effect_line(s, m, &m->interactions[j], sb);
}

static void costs_text(const struct screen_result *s, struct strbuf *sb)
{
	if (!s->n_costs) {
		strbuf_addstr(sb, "  costs: none seen only with a factor on\n");
		return;
	}
	strbuf_addstr(sb, "  costs seen on boots with a factor on and on none with it off:\n");
	for (size_t i = 0; i < s->n_costs; i++) {
		const struct screen_cost *c = &s->costs[i];

		strbuf_addstr(sb, "    ");
		add_escaped(sb, s->names[c->factor]);
		strbuf_addstr(sb, ": ");
		add_escaped(sb, c->what);
		strbuf_addf(sb, " (%zu of %zu boots with it on)\n", c->boots_on, c->boots_factor_on);
	}
}

void factors_text(const struct compare_result *res, struct strbuf *sb)
{
	const struct screen_result *s = res->screen;
	char *what;

	if (!s || !s->k)
		return;
	what = design_describe(s->design);
	strbuf_addf(sb, "factors (%s): main effect of each, on minus off over the design's boots, "
		    "%.0f%% CI from the boot-to-boot noise (the fit's residual):\n", what, 100 * (1 - s->alpha));
	free(what);
	for (size_t i = 0; i < s->n_metrics; i++) {
		const struct screen_metric *m = &s->metrics[i];

		strbuf_addstr(sb, "  ");
		add_escaped(sb, m->metric->row);
		strbuf_addch(sb, ' ');
		add_escaped(sb, m->metric->metric);
		strbuf_addf(sb, " (%s is better; %zu boots):\n", m->metric->better == BETTER_HIGHER ? "higher" : "lower",
			    m->boots);
		if (!m->estimable) {
			strbuf_addf(sb, "    not estimable from %zu boots of the design\n", m->boots);
			continue;
		}
		if (s->design->folded && !m->fold_complete)
			strbuf_addstr(sb, "    the fold-over's runs are not all booted: the design's aliases hold\n");
		for (size_t f = 0; f < s->k; f++)
			effect_line(s, m, &m->mains[f], sb);
		interactions_text(s, m, sb);
	}
	costs_text(s, sb);
}

/* ---- report.json ---- */

static json_t *num(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

static json_t *effect_json(const struct screen_result *s, const struct screen_metric *m, const struct screen_effect *e)
{
	json_t *o = json_object();
	struct strbuf sb = STRBUF_INIT;

	if (e->a == e->b) {
		json_object_set_new(o, "name", json_string(s->names[e->a]));
		json_object_set_new(o, "args", json_string(s->args[e->a]));
	} else {
		json_object_set_new(o, "names", json_pack("[s,s]", s->names[e->a], s->names[e->b]));
	}
	json_object_set_new(o, "delta_pct", num(e->delta_pct));
	json_object_set_new(o, "ci_lo_pct", num(e->lo_pct));
	json_object_set_new(o, "ci_hi_pct", num(e->hi_pct));
	json_object_set_new(o, "factor", num(answer_factor(e->log_effect)));
	json_object_set_new(o, "direction", json_string(answer_direction(m->metric, e->log_effect)));
	json_object_set_new(o, "p", num(e->p));
	json_object_set_new(o, "verdict", json_string(screen_verdict_name(e->verdict)));
	if (e->a == e->b)
		json_object_set_new(o, "alias", json_boolean(e->alias));
	factors_add_effect(&sb, m->metric, e, false, true);
	json_object_set_new(o, "text", json_string(sb.buf ? sb.buf : ""));
	strbuf_release(&sb);
	return o;
}

static json_t *metric_json(const struct screen_result *s, const struct screen_metric *m)
{
	json_t *o = json_pack("{s:s,s:s,s:I,s:b}", "row", m->metric->row, "metric", m->metric->metric, "boots",
			      (json_int_t)m->boots, "estimable", m->estimable);
	json_t *mains = json_array(), *inter = json_array();

	json_object_set_new(o, "df", json_integer((json_int_t)m->df));
	/* The boots' design: a fold-over not all booted leaves the base design's resolution. */
	json_object_set_new(o, "resolution", json_string(design_resolution_name(screen_metric_resolution(s, m))));
	for (size_t f = 0; m->estimable && f < s->k; f++)
		json_array_append_new(mains, effect_json(s, m, &m->mains[f]));
	for (size_t j = 0; j < m->n_interactions; j++)
		json_array_append_new(inter, effect_json(s, m, &m->interactions[j]));
	json_object_set_new(o, "effects", mains);
	json_object_set_new(o, "interactions", inter);
	json_object_set_new(o, "interactions_df", json_integer((json_int_t)m->df_interactions));
	return o;
}

json_t *factors_json(const struct compare_result *res)
{
	const struct screen_result *s = res->screen;
	json_t *o, *factors = json_array(), *metrics = json_array(), *costs = json_array(), *runs = json_array();
	char *what, *head;

	if (!s || !s->k) {
		json_decref(factors);
		json_decref(metrics);
		json_decref(costs);
		json_decref(runs);
		return NULL;
	}
	what = design_describe(s->design);
	head = factors_headline(res);
	o = json_pack("{s:s,s:s,s:I,s:s,s:b,s:f}", "design", what, "resolution", design_resolution_name(s->design->resolution),
		      "runs", (json_int_t)s->design->n_runs, "headline", head,
		      "interactions_estimable", design_interactions_clear(s->design), "alpha", s->alpha);
	free(what);
	free(head);
	for (size_t f = 0; f < s->k; f++)
		json_array_append_new(factors, json_pack("{s:s,s:s,s:b}", "name", s->names[f], "args", s->args[f],
							 "aliased", design_main_aliased(s->design, f)));
	for (size_t k = 0; k < s->n_sides; k++)
		if (s->side_run[k] >= 0)
			json_array_append_new(runs, json_pack("{s:s,s:I}", "side", res->sides[k].label, "run",
							      (json_int_t)s->side_run[k] + 1));
	for (size_t i = 0; i < s->n_metrics; i++)
		json_array_append_new(metrics, metric_json(s, &s->metrics[i]));
	for (size_t i = 0; i < s->n_costs; i++)
		json_array_append_new(costs, json_pack("{s:s,s:s,s:I,s:I}", "name", s->names[s->costs[i].factor],
						       "what", s->costs[i].what, "boots", (json_int_t)s->costs[i].boots_on,
						       "boots_factor_on", (json_int_t)s->costs[i].boots_factor_on));
	json_object_set_new(o, "factors", factors);
	json_object_set_new(o, "sides", runs);
	json_object_set_new(o, "metrics", metrics);
	json_object_set_new(o, "costs", costs);
	return o;
}

/* ---- report.html ---- */

static void html_effect_row(struct page *pg, const struct screen_result *s, const struct screen_metric *m,
			    const struct screen_effect *e)
{
	struct strbuf sb = STRBUF_INIT;

	page_putf(pg, "<tr%s data-verdict=\"%s\"><td>", e->verdict == SCREEN_BETTER ? " class=\"gain\""
		  : e->verdict == SCREEN_WORSE ? " class=\"loss\"" : "", screen_verdict_name(e->verdict));
	if (e->a == e->b) {
		page_esc(pg, s->names[e->a]);
		page_put(pg, " <code>");
		page_esc(pg, s->args[e->a]);
		page_put(pg, "</code>");
	} else {
		page_esc(pg, s->names[e->a]);
		page_put(pg, " x ");
		page_esc(pg, s->names[e->b]);
	}
	page_put(pg, "</td><td class=\"num\">");
	factors_add_effect(&sb, m->metric, e, false, false);
	page_esc(pg, sb.buf ? sb.buf : "");
	page_put(pg, "</td><td>");
	page_esc(pg, verdict_words(e->verdict));
	if (e->alias)
		page_put(pg, " (could be an alias: the design mixes it with two-factor interactions)");
	page_put(pg, "</td></tr>\n");
	strbuf_release(&sb);
}

static void html_metric(struct page *pg, const struct screen_result *s, const struct screen_metric *m)
{
	page_put(pg, "<h3>");
	page_esc(pg, m->metric->row);
	page_put(pg, " ");
	page_esc(pg, m->metric->metric);
	page_putf(pg, " <span class=\"note\">(%s is better; %zu boots)</span></h3>\n",
		  m->metric->better == BETTER_HIGHER ? "higher" : "lower", m->boots);
	if (!m->estimable) {
		page_putf(pg, "<p>Not estimable from %zu boots of the design.</p>\n", m->boots);
		return;
	}
	if (s->design->folded && !m->fold_complete)
		page_putf(pg, "<p>The fold-over's runs are not all booted: the design's aliases hold (resolution %s).</p>\n",
			  design_resolution_name(screen_metric_resolution(s, m)));
	page_put(pg, "<div class=\"scroll\"><table class=\"factors\">\n<thead><tr><th>factor</th>"
		 "<th class=\"num\">effect, on minus off [CI]</th><th>verdict</th></tr></thead>\n<tbody>\n");
	for (size_t f = 0; f < s->k; f++)
		html_effect_row(pg, s, m, &m->mains[f]);
	for (size_t j = 0; j < m->n_interactions; j++)
		html_effect_row(pg, s, m, &m->interactions[j]);
	page_put(pg, "</tbody></table></div>\n");
}

void html_factors_section(struct page *pg)
{
	const struct screen_result *s = pg->res->screen;
	char *what;

	if (!s || !s->k)
		return;
	what = design_describe(s->design);
	page_put(pg, "<section id=\"factors\">\n<h2>Factors</h2>\n<p>");
	page_esc(pg, what);
	free(what);
	page_putf(pg, ": the main effect of each factor, on minus off over the design's boots, with its %.0f%% CI from "
		  "the boot-to-boot noise (the fit's residual), ranked by size; ", 100 * (1 - s->alpha));
	if (design_interactions_clear(s->design))
		page_put(pg, "then the two-factor interactions, clear of the main effects (CI from a fit with them).</p>\n");
	else
		page_putf(pg, "the design (resolution %s) aliases two-factor interactions %s: they are not estimated.</p>\n",
			  design_resolution_name(s->design->resolution),
			  s->design->resolution >= 4 ? "with each other" : "with the main effects");
	for (size_t i = 0; i < s->n_metrics; i++)
		html_metric(pg, s, &s->metrics[i]);
	page_put(pg, "<h3>Costs seen only with a factor on</h3>\n");
	if (!s->n_costs)
		page_put(pg, "<p>None: no failed check or cost bootab found on boots with a factor on and on none with it off.</p>\n");
	else
		page_put(pg, "<ul>\n");
	for (size_t i = 0; i < s->n_costs; i++) {
		page_put(pg, "<li>");
		page_esc(pg, s->names[s->costs[i].factor]);
		page_put(pg, ": ");
		page_esc(pg, s->costs[i].what);
		page_putf(pg, " (%zu of %zu boots with it on)</li>\n", s->costs[i].boots_on, s->costs[i].boots_factor_on);
	}
	if (s->n_costs)
		page_put(pg, "</ul>\n");
	page_put(pg, "</section>\n");
}
