#ifndef BOOTAB_RUNNER_H
#define BOOTAB_RUNNER_H

#include <stdbool.h>
#include <stddef.h>

#include "plan/plan.h"

/*
 * The per-boot script: one POSIX sh script, generated from the plan for one
 * boot, that runs on the target detached from SSH. It runs in the
 * directory it sits in and writes there:
 *   status                 one line, replaced as it goes: starting, versions,
 *                          park, gate ROW, row ROW REP/N, check ROW, unpark, done
 *   progress               what the status said, one line each, appended, and
 *                          after each rep "rep ROW REP RC SECONDS" (its stdout is
 *                          complete by then): what run-watch.sh follows
 *   results                one record per line, appended:
 *                            clock TICKS EPOCH          (first: the box's clock, read once)
 *                            start TIME LOADAVG...
 *                            version NAME RC
 *                            park|unpark INDEX RC
 *                            gate ROW ok|timeout SECONDS HUNDREDTHS
 *                            rep ROW REP RC START END SECONDS HUNDREDTHS
 *                            counters ROW REP no-perf   (the row asked for counters; no perf)
 *                            energy ROW REP before|after ZONE NAME UJ MAX   (energy = on; "-": unreadable)
 *                            energy ROW REP none        (energy = on; no RAPL zone)
 *                            skip ROW gate-timeout
 *                            end TIME
 *   ROW.REP.out, ROW.REP.err   each rep's stdout and stderr
 *   ROW.REP.perf           a rep's perf stat -j output, when the row has counters
 *   version.NAME               each version command's output
 * TICKS and each TIME are the box's uptime in hundredths of a second
 * (/proc/uptime; date's seconds times 100 where it has no fraction), EPOCH
 * date's seconds since the epoch read just after TICKS ("-": none):
 * results/run-records.h puts each TIME in UTC (results of older runners
 * hold RFC 3339 times and no clock record). SECONDS are elapsed seconds
 * within this boot, never compared across boots, and HUNDREDTHS the same
 * span in hundredths of a second (results of older runners lack it). The
 * script is readable and can be rerun by hand in an empty directory.
 */

struct runner_options {
	const char *campaign;     /* the campaign's name, for the header */
	size_t boot_index;        /* 0-based */
	size_t n_boots;
	const char *label;
	const char *mode;
	bool park;                /* run [park] before the first row */
	bool unpark;              /* run [unpark] after the last row */
	const char *default_user; /* rows without a user run as this one; NULL: as the script runs */
	const char *root;         /* a --root tree: the powercap zones are read under it; NULL: / */
};

/* The script text; the caller's. */
char *runner_generate(const struct plan *plan, const struct runner_options *options);

#endif
