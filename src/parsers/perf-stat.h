#ifndef BOOTAB_PARSERS_PERF_STAT_H
#define BOOTAB_PARSERS_PERF_STAT_H

#include <stdbool.h>
#include <stddef.h>

#include "lib/parse-error.h"

/*
 * perf stat -j output (perf stat -j -o FILE, or its stderr): one JSON
 * object a line, each an event's count; docs/results-format.md
 * ("Counters") says what bootab keeps of it.
 */

enum perf_counter_state {
	PERF_COUNTED,           /* a value, over pcnt-running % of the run */
	PERF_NOT_COUNTED,       /* "<not counted>": the event never got a counter */
	PERF_NOT_SUPPORTED,     /* "<not supported>": the box or the kernel has no such event */
};

struct perf_counter {
	char *event;            /* as perf names it: "cycles", "cycles:u", "cpu_core/cycles/" */
	char *unit;             /* perf's unit: "msec" for task-clock, "" for counts */
	enum perf_counter_state state;
	double value;           /* PERF_COUNTED: the count (perf's estimate when multiplexed) */
	double running_pct;     /* pcnt-running: how much of the run the event was counting, 0-100 */
};

struct perf_stat {
	struct perf_counter *counters;   /* in perf's order, one per event */
	size_t n_counters;
};

#define PERF_STAT_INIT { NULL, 0 }

/* The most events one output may hold. */
#define PERF_STAT_MAX_COUNTERS 256

/*
 * Parses data (len bytes, NUL-terminated). Blank lines and perf's "#"
 * comments ("# started on ...") are skipped, and so are objects without an
 * "event" (the derived metrics newer perfs print on lines of their own).
 * An event printed more than once (per CPU, per interval) is one counter:
 * the values summed, the lowest pcnt-running kept. Returns 0 and *ret (the
 * caller's, perf_stat_release()), or -EINVAL with err (line, column,
 * message) and *ret untouched; an output with no event is an error.
 */
int perf_stat_parse(const char *data, size_t len, struct perf_stat *ret, struct parse_error *err);

/*
 * Whether perf counted event in user space only although asked (the
 * comma-separated list perf's -e got) for it as it is without ":u": perf
 * falls back to "cycles:u" where perf_event_paranoid keeps the user from
 * counting the kernel, and the kernel's share is then missing.
 */
bool perf_event_user_only(const char *event, const char *asked);

/* "not counted", "not supported"; NULL for PERF_COUNTED. */
const char *perf_counter_state_name(enum perf_counter_state state);

void perf_stat_release(struct perf_stat *stat);

#endif
