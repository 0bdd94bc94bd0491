/* Unit tests for src/stats.c against hand-computed values and GSL's distributions. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "stats.h"

#define NEAR(a, b, tol) assert_true(fabs((a) - (b)) <= (tol))

static void test_descriptive(void **state)
{
	const double x[] = { 4, 8, 6, 5, 3, 7 };
	const double one[] = { 42 };

	(void)state;
	NEAR(stats_mean(x, 6), 5.5, 1e-12);
	/* sum of squares about 5.5 is 17.5; / 5 = 3.5 */
	NEAR(stats_stddev(x, 6), sqrt(3.5), 1e-12);
	NEAR(stats_median(x, 6), 5.5, 1e-12);
	NEAR(stats_median(x, 5), 5, 1e-12);
	NEAR(stats_min(x, 6), 3, 0);
	NEAR(stats_max(x, 6), 8, 0);
	assert_true(isnan(stats_stddev(one, 1)));
	assert_true(isnan(stats_mean(x, 0)));
	assert_true(isnan(stats_median(x, 0)));
	NEAR(stats_of(STAT_MEDIAN, x, 6), 5.5, 1e-12);
	NEAR(stats_of(STAT_MIN, x, 6), 3, 0);
}

static void test_stddev_large_offset(void **state)
{
	const double x[] = { 1e9 + 1, 1e9 + 2, 1e9 + 3 };

	(void)state;
	NEAR(stats_stddev(x, 3), 1.0, 1e-6);
}

static void test_stat_names(void **state)
{
	enum stat_kind k = STAT_MEAN;

	(void)state;
	assert_int_equal(stat_kind_from_name("median", &k), 0);
	assert_int_equal(k, STAT_MEDIAN);
	assert_int_not_equal(stat_kind_from_name("mode", &k), 0);
	assert_int_equal(k, STAT_MEDIAN);
	assert_string_equal(stat_kind_name(STAT_MIN), "min");
}

static void test_drift_rule_p(void **state)
{
	(void)state;
	/* 1 - (2/pi) atan(2 / sqrt(0.75)) = 0.260147 (computed independently) */
	NEAR(stats_drift_rule_p(2), 0.260147, 1e-6);
	NEAR(stats_drift_rule_p(0), 1, 1e-12);
	NEAR(stats_drift_rule_p(INFINITY), 0, 0);
	/* q = 14.7 / 6.2 */
	NEAR(stats_drift_rule_p(14.7 / 6.2), 0.222948, 1e-6);
	assert_true(isnan(stats_drift_rule_p(NAN)));
}

static void test_t_distribution(void **state)
{
	(void)state;
	/* Standard t tables. */
	NEAR(stats_t_quantile(0.975, 1), 12.7062, 1e-4);
	NEAR(stats_t_quantile(0.975, 10), 2.2281, 1e-4);
	NEAR(stats_t_quantile(0.95, 30), 1.6973, 1e-4);
	NEAR(stats_t_two_sided_p(2.2281389, 10), 0.05, 1e-6);
	NEAR(stats_t_two_sided_p(-12.7062047, 1), 0.05, 1e-6);
	/* With 1 df the t law is Cauchy: P(|T| > 1) = 1/2. */
	NEAR(stats_t_two_sided_p(1, 1), 0.5, 1e-12);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_descriptive),
		cmocka_unit_test(test_stddev_large_offset),
		cmocka_unit_test(test_stat_names),
		cmocka_unit_test(test_drift_rule_p),
		cmocka_unit_test(test_t_distribution),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
