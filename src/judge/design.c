#include "judge/design.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lib/alloc.h"
#include "lib/strbuf.h"
#include "stats/stats.h"

/*
 * Generators of the regular fractions, factors numbered from 1 as the
 * tables print them: "4=123" makes factor 4 the product of factors 1, 2
 * and 3. Box, Hunter & Hunter (2nd ed.) table 6.22 and NIST/SEMATECH
 * e-Handbook 5.3.3.4.7 (the resolution IV or V design with fewest runs).
 */
static const char *const fraction_generators[][7] = {
	[4] = { "4=123" },
	[5] = { "5=1234" },
	[6] = { "5=123", "6=234" },
	[7] = { "5=123", "6=234", "7=134" },
	[8] = { "5=234", "6=134", "7=123", "8=124" },
	[9] = { "6=2345", "7=1345", "8=1245", "9=1235" },
	[10] = { "6=1234", "7=1235", "8=1245", "9=1345", "10=2345" },
	[11] = { "6=123", "7=234", "8=345", "9=134", "10=145", "11=245" },
};

/* Plackett and Burman (1946): the first row of each cyclic design; the last run has every factor low. */
static const char pb20[] = "++--++++-+-+----++-";
static const char pb24[] = "+++++-+-++--++--+-+----";

static unsigned popcount(unsigned m)
{
	unsigned n = 0;

	for (; m; m &= m - 1)
		n++;
	return n;
}

static void build_full(struct design *d, size_t k)
{
	d->kind = DESIGN_FULL;
	d->n_runs = (size_t)1 << k;
	d->levels = xcalloc(d->n_runs * k, 1);
	/* Standard (Yates) order: factor i alternates every 2^i runs; run 0 all low. */
	for (size_t r = 0; r < d->n_runs; r++)
		for (size_t i = 0; i < k; i++)
			d->levels[r * k + i] = (r >> i) & 1 ? 1 : -1;
}

/* "6=2345": the generated factor's index and the mask of the base factors (0-based). */
static void generator_parse(const char *g, size_t *ret_factor, unsigned *ret_base)
{
	char *end;
	unsigned base = 0;
	size_t f = strtoul(g, &end, 10) - 1;

	/* Base factors are 1 ... 5 in every table above: one digit each. */
	for (const char *c = end + 1; *c; c++)
		base |= 1u << (*c - '1');
	*ret_factor = f;
	*ret_base = base;
}

static void build_fraction(struct design *d, size_t k)
{
	const char *const *gens = fraction_generators[k];
	size_t p = 0, base_k;

	while (p < 7 && gens[p])
		p++;
	base_k = k - p;
	d->kind = DESIGN_FRACTION;
	d->n_runs = (size_t)1 << base_k;
	d->levels = xcalloc(d->n_runs * k, 1);
	d->generators = xcalloc(p, sizeof(*d->generators));
	d->n_generators = p;
	for (size_t r = 0; r < d->n_runs; r++)
		for (size_t i = 0; i < base_k; i++)
			d->levels[r * k + i] = (r >> i) & 1 ? 1 : -1;
	for (size_t g = 0; g < p; g++) {
		size_t f;
		unsigned base;
		/* With every base factor low the product is (-1)^|base|: the sign makes the generated factor low too. */
		int sign;

		generator_parse(gens[g], &f, &base);
		sign = popcount(base) % 2 ? 1 : -1;
		d->generators[g] = (struct design_word){ base | 1u << f, sign };
		for (size_t r = 0; r < d->n_runs; r++) {
			int v = sign;

			for (size_t i = 0; i < base_k; i++)
				if (base >> i & 1)
					v *= d->levels[r * k + i];
			d->levels[r * k + f] = (signed char)v;
		}
	}
	/* The defining relation: every product of generator words. */
	d->n_relation = ((size_t)1 << p) - 1;
	d->relation = xcalloc(d->n_relation, sizeof(*d->relation));
	d->resolution = 99;
	for (size_t s = 1; s <= d->n_relation; s++) {
		struct design_word w = { 0, 1 };

		for (size_t g = 0; g < p; g++)
			if (s >> g & 1) {
				w.mask ^= d->generators[g].mask;
				w.sign *= d->generators[g].sign;
			}
		d->relation[s - 1] = w;
		if (popcount(w.mask) < d->resolution)
			d->resolution = popcount(w.mask);
	}
}

