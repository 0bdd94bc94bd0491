#include "judge/compare.h"

#include <math.h>
#include <stdlib.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "lib/alloc.h"

/*
 * The nominal levels of a rounds = auto campaign's looks, for the t
 * statistics bootab tests with rather than the normal ones the spending
 * function's boundaries are computed for: with 3 to 11 degrees of freedom at
 * the looks, normal-theory boundaries applied to t statistics let through
 * more than alpha overall. A t statistic of boot means is free of the
 * box's variance, so its joint law over the looks is the same on every
 * box: simulated once (SEQ_PATHS campaigns of two modes under no
 * difference, a fixed seed), each look's boundary is the |t| that the
 * campaigns still running cross as often as the spending function allows
 * at that look. Two modes: more modes pool more degrees of freedom, and
 * boundaries for fewer err on the side of fewer claims.
 */
#define SEQ_PATHS 200000
#define SEQ_SEED 5489UL

struct seq_path {
	double sum_a, sq_a, sum_b, sq_b;
	bool crossed;
};

static int cmp_double_desc(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x < y) - (x > y);
}

/* |t| of a path at look j: j + 1 boots of the first mode, j of the other. */
static double path_t(const struct seq_path *p, unsigned j)
{
	double na = j + 1, nb = j, ma = p->sum_a / na, mb = p->sum_b / nb;
	double ss = p->sq_a - na * ma * ma + p->sq_b - nb * mb * mb, df = na + nb - 2;

	return fabs(mb - ma) / sqrt(ss / df * (1 / na + 1 / nb));
}

/* levels[j - 1]: the nominal two-sided level of look j of k. */
static void sequential_levels(unsigned k, double alpha, double *levels)
{
	struct seq_path *paths = xcalloc(SEQ_PATHS, sizeof(*paths));
	double *t = xcalloc(SEQ_PATHS, sizeof(*t)), spent = 0, info_k = 1 / (1.0 / k + 1.0 / (k + 1));
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);

	gsl_rng_set(rng, SEQ_SEED);
	for (unsigned j = 1; j <= k; j++) {
		double target = stats_spend(COMPARE_SEQ_SPENDING, alpha, 1 / (1.0 / j + 1.0 / (j + 1)) / info_k);
		double inc = target - spent;
		size_t n = 0, want;

		spent = target;
		for (size_t i = 0; i < SEQ_PATHS; i++) {
			struct seq_path *p = &paths[i];
			double a = gsl_ran_gaussian_ziggurat(rng, 1), b = gsl_ran_gaussian_ziggurat(rng, 1);

			/* Look 1 adds the first two boots of the first mode. */
			if (j == 1) {
				p->sum_a = a;
				p->sq_a = a * a;
				a = gsl_ran_gaussian_ziggurat(rng, 1);
			}
			p->sum_a += a;
			p->sq_a += a * a;
			p->sum_b += b;
			p->sq_b += b * b;
			if (j >= 2 && !p->crossed)
				t[n++] = path_t(p, j);
		}
		/* Look 1 has no boot t (one boot of the tested mode): its share is a one-look level. */
		want = (size_t)llround(inc * SEQ_PATHS);
		if (j == 1 || want == 0 || n == 0) {
			levels[j - 1] = inc;
			continue;
		}
		qsort(t, n, sizeof(*t), cmp_double_desc);
		{
			double c = want < n ? (t[want - 1] + t[want]) / 2 : t[n - 1];

			levels[j - 1] = 2 * gsl_cdf_tdist_Q(c, 2.0 * j - 1);
			for (size_t i = 0; i < SEQ_PATHS; i++)
				if (!paths[i].crossed && path_t(&paths[i], j) > c)
					paths[i].crossed = true;
		}
	}
	gsl_rng_free(rng);
	free(t);
	free(paths);
}

double compare_sequential_alpha(unsigned round, unsigned max_rounds, double alpha)
{
	/* The levels of the last design asked for: a campaign asks for one design. */
	static double cached_alpha, cached_levels[100];
	static unsigned cached_max;

	if (round < 1 || round > max_rounds || max_rounds > 100 || !(alpha > 0 && alpha < 1))
		return NAN;
	if (cached_max != max_rounds || cached_alpha != alpha) {
		sequential_levels(max_rounds, alpha, cached_levels);
		cached_max = max_rounds;
		cached_alpha = alpha;
	}
	return cached_levels[round - 1];
}
