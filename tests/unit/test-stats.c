/* Unit tests for src/stats/stats.c against hand-computed values and GSL's distributions. */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <gsl/gsl_cdf.h>

#include "stats/stats.h"

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

static void test_boot_summarise(void **state)
{
	const double x[] = { 50, 100, 200, 400 };
	const double bad[] = { 100, 0, 100 };
	struct stats_boot b = { .mean = -1, .n = 99, .ss = -1 };

	(void)state;
	/* Logs 0, ln2, 2 ln2 above ln 100 once the first is skipped: mean ln 200. */
	assert_int_equal(stats_boot_summarise(x, 4, 1, &b), 0);
	NEAR(b.mean, log(200), 1e-12);
	assert_int_equal(b.n, 3);
	NEAR(b.ss, 2 * log(2) * log(2), 1e-12);
	/* Failures leave the output untouched. */
	b = (struct stats_boot){ .mean = -1, .n = 99, .ss = -1 };
	assert_int_equal(stats_boot_summarise(bad, 3, 0, &b), -EINVAL);
	assert_int_equal(stats_boot_summarise(x, 4, 4, &b), -EINVAL);
	assert_int_equal(b.n, 99);
	NEAR(b.mean, -1, 0);
}

struct components_case {
	const char *name;
	struct stats_boot g1[3], g2[3];
	size_t n1, n2;
	double sigma_w2, sigma_b2, icc, boot_var, boot_df;
};

/* Worked by hand from the formulas in stats.h. */
static const struct components_case components_cases[] = {
	/*
	 * SSW = 4 over N - B = 4: 1. Group 1 mean 1, SSB = 2 + 2 over B - G = 2:
	 * MSB 2; n0 = (8 - (8/4 + 8/4)) / 2 = 2; sigma_b2 = (2 - 1) / 2.
	 * Boot means: (0, 2) var 2 and (10, 10) var 0, pooled 1 on 2 df.
	 */
	{ "balanced", { { 0, 2, 2 }, { 2, 2, 0 } }, { { 10, 2, 2 }, { 10, 2, 0 } }, 2, 2,
	  1, 0.5, 1.0 / 3, 1, 2 },
	/*
	 * SSW = 6 over 6 - 3: 2. Group 1 weighted mean 0.75, SSB = 3 0.5625 +
	 * 2.25^2 = 6.75 over 1; n0 = 6 - 10/4 - 4/2 = 1.5; sigma_b2 =
	 * (6.75 - 2) / 1.5. Boot means 0, 3 about 1.5: 4.5 on 1 df.
	 */
	{ "unbalanced", { { 0, 3, 4 }, { 3, 1, 0 } }, { { 5, 2, 2 } }, 2, 1,
	  2, 4.75 / 1.5, (4.75 / 1.5) / (4.75 / 1.5 + 2), 4.5, 1 },
	/* Boot means closer than their reps allow: truncated at 0. */
	{ "truncated", { { 0, 2, 8 }, { 0.1, 2, 8 } }, { { 1, 2, 8 } }, 2, 1,
	  8, 0, 0, 0.005, 1 },
};

static void test_variance_components(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(components_cases) / sizeof(components_cases[0]); i++) {
		const struct components_case *t = &components_cases[i];
		struct stats_group g[2] = { { t->g1, t->n1 }, { t->g2, t->n2 } };
		struct stats_components c;

		stats_variance_components(g, 2, &c);
		print_message("%s\n", t->name);
		NEAR(c.sigma_w2, t->sigma_w2, 1e-12);
		NEAR(c.sigma_b2, t->sigma_b2, 1e-12);
		NEAR(c.icc, t->icc, 1e-12);
		NEAR(c.boot_var, t->boot_var, 1e-12);
		NEAR(c.boot_df, t->boot_df, 0);
		assert_int_equal(c.boots, t->n1 + t->n2);
	}
}

static void test_variance_components_not_estimable(void **state)
{
	const struct stats_boot one_rep[] = { { 0, 1, 0 }, { 1, 1, 0 } };
	const struct stats_boot one_boot[] = { { 0, 5, 4 } };
	struct stats_group g1 = { one_rep, 2 }, g2 = { one_boot, 1 };
	struct stats_components c;

	(void)state;
	/* One sample per boot: no within-boot variance, boots still vary. */
	stats_variance_components(&g1, 1, &c);
	assert_true(isnan(c.sigma_w2));
	assert_true(isnan(c.sigma_b2));
	NEAR(c.boot_var, 0.5, 1e-12);
	/* One boot: within only. */
	stats_variance_components(&g2, 1, &c);
	NEAR(c.sigma_w2, 1, 1e-12);
	assert_true(isnan(c.sigma_b2));
	assert_true(isnan(c.boot_var));
	stats_variance_components(NULL, 0, &c);
	assert_int_equal(c.boots, 0);
}