static void build_plackett_burman(struct design *d, size_t k)
{
	const char *row = k < 20 ? pb20 : pb24;
	size_t n = strlen(row) + 1;

	d->kind = DESIGN_PLACKETT_BURMAN;
	d->n_runs = n;
	d->resolution = 3;
	d->levels = xcalloc(n * k, 1);
	/* Run 0: every factor low; runs 1 ... N-1: the generating row shifted cyclically. */
	for (size_t i = 0; i < k; i++)
		d->levels[i] = -1;
	for (size_t r = 1; r < n; r++)
		for (size_t i = 0; i < k; i++)
			d->levels[r * k + i] = row[(i + n - 1 - (r - 1)) % (n - 1)] == '+' ? 1 : -1;
}

int design_build(size_t k, bool full, struct design *ret)
{
	struct design d = { 0 };

	if (k == 0 || (full && k > DESIGN_FULL_MAX) || k > DESIGN_MAX_FACTORS)
		return -EINVAL;
	d.k = k;
	if (full || k <= DESIGN_SCREEN_FULL_MAX)
		build_full(&d, k);
	else if (k < sizeof(fraction_generators) / sizeof(fraction_generators[0]))
		build_fraction(&d, k);
	else
		build_plackett_burman(&d, k);
	d.base_runs = d.n_runs;
	d.base_resolution = d.resolution;
	*ret = d;
	return 0;
}

void design_release(struct design *d)
{
	if (!d)
		return;
	free(d->levels);
	free(d->generators);
	free(d->relation);
	memset(d, 0, sizeof(*d));
}

const char *design_resolution_name(unsigned resolution)
{
	static const char *const roman[] = { "full", "I", "II", "III", "IV", "V", "VI", "VII", "VIII" };

	return resolution < 9 ? roman[resolution] : "IX or more";
}

/* Whether the defining relation has a word of odd length: then the fold-over is the other half of the family. */
static bool relation_has_odd_word(const struct design *d)
{
	for (size_t w = 0; w < d->n_relation; w++)
		if (popcount(d->relation[w].mask) % 2)
			return true;
	return false;
}

bool design_foldable(const struct design *d)
{
	if (d->folded || (d->resolution != 3 && d->resolution != 4))
		return false;
	return d->kind == DESIGN_PLACKETT_BURMAN || (d->kind == DESIGN_FRACTION && relation_has_odd_word(d));
}

int design_fold(struct design *d)
{
	size_t n = d->n_runs, k = d->k;
	unsigned resolution = 0;

	if (!design_foldable(d))
		return -EINVAL;
	d->levels = xrealloc(d->levels, 2 * n * k);
	for (size_t i = 0; i < n * k; i++)
		d->levels[n * k + i] = (signed char)-d->levels[i];
	d->n_runs = 2 * n;
	d->base_runs = n;
	d->folded = true;
	/*
	 * A word of odd length changes sign on the fold-over: the combined
	 * design keeps the even words alone. A Plackett-Burman design's main
	 * effects leave the two-factor interactions, which stay partly
	 * aliased with each other: resolution IV.
	 */
	if (d->kind == DESIGN_PLACKETT_BURMAN)
		resolution = 4;
	for (size_t w = 0; w < d->n_relation; w++) {
		unsigned len = popcount(d->relation[w].mask);

		if (len % 2 == 0 && (!resolution || len < resolution))
			resolution = len;
	}
	d->resolution = resolution;
	return 0;
}

char *design_describe(const struct design *d)
{
	switch (d->kind) {
	case DESIGN_FULL:
		return xasprintf("full factorial 2^%zu, %zu runs", d->k, d->n_runs);
	case DESIGN_FRACTION:
		if (d->folded)
			return xasprintf("fractional factorial 2^(%zu-%zu), %zu runs, with its fold-over: %zu runs, resolution %s",
					 d->k, d->n_generators, d->base_runs, d->n_runs, design_resolution_name(d->resolution));
		return xasprintf("fractional factorial 2^(%zu-%zu), %zu runs, resolution %s", d->k, d->n_generators,
				 d->n_runs, design_resolution_name(d->resolution));
	case DESIGN_PLACKETT_BURMAN:
		break;
	}
	if (d->folded)
		return xasprintf("Plackett-Burman, %zu runs, with its fold-over: %zu runs, resolution %s", d->base_runs,
				 d->n_runs, design_resolution_name(d->resolution));
	return xasprintf("Plackett-Burman, %zu runs, resolution III", d->n_runs);
}

static void add_product(struct strbuf *sb, unsigned mask, const char *const *names)
{
	bool first = true;

	for (size_t i = 0; mask >> i; i++)
		if (mask >> i & 1) {
			strbuf_addf(sb, "%s%s", first ? "" : "*", names[i]);
			first = false;
		}
}

bool design_main_aliased(const struct design *d, size_t i)
{
	/* The fold-over makes every main effect column orthogonal to every two-factor interaction's. */
	return !d->folded && design_main_aliased_unfolded(d, i);
}

