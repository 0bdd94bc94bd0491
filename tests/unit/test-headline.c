/* Unit tests for src/report/answer.c and headline.c: which test decides, the words, the nulls, the costs. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "judge/compare.h"
#include "lib/alloc.h"
#include "report/answer.h"
#include "report/headline.h"

/* Five samples with mean m and sample stddev exactly sd. */
static const double Z[5] = { -1.2649110640673518, -0.6324555320336759, 0, 0.6324555320336759,
			     1.2649110640673518 };

static void side_init(struct side *s, const char *label, const char *mode)
{
	memset(s, 0, sizeof(*s));
	s->dir = xstrdup(label);
	s->label = xstrdup(label);
	s->mode = xstrdup(mode);
}

static struct row *get_row(struct side *s, const char *row)
{
	struct row *r = side_find_row(s, row);

	if (r)
		return r;
	GROW(s->rows, s->alloc_rows, s->n_rows + 1);
	r = &s->rows[s->n_rows++];
	memset(r, 0, sizeof(*r));
	r->name = xstrdup(row);
	r->source = xstrdup(row);
	return r;
}

static void add_metric(struct side *s, const char *row, const char *metric, enum metric_better better,
		       const char *unit, double mean, double sd)
{
	struct row *r = get_row(s, row);

	for (int i = 0; i < 5; i++)
		metric_set_add_sample(&r->metrics, metric, better, unit, mean + sd * Z[i]);
}

/* A boot with two reps at log offsets -/+ 0.01 about log(100) + m, of metric x, better as said. */
static void add_boot_better(struct side *s, const char *row, const char *unit, enum metric_better better, double m)
{
	struct row *r = get_row(s, row);

	metric_set_add_sample(&r->metrics, "x", better, unit, 100 * exp(m - 0.01));
	metric_set_add_sample(&r->metrics, "x", better, unit, 100 * exp(m + 0.01));
}

static void add_boot(struct side *s, const char *row, const char *unit, double m)
{
	add_boot_better(s, row, unit, BETTER_HIGHER, m);
}

static void add_check(struct side *s, const char *row, int rc)
{
	struct row *r = get_row(s, row);

	r->kind = ROW_CHECK;
	r->has_rc = true;
	r->rc = rc;
}

static void release_sides(struct side *s, size_t n)
{
	for (size_t k = 0; k < n; k++)
		side_release(&s[k]);
}

static const struct compare_options default_options = {
	.stat = STAT_MEAN, .loud_pct = COMPARE_LOUD_PCT_DEFAULT, .boots_needed = true,
};

