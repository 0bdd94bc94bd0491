/* Unit tests for compare_sides() (src/judge/compare*.c): the seed rule's verdicts, drift, by-run rows, pairs, costs. */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "judge/compare.h"
#include "judge/drift.h"
#include "lib/alloc.h"

#define NEAR(a, b, tol) assert_true(fabs((a) - (b)) <= (tol))

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

static void add_metric(struct side *s, const char *row, const char *metric,
		       enum metric_better better, double mean, double sd)
{
	struct row *r = get_row(s, row);

	for (int i = 0; i < 5; i++)
		metric_set_add_sample(&r->metrics, metric, better, "t/s", mean + sd * Z[i]);
}

static void add_runs(struct side *s, const char *row, const double *v, size_t n)
{
	struct row *r = get_row(s, row);

	for (size_t i = 0; i < n; i++)
		metric_set_add_sample(&r->metrics, "value", BETTER_HIGHER, "", v[i]);
}

static void add_check(struct side *s, const char *row, int rc)
{
	struct row *r = get_row(s, row);

	r->kind = ROW_CHECK;
	r->has_rc = true;
	r->rc = rc;
}

static void add_version(struct side *s, const char *name, const char *value)
{
	GROW(s->versions, s->alloc_versions, s->n_versions + 1);
	s->versions[s->n_versions].name = xstrdup(name);
	s->versions[s->n_versions].value = xstrdup(value);
	s->n_versions++;
}

static const struct compare_options default_options = {
	.stat = STAT_MEAN, .loud_pct = COMPARE_LOUD_PCT_DEFAULT,
};

static const struct compare_metric *find(const struct compare_result *res, const char *row,
					 const char *metric)
{
	for (size_t i = 0; i < res->n_metrics; i++)
		if (!strcmp(res->metrics[i].row, row) && !strcmp(res->metrics[i].metric, metric))
			return &res->metrics[i];
	fail_msg("metric %s %s not found", row, metric);
	return NULL;
}

/* One metric, four boots A B C A2, values as % deltas from base 100. */
struct rule_case {
	const char *name;
	double spread_pct;      /* of the first side */
	double b, c, a2;        /* deltas in % */
	enum verdict vb, vc;
};

static const struct rule_case rule_cases[] = {
	/* The case study's readings (round two). */
	{ "rocm 64k prefill", 1.2, -0.9, 4.2, 0.2, VERDICT_WITHIN_NOISE, VERDICT_COUNTS },
	{ "flash-next 64k prefill", 1.7, -0.7, 2.6, 0.1, VERDICT_WITHIN_NOISE, VERDICT_COUNTS },
	{ "rocm decode", 0.35, 0.1, 0.6, 0.2, VERDICT_WITHIN_NOISE, VERDICT_COUNTS },
	{ "flash-next decode", 0.5, 0.4, 2.3, 1.6, VERDICT_WITHIN_NOISE, VERDICT_WITHIN_NOISE },
	{ "vulkan 32k", 1.5, -2.5, 1.1, -2.8, VERDICT_WITHIN_NOISE, VERDICT_WITHIN_NOISE },
	{ "vulkan 64k", 5.56, -7.5, -10.3, 1.0, VERDICT_LOUD, VERDICT_LOUD },
	/* Exactly twice the drift counts; just under does not. */
	{ "at the bar", 0.1, 2.0, 1.99, 1.0, VERDICT_COUNTS, VERDICT_WITHIN_NOISE },
	/* Twice the drift but inside the spread. */
	{ "inside spread", 3.0, 2.9, -2.9, 0.1, VERDICT_WITHIN_NOISE, VERDICT_WITHIN_NOISE },
	/* Negative effects count too. */
	{ "slower", 0.5, -3.0, -0.5, 0.3, VERDICT_COUNTS, VERDICT_WITHIN_NOISE },
};

static void test_seed_rule(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(rule_cases) / sizeof(rule_cases[0]); i++) {
		const struct rule_case *t = &rule_cases[i];
		struct side s[4];
		struct compare_result res;
		struct strlist w = STRLIST_INIT;
		const struct compare_metric *m;
		const double deltas[4] = { 0, t->b, t->c, t->a2 };
		const char *labels[4] = { "pt", "translated", "off", "pt2" };
		const char *modes[4] = { "pt", "translated", "off", "pt" };

		for (int k = 0; k < 4; k++) {
			double mean = 100 * (1 + deltas[k] / 100);

			side_init(&s[k], labels[k], modes[k]);
			add_metric(&s[k], "row", "pp512", BETTER_HIGHER, mean, mean * t->spread_pct / 100);
		}
		assert_int_equal(compare_sides(s, 4, &default_options, &res, &w), 0);
		m = find(&res, "row", "pp512");
		print_message("case %s\n", t->name);
		assert_int_equal(m->cells[0].verdict, VERDICT_BASELINE);
		assert_int_equal(m->cells[1].verdict, t->vb);
		assert_int_equal(m->cells[2].verdict, t->vc);
		assert_int_equal(m->cells[3].verdict, VERDICT_DRIFT);
		NEAR(m->cells[1].delta_pct, t->b, 1e-9);
		NEAR(m->cells[2].delta_pct, t->c, 1e-9);
		NEAR(m->cells[1].drift_pct, t->a2, 1e-9);
		NEAR(m->cells[0].spread_pct, t->spread_pct, 1e-9);
		NEAR(m->cells[2].q, fabs(t->c) / fabs(t->a2), 1e-9);
		NEAR(m->cells[2].p, stats_drift_rule_p(fabs(t->c) / fabs(t->a2)), 1e-12);
		assert_int_equal(res.n_repeats, 1);
		assert_int_equal(w.n, 0);
		compare_result_release(&res);
		strlist_release(&w);
		for (int k = 0; k < 4; k++)
			side_release(&s[k]);
	}
}

static void test_lower_is_better_and_no_drift(void **state)
{
	struct side s[2];
	struct compare_result res;
	struct strlist w = STRLIST_INIT;
	const struct compare_metric *m;

	(void)state;
	side_init(&s[0], "translated", "translated");
	side_init(&s[1], "pt", "pt");
	add_metric(&s[0], "fio", "randread.clat_mean_ns", BETTER_LOWER, 1000, 10);
	add_metric(&s[1], "fio", "randread.clat_mean_ns", BETTER_LOWER, 900, 10);
	assert_int_equal(compare_sides(s, 2, &default_options, &res, &w), 0);
	m = find(&res, "fio", "randread.clat_mean_ns");
	/* 10 % less latency is +10 % better. */
	NEAR(m->cells[1].delta_pct, 10, 1e-9);
	assert_int_equal(m->cells[1].verdict, VERDICT_NO_DRIFT);
	assert_true(isnan(m->cells[1].drift_pct));
	assert_int_equal(res.n_no_drift, 1);
	compare_result_release(&res);
	for (int k = 0; k < 2; k++)
		side_release(&s[k]);
}

static void test_largest_drift_of_several_repeats(void **state)
{
	struct side s[4];
	struct compare_result res;
	struct strlist w = STRLIST_INIT;
	const struct compare_metric *m;

	(void)state;
	side_init(&s[0], "a", "a");
	side_init(&s[1], "a2", "a");
	side_init(&s[2], "b", "b");
	side_init(&s[3], "a3", "a");
	add_metric(&s[0], "r", "x", BETTER_HIGHER, 100, 0.1);
	add_metric(&s[1], "r", "x", BETTER_HIGHER, 101, 0.1);
	add_metric(&s[2], "r", "x", BETTER_HIGHER, 105, 0.1);
	add_metric(&s[3], "r", "x", BETTER_HIGHER, 97, 0.1);
	assert_int_equal(compare_sides(s, 4, &default_options, &res, &w), 0);
	m = find(&res, "r", "x");
	NEAR(m->cells[2].drift_pct, -3, 1e-9);
	assert_int_equal(m->cells[2].verdict, VERDICT_WITHIN_NOISE);
	assert_int_equal(res.n_repeats, 2);
	compare_result_release(&res);
	for (int k = 0; k < 4; k++)
		side_release(&s[k]);
}