/*
 * Wild reps: three boots of five reps at log offsets 0, +/-.001, +/-.002,
 * the third with rep 2 35 % slow. Pooled distances from each boot's median
 * (the odd boot's median rep left out): five .001, six .002 and .431, so
 * the scale is 1.4826 x .002 and only the slow rep lies beyond 6 scales.
 */
static void test_wild_reps(void **state)
{
	double logs[15], quiet[25];
	static const double pattern[5] = { 0, 0.001, -0.001, 0.002, -0.002 };
	size_t starts[6] = { 0, 5, 10, 15 };
	size_t group[5] = { 0, 0, 0, 0, 1 };
	bool wild[25];

	(void)state;
	for (int j = 0; j < 3; j++)
		for (int i = 0; i < 5; i++)
			logs[5 * j + i] = 0.05 * j + pattern[i];
	logs[12] = log(0.65);
	assert_int_equal(stats_wild_reps(logs, starts, 3, NULL, 6, log(1.01), wild), 1);
	for (int i = 0; i < 15; i++)
		assert_int_equal(wild[i], i == 12);
	/* Reps that never vary (scale 0): a rep 1.5 % off is wild over min_log 1 %, not over 2 %. */
	for (int i = 0; i < 15; i++)
		logs[i] = 0;
	logs[12] = 0.015;
	assert_int_equal(stats_wild_reps(logs, starts, 3, NULL, 6, log(1.01), wild), 1);
	assert_true(wild[12]);
	assert_int_equal(stats_wild_reps(logs, starts, 3, NULL, 6, log(1.02), wild), 0);
	/* A boot of two reps is not judged: which of the two would be wild? */
	for (int j = 0; j < 3; j++)
		for (int i = 0; i < 5; i++)
			logs[5 * j + i] = 0.05 * j + pattern[i];
	logs[12] = log(0.65);
	starts[3] = 12;
	assert_int_equal(stats_wild_reps(logs, starts, 3, NULL, 6, log(1.01), wild), 0);
	/* Two of three reps far out: that boot is loud, not one wild rep. */
	logs[10] = 0;
	logs[11] = 0.1;
	logs[12] = -0.1;
	starts[3] = 13;
	assert_int_equal(stats_wild_reps(logs, starts, 3, NULL, 6, log(1.01), wild), 0);
	assert_false(wild[11] || wild[12]);

	/*
	 * A noisier group: four quiet boots and one of group 1 at 0, +/-.005,
	 * .006, -.03. Against the quiet boots' scale (1.4826 x .002) -.03 is
	 * wild; against its own group's (1.4826 x .0055) it is not.
	 */
	for (int j = 0; j < 4; j++)
		for (int i = 0; i < 5; i++)
			quiet[5 * j + i] = pattern[i];
	quiet[20] = 0;
	quiet[21] = 0.005;
	quiet[22] = -0.005;
	quiet[23] = 0.006;
	quiet[24] = -0.03;
	for (int j = 0; j <= 5; j++)
		starts[j] = 5 * (size_t)j;
	assert_int_equal(stats_wild_reps(quiet, starts, 5, NULL, 6, log(1.01), wild), 1);
	assert_true(wild[24]);
	assert_int_equal(stats_wild_reps(quiet, starts, 5, group, 6, log(1.01), wild), 0);
	assert_false(wild[24]);
	/*
	 * A group of one boot, 0, +/-.01, .06 and -.3: with all four distances
	 * its scale would be 1.4826 x .035 and hide the -.3; its largest left
	 * out, 1.4826 x .01, so -.3 is wild and .06 is not.
	 */
	quiet[21] = 0.01;
	quiet[22] = -0.01;
	quiet[23] = 0.06;
	quiet[24] = -0.3;
	assert_int_equal(stats_wild_reps(quiet, starts, 5, group, 6, log(1.01), wild), 1);
	assert_true(wild[24]);
	/* Nothing to judge. */
	assert_int_equal(stats_wild_reps(quiet, starts, 0, NULL, 6, log(1.01), wild), 0);
}

