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

#define STAT_KINDS 4

/*
 * A list of statistics, "mean,min" (blanks around names allowed): each
 * known and given once. Returns how many (1 to STAT_KINDS) with ret[]
 * filled in order, or -EINVAL with ret untouched.
 */
int stat_list_parse(const char *text, enum stat_kind ret[STAT_KINDS]);

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

/* Upper tail P(F > f) of Fisher's F with (df1, df2) degrees of freedom (GSL). */
double stats_f_upper_p(double f, double df1, double df2);

/*
 * Boot-level statistics. A boot is summarised in log space: the mean of
 * the logs of its samples, their count and their sum of squares about
 * that mean. Logs turn ratios into differences, so a boot-to-boot offset
 * of 2 % is the same whether the row runs at 10 or at 10,000 t/s.
 */
struct stats_boot {
	double mean;            /* mean of log(sample) */
	size_t n;               /* samples used */
	double ss;              /* sum of (log(sample) - mean)^2 */
};

/*
 * Summarises x[skip..n-1] into *ret. Returns 0, or -EINVAL when no sample
 * is left or one is zero, negative or not finite (*ret untouched).
 */
int stats_boot_summarise(const double *x, size_t n, size_t skip, struct stats_boot *ret);

/*
 * Wild reps: one rep far from the others of its boot (a throttle, a stray
 * job), among the boots of one metric. logs holds every boot's reps as
 * logs, boot j at logs[starts[j] .. starts[j + 1] - 1] (starts has n_boots
 * + 1 entries). The scale is robust: 1.4826 times the median of every
 * rep's distance from its own boot's median, pooled over the boots (an odd
 * boot's median rep, whose distance is 0 by construction, left out); with
 * group (group[j]: boot j's mode, or NULL), a boot's scale is the larger of
 * that and the same pooled over its group's boots (a group of one boot
 * without its largest distance: its few reps hold the wild one), so a mode
 * noisier than the others is judged by its own noise. A rep is wild when its distance
 * exceeds k times the scale and min_log; a boot
 * of fewer than STATS_WILD_MIN_REPS reps is not judged, nor one where more
 * than (reps - 1) / 2 would be wild (that boot is loud, not one wild rep).
 * Sets ret_wild[i] (false elsewhere) and returns how many are wild.
 */
#define STATS_WILD_MIN_REPS 3
size_t stats_wild_reps(const double *logs, const size_t *starts, size_t n_boots, const size_t *group, double k,
		       double min_log, bool *ret_wild);

/* Boots that share a mean: the boots of one mode, or one history entry. */
struct stats_group {
	const struct stats_boot *boots;
	size_t n;
};

/*
 * Variance components of a nested design (groups > boots > samples) by
 * the method of moments, as in Kalibera and Jones, "Rigorous benchmarking
 * in reasonable time" (ISMM 2013), for unequal sample counts:
 *   ms_within  = sum of within-boot SS / (N - B)
 *   ms_between = sum_b n_b (mean_b - mean_g)^2 / (B - G), mean_g weighted by n_b
 *   n0 = (N - sum_g sum_b n_b^2 / N_g) / (B - G)
 *   sigma_w2 = ms_within, sigma_b2 = max(0, (ms_between - ms_within) / n0)
 * Also the boot-level variance: boot means about their group's
 * (unweighted) mean, pooled over groups, with sum (b_g - 1) degrees of
 * freedom; this is what boot-level tests use.
 */
struct stats_components {
	double sigma_w2;        /* within-boot variance (log units squared); NaN if N == B */
	double sigma_b2;        /* between-boot variance, truncated at 0; NaN if not estimable */
	double icc;             /* sigma_b2 / (sigma_b2 + sigma_w2); NaN if not estimable */
	double df_within;       /* N - B */
	double df_between;      /* B - G */
	size_t boots, samples;
	double boot_ss;         /* sum over groups of sum (mean_b - group mean)^2 */
	double boot_df;         /* sum (b_g - 1) */
	double boot_var;        /* boot_ss / boot_df; NaN if boot_df == 0 */
};

