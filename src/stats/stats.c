#include "stats/stats.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_integration.h>
#include <gsl/gsl_randist.h>

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

int stat_list_parse(const char *text, enum stat_kind ret[STAT_KINDS])
{
	enum stat_kind kinds[STAT_KINDS];
	int n = 0;
	const char *p = text;

	if (!text)
		return -EINVAL;
	for (;;) {
		const char *end = strchr(p, ',');
		size_t b = 0, e = end ? (size_t)(end - p) : strlen(p);
		char name[16];

		while (b < e && (p[b] == ' ' || p[b] == '\t'))
			b++;
		while (e > b && (p[e - 1] == ' ' || p[e - 1] == '\t'))
			e--;
		if (e - b >= sizeof(name) || n == STAT_KINDS)
			return -EINVAL;
		memcpy(name, p + b, e - b);
		name[e - b] = '\0';
		if (stat_kind_from_name(name, &kinds[n]) < 0)
			return -EINVAL;
		for (int i = 0; i < n; i++)
			if (kinds[i] == kinds[n])
				return -EINVAL;
		n++;
		if (!end)
			break;
		p = end + 1;
	}
	memcpy(ret, kinds, (size_t)n * sizeof(*kinds));
	return n;
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

double stats_f_upper_p(double f, double df1, double df2)
{
	if (isnan(f) || !(df1 > 0) || !(df2 > 0))
		return NAN;
	if (f <= 0)
		return 1;
	return gsl_cdf_fdist_Q(f, df1, df2);
}

int stats_boot_summarise(const double *x, size_t n, size_t skip, struct stats_boot *ret)
{
	double sum = 0, mean, ss = 0;

	if (skip >= n)
		return -EINVAL;
	for (size_t i = skip; i < n; i++) {
		if (!(x[i] > 0) || !isfinite(x[i]))
			return -EINVAL;
		sum += log(x[i]);
	}
	mean = sum / (double)(n - skip);
	for (size_t i = skip; i < n; i++) {
		double d = log(x[i]) - mean;

		ss += d * d;
	}
	*ret = (struct stats_boot){ .mean = mean, .n = n - skip, .ss = ss };
	return 0;
}

void stats_variance_components(const struct stats_group *groups, size_t n_groups,
			       struct stats_components *ret)
{
	double ssw = 0, ssb = 0, sum_n2_over = 0, boot_ss = 0;
	size_t boots = 0, samples = 0, used_groups = 0;
	struct stats_components c;

	for (size_t g = 0; g < n_groups; g++) {
		const struct stats_group *gr = &groups[g];
		double wsum = 0, usum = 0, wmean, umean, n2 = 0;
		size_t ng = 0;

		if (gr->n == 0)
			continue;
		used_groups++;
		for (size_t b = 0; b < gr->n; b++) {
			const struct stats_boot *bt = &gr->boots[b];

			ng += bt->n;
			wsum += (double)bt->n * bt->mean;
			usum += bt->mean;
			n2 += (double)bt->n * (double)bt->n;
			ssw += bt->ss;
		}
		wmean = wsum / (double)ng;
		umean = usum / (double)gr->n;
		for (size_t b = 0; b < gr->n; b++) {
			const struct stats_boot *bt = &gr->boots[b];

			ssb += (double)bt->n * (bt->mean - wmean) * (bt->mean - wmean);
			boot_ss += (bt->mean - umean) * (bt->mean - umean);
		}
		sum_n2_over += n2 / (double)ng;
		boots += gr->n;
		samples += ng;
	}
	c = (struct stats_components){
		.sigma_w2 = NAN, .sigma_b2 = NAN, .icc = NAN,
		.df_within = (double)samples - (double)boots,
		.df_between = (double)boots - (double)used_groups,
		.boots = boots, .samples = samples,
		.boot_ss = boot_ss, .boot_df = (double)boots - (double)used_groups, .boot_var = NAN,
	};
	if (c.boot_df > 0)
		c.boot_var = boot_ss / c.boot_df;
	if (c.df_within > 0)
		c.sigma_w2 = ssw / c.df_within;
	if (c.df_between > 0) {
		double msb = ssb / c.df_between;
		double n0 = ((double)samples - sum_n2_over) / c.df_between;

		/* With one sample per boot, boots and reps cannot be told apart. */
		if (c.df_within > 0) {
			/* Truncated at 0: a negative estimate means "no boot effect seen". */
			c.sigma_b2 = fmax(0, (msb - c.sigma_w2) / n0);
			c.icc = c.sigma_b2 + c.sigma_w2 > 0 ? c.sigma_b2 / (c.sigma_b2 + c.sigma_w2) : NAN;
		}
	}
	*ret = c;
}

int stats_t_test(double estimate, double se, double df, double alpha, struct stats_test *ret)
{
	double tq;

	if (!(se > 0) || !isfinite(se) || !(df > 0) || !isfinite(estimate) || !(alpha > 0 && alpha < 1))
		return -EINVAL;
	tq = stats_t_quantile(1 - alpha / 2, df);
	*ret = (struct stats_test){
		.estimate = estimate, .se = se, .df = df, .t = estimate / se,
		.p = stats_t_two_sided_p(estimate / se, df),
		.lo = estimate - tq * se, .hi = estimate + tq * se,
	};
	return 0;
}

/*
 * 1.4826 times the median distance of the reps of the boots j with
 * group[j] == g (every boot when g is SIZE_MAX) from their boot's median,
 * an odd boot's median rep left out; NaN when there is none. dev: scratch.
 */
static double wild_scale(const double *logs, const size_t *starts, size_t n_boots, const size_t *group,
			 size_t g, const double *med, double *dev)
{
	size_t nd = 0, boots = 0;

	for (size_t j = 0; j < n_boots; j++) {
		size_t n = starts[j + 1] - starts[j];
		bool zero_left = n % 2 == 1;

		if (n < STATS_WILD_MIN_REPS || (g != SIZE_MAX && group[j] != g))
			continue;
		boots++;
		for (size_t i = starts[j]; i < starts[j + 1]; i++) {
			double d = fabs(logs[i] - med[j]);

			/* The median rep of an odd boot is at distance 0 whatever the noise. */
			if (zero_left && d == 0) {
				zero_left = false;
				continue;
			}
			dev[nd++] = d;
		}
	}
	/*
	 * A group of one boot: its few reps hold the wild one, which would
	 * inflate their median distance; the largest distance is left out.
	 */
	if (g != SIZE_MAX && boots == 1 && nd >= 3) {
		size_t max = 0;

		for (size_t i = 1; i < nd; i++)
			max = dev[i] > dev[max] ? i : max;
		dev[max] = dev[--nd];
	}
	return nd ? 1.4826 * stats_median(dev, nd) : NAN;
}

size_t stats_wild_reps(const double *logs, const size_t *starts, size_t n_boots, const size_t *group, double k,
		       double min_log, bool *ret_wild)
{
	size_t total = n_boots ? starts[n_boots] - starts[0] : 0, wild = 0;
	double *dev, *med, all;

	if (total == 0)
		return 0;
	memset(ret_wild + starts[0], 0, total * sizeof(*ret_wild));
	dev = xcalloc(total, sizeof(*dev));
	med = xcalloc(n_boots, sizeof(*med));
	for (size_t j = 0; j < n_boots; j++)
		if (starts[j + 1] - starts[j] >= STATS_WILD_MIN_REPS)
			med[j] = stats_median(logs + starts[j], starts[j + 1] - starts[j]);
	all = wild_scale(logs, starts, n_boots, group, SIZE_MAX, med, dev);
	for (size_t j = 0; j < n_boots && !isnan(all); j++) {
		size_t n = starts[j + 1] - starts[j], here = 0;
		double scale = all;

		if (n < STATS_WILD_MIN_REPS)
			continue;
		/* A group noisier than the rest is judged by its own scale. */
		if (group)
			scale = fmax(all, wild_scale(logs, starts, n_boots, group, group[j], med, dev));
		for (size_t i = starts[j]; i < starts[j + 1]; i++) {
			ret_wild[i] = fabs(logs[i] - med[j]) > fmax(k * scale, min_log);
			here += ret_wild[i];
		}
		if (here > (n - 1) / 2) {
			memset(ret_wild + starts[j], 0, n * sizeof(*ret_wild));
			here = 0;
		}
		wild += here;
	}
	free(dev);
	free(med);
	return wild;
}

int stats_welch_test(double mean_a, double var_a, size_t n_a, double mean_b, double var_b,
		     size_t n_b, double alpha, struct stats_test *ret)
{
	double va, vb, df;

	if (n_a < 2 || n_b < 2 || !(var_a >= 0) || !(var_b >= 0))
		return -EINVAL;
	va = var_a / (double)n_a;
	vb = var_b / (double)n_b;
	if (!(va + vb > 0))
		return -EINVAL;
	df = (va + vb) * (va + vb) /
	     (va * va / (double)(n_a - 1) + vb * vb / (double)(n_b - 1));
	return stats_t_test(mean_b - mean_a, sqrt(va + vb), df, alpha, ret);
}

struct index_p {
	size_t i;
	double p;
};

static int cmp_index_p(const void *a, const void *b)
{
	const struct index_p *x = a, *y = b;

	if (x->p != y->p)
		return x->p < y->p ? -1 : 1;
	return (x->i > y->i) - (x->i < y->i);
}

void stats_bh_adjust(const double *p, size_t n, double *ret_q)
{
	struct index_p *v = xmalloc((n ? n : 1) * sizeof(*v));
	double running = 1;
	size_t m = 0;

	for (size_t i = 0; i < n; i++)
		if (!isnan(p[i]))
			v[m++] = (struct index_p){ i, p[i] };
	qsort(v, m, sizeof(*v), cmp_index_p);
	for (size_t i = 0; i < n; i++)
		if (isnan(p[i]))
			ret_q[i] = NAN;
	/* From the largest p down: q_(k) = min over j >= k of m p_(j) / j. */
	for (size_t k = m; k-- > 0;) {
		double q = v[k].p * (double)m / (double)(k + 1);

		running = fmin(running, q);
		ret_q[v[k].i] = running;
	}
	free(v);
}

struct nct_params {
	double t, df, ncp;
};

/*
 * T = (Z + ncp) / S with S = sqrt(V / df), V chi-square with df degrees
 * of freedom: P(T > t) = E[P(Z > t S - ncp)]. Integrating over S keeps the
 * integrand bounded at 0 even for df = 1.
 */
static double nct_integrand(double s, void *arg)
{
	const struct nct_params *np = arg;
	double v = np->df * s * s;
	double density = gsl_ran_chisq_pdf(v, np->df) * 2 * np->df * s;

	return density * gsl_cdf_ugaussian_Q(np->t * s - np->ncp);
}

double stats_nct_upper(double t, double df, double ncp)
{
	struct nct_params np = { t, df, ncp };
	gsl_function f = { nct_integrand, &np };
	gsl_integration_workspace *w;
	double result, abserr;
	int r;

	if (isnan(t) || isnan(ncp) || !(df > 0))
		return NAN;
	if (isinf(df))
		return gsl_cdf_ugaussian_Q(t - ncp);
	/* Integration problems are reported by the return value, not by aborting. */
	gsl_set_error_handler_off();
	w = gsl_integration_workspace_alloc(200);
	if (df <= 50) {
		r = gsl_integration_qagiu(&f, 0, 1e-10, 1e-8, 200, w, &result, &abserr);
	} else {
		/* S has sd about 1/sqrt(2 df): outside 1 -/+ 15 sd its density is nil. */
		double half = 15 / sqrt(2 * df);

		r = gsl_integration_qag(&f, fmax(0, 1 - half), 1 + half, 1e-10, 1e-8, 200,
					GSL_INTEG_GAUSS41, w, &result, &abserr);
	}
	gsl_integration_workspace_free(w);
	if (r != GSL_SUCCESS && abserr > 1e-6)
		return NAN;
	return fmin(1, fmax(0, result));
}

double stats_t_power(double ncp, double df, double alpha)
{
	double c;

	if (!(df > 0) || !(alpha > 0 && alpha < 1) || isnan(ncp))
		return NAN;
	c = stats_t_quantile(1 - alpha / 2, df);
	return stats_nct_upper(c, df, ncp) + stats_nct_upper(c, df, -ncp);
}

static double boots_power(unsigned n, double effect, double boot_var, size_t n_modes, double alpha)
{
	double se = sqrt(boot_var * 2 / n);

	return stats_t_power(fabs(effect) / se, (double)n_modes * (n - 1), alpha);
}

unsigned stats_boots_needed(double effect_log, double boot_var, size_t n_modes, double alpha,
			    double power, unsigned max)
{
	unsigned lo, hi;
	double z, guess;

	if (!(fabs(effect_log) > 0) || !isfinite(effect_log) || !(boot_var >= 0) || n_modes < 2 ||
	    !(power > 0 && power < 1) || !(alpha > 0 && alpha < 1) || max < 2)
		return 0;
	if (boot_var == 0)
		return 2;
	/* The normal approximation is a lower bound; the exact power decides. */
	z = gsl_cdf_ugaussian_Pinv(1 - alpha / 2) + gsl_cdf_ugaussian_Pinv(power);
	guess = 2 * boot_var * z * z / (effect_log * effect_log);
	if (guess > max)
		return boots_power(max, effect_log, boot_var, n_modes, alpha) >= power ? max : 0;
	lo = guess > 2 ? (unsigned)guess : 2;
	if (boots_power(lo, effect_log, boot_var, n_modes, alpha) >= power)
		return lo;
	/* Power grows with n: find the first n that reaches it. */
	hi = lo;
	do {
		lo = hi;
		hi = hi * 2 > max ? max : hi * 2;
		if (boots_power(hi, effect_log, boot_var, n_modes, alpha) >= power)
			break;
		if (hi == max)
			return 0;
	} while (1);
	while (hi - lo > 1) {
		unsigned mid = lo + (hi - lo) / 2;

		if (boots_power(mid, effect_log, boot_var, n_modes, alpha) >= power)
			hi = mid;
		else
			lo = mid;
	}
	return hi;
}

/*
 * TOST power: both one-sided tests reject. P(A and B) >= P(A) + P(B) - 1,
 * which is tight once the power is of any use (the two fail in opposite tails).
 */
static double tost_power(unsigned n, double effect, double lo, double hi, double boot_var, size_t n_modes,
			 double alpha)
{
	double se = sqrt(boot_var * 2 / n), df = (double)n_modes * (n - 1);
	double c = stats_t_quantile(1 - alpha, df);

	return fmax(0, stats_nct_upper(c, df, (effect - lo) / se) + stats_nct_upper(c, df, (hi - effect) / se) - 1);
}

unsigned stats_tost_boots_needed(double effect_log, double lo_log, double hi_log, double boot_var,
				 size_t n_modes, double alpha, double power, unsigned max)
{
	unsigned lo = 2, hi;

	if (!isfinite(effect_log) || !(lo_log < effect_log && effect_log < hi_log) || !(boot_var >= 0) ||
	    n_modes < 2 || !(power > 0 && power < 1) || !(alpha > 0 && alpha < 0.5) || max < 2)
		return 0;
	if (boot_var == 0)
		return 2;
	if (tost_power(lo, effect_log, lo_log, hi_log, boot_var, n_modes, alpha) >= power)
		return lo;
	/* Power grows with n: double until it is reached, then bisect. */
	hi = lo;
	do {
		lo = hi;
		hi = hi * 2 > max ? max : hi * 2;
		if (tost_power(hi, effect_log, lo_log, hi_log, boot_var, n_modes, alpha) >= power)
			break;
		if (hi == max)
			return 0;
	} while (1);
	while (hi - lo > 1) {
		unsigned mid = lo + (hi - lo) / 2;

		if (tost_power(mid, effect_log, lo_log, hi_log, boot_var, n_modes, alpha) >= power)
			hi = mid;
		else
			lo = mid;
	}
	return hi;
}

double stats_best_reps(double c_boot, double c_rep, double sigma_w2, double sigma_b2, double max)
{
	double r;

	if (!(c_boot >= 0) || !(c_rep > 0) || !(sigma_w2 >= 0) || !(sigma_b2 >= 0) || !(max >= 1))
		return NAN;
	if (sigma_b2 == 0)
		return max;
	r = round(sqrt(c_boot / c_rep * sigma_w2 / sigma_b2));
	return fmin(max, fmax(1, r));
}

double stats_design_seconds(unsigned boots, size_t n_modes, unsigned reps, double c_boot, double c_rep)
{
	return ((double)boots * (double)n_modes + 1) * (c_boot + reps * c_rep);
}

int stats_cheapest_design(double effect_log, double sigma_b2, double sigma_w2, size_t n_modes, double c_boot,
			  double c_rep, unsigned max_reps, unsigned max_boots, struct stats_design *ret)
{
	struct stats_design best = { 0, 0, INFINITY };

	if (!isfinite(effect_log) || effect_log == 0 || !(sigma_b2 >= 0) || !(sigma_w2 >= 0) ||
	    sigma_b2 + sigma_w2 <= 0 || n_modes < 2 || !(c_boot >= 0) || !(c_rep >= 0) || !isfinite(c_boot) ||
	    !isfinite(c_rep) || max_reps < 1)
		return -EINVAL;
	for (unsigned r = 1; r <= max_reps; r++) {
		unsigned n = stats_boots_needed(effect_log, sigma_b2 + sigma_w2 / r, n_modes, 0.05, 0.80, max_boots);
		double t = n ? stats_design_seconds(n, n_modes, r, c_boot, c_rep) : INFINITY;

		if (t < best.seconds)
			best = (struct stats_design){ n, r, t };
	}
	if (!best.boots)
		return -ERANGE;
	*ret = best;
	return 0;
}

/* need[r - 1]: the boots per mode row's needs take at reps r, the most of them (UINT_MAX: beyond max_boots). */
static void row_needs(const struct stats_need *needs, size_t n_needs, size_t row, size_t n_modes, unsigned max_reps,
		      unsigned max_boots, unsigned *need)
{
	for (unsigned r = 1; r <= max_reps; r++) {
		need[r - 1] = 0;
		for (size_t k = 0; k < n_needs; k++) {
			unsigned n;

			if (needs[k].row != row)
				continue;
			n = stats_boots_needed(needs[k].effect_log, needs[k].sigma_b2 + needs[k].sigma_w2 / r, n_modes,
					       0.05, 0.80, max_boots);
			need[r - 1] = !n ? UINT_MAX : n > need[r - 1] ? n : need[r - 1];
		}
	}
}

static bool need_usable(const struct stats_need *n, size_t n_rows, const double *c_idle, const double *c_rep)
{
	return n->row < n_rows && isfinite(n->effect_log) && n->effect_log != 0 && n->sigma_b2 >= 0 &&
	       n->sigma_w2 >= 0 && n->sigma_b2 + n->sigma_w2 > 0 && c_idle[n->row] >= 0 &&
	       isfinite(c_idle[n->row]) && c_rep[n->row] >= 0 && isfinite(c_rep[n->row]);
}

/* At b boots per mode, each needed row's fewest reps that reach b; the box time, or INFINITY when one cannot. */
static double campaign_at(unsigned b, const unsigned *need, const bool *used, size_t n_rows, unsigned max_reps,
			  const double *c_idle, const double *c_rep, double c_reboot, size_t n_modes, unsigned *reps)
{
	double per_boot = c_reboot;

	for (size_t i = 0; i < n_rows; i++) {
		reps[i] = 0;
		if (!used[i])
			continue;
		for (unsigned r = 1; r <= max_reps && !reps[i]; r++)
			if (need[i * max_reps + r - 1] <= b)
				reps[i] = r;
		if (!reps[i])
			return INFINITY;
		per_boot += c_idle[i] + reps[i] * c_rep[i];
	}
	return ((double)b * (double)n_modes + 1) * per_boot;
}

int stats_campaign_design(const struct stats_need *needs, size_t n_needs, const double *c_idle,
			  const double *c_rep, size_t n_rows, double c_reboot, size_t n_modes, unsigned max_reps,
			  unsigned max_boots, unsigned *ret_boots, unsigned *ret_reps, double *ret_seconds)
{
	unsigned *need, *reps, best_b = 0;
	double best = INFINITY;
	bool *used;

	if (!n_needs || n_modes < 2 || max_reps < 1 || !(c_reboot >= 0) || !isfinite(c_reboot))
		return -EINVAL;
	for (size_t k = 0; k < n_needs; k++)
		if (!need_usable(&needs[k], n_rows, c_idle, c_rep))
			return -EINVAL;
	need = xcalloc(n_rows * max_reps, sizeof(*need));
	reps = xcalloc(n_rows, sizeof(*reps));
	used = xcalloc(n_rows, sizeof(*used));
	for (size_t k = 0; k < n_needs; k++)
		used[needs[k].row] = true;
	for (size_t i = 0; i < n_rows; i++)
		if (used[i])
			row_needs(needs, n_needs, i, n_modes, max_reps, max_boots, need + i * max_reps);
	/* The box time changes only where a row's reps can step down: at the boots some row needs. */
	for (size_t j = 0; j < n_rows * max_reps; j++) {
		double t;

		if (need[j] == UINT_MAX || !used[j / max_reps])
			continue;
		t = campaign_at(need[j], need, used, n_rows, max_reps, c_idle, c_rep, c_reboot, n_modes, reps);
		if (t < best || (t == best && need[j] < best_b)) {
			best = t;
			best_b = need[j];
		}
	}
	if (best_b) {
		campaign_at(best_b, need, used, n_rows, max_reps, c_idle, c_rep, c_reboot, n_modes, ret_reps);
		*ret_boots = best_b;
		*ret_seconds = best;
	}
	free(need);
	free(reps);
	free(used);
	return best_b ? 0 : -ERANGE;
}

double stats_spend(enum stats_spending s, double alpha, double t)
{
	if (t <= 0)
		return 0;
	if (t >= 1)
		return alpha;
	if (s == SPENDING_POCOCK)
		return alpha * log1p((M_E - 1) * t);
	return 2 * gsl_cdf_ugaussian_Q(gsl_cdf_ugaussian_Qinv(alpha / 2) / sqrt(t));
}

double stats_gs_nominal(double z)
{
	return 2 * gsl_cdf_ugaussian_Q(z);
}

/* Beyond this |z| the normal density is below 1e-15: the integrals stop there. */
#define GS_Z_MAX 8.5
/* Grid step on the z scale (Simpson's rule). */
#define GS_STEP 0.02

/* The sub-density of Z_j on the look's continuation region, on a grid. */
struct gs_density {
	double *z, *w;          /* points and Simpson weights x density */
	size_t n;
};

static void gs_grid(double c, size_t *ret_n, double *ret_h)
{
	double lim = fmin(c, GS_Z_MAX);
	size_t n = (size_t)ceil(2 * lim / GS_STEP);

	if (n < 2)
		n = 2;
	n += n % 2;
	*ret_n = n + 1;
	*ret_h = 2 * lim / (double)n;
}

static double simpson(size_t i, size_t n, double h)
{
	return h / 3 * (i == 0 || i == n - 1 ? 1 : i % 2 ? 4 : 2);
}

/* Look 1: Z_1 ~ N(theta sqrt(I_1), 1) on (-c, c). */
static void gs_first(struct gs_density *d, double c, double mean)
{
	double h;

	gs_grid(c, &d->n, &h);
	d->z = xcalloc(d->n, sizeof(*d->z));
	d->w = xcalloc(d->n, sizeof(*d->w));
	for (size_t i = 0; i < d->n; i++) {
		d->z[i] = -fmin(c, GS_Z_MAX) + (double)i * h;
		d->w[i] = simpson(i, d->n, h) * gsl_ran_ugaussian_pdf(d->z[i] - mean);
	}
}

/*
 * P(first claim at look j with boundary c | the density d at look j - 1):
 * the score S = Z sqrt(I) gains N(theta delta, delta), delta = I_j - I_{j-1}.
 */
static double gs_cross(const struct gs_density *d, double i0, double i1, double theta, double c)
{
	double sd = sqrt(i1 - i0), p = 0;

	for (size_t i = 0; i < d->n; i++) {
		double m = d->z[i] * sqrt(i0) + theta * (i1 - i0);

		p += d->w[i] * (gsl_cdf_ugaussian_P((-c * sqrt(i1) - m) / sd) +
				gsl_cdf_ugaussian_Q((c * sqrt(i1) - m) / sd));
	}
	return p;
}

/* The density at look j on (-c, c) from the one at look j - 1. */
static void gs_next(const struct gs_density *d, double i0, double i1, double theta, double c,
		    struct gs_density *ret)
{
	double sd = sqrt(i1 - i0), h;

	gs_grid(c, &ret->n, &h);
	ret->z = xcalloc(ret->n, sizeof(*ret->z));
	ret->w = xcalloc(ret->n, sizeof(*ret->w));
	for (size_t k = 0; k < ret->n; k++) {
		double f = 0;

		ret->z[k] = -fmin(c, GS_Z_MAX) + (double)k * h;
		for (size_t i = 0; i < d->n; i++) {
			double m = d->z[i] * sqrt(i0) + theta * (i1 - i0);

			f += d->w[i] * gsl_ran_ugaussian_pdf((ret->z[k] * sqrt(i1) - m) / sd);
		}
		ret->w[k] = simpson(k, ret->n, h) * f * sqrt(i1) / sd;
	}
}

static void gs_free(struct gs_density *d)
{
	free(d->z);
	free(d->w);
	d->z = d->w = NULL;
	d->n = 0;
}

static bool gs_info_ok(const double *info, size_t k)
{
	if (k == 0)
		return false;
	for (size_t j = 0; j < k; j++)
		if (!(info[j] > 0 && isfinite(info[j])) || (j > 0 && !(info[j] > info[j - 1])))
			return false;
	return true;
}

int stats_gs_bounds(const double *info, size_t k, double alpha, enum stats_spending s, double *ret_z)
{
	struct gs_density d = { 0 }, next;
	double spent = 0;

	if (!gs_info_ok(info, k) || !(alpha > 0 && alpha < 1))
		return -EINVAL;
	for (size_t j = 0; j < k; j++) {
		double target = stats_spend(s, alpha, info[j] / info[k - 1]), inc = target - spent, c;

		if (j == 0) {
			c = inc > 1e-15 ? gsl_cdf_ugaussian_Qinv(inc / 2) : STATS_GS_NEVER;
			c = fmin(c, STATS_GS_NEVER);
			gs_first(&d, c, 0);
		} else {
			double lo = 0, hi = STATS_GS_NEVER;

			if (inc <= 1e-15) {
				c = STATS_GS_NEVER;
			} else {
				/* The crossing chance falls as the boundary rises. */
				for (int it = 0; it < 60; it++) {
					double mid = (lo + hi) / 2;

					if (gs_cross(&d, info[j - 1], info[j], 0, mid) > inc)
						lo = mid;
					else
						hi = mid;
				}
				c = (lo + hi) / 2;
			}
			if (j + 1 < k) {
				gs_next(&d, info[j - 1], info[j], 0, c, &next);
				gs_free(&d);
				d = next;
			}
		}
		ret_z[j] = c;
		spent = target;
	}
	gs_free(&d);
	return 0;
}

int stats_gs_crossing(const double *info, size_t k, const double *z, double theta, double *ret_p)
{
	struct gs_density d = { 0 }, next;

	if (!gs_info_ok(info, k))
		return -EINVAL;
	for (size_t j = 0; j < k; j++) {
		if (j == 0) {
			double m = theta * sqrt(info[0]);

			ret_p[0] = gsl_cdf_ugaussian_P(-z[0] - m) + gsl_cdf_ugaussian_Q(z[0] - m);
			gs_first(&d, z[0], m);
			continue;
		}
		ret_p[j] = gs_cross(&d, info[j - 1], info[j], theta, z[j]);
		if (j + 1 < k) {
			gs_next(&d, info[j - 1], info[j], theta, z[j], &next);
			gs_free(&d);
			d = next;
		}
	}
	gs_free(&d);
	return 0;
}