bool design_main_aliased_unfolded(const struct design *d, size_t i)
{
	if (d->kind == DESIGN_PLACKETT_BURMAN)
		return d->k > 2;
	for (size_t w = 0; w < d->n_relation; w++)
		if (popcount(d->relation[w].mask) == 3 && d->relation[w].mask >> i & 1)
			return true;
	return false;
}

/* The two-factor interactions aliased with pair (a mask of two factors), pair first. */
static size_t pair_chain(const struct design *d, unsigned pair, unsigned *chain, int *signs)
{
	size_t n = 0;

	chain[n] = pair;
	signs[n++] = 1;
	for (size_t w = 0; w < d->n_relation; w++) {
		unsigned m = pair ^ d->relation[w].mask;

		if (popcount(m) == 2) {
			chain[n] = m;
			signs[n++] = d->relation[w].sign;
		}
	}
	return n;
}

static void fraction_aliases(const struct design *d, const char *const *names, struct strlist *ret)
{
	struct strbuf sb = STRBUF_INIT;
	unsigned chain[64];
	int signs[64];
	bool any_main = false;

	for (size_t g = 0; g < d->n_generators; g++) {
		const struct design_word *w = &d->generators[g];
		unsigned f = 31 - (unsigned)__builtin_clz(w->mask);

		strbuf_truncate(&sb, 0);
		strbuf_addf(&sb, "generator: %s = %s", names[f], w->sign > 0 ? "" : "-");
		add_product(&sb, w->mask & ~(1u << f), names);
		strlist_add(ret, strbuf_str(&sb));
	}
	if (d->folded)
		strlist_add(ret, "fold-over: every factor reversed in a second set of runs, "
				 "the words of odd length leave the defining relation");
	for (size_t i = 0; i < d->k; i++) {
		if (!design_main_aliased(d, i))
			continue;
		any_main = true;
		strbuf_truncate(&sb, 0);
		strbuf_addf(&sb, "main effect %s aliased with", names[i]);
		for (size_t w = 0; w < d->n_relation; w++)
			if (popcount(d->relation[w].mask) == 3 && d->relation[w].mask >> i & 1) {
				strbuf_addstr(&sb, d->relation[w].sign > 0 ? " +" : " -");
				add_product(&sb, d->relation[w].mask & ~(1u << i), names);
			}
		strlist_add(ret, strbuf_str(&sb));
	}
	if (!any_main)
		strlist_add(ret, "every main effect clear of two-factor interactions (aliased with three-factor ones and higher)");
	/* Each chain once: printed from its first pair in index order. */
	for (size_t a = 0; a < d->k; a++)
		for (size_t b = a + 1; b < d->k; b++) {
			unsigned pair = 1u << a | 1u << b;
			size_t n = pair_chain(d, pair, chain, signs);
			bool first = true;

			for (size_t c = 1; c < n; c++)
				first &= chain[c] > pair;
			if (n < 2 || !first)
				continue;
			strbuf_truncate(&sb, 0);
			strbuf_addstr(&sb, "interactions aliased: ");
			for (size_t c = 0; c < n; c++) {
				strbuf_addstr(&sb, c ? (signs[c] > 0 ? " = " : " = -") : "");
				add_product(&sb, chain[c], names);
			}
			strlist_add(ret, strbuf_str(&sb));
		}
	strbuf_release(&sb);
}

void design_aliases(const struct design *d, const char *const *names, struct strlist *ret)
{
	switch (d->kind) {
	case DESIGN_FULL:
		strlist_add(ret, "nothing aliased: every main effect and interaction estimable");
		return;
	case DESIGN_FRACTION:
		fraction_aliases(d, names, ret);
		return;
	case DESIGN_PLACKETT_BURMAN:
		break;
	}
	if (d->folded) {
		strlist_add(ret, "fold-over: every factor reversed in a second set of runs: every main effect clear of "
				 "two-factor interactions, which stay partly aliased with each other");
		return;
	}
	strlist_add(ret, "every main effect partly aliased with the two-factor interactions of the other factors: "
			 "an effect found can be an interaction's");
}

