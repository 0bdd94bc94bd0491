#ifndef BOOTAB_REPORT_HEADLINE_H
#define BOOTAB_REPORT_HEADLINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "judge/compare.h"

/*
 * The answer a report opens with: one line per mode against the first
 * side's mode, naming each metric whose decisive verdict moved, each check
 * that failed, and, when nothing moved, what the null means:
 *
 *   off vs pt: gptoss-rocm pp512@d65536 +4.1 % [+3.0, +5.2] faster (boot t, 3 + 4 boots);
 *     fn-vk pp512@d65536 +2.6 % [+1.0, +4.2] faster; npu-validate failed, rc=1 (cost)
 *
 * (in a line, claims judged alike name their judge once, on the first)
 *   translated vs pt: no difference shown; 14 boots per mode would detect 2 %
 *
 * The decisive verdict of a (mode, metric) is the boot-level test's when
 * one ran (boot t or history t), else the screen's (the seed rule) on the
 * mode's first side; the headline names which one spoke.
 */

/* What an item says. */
enum headline_kind {
	HEADLINE_CLAIM,         /* the decisive verdict counts: a difference */
	HEADLINE_LOUD,          /* the screen could not judge it (too loud); its delta is shown */
	HEADLINE_COST,          /* a check or test suite failed on this mode */
};

/* Who judged an item. */
enum headline_judge {
	HEADLINE_BY_TEST,       /* the boot-level test (compare_test) */
	HEADLINE_BY_SCREEN,     /* the seed rule on the mode's first side (compare_cell) */
};

/* When a line has no claim and no cost: what its null is. */
enum headline_null {
	HEADLINE_NULL_NONE,         /* the line has a claim or a cost */
	HEADLINE_NULL_SAME,         /* every metric tested the same within its margin */
	HEADLINE_NULL_UNDECIDED,    /* tested with margins; some neither the same nor different */
	HEADLINE_NULL_NOT_SHOWN,    /* judged (test or screen), and no difference shown */
	HEADLINE_NULL_NOT_JUDGED,   /* nothing could be judged (no repeat boot, no history) */
};

struct headline_item {
	enum headline_kind kind;
	enum headline_judge judge;
	const struct compare_metric *metric;   /* borrowed; NULL for a cost */
	const struct compare_test *test;       /* borrowed; NULL unless judged by the test */
	const struct compare_cell *cell;       /* borrowed; the screen's cell, NULL for a cost */
	const struct compare_cost *cost;       /* borrowed; HEADLINE_COST only */
	/* + is better. A test: its CI (95 % at alpha 0.05); the screen: NaN, or a by-run row's range. */
	double delta_pct, lo_pct, hi_pct;
	bool range;             /* delta is the range lo..hi of a by-run row's per-run deltas */
	const char *direction;  /* "faster", "slower", "better", "worse", "higher", "lower": static */
	size_t boots, boots_first;    /* boots of this mode and of the first mode */
	char *text;             /* "gptoss-rocm pp512@d65536 +4.1 % [+3.0, +5.2] faster (boot t, 3 + 4 boots)" */
	/* A claim's text in two parts (NULL otherwise): "gptoss-rocm ... faster" and "boot t, 3 + 4 boots". */
	char *words, *note;
	/*
	 * A claim's explanation (NULL: none): the counters of its row that
	 * moved on this mode, each judged like the row ("page-faults 2.1x more,
	 * context-switches 30 % more"), first of its row's claims only.
	 */
	char *why;
};

struct headline_line {
	const char *mode;       /* borrowed from the sides */
	const char *first_mode; /* borrowed */
	size_t side;            /* the mode's first side */
	struct headline_item *items;   /* claims (by size of delta), then loud metrics, then costs */
	size_t n_items;
	enum headline_null null;
	double margin_pct;      /* HEADLINE_NULL_SAME/UNDECIDED: the largest margin; else 0 */
	/*
	 * HEADLINE_NULL_NOT_SHOWN with every metric's boot variance known: the
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
	struct headline_line *lines;   /* one per mode other than the first side's, in first-seen order */
	size_t n_lines;
	bool all_one_mode;      /* every side has the first side's mode: an A/A campaign, no line */
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

/* "claim", "loud", "cost". */
const char *headline_kind_name(enum headline_kind kind);
/* "test", "screen". */
const char *headline_judge_name(enum headline_judge judge);
/* "none", "same", "undecided", "not-shown", "not-judged". */
const char *headline_null_name(enum headline_null null);

/*
 * "gptoss-rocm pp512@d65536": the row and metric as the headline names
 * them (the row alone for a one-number row). The caller's.
 */
char *headline_metric_name(const struct compare_metric *cm);

#endif
