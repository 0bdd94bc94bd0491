#ifndef BOOTAB_DESIGN_H
#define BOOTAB_DESIGN_H

#include <stdbool.h>
#include <stddef.h>

#include "lib/strlist.h"

/*
 * Two-level designs over k factors (a factor: a set of kernel args, on or
 * off), for a screening campaign: which of k parameters matter. Pure
 * functions; docs/plan.md "Which of these parameters matter?" is the user's
 * side, docs/statistics.md the analysis.
 *
 * - full: the 2^k full factorial (k <= DESIGN_FULL_MAX).
 * - a regular fractional factorial 2^(k-p) of resolution IV or V, from the
 *   minimum-aberration generators tabled in Box, Hunter & Hunter,
 *   "Statistics for Experimenters" (2nd ed., table 6.22) and the NIST/
 *   SEMATECH e-Handbook of Statistical Methods, section 5.3.3.4.7
 *   (k = 4 ... 11). Each generator's sign is chosen so that the run with
 *   every base factor off has every factor off (an equally good fraction of
 *   the same family): the standing config is always a run of the design.
 * - Plackett-Burman (Plackett and Burman, Biometrika 33, 1946): the cyclic
 *   generating rows for N = 20 and 24 runs (k = 12 ... 23), resolution III.
 *
 * Run 0 of every design has every factor off.
 *
 * The fold-over of a design (Box, Hunter & Hunter, 2nd ed., chapter 6,
 * "foldover"; Montgomery, "Design and Analysis of Experiments", 8th ed.,
 * section 8.6, "fold over of resolution III fractions"): the same
 * runs with every factor's sign reversed. The design with its fold-over
 * has every main effect orthogonal to every two-factor interaction: a
 * resolution III design becomes resolution IV (for a regular fraction the
 * words of odd length leave the defining relation). For a full factorial,
 * or a fraction whose defining words all have even length, the fold-over
 * is the design's own runs: there a second round is the design again.
 */

#define DESIGN_MAX_FACTORS 23
#define DESIGN_FULL_MAX 6           /* design = full: at most 2^6 = 64 runs */
#define DESIGN_SCREEN_FULL_MAX 3    /* design = screen: full factorial up to 3 factors */

enum design_kind {
	DESIGN_FULL,
	DESIGN_FRACTION,
	DESIGN_PLACKETT_BURMAN,
};

/* A word of the defining relation: the factors in mask (bit i: factor i), its sign (+1 or -1). */
struct design_word {
	unsigned mask;
	int sign;
};

struct design {
	enum design_kind kind;
	size_t k;
	size_t n_runs;
	signed char *levels;            /* n_runs rows of k: +1 on, -1 off; row 0 all off */
	unsigned resolution;            /* 0: full factorial (nothing aliased); else III, IV, V ... as 3, 4, 5 */
	/*
	 * folded: rows base_runs + r are the fold-over of rows r < base_runs
	 * (n_runs = 2 base_runs) and resolution is the combined design's;
	 * base_resolution the design's alone. Not folded: base_runs = n_runs.
	 */
	bool folded;
	size_t base_runs;
	unsigned base_resolution;
	struct design_word *generators; /* fraction: p words, each holding its generated factor */
	size_t n_generators;
	struct design_word *relation;   /* fraction: the 2^p - 1 words of the defining relation */
	size_t n_relation;
};

/*
 * Builds the design for k factors: full (every combination) or, for a
 * screen, the smallest of full (k <= DESIGN_SCREEN_FULL_MAX), fraction of
 * resolution IV or more (k <= 11) and Plackett-Burman (k <= 23). Returns 0
 * and *ret (design_release()), -EINVAL for k = 0, or above
 * DESIGN_FULL_MAX with full or DESIGN_MAX_FACTORS with screen; *ret
 * untouched then.
 */
int design_build(size_t k, bool full, struct design *ret);
void design_release(struct design *d);

/* "full factorial 2^3", "fractional factorial 2^(6-2), resolution IV", "Plackett-Burman, 20 runs" (the caller's). */
char *design_describe(const struct design *d);

/* A resolution as struct design holds it, in roman numerals ("III", "IV", ...), or "full" (static). */
const char *design_resolution_name(unsigned resolution);

/*
 * What is aliased with what, one line per entry (added to *ret, names[i]
 * naming factor i): the generators ("F = +A*B*C"), each main effect clear
 * of two-factor interactions or the interactions it is aliased with, and
 * the chains of two-factor interactions that are aliased with each other.
 */
void design_aliases(const struct design *d, const char *const *names, struct strlist *ret);

/*
 * Whether factor i's main effect is aliased with a two-factor interaction
 * (resolution III): never once folded. design_main_aliased_unfolded():
 * the same over the first base_runs runs alone (before the fold-over).
 */
bool design_main_aliased(const struct design *d, size_t i);
bool design_main_aliased_unfolded(const struct design *d, size_t i);

/*
 * Whether rounds > 1 of d should alternate it with its fold-over: a
 * fraction of resolution III or IV, or a Plackett-Burman design, whose
 * fold-over is new runs. (A full factorial's fold-over is its own runs, so
 * is that of a fraction whose defining words all have even length: rounds
 * repeat those; a resolution V fraction already estimates main effects and
 * two-factor interactions clear of each other.)
 */
bool design_foldable(const struct design *d);

/*
 * Appends d's fold-over to it: n_runs doubles, folded is set, resolution
 * becomes the combined design's. Returns 0, or -EINVAL when
 * !design_foldable(d) (d untouched then).
 */
int design_fold(struct design *d);

/*
 * A factor's main effect: on minus off in the response (for bootab the log
 * of a boot mean), from an ordinary least-squares fit of the intercept and
 * every main effect to the observations; its standard error and CI from the
 * fit's residual (df: observations - 1 - k, which holds the repeated boots
 * and the interactions the design leaves out).
 */
struct design_effect {
	double effect;
	double se;
	double low, high;          /* the 1 - alpha CI; NaN without residual df */
	double p;                  /* two-sided; NaN without residual df */
};

/*
 * Fits y (n observations) on levels (n rows of k, +1 / -1). Returns 0 and
 * ret[0..k-1], *ret_df (the residual df, 0: no CI); -EDOM when the columns
 * do not determine every effect (a factor constant, or fewer observations
 * than k + 1); -EINVAL for bad arguments.
 */
int design_effects(const signed char *levels, size_t k, const double *y, size_t n, double alpha,
		   struct design_effect *ret, size_t *ret_df);

/*
 * design_effects() with the two-factor interactions of pairs (n_pairs
 * pairs of factor indexes, pairs[2i] and pairs[2i + 1]) in the model
 * beside the main effects: ret[0..k-1] the main effects, ret[k + i] pair
 * i's interaction (its product at +1 minus at -1), each CI from the
 * residual of this fit (df: n - 1 - k - n_pairs). Returns as
 * design_effects() does; -EINVAL for a factor index >= k.
 */
int design_fit(const signed char *levels, size_t k, const unsigned *pairs, size_t n_pairs, const double *y,
	       size_t n, double alpha, struct design_effect *ret, size_t *ret_df);

/*
 * Whether d estimates every two-factor interaction clear of the main
 * effects and of each other: a full factorial or resolution V and more.
 */
bool design_interactions_clear(const struct design *d);

/*
 * The boots one mode per factor takes (the standing config and each factor
 * alone, the standing config closing) for the same standard error of every
 * main effect as rounds of d (rounds * base_runs + 1 boots; a fold-over round has base_runs).
 */
size_t design_one_factor_boots(const struct design *d, unsigned rounds);

#endif