static void test_by_run(void **state)
{
	/* Strata: run 1 cold; off moves every run by +4.6..+5.0 %, pt2 by -1.0..-0.7 %. */
	const double pt[5] = { 612.0, 701.5, 703.2, 699.8, 702.6 };
	const double off_d[5] = { 4.6, 4.8, 5.0, 4.7, 4.9 };
	const double pt2_d[5] = { -0.7, -0.9, -1.0, -0.8, -0.7 };
	const double tr_d[5] = { 0.6, -0.4, 0.3, -0.2, 0.5 };
	double off[5], pt2[5], tr[5];
	struct side s[4];
	struct compare_result res;
	struct strlist w = STRLIST_INIT, by_run = STRLIST_INIT;
	struct compare_options o = default_options;
	const struct compare_metric *m;

	(void)state;
	for (int i = 0; i < 5; i++) {
		off[i] = pt[i] * (1 + off_d[i] / 100);
		pt2[i] = pt[i] * (1 + pt2_d[i] / 100);
		tr[i] = pt[i] * (1 + tr_d[i] / 100);
	}
	side_init(&s[0], "pt", "pt");
	side_init(&s[1], "translated", "translated");
	side_init(&s[2], "off", "off");
	side_init(&s[3], "pt2", "pt");
	add_runs(&s[0], "strata", pt, 5);
	add_runs(&s[1], "strata", tr, 5);
	add_runs(&s[2], "strata", off, 5);
	add_runs(&s[3], "strata", pt2, 5);
	strlist_add(&by_run, "strata");
	o.by_run = &by_run;
	assert_int_equal(compare_sides(s, 4, &o, &res, &w), 0);
	m = find(&res, "strata", "value");
	assert_true(m->by_run);
	NEAR(m->cells[2].delta_lo, 4.6, 1e-9);
	NEAR(m->cells[2].delta_hi, 5.0, 1e-9);
	NEAR(m->cells[2].drift_lo, -1.0, 1e-9);
	NEAR(m->cells[2].drift_hi, -0.7, 1e-9);
	assert_int_equal(m->cells[2].runs, 5);
	NEAR(m->cells[2].q, 4.6 / 1.0, 1e-9);
	assert_int_equal(m->cells[2].verdict, VERDICT_COUNTS);
	/* Mixed signs never count. */
	assert_int_equal(m->cells[1].verdict, VERDICT_WITHIN_NOISE);
	assert_int_equal(m->cells[3].verdict, VERDICT_DRIFT);
	/* The pooled spread (cold run included) is loud, but by-run rows are judged run by run. */
	assert_true(m->cells[0].spread_pct > 5);
	compare_result_release(&res);
	strlist_release(&by_run);
	for (int k = 0; k < 4; k++)
		side_release(&s[k]);
}

static void test_pairs_costs_versions_warnings(void **state)
{
	struct side s[4];
	struct compare_result res;
	struct strlist w = STRLIST_INIT;
	const struct compare_metric *m;

	(void)state;
	/* Round one: off on off2 on2, 32k prefill; pair two is 342.9 vs 338.0. */
	side_init(&s[0], "off", "off");
	side_init(&s[1], "on", "on");
	side_init(&s[2], "off2", "off");
	side_init(&s[3], "on2", "on");
	add_metric(&s[0], "vk", "pp512 @ d32768", BETTER_HIGHER, 338.0, 4);
	add_metric(&s[1], "vk", "pp512 @ d32768", BETTER_HIGHER, 338.0 * 1.069, 4);
	add_metric(&s[2], "vk", "pp512 @ d32768", BETTER_HIGHER, 338.0 * 1.046, 4);
	add_metric(&s[3], "vk", "pp512 @ d32768", BETTER_HIGHER, 338.0 * 1.046 * 342.9 / 338.0, 4);
	add_metric(&s[1], "vk", "tg128", BETTER_HIGHER, 40, 0.1);
	add_metric(&s[2], "vk", "zero", BETTER_HIGHER, 0, 0);
	add_metric(&s[0], "vk", "zero", BETTER_HIGHER, 1, 0);
	add_check(&s[0], "npu", 0);
	add_check(&s[1], "npu", 1);
	add_version(&s[0], "llama.cpp", "79e2e74eb");
	add_version(&s[1], "llama.cpp", "79e2e74eb");
	add_version(&s[2], "llama.cpp", "8a1f00c2d");
	assert_int_equal(compare_sides(s, 4, &default_options, &res, &w), 0);
	m = find(&res, "vk", "pp512 @ d32768");
	NEAR(m->cells[1].delta_pct, 6.9, 1e-9);
	NEAR(m->cells[1].drift_pct, 4.6, 1e-9);
	assert_int_equal(m->cells[1].verdict, VERDICT_WITHIN_NOISE);
	assert_int_equal(m->cells[1].pairs, 2);
	assert_int_equal(m->cells[1].pairs_agree, 2);
	assert_int_equal(res.n_costs, 1);
	assert_int_equal(res.costs[0].side, 1);
	assert_string_equal(res.costs[0].row, "npu");
	assert_int_equal(res.costs[0].rc, 1);
	assert_false(res.costs[0].fails_on_first);
	assert_int_equal(res.n_versions, 1);
	assert_string_equal(res.versions[0].values[2], "8a1f00c2d");
	assert_null(res.versions[0].values[3]);
	/* tg128 on one side only, zero mean on off2: warnings, not failures. */
	m = find(&res, "vk", "tg128");
	assert_int_equal(m->cells[0].verdict, VERDICT_MISSING);
	m = find(&res, "vk", "zero");
	assert_false(m->cells[2].present);
	assert_int_equal(w.n, 3);
	assert_string_equal(w.items[0], "row 'vk' metric 'zero' on off2: mean is zero or negative, no percentage can be computed, ignoring it there");
	assert_string_equal(w.items[1], "row 'vk' metric 'zero' is present on off only");
	assert_string_equal(w.items[2], "row 'vk' metric 'tg128' is present on on only");
	compare_result_release(&res);
	strlist_release(&w);
	for (int k = 0; k < 4; k++)
		side_release(&s[k]);
}

static void test_bad_arguments(void **state)
{
	struct side s[2];
	struct compare_result res = { .n_sides = 77 };
	struct strlist w = STRLIST_INIT, stats = STRLIST_INIT;
	struct compare_options o = default_options;

	(void)state;
	side_init(&s[0], "a", "a");
	side_init(&s[1], "b", "b");
	assert_int_equal(compare_sides(s, 1, &o, &res, &w), -EINVAL);
	strlist_add(&stats, "row=mode");
	o.row_stats = &stats;
	assert_int_equal(compare_sides(s, 2, &o, &res, &w), -EINVAL);
	o.row_stats = NULL;
	o.loud_pct = NAN;
	assert_int_equal(compare_sides(s, 2, &o, &res, &w), -EINVAL);
	assert_int_equal(res.n_sides, 77);
	strlist_release(&stats);
	side_release(&s[0]);
	side_release(&s[1]);
}

static void test_row_stat(void **state)
{
	struct side s[3];
	struct compare_result res;
	struct strlist w = STRLIST_INIT, stats = STRLIST_INIT;
	struct compare_options o = default_options;
	const double a[3] = { 10, 11, 30 }, b[3] = { 12, 13, 14 }, a2[3] = { 10, 11, 12 };
	const struct compare_metric *m;

	(void)state;
	side_init(&s[0], "a", "a");
	side_init(&s[1], "b", "b");
	side_init(&s[2], "a2", "a");
	add_runs(&s[0], "r", a, 3);
	add_runs(&s[1], "r", b, 3);
	add_runs(&s[2], "r", a2, 3);
	strlist_add(&stats, "r=median");
	o.row_stats = &stats;
	assert_int_equal(compare_sides(s, 3, &o, &res, &w), 0);
	m = find(&res, "r", "value");
	assert_int_equal(m->stat, STAT_MEDIAN);
	NEAR(m->cells[0].value, 11, 0);
	NEAR(m->cells[1].delta_pct, 100.0 * 13 / 11 - 100, 1e-9);
	compare_result_release(&res);
	strlist_release(&stats);
	for (int k = 0; k < 3; k++)
		side_release(&s[k]);
}

/*
 * Several statistics: each judged by the seed rule against its own drift.
 * Reps a {10, 10.5, 11}, b {12, 12.5, 13}, a2 {8.5, 10.5, 12.3}: the mean
 * of a is 10.5, of b 12.5 (+19.0 %), of a2 10.433 (drift -0.63 %: counts);
 * the min of a is 10, of b 12 (+20 %), of a2 8.5 (drift -15 %: q 1.33,
 * within noise).
 */
