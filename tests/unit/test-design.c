/* Unit tests for src/judge/design.c: the design tables' balance, orthogonality and aliasing, and the effects' fit. */
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

#include "judge/design.h"

#define NEAR(a, b, tol) assert_true(fabs((a) - (b)) <= (tol))

static const char *const names[] = { "A", "B", "C", "D", "E", "F", "G", "H", "J", "K", "L", "M",
				     "N", "O", "P", "Q", "R", "S", "T", "U", "V", "W", "X" };

/* Every column balanced, every two orthogonal, run 0 all off, no run twice. */
static void check_table(const struct design *d)
{
	size_t k = d->k;

	for (size_t i = 0; i < k; i++) {
		int sum = 0;

		assert_int_equal(d->levels[i], -1);
		for (size_t r = 0; r < d->n_runs; r++) {
			assert_true(d->levels[r * k + i] == 1 || d->levels[r * k + i] == -1);
			sum += d->levels[r * k + i];
		}
		assert_int_equal(sum, 0);
		for (size_t j = i + 1; j < k; j++) {
			int dot = 0;

			for (size_t r = 0; r < d->n_runs; r++)
				dot += d->levels[r * k + i] * d->levels[r * k + j];
			assert_int_equal(dot, 0);
		}
	}
	for (size_t a = 0; a < d->n_runs; a++)
		for (size_t b = a + 1; b < d->n_runs; b++)
			assert_true(memcmp(&d->levels[a * k], &d->levels[b * k], k) != 0);
}

/* Whether the product of the columns in mask is constant c on every run. */
static bool product_constant(const struct design *d, unsigned mask, int c)
{
	for (size_t r = 0; r < d->n_runs; r++) {
		int v = 1;

		for (size_t i = 0; i < d->k; i++)
			if (mask >> i & 1)
				v *= d->levels[r * d->k + i];
		if (v != c)
			return false;
	}
	return true;
}

/* A main effect column equal (or opposite) to a two-factor interaction's: read off the table itself. */
static bool main_confounded_in_table(const struct design *d, size_t i)
{
	for (size_t a = 0; a < d->k; a++)
		for (size_t b = a + 1; b < d->k; b++) {
			int dot = 0;

			if (a == i || b == i)
				continue;
			for (size_t r = 0; r < d->n_runs; r++)
				dot += d->levels[r * d->k + i] * d->levels[r * d->k + a] * d->levels[r * d->k + b];
			if (dot != 0)
				return true;
		}
	return false;
}

static void test_full(void **state)
{
	(void)state;
	for (size_t k = 1; k <= DESIGN_FULL_MAX; k++) {
		struct design d;

		assert_int_equal(design_build(k, true, &d), 0);
		assert_int_equal(d.kind, DESIGN_FULL);
		assert_int_equal(d.n_runs, (size_t)1 << k);
		assert_int_equal(d.resolution, 0);
		check_table(&d);
		design_release(&d);
	}
}

static void test_fractions(void **state)
{
	/* k: runs and resolution of the smallest resolution IV+ design (NIST 5.3.3.4.7). */
	static const struct { size_t k, runs; unsigned resolution; } want[] = {
		{ 4, 8, 4 }, { 5, 16, 5 }, { 6, 16, 4 }, { 7, 16, 4 },
		{ 8, 16, 4 }, { 9, 32, 4 }, { 10, 32, 4 }, { 11, 32, 4 },
	};

	(void)state;
	for (size_t t = 0; t < sizeof(want) / sizeof(want[0]); t++) {
		struct design d;
		unsigned shortest = 99;

		assert_int_equal(design_build(want[t].k, false, &d), 0);
		assert_int_equal(d.kind, DESIGN_FRACTION);
		assert_int_equal(d.n_runs, want[t].runs);
		assert_int_equal(d.resolution, want[t].resolution);
		assert_int_equal(d.n_relation, ((size_t)1 << d.n_generators) - 1);
		check_table(&d);
		/* Every word of the defining relation holds on every run, with its sign. */
		for (size_t w = 0; w < d.n_relation; w++) {
			assert_true(product_constant(&d, d.relation[w].mask, d.relation[w].sign));
			shortest = (unsigned)__builtin_popcount(d.relation[w].mask) < shortest ?
					   (unsigned)__builtin_popcount(d.relation[w].mask) : shortest;
		}
		assert_int_equal(shortest, d.resolution);
		for (size_t i = 0; i < d.k; i++) {
			assert_false(design_main_aliased(&d, i));
			assert_false(main_confounded_in_table(&d, i));
		}
		design_release(&d);
	}
}

