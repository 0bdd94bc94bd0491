#include "campaign/screen-report.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "judge/design.h"
#include "lib/alloc.h"
#include "lib/escape.h"

struct ranked {
	size_t factor;
	struct design_effect e;
};

static int by_size(const void *a, const void *b)
{
	double x = fabs(((const struct ranked *)a)->e.effect), y = fabs(((const struct ranked *)b)->e.effect);

	return x > y ? -1 : x < y;
}

/* The design's boots of metric m: their factor levels and log boot means. Returns how many. */
static size_t design_boots(const struct plan *plan, const struct compare_result *res, const struct compare_metric *m,
			   signed char *levels, double *y)
{
	size_t k = plan->n_factors, n = 0;

	for (size_t s = 0; s < res->n_sides; s++) {
		const struct plan_mode *pm = res->sides[s].mode ? plan_find_mode(plan, res->sides[s].mode) : NULL;

		if (!pm || !pm->design_run || !m->cells[s].present || !m->cells[s].has_boot)
			continue;
		memcpy(&levels[n * k], &plan->design.levels[pm->run * k], k);
		y[n++] = m->cells[s].boot.mean;
	}
	return n;
}

static void effect_line(const struct plan *plan, const struct compare_metric *m, const struct ranked *r, size_t df,
			struct strbuf *sb)
{
	const struct design_effect *e = &r->e;
	const char *verdict;

	strbuf_addf(sb, "    %-16s %+7.1f%%", plan->factors[r->factor].name, 100 * expm1(e->effect));
	if (df) {
		strbuf_addf(sb, " [%+.1f, %+.1f]", 100 * expm1(e->low), 100 * expm1(e->high));
		if (e->low > 0 || e->high < 0)
			verdict = (e->effect > 0) == (m->better == BETTER_HIGHER) ? "better" : "worse";
		else
			verdict = "within noise";
	} else {
		verdict = "no CI: the design has no boot left to measure the noise";
	}
	strbuf_addf(sb, "  %s", verdict);
	if (design_main_aliased(&plan->design, r->factor))
		strbuf_addstr(sb, " (could be an alias: the design mixes it with two-factor interactions)");
	strbuf_addch(sb, '\n');
}

void screen_report_text(const struct plan *plan, const struct compare_result *res, double alpha, struct strbuf *sb)
{
	size_t k = plan->n_factors;
	signed char *levels;
	double *y;
	struct ranked *ranked;

	if (!k || !res->n_sides)
		return;
	levels = xcalloc(res->n_sides * k, 1);
	y = xcalloc(res->n_sides, sizeof(*y));
	ranked = xcalloc(k, sizeof(*ranked));
	strbuf_addf(sb, "factors: main effect of each (on minus off, over the design's boots), %.0f%% CI from the boot-to-boot noise:\n",
		    100 * (1 - alpha));
	for (size_t i = 0; i < res->n_metrics; i++) {
		const struct compare_metric *m = &res->metrics[i];
		struct design_effect *e = xcalloc(k, sizeof(*e));
		size_t n = design_boots(plan, res, m, levels, y), df;

		if (m->counter) {
			free(e);
			continue;
		}
		/* A metric's name comes from the tool's output: escaped. */
		strbuf_addstr(sb, "  ");
		text_escape_append(sb, m->row, strlen(m->row), 0, NULL);
		strbuf_addch(sb, ' ');
		text_escape_append(sb, m->metric, strlen(m->metric), 0, NULL);
		strbuf_addf(sb, " (%s is better):\n", m->better == BETTER_HIGHER ? "higher" : "lower");
		if (design_effects(levels, k, y, n, alpha, e, &df) < 0) {
			strbuf_addf(sb, "    not estimable from %zu boots of the design\n", n);
			free(e);
			continue;
		}
		for (size_t f = 0; f < k; f++)
			ranked[f] = (struct ranked){ f, e[f] };
		qsort(ranked, k, sizeof(*ranked), by_size);
		for (size_t f = 0; f < k; f++)
			effect_line(plan, m, &ranked[f], df, sb);
		free(e);
	}
	free(levels);
	free(y);
	free(ranked);
}