static void test_several_stats(void **state)
{
	struct side s[3];
	struct compare_result res;
	struct strlist w = STRLIST_INIT, stats = STRLIST_INIT;
	struct compare_options o = default_options;
	const double a[3] = { 10, 10.5, 11 }, b[3] = { 12, 12.5, 13 }, a2[3] = { 8.5, 10.5, 12.3 };
	const enum stat_kind mean_min[2] = { STAT_MEAN, STAT_MIN };
	const struct compare_metric *m;

	(void)state;
	side_init(&s[0], "a", "a");
	side_init(&s[1], "b", "b");
	side_init(&s[2], "a2", "a");
	add_runs(&s[0], "r", a, 3);
	add_runs(&s[1], "r", b, 3);
	add_runs(&s[2], "r", a2, 3);
	o.stats = mean_min;
	o.n_stats = 2;
	o.loud_pct = 100;
	assert_int_equal(compare_sides(s, 3, &o, &res, &w), 0);
	m = find(&res, "r", "value");
	assert_int_equal(m->n_stats, 2);
	assert_int_equal(m->stats[1], STAT_MIN);
	/* stats[0] is the cell's own value and verdict */
	NEAR(m->cells[1].stats[0].value, 12.5, 1e-12);
	NEAR(m->cells[1].stats[0].delta_pct, m->cells[1].delta_pct, 0);
	assert_int_equal(m->cells[1].stats[0].verdict, m->cells[1].verdict);
	NEAR(m->cells[1].delta_pct, 100.0 * 12.5 / 10.5 - 100, 1e-9);
	NEAR(m->cells[1].drift_pct, 100.0 * (31.3 / 3) / 10.5 - 100, 1e-9);
	assert_int_equal(m->cells[1].verdict, VERDICT_COUNTS);
	NEAR(m->cells[1].stats[1].value, 12, 0);
	NEAR(m->cells[0].stats[1].value, 10, 0);
	NEAR(m->cells[1].stats[1].delta_pct, 20, 1e-9);
	NEAR(m->cells[1].stats[1].drift_pct, -15, 1e-9);
	NEAR(m->cells[1].stats[1].q, 20.0 / 15, 1e-9);
	assert_int_equal(m->cells[1].stats[1].verdict, VERDICT_WITHIN_NOISE);
	assert_int_equal(m->cells[2].stats[1].verdict, VERDICT_DRIFT);
	assert_int_equal(m->cells[0].stats[1].verdict, VERDICT_BASELINE);
	/* Both statistics' verdicts are in the summary. */
	assert_int_equal(res.n_counts, 1);
	assert_int_equal(res.n_within_noise, 1);
	compare_result_release(&res);

	/* ROW=min,max overrides the default list for that row. */
	strlist_add(&stats, "r=min,max");
	o.row_stats = &stats;
	assert_int_equal(compare_sides(s, 3, &o, &res, &w), 0);
	m = find(&res, "r", "value");
	assert_int_equal(m->n_stats, 2);
	assert_int_equal(m->stat, STAT_MIN);
	assert_int_equal(m->stats[1], STAT_MAX);
	NEAR(m->cells[1].stats[1].value, 13, 0);
	NEAR(m->cells[1].value, 12, 0);
	compare_result_release(&res);
	/* A list whose first is not stat, and a bad row list, are refused. */
	o.stat = STAT_MIN;
	assert_int_equal(compare_sides(s, 3, &o, &res, &w), -EINVAL);
	o.stat = STAT_MEAN;
	strlist_add(&stats, "r=min,min");
	assert_int_equal(compare_sides(s, 3, &o, &res, &w), -EINVAL);
	strlist_release(&stats);
	strlist_release(&w);
	for (int k = 0; k < 3; k++)
		side_release(&s[k]);
}

/* The same samples in another order are no drift, not a drift of one ulp (q was 2e15). */
static void test_equal_means_no_drift(void **state)
{
	struct side s[3];
	struct compare_result res;
	struct strlist w = STRLIST_INIT;
	const double a[3] = { 0.1, 0.2, 0.3 }, b[3] = { 0.2, 0.3, 0.4 }, a2[3] = { 0.3, 0.2, 0.1 };
	struct compare_options o = default_options;
	const struct compare_metric *m;

	(void)state;
	/* The premise: summed in these orders, the two means differ in their last bit. */
	assert_true((a[0] + a[1] + a[2]) / 3 != (a2[0] + a2[1] + a2[2]) / 3);
	side_init(&s[0], "a", "a");
	side_init(&s[1], "b", "b");
	side_init(&s[2], "a2", "a");
	add_runs(&s[0], "r", a, 3);
	add_runs(&s[1], "r", b, 3);
	add_runs(&s[2], "r", a2, 3);
	o.loud_pct = 100;
	assert_int_equal(compare_sides(s, 3, &o, &res, &w), 0);
	m = find(&res, "r", "value");
	assert_true(m->cells[2].delta_pct == 0 && !signbit(m->cells[2].delta_pct));
	assert_true(m->cells[1].drift_pct == 0);
	assert_true(isinf(m->cells[1].q));
	compare_result_release(&res);
	strlist_release(&w);
	for (int k = 0; k < 3; k++)
		side_release(&s[k]);
}

/* A test suite's failures are a cost of its side, each compared with the first side's. */
static void test_test_suite_costs(void **state)
{
	struct side s[3];
	struct compare_result res;
	struct strlist w = STRLIST_INIT;
	struct row *r;

	(void)state;
	side_init(&s[0], "a", "a");
	side_init(&s[1], "b", "b");
	side_init(&s[2], "a2", "a");
	for (int k = 0; k < 3; k++) {
		add_metric(&s[k], "x", "v", BETTER_HIGHER, 100, 1);
		r = get_row(&s[k], "kunit");
		metric_set_add_check(&r->metrics, CHECK_PASSED, "ok");
		metric_set_add_check(&r->metrics, CHECK_SKIPPED, "skip");
	}
	metric_set_add_check(&get_row(&s[0], "kunit")->metrics, CHECK_FAILED, "suite.flaky");
	r = get_row(&s[1], "kunit");
	metric_set_add_check(&r->metrics, CHECK_FAILED, "suite.flaky");
	metric_set_add_check(&r->metrics, CHECK_FAILED, "suite.broken");
	r->has_rc = true;
	r->rc = 1;
	assert_int_equal(compare_sides(s, 3, &default_options, &res, &w), 0);
	assert_int_equal(res.n_costs, 2);
	assert_int_equal(res.costs[0].side, 0);
	assert_true(res.costs[0].has_tests);
	assert_int_equal(res.costs[0].tests_failed, 1);
	assert_int_equal(res.costs[1].side, 1);
	assert_string_equal(res.costs[1].row, "kunit");
	assert_int_equal(res.costs[1].rc, 1);
	assert_int_equal(res.costs[1].tests_failed, 2);
	assert_int_equal(res.costs[1].tests_total, 4);
	assert_int_equal(res.costs[1].tests_new, 1);
	assert_false(res.costs[1].fails_on_first);
	assert_string_equal(res.costs[1].failures[1], "suite.broken");
	/* A suite whose rows carry no metric is no metric of the report. */
	assert_int_equal(res.n_metrics, 1);
	compare_result_release(&res);
	strlist_release(&w);
	for (int k = 0; k < 3; k++)
		side_release(&s[k]);
}

/* A boot with two reps at log offsets -/+ 0.01 about log(100) + m: within SS 0.0002. */
static void add_boot(struct side *s, const char *row, enum metric_better better, double m)
{
	struct row *r = get_row(s, row);

	metric_set_add_sample(&r->metrics, "x", better, "", 100 * exp(m - 0.01));
	metric_set_add_sample(&r->metrics, "x", better, "", 100 * exp(m + 0.01));
}

static void release_sides(struct side *s, size_t n)
{
	for (size_t k = 0; k < n; k++)
		side_release(&s[k]);
}