/* Fills *ret (always; fields that cannot be estimated are NaN). */
void stats_variance_components(const struct stats_group *groups, size_t n_groups,
			       struct stats_components *ret);

/* A two-sided test of an estimate with its confidence interval (log units). */
struct stats_test {
	double estimate;
	double se;
	double df;
	double t;
	double p;               /* two-sided */
	double lo, hi;          /* estimate -/+ t_{1 - alpha/2, df} se */
};

/*
 * Tests estimate against 0 with standard error se and a t law with df
 * degrees of freedom at level alpha. Returns 0, or -EINVAL when se or df
 * is not positive and finite (*ret untouched).
 */
int stats_t_test(double estimate, double se, double df, double alpha, struct stats_test *ret);

/*
 * Welch's test of mean_b - mean_a from the groups' own variances, with
 * the Welch-Satterthwaite degrees of freedom. -EINVAL for n < 2 or two
 * zero variances.
 */
int stats_welch_test(double mean_a, double var_a, size_t n_a, double mean_b, double var_b,
		     size_t n_b, double alpha, struct stats_test *ret);

/*
 * Benjamini-Hochberg adjusted p-values ("q-values") of p[0..n-1] into
 * ret_q (may be p itself). NaN entries are not tests: they stay NaN and
 * do not count in n. A test is a discovery at FDR level q when its
 * adjusted value is <= q.
 */
void stats_bh_adjust(const double *p, size_t n, double *ret_q);

/* P(T > t) for a noncentral t law with df degrees of freedom and noncentrality ncp. */
double stats_nct_upper(double t, double df, double ncp);

/*
 * Power of a two-sided t-test at level alpha whose statistic is
 * noncentral t with df degrees of freedom and noncentrality ncp.
 */
double stats_t_power(double ncp, double df, double alpha);

/*
 * Boots per mode a campaign of n_modes modes needs so that a pooled
 * boot-level t-test (df = n_modes (n - 1)) finds an effect of
 * effect_log (log units) with the given power at level alpha, when boot
 * means vary with variance boot_var. Returns n >= 2, or 0 when more than
 * max boots would be needed or the inputs are not usable.
 */
unsigned stats_boots_needed(double effect_log, double boot_var, size_t n_modes, double alpha,
			    double power, unsigned max);

/*
 * Boots per mode for the two one-sided tests of equivalence (TOST at level
 * alpha: the 1 - 2 alpha CI inside (lo_log, hi_log)) to reach the given
 * power when the true difference is effect_log, boot means vary with
 * variance boot_var and the pooled t has n_modes (n - 1) degrees of
 * freedom. Returns n >= 2, or 0 when more than max would be needed, the
 * effect lies outside the margin, or an input is not usable.
 */
unsigned stats_tost_boots_needed(double effect_log, double lo_log, double hi_log, double boot_var,
				 size_t n_modes, double alpha, double power, unsigned max);

/*
 * Kalibera and Jones's best reps per boot, sqrt(c_boot / c_rep *
 * sigma_w2 / sigma_b2), rounded and kept within [1, max]; max when
 * sigma_b2 is 0, NaN when an input is missing.
 */
double stats_best_reps(double c_boot, double c_rep, double sigma_w2, double sigma_b2, double max);

/* A two-stage design: boots per mode, reps per boot, and its box time. */
struct stats_design {
	unsigned boots, reps;
	double seconds;
};

/*
 * Box time of a campaign of boots per mode over n_modes modes: it boots
 * boots x n_modes + 1 times (the first mode closes it), each boot taking
 * c_boot seconds and reps reps of c_rep seconds.
 */
double stats_design_seconds(unsigned boots, size_t n_modes, unsigned reps, double c_boot, double c_rep);