static void test_plackett_burman(void **state)
{
	(void)state;
	for (size_t k = 12; k <= DESIGN_MAX_FACTORS; k++) {
		struct design d;

		assert_int_equal(design_build(k, false, &d), 0);
		assert_int_equal(d.kind, DESIGN_PLACKETT_BURMAN);
		assert_int_equal(d.n_runs, k < 20 ? 20 : 24);
		assert_int_equal(d.resolution, 3);
		check_table(&d);
		assert_true(design_main_aliased(&d, 0));
		design_release(&d);
	}
}

static void test_small_screen_is_full(void **state)
{
	struct design d;

	(void)state;
	assert_int_equal(design_build(3, false, &d), 0);
	assert_int_equal(d.kind, DESIGN_FULL);
	assert_int_equal(d.n_runs, 8);
	design_release(&d);
}

static void test_refused(void **state)
{
	struct design d = { .k = 77 };

	(void)state;
	assert_int_equal(design_build(0, false, &d), -EINVAL);
	assert_int_equal(design_build(DESIGN_FULL_MAX + 1, true, &d), -EINVAL);
	assert_int_equal(design_build(DESIGN_MAX_FACTORS + 1, false, &d), -EINVAL);
	assert_int_equal(d.k, 77);
	design_release(NULL);
}

static void test_aliases(void **state)
{
	struct design d;
	struct strlist l = STRLIST_INIT;
	char *text;

	(void)state;
	assert_int_equal(design_build(4, false, &d), 0);
	design_aliases(&d, names, &l);
	assert_int_equal(l.n, 5);
	assert_string_equal(l.items[0], "generator: D = A*B*C");
	assert_string_equal(l.items[1], "every main effect clear of two-factor interactions (aliased with three-factor ones and higher)");
	assert_string_equal(l.items[2], "interactions aliased: A*B = C*D");
	assert_string_equal(l.items[3], "interactions aliased: A*C = B*D");
	assert_string_equal(l.items[4], "interactions aliased: B*C = A*D");
	text = design_describe(&d);
	assert_string_equal(text, "fractional factorial 2^(4-1), 8 runs, resolution IV");
	free(text);
	strlist_release(&l);
	design_release(&d);

	/* 6=2345: four base factors, so F = -B*C*D*E keeps the all-off run in the fraction. */
	assert_int_equal(design_build(9, false, &d), 0);
	design_aliases(&d, names, &l);
	assert_string_equal(l.items[0], "generator: F = -B*C*D*E");
	strlist_release(&l);
	design_release(&d);

	assert_int_equal(design_build(3, true, &d), 0);
	design_aliases(&d, names, &l);
	assert_int_equal(l.n, 1);
	assert_string_equal(l.items[0], "nothing aliased: every main effect and interaction estimable");
	text = design_describe(&d);
	assert_string_equal(text, "full factorial 2^3, 8 runs");
	free(text);
	strlist_release(&l);
	design_release(&d);

	assert_int_equal(design_build(12, false, &d), 0);
	design_aliases(&d, names, &l);
	assert_int_equal(l.n, 1);
	assert_non_null(strstr(l.items[0], "partly aliased"));
	assert_string_equal(design_resolution_name(d.resolution), "III");
	strlist_release(&l);
	design_release(&d);
}

