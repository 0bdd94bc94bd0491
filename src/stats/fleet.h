#ifndef BOOTAB_STATS_FLEET_H
#define BOOTAB_STATS_FLEET_H

#include <stdbool.h>
#include <stddef.h>

#include "stats/stats.h"

/*
 * One effect measured on several machines, pooled with the machine as a
 * level above boot and rep (docs/fleet.md). Per machine i: d_i, the
 * machine's own boot-level estimate (log units, + is better), and, where
 * the machine's campaign could test it, its variance v_i = se_i^2 on f_i
 * degrees of freedom.
 *
 *   d_i = mu + u_i + e_i,  u_i ~ N(0, tau^2) (the machine's own effect),
 *                          e_i ~ N(0, v_i)   (its boots' noise)
 *
 * The pooled effect is the plain mean of the d_i, its standard error their
 * standard deviation / sqrt(k), on k - 1 degrees of freedom: each d_i
 * already carries both tau^2 and its machine's boot noise, so the spread of
 * the d_i between machines is the yardstick, whatever the campaigns on each
 * machine were (one boot per mode or twelve), and a machine whose campaign
 * cannot test the effect by itself still counts. Equal weights keep a
 * machine whose few boots happen to agree from speaking for the fleet.
 *
 * Heterogeneity (does the effect differ between machines?): with m the
 * mean of the d_i weighted by 1 / v_i, each machine's residual
 * t_i = (d_i - m) / sqrt(v_i) is, under an equal effect and with m taken as
 * known, Student's t on f_i degrees of freedom; its two-sided tail p_i is
 * turned into the chi-square (1 df) value with the same tail, and their sum
 * X is read against a chi-square with k - 1 degrees of freedom. With known
 * v_i this is Cochran's Q (Q = sum t_i^2, the meta-analysts' test, W. G.
 * Cochran, Biometrics 10, 1954); Q itself over-claims when each v_i rests on
 * a few boots (E[1 / v_i estimated] = f / (f - 2) / v_i: three times too much
 * weight at f = 3), and Welch's correction for estimated variances (Biometrika
 * 38, 1951) is first order in 1 / f. The per-machine transform keeps each
 * term's law exact; what is left is m being estimated. Every machine needs a
 * test of its own with at least STATS_FLEET_HET_MIN_DF degrees of freedom.
 */
#define STATS_FLEET_HET_MIN_DF 4

struct stats_fleet {
	size_t k;               /* machines */
	double mean;            /* mean of d_i */
	double sd;              /* standard deviation of d_i between machines */
	struct stats_test test; /* mean against 0: se = sd / sqrt(k), df = k - 1 */
	bool has_tau;           /* every v_i known */
	double tau2;            /* max(0, sd^2 - mean v_i): the effect's own machine-to-machine variance */
	bool has_heterogeneity; /* every v_i known and positive, every f_i >= STATS_FLEET_HET_MIN_DF */
	double q;               /* Cochran's Q with the estimated v_i (shown, not tested) */
	double i2;              /* Higgins and Thompson's I^2 = max(0, (Q - (k - 1)) / Q) */
	double het_x;           /* the sum of the machines' chi-square values */
	double het_df;          /* k - 1 */
	double het_p;           /* its upper p */
};

/*
 * Pools d[0..k-1]; v and f may be NULL or hold NaN where a machine has no
 * variance of its own. Returns 0 with *ret filled, -EINVAL when k < 2 or a
 * d_i is not finite, -ERANGE when the d_i do not vary (ret->mean and ret->sd
 * are set, the test is not).
 */
int stats_fleet_pool(const double *d, const double *v, const double *f, size_t k, double alpha,
		     struct stats_fleet *ret);

#endif
