#ifndef BOOTAB_STATS_H
#define BOOTAB_STATS_H

#include <stdbool.h>
#include <stddef.h>

/*
 * Descriptive statistics and the distributions bootab's verdicts use.
 * Functions take arrays they do not keep; NaN is returned where a value
 * does not exist (the mean of nothing, the spread of one sample).
 */

enum stat_kind {
	STAT_MEAN,
	STAT_MEDIAN,
	STAT_MIN,
	STAT_MAX,
};

/* "mean", "median", "min", "max". */
const char *stat_kind_name(enum stat_kind kind);
/* Returns 0 and sets *ret for a known name, else -EINVAL. */
int stat_kind_from_name(const char *name, enum stat_kind *ret);

double stats_mean(const double *x, size_t n);
/* Sample standard deviation (n - 1 in the denominator); NaN for n < 2. */
double stats_stddev(const double *x, size_t n);
double stats_median(const double *x, size_t n);
double stats_min(const double *x, size_t n);
double stats_max(const double *x, size_t n);
/* The statistic of the given kind. */
double stats_of(enum stat_kind kind, const double *x, size_t n);

/*
 * The seed rule's q = |delta| / |drift| read as a test. With one repeat
 * boot and boot-to-boot noise dominating, delta = B - A and drift = A2 - A
 * are normal with correlation 1/2, so delta/drift follows a Cauchy law
 * with scale sqrt(3)/2 (centred at 1/2). bootab reports the symmetric tail
 * p = 1 - (2/pi) atan(q / sqrt(0.75)), which ignores the centring and is
 * slightly conservative: at q = 2 it gives 0.26 where the centred law
 * gives 0.21. q = +inf gives 0; NaN gives NaN.
 */
double stats_drift_rule_p(double q);

/* Quantile of Student's t with df degrees of freedom (GSL). */
double stats_t_quantile(double p, double df);
/* Two-sided p-value of a t statistic with df degrees of freedom. */
double stats_t_two_sided_p(double t, double df);

#endif
