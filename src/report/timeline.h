#ifndef BOOTAB_REPORT_TIMELINE_H
#define BOOTAB_REPORT_TIMELINE_H

#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>

/*
 * Where the time of one boot went, from its meta.json (docs/results-format.md):
 * the reboot, verify and start-up, each row's idle gate, the row and its
 * reps, and the fetch of the results.
 */

enum timeline_kind {
	TIMELINE_REBOOT,    /* reboot_s, ending at the boot's snapshot (target_time) */
	TIMELINE_SETUP,     /* snapshot and verify until the rows start */
	TIMELINE_GATE,      /* the idle gate before a row (idle_wait_s) */
	TIMELINE_ROW,       /* a bench row, start to end */
	TIMELINE_CHECK,     /* a check row */
	TIMELINE_FETCH,     /* rows_end until the controller wrote meta.json (time) */
};

struct timeline_span {
	enum timeline_kind kind;
	double start, end;      /* seconds since the epoch */
	char *row;              /* gate, row and check spans: the row's name */
	int rc;                 /* row and check spans */
	double *reps;           /* row and check spans: the start of every rep after the first */
	size_t n_reps, alloc_reps;
};

struct timeline_lane {
	struct timeline_span *spans;   /* in time order */
	size_t n_spans, alloc_spans;
};

#define TIMELINE_LANE_INIT { NULL, 0, 0 }

/*
 * Parses an RFC 3339 time as bootab records them ("2026-11-30T01:47:40Z",
 * "...+00:00", "...+0000", an optional fraction of a second); anything
 * after a blank is ignored (rows_start carries the load average). Returns
 * 0 and sets *ret (seconds since the epoch), or -EINVAL (*ret untouched).
 */
int timeline_time_parse(const char *s, double *ret);

/*
 * Fills lane (which must be empty) from one side's meta.json object. A
 * span whose times are missing, unparsable or backwards is left out, never
 * an error: meta.json comes from a target and is not trusted. Returns the
 * number of spans.
 */
size_t timeline_lane_from_meta(const json_t *meta, struct timeline_lane *lane);

/* Earliest start and latest end in lane; false when it has no spans. */
bool timeline_lane_bounds(const struct timeline_lane *lane, double *ret_start, double *ret_end);

const char *timeline_kind_name(enum timeline_kind kind);

void timeline_lane_release(struct timeline_lane *lane);

#endif