/* Whether the runs of d, every sign reversed, are d's own runs (as a set). */
static bool fold_is_same_runs(const struct design *d)
{
	size_t k = d->k;
	signed char *neg = malloc(k);
	bool same = true;

	for (size_t a = 0; a < d->n_runs && same; a++) {
		bool found = false;

		for (size_t i = 0; i < k; i++)
			neg[i] = (signed char)-d->levels[a * k + i];
		for (size_t b = 0; b < d->n_runs && !found; b++)
			found = memcmp(neg, &d->levels[b * k], k) == 0;
		same = found;
	}
	free(neg);
	return same;
}

static void test_fold_same_runs(void **state)
{
	(void)state;
	/* A full factorial, and the fractions whose words all have even length: the fold-over is the design again. */
	for (size_t k = 1; k <= 11; k++) {
		struct design d;

		if (k == 9 || k == 10)
			continue;   /* test_fold */
		assert_int_equal(design_build(k, false, &d), 0);
		assert_false(design_foldable(&d));
		assert_int_equal(design_fold(&d), -EINVAL);
		assert_false(d.folded);
		assert_int_equal(d.n_runs, d.base_runs);
		/* k = 5 is resolution V (one word, of five letters): its fold-over is new runs, not needed. */
		assert_true(fold_is_same_runs(&d) == (k != 5));
		design_release(&d);
	}
	for (size_t k = 1; k <= DESIGN_FULL_MAX; k++) {
		struct design d;

		assert_int_equal(design_build(k, true, &d), 0);
		assert_false(design_foldable(&d));
		assert_true(fold_is_same_runs(&d));
		design_release(&d);
	}
}

static void test_fold(void **state)
{
	(void)state;
	for (size_t k = 9; k <= DESIGN_MAX_FACTORS; k++) {
		struct design d;
		size_t n, confounded = 0;

		if (k == 11)
			continue;   /* every word of its defining relation has four letters: test_fold_same_runs */
		assert_int_equal(design_build(k, false, &d), 0);
		n = d.n_runs;
		assert_false(fold_is_same_runs(&d));
		for (size_t i = 0; i < k; i++)
			confounded += main_confounded_in_table(&d, i);
		/* A Plackett-Burman design mixes main effects with two-factor interactions; a resolution IV fraction does not. */
		assert_true(d.kind == DESIGN_PLACKETT_BURMAN ? confounded > 0 : confounded == 0);
		assert_true(design_foldable(&d));
		assert_int_equal(design_fold(&d), 0);
		assert_true(d.folded);
		assert_int_equal(d.base_runs, n);
		assert_int_equal(d.n_runs, 2 * n);
		assert_int_equal(d.resolution, 4);
		assert_int_equal(d.base_resolution, d.kind == DESIGN_PLACKETT_BURMAN ? 3 : 4);
		/* Run base_runs + r is run r reversed: the standing config's fold-over has every factor on. */
		for (size_t r = 0; r < n; r++)
			for (size_t i = 0; i < k; i++)
				assert_int_equal(d.levels[(n + r) * k + i], -d.levels[r * k + i]);
		for (size_t i = 0; i < k; i++)
			assert_int_equal(d.levels[n * k + i], 1);
		/* The combined design: balanced, main effect columns orthogonal, each orthogonal to every 2FI column. */
		for (size_t i = 0; i < k; i++) {
			int sum = 0;

			for (size_t r = 0; r < d.n_runs; r++)
				sum += d.levels[r * k + i];
			assert_int_equal(sum, 0);
			for (size_t j = i + 1; j < k; j++) {
				int dot = 0;

				for (size_t r = 0; r < d.n_runs; r++)
					dot += d.levels[r * k + i] * d.levels[r * k + j];
				assert_int_equal(dot, 0);
			}
			assert_false(main_confounded_in_table(&d, i));
			assert_false(design_main_aliased(&d, i));
			assert_true(design_main_aliased_unfolded(&d, i) == (d.kind == DESIGN_PLACKETT_BURMAN));
		}
		/* A fraction's words of even length hold on every run of both halves; those of odd length on neither. */
		for (size_t w = 0; w < d.n_relation; w++)
			assert_true(product_constant(&d, d.relation[w].mask, d.relation[w].sign) ==
				    (__builtin_popcount(d.relation[w].mask) % 2 == 0));
		assert_false(design_foldable(&d));
		assert_int_equal(design_fold(&d), -EINVAL);
		assert_int_equal(d.n_runs, 2 * n);
		/* Each round, a fold-over's too, has base_runs boots. */
		assert_int_equal(design_one_factor_boots(&d, 2), (k + 1) * n + 1);
		design_release(&d);
	}
}

