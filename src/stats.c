#include "stats.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>

#include "lib/alloc.h"

static const char *const stat_names[] = {
	[STAT_MEAN] = "mean",
	[STAT_MEDIAN] = "median",
	[STAT_MIN] = "min",
	[STAT_MAX] = "max",
};

const char *stat_kind_name(enum stat_kind kind)
{
	return (size_t)kind < sizeof(stat_names) / sizeof(stat_names[0]) ? stat_names[kind] : "?";
}

int stat_kind_from_name(const char *name, enum stat_kind *ret)
{
	for (size_t i = 0; i < sizeof(stat_names) / sizeof(stat_names[0]); i++)
		if (!strcmp(stat_names[i], name)) {
			*ret = (enum stat_kind)i;
			return 0;
		}
	return -EINVAL;
}

double stats_mean(const double *x, size_t n)
{
	double sum = 0;

	if (n == 0)
		return NAN;
	for (size_t i = 0; i < n; i++)
		sum += x[i];
	return sum / (double)n;
}

double stats_stddev(const double *x, size_t n)
{
	double mean, ss = 0;

	if (n < 2)
		return NAN;
	mean = stats_mean(x, n);
	/* Two-pass: accurate for samples with a large common offset. */
	for (size_t i = 0; i < n; i++)
		ss += (x[i] - mean) * (x[i] - mean);
	return sqrt(ss / (double)(n - 1));
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

double stats_median(const double *x, size_t n)
{
	double *s, m;

	if (n == 0)
		return NAN;
	s = xmalloc(n * sizeof(*s));
	memcpy(s, x, n * sizeof(*s));
	qsort(s, n, sizeof(*s), cmp_double);
	m = n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
	free(s);
	return m;
}

double stats_min(const double *x, size_t n)
{
	double m;

	if (n == 0)
		return NAN;
	m = x[0];
	for (size_t i = 1; i < n; i++)
		if (x[i] < m)
			m = x[i];
	return m;
}

double stats_max(const double *x, size_t n)
{
	double m;

	if (n == 0)
		return NAN;
	m = x[0];
	for (size_t i = 1; i < n; i++)
		if (x[i] > m)
			m = x[i];
	return m;
}

double stats_of(enum stat_kind kind, const double *x, size_t n)
{
	switch (kind) {
	case STAT_MEDIAN:
		return stats_median(x, n);
	case STAT_MIN:
		return stats_min(x, n);
	case STAT_MAX:
		return stats_max(x, n);
	case STAT_MEAN:
	default:
		return stats_mean(x, n);
	}
}

double stats_drift_rule_p(double q)
{
	if (isnan(q))
		return NAN;
	if (isinf(q))
		return 0;
	return 1 - (2 / M_PI) * atan(fabs(q) / sqrt(0.75));
}

double stats_t_quantile(double p, double df)
{
	return gsl_cdf_tdist_Pinv(p, df);
}

double stats_t_two_sided_p(double t, double df)
{
	return 2 * gsl_cdf_tdist_Q(fabs(t), df);
}
