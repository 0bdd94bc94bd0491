#ifndef BOOTAB_REPORT_HEADLINE_H
#define BOOTAB_REPORT_HEADLINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "judge/compare.h"
#include "report/answer.h"

/*
 * The answer a report opens with, walked from the answer view
 * (report/answer.h): one line per mode against the first side's mode,
 * naming each metric whose test claims a difference (surviving FDR),
 * ordered by the size of the effect on the log scale, then the claims
 * that do not survive FDR, said plainly, then each check that failed;
 * when nothing is claimed, what the null means:
 *
 *   off vs pt: gptoss-rocm pp512@d65536 +4.1 % [+3.0, +5.2] faster (boot t, 3 + 4 boots);
 *     fn-vk pp512@d65536 12.0x slower [11.4x, 12.7x]; npu-validate failed, rc=1 (cost)
 *   off vs pt: syscall +3.1 % [+2.0, +4.2] faster (boot t, 4 + 4 boots), +4.0 % package-0 energy,
 *     counters: dTLB-load-misses 3.2x more (a row that reads energy and counters)
 *
 * (in a line, claims judged alike name their judge once, on the first)
 *   off vs pt: prefill pp512 +4.5 % [+1.7, +7.5] faster (history t, 1 + 1 boots);
 *     this assumes off varies from boot to boot as pt does (one boot cannot show it);
 *     one more round, or rounds = auto with the history, tests off on its own boots
 *   translated vs pt: no difference shown; 14 boots per mode would detect 2 %
 *   translated vs pt: not tested (one boot per mode: 2 boots per mode, or a
 *     history of this box, would test it)
 */

/* What an item says. */
enum headline_kind {
	HEADLINE_CLAIM,         /* a test claims a difference that survives FDR */
	HEADLINE_NOT_AFTER_FDR, /* a test's CI excludes 0, but the claim does not survive FDR */
	HEADLINE_COST,          /* a check or test suite failed on this mode */
};

/* When a line has no claim and no cost: what its null is. */
enum headline_null {
	HEADLINE_NULL_NONE,         /* the line has a claim */
	HEADLINE_NULL_SAME,         /* every metric tested the same within its margin */
	HEADLINE_NULL_UNDECIDED,    /* tested with margins; some neither the same nor different */
	HEADLINE_NULL_NOT_SHOWN,    /* tested, and no difference shown */
	HEADLINE_NULL_NOT_TESTED,   /* nothing could be tested (one boot of a mode, no history) */
};

struct headline_item {
	enum headline_kind kind;
	const struct answer *answer;           /* borrowed from the view; NULL for a cost */
	const struct compare_cost *cost;       /* borrowed; HEADLINE_COST only */
	char *text;             /* "gptoss-rocm pp512@d65536 +4.1 % [+3.0, +5.2] faster (boot t, 3 + 4 boots)" */
	/* A claim's text in two parts (NULL otherwise): "gptoss-rocm ... faster" and "boot t, 3 + 4 boots". */
	char *words, *note;
	/*
	 * A claim's explanation (NULL: none): the counters of its row that
	 * moved on this mode, each judged like the row ("page-faults 2.1x more,
	 * context-switches 30 % more"), first of its row's claims only.
	 */
	char *why;
	/*
	 * A claim's energy (NULL: its row reads none): the RAPL package
	 * energy per rep, or per unit of work when the claim is a rate,
	 * judged like any metric: "+4.0 % package-0 energy", "2.51x the
	 * package-0 energy per t", "no difference in package-0 energy shown",
	 * "package-0 energy not tested"; first of its row's claims only.
	 */
	char *energy;
};

struct headline_line {
	const char *mode;       /* borrowed from the sides */
	const char *first_mode; /* borrowed */
	size_t side;            /* the mode's first side */
	struct headline_item *items;   /* claims (by size of effect), claims not after FDR, then costs */
	size_t n_items;
	enum headline_null null;
	double margin_pct;      /* HEADLINE_NULL_SAME/UNDECIDED: the largest margin; else 0 */
	size_t not_tested;      /* metrics of the mode no test could judge */
	/*
	 * A claim of the line was judged by the history t on one boot of the
	 * mode: it assumes the mode varies from boot to boot as the first
	 * mode (the history's) does, which one boot cannot show; the text
	 * says so once, after the claims.
	 */
	bool assumes_same_noise;
	/*
	 * HEADLINE_NULL_NOT_SHOWN or NOT_TESTED with every metric's boot variance known: the
	 * boots per mode that would detect a change of detect_pct (the margin,
	 * else HEADLINE_DETECT_PCT) in every metric of the line with 80 %
	 * power; 0: more than 1000.
	 */
	bool has_detect;
	double detect_pct;
	unsigned detect_boots;
	char *text;             /* the whole line, "off vs pt: ..." (no newline) */
};

struct headline {
	struct answer_view view;       /* what the lines walk */
	struct headline_line *lines;   /* one per mode other than the first side's, in first-seen order */
	size_t n_lines;
	bool all_one_mode;      /* every side has the first side's mode: an A/A campaign, no line */
	/*
	 * A screening design's line (report/factors.h), first: its runs are
	 * answered per factor and have no line of their own. NULL: no design.
	 */
	char *factors;
};

/* The change a null line says the campaign could detect, %, when no margin is given. */
#define HEADLINE_DETECT_PCT 2.0

/* Builds the headline of res. Never fails; release with headline_release(). */
void headline_build(const struct compare_result *res, struct headline *ret);

void headline_release(struct headline *h);

/*
 * Writes the headline of res as text (lines of at most width columns,
 * continued indented) or (md) a Markdown list, then a blank line; an A/A
 * campaign says that it has nothing to compare.
 */
void headline_write(FILE *out, const struct compare_result *res, size_t width, bool md);

/* "claim", "not-after-fdr", "cost". */
const char *headline_kind_name(enum headline_kind kind);
/* "none", "same", "undecided", "not-shown", "not-tested". */
const char *headline_null_name(enum headline_null null);

/*
 * "gptoss-rocm pp512@d65536": the row and metric as the headline names
 * them (the row alone for a one-number row). The caller's.
 */
char *headline_metric_name(const struct compare_metric *cm);

#endif
