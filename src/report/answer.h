#ifndef BOOTAB_REPORT_ANSWER_H
#define BOOTAB_REPORT_ANSWER_H

#include <stdbool.h>
#include <stddef.h>

#include "judge/compare.h"
#include "lib/strbuf.h"
#include "report/words.h"

/*
 * The answer of a comparison, built once and walked by every format (txt,
 * md, mail, csv, json, html and the headline): for each mode other than
 * the first side's, and each metric, one verdict, its delta (or factor)
 * with its CI, the test that made it, the boots it stands on; and the
 * costs of the mode. A change to a verdict's wording is one edit here.
 *
 * A claim comes only from a test with a known error rate (the boot t or
 * the history t, judge/compare.h) whose CI excludes 0 and that survives
 * the Benjamini-Hochberg correction over the report's tests. A comparison
 * no test could make (one boot per mode and no history) is not tested:
 * the seed rule's screen stays a column of the tables, putting each
 * boot's delta next to the drift, and is never a verdict of the answer.
 */

enum answer_kind {
	ANSWER_CLAIM,           /* tested: a difference, surviving FDR */
	ANSWER_NOT_AFTER_FDR,   /* tested: the CI excludes 0, but the claim does not survive FDR */
	ANSWER_SAME,            /* tested with a margin: the same within it */
	ANSWER_UNDECIDED,       /* tested with a margin: neither a difference nor the same */
	ANSWER_NOT_SHOWN,       /* tested: no difference shown */
	ANSWER_NOT_TESTED,      /* no test could run: one boot of a mode and no history */
	ANSWER_MISSING,         /* the metric has no value on this mode */
};

/* Past this factor an effect is told as a factor (report/words.h). */
#define ANSWER_FACTOR_FROM REPORT_FACTOR_FROM

struct answer {
	enum answer_kind kind;
	const struct compare_metric *metric;   /* borrowed */
	const struct compare_test *test;       /* borrowed; NULL when the metric has no test for the mode */
	const char *mode;                      /* borrowed */
	size_t side;                           /* the mode's first side */
	/*
	 * The mode's one delta, + is better: the test's estimate over the
	 * mode's boots against the first mode's, with its CI (NaN when no
	 * test ran). Not tested: the same estimate where the boots give one
	 * (one_boot: it rests on one boot of a mode), else the mode's first
	 * side's delta.
	 */
	double delta_pct, lo_pct, hi_pct;
	double log_effect;      /* the delta on the log scale, + is better: what claims are ordered by */
	bool one_boot;          /* the delta rests on one boot of a mode: no test */
	bool factor;            /* |effect| reaches ANSWER_FACTOR_FROM: told as a factor */
	double p;               /* the test's p; NaN when none ran */
	double fdr_q;           /* its Benjamini-Hochberg adjusted p; NaN when none ran */
	const char *test_name;  /* "boot t", "history t", "none" (static) */
	const char *direction;  /* "faster", "slower", "better", "worse" (static) */
	size_t boots, boots_first;
	/* Not tested: the boots per mode that would let a test run (2), or detect 2 % when the noise is known. */
	unsigned boots_to_test, boots_to_detect;
};

/* One mode against the first side's mode. */
struct answer_mode {
	const char *mode;       /* borrowed */
	const char *first_mode; /* borrowed */
	size_t side;            /* the mode's first side */
	struct answer *answers; /* one per metric, in the report's order */
	size_t n_answers;
};

struct answer_view {
	struct answer_mode *modes;      /* every mode but the first side's, in first-seen order */
	size_t n_modes;
	/* Counts over every (mode, metric) answer, counters (compare_metric.counter) left out. */
	size_t n_claims, n_not_after_fdr, n_same, n_undecided, n_not_shown, n_not_tested, n_tests;
};

/* Builds the answer of res. Never fails; release with answer_view_release(). */
void answer_view_build(const struct compare_result *res, struct answer_view *ret);
void answer_view_release(struct answer_view *view);

/*
 * The answer of one metric for one mode: the test of that mode (NULL: none)
 * and the mode's first side k. bench/method reads its claims through this.
 */
void answer_of(const struct compare_result *res, const struct compare_metric *cm, const struct compare_test *t,
	       size_t k, struct answer *ret);

/* The test of mode in metric cm (NULL: none). */
const struct compare_test *answer_test_of(const struct compare_metric *cm, const char *mode);

/* The answer of mode for metric cm in view (NULL: none). */
const struct answer *answer_find(const struct answer_view *view, const char *mode, const struct compare_metric *cm);

/* "claim", "not-after-fdr", "same", "undecided", "not-shown", "not-tested", "missing". */
const char *answer_kind_name(enum answer_kind kind);
/* The verdict in words: "counts", "not after FDR", "same within ±2%", "undecided", "within noise", "not tested", "missing". */
void answer_add_verdict(struct strbuf *sb, const struct answer *a);
/*
 * The effect: "+4.1%" or "12.0x slower" (a factor); with_ci: and its CI,
 * "+4.1% [+3.0, +5.2]", "12.0x slower [11.4x, 12.7x]". pct_space puts a
 * blank before the % ("+4.1 %", as the headline writes it).
 */
void answer_add_effect(struct strbuf *sb, const struct answer *a, bool with_ci, bool pct_space);
/*
 * A line of the boot-level table, the same cells in every format that
 * shows one (txt, md, html, mail): "3/4", "+3.8%" or "12.0x slower",
 * "+2.3 to +5.3%", "<0.001", "boot t, df 7", "counts", and the notes
 * (FDR, the boots a test or a decision needs, why no test ran). Each
 * absent cell is "". Release with answer_row_release().
 */
struct answer_row {
	char *boots, *delta, *ci, *p, *test, *verdict, *notes;
};
void answer_row_build(const struct compare_result *res, const struct answer *a, struct answer_row *ret);
void answer_row_release(struct answer_row *row);

/* "faster", "slower", "better" or "worse": the words of a + is better log effect on cm. */
const char *answer_direction(const struct compare_metric *cm, double log_effect);

/* The factor of a + is better log effect, >= 1, and its direction word ("faster" or "slower", ...). */
double answer_factor(double log_effect);

#endif