static void test_t_tests(void **state)
{
	struct stats_test t = { .p = -1 };

	(void)state;
	/* t = 2 on 10 df: two-sided p 0.07339 (t tables); CI 1 -/+ 2.228139 * 0.5. */
	assert_int_equal(stats_t_test(1, 0.5, 10, 0.05, &t), 0);
	NEAR(t.t, 2, 1e-12);
	NEAR(t.p, 0.073388, 1e-6);
	NEAR(t.lo, 1 - 2.2281389 * 0.5, 1e-6);
	NEAR(t.hi, 1 + 2.2281389 * 0.5, 1e-6);
	NEAR(t.p, 2 * gsl_cdf_tdist_Q(2, 10), 1e-15);
	t.p = -1;
	assert_int_equal(stats_t_test(1, 0, 10, 0.05, &t), -EINVAL);
	assert_int_equal(stats_t_test(1, 0.5, 0, 0.05, &t), -EINVAL);
	assert_int_equal(stats_t_test(1, 0.5, 10, 1, &t), -EINVAL);
	NEAR(t.p, -1, 0);

	/* Welch: SE^2 = 1/4 + 4/4; df = 1.25^2 / (0.25^2/3 + 1/3) = 4.41176. */
	assert_int_equal(stats_welch_test(0, 1, 4, 1, 4, 4, 0.05, &t), 0);
	NEAR(t.estimate, 1, 1e-12);
	NEAR(t.se, sqrt(1.25), 1e-12);
	NEAR(t.df, 1.5625 / (0.0625 / 3 + 1.0 / 3), 1e-12);
	assert_int_equal(stats_welch_test(0, 1, 1, 1, 4, 4, 0.05, &t), -EINVAL);
	assert_int_equal(stats_welch_test(0, 0, 3, 1, 0, 3, 0.05, &t), -EINVAL);
}

static void test_bh(void **state)
{
	/* m = 4 tests: sorted .005 .01 .03 .04 -> .02 .02 .04 .04. */
	const double p[] = { 0.01, 0.04, 0.03, 0.005, NAN };
	const double want[] = { 0.02, 0.04, 0.04, 0.02 };
	/* A later, smaller ratio pulls earlier ones down: .01*3/1 > .02*3/2 = .03 = .03*3/3. */
	const double p2[] = { 0.01, 0.02, 0.03 };
	double q[5], q2[3];

	(void)state;
	stats_bh_adjust(p, 5, q);
	for (size_t i = 0; i < 4; i++)
		NEAR(q[i], want[i], 1e-15);
	assert_true(isnan(q[4]));
	stats_bh_adjust(p2, 3, q2);
	for (size_t i = 0; i < 3; i++)
		NEAR(q2[i], 0.03, 1e-15);
	stats_bh_adjust(p, 0, q);
}

static void test_power(void **state)
{
	(void)state;
	/* With ncp 0 the noncentral t is GSL's central t. */
	NEAR(stats_nct_upper(2, 10, 0), gsl_cdf_tdist_Q(2, 10), 1e-8);
	NEAR(stats_nct_upper(-1.5, 1, 0), gsl_cdf_tdist_Q(-1.5, 1), 1e-8);
	NEAR(stats_nct_upper(0.7, 3, 0), gsl_cdf_tdist_Q(0.7, 3), 1e-8);
	/* A huge df is the normal law shifted by ncp. */
	NEAR(stats_nct_upper(1.96, 1e7, 1), gsl_cdf_ugaussian_Q(0.96), 1e-5);
	/* Two groups of 20, effect 1 sd: power 0.8689528 (R's power.t.test). */
	NEAR(stats_t_power(sqrt(10), 38, 0.05), 0.8689528, 1e-6);
	/* At ncp 0 the power is alpha. */
	NEAR(stats_t_power(0, 12, 0.05), 0.05, 1e-7);
	/* Effect 1 sd: 22.02 per group for 90 %, 16.71 for 80 % (R's power.t.test). */
	assert_int_equal(stats_boots_needed(1, 1, 2, 0.05, 0.9, 1000), 23);
	assert_int_equal(stats_boots_needed(1, 1, 2, 0.05, 0.8, 1000), 17);
	assert_int_equal(stats_boots_needed(-1, 1, 2, 0.05, 0.8, 1000), 17);
	/* More modes pool more degrees of freedom: never more boots. */
	assert_true(stats_boots_needed(1, 1, 4, 0.05, 0.8, 1000) <= 17);
	/* Too small an effect for the cap, and unusable inputs. */
	assert_int_equal(stats_boots_needed(0.01, 1, 2, 0.05, 0.8, 1000), 0);
	assert_int_equal(stats_boots_needed(0, 1, 2, 0.05, 0.8, 1000), 0);
	assert_int_equal(stats_boots_needed(1, 0, 2, 0.05, 0.8, 1000), 2);
	assert_int_equal(stats_boots_needed(1, 1, 1, 0.05, 0.8, 1000), 0);
}

