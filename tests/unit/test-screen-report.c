/*
 * Unit tests for src/campaign/screen-report.c, src/judge/screen.c and
 * src/report/factors.c: a screening campaign's factors, ranked, with their
 * verdicts, interactions, costs and headline.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "plan/plan.h"
#include "campaign/screen-report.h"
#include "judge/compare.h"
#include "judge/screen.h"
#include "report/answer.h"
#include "report/factors.h"
#include "results/side.h"

static const char plan_text[] =
	"[campaign]\ndesign = full\n"
	"[factor \"pti\"]\nargs = pti=on\n"
	"[factor \"iommu\"]\nargs = iommu=pt\n"
	"[factor \"initfree\"]\nargs = init_on_free=1\n";

/*
 * Nine boots (off, run02 ... run08, off again) of a metric where lower is
 * better: pti=on takes 1.5 times as long, the others nothing; boot-to-boot
 * noise of about 1 %, laid out as the three-factor interaction and the two
 * standing boots, so no main effect takes it.
 */
static void build(struct plan *p, struct side *sides, struct compare_cell *cells, struct compare_metric *m,
		  struct compare_result *res, double pti_ratio, double pti_iommu)
{
	static const char *const modes[] = { "off", "run02", "run03", "run04", "run05", "run06", "run07", "run08", "off" };
	struct parse_error err = PARSE_ERROR_INIT;

	assert_int_equal(plan_parse("s.ini", plan_text, p, &err), 0);
	parse_error_release(&err);
	for (size_t s = 0; s < 9; s++) {
		const struct plan_mode *pm = plan_find_mode(p, modes[s]);
		const signed char *lv = &p->design.levels[pm->run * 3];
		double noise = s == 8 ? 0.012 : 0.01 * lv[0] * lv[1] * lv[2];

		memset(&sides[s], 0, sizeof(sides[s]));
		sides[s].mode = (char *)modes[s];
		memset(&cells[s], 0, sizeof(cells[s]));
		cells[s].present = true;
		cells[s].has_boot = true;
		cells[s].boot.mean = log(100) + (lv[0] > 0 ? log(pti_ratio) : 0) + noise + lv[0] * lv[1] * pti_iommu / 2;
	}
	memset(m, 0, sizeof(*m));
	m->row = (char *)"syscalls";
	m->metric = (char *)"60000 syscalls";
	m->unit = (char *)"ms";
	m->better = BETTER_LOWER;
	m->cells = cells;
	memset(res, 0, sizeof(*res));
	res->sides = sides;
	res->n_sides = 9;
	res->metrics = m;
	res->n_metrics = 1;
}

/* The factors' text section of res (and its headline line into *headline when not NULL). */
static void render(const struct plan *p, struct compare_result *res, struct strbuf *sb, char **headline)
{
	struct screen_result s;

	assert_int_equal(screen_report_build(p, res, 0.05, &s), 0);
	res->screen = &s;
	factors_text(res, sb);
	if (headline)
		*headline = factors_headline(res);
	print_message("%s", strbuf_str(sb));
	res->screen = NULL;
	screen_release(&s);
}

static void test_ranked_verdicts(void **state)
{
	struct plan p;
	struct side sides[9];
	struct compare_cell cells[9];
	struct compare_metric m;
	struct compare_result res;
	struct strbuf sb = STRBUF_INIT;
	const char *text, *pti, *iommu, *initfree;

	(void)state;
	build(&p, sides, cells, &m, &res, 1.5, 0);
	render(&p, &res, &sb, NULL);
	text = strbuf_str(&sb);
	assert_non_null(strstr(text, "95% CI from the boot-to-boot noise"));
	assert_non_null(strstr(text, "  syscalls 60000 syscalls (lower is better; 9 boots):\n"));
	pti = strstr(text, "    pti ");
	iommu = strstr(text, "    iommu ");
	initfree = strstr(text, "    initfree ");
	assert_non_null(pti);
	assert_non_null(iommu);
	assert_non_null(initfree);
	/* pti first (the largest effect), 1.5 times the time (-50 %, + is better), worse; the others within noise. */
	assert_true(pti < iommu && pti < initfree);
	assert_non_null(strstr(pti, "(pti=on)"));
	assert_true(fabs(strtod(strpbrk(strstr(pti, ")"), "+-"), NULL) + 50) < 1);
	assert_true(strstr(pti, "worse\n") < iommu && strstr(pti, "worse\n") < initfree);
	assert_non_null(strstr(iommu, "within noise\n"));
	assert_non_null(strstr(initfree, "within noise\n"));
	assert_null(strstr(text, "alias"));
	strbuf_release(&sb);
	plan_release(&p);
}

