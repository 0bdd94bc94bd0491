/* Unit tests for src/stats/fleet.c and src/judge/fleet.c against hand-computed values. */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "judge/fleet.h"
#include "stats/fleet.h"

#define NEAR(a, b, tol) assert_true(fabs((a) - (b)) <= (tol))

static void test_pool(void **state)
{
	const double d[] = { 0.01, 0.02, 0.06 }, v[] = { 1e-4, 1e-4, 1e-4 }, f[] = { 1e8, 1e8, 1e8 };
	struct stats_fleet p;

	(void)state;
	assert_int_equal(stats_fleet_pool(d, v, f, 3, 0.05, &p), 0);
	/* Deviations -0.02, -0.01, 0.03: SS 0.0014, variance 0.0007 on 2 df. */
	NEAR(p.mean, 0.03, 1e-12);
	NEAR(p.sd, sqrt(0.0007), 1e-12);
	NEAR(p.test.se, sqrt(0.0007 / 3), 1e-12);
	assert_true(p.test.df == 2);
	/* t(0.975, 2) = 4.302653 */
	NEAR(p.test.lo, 0.03 - 4.302653 * sqrt(0.0007 / 3), 1e-6);
	NEAR(p.test.hi, 0.03 + 4.302653 * sqrt(0.0007 / 3), 1e-6);
	assert_true(p.has_tau);
	NEAR(p.tau2, 0.0007 - 1e-4, 1e-12);
	/* Equal weights: m = 0.03, t = -2, -1, 3, Q = 14; with f huge X = Q and p = exp(-7) on 2 df. */
	assert_true(p.has_heterogeneity);
	NEAR(p.q, 14, 1e-9);
	NEAR(p.het_x, 14, 1e-4);
	NEAR(p.het_p, exp(-7), 1e-6);
	NEAR(p.i2, (14.0 - 2) / 14, 1e-9);
}

static void test_pool_few_df(void **state)
{
	const double d[] = { 0.01, 0.02, 0.06 }, v[] = { 1e-4, 1e-4, 1e-4 }, f3[] = { 3, 10, 10 }, f4[] = { 4, 4, 4 };
	const double vnan[] = { 1e-4, NAN, 1e-4 };
	struct stats_fleet p;

	(void)state;
	/* A machine whose own test rests on 3 df: heterogeneity is not tested, the pooled mean is. */
	assert_int_equal(stats_fleet_pool(d, v, f3, 3, 0.05, &p), 0);
	assert_false(p.has_heterogeneity);
	assert_true(isnan(p.het_p));
	/* At 4 df each, the t tails are heavier: X is smaller than Q, p larger. */
	assert_int_equal(stats_fleet_pool(d, v, f4, 3, 0.05, &p), 0);
	assert_true(p.has_heterogeneity);
	assert_true(p.het_x < p.q && p.het_p > exp(-7));
	/* A machine without a variance: no tau, no heterogeneity, the pooled test still. */
	assert_int_equal(stats_fleet_pool(d, vnan, f4, 3, 0.05, &p), 0);
	assert_false(p.has_tau);
	assert_false(p.has_heterogeneity);
	NEAR(p.mean, 0.03, 1e-12);
	assert_int_equal(stats_fleet_pool(d, NULL, NULL, 3, 0.05, &p), 0);
}

static void test_pool_bad(void **state)
{
	const double d[] = { 0.02, 0.02 }, bad[] = { 0.01, NAN };
	struct stats_fleet p;

	(void)state;
	assert_int_equal(stats_fleet_pool(d, NULL, NULL, 1, 0.05, &p), -EINVAL);
	assert_int_equal(stats_fleet_pool(bad, NULL, NULL, 2, 0.05, &p), -EINVAL);
	assert_int_equal(stats_fleet_pool(d, NULL, NULL, 2, 0.05, &p), -ERANGE);
	NEAR(p.mean, 0.02, 1e-15);
}

/* A comparison of one metric with one tested mode, as compare_sides() leaves it. */
struct fake {
	struct side sides[1];
	struct compare_metric metric;
	struct compare_test test;
	struct compare_result res;
};

static void fake_init(struct fake *fk, double est, double se, double df, enum compare_method method)
{
	memset(fk, 0, sizeof(*fk));
	fk->sides[0].mode = (char *)"off";
	fk->test.mode = "on";
	fk->test.method = method;
	fk->test.estimate = est;
	fk->test.delta_pct = compare_log_pct(est, BETTER_HIGHER);
	fk->test.test.se = se;
	fk->test.test.df = df;
	fk->test.test.lo = est - 2.776 * se;
	fk->test.test.hi = est + 2.776 * se;
	fk->test.lo_pct = compare_log_pct(fk->test.test.lo, BETTER_HIGHER);
	fk->test.hi_pct = compare_log_pct(fk->test.test.hi, BETTER_HIGHER);
	fk->test.verdict = method == METHOD_NONE ? VERDICT_UNTESTED
			   : fk->test.test.lo > 0 || fk->test.test.hi < 0 ? VERDICT_COUNTS : VERDICT_WITHIN_NOISE;
	fk->metric.row = (char *)"prefill";
	fk->metric.metric = (char *)"pp512";
	fk->metric.unit = (char *)"t/s";
	fk->metric.better = BETTER_HIGHER;
	fk->metric.tests = &fk->test;
	fk->metric.n_tests = 1;
	fk->res.sides = fk->sides;
	fk->res.n_sides = 1;
	fk->res.metrics = &fk->metric;
	fk->res.n_metrics = 1;
}