/*
 * A B A2 B2 A3 B3 A4; boot log means A: 0, .02, -.02, 0 and B: .05, .07, .06.
 * By hand: pooled boot variance (8e-4 + 2e-4) / 5 = 2e-4 on 5 df; the test
 * is Welch's on the two modes' own variances, 8e-4 / 3 and 1e-4: estimate
 * 0.06, SE sqrt(8e-4 / 3 / 4 + 1e-4 / 3) = 0.01, df (1e-4)^2 / ((2e-4 /
 * 3)^2 / 3 + (1e-4 / 3)^2 / 2) = 54 / 11; sigma_w2 = 7 * 2e-4 / 7 = 2e-4; MSB = 2 (8e-4 +
 * 2e-4) / 5 = 4e-4, n0 = (14 - (2 + 2)) / 5 = 2, sigma_b2 = 1e-4, ICC 1/3.
 * Rounds inferred 1 1 2 2 3 3 4: paired differences .05 .05 .08, mean .06,
 * SE sqrt(3e-4) / sqrt(3) = 0.01 on 2 df.
 */
static const double ma[4] = { 0, 0.02, -0.02, 0 }, mb[3] = { 0.05, 0.07, 0.06 };

static void build_rounds(struct side *s, enum metric_better better)
{
	static const char *const labels[7] = { "a", "b", "a2", "b2", "a3", "b3", "a4" };

	for (int k = 0; k < 7; k++) {
		side_init(&s[k], labels[k], k % 2 ? "b" : "a");
		add_boot(&s[k], "r", better, k % 2 ? mb[k / 2] : ma[k / 2]);
	}
}

static void test_boot_level(void **state)
{
	struct side s[7];
	struct compare_result res;
	struct strlist w = STRLIST_INIT;
	struct compare_options o = default_options;
	const struct compare_metric *m;
	const struct compare_test *t;
	double se = 0.01, df = 54.0 / 11, tq = stats_t_quantile(0.975, 54.0 / 11);

	(void)state;
	build_rounds(s, BETTER_HIGHER);
	o.boots_needed = true;
	assert_int_equal(compare_sides(s, 7, &o, &res, &w), 0);
	m = find(&res, "r", "x");
	assert_true(m->has_components);
	NEAR(m->components.sigma_w2, 2e-4, 1e-12);
	NEAR(m->components.sigma_b2, 1e-4, 1e-12);
	NEAR(m->components.icc, 1.0 / 3, 1e-9);
	NEAR(m->components.boot_var, 2e-4, 1e-12);
	NEAR(m->components.boot_df, 5, 0);
	assert_true(res.rounds_inferred);
	assert_int_equal(res.rounds[6], 4);
	assert_int_equal(m->n_tests, 1);
	t = &m->tests[0];
	assert_string_equal(t->mode, "b");
	assert_int_equal(t->side, 1);
	assert_int_equal(t->boots_first, 4);
	assert_int_equal(t->boots, 3);
	assert_int_equal(t->method, METHOD_BOOT);
	NEAR(t->test.estimate, 0.06, 1e-12);
	NEAR(t->test.se, se, 1e-12);
	NEAR(t->test.df, df, 1e-12);
	NEAR(t->test.p, stats_t_two_sided_p(0.06 / se, df), 1e-12);
	NEAR(t->delta_pct, (exp(0.06) - 1) * 100, 1e-9);
	NEAR(t->lo_pct, (exp(0.06 - tq * se) - 1) * 100, 1e-4);
	NEAR(t->hi_pct, (exp(0.06 + tq * se) - 1) * 100, 1e-4);
	assert_int_equal(t->verdict, VERDICT_COUNTS);
	assert_true(t->has_welch);
	NEAR(t->welch.se, sqrt(8e-4 / 3 / 4 + 1e-4 / 3), 1e-12);
	NEAR(t->welch.p, t->test.p, 0);
	assert_true(t->has_paired);
	assert_int_equal(t->paired_rounds, 3);
	NEAR(t->paired.estimate, 0.06, 1e-12);
	NEAR(t->paired.se, 0.01, 1e-12);
	NEAR(t->paired.df, 2, 0);
	/* One test, p < 0.05: it survives BH at 0.10. */
	NEAR(t->fdr_q, t->test.p, 1e-15);
	assert_true(t->survives);
	assert_int_equal(res.n_tests, 1);
	assert_int_equal(res.n_claims, 1);
	assert_int_equal(res.n_survive, 1);
	assert_int_equal(t->boots_needed, stats_boots_needed(0.06, 2e-4, 2, 0.05, 0.8, 1000));
	assert_true(t->boots_needed >= 2);
	/* The naive pair on the first B boot: reps .04, .06 against -.01, .01. */
	assert_false(isnan(m->cells[1].rep_p));
	compare_result_release(&res);
	release_sides(s, 7);

	/*
	 * Lower is better: the same numbers, the sign turned, and the percentage
	 * is 1 - b/a, as in the screen's table: the one convention everywhere.
	 */
	build_rounds(s, BETTER_LOWER);
	assert_int_equal(compare_sides(s, 7, &default_options, &res, &w), 0);
	t = &find(&res, "r", "x")->tests[0];
	NEAR(t->test.estimate, -0.06, 1e-12);
	NEAR(t->delta_pct, (1 - exp(0.06)) * 100, 1e-9);
	NEAR(t->hi_pct, (1 - exp(0.06 - tq * se)) * 100, 1e-4);
	NEAR(t->lo_pct, (1 - exp(0.06 + tq * se)) * 100, 1e-4);
	NEAR(t->paired.estimate, -0.06, 1e-12);
	NEAR(t->welch.estimate, -0.06, 1e-12);
	assert_int_equal(t->boots_needed, 0);
	compare_result_release(&res);
	release_sides(s, 7);
	assert_int_equal(w.n, 0);
}

static void test_boot_level_recorded_rounds_and_untested(void **state)
{
	struct side s[7];
	struct compare_result res;
	struct strlist w = STRLIST_INIT;
	const struct compare_test *t;

	(void)state;
	/* Recorded rounds win: here every pair of sides is a round of its own. */
	build_rounds(s, BETTER_HIGHER);
	for (int k = 0; k < 7; k++)
		s[k].round = (unsigned)(k / 2 + 1);
	assert_int_equal(compare_sides(s, 7, &default_options, &res, &w), 0);
	assert_false(res.rounds_inferred);
	t = &find(&res, "r", "x")->tests[0];
	assert_int_equal(t->paired_rounds, 3);
	compare_result_release(&res);
	release_sides(s, 7);

	/* A B A2: one boot of B and no history: untested, but sigma from A/A2. */
	build_rounds(s, BETTER_HIGHER);
	assert_int_equal(compare_sides(s, 3, &default_options, &res, &w), 0);
	t = &find(&res, "r", "x")->tests[0];
	assert_int_equal(t->method, METHOD_NONE);
	assert_int_equal(t->verdict, VERDICT_UNTESTED);
	NEAR(t->estimate, 0.05 - 0.01, 1e-12);
	assert_true(isnan(t->lo_pct));
	assert_true(isnan(t->fdr_q));
	assert_false(t->has_paired);
	assert_true(find(&res, "r", "x")->has_components);
	assert_int_equal(res.n_tests, 0);
	compare_result_release(&res);
	release_sides(s, 7);
	assert_int_equal(w.n, 0);
}

static void history_entry_init(struct history *h, const char *key, const double *means, size_t n)
{
	struct history_entry e = { .key = xstrdup(key), .recorded = xstrdup(""), .kind = xstrdup("aa") };

	e.metrics = xcalloc(1, sizeof(*e.metrics));
	e.n_metrics = 1;
	e.metrics[0].row = xstrdup("r");
	e.metrics[0].metric = xstrdup("x");
	e.metrics[0].boots = xcalloc(n, sizeof(struct stats_boot));
	for (size_t i = 0; i < n; i++)
		e.metrics[0].boots[i] = (struct stats_boot){ means[i], 2, 2e-4 };
	e.metrics[0].n_boots = n;
	assert_int_equal(history_add(h, &e), 0);
	assert_null(e.key);
}