/* The name a headline gives a metric. */
static void test_metric_name(void **state)
{
	static const struct {
		const char *row, *metric, *want;
	} cases[] = {
		{ "gptoss-rocm", "pp512 @ d65536", "gptoss-rocm pp512@d65536" },
		{ "strata-prefill", "value", "strata-prefill" },
		{ "randread", "randread.iops", "randread iops" },
		{ "randread", "randwrite.iops", "randread randwrite.iops" },
		{ "boot", "randread.", "boot randread." },
		{ "hf", "mean", "hf mean" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct compare_metric cm = { .row = (char *)cases[i].row, .metric = (char *)cases[i].metric };
		char *name = headline_metric_name(&cm);

		assert_string_equal(name, cases[i].want);
		free(name);
	}
}

/*
 * pt translated off pt2, one boot each: no test can run, so nothing is
 * claimed, whatever the screen says of off's +4.2 % (the seed's round two
 * at 64k); the line says what would test it, and the cost still shows.
 */
static void test_screen_is_not_tested(void **state)
{
	static const char *const labels[4] = { "pt", "translated", "off", "pt2" };
	static const char *const modes[4] = { "pt", "translated", "off", "pt" };
	static const double delta[4] = { 0, -0.9, 4.2, 0.2 };
	struct side s[4];
	struct compare_result res;
	struct strlist w = STRLIST_INIT;
	struct headline h;
	const struct answer *a;

	(void)state;
	for (int k = 0; k < 4; k++) {
		double mean = 400 * (1 + delta[k] / 100);

		side_init(&s[k], labels[k], modes[k]);
		add_metric(&s[k], "rocm", "pp512 @ d65536", BETTER_HIGHER, "t/s", mean, mean * 0.012);
		/* A time, lower is better, 10 % less on off, loud everywhere. */
		add_metric(&s[k], "load", "ms", BETTER_LOWER, "ms", k == 2 ? 90 : 100, 8);
	}
	add_check(&s[2], "npu-validate", 1);
	add_check(&s[0], "npu-validate", 0);
	assert_int_equal(compare_sides(s, 4, &default_options, &res, &w), 0);
	/* The screen counts off's delta: a column of the table, no verdict of the answer. */
	assert_int_equal(res.metrics[0].cells[2].verdict, VERDICT_COUNTS);
	headline_build(&res, &h);
	assert_int_equal(h.n_lines, 2);
	assert_false(h.all_one_mode);

	assert_string_equal(h.lines[0].mode, "translated");
	assert_string_equal(h.lines[0].first_mode, "pt");
	assert_int_equal(h.lines[0].side, 1);
	assert_int_equal(h.lines[0].null, HEADLINE_NULL_NOT_TESTED);
	assert_int_equal(h.lines[0].n_items, 0);
	assert_int_equal(h.lines[0].not_tested, 2);
	/* pt's two boots tell the boot noise: the boots that would detect 2 %, as where a test ran. */
	assert_true(h.lines[0].has_detect);
	assert_true(h.lines[0].detect_boots >= 2);
	{
		char *want = xasprintf("translated vs pt: not tested (one boot of translated: 2 boots per mode, "
				       "or a history of this box, would test it); %u boots per mode would detect 2 %%",
				       h.lines[0].detect_boots);

		assert_string_equal(h.lines[0].text, want);
		free(want);
	}

	assert_string_equal(h.lines[1].mode, "off");
	assert_int_equal(h.lines[1].null, HEADLINE_NULL_NOT_TESTED);
	assert_int_equal(h.lines[1].n_items, 1);
	assert_int_equal(h.lines[1].items[0].kind, HEADLINE_COST);
	assert_string_equal(h.lines[1].items[0].text, "npu-validate failed, rc=1 (cost)");
	{
		char *want = xasprintf("off vs pt: not tested (one boot of off: 2 boots per mode, or a history of this "
				       "box, would test it); %u boots per mode would detect 2 %%; npu-validate failed, "
				       "rc=1 (cost)", h.lines[1].detect_boots);

		assert_string_equal(h.lines[1].text, want);
		free(want);
	}

	/* The one delta of off on rocm: its boot against pt's two, said to rest on one boot. */
	a = answer_find(&h.view, "off", &res.metrics[0]);
	assert_non_null(a);
	assert_int_equal(a->kind, ANSWER_NOT_TESTED);
	assert_true(a->one_boot);
	assert_true(a->delta_pct == a->test->delta_pct);
	assert_true(isnan(a->lo_pct) && isnan(a->p));
	assert_string_equal(a->test_name, "none");
	assert_string_equal(a->direction, "faster");
	assert_int_equal(a->boots, 1);
	assert_int_equal(a->boots_first, 2);
	assert_int_equal(a->boots_to_test, 2);
	assert_int_equal(h.view.n_claims, 0);
	assert_int_equal(h.view.n_not_tested, 4);
	assert_int_equal(h.view.n_tests, 0);
	assert_null(answer_find(&h.view, "pt", &res.metrics[0]));
	headline_release(&h);
	headline_release(&h);   /* released twice: a no-op */
	compare_result_release(&res);
	strlist_release(&w);
	release_sides(s, 4);
}

/*
 * A B A2 B2 A3 B3 A4, boot log means A 0 .02 -.02 0, B .05 .07 .06: the
 * boot t decides (test-compare.c has its numbers by hand); a second metric
 * on B moves by nothing and is not named.
 */
static void test_test_decides(void **state)
{
	static const char *const labels[7] = { "a", "b", "a2", "b2", "a3", "b3", "a4" };
	static const double ma[4] = { 0, 0.02, -0.02, 0 }, mb[3] = { 0.05, 0.07, 0.06 };
	struct side s[7];
	struct compare_result res;
	struct strlist w = STRLIST_INIT;
	struct headline h;
	const struct compare_test *t;
	char *want;

	(void)state;
	for (int k = 0; k < 7; k++) {
		side_init(&s[k], labels[k], k % 2 ? "b" : "a");
		add_boot(&s[k], "r", "", k % 2 ? mb[k / 2] : ma[k / 2]);
		add_boot(&s[k], "q", "", k % 2 ? ma[k / 2] : ma[k / 2]);
	}
	assert_int_equal(compare_sides(s, 7, &default_options, &res, &w), 0);
	headline_build(&res, &h);
	assert_int_equal(h.n_lines, 1);
	assert_int_equal(h.lines[0].n_items, 1);
	t = h.lines[0].items[0].answer->test;
	assert_non_null(t);
	assert_int_equal(t->verdict, VERDICT_COUNTS);
	assert_true(t->survives);
	assert_int_equal(h.lines[0].items[0].kind, HEADLINE_CLAIM);
	assert_int_equal(h.lines[0].items[0].answer->kind, ANSWER_CLAIM);
	assert_int_equal(h.lines[0].items[0].answer->boots, 3);
	assert_int_equal(h.lines[0].items[0].answer->boots_first, 4);
	assert_true(h.lines[0].items[0].answer->delta_pct == t->delta_pct);
	assert_true(h.lines[0].items[0].answer->lo_pct == t->lo_pct);
	assert_true(h.lines[0].items[0].answer->p == t->test.p);
	assert_string_equal(h.lines[0].items[0].answer->direction, "better");
	want = xasprintf("b vs a: r x %+.1f %% [%+.1f, %+.1f] better (boot t, 3 + 4 boots)", t->delta_pct, t->lo_pct,
			 t->hi_pct);
	assert_string_equal(h.lines[0].text, want);
	free(want);
	headline_release(&h);

	/* The same claim, had it not survived FDR: no claim, said plainly. */
	res.metrics[0].tests[0].survives = false;
	headline_build(&res, &h);
	assert_int_equal(h.lines[0].n_items, 1);
	assert_int_equal(h.lines[0].items[0].kind, HEADLINE_NOT_AFTER_FDR);
	assert_int_equal(h.lines[0].null, HEADLINE_NULL_NOT_SHOWN);
	assert_int_equal(h.view.n_claims, 0);
	assert_int_equal(h.view.n_not_after_fdr, 1);
	assert_non_null(strstr(h.lines[0].text, "b vs a: no difference shown"));
	want = xasprintf("r x %+.1f %% [%+.1f, %+.1f] better, not a claim after FDR over %zu tests (q %.2f) "
			 "(boot t, 3 + 4 boots)", t->delta_pct, t->lo_pct, t->hi_pct, res.n_tests, t->fdr_q);
	assert_string_equal(h.lines[0].items[0].text, want);
	free(want);
	headline_release(&h);
	compare_result_release(&res);
	strlist_release(&w);
	release_sides(s, 7);
}

/* Nulls: same within a margin; no difference with the boots that would detect 2 %; nothing judged. */
static void test_nulls(void **state)
{
	static const char *const labels[7] = { "a", "b", "a2", "b2", "a3", "b3", "a4" };
	static const double a[4] = { 0, 0.002, -0.002, 0 }, b[3] = { 0.0005, -0.0005, 0.0003 };
	struct side s[7];
	struct compare_result res;
	struct strlist w = STRLIST_INIT;
	struct compare_options o = default_options;
	struct headline h;
	unsigned detect;

	(void)state;
	for (int k = 0; k < 7; k++) {
		side_init(&s[k], labels[k], k % 2 ? "b" : "a");
		add_boot(&s[k], "r", "", k % 2 ? b[k / 2] : a[k / 2]);
	}
	o.equivalence_pct = 2;
	assert_int_equal(compare_sides(s, 7, &o, &res, &w), 0);
	assert_int_equal(res.metrics[0].tests[0].verdict, VERDICT_SAME);
	headline_build(&res, &h);
	assert_int_equal(h.lines[0].null, HEADLINE_NULL_SAME);
	assert_int_equal(h.lines[0].n_items, 0);
	assert_string_equal(h.lines[0].text, "b vs a: same within ±2 %");
	headline_release(&h);
	compare_result_release(&res);

	/* Without a margin: no difference shown, and the boots a 2 % change needs at this noise. */
	assert_int_equal(compare_sides(s, 7, &default_options, &res, &w), 0);
	assert_int_equal(res.metrics[0].tests[0].verdict, VERDICT_WITHIN_NOISE);
	detect = stats_boots_needed(log(1.02), res.metrics[0].tests[0].power_var, 2, 0.05, COMPARE_POWER, 1000);
	assert_true(detect >= 2);
	headline_build(&res, &h);
	assert_int_equal(h.lines[0].null, HEADLINE_NULL_NOT_SHOWN);
	assert_true(h.lines[0].has_detect);
	assert_int_equal(h.lines[0].detect_boots, detect);
	{
		char *want = xasprintf("b vs a: no difference shown; %u boots per mode would detect 2 %%", detect);

		assert_string_equal(h.lines[0].text, want);
		free(want);
	}
	headline_release(&h);
	compare_result_release(&res);

	/* a b, no repeat and no history: not tested, and what would test it. */
	assert_int_equal(compare_sides(s, 2, &default_options, &res, &w), 0);
	headline_build(&res, &h);
	assert_int_equal(h.lines[0].null, HEADLINE_NULL_NOT_TESTED);
	assert_string_equal(h.lines[0].text, "b vs a: not tested (one boot per mode: 2 boots per mode, or a history "
					    "of this box, would test it)");
	headline_release(&h);
	compare_result_release(&res);

	/* a a2: one mode, no line. */
	assert_int_equal(compare_sides((const struct side[]){ s[0], s[2] }, 2, &default_options, &res, &w), 0);
	headline_build(&res, &h);
	assert_int_equal(h.n_lines, 0);
	assert_true(h.all_one_mode);
	headline_release(&h);
	compare_result_release(&res);
	strlist_release(&w);
	release_sides(s, 7);
}

/* A check that fails on the first side too is no cost of the mode; a mode's repeat names it once. */
static void test_costs(void **state)
{
	static const char *const labels[5] = { "a", "b", "a2", "b2", "c" };
	static const char *const modes[5] = { "a", "b", "a", "b", "c" };
	struct side s[5];
	struct compare_result res;
	struct strlist w = STRLIST_INIT;
	struct headline h;

	(void)state;
	for (int k = 0; k < 5; k++) {
		side_init(&s[k], labels[k], modes[k]);
		add_metric(&s[k], "r", "m", BETTER_HIGHER, "t/s", 100, 1);
	}
	add_check(&s[0], "both", 1);
	add_check(&s[1], "both", 1);
	add_check(&s[1], "new", 2);
	add_check(&s[3], "new", 2);
	add_check(&s[4], "both", 1);
	assert_int_equal(compare_sides(s, 5, &default_options, &res, &w), 0);
	headline_build(&res, &h);
	assert_int_equal(h.n_lines, 2);
	assert_int_equal(h.lines[0].n_items, 1);
	assert_string_equal(h.lines[0].items[0].text, "new failed, rc=2 (cost)");
	assert_string_equal(h.lines[0].items[0].cost->row, "new");
	/* Boot means that do not vary bound nothing: not tested, said why, the cost beside it. */
	assert_int_equal(h.lines[0].null, HEADLINE_NULL_NOT_TESTED);
	assert_string_equal(h.lines[0].text, "b vs a: not tested (the boots of b and a do not vary: no test can "
					    "bound a difference); new failed, rc=2 (cost)");
	/* c: its only failure fails on a too; one boot of c: not tested. */
	assert_int_equal(h.lines[1].n_items, 0);
	assert_int_equal(h.lines[1].null, HEADLINE_NULL_NOT_TESTED);
	headline_release(&h);
	compare_result_release(&res);
	strlist_release(&w);
	release_sides(s, 5);
}

/*
 * Claims ordered by the size of the effect on the log scale, not by |%|: a
 * rate 60 % higher (log 0.47) comes after a time 40 % shorter (+40 %, log
 * 0.51); past 2x an effect is a factor, symmetric for better and worse,
 * its CI too.
 */
static void test_order_and_factors(void **state)
{
	static const char *const labels[7] = { "a", "b", "a2", "b2", "a3", "b3", "a4" };
	static const double noise[4] = { 0, 0.02, -0.02, 0 };
	struct side s[7];
	struct compare_result res;
	struct strlist w = STRLIST_INIT;
	struct headline h;
	const struct answer *rate = NULL, *time = NULL, *big = NULL, *small = NULL;
	struct strbuf sb = STRBUF_INIT;

	(void)state;
	for (int k = 0; k < 7; k++) {
		bool b = k % 2;
		double n = noise[k / 2];

		side_init(&s[k], labels[k], b ? "b" : "a");
		add_boot_better(&s[k], "rate", "t/s", BETTER_HIGHER, n + (b ? log(1.6) : 0));
		add_boot_better(&s[k], "time", "ms", BETTER_LOWER, n + (b ? log(0.6) : 0));
		add_boot_better(&s[k], "big", "ms", BETTER_LOWER, n + (b ? log(12) : 0));
		add_boot_better(&s[k], "small", "t/s", BETTER_HIGHER, n + (b ? -log(12) : 0));
	}
	assert_int_equal(compare_sides(s, 7, &default_options, &res, &w), 0);
	headline_build(&res, &h);
	for (size_t i = 0; i < res.n_metrics; i++) {
		const struct answer *a = answer_find(&h.view, "b", &res.metrics[i]);

		if (!strcmp(res.metrics[i].row, "rate"))
			rate = a;
		else if (!strcmp(res.metrics[i].row, "time"))
			time = a;
		else if (!strcmp(res.metrics[i].row, "big"))
			big = a;
		else
			small = a;
	}
	assert_int_equal(h.lines[0].n_items, 4);
	for (size_t i = 0; i < 4; i++)
		assert_int_equal(h.lines[0].items[i].kind, HEADLINE_CLAIM);
	/* A time 12x longer and a rate 12x lower (both 12.0x slower) first (the same size, either order), then the time, then the rate. */
	assert_true(h.lines[0].items[0].answer == big || h.lines[0].items[0].answer == small);
	assert_true(h.lines[0].items[1].answer == big || h.lines[0].items[1].answer == small);
	assert_ptr_equal(h.lines[0].items[2].answer, time);
	assert_ptr_equal(h.lines[0].items[3].answer, rate);
	assert_true(rate->delta_pct > time->delta_pct);
	assert_false(rate->factor);
	assert_false(time->factor);
	assert_true(big->factor && small->factor);
	assert_true(fabs(answer_factor(big->log_effect) - 12) < 1e-6);
	assert_true(fabs(answer_factor(small->log_effect) - 12) < 1e-6);
	assert_string_equal(big->direction, "slower");
	assert_string_equal(small->direction, "slower");
	answer_add_effect(&sb, big, true, false);
	{
		const struct compare_test *t = big->test;
		char *want = xasprintf("12.0x slower [%.1fx, %.1fx]", exp(-t->test.hi), exp(-t->test.lo));

		assert_string_equal(strbuf_str(&sb), want);
		assert_true(exp(-t->test.hi) < 12 && exp(-t->test.lo) > 12);
		free(want);
	}
	strbuf_truncate(&sb, 0);
	answer_add_effect(&sb, small, true, false);
	assert_non_null(strstr(strbuf_str(&sb), "12.0x slower ["));
	strbuf_truncate(&sb, 0);
	answer_add_effect(&sb, rate, false, true);
	assert_string_equal(strbuf_str(&sb), "+60.0 %");
	strbuf_truncate(&sb, 0);
	answer_add_effect(&sb, time, false, false);
	assert_string_equal(strbuf_str(&sb), "+40.0%");
	assert_non_null(strstr(h.lines[0].text, "big x 12.0x slower ["));
	strbuf_release(&sb);
	headline_release(&h);
	compare_result_release(&res);
	strlist_release(&w);
	release_sides(s, 7);
}

static void test_names(void **state)
{
	(void)state;
	assert_string_equal(headline_kind_name(HEADLINE_CLAIM), "claim");
	assert_string_equal(headline_kind_name(HEADLINE_NOT_AFTER_FDR), "not-after-fdr");
	assert_string_equal(headline_kind_name(HEADLINE_COST), "cost");
	assert_string_equal(headline_null_name(HEADLINE_NULL_NONE), "none");
	assert_string_equal(headline_null_name(HEADLINE_NULL_SAME), "same");
	assert_string_equal(headline_null_name(HEADLINE_NULL_UNDECIDED), "undecided");
	assert_string_equal(headline_null_name(HEADLINE_NULL_NOT_SHOWN), "not-shown");
	assert_string_equal(headline_null_name(HEADLINE_NULL_NOT_TESTED), "not-tested");
	assert_string_equal(answer_kind_name(ANSWER_CLAIM), "claim");
	assert_string_equal(answer_kind_name(ANSWER_NOT_AFTER_FDR), "not-after-fdr");
	assert_string_equal(answer_kind_name(ANSWER_SAME), "same");
	assert_string_equal(answer_kind_name(ANSWER_UNDECIDED), "undecided");
	assert_string_equal(answer_kind_name(ANSWER_NOT_SHOWN), "not-shown");
	assert_string_equal(answer_kind_name(ANSWER_NOT_TESTED), "not-tested");
	assert_string_equal(answer_kind_name(ANSWER_MISSING), "missing");
}

/* A boot's RAPL reading of row: two reps at log offsets -/+ 0.01 about log(100) + m joules. */
static void add_energy(struct side *s, const char *row, const char *metric, double m)
{
	struct row *r = get_row(s, row);

	metric_set_add_sample(&r->metrics, metric, BETTER_LOWER, "J", 100 * exp(m - 0.01))->counter = "rapl";
	metric_set_add_sample(&r->metrics, metric, BETTER_LOWER, "J", 100 * exp(m + 0.01))->counter = "rapl";
}

/* The headline's line of mode b over sides whose package energy (per rep) is pkg[k]: its text. */
static char *energy_line(const double *pkg, size_t n_pkg, const struct answer **ret_energy, struct headline *h,
			 struct compare_result *res, struct side *s)
{
	static const char *const labels[7] = { "a", "b", "a2", "b2", "a3", "b3", "a4" };
	static const double ma[4] = { 0, 0.02, -0.02, 0 }, mb[3] = { 0.05, 0.07, 0.06 };
	struct strlist w = STRLIST_INIT;

	for (size_t k = 0; k < 7; k++) {
		side_init(&s[k], labels[k], k % 2 ? "b" : "a");
		add_boot(&s[k], "r", "", k % 2 ? mb[k / 2] : ma[k / 2]);
		if (k < n_pkg) {
			add_energy(&s[k], "r", "package-0 energy", pkg[k]);
			/* Another zone: the package's is the one said. */
			add_energy(&s[k], "r", "dram energy", k % 2 ? 0.5 : 0);
		}
	}
	assert_int_equal(compare_sides(s, 7, &default_options, res, &w), 0);
	strlist_release(&w);
	headline_build(res, h);
	assert_int_equal(h->n_lines, 1);
	assert_int_equal(h->lines[0].items[0].kind, HEADLINE_CLAIM);
	*ret_energy = NULL;
	for (size_t i = 0; i < h->view.modes[0].n_answers; i++)
		if (!strcmp(h->view.modes[0].answers[i].metric->metric, "package-0 energy"))
			*ret_energy = &h->view.modes[0].answers[i];
	return h->lines[0].text;
}

/* A row that reads RAPL: its claim carries the package's energy, judged, claimed or not, or not tested. */
static void test_energy(void **state)
{
	/* b's package energy about 4 % more than a's on every boot. */
	static const double more[7] = { 0, 0.04, 0.005, 0.045, -0.005, 0.035, 0 };
	static const double alike[7] = { 0, 0.01, 0.02, -0.02, -0.01, 0.005, 0 };
	struct side s[7];
	struct compare_result res;
	struct headline h;
	const struct answer *e;
	const char *line;
	char *want;

	(void)state;
	line = energy_line(more, 7, &e, &h, &res, s);
	assert_non_null(e);
	assert_int_equal(e->kind, ANSWER_CLAIM);
	assert_true(exp(-e->log_effect) > 1.03 && exp(-e->log_effect) < 1.05);
	want = xasprintf("(boot t, 3 + 4 boots), %+.1f %% package-0 energy", (exp(-e->log_effect) - 1) * 100);
	assert_non_null(strstr(line, want));
	assert_string_equal(h.lines[0].items[0].energy, strstr(want, "), ") + 3);
	/* The dram zone is not said, nor is energy a counter of the why. */
	assert_null(strstr(line, "dram"));
	assert_null(h.lines[0].items[0].why);
	free(want);
	headline_release(&h);
	compare_result_release(&res);
	release_sides(s, 7);

	/* The same energy on both modes: tested, no difference shown. */
	line = energy_line(alike, 7, &e, &h, &res, s);
	assert_int_equal(e->kind, ANSWER_NOT_SHOWN);
	assert_non_null(strstr(line, "(boot t, 3 + 4 boots), no difference in package-0 energy shown"));
	headline_release(&h);
	compare_result_release(&res);
	release_sides(s, 7);

	/* Energy read on one boot of b only: not tested, said so. */
	line = energy_line(more, 3, &e, &h, &res, s);
	assert_int_equal(e->kind, ANSWER_NOT_TESTED);
	assert_non_null(strstr(line, "(boot t, 3 + 4 boots), package-0 energy not tested"));
	headline_release(&h);
	compare_result_release(&res);
	release_sides(s, 7);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_metric_name),
		cmocka_unit_test(test_screen_is_not_tested),
		cmocka_unit_test(test_test_decides),
		cmocka_unit_test(test_nulls),
		cmocka_unit_test(test_costs),
		cmocka_unit_test(test_order_and_factors),
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_energy),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
