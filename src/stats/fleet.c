/* Effects pooled over machines (stats/fleet.h, docs/fleet.md). */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "stats/fleet.h"

#include <gsl/gsl_cdf.h>

static void heterogeneity(const double *d, const double *v, const double *f, size_t k, struct stats_fleet *ret)
{
	double w_sum = 0, wd = 0, q = 0, x = 0, m, kk = (double)k;

	for (size_t i = 0; i < k; i++) {
		if (!v || !f || !(v[i] > 0) || !isfinite(v[i]) || !(f[i] >= STATS_FLEET_HET_MIN_DF) || !isfinite(f[i]))
			return;
		w_sum += 1 / v[i];
		wd += d[i] / v[i];
	}
	m = wd / w_sum;
	for (size_t i = 0; i < k; i++) {
		double t = (d[i] - m) / sqrt(v[i]), p = stats_t_two_sided_p(t, f[i]);

		q += t * t;
		/* The t's tail as the same tail of a chi-square with 1 df. */
		x += p > 0 ? gsl_cdf_chisq_Qinv(p, 1) : INFINITY;
	}
	ret->has_heterogeneity = true;
	ret->q = q;
	ret->i2 = q > 0 ? fmax(0, (q - (kk - 1)) / q) : 0;
	ret->het_x = x;
	ret->het_df = kk - 1;
	ret->het_p = isfinite(x) ? gsl_cdf_chisq_Q(x, kk - 1) : 0;
}

int stats_fleet_pool(const double *d, const double *v, const double *f, size_t k, double alpha,
		     struct stats_fleet *ret)
{
	double sum = 0, ss = 0, v_sum = 0, mean;
	bool all_v = v != NULL;

	if (k < 2)
		return -EINVAL;
	for (size_t i = 0; i < k; i++) {
		if (!isfinite(d[i]))
			return -EINVAL;
		sum += d[i];
		if (v && v[i] >= 0 && isfinite(v[i]))
			v_sum += v[i];
		else
			all_v = false;
	}
	memset(ret, 0, sizeof(*ret));
	ret->k = k;
	mean = sum / (double)k;
	for (size_t i = 0; i < k; i++)
		ss += (d[i] - mean) * (d[i] - mean);
	ret->mean = mean;
	ret->sd = sqrt(ss / (double)(k - 1));
	ret->q = ret->i2 = ret->het_x = ret->het_df = ret->het_p = NAN;
	ret->tau2 = NAN;
	if (all_v) {
		ret->has_tau = true;
		ret->tau2 = fmax(0, ss / (double)(k - 1) - v_sum / (double)k);
	}
	heterogeneity(d, v, f, k, ret);
	if (!(ret->sd > 0))
		return -ERANGE;
	return stats_t_test(mean, ret->sd / sqrt((double)k), (double)(k - 1), alpha, &ret->test);
}