static void test_faster_is_better(void **state)
{
	struct plan p;
	struct side sides[9];
	struct compare_cell cells[9];
	struct compare_metric m;
	struct compare_result res;
	struct strbuf sb = STRBUF_INIT;
	const char *pti;

	(void)state;
	build(&p, sides, cells, &m, &res, 0.8, 0);
	render(&p, &res, &sb, NULL);
	pti = strstr(strbuf_str(&sb), "    pti ");
	assert_non_null(pti);
	/* 0.8 times the time: +20 %, + is better. */
	assert_true(fabs(strtod(strpbrk(strstr(pti, ")"), "+-"), NULL) - 20) < 1);
	assert_non_null(strstr(pti, "better\n"));
	assert_non_null(strstr(pti, "better\n"));
	strbuf_release(&sb);
	plan_release(&p);
}

static void test_too_few_boots(void **state)
{
	struct plan p;
	struct side sides[9];
	struct compare_cell cells[9];
	struct compare_metric m;
	struct compare_result res;
	struct strbuf sb = STRBUF_INIT;

	(void)state;
	build(&p, sides, cells, &m, &res, 1.5, 0);
	/* Three boots cannot determine three effects and the mean. */
	res.n_sides = 3;
	render(&p, &res, &sb, NULL);
	assert_non_null(strstr(strbuf_str(&sb), "    not estimable from 3 boots of the design\n"));
	strbuf_release(&sb);
	plan_release(&p);
}

/* The headline answers per factor, ranked; the design's runs are no modes of the answer. */
static void test_headline_and_no_modes(void **state)
{
	struct plan p;
	struct side sides[9];
	struct compare_cell cells[9];
	struct compare_metric m;
	struct compare_result res;
	struct strbuf sb = STRBUF_INIT;
	struct screen_result s;
	struct answer_view v;
	char *head;

	(void)state;
	build(&p, sides, cells, &m, &res, 3.0, 0);
	render(&p, &res, &sb, &head);
	print_message("%s\n", head);
	assert_string_equal(strstr(head, "factors: pti=on 3.0x slower ["), head);
	assert_non_null(strstr(head, "] on syscalls 60000 syscalls; iommu=pt, init_on_free=1: within noise"));
	free(head);
	/* Without the design every run is a mode against off (not tested); with it, none is. */
	side_modes_index(sides, 9, &res.modes);
	answer_view_build(&res, &v);
	assert_int_equal(v.n_modes, 7);
	answer_view_release(&v);
	assert_int_equal(screen_report_build(&p, &res, 0.05, &s), 0);
	res.screen = &s;
	answer_view_build(&res, &v);
	assert_int_equal(v.n_modes, 0);
	assert_int_equal(v.n_not_tested, 0);
	answer_view_release(&v);
	screen_release(&s);
	side_modes_release(&res.modes);
	strbuf_release(&sb);
	plan_release(&p);
}