static void test_best_reps(void **state)
{
	(void)state;
	/* sqrt(90 / 10 * 4 / 1) = 6 */
	NEAR(stats_best_reps(90, 10, 4, 1, 100), 6, 0);
	NEAR(stats_best_reps(90, 10, 4, 0, 50), 50, 0);
	NEAR(stats_best_reps(1, 100, 0.01, 4, 100), 1, 0);
	assert_true(isnan(stats_best_reps(90, 0, 4, 1, 100)));
	assert_true(isnan(stats_best_reps(90, 10, NAN, 1, 100)));
}

/*
 * The cheapest design: its time is its own boots' time, its boots are what
 * its reps need, and no reps from 1 to 50 does cheaper. Without rep-to-rep
 * noise one rep is best; with reboots dear and reps cheap, several.
 */
static void test_cheapest_design(void **state)
{
	struct stats_design d;
	double sb2 = 0.0081 * 0.0081, sw2 = 0.0038 * 0.0038, e = log1p(0.02);

	(void)state;
	assert_int_equal(stats_cheapest_design(e, sb2, sw2, 3, 144, 30, 50, 1000, &d), 0);
	assert_int_equal(d.boots, stats_boots_needed(e, sb2 + sw2 / d.reps, 3, 0.05, 0.80, 1000));
	NEAR(d.seconds, stats_design_seconds(d.boots, 3, d.reps, 144, 30), 1e-9);
	NEAR(stats_design_seconds(4, 3, 2, 144, 30), 13 * 204, 1e-9);
	for (unsigned r = 1; r <= 50; r++) {
		unsigned n = stats_boots_needed(e, sb2 + sw2 / r, 3, 0.05, 0.80, 1000);

		assert_true(!n || stats_design_seconds(n, 3, r, 144, 30) >= d.seconds);
	}
	assert_int_equal(stats_cheapest_design(e, sb2, 0, 3, 144, 30, 50, 1000, &d), 0);
	assert_int_equal(d.reps, 1);
	assert_int_equal(stats_cheapest_design(e, 0.001 * 0.001, 0.02 * 0.02, 2, 600, 1, 50, 1000, &d), 0);
	assert_true(d.reps > 5);
	assert_int_equal(stats_cheapest_design(e, sb2, sw2, 1, 144, 30, 50, 1000, &d), -EINVAL);
	assert_int_equal(stats_cheapest_design(e, sb2, sw2, 3, 144, NAN, 50, 1000, &d), -EINVAL);
	assert_int_equal(stats_cheapest_design(0, sb2, sw2, 3, 144, 30, 50, 1000, &d), -EINVAL);
	assert_int_equal(stats_cheapest_design(log1p(0.0001), sb2, sw2, 3, 144, 30, 50, 1000, &d), -ERANGE);
}

/*
 * The cheapest campaign over rows: with one need, the box time of
 * stats_cheapest_design(); with a second row, one count of boots for both,
 * each row at the fewest reps that reach it, and no other count of boots
 * cheaper.
 */
