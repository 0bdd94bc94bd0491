#ifndef BOOTAB_COMPARE_H
#define BOOTAB_COMPARE_H

#include <stdbool.h>
#include <stddef.h>

#include "judge/costs.h"
#include "judge/history.h"
#include "judge/new-old.h"
#include "lib/strlist.h"
#include "results/side.h"
#include "stats/stats.h"

/*
 * Every side against the first, metric by metric, screened with the seed
 * rule: a delta counts when |delta| >= 2 |drift| and |delta| > the larger
 * within-boot spread (as % of its mean) of this side and the first, where
 * the drift is the delta of a repeat of the first side's mode against the
 * first side; a side, first side or drift side that is loud (spread above
 * loud_pct, or a wild rep) is not screened.
 *
 * The answer is the boot level (docs/statistics.md): each boot is
 * summarised by the mean of the logs of its samples, wild reps left out;
 * the variance components sigma_b (boot to boot) and sigma_w (rep to rep)
 * are estimated from the campaign; every other mode is tested against the
 * first mode by Welch's t on the two modes' boot means when both have two
 * or more boots, else by a t-test with the boot-to-boot variance of the
 * machine's history; the tests of a report are corrected for false
 * discoveries (Benjamini-Hochberg). One verdict per mode and metric:
 * compare_test.verdict, from compare_test.method.
 */

enum verdict {
	VERDICT_BASELINE,       /* the first side itself */
	VERDICT_COUNTS,
	VERDICT_WITHIN_NOISE,
	VERDICT_LOUD,           /* spread too loud for one repeat boot: reported, not judged */
	VERDICT_NO_DRIFT,       /* no repeat of the first side: nothing judged */
	VERDICT_DRIFT,          /* this side is a repeat of the first: its delta is the drift */
	VERDICT_MISSING,        /* the metric is absent (or unusable) on this side */
	VERDICT_UNTESTED,       /* boot-level: too few boots and no history */
	VERDICT_SAME,           /* boot-level: the CI lies inside the equivalence margin */
	VERDICT_UNDECIDED,      /* boot-level with a margin: neither a difference nor the same */
};

/* How a verdict is named, one row per verdict (judge/compare.c). */
struct verdict_text {
	const char *name;     /* machine name: "counts", "within-noise", "loud", "no-drift", "drift",
				 "baseline", "missing", "untested", "same", "undecided" (JSON, CSV,
				 data-verdict) */
	const char *words;    /* in the text and Markdown reports: "within noise", "not tested" */
	const char *brief;    /* in the narrow mail report: "noise", "untested" */
	const char *css;      /* the HTML page's class ("v-gain" for counts; a loss is "v-loss") */
};

/* The row of v (a value outside the enum reads as missing); borrowed, static. */
const struct verdict_text *verdict_text(enum verdict v);
/* verdict_text(v)->name. */
const char *verdict_name(enum verdict v);

/*
 * One statistic of a cell when several are compared (--stat mean,min):
 * judged by the same rule as the first, with its own drift.
 */
struct compare_stat {
	double value;
	double delta_pct, drift_pct, q, p;
	enum verdict verdict;
};

struct compare_cell {
	bool present;
	double value;           /* the row's statistic */
	double spread;          /* sample stddev of the samples; NaN for n < 2 */
	double spread_pct;      /* spread as % of the mean */
	size_t n;
	double delta_pct;       /* vs the first side, sign so that + is better */
	double drift_pct;       /* the drift this delta is judged against */
	double q;               /* |delta| / |drift| */
	double p;               /* stats_drift_rule_p(q) */
	enum verdict verdict;
	/* By-run rows: ranges of the per-run deltas and drifts. */
	double delta_lo, delta_hi, drift_lo, drift_hi;
	size_t runs;
	/* Sign across pairs of this side's mode with the first side's mode. */
	size_t pairs;
	size_t pairs_agree;     /* pairs whose delta has this cell's sign */
	/* This boot in log space (by-run rows: without run 1 when there are more). */
	bool has_boot;
	struct stats_boot boot;
	/*
	 * The naive pair, on the first side of each other mode: Welch's t-test
	 * on this boot's log reps against the first side's, as if reps were
	 * independent. For comparison only: reps of one boot share its
	 * offset, so it over-claims. NaN elsewhere.
	 */
	double rep_p, rep_lo_pct, rep_hi_pct;
	/*
	 * Per statistic of the metric's stats, its n_stats of them (stats[0]
	 * is value, delta_pct, ... above): one block per metric, the first
	 * cell's stats its start, so a metric of one statistic keeps one.
	 */
	struct compare_stat *stats;
	/*
	 * Wild reps (stats_wild_reps() with COMPARE_WILD_K and
	 * COMPARE_WILD_MIN_PCT over every boot of the metric): indices into
	 * the side's samples as recorded (compare_side_metric()), n_wild of
	 * them. They are left out of boot (and so of every boot-level test),
	 * and the screen calls a side with one loud. Owned by the result.
	 */
	size_t n_wild;
	size_t *wild;
};