static void judge(struct fake *fk, size_t n, struct fleet_result *f)
{
	const struct compare_result *res[12];
	const char *names[12] = { "a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l" };
	struct strlist w = STRLIST_INIT;

	for (size_t i = 0; i < n; i++)
		res[i] = &fk[i].res;
	assert_int_equal(fleet_judge(res, names, NULL, n, 0.05, f, &w), 0);
	assert_int_equal(w.n, 0);
	strlist_release(&w);
}

static void test_judge_words(void **state)
{
	struct fake fk[12];
	struct fleet_result f;
	char want[200];

	(void)state;
	/* Twelve machines about +3 %, each tested on 6 df: better on all 12. */
	for (size_t i = 0; i < 12; i++)
		fake_init(&fk[i], log(1.03) + 0.0005 * ((double)i - 5.5), 0.004, 6, METHOD_BOOT);
	judge(fk, 12, &f);
	assert_int_equal(f.n_metrics, 1);
	assert_int_equal(f.metrics[0].verdict, FLEET_COUNTS);
	/* The machines were tested for a difference (6 df each): none shown, with its p. */
	assert_true(f.metrics[0].pool.has_heterogeneity);
	snprintf(want, sizeof(want), "better on average over all 12, +3.0 %% [%.1f, %.1f] (not shown to differ between machines, p %.2f)",
		 f.metrics[0].lo_pct, f.metrics[0].hi_pct, f.metrics[0].pool.het_p);
	assert_string_equal(f.metrics[0].words, want);
	/* sd of 0.0005 (i - 5.5) is 0.0005 sqrt(13): the CI is +/- 0.12 % */
	assert_string_equal(f.metrics[0].words, "better on average over all 12, +3.0 % [2.9, 3.1] (not shown to differ between machines, p 1.00)");
	fleet_result_release(&f);

	/*
	 * Two boots per mode (A B A2 B2 A3: 3 df each): the pooled verdict, and
	 * whether the machines differ is not tested: one round short.
	 */
	for (size_t i = 0; i < 5; i++)
		fake_init(&fk[i], log(1.03) + 0.002 * ((double)i - 2), 0.0004, 3, METHOD_BOOT);
	judge(fk, 5, &f);
	assert_int_equal(f.metrics[0].verdict, FLEET_COUNTS);
	assert_false(f.metrics[0].pool.has_heterogeneity);
	assert_non_null(strstr(f.metrics[0].words, "better on average over all 5, "));
	assert_non_null(strstr(f.metrics[0].words, " (whether it differs between machines: not tested; a machine's own test has 3 degrees of freedom, every machine needs 4: one more round)"));
	assert_int_equal(f.n_counts, 1);
	fleet_result_release(&f);

	/* +8 % on 4 machines, none on 8, each measured tightly: it differs between machines. */
	for (size_t i = 0; i < 12; i++)
		fake_init(&fk[i], i < 4 ? log(1.08) : 0.001 * ((double)i - 7.5), 0.005, 6, METHOD_BOOT);
	judge(fk, 12, &f);
	assert_int_equal(f.metrics[0].verdict, FLEET_DIFFERS);
	assert_int_equal(f.metrics[0].n_better, 4);
	assert_int_equal(f.metrics[0].n_none, 8);
	/* mean 4 log(1.08) / 12, sd 0.03794 on 11 df: [0.2, 5.1] */
	assert_string_equal(f.metrics[0].words, "differs between machines: +8.0 % on 4, none on 8; pooled +2.6 % [0.2, 5.1]");
	fleet_result_release(&f);

	/* One boot per mode on three machines: no test of their own, the pooled one still. */
	fake_init(&fk[0], 0.004, NAN, NAN, METHOD_NONE);
	fake_init(&fk[1], -0.006, NAN, NAN, METHOD_NONE);
	fake_init(&fk[2], 0.001, NAN, NAN, METHOD_NONE);
	judge(fk, 3, &f);
	assert_int_equal(f.metrics[0].verdict, FLEET_WITHIN_NOISE);
	assert_int_equal(f.metrics[0].n_untested, 3);
	assert_true(strstr(f.metrics[0].words, "within noise on average over all 3, -0.0 % [-1.3, 1.2] ") == f.metrics[0].words);
	assert_non_null(strstr(f.metrics[0].words, "(whether it differs between machines: not tested; a machine has no test of its own: every machine needs two boots per mode or more, and 4 degrees of freedom)"));
	fleet_result_release(&f);
}

static void test_judge_first_modes(void **state)
{
	struct fake fk[2];
	const struct compare_result *res[2] = { &fk[0].res, &fk[1].res };
	const char *names[2] = { "a", "b" };
	struct strlist w = STRLIST_INIT;
	struct fleet_result f;

	(void)state;
	fake_init(&fk[0], 0.01, 0.01, 4, METHOD_BOOT);
	fake_init(&fk[1], 0.01, 0.01, 4, METHOD_BOOT);
	fk[1].sides[0].mode = (char *)"on";
	assert_int_equal(fleet_judge(res, names, NULL, 2, 0.05, &f, &w), -EINVAL);
	assert_int_equal(w.n, 1);
	assert_string_equal(w.items[0], "b starts with mode 'on' where a starts with 'off': a fleet pools one baseline");
	strlist_release(&w);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pool),
		cmocka_unit_test(test_pool_few_df),
		cmocka_unit_test(test_pool_bad),
		cmocka_unit_test(test_judge_words),
		cmocka_unit_test(test_judge_first_modes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
