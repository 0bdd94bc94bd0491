#ifndef BOOTAB_RESULTS_RUN_RECORDS_H
#define BOOTAB_RESULTS_RUN_RECORDS_H

#include <stdbool.h>
#include <stddef.h>

#include "lib/strlist.h"

/*
 * The records of the results file a per-boot script writes
 * (campaign/runner.h; docs/results-format.md, "The results file"): when
 * the rows started and ended, each rep with its times and length, whether
 * perf was there to count it and the RAPL zones read around it, each idle
 * gate's wait, the rows the gate skipped.
 *
 * The script records the box's clock once, "clock TICKS EPOCH" (its uptime
 * in hundredths of a second, then date's seconds since the epoch), and
 * every later time as ticks alone: a time is EPOCH + (T - TICKS) / 100
 * seconds, rounded down, of the clock record before it. Results of older
 * scripts hold RFC 3339 times instead, taken as they are. A time in ticks
 * with no clock record before it (or one whose EPOCH is "-": date failed)
 * has no UTC time: it is left out ("") and counted in untimed, never
 * guessed.
 */

/* Room for a time as read: RFC 3339, at most 39 bytes. */
#define RUN_TIME_SIZE 40

/* One RAPL zone around one rep: "energy ROW REP before|after ZONE NAME UJ MAX". */
struct energy_zone {
	char zone[64], name[64];
	long before, after, max;        /* microjoules; -1: unreadable or not recorded */
};

/*
 * "rep ROW REP RC START END SECONDS [HUNDREDTHS]", with what the rep's
 * other records said: "counters ROW REP no-perf", "energy ROW REP none"
 * and its zones.
 */
struct rep_record {
	const char *row;        /* the row's name (in the run_records) */
	unsigned rep;
	int rc;
	char start[RUN_TIME_SIZE];      /* RFC 3339; "": no UTC time */
	char end[RUN_TIME_SIZE];
	long seconds;
	long hundredths;        /* the rep's length in hundredths of a second; -1: not recorded (older runners) */
	bool no_perf;           /* the box had no perf to count the rep's events */
	bool no_rapl;           /* the box had no RAPL zone to read */
	struct energy_zone *zones;      /* in the order first recorded (in the run_records) */
	size_t n_zones;
};

/* "gate ROW ok|timeout SECONDS [HUNDREDTHS]" */
struct gate_record {
	const char *row;
	const char *state;      /* "ok" or "timeout" */
	long seconds;
	long hundredths;        /* -1: not recorded */
};

struct run_records {
	bool has_start, has_end;        /* the results file has a start, an end record */
	char *start;            /* the first start record after "start ": its time (RFC 3339), a space and the
				   load the script read; NULL without a start record or its UTC time */
	char end[RUN_TIME_SIZE];        /* the first end record's time; "" without */
	struct rep_record *reps;
	size_t n_reps, alloc_reps;
	struct gate_record *gates;
	size_t n_gates, alloc_gates;
	struct strlist skipped; /* the rows of "skip ROW ..." records */
	size_t untimed;         /* times in ticks without a clock record: left out */
	struct strlist words;   /* the row names and gate states the records point to */
};

/*
 * Reads the records of text (NUL-terminated; NULL reads as empty) into
 * *ret, to be released with run_records_release(). Lines that are no such
 * record, or a malformed one, are skipped.
 */
void run_records_parse(const char *text, struct run_records *ret);
void run_records_release(struct run_records *recs);

#endif