static void test_fold_aliases(void **state)
{
	struct design d;
	struct strlist l = STRLIST_INIT;
	char *text;

	(void)state;
	assert_int_equal(design_build(12, false, &d), 0);
	assert_int_equal(design_fold(&d), 0);
	design_aliases(&d, names, &l);
	assert_int_equal(l.n, 1);
	assert_string_equal(l.items[0], "fold-over: every factor reversed in a second set of runs: every main effect clear of "
					"two-factor interactions, which stay partly aliased with each other");
	text = design_describe(&d);
	assert_string_equal(text, "Plackett-Burman, 20 runs, with its fold-over: 40 runs, resolution IV");
	free(text);
	assert_false(design_interactions_clear(&d));
	strlist_release(&l);
	design_release(&d);

	assert_int_equal(design_build(9, false, &d), 0);
	assert_int_equal(design_fold(&d), 0);
	design_aliases(&d, names, &l);
	assert_string_equal(l.items[0], "generator: F = -B*C*D*E");
	assert_string_equal(l.items[4], "fold-over: every factor reversed in a second set of runs, "
					"the words of odd length leave the defining relation");
	assert_string_equal(l.items[5], "every main effect clear of two-factor interactions (aliased with three-factor ones and higher)");
	text = design_describe(&d);
	assert_string_equal(text, "fractional factorial 2^(9-4), 32 runs, with its fold-over: 64 runs, resolution IV");
	free(text);
	strlist_release(&l);
	design_release(&d);
}

static void test_effects_by_hand(void **state)
{
	/* One factor: off 1, 3; on 4, 6. Effect 5 - 2 = 3; residual SS 4 over 2 df; se sqrt(2 (1/2 + 1/2)). */
	const signed char levels[] = { -1, -1, 1, 1 };
	const double y[] = { 1, 3, 4, 6 };
	struct design_effect e;
	size_t df = 9;

	(void)state;
	assert_int_equal(design_effects(levels, 1, y, 4, 0.05, &e, &df), 0);
	assert_int_equal(df, 2);
	NEAR(e.effect, 3, 1e-12);
	NEAR(e.se, sqrt(2), 1e-12);
	/* t_{0.975, 2} = 4.302653 */
	NEAR(e.low, 3 - 4.302653 * sqrt(2), 1e-5);
	NEAR(e.high, 3 + 4.302653 * sqrt(2), 1e-5);
	assert_true(e.p > 0.05);
}

static void test_effects_exact(void **state)
{
	/* The 2^3 with the standing config again: y = 0.1 + 0.5 A - 0.2 B (C none); effects 1.0, -0.4, 0 exactly. */
	struct design d;
	signed char levels[9 * 3];
	double y[9];
	struct design_effect e[3];
	size_t df;

	(void)state;
	assert_int_equal(design_build(3, true, &d), 0);
	memcpy(levels, d.levels, 8 * 3);
	memcpy(&levels[8 * 3], d.levels, 3);
	for (size_t o = 0; o < 9; o++)
		y[o] = 0.1 + 0.5 * levels[o * 3] - 0.2 * levels[o * 3 + 1];
	assert_int_equal(design_effects(levels, 3, y, 9, 0.05, e, &df), 0);
	assert_int_equal(df, 5);
	NEAR(e[0].effect, 1.0, 1e-12);
	NEAR(e[1].effect, -0.4, 1e-12);
	NEAR(e[2].effect, 0, 1e-12);
	NEAR(e[0].se, 0, 1e-9);
	design_release(&d);
}