enum compare_method {
	METHOD_NONE,            /* not tested */
	METHOD_BOOT,            /* Welch's t on the two modes' boot means (this campaign's) */
	METHOD_HISTORY,         /* t with the boot variance pooled with the machine's history */
};

/* "none", "boot", "history". */
const char *compare_method_name(enum compare_method m);

/*
 * One mode against the first side's mode, for one metric: the one answer
 * for it. verdict comes from the one test the design calls for (method);
 * estimate and test (log, + is better) and delta_pct, lo_pct, hi_pct are
 * its delta and CI. welch, paired and the screen (compare_cell) are
 * secondary figures, never a verdict.
 */
struct compare_test {
	const char *mode;       /* borrowed from the sides */
	size_t side;            /* the mode's first side */
	size_t boots_first;     /* boots of the first mode with this metric */
	size_t boots;           /* boots of this mode with this metric */
	enum compare_method method;
	enum verdict verdict;   /* COUNTS (CI excludes 0), WITHIN_NOISE or UNTESTED */
	double estimate;        /* mode mean - first mode mean of boot means, log, + is better */
	struct stats_test test; /* METHOD_BOOT/HISTORY: log units, + is better */
	double delta_pct, lo_pct, hi_pct;   /* exp(...) - 1 in %; lo/hi NaN untested */
	bool has_welch;         /* Welch's test on the two modes' boot means, as a check */
	struct stats_test welch;
	bool has_paired;        /* by round: mean of per-round differences */
	size_t paired_rounds;
	struct stats_test paired;
	size_t wild_reps;       /* wild reps left out of the two modes' boot means */
	double fdr_q;           /* Benjamini-Hochberg adjusted p; NaN untested */
	bool survives;          /* counts, and fdr_q <= the report's q */
	bool has_boots_needed;  /* computed (options.boots_needed and a boot variance known) */
	/*
	 * Per mode for 80 % power at the estimate, with boot means varying by
	 * sigma_b2 + sigma_w2 / reps (else the boot or history variance);
	 * 0: more than 1000.
	 */
	unsigned boots_needed;
	/*
	 * The boot-mean variance (log^2) boots_needed is computed with, for
	 * other power questions (the headline's "N boots would detect 2 %");
	 * NaN when not known.
	 */
	double power_var;
	size_t power_modes;     /* the modes it is computed for (the test's df) */
	/*
	 * Equivalence (a margin for this metric, and a test): the two one-sided
	 * tests at alpha, that is the 1 - 2 alpha CI, inside -/+ margin.
	 */
	bool has_equivalence;
	bool equivalent;        /* the TOST CI lies inside the margin */
	double eq_lo_pct, eq_hi_pct;   /* that CI, % */
	/*
	 * Not decided (neither counts nor equivalent): boots per mode with 80 %
	 * power to decide it either way at the estimate (the fewer of the
	 * difference test's and the equivalence test's); 0: more than 1000.
	 */
	bool has_boots_to_decide;
	unsigned boots_to_decide;
};

/* How the machine's history bears on one metric. */
struct compare_history {
	size_t entries;         /* history entries with this metric */
	double df;              /* their boot-level degrees of freedom */
	double var;             /* their pooled boot-mean variance (log^2) */
	bool unusual;           /* this campaign's boot variance is far above it */
	double ratio;           /* campaign / history boot variance */
	double p;               /* upper F-test p of ratio */
	bool checked;           /* the campaign has boot-to-boot df of its own to check it with */
	/*
	 * The box is noisier than its history (compare_result.box), or this
	 * metric's boots far above it (unusual): its history tests are
	 * undecided (judge/drift.h).
	 */
	bool drift;
};

struct compare_metric {
	char *row;
	char *metric;
	enum metric_better better;
	char *unit;
	/*
	 * A perf counter of the row's command: judged like its numbers, but an
	 * explanation of them (shown under the row), corrected for false
	 * discoveries among the counters alone and left out of the tallies.
	 */
	bool counter;
	/* A counter of RAPL energy (metric.counter "rapl"): the headline puts it beside its row's claim. */
	bool energy;
	enum stat_kind stat;          /* the first of stats: the one the boot-level tests stand beside */
	enum stat_kind stats[STAT_KINDS];   /* every statistic compared, in the order asked */
	size_t n_stats;
	bool by_run;
	struct compare_cell *cells;   /* one per side */
	bool has_components;          /* a mode has two or more boots */
	struct stats_components components;   /* over this campaign's modes */
	struct compare_test *tests;   /* one per mode other than the first's */
	size_t n_tests;
	bool has_history;
	struct compare_history history;
	double margin_pct;            /* equivalence margin, %; 0: none */
};