static void test_history(void **state)
{
	static const double e1[] = { 0.1, 0.13, 0.07 }, e2[] = { 0.5, 0.52 }, own[] = { 9, 1 };
	static const double tight[] = { 0, 0.0001, 0, 0.0001, 0 };
	static const double near[] = { 0, 0.0066666666666666671 };     /* sqrt(4e-4 / 9) */
	struct history h = HISTORY_INIT, h2 = HISTORY_INIT, h3 = HISTORY_INIT;
	struct side s[7];
	struct compare_result res;
	struct strlist w = STRLIST_INIT;
	struct compare_options o = default_options;
	const struct compare_metric *m;
	const struct compare_test *t;
	struct history_entry e;

	(void)state;
	/*
	 * History SS 1.8e-3 (2 df) + 2e-4 (1 df): variance 2e-3 / 3; the
	 * campaign's A/A2 has 2e-4 (1 df), 0.3 times it: inside the drift gate,
	 * so the history judges, pooled: 2.2e-3 / 4 on df = H + 1 = 4.
	 * B - mean(A, A2) = 0.04, SE sqrt(5.5e-4 (1/2 + 1)). The entry holding
	 * this campaign's boots is skipped.
	 */
	history_entry_init(&h, "e1", e1, 3);
	history_entry_init(&h, "e2", e2, 2);
	history_entry_init(&h, "boot-a,boot-a2", own, 2);
	build_rounds(s, BETTER_HIGHER);
	s[0].boot_id = xstrdup("boot-a");
	s[2].boot_id = xstrdup("boot-a2");
	o.history = &h;
	o.boots_needed = true;
	assert_int_equal(compare_sides(s, 3, &o, &res, &w), 0);
	assert_string_equal(res.history_key, "boot-a,boot-a2");
	m = find(&res, "r", "x");
	assert_true(m->has_history);
	assert_int_equal(m->history.entries, 2);
	NEAR(m->history.df, 3, 0);
	NEAR(m->history.var, 2e-3 / 3, 1e-15);
	NEAR(m->history.ratio, 0.3, 1e-9);
	assert_true(m->history.checked);
	assert_false(m->history.unusual);
	assert_false(m->history.drift);
	/* One metric, history df 3 (read as 4.5): its own F law; 0.3 is well inside. */
	assert_true(res.box.checked);
	NEAR(res.box.df, 1, 1e-9);
	assert_false(res.box.noisier);
	t = &m->tests[0];
	assert_int_equal(t->method, METHOD_HISTORY);
	NEAR(t->test.df, 4, 0);
	NEAR(t->test.se, sqrt(5.5e-4 * 1.5), 1e-12);
	NEAR(t->test.estimate, 0.04, 1e-12);
	NEAR(t->test.p, stats_t_two_sided_p(0.04 / sqrt(5.5e-4 * 1.5), 4), 1e-12);
	assert_int_equal(t->verdict, VERDICT_WITHIN_NOISE);
	/*
	 * Boots needed from the history's variance at this campaign's 2 reps,
	 * as bootab plan --effect --history computes it (not from the
	 * campaign's own one degree of freedom).
	 */
	assert_true(t->has_boots_needed);
	{
		struct stats_group g[2] = { { h.entries[0].metrics[0].boots, 3 }, { h.entries[1].metrics[0].boots, 2 } };
		struct stats_components hc;

		stats_variance_components(g, 2, &hc);
		assert_true(hc.sigma_b2 + hc.sigma_w2 / 2 > 0);
		assert_int_equal(t->boots_needed, stats_boots_needed(0.04, hc.sigma_b2 + hc.sigma_w2 / 2, 2, 0.05,
								     COMPARE_POWER, 1000));
		assert_true(t->boots_needed != stats_boots_needed(0.04, 2e-4, 2, 0.05, COMPARE_POWER, 1000));
	}
	assert_int_equal(res.n_tests, 1);
	assert_int_equal(res.n_claims, 0);
	assert_int_equal(res.n_drift, 0);

	/* The campaign's own entry: its two A boots; recording it again replaces it. */
	compare_history_entry(&res, "2025-03-01T10:00:00Z", &e);
	assert_string_equal(e.key, "boot-a,boot-a2");
	assert_string_equal(e.kind, "repeat");
	assert_int_equal(e.n_metrics, 1);
	assert_int_equal(e.metrics[0].n_boots, 2);
	NEAR(e.metrics[0].boots[1].mean, log(100) + 0.02, 1e-12);
	assert_int_equal(history_add(&h, &e), 0);
	assert_int_equal(h.n_entries, 3);
	NEAR(h.entries[2].metrics[0].boots[1].mean, log(100) + 0.02, 1e-12);
	compare_result_release(&res);

	/*
	 * A subset of the recorded campaign (A B): its key is "boot-a", but the
	 * entry "boot-a,boot-a2" holds boot-a: it is left out all the same.
	 */
	assert_int_equal(compare_sides(s, 2, &o, &res, &w), 0);
	assert_string_equal(res.history_key, "boot-a");
	m = find(&res, "r", "x");
	assert_int_equal(m->history.entries, 2);
	/* No repeat of A: nothing to check the history with. */
	assert_false(m->history.checked);
	assert_int_equal(m->tests[0].method, METHOD_HISTORY);
	compare_result_release(&res);

	/*
	 * A history far quieter than this campaign's A/A2 (unusual): the box is
	 * noisier than its history, and the history t decides nothing.
	 */
	history_entry_init(&h2, "quiet", tight, 5);
	o.history = &h2;
	assert_int_equal(compare_sides(s, 3, &o, &res, &w), 0);
	m = find(&res, "r", "x");
	assert_true(m->history.unusual);
	assert_true(m->history.p < 0.01);
	assert_true(m->history.drift);
	assert_true(res.box.noisier);
	t = &m->tests[0];
	assert_int_equal(t->method, METHOD_HISTORY);
	assert_int_equal(t->verdict, VERDICT_UNDECIDED);
	assert_int_equal(res.n_unusual, 1);
	assert_int_equal(res.n_drift, 1);
	assert_int_equal(res.n_claims, 0);
	assert_false(compare_decided(&res, NULL, NULL));
	compare_result_release(&res);

	/*
	 * One metric whose A/A2 varies 9 times its history (sd tripled): the
	 * history (one pair, df 1) is read as an F on (1, 4.5) df scaled to
	 * its mean 1.8; the campaign's 9 is above the limit: undecided, with
	 * the drift (2 %, A2 - A) and the history's (0.67 %) in its line.
	 */
	history_entry_init(&h3, "tripled", near, 2);
	o.history = &h3;
	assert_int_equal(compare_sides(s, 3, &o, &res, &w), 0);
	m = find(&res, "r", "x");
	NEAR(m->history.ratio, 9, 1e-9);
	assert_false(m->history.unusual);
	assert_true(res.box.checked);
	assert_int_equal(res.box.metrics, 1);
	NEAR(res.box.ratio, 9, 1e-9);
	NEAR(res.box.expected, 1.8, 1e-12);
	NEAR(res.box.df, 1, 1e-9);
	NEAR(res.box.df_history, 4.5, 1e-9);
	NEAR(res.box.limit, history_box_limit(1.8, res.box.df, res.box.df_history, 0.05), 0);
	assert_true(res.box.limit < 9);
	assert_true(res.box.noisier);
	assert_true(m->history.drift);
	assert_int_equal(m->tests[0].method, METHOD_HISTORY);
	assert_int_equal(m->tests[0].verdict, VERDICT_UNDECIDED);
	{
		struct strbuf sb = STRBUF_INIT;

		drift_add_undecided(&sb, &res, m);
		assert_string_equal(strbuf_str(&sb), "undecided: this box is noisier than its history (drift 2.0% vs expected 0.7%); one more round would decide");
		strbuf_release(&sb);
	}
	compare_result_release(&res);
	history_release(&h);
	history_release(&h2);
	history_release(&h3);
	release_sides(s, 7);
	assert_int_equal(w.n, 0);
}

/*
 * The box against its history over 8 metrics of one row. The history: 10
 * A/A pairs per metric, the second boot 0.02 above or below the first;
 * the signs are Walsh functions over the first 8 pairs, so no two metrics
 * move together (sharing = false), or one sign for all (sharing = true:
 * one metric eight times). The campaign A B A2 has A2 - A = k x 0.02 in
 * every metric: its variance is k^2 times the history's.
 */