static void test_campaign_design(void **state)
{
	double sb2 = 0.0081 * 0.0081, sw2 = 0.0038 * 0.0038, e = log1p(0.02);
	double idle[2] = { 4, 0 }, rep[2] = { 30, 2 }, t;
	struct stats_need needs[3] = { { 0, e, sb2, sw2 }, { 1, log1p(0.05), 0.01 * 0.01, 0.03 * 0.03 },
				       { 1, log1p(-0.04), 0.01 * 0.01, 0.03 * 0.03 } };
	struct stats_design d;
	unsigned b, reps[2];

	(void)state;
	assert_int_equal(stats_campaign_design(needs, 1, idle, rep, 2, 140, 3, 50, 1000, &b, reps, &t), 0);
	assert_int_equal(stats_cheapest_design(e, sb2, sw2, 3, 144, 30, 50, 1000, &d), 0);
	NEAR(t, d.seconds, 1e-9);
	assert_int_equal(reps[1], 0);
	assert_int_equal(stats_campaign_design(needs, 3, idle, rep, 2, 140, 3, 50, 1000, &b, reps, &t), 0);
	assert_true(reps[0] >= 1 && reps[1] >= 1);
	NEAR(t, (b * 3.0 + 1) * (140 + 4 + reps[0] * 30 + reps[1] * 2), 1e-9);
	for (unsigned k = 0; k < 3; k++)
		assert_true(stats_boots_needed(needs[k].effect_log,
					       needs[k].sigma_b2 + needs[k].sigma_w2 / reps[needs[k].row], 3, 0.05,
					       0.80, 1000) <= b);
	/* Every other count of boots, each row at its fewest reps, costs at least as much. */
	for (unsigned bb = 2; bb <= 40; bb++) {
		double per = 144;
		bool ok = true;

		for (size_t i = 0; i < 2 && ok; i++) {
			unsigned r = 1;

			while (r <= 50) {
				bool all = true;

				for (unsigned k = 0; k < 3; k++)
					if (needs[k].row == i) {
						unsigned n = stats_boots_needed(needs[k].effect_log,
										needs[k].sigma_b2 + needs[k].sigma_w2 / r,
										3, 0.05, 0.80, 1000);
						all &= n && n <= bb;
					}
				if (all)
					break;
				r++;
			}
			ok = r <= 50;
			per += r * rep[i];
		}
		assert_true(!ok || (bb * 3.0 + 1) * per >= t - 1e-9);
	}
	assert_int_equal(stats_campaign_design(needs, 0, idle, rep, 2, 140, 3, 50, 1000, &b, reps, &t), -EINVAL);
	rep[0] = NAN;
	assert_int_equal(stats_campaign_design(needs, 1, idle, rep, 2, 140, 3, 50, 1000, &b, reps, &t), -EINVAL);
	rep[0] = 30;
	needs[0].effect_log = log1p(0.0001);
	assert_int_equal(stats_campaign_design(needs, 1, idle, rep, 2, 140, 3, 50, 1000, &b, reps, &t), -ERANGE);
}

static void test_f(void **state)
{
	(void)state;
	NEAR(stats_f_upper_p(3.0, 2, 10), gsl_cdf_fdist_Q(3.0, 2, 10), 1e-15);
	/* F(1, 1) at 1: 1/2 by symmetry. */
	NEAR(stats_f_upper_p(1, 1, 1), 0.5, 1e-12);
	NEAR(stats_f_upper_p(0, 1, 1), 1, 0);
	assert_true(isnan(stats_f_upper_p(1, 0, 1)));
}

/*
 * TOST boots: at no true difference, sd 1 % and a margin of -/+ 2 %, the
 * normal approximation 2 var (z_0.95 + z_0.90)^2 / m^2 gives 4.3; the t law
 * needs a few more. More noise or a narrower margin needs more; an effect
 * outside the margin can never be shown equivalent.
 */
static void test_tost_boots(void **state)
{
	double lo = log1p(-0.02), hi = log1p(0.02);
	unsigned n = stats_tost_boots_needed(0, lo, hi, 1e-4, 2, 0.05, 0.8, 1000);

	(void)state;
	assert_true(n >= 5 && n <= 8);
	assert_true(stats_tost_boots_needed(0, lo, hi, 4e-4, 2, 0.05, 0.8, 1000) > n);
	assert_true(stats_tost_boots_needed(0.01, lo, hi, 1e-4, 2, 0.05, 0.8, 1000) > n);
	assert_int_equal(stats_tost_boots_needed(0.03, lo, hi, 1e-4, 2, 0.05, 0.8, 1000), 0);
	assert_int_equal(stats_tost_boots_needed(0, lo, hi, 0, 2, 0.05, 0.8, 1000), 2);
	assert_int_equal(stats_tost_boots_needed(0, lo, hi, 1, 2, 0.05, 0.8, 1000), 0);
	assert_int_equal(stats_tost_boots_needed(0, lo, hi, 1e-4, 1, 0.05, 0.8, 1000), 0);
}

static double sum_of(const double *x, size_t n)
{
	double s = 0;

	for (size_t i = 0; i < n; i++)
		s += x[i];
	return s;
}

/*
 * Group-sequential boundaries. The classical constant boundaries of
 * Pocock (1977) and O'Brien and Fleming (1979), as tabled by Jennison and
 * Turnbull (2000, tables 2.1 and 2.3: two-sided alpha 0.05, equal
 * increments), must give a 5 % false-claim rate through the integration;
 * the spending boundaries must spend alpha(t) look by look.
 */