/* A full factorial estimates the two-factor interactions: the one put in is found, first. */
static void test_interactions(void **state)
{
	struct plan p;
	struct side sides[9];
	struct compare_cell cells[9];
	struct compare_metric m;
	struct compare_result res;
	struct strbuf sb = STRBUF_INIT;
	const char *text, *inter, *pair;

	(void)state;
	/* pti and iommu together: 0.2 on the log scale, beyond the sum of their effects. */
	build(&p, sides, cells, &m, &res, 1.0, 0.2);
	render(&p, &res, &sb, NULL);
	text = strbuf_str(&sb);
	inter = strstr(text, "    two-factor interactions (clear of the main effects; CI from a fit with them, df 2):\n");
	assert_non_null(inter);
	pair = strstr(inter, "      pti x iommu ");
	assert_non_null(pair);
	/* The first interaction listed, worse (more time). */
	assert_ptr_equal(pair, inter + strlen("    two-factor interactions (clear of the main effects; CI from a fit with them, df 2):\n"));
	assert_ptr_equal(strstr(pair, "worse\n") + strlen("worse"), strchr(pair, '\n'));
	assert_non_null(strstr(text, "      pti x initfree "));
	assert_non_null(strstr(text, "      iommu x initfree "));
	strbuf_release(&sb);
	plan_release(&p);
}

/* A check that fails only on boots with pti on is pti's cost, no other factor's. */
static void test_costs(void **state)
{
	struct plan p;
	struct side sides[9];
	struct compare_cell cells[9];
	struct compare_metric m;
	struct compare_result res;
	struct compare_cost costs[4];
	struct strbuf sb = STRBUF_INIT;
	size_t n = 0, pti_on = 0;
	const char *text;

	(void)state;
	build(&p, sides, cells, &m, &res, 1.0, 0);
	memset(costs, 0, sizeof(costs));
	for (size_t k = 0; k < 9; k++) {
		const struct plan_mode *pm = plan_find_mode(&p, sides[k].mode);

		if (p.design.levels[pm->run * 3] > 0) {
			pti_on++;
			/* Seen on three of the four boots with pti on. */
			if (n < 3)
				costs[n++] = (struct compare_cost){ .side = k, .row = (char *)"dmesg-clean", .rc = 1 };
		}
	}
	res.costs = costs;
	res.n_costs = n;
	render(&p, &res, &sb, NULL);
	text = strbuf_str(&sb);
	assert_int_equal(pti_on, 4);
	assert_non_null(strstr(text, "  costs seen on boots with a factor on and on none with it off:\n"
				     "    pti: check dmesg-clean failed (3 of 4 boots with it on)\n"));
	assert_null(strstr(text, "    iommu: check"));
	assert_null(strstr(text, "    initfree: check"));
	strbuf_release(&sb);
	/* Failing on the standing config too, it is no factor's. */
	costs[n++] = (struct compare_cost){ .side = 0, .row = (char *)"dmesg-clean", .rc = 1 };
	res.n_costs = n;
	render(&p, &res, &sb, NULL);
	assert_non_null(strstr(strbuf_str(&sb), "  costs: none seen only with a factor on\n"));
	strbuf_release(&sb);
	plan_release(&p);
}

/*
 * Twelve factors, rounds = 2: a Plackett-Burman design of 20 runs, then its
 * fold-over. No factor has a main effect; a and b together take 1.5 times
 * as long (an interaction the design alone mixes into the other factors'
 * main effects); boot-to-boot noise of about 1 %. n_sides: 21 (the design's
 * round and off again: the fold-over not booted) or 41 (both rounds).
 */
static void build_fold(struct plan *p, struct side *sides, char **names, struct compare_cell *cells,
		       struct compare_metric *m, struct compare_result *res, size_t n_sides)
{
	struct strbuf text = STRBUF_INIT;
	struct parse_error err = PARSE_ERROR_INIT;