static void box_case(double k, bool sharing, struct compare_result *res)
{
	static const char *const labels[3] = { "a", "b", "a2" };
	struct history h = HISTORY_INIT;
	struct side s[3];
	struct strlist w = STRLIST_INIT;
	struct compare_options o = default_options;
	char name[8];

	for (unsigned e = 0; e < 10; e++) {
		struct history_entry he = { .key = xasprintf("aa%u", e), .recorded = xstrdup(""), .kind = xstrdup("aa") };

		he.metrics = xcalloc(8, sizeof(*he.metrics));
		for (unsigned m = 0; m < 8; m++) {
			unsigned bits = e < 8 ? e & (sharing ? 7 : m) : 0;
			double sign = __builtin_popcount(bits) % 2 ? -1 : e == 9 && m % 2 && !sharing ? -1 : 1;

			snprintf(name, sizeof(name), "m%u", m);
			he.metrics[m].row = xstrdup("r");
			he.metrics[m].metric = xstrdup(name);
			he.metrics[m].boots = xcalloc(2, sizeof(struct stats_boot));
			he.metrics[m].boots[0] = (struct stats_boot){ 0, 2, 2e-4 };
			he.metrics[m].boots[1] = (struct stats_boot){ 0.02 * sign, 2, 2e-4 };
			he.metrics[m].n_boots = 2;
		}
		he.n_metrics = 8;
		assert_int_equal(history_add(&h, &he), 0);
	}
	for (int j = 0; j < 3; j++) {
		side_init(&s[j], labels[j], j == 1 ? "b" : "a");
		for (unsigned m = 0; m < 8; m++) {
			struct row *r = get_row(&s[j], "r");
			double mean = j == 2 ? 0.02 * k : 0;

			snprintf(name, sizeof(name), "m%u", m);
			metric_set_add_sample(&r->metrics, name, BETTER_HIGHER, "", 100 * exp(mean - 0.01));
			metric_set_add_sample(&r->metrics, name, BETTER_HIGHER, "", 100 * exp(mean + 0.01));
		}
	}
	o.history = &h;
	assert_int_equal(compare_sides(s, 3, &o, res, &w), 0);
	assert_int_equal(w.n, 0);
	/* The verdicts hold no pointer into the history or the sides that matters here. */
	history_release(&h);
	release_sides(s, 3);
}

static void test_history_box(void **state)
{
	static const struct {
		double k;
		bool sharing, noisier;
	} cases[] = {
		{ 1, false, false },            /* unchanged: the history judges */
		{ 3, false, true },             /* sd tripled: undecided */
		{ 1.4142135623730951, false, false },   /* twice the variance, 8 metrics: still within */
		{ 1.4142135623730951, true, true },     /* the same, one metric in eight copies: noisier */
	};
	struct compare_result res;

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		box_case(cases[i].k, cases[i].sharing, &res);
		assert_true(res.box.checked);
		assert_int_equal(res.box.metrics, 8);
		NEAR(res.box.ratio, cases[i].k * cases[i].k, 1e-6);
		assert_true(res.box.noisier == cases[i].noisier);
		assert_int_equal(res.n_drift, cases[i].noisier ? 8 : 0);
		for (size_t m = 0; m < res.n_metrics; m++) {
			assert_int_equal(res.metrics[m].tests[0].method, METHOD_HISTORY);
			assert_true((res.metrics[m].tests[0].verdict == VERDICT_UNDECIDED) == cases[i].noisier);
		}
		compare_result_release(&res);
	}
}

/*
 * Equivalence: A boots 0, .02, -.02, 0 and B boots .005, -.005, .003 (logs).
 * The TOST CI is estimate -/+ t(0.95, df) SE; inside the margin: the same.
 */
static void test_equivalence(void **state)
{
	static const double a[4] = { 0, 0.02, -0.02, 0 }, b[3] = { 0.005, -0.005, 0.003 };
	static const char *const labels[7] = { "a", "b", "a2", "b2", "a3", "b3", "a4" };
	struct side s[7];
	struct compare_result res;
	struct strlist w = STRLIST_INIT, rows = STRLIST_INIT;
	struct compare_options o = default_options;
	const struct compare_test *t;
	double est, se, tq, lo, hi, va, vb, df;
	double margin;

	(void)state;
	for (int k = 0; k < 7; k++) {
		side_init(&s[k], labels[k], k % 2 ? "b" : "a");
		add_boot(&s[k], "r", BETTER_HIGHER, k % 2 ? b[k / 2] : a[k / 2]);
		add_boot(&s[k], "q", BETTER_HIGHER, k % 2 ? b[k / 2] : a[k / 2]);
	}
	est = 0.001 - 0;
	/* Welch: A SS 8e-4 on 3 df, B SS (.004^2 + .006^2 + .002^2) = 5.6e-5 on 2. */
	va = 8e-4 / 3 / 4;
	vb = 5.6e-5 / 2 / 3;
	se = sqrt(va + vb);
	df = (va + vb) * (va + vb) / (va * va / 3 + vb * vb / 2);
	tq = stats_t_quantile(0.95, df);
	lo = expm1(est - tq * se) * 100;
	hi = expm1(est + tq * se) * 100;
	margin = ceil(fmax(-lo, hi) * 10) / 10 + 0.1;
	o.equivalence_pct = margin;
	o.boots_needed = true;
	/* Row q with a margin too narrow for its CI. */
	strlist_add(&rows, "q=0.5%");
	o.row_equivalence = &rows;
	assert_int_equal(compare_sides(s, 7, &o, &res, &w), 0);
	t = &find(&res, "r", "x")->tests[0];
	NEAR(t->test.estimate, est, 1e-12);
	NEAR(t->test.se, se, 1e-12);
	assert_true(t->has_equivalence);
	NEAR(t->eq_lo_pct, lo, 1e-9);
	NEAR(t->eq_hi_pct, hi, 1e-9);
	assert_true(t->equivalent);
	assert_int_equal(t->verdict, VERDICT_SAME);
	assert_false(t->has_boots_to_decide);
	NEAR(find(&res, "r", "x")->margin_pct, margin, 1e-12);
	/* q: the same data, margin 0.5 %: undecided, with the boots that would decide it. */
	t = &find(&res, "q", "x")->tests[0];
	NEAR(find(&res, "q", "x")->margin_pct, 0.5, 1e-12);
	assert_false(t->equivalent);
	assert_int_equal(t->verdict, VERDICT_UNDECIDED);
	assert_true(t->has_boots_to_decide);
	assert_true(t->boots_to_decide >= 2);
	assert_int_equal(t->boots_to_decide,
			 stats_tost_boots_needed(est, log1p(-0.005), log1p(0.005),
						 find(&res, "q", "x")->components.sigma_b2 +
						 find(&res, "q", "x")->components.sigma_w2 / 2, 2, 0.05, COMPARE_POWER, 1000));
	assert_int_equal(res.n_same, 1);
	assert_int_equal(res.n_undecided, 1);
	assert_int_equal(verdict_name(VERDICT_SAME)[0], 's');
	compare_result_release(&res);

	/* No margin: within noise, as before. */
	o.equivalence_pct = 0;
	o.row_equivalence = NULL;
	assert_int_equal(compare_sides(s, 7, &o, &res, &w), 0);
	t = &find(&res, "r", "x")->tests[0];
	assert_false(t->has_equivalence);
	assert_int_equal(t->verdict, VERDICT_WITHIN_NOISE);
	compare_result_release(&res);

	/* Bad margins. */
	o.equivalence_pct = 60;
	assert_int_equal(compare_sides(s, 7, &o, &res, &w), -EINVAL);
	assert_int_equal(compare_parse_margin("2%", &margin), 0);
	NEAR(margin, 2, 0);
	assert_int_equal(compare_parse_margin("0.5", &margin), 0);
	assert_int_equal(compare_parse_margin("0", &margin), -EINVAL);
	assert_int_equal(compare_parse_margin("2%%", &margin), -EINVAL);
	assert_int_equal(compare_parse_margin("x", &margin), -EINVAL);
	strlist_release(&rows);
	release_sides(s, 7);
	assert_int_equal(w.n, 0);
}

/*
 * Each comparison has the variance of its two modes. A B C A2 B2 C2 A3 with
 * boot log means A 0, .01, -.01; B .05, .06; C 0, .3 (C is loud): B's test
 * is Welch's on A's and B's boots alone (variances 1e-4 on 2 df and 5e-5
 * on 1), the same as without C; C's has C's variance, .045, and finds nothing.
 */