static void test_group_sequential(void **state)
{
	double eq2[] = { 1, 2 }, eq4[] = { 1, 2, 3, 4 }, eq5[] = { 1, 2, 3, 4, 5 };
	double z[5], p[5], one = 1;

	(void)state;
	z[0] = z[1] = 2.178;
	assert_int_equal(stats_gs_crossing(eq2, 2, z, 0, p), 0);
	assert_true(fabs(sum_of(p, 2) - 0.05) < 0.0006);
	for (int j = 0; j < 5; j++)
		z[j] = 2.413;
	assert_int_equal(stats_gs_crossing(eq5, 5, z, 0, p), 0);
	assert_true(fabs(sum_of(p, 5) - 0.05) < 0.0006);
	for (int j = 0; j < 5; j++)
		z[j] = 2.040 * sqrt(5.0 / (j + 1));
	assert_int_equal(stats_gs_crossing(eq5, 5, z, 0, p), 0);
	assert_true(fabs(sum_of(p, 5) - 0.05) < 0.0006);
	/* Pocock's boundary spends early, O'Brien-Fleming's late. */
	assert_true(p[0] < 0.0001 && p[4] > 0.02);

	/* One look is the fixed test. */
	assert_int_equal(stats_gs_bounds(&one, 1, 0.05, SPENDING_OBRIEN_FLEMING, z), 0);
	assert_true(fabs(z[0] - 1.959964) < 1e-5);
	/* Its power at theta sqrt(I) = 2.8 is Phi(0.84) and a hair. */
	assert_int_equal(stats_gs_crossing(&one, 1, z, 2.8, p), 0);
	assert_true(fabs(p[0] - 0.79955) < 0.0005);

	/* O'Brien-Fleming spending over 4 equal looks: look 1 at z_{0.975} / sqrt(1/4). */
	assert_int_equal(stats_gs_bounds(eq4, 4, 0.05, SPENDING_OBRIEN_FLEMING, z), 0);
	assert_true(fabs(z[0] - 2 * 1.959964) < 1e-4);
	for (int j = 1; j < 4; j++)
		assert_true(z[j] < z[j - 1]);
	assert_int_equal(stats_gs_crossing(eq4, 4, z, 0, p), 0);
	for (int j = 0; j < 4; j++) {
		double want = stats_spend(SPENDING_OBRIEN_FLEMING, 0.05, (j + 1) / 4.0) -
			      stats_spend(SPENDING_OBRIEN_FLEMING, 0.05, j / 4.0);

		assert_true(fabs(p[j] - want) < 2e-5);
	}
	assert_true(fabs(sum_of(p, 4) - 0.05) < 5e-5);
	/* The last look's nominal level stays near the fixed design's. */
	assert_true(stats_gs_nominal(z[3]) > 0.04 && stats_gs_nominal(z[3]) < 0.05);

	/* Pocock spending: the last look's level is far below 5 %. */
	assert_int_equal(stats_gs_bounds(eq4, 4, 0.05, SPENDING_POCOCK, z), 0);
	assert_int_equal(stats_gs_crossing(eq4, 4, z, 0, p), 0);
	assert_true(fabs(sum_of(p, 4) - 0.05) < 5e-5);
	assert_true(stats_gs_nominal(z[3]) < 0.03);

	/* Bad looks. */
	eq2[1] = 1;
	assert_int_equal(stats_gs_bounds(eq2, 2, 0.05, SPENDING_POCOCK, z), -EINVAL);
	assert_int_equal(stats_gs_bounds(eq4, 0, 0.05, SPENDING_POCOCK, z), -EINVAL);
	assert_int_equal(stats_gs_bounds(eq4, 4, 1, SPENDING_POCOCK, z), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_descriptive),
		cmocka_unit_test(test_stddev_large_offset),
		cmocka_unit_test(test_stat_names),
		cmocka_unit_test(test_drift_rule_p),
		cmocka_unit_test(test_t_distribution),
		cmocka_unit_test(test_boot_summarise),
		cmocka_unit_test(test_variance_components),
		cmocka_unit_test(test_variance_components_not_estimable),
		cmocka_unit_test(test_wild_reps),
		cmocka_unit_test(test_t_tests),
		cmocka_unit_test(test_bh),
		cmocka_unit_test(test_power),
		cmocka_unit_test(test_best_reps),
		cmocka_unit_test(test_f),
		cmocka_unit_test(test_cheapest_design),
		cmocka_unit_test(test_campaign_design),
		cmocka_unit_test(test_tost_boots),
		cmocka_unit_test(test_group_sequential),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