	strbuf_addstr(&text, "[campaign]\ndesign = screen\nrounds = 2\n");
	for (char f = 'a'; f <= 'l'; f++)
		strbuf_addf(&text, "[factor \"%c\"]\nargs = p%c=1\n", f, f);
	assert_int_equal(plan_parse("s.ini", strbuf_str(&text), p, &err), 0);
	parse_error_release(&err);
	strbuf_release(&text);
	assert_true(p->design.folded);
	assert_int_equal(p->design.n_runs, 40);
	for (size_t s = 0; s < n_sides; s++) {
		/* The plan's boot order: off, run02 ... run20, then fold01 ... fold20, off again. */
		size_t run = s + 1 == n_sides ? 0 : s;
		const signed char *lv = &p->design.levels[run * 12];

		names[s] = strdup(p->modes[run].name);
		memset(&sides[s], 0, sizeof(sides[s]));
		sides[s].mode = names[s];
		memset(&cells[s], 0, sizeof(cells[s]));
		cells[s].present = true;
		cells[s].has_boot = true;
		cells[s].boot.mean = log(100) + lv[0] * lv[1] * log(1.5) / 2 + 0.01 * sin(7.3 * (double)s + 1);
	}
	memset(m, 0, sizeof(*m));
	m->row = (char *)"build";
	m->metric = (char *)"time";
	m->unit = (char *)"s";
	m->better = BETTER_LOWER;
	m->cells = cells;
	memset(res, 0, sizeof(*res));
	res->sides = sides;
	res->n_sides = n_sides;
	res->metrics = m;
	res->n_metrics = 1;
}

/* The fold-over in: no main effect is an alias, and the interaction no longer passes for one. */
static void test_fold_over(void **state)
{
	struct plan p;
	struct side sides[41];
	char *names[41];
	struct compare_cell cells[41];
	struct compare_metric m;
	struct compare_result res;
	struct strbuf sb = STRBUF_INIT;
	struct screen_result s;
	char *head;

	(void)state;
	/* The design's round alone: the a x b interaction shows as main effects, each flagged. */
	build_fold(&p, sides, names, cells, &m, &res, 21);
	render(&p, &res, &sb, &head);
	assert_non_null(strstr(strbuf_str(&sb), "factors (Plackett-Burman, 20 runs, with its fold-over: 40 runs, resolution IV)"));
	assert_non_null(strstr(strbuf_str(&sb), "  build time (lower is better; 21 boots):\n"
						"    the fold-over's runs are not all booted: the design's aliases hold\n"));
	assert_non_null(strstr(strbuf_str(&sb), "could be an alias"));
	assert_non_null(strstr(strbuf_str(&sb), "two-factor interactions: not estimated, the design (resolution III) aliases them with the main effects\n"));
	assert_non_null(strstr(head, " (could be an alias)"));
	free(head);
	strbuf_release(&sb);
	for (size_t i = 0; i < 21; i++)
		free(names[i]);
	plan_release(&p);

	/* Both rounds: every main effect from all 41 boots, clear of the interaction and within noise. */
	build_fold(&p, sides, names, cells, &m, &res, 41);
	render(&p, &res, &sb, &head);
	assert_non_null(strstr(strbuf_str(&sb), "  build time (lower is better; 41 boots):\n"));
	assert_null(strstr(strbuf_str(&sb), "alias:"));
	assert_null(strstr(strbuf_str(&sb), "not all booted"));
	assert_null(strstr(strbuf_str(&sb), "could be an alias"));
	assert_non_null(strstr(strbuf_str(&sb), "two-factor interactions: not estimated, the design with its fold-over (resolution IV) "
						"aliases them with each other\n"));
	assert_string_equal(head, "factors: pa=1, pb=1, pc=1, pd=1, pe=1, pf=1, pg=1, ph=1, pi=1, pj=1, pk=1, pl=1: within noise");
	assert_int_equal(screen_report_build(&p, &res, 0.05, &s), 0);
	assert_true(s.metrics[0].fold_complete);
	assert_int_equal(s.metrics[0].boots, 41);
	for (size_t f = 0; f < 12; f++) {
		assert_false(s.metrics[0].mains[f].alias);
		assert_true(fabs(s.metrics[0].mains[f].effect) < 0.02);
	}
	screen_release(&s);
	free(head);
	strbuf_release(&sb);
	for (size_t i = 0; i < 41; i++)
		free(names[i]);
	plan_release(&p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ranked_verdicts),
		cmocka_unit_test(test_faster_is_better),
		cmocka_unit_test(test_too_few_boots),
		cmocka_unit_test(test_headline_and_no_modes),
		cmocka_unit_test(test_interactions),
		cmocka_unit_test(test_costs),
		cmocka_unit_test(test_fold_over),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