static void test_interactions_exact(void **state)
{
	/* y = 0.1 + 0.5 A + 0.3 AB: with the pairs in the fit, AB's effect 0.6 and A's 1.0 exactly, the rest 0. */
	static const unsigned pairs[] = { 0, 1, 0, 2, 1, 2 };
	struct design d;
	signed char levels[9 * 3];
	double y[9];
	struct design_effect e[6];
	size_t df;

	(void)state;
	assert_int_equal(design_build(3, true, &d), 0);
	assert_true(design_interactions_clear(&d));
	memcpy(levels, d.levels, 8 * 3);
	memcpy(&levels[8 * 3], d.levels, 3);
	for (size_t o = 0; o < 9; o++)
		y[o] = 0.1 + 0.5 * levels[o * 3] + 0.3 * levels[o * 3] * levels[o * 3 + 1];
	assert_int_equal(design_fit(levels, 3, pairs, 3, y, 9, 0.05, e, &df), 0);
	assert_int_equal(df, 2);
	NEAR(e[0].effect, 1.0, 1e-12);
	NEAR(e[1].effect, 0, 1e-12);
	NEAR(e[2].effect, 0, 1e-12);
	NEAR(e[3].effect, 0.6, 1e-12);
	NEAR(e[4].effect, 0, 1e-12);
	NEAR(e[5].effect, 0, 1e-12);
	/* Too few boots for 7 coefficients; a factor index past k. */
	assert_int_equal(design_fit(levels, 3, pairs, 3, y, 6, 0.05, e, &df), -EDOM);
	assert_int_equal(design_fit(levels, 3, (const unsigned[]){ 0, 3 }, 1, y, 9, 0.05, e, &df), -EINVAL);
	design_release(&d);
	/* A resolution IV fraction aliases pairs with each other; resolution V does not. */
	assert_int_equal(design_build(6, false, &d), 0);
	assert_false(design_interactions_clear(&d));
	design_release(&d);
	assert_int_equal(design_build(5, false, &d), 0);
	assert_true(design_interactions_clear(&d));
	design_release(&d);
}

static void test_effects_refused(void **state)
{
	const signed char constant[] = { -1, -1, -1, -1 };
	const signed char few[] = { -1, -1, 1, 1 };
	const double y[] = { 1, 2, 3, 4 };
	struct design_effect e = { .effect = 42 };
	size_t df = 42;

	(void)state;
	assert_int_equal(design_effects(constant, 1, y, 4, 0.05, &e, &df), -EDOM);
	assert_int_equal(design_effects(few, 2, y, 2, 0.05, &e, &df), -EDOM);
	assert_int_equal(design_effects(few, 1, y, 4, 0, &e, &df), -EINVAL);
	assert_int_equal(df, 42);
	/* Saturated: no residual, no CI. */
	assert_int_equal(design_effects(few, 1, (const double[]){ 1, 3 }, 2, 0.05, &e, &df), -EDOM);
}

static void test_one_factor_boots(void **state)
{
	struct design d;

	(void)state;
	assert_int_equal(design_build(3, true, &d), 0);
	/* 8 runs a round: each factor alone needs 4 boots, the standing config 4 and one to close. */
	assert_int_equal(design_one_factor_boots(&d, 1), 17);
	assert_int_equal(design_one_factor_boots(&d, 2), 33);
	design_release(&d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_full),
		cmocka_unit_test(test_fractions),
		cmocka_unit_test(test_plackett_burman),
		cmocka_unit_test(test_small_screen_is_full),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_aliases),
		cmocka_unit_test(test_fold_same_runs),
		cmocka_unit_test(test_fold),
		cmocka_unit_test(test_fold_aliases),
		cmocka_unit_test(test_effects_by_hand),
		cmocka_unit_test(test_effects_exact),
		cmocka_unit_test(test_interactions_exact),
		cmocka_unit_test(test_effects_refused),
		cmocka_unit_test(test_one_factor_boots),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