struct compare_cost {
	size_t side;
	char *row;
	int rc;                 /* 0 for a test suite that exited 0 with failed tests */
	bool fails_on_first;    /* the check fails on the first side too (for tests: every failed one) */
	/* A test suite's row (KTAP): its failed tests, and how many checks it had. */
	bool has_tests;
	size_t tests_failed, tests_total;
	size_t tests_new;       /* failed here but not on the first side */
	char **failures;        /* the failed tests' names, n = tests_failed */
};

struct compare_version {
	char *name;
	char **values;          /* one per side, NULL where not recorded */
};

/*
 * A row of a side that is not comparable with the first side's: its tool
 * recorded another build or setting (llama-bench's build_commit, n_threads,
 * backend, model file; fio's version or job options).
 */
struct compare_mismatch {
	size_t side;
	char *row;
	char *what;             /* "build_commit 8a1b2c3d (pt: 79e2e74eb)", printable */
};

struct compare_options {
	enum stat_kind stat;          /* default statistic */
	/* Default statistics, when several (--stat mean,min): stats[0] is stat. NULL: stat alone. */
	const enum stat_kind *stats;
	size_t n_stats;
	/* stat (and stats) were asked for: they win over a row's recorded statistic (meta.json). */
	bool stat_given;
	double loud_pct;              /* spread above this % of the mean: loud */
	const struct strlist *by_run; /* rows compared run by run */
	const struct strlist *row_stats; /* "ROW=STAT" or "ROW=STAT,STAT" overrides */
	double alpha;                 /* boot-level tests' level; 0: 0.05 */
	double fdr_q;                 /* Benjamini-Hochberg level; 0: 0.05 */
	const struct history *history;   /* the machine's history, or NULL */
	bool boots_needed;            /* fill compare_test.boots_needed (numerical, slower) */
	const struct strlist *ignore; /* patterns of costs not to report (judge/costs.h), or NULL */
	double equivalence_pct;       /* margin of "same within -/+ PCT %" for every metric; 0: none */
	const struct strlist *row_equivalence; /* "ROW=PCT" margins for one row */
};

/*
 * The one delta convention of every report: + is better, and for a
 * higher-is-better metric the change b / a - 1, for a lower-is-better one
 * 1 - b / a (a time 10 % shorter is +10 %). compare_log_pct() turns a
 * + is better log difference (better * (log b - log a)) into that
 * percentage; it is increasing, so a CI maps end to end.
 * compare_pct_log() is its inverse.
 */
double compare_log_pct(double x, enum metric_better better);
double compare_pct_log(double pct, enum metric_better better);

/* Margins are percentages in (0, 50]. */
#define COMPARE_MARGIN_MAX 50.0

/*
 * Parses an equivalence margin, "2%" or "2" (percent), into *ret. Returns 0,
 * or -EINVAL for anything not a number in (0, COMPARE_MARGIN_MAX].
 */
int compare_parse_margin(const char *s, double *ret);

#define COMPARE_LOUD_PCT_DEFAULT 5.0
/*
 * A rep is wild when it lies more than COMPARE_WILD_K robust scales and
 * COMPARE_WILD_MIN_PCT % from its boot's median (stats_wild_reps()); the
 * false-flag rate is measured by bench/method (docs/statistics.md).
 */
#define COMPARE_WILD_K 6.0
#define COMPARE_WILD_MIN_PCT 1.0
#define COMPARE_ALPHA_DEFAULT 0.05
#define COMPARE_FDR_Q_DEFAULT 0.05
#define COMPARE_POWER 0.80
#define COMPARE_UNUSUAL_P 0.01
/* History entries used per metric: the newest ones (older ones age out). */
#define COMPARE_HISTORY_MAX_ENTRIES 20

struct screen_result;