static void test_per_pair_variance(void **state)
{
	static const char *const labels[7] = { "a", "b", "c", "a2", "b2", "c2", "a3" };
	static const char *const modes[7] = { "a", "b", "c", "a", "b", "c", "a" };
	static const double means[7] = { 0, 0.05, 0, 0.01, 0.06, 0.3, -0.01 };
	static const size_t two[5] = { 0, 1, 3, 4, 6 };
	struct side s[7], s2[5];
	struct compare_result res, res2;
	struct strlist w = STRLIST_INIT;
	struct compare_options o = default_options;
	const struct compare_test *t;
	double va = 1e-4 / 3, vb = 5e-5 / 2, se = sqrt(va + vb);
	double df = (va + vb) * (va + vb) / (va * va / 2 + vb * vb / 1);

	(void)state;
	for (int k = 0; k < 7; k++) {
		side_init(&s[k], labels[k], modes[k]);
		add_boot(&s[k], "r", BETTER_HIGHER, means[k]);
	}
	for (int k = 0; k < 5; k++) {
		side_init(&s2[k], labels[two[k]], modes[two[k]]);
		add_boot(&s2[k], "r", BETTER_HIGHER, means[two[k]]);
	}
	assert_int_equal(compare_sides(s, 7, &o, &res, &w), 0);
	assert_int_equal(compare_sides(s2, 5, &o, &res2, &w), 0);
	t = &find(&res, "r", "x")->tests[0];
	assert_string_equal(t->mode, "b");
	assert_int_equal(t->method, METHOD_BOOT);
	NEAR(t->test.estimate, 0.055, 1e-12);
	NEAR(t->test.se, se, 1e-12);
	NEAR(t->test.df, df, 1e-9);
	assert_int_equal(t->verdict, VERDICT_COUNTS);
	/* C's noise is no part of it: the same test as in A B A2 B2 A3. */
	NEAR(t->test.p, find(&res2, "r", "x")->tests[0].test.p, 1e-15);
	NEAR(t->lo_pct, find(&res2, "r", "x")->tests[0].lo_pct, 1e-12);
	/* C against A: C's own variance (.045 on 1 df) makes it wide. */
	t = &find(&res, "r", "x")->tests[1];
	assert_string_equal(t->mode, "c");
	NEAR(t->test.se, sqrt(va + 0.045 / 2), 1e-12);
	assert_int_equal(t->verdict, VERDICT_WITHIN_NOISE);
	compare_result_release(&res);
	compare_result_release(&res2);
	release_sides(s, 7);
	release_sides(s2, 5);
	assert_int_equal(w.n, 0);
}

/* Five reps at 100 + sd Z on side s, rep 2 set to wild when wild > 0. */
static void add_reps(struct side *s, const char *row, double mean, double sd, double wild)
{
	struct row *r = get_row(s, row);

	for (int i = 0; i < 5; i++)
		metric_set_add_sample(&r->metrics, "x", BETTER_HIGHER, "", i == 2 && wild > 0 ? wild : mean + sd * Z[i]);
}

/*
 * One slow rep: A B A2 B2 A3 at 100 +/- 0.3 with rep 2 of b at 65 (35 %
 * slow, a throttle). It is flagged on b alone, left out of b's boot mean
 * (and so of the test, which finds nothing), and b's screen is loud, not a
 * claim; in a by-run row the index is still the sample's.
 */
static void test_wild_rep(void **state)
{
	static const char *const labels[5] = { "a", "b", "a2", "b2", "a3" };
	struct side s[5];
	struct compare_result res;
	struct strlist w = STRLIST_INIT, by_run = STRLIST_INIT;
	struct compare_options o = default_options;
	const struct compare_metric *m;
	double kept[4] = { 100.1 + 0.3 * Z[0], 100.1 + 0.3 * Z[1], 100.1 + 0.3 * Z[3], 100.1 + 0.3 * Z[4] };
	struct stats_boot four;

	(void)state;
	for (int k = 0; k < 5; k++) {
		side_init(&s[k], labels[k], k % 2 ? "b" : "a");
		add_reps(&s[k], "r", 100 + 0.1 * k, 0.3, k == 1 ? 65 : 0);
		add_reps(&s[k], "q", 100 + 0.1 * k, 0.3, k == 1 ? 65 : 0);
	}
	strlist_add(&by_run, "q");
	o.by_run = &by_run;
	assert_int_equal(compare_sides(s, 5, &o, &res, &w), 0);
	m = find(&res, "r", "x");
	for (int k = 0; k < 5; k++)
		assert_int_equal(m->cells[k].n_wild, k == 1);
	assert_int_equal(m->cells[1].wild[0], 2);
	assert_int_equal(m->cells[1].boot.n, 4);
	assert_int_equal(stats_boot_summarise(kept, 4, 0, &four), 0);
	NEAR(m->cells[1].boot.mean, four.mean, 1e-12);
	NEAR(m->cells[1].boot.ss, four.ss, 1e-15);
	assert_int_equal(m->cells[1].verdict, VERDICT_LOUD);
	assert_int_equal(m->tests[0].wild_reps, 1);
	assert_int_equal(m->tests[0].method, METHOD_BOOT);
	assert_int_equal(m->tests[0].verdict, VERDICT_WITHIN_NOISE);
	NEAR(m->tests[0].delta_pct, 0, 0.5);
	/* By-run: run 1 is left out of the boot, the wild run keeps its index. */
	m = find(&res, "q", "x");
	assert_int_equal(m->cells[1].n_wild, 1);
	assert_int_equal(m->cells[1].wild[0], 2);
	assert_int_equal(m->cells[1].boot.n, 3);
	/* No warning about unequal reps: b recorded five like the others. */
	assert_int_equal(w.n, 0);
	compare_result_release(&res);
	strlist_release(&by_run);
	release_sides(s, 5);
}

/*
 * The spread rule looks at every side: the first side is quiet, but b
 * is 9 % loud, so its +10 % is not screened as a claim.
 */
static void test_loud_any_side(void **state)
{
	struct side s[3];
	struct compare_result res;
	struct strlist w = STRLIST_INIT;
	struct compare_options o = default_options;

	(void)state;
	side_init(&s[0], "a", "a");
	side_init(&s[1], "b", "b");
	side_init(&s[2], "a2", "a");
	add_metric(&s[0], "r", "x", BETTER_HIGHER, 100, 0.2);
	add_metric(&s[1], "r", "x", BETTER_HIGHER, 110, 10);
	add_metric(&s[2], "r", "x", BETTER_HIGHER, 100.5, 0.2);
	assert_int_equal(compare_sides(s, 3, &o, &res, &w), 0);
	assert_int_equal(find(&res, "r", "x")->cells[1].verdict, VERDICT_LOUD);
	compare_result_release(&res);
	/* Quiet b, the same delta: it counts. */
	side_release(&s[1]);
	side_init(&s[1], "b", "b");
	add_metric(&s[1], "r", "x", BETTER_HIGHER, 110, 0.2);
	assert_int_equal(compare_sides(s, 3, &o, &res, &w), 0);
	assert_int_equal(find(&res, "r", "x")->cells[1].verdict, VERDICT_COUNTS);
	compare_result_release(&res);
	release_sides(s, 3);
	assert_int_equal(w.n, 0);
}