/*
 * The cheapest design that finds effect_log with 80 % power at alpha 0.05
 * (stats_boots_needed() with boot means varying by sigma_b2 + sigma_w2 /
 * reps): of reps 1 to max_reps, the one whose boots take the least box
 * time. Returns 0 with *ret; -EINVAL when an input is not usable, -ERANGE
 * when every reps needs more than max_boots boots per mode.
 */
int stats_cheapest_design(double effect_log, double sigma_b2, double sigma_w2, size_t n_modes, double c_boot,
			  double c_rep, unsigned max_reps, unsigned max_boots, struct stats_design *ret);

/* What one metric of a row needs found: an effect, and its noise. */
struct stats_need {
	size_t row;                   /* index into the rows of stats_campaign_design() */
	double effect_log, sigma_b2, sigma_w2;
};

/*
 * The cheapest campaign that finds every need with 80 % power at alpha
 * 0.05: one count of boots per mode for all rows (a plan's rounds) and
 * each row's reps (1 to max_reps, *ret_reps[i]; 0 for a row no need
 * names), of least box time (boots x n_modes + 1) x (c_reboot + the sum
 * over the rows needed of c_idle[i] + reps x c_rep[i]). With one need it
 * is stats_cheapest_design() with c_boot = c_reboot + c_idle. Returns 0
 * with *ret_boots and *ret_seconds; -EINVAL when an input is not usable,
 * -ERANGE when a need takes more than max_boots boots at every reps.
 */
int stats_campaign_design(const struct stats_need *needs, size_t n_needs, const double *c_idle,
			  const double *c_rep, size_t n_rows, double c_reboot, size_t n_modes, unsigned max_reps,
			  unsigned max_boots, unsigned *ret_boots, unsigned *ret_reps, double *ret_seconds);

/*
 * Group-sequential designs: a test looked at after every round of boots,
 * with two-sided boundaries from Lan and DeMets's alpha spending (Lan and
 * DeMets 1983, Biometrika 70:659-663; Jennison and Turnbull 2000, "Group
 * Sequential Methods with Applications to Clinical Trials", ch. 7). The
 * spending function alpha(t) says how much of the false-claim rate alpha
 * may be used up by information fraction t:
 *   O'Brien-Fleming type  2 - 2 Phi(z_{1-alpha/2} / sqrt(t))
 *   Pocock type           alpha ln(1 + (e - 1) t)
 */
enum stats_spending {
	SPENDING_OBRIEN_FLEMING,
	SPENDING_POCOCK,
};

/* alpha(t) of spending function s, for t in [0, 1]. */
double stats_spend(enum stats_spending s, double alpha, double t);

/*
 * The boundaries of k looks at information levels info[0] < ... <
 * info[k-1] (any unit: only the ratios matter): look j claims when |Z_j| >=
 * ret_z[j], where Z_j is the standardised statistic on all the data so far.
 * They are found by numerical integration of the joint normal law of the
 * Z_j (Armitage, McPherson and Rowe 1969; Jennison and Turnbull ch. 19) so
 * that the chance under no effect of a first claim at look j is alpha(t_j) -
 * alpha(t_{j-1}), t_j = info[j] / info[k-1]. A look that may spend nothing
 * gets STATS_GS_NEVER. Returns 0, or -EINVAL for k = 0, alpha outside
 * (0, 1) or info not positive and increasing.
 */
#define STATS_GS_NEVER 12.0
int stats_gs_bounds(const double *info, size_t k, double alpha, enum stats_spending s, double *ret_z);

/*
 * With the same looks and boundaries z, the chance of a first claim at
 * each look (ret_p[0..k-1]) when the statistic drifts by theta: Z_j is
 * normal with mean theta sqrt(info[j]) (info in units of 1 / variance of
 * the estimate, theta the true difference). theta = 0 gives the
 * false-claim rate, look by look. Returns 0 or -EINVAL as above.
 */
int stats_gs_crossing(const double *info, size_t k, const double *z, double theta, double *ret_p);

/* The two-sided nominal level of boundary z: 2 (1 - Phi(z)). */
double stats_gs_nominal(double z);

#endif