struct compare_result {
	const struct side *sides;     /* borrowed */
	size_t n_sides;
	size_t n_repeats;             /* sides after the first with the first's mode */
	struct side_modes modes;      /* the sides' modes, indexed once (mode 0: the first side's) */
	struct compare_metric *metrics;
	size_t n_metrics;
	struct compare_cost *costs;   /* failed check rows */
	size_t n_costs;
	struct costs_result found;    /* costs found by bootab from each boot's inventory */
	struct compare_version *versions;   /* only those that differ */
	size_t n_versions;
	struct compare_mismatch *mismatches;   /* per side and row, in side order */
	size_t n_mismatches;
	struct new_old_result new_old; /* new against old code in one kernel, paired in each boot */
	size_t n_counts, n_within_noise, n_loud, n_no_drift;
	unsigned *rounds;             /* per side: meta.json's round, else inferred */
	bool rounds_inferred;
	double alpha, fdr_q;
	char *history_key;            /* this campaign in the history (history_campaign_key()) */
	struct strlist history_ids;   /* its boots, left out of the history it is judged with */
	size_t n_tests;               /* boot-level and history tests */
	size_t n_claims;              /* of those, the ones whose CI excludes 0 */
	size_t n_survive;             /* claims that survive Benjamini-Hochberg at fdr_q */
	size_t n_same;                /* tests whose verdict is the same within their margin */
	size_t n_undecided;           /* tests with a margin that decided nothing */
	size_t n_unusual;             /* metrics whose boot noise is far above their history */
	size_t n_drift;               /* metrics whose history tests are undecided: the box is noisier */
	size_t n_noisier;             /* those tests (counted in n_undecided too) */
	struct history_box box;       /* the campaign's boots against its history, over every metric */
	/*
	 * A screening design's answer per factor (judge/screen.h), set by the
	 * caller after compare_sides(): its runs are answered per factor, not
	 * as modes (report/answer.h). Borrowed; NULL: none.
	 */
	const struct screen_result *screen;
};

/*
 * Compares sides[1..n-1] with sides[0]. Problems that leave a metric
 * unjudged (present on one side only, a non-positive mean, unequal run
 * counts in a by-run row) are appended to warnings. Returns 0, or -EINVAL
 * for fewer than two sides or a bad option (an ignore pattern that is not
 * a regular expression). *ret is written only on 0 and
 * released with compare_result_release().
 */
/* The mismatch of row on side k, or NULL (borrowed). */
const struct compare_mismatch *compare_mismatch_find(const struct compare_result *res, size_t k, const char *row);

int compare_sides(const struct side *sides, size_t n_sides, const struct compare_options *options,
		  struct compare_result *ret, struct strlist *warnings);


/*
 * A history entry from a comparison: every metric's boots of the first
 * side's mode (kind "aa" when every side has that mode, else "repeat").
 * recorded: an RFC 3339 time. Release with history_entry_release().
 */
void compare_history_entry(const struct compare_result *result, const char *recorded,
			   struct history_entry *ret);

/*
 * Adds result's boots of its first mode to history, as one entry recorded
 * now (replacing an entry of the same boots), and writes the history to
 * path (history_save()). Returns 0 with *ret_boots (boots recorded of the
 * first metric); -ENODATA when no metric has two boots of the first mode
 * (history and path untouched); -errno when path cannot be written.
 */
int compare_history_record(const struct compare_result *result, struct history *history, const char *path,
			   size_t *ret_boots);

/*
 * Sequential campaigns (rounds = auto): the boot-level tests look at the
 * data after every round, and a look may claim only at its nominal level,
 * from two-sided O'Brien-Fleming-type alpha spending (Lan and DeMets 1983):
 * look j comes after round j of the default order, the first mode has
 * j + 1 boots and every other mode j, so the information of a difference
 * grows as 1 / (1 / j + 1 / (j + 1)), and each look's boundary lets the
 * campaigns still running claim as often as the spending function allows
 * there, for the boot t's law at that look (judge/sequential.c), not the
 * normal one. O'Brien-Fleming rather than Pocock: it spends almost nothing
 * at the first looks, where the boot-level t has two or three degrees of
 * freedom and an early stop would rest on the least data, and it leaves
 * the last look close to the fixed design's level, so a campaign that runs
 * to its ceiling loses little power against a fixed campaign of that
 * length (docs/statistics.md).
 */
#define COMPARE_SEQ_SPENDING SPENDING_OBRIEN_FLEMING

/*
 * The nominal level of the look after round (1..max_rounds) of a campaign
 * of at most max_rounds rounds whose overall false-claim rate is alpha;
 * NaN for a round outside 1..max_rounds or max_rounds above 100. The first
 * call for a design simulates it (a fixed seed: the same levels every
 * time; tens of milliseconds a round); later calls for the same design
 * are read back.
 */
double compare_sequential_alpha(unsigned round, unsigned max_rounds, double alpha);

/*
 * Whether a look decides the campaign: every boot-level test of every
 * metric (counters aside: they explain it) is a claim that survives the false-discovery correction or the
 * same within its margin. *ret_decided and *ret_tests (either may be NULL)
 * count the tests decided and all tests; no test at all decides nothing.
 */
bool compare_decided(const struct compare_result *result, size_t *ret_decided, size_t *ret_tests);

/*
 * The samples of metric cm on side k as that side recorded them, in rep
 * (or run) order: the metric of the side's row (borrowed), or NULL when
 * the side has no such bench row or metric.
 */
const struct metric *compare_side_metric(const struct compare_result *result, const struct compare_metric *cm,
					 size_t k);

/* Number of (metric, side) cells that could be compared with the first side. */
size_t compare_result_compared(const struct compare_result *result);

void compare_result_release(struct compare_result *result);

#endif