/* The audit's edge cases, each with its defined behaviour. */
static void test_edge_cases(void **state)
{
	static const char *const labels[7] = { "a", "b", "a2", "b2", "a3", "b3", "a4" };
	struct side s[7];
	struct compare_result res;
	struct strlist w = STRLIST_INIT;
	const struct compare_metric *m;
	const struct compare_test *t;
	bool said;

	(void)state;
	/*
	 * A row missing on the first side but present on its repeats: the
	 * screen cannot judge it, the boot level tests B against A2, A3, A4.
	 */
	for (int k = 0; k < 7; k++) {
		side_init(&s[k], labels[k], k % 2 ? "b" : "a");
		add_boot(&s[k], "o", BETTER_HIGHER, 0);
		if (k > 0)
			add_boot(&s[k], "r", BETTER_HIGHER, k % 2 ? mb[k / 2] : ma[k / 2]);
	}
	assert_int_equal(compare_sides(s, 7, &default_options, &res, &w), 0);
	m = find(&res, "r", "x");
	assert_int_equal(m->n_tests, 1);
	t = &m->tests[0];
	assert_int_equal(t->boots_first, 3);
	assert_int_equal(t->boots, 3);
	assert_int_equal(t->method, METHOD_BOOT);
	NEAR(t->estimate, 0.06 - (0.02 - 0.02 + 0) / 3, 1e-12);
	assert_int_equal(m->cells[1].verdict, VERDICT_MISSING);
	said = false;
	for (size_t i = 0; i < w.n; i++)
		said |= strstr(w.items[i], "row 'r' metric 'x' is missing on the first side a: the screen cannot judge it; "
					    "the boot level compares with the other boots of a") != NULL;
	assert_true(said);
	compare_result_release(&res);
	release_sides(s, 7);
	strlist_release(&w);

	/*
	 * No boot-to-boot variance and a constant shift: the test has nothing
	 * to bound it with (not tested, the shift still given); the screen's
	 * drift is 0, so its q is infinite.
	 */
	for (int k = 0; k < 5; k++) {
		side_init(&s[k], labels[k], k % 2 ? "b" : "a");
		for (int i = 0; i < 2; i++)
			metric_set_add_sample(&get_row(&s[k], "z")->metrics, "x", BETTER_HIGHER, "", k % 2 ? 110 : 100);
	}
	assert_int_equal(compare_sides(s, 5, &default_options, &res, &w), 0);
	m = find(&res, "z", "x");
	t = &m->tests[0];
	assert_int_equal(t->method, METHOD_NONE);
	assert_int_equal(t->verdict, VERDICT_UNTESTED);
	NEAR(t->delta_pct, 10, 1e-9);
	NEAR(m->cells[1].delta_pct, 10, 1e-9);
	assert_true(isinf(m->cells[1].q));
	assert_int_equal(res.n_tests, 0);
	compare_result_release(&res);
	release_sides(s, 5);
	assert_int_equal(w.n, 0);

	/*
	 * A delta of exactly 0 has no sign: B equals A and B2 equals A2, so no
	 * pair agrees with it (it used to read "sign agrees in 2 of 2 pairs").
	 */
	for (int k = 0; k < 5; k++) {
		side_init(&s[k], labels[k], k % 2 ? "b" : "a");
		add_boot(&s[k], "e", BETTER_HIGHER, k < 2 ? 0 : 0.01);
	}
	assert_int_equal(compare_sides(s, 5, &default_options, &res, &w), 0);
	m = find(&res, "e", "x");
	NEAR(m->cells[1].delta_pct, 0, 0);
	assert_int_equal(m->cells[1].pairs, 2);
	assert_int_equal(m->cells[1].pairs_agree, 0);
	compare_result_release(&res);
	release_sides(s, 5);

	/* A boot of 1 rep beside boots of 2: said, since the test weighs them alike. */
	for (int k = 0; k < 5; k++) {
		side_init(&s[k], labels[k], k % 2 ? "b" : "a");
		if (k == 3)
			metric_set_add_sample(&get_row(&s[k], "r")->metrics, "x", BETTER_HIGHER, "", 101);
		else
			add_boot(&s[k], "r", BETTER_HIGHER, 0.01 * k);
	}
	assert_int_equal(compare_sides(s, 5, &default_options, &res, &w), 0);
	assert_int_equal(w.n, 1);
	assert_string_equal(w.items[0], "row 'r' metric 'x': its boots have 1 to 2 reps (1 on b2); the boot-level test "
					"weighs every boot alike, as if each had the same reps");
	compare_result_release(&res);
	release_sides(s, 5);
	strlist_release(&w);
}

static void test_fdr_across_metrics(void **state)
{
	struct side s[7];
	struct compare_result res;
	struct strlist w = STRLIST_INIT;
	const struct compare_metric *m1, *m2;
	double p[2], q[2];

	(void)state;
	/* Two metrics: "r" as above, "q" with B barely above A. */
	build_rounds(s, BETTER_HIGHER);
	for (int k = 0; k < 7; k++)
		add_boot(&s[k], "q", BETTER_HIGHER, k % 2 ? mb[k / 2] - 0.045 : ma[k / 2]);
	assert_int_equal(compare_sides(s, 7, &default_options, &res, &w), 0);
	m1 = find(&res, "r", "x");
	m2 = find(&res, "q", "x");
	p[0] = m1->tests[0].test.p;
	p[1] = m2->tests[0].test.p;
	stats_bh_adjust(p, 2, q);
	NEAR(m1->tests[0].fdr_q, q[0], 1e-15);
	NEAR(m2->tests[0].fdr_q, q[1], 1e-15);
	assert_int_equal(res.n_tests, 2);
	assert_int_equal(res.n_claims, (m1->tests[0].verdict == VERDICT_COUNTS) + (m2->tests[0].verdict == VERDICT_COUNTS));
	assert_int_equal(res.n_survive, (q[0] <= 0.1 && m1->tests[0].verdict == VERDICT_COUNTS) +
					(q[1] <= 0.1 && m2->tests[0].verdict == VERDICT_COUNTS));
	assert_int_equal(m2->tests[0].verdict, VERDICT_WITHIN_NOISE);
	compare_result_release(&res);
	release_sides(s, 7);
}

static void test_nonpositive_sample_no_boot_level(void **state)
{
	struct side s[3];
	struct compare_result res;
	struct strlist w = STRLIST_INIT;
	const double a[3] = { 10, 11, 12 }, b[3] = { 12, 0, 14 }, a2[3] = { 10, 11, 12 };
	const struct compare_metric *m;

	(void)state;
	side_init(&s[0], "a", "a");
	side_init(&s[1], "b", "b");
	side_init(&s[2], "a2", "a");
	add_runs(&s[0], "r", a, 3);
	add_runs(&s[1], "r", b, 3);
	add_runs(&s[2], "r", a2, 3);
	assert_int_equal(compare_sides(s, 3, &default_options, &res, &w), 0);
	m = find(&res, "r", "value");
	assert_false(m->cells[0].has_boot);
	/* A mode without boots is no test: nothing is kept for it. */
	assert_null(m->tests);
	assert_int_equal(m->n_tests, 0);
	assert_int_equal(w.n, 1);
	assert_string_equal(w.items[0], "row 'r' on b: a sample is zero or negative, so no boot-level statistics for it");
	compare_result_release(&res);
	strlist_release(&w);
	release_sides(s, 3);
}

/* One table names every verdict: each has a name, words and a class of its own. */
static void test_verdict_table(void **state)
{
	static const char *const names[] = { "baseline", "counts", "within-noise", "loud", "no-drift",
					      "drift", "missing", "untested", "same", "undecided" };

	(void)state;
	for (int v = VERDICT_BASELINE; v <= VERDICT_UNDECIDED; v++) {
		const struct verdict_text *t = verdict_text((enum verdict)v);

		assert_string_equal(verdict_name((enum verdict)v), names[v]);
		assert_non_null(t->words);
		assert_non_null(t->brief);
		assert_non_null(t->css);
		for (int w = VERDICT_BASELINE; w < v; w++)
			assert_string_not_equal(t->css, verdict_text((enum verdict)w)->css);
	}
	assert_string_equal(verdict_text(VERDICT_UNTESTED)->words, "not tested");
	assert_string_equal(verdict_text(VERDICT_UNTESTED)->css, "v-untested");
	assert_string_equal(verdict_name((enum verdict)99), "missing");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_seed_rule),
		cmocka_unit_test(test_verdict_table),
		cmocka_unit_test(test_lower_is_better_and_no_drift),
		cmocka_unit_test(test_largest_drift_of_several_repeats),
		cmocka_unit_test(test_by_run),
		cmocka_unit_test(test_pairs_costs_versions_warnings),
		cmocka_unit_test(test_bad_arguments),
		cmocka_unit_test(test_row_stat),
		cmocka_unit_test(test_several_stats),
		cmocka_unit_test(test_test_suite_costs),
		cmocka_unit_test(test_equal_means_no_drift),
		cmocka_unit_test(test_boot_level),
		cmocka_unit_test(test_boot_level_recorded_rounds_and_untested),
		cmocka_unit_test(test_history),
		cmocka_unit_test(test_history_box),
		cmocka_unit_test(test_equivalence),
		cmocka_unit_test(test_per_pair_variance),
		cmocka_unit_test(test_wild_rep),
		cmocka_unit_test(test_loud_any_side),
		cmocka_unit_test(test_edge_cases),
		cmocka_unit_test(test_fdr_across_metrics),
		cmocka_unit_test(test_nonpositive_sample_no_boot_level),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
