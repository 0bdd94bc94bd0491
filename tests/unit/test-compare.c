/* Unit tests for src/compare.c: the seed rule's verdicts, drift, by-run rows, pairs, costs. */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "compare.h"
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_seed_rule),
		cmocka_unit_test(test_lower_is_better_and_no_drift),
		cmocka_unit_test(test_largest_drift_of_several_repeats),
		cmocka_unit_test(test_by_run),
		cmocka_unit_test(test_pairs_costs_versions_warnings),
		cmocka_unit_test(test_bad_arguments),
		cmocka_unit_test(test_row_stat),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
