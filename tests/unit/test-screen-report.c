/* Unit tests for src/campaign/screen-report.c: a screening campaign's factors, ranked, with their verdicts. */
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
		  struct compare_result *res, double pti_ratio)
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
		cells[s].boot.mean = log(100) + (lv[0] > 0 ? log(pti_ratio) : 0) + noise;
	}
	memset(m, 0, sizeof(*m));
	m->row = (char *)"syscalls";
	m->metric = (char *)"60000 syscalls";
	m->better = BETTER_LOWER;
	m->cells = cells;
	memset(res, 0, sizeof(*res));
	res->sides = sides;
	res->n_sides = 9;
	res->metrics = m;
	res->n_metrics = 1;
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
	build(&p, sides, cells, &m, &res, 1.5);
	screen_report_text(&p, &res, 0.05, &sb);
	text = strbuf_str(&sb);
	print_message("%s", text);
	assert_non_null(strstr(text, "95% CI from the boot-to-boot noise"));
	assert_non_null(strstr(text, "  syscalls 60000 syscalls (lower is better):\n"));
	pti = strstr(text, "    pti ");
	iommu = strstr(text, "    iommu ");
	initfree = strstr(text, "    initfree ");
	assert_non_null(pti);
	assert_non_null(iommu);
	assert_non_null(initfree);
	/* pti first (the largest effect), +50 %, worse; the others within noise. */
	assert_true(pti < iommu && pti < initfree);
	/* The true +50 %, within the 1 % noise. */
	assert_true(fabs(strtod(strpbrk(pti, "+-"), NULL) - 50) < 1);
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
	build(&p, sides, cells, &m, &res, 0.8);
	screen_report_text(&p, &res, 0.05, &sb);
	pti = strstr(strbuf_str(&sb), "    pti ");
	assert_non_null(pti);
	assert_true(fabs(strtod(strpbrk(pti, "+-"), NULL) + 20) < 1);
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
	build(&p, sides, cells, &m, &res, 1.5);
	/* Three boots cannot determine three effects and the mean. */
	res.n_sides = 3;
	screen_report_text(&p, &res, 0.05, &sb);
	assert_non_null(strstr(strbuf_str(&sb), "    not estimable from 3 boots of the design\n"));
	strbuf_release(&sb);
	plan_release(&p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ranked_verdicts),
		cmocka_unit_test(test_faster_is_better),
		cmocka_unit_test(test_too_few_boots),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
