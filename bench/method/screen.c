/*
 * bench/method/screen: a screening design against one mode per factor, at
 * the same boots, on simulated boxes with known factor effects; the same
 * fit and CI the report uses (judge/design.h design_effects()).
 *
 * Three factors: A with an effect of 2.5 sigma_b, B and C none, and an
 * A*B interaction of 1 sigma_b. Each boot's log mean is the sum of the
 * effects of the factors it sets and a normal boot-to-boot offset
 * (sigma_b). The design: the full 2^3 factorial, the standing config
 * again at the end (9 boots a round). One mode per factor: the standing
 * config and each factor alone in the default order, the standing config
 * closing (the same 9 boots: the standing config 3 times, each factor 2).
 * A claim: the 95 % CI of a main effect excludes 0. For the design, the
 * two-factor interactions too, from the fit with them the report makes
 * (design_fit()): A*B is the only one there is. Prints CSV: the layout,
 * the factor (or pair), its true effect (in sigma_b; a pair's: what both
 * on adds), the share of campaigns that claimed it.
 *
 * Then the fold-over: twelve factors, none with a main effect, and an
 * interaction of factors 1 and 2 of FOLD_INTERACTION sigma_b (on minus
 * off of their product), which a Plackett-Burman design of 20 runs mixes
 * into the other factors' main effects. Two rounds (41 boots, the
 * standing config closing): the design repeated, or the design and its
 * fold-over (design_fold(), as a plan with rounds = 2 boots it), and the
 * fold-over with no interaction at all. Printed: each null factor's share
 * of false claims, under the layout's name.
 *
 * make bench-screen writes bench/method/screen.csv.
 */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "judge/design.h"

#define K 3
#define BOOTS 9
#define DRAWS 20000

static const double truth[K] = { 2.5, 0, 0 };
static const double interaction_ab = 1.0;

static double simulate(const gsl_rng *rng, const signed char *lv)
{
	double y = gsl_ran_gaussian_ziggurat(rng, 1.0);

	for (size_t i = 0; i < K; i++)
		if (lv[i] > 0)
			y += truth[i];
	if (lv[0] > 0 && lv[1] > 0)
		y += interaction_ab;
	return y;
}

static const unsigned pairs[2 * K] = { 0, 1, 0, 2, 1, 2 };   /* A*B, A*C, B*C */

/* The interactions' claims of one campaign, added to claims (K pairs). */
static void interactions(const signed char *levels, const double *y, size_t *claims, size_t *fits)
{
	struct design_effect e[2 * K];
	size_t df;

	if (design_fit(levels, K, pairs, K, y, BOOTS, 0.05, e, &df) < 0 || !df)
		return;
	(*fits)++;
	for (size_t i = 0; i < K; i++)
		claims[i] += e[K + i].low > 0 || e[K + i].high < 0;
}

static void run(const char *name, const signed char *levels, bool with_pairs, gsl_rng *rng)
{
	size_t claims[K] = { 0 }, fits = 0, pair_claims[K] = { 0 }, pair_fits = 0;

	for (size_t d = 0; d < DRAWS; d++) {
		double y[BOOTS];
		struct design_effect e[K];
		size_t df;

		for (size_t b = 0; b < BOOTS; b++)
			y[b] = simulate(rng, &levels[b * K]);
		if (with_pairs)
			interactions(levels, y, pair_claims, &pair_fits);
		if (design_effects(levels, K, y, BOOTS, 0.05, e, &df) < 0 || !df)
			continue;
		fits++;
		for (size_t i = 0; i < K; i++)
			claims[i] += e[i].low > 0 || e[i].high < 0;
	}
	for (size_t i = 0; i < K; i++)
		printf("%s,%c,%.1f,%.4f\n", name, (int)('A' + i), truth[i], (double)claims[i] / (double)fits);
	for (size_t i = 0; with_pairs && pair_fits && i < K; i++)
		printf("%s,%c*%c,%.1f,%.4f\n", name, (int)('A' + pairs[2 * i]), (int)('A' + pairs[2 * i + 1]),
		       i == 0 ? interaction_ab : 0.0, (double)pair_claims[i] / (double)pair_fits);
}

#define FOLD_K 12
#define FOLD_INTERACTION 2.0

/* Rounds = 2 of a Plackett-Burman design over FOLD_K null factors: repeated, or with its fold-over. */
static void run_fold(const char *name, bool fold, double interaction, gsl_rng *rng)
{
	struct design d;
	size_t n, claims[FOLD_K] = { 0 }, fits = 0;
	signed char *levels;
	double *y;

	if (design_build(FOLD_K, false, &d) < 0 || (fold && design_fold(&d) < 0))
		exit(1);
	n = 2 * d.base_runs + 1;
	levels = malloc(n * FOLD_K);
	y = malloc(n * sizeof(*y));
	for (size_t b = 0; b + 1 < n; b++)
		memcpy(&levels[b * FOLD_K], &d.levels[(fold ? b : b % d.base_runs) * FOLD_K], FOLD_K);
	memcpy(&levels[(n - 1) * FOLD_K], d.levels, FOLD_K);
	for (size_t r = 0; r < DRAWS; r++) {
		struct design_effect e[FOLD_K];
		size_t df;

		for (size_t b = 0; b < n; b++)
			y[b] = gsl_ran_gaussian_ziggurat(rng, 1.0) +
			       interaction / 2 * levels[b * FOLD_K] * levels[b * FOLD_K + 1];
		if (design_effects(levels, FOLD_K, y, n, 0.05, e, &df) < 0 || !df)
			continue;
		fits++;
		for (size_t i = 0; i < FOLD_K; i++)
			claims[i] += e[i].low > 0 || e[i].high < 0;
	}
	for (size_t i = 0; i < FOLD_K; i++)
		printf("%s,%c,0.0,%.4f\n", name, (int)('A' + i), (double)claims[i] / (double)fits);
	free(levels);
	free(y);
	design_release(&d);
}

int main(void)
{
	struct design d;
	signed char design[BOOTS * K], one[BOOTS * K];
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);

	gsl_rng_set(rng, 1);
	if (design_build(K, true, &d) < 0)
		return 1;
	memcpy(design, d.levels, d.n_runs * K);
	memcpy(&design[d.n_runs * K], d.levels, K);
	/* off A B C off A B C off */
	for (size_t b = 0; b < BOOTS; b++)
		for (size_t i = 0; i < K; i++)
			one[b * K + i] = b % 4 == i + 1 ? 1 : -1;
	printf("layout,factor,effect_sigma_b,claimed\n");
	run("design-2^3", design, true, rng);
	run("one-mode-per-factor", one, false, rng);
	run_fold("pb20-x2-repeated", false, FOLD_INTERACTION, rng);
	run_fold("pb20-with-fold-over", true, FOLD_INTERACTION, rng);
	run_fold("pb20-with-fold-over-no-interaction", true, 0, rng);
	design_release(&d);
	gsl_rng_free(rng);
	return 0;
}