/* Inverts the m x m symmetric matrix a in place (Gauss-Jordan, partial pivoting). -EDOM when singular. */
static int invert(double *a, size_t m)
{
	double *inv = xcalloc(m * m, sizeof(*inv)), scale = 0;
	int r = 0;

	for (size_t i = 0; i < m * m; i++)
		scale = fmax(scale, fabs(a[i]));
	for (size_t i = 0; i < m; i++)
		inv[i * m + i] = 1;
	for (size_t c = 0; c < m && !r; c++) {
		size_t piv = c;

		for (size_t i = c + 1; i < m; i++)
			if (fabs(a[i * m + c]) > fabs(a[piv * m + c]))
				piv = i;
		if (!(fabs(a[piv * m + c]) > 1e-9 * scale)) {
			r = -EDOM;
			break;
		}
		for (size_t j = 0; j < m; j++) {
			double t = a[c * m + j];

			a[c * m + j] = a[piv * m + j];
			a[piv * m + j] = t;
			t = inv[c * m + j];
			inv[c * m + j] = inv[piv * m + j];
			inv[piv * m + j] = t;
		}
		for (size_t i = 0; i < m; i++) {
			double f = a[i * m + c] / a[c * m + c];

			if (i == c)
				continue;
			for (size_t j = 0; j < m; j++) {
				a[i * m + j] -= f * a[c * m + j];
				inv[i * m + j] -= f * inv[c * m + j];
			}
		}
	}
	for (size_t i = 0; i < m && !r; i++) {
		double diag = a[i * m + i];

		for (size_t j = 0; j < m; j++)
			a[i * m + j] = inv[i * m + j] / diag;
	}
	free(inv);
	return r;
}

/* Column j of the model at observation obs: the intercept, the k main effects, then the pairs' products. */
static double column(const signed char *levels, size_t k, const unsigned *pairs, size_t obs, size_t j)
{
	const signed char *row = &levels[obs * k];

	if (j == 0)
		return 1;
	if (j <= k)
		return row[j - 1];
	return (double)(row[pairs[2 * (j - k - 1)]] * row[pairs[2 * (j - k - 1) + 1]]);
}

int design_fit(const signed char *levels, size_t k, const unsigned *pairs, size_t n_pairs, const double *y,
	       size_t n, double alpha, struct design_effect *ret, size_t *ret_df)
{
	size_t m = 1 + k + n_pairs, df;
	double *xtx, *xty, *beta, rss = 0, s2;
	int r;

	if (!levels || !y || !ret || !ret_df || k == 0 || !(alpha > 0 && alpha < 1) || (n_pairs && !pairs))
		return -EINVAL;
	for (size_t i = 0; i < 2 * n_pairs; i++)
		if (pairs[i] >= k)
			return -EINVAL;
	if (n < m)
		return -EDOM;
	xtx = xcalloc(m * m, sizeof(*xtx));
	xty = xcalloc(m, sizeof(*xty));
	beta = xcalloc(m, sizeof(*beta));
	for (size_t o = 0; o < n; o++)
		for (size_t i = 0; i < m; i++) {
			xty[i] += column(levels, k, pairs, o, i) * y[o];
			for (size_t j = 0; j < m; j++)
				xtx[i * m + j] += column(levels, k, pairs, o, i) * column(levels, k, pairs, o, j);
		}
	r = invert(xtx, m);
	if (r < 0)
		goto out;
	for (size_t i = 0; i < m; i++)
		for (size_t j = 0; j < m; j++)
			beta[i] += xtx[i * m + j] * xty[j];
	for (size_t o = 0; o < n; o++) {
		double fit = 0;

		for (size_t j = 0; j < m; j++)
			fit += beta[j] * column(levels, k, pairs, o, j);
		rss += (y[o] - fit) * (y[o] - fit);
	}
	df = n - m;
	s2 = df ? rss / (double)df : NAN;
	/* Levels are -1 / +1: on minus off (for a pair: its product +1 minus -1) is twice the coefficient. */
	for (size_t i = 0; i + 1 < m; i++) {
		struct design_effect *e = &ret[i];
		struct stats_test t;

		e->effect = 2 * beta[i + 1];
		e->se = 2 * sqrt(s2 * xtx[(i + 1) * m + i + 1]);
		e->low = e->high = e->p = NAN;
		if (df && stats_t_test(e->effect, e->se, (double)df, alpha, &t) == 0) {
			e->low = t.lo;
			e->high = t.hi;
			e->p = t.p;
		}
	}
	*ret_df = df;
out:
	free(xtx);
	free(xty);
	free(beta);
	return r;
}

int design_effects(const signed char *levels, size_t k, const double *y, size_t n, double alpha,
		   struct design_effect *ret, size_t *ret_df)
{
	return design_fit(levels, k, NULL, 0, y, n, alpha, ret, ret_df);
}

bool design_interactions_clear(const struct design *d)
{
	return d->resolution == 0 || d->resolution >= 5;
}

size_t design_one_factor_boots(const struct design *d, unsigned rounds)
{
	/*
	 * A design's main effect has variance 4 sigma^2 / (N R) (every run in
	 * one half or the other; N the runs of a round, a fold-over's too); one factor alone against the standing config
	 * with B boots each has 2 sigma^2 / B: B = N R / 2, rounded up.
	 */
	size_t b = (d->base_runs * rounds + 1) / 2;

	return (d->k + 1) * b + 1;
}
