#ifndef BOOTAB_SIDE_WRITE_H
#define BOOTAB_SIDE_WRITE_H

#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>

#include "kernel/snapshot.h"
#include "lib/strlist.h"
#include "parsers/parser.h"
#include "results/fetch.h"
#include "stats/stats.h"

/*
 * A row or check of the campaign's plan as its side records it: what it
 * is (meta.json's row description), how its reps' output is read, and
 * what is measured around each rep. Strings and stats are borrowed.
 */
struct side_row {
	const char *name;
	bool check;                 /* a check: only its exit code is kept */
	unsigned reps;              /* reps planned */
	unsigned timeout_s;         /* a rep killed after this long timed out */
	enum parser_kind parser;    /* a bench row's parser */
	const char *selector;       /* parser json */
	const char *metric;         /* parser regex: the metric's name, pattern and unit (may be NULL) */
	const char *pattern;
	const char *unit;
	bool has_better;            /* better = given: the row's own metrics are so */
	bool better_lower;
	enum stat_kind stat;        /* the statistic judged first */
	const enum stat_kind *stats;   /* every statistic compared */
	size_t n_stats;
	bool by_run;
	const char *perf;           /* perf stat events counted around each rep; NULL: no counters */
	bool perf_system;           /* the counters count the whole box (perf stat -a), not the command */
	bool energy;                /* RAPL energy read around each rep */
};

/* What the plan asks each boot's side to record (plan_side() in plan/plan.h fills it). */
struct side_plan {
	struct side_row *rows;      /* the rows and checks, in the plan's order */
	size_t n_rows;
	const char **versions;      /* the versions asked for, by name */
	size_t n_versions;
};

/*
 * Writes one boot's side directory from what the campaign gathered: the
 * snapshot taken after verify, and the files the per-boot script left on
 * the target (fetch). Every row's raw output is kept under rows/, the
 * script under scripts/; each bench row's output goes through its parser
 * into meta.json's metrics. docs/results-format.md describes the result.
 */
struct side_record {
	const struct side_plan *plan;  /* what the plan asks each side to record */
	const char *campaign;
	const char *target;
	size_t boot_index;          /* 0-based */
	size_t n_boots;
	const char *label;
	const char *mode;
	unsigned round;
	const char *boot_id_before; /* the boot this one replaced; may be NULL */
	double reboot_s;            /* reboot to new boot_id answering; < 0: not measured */
	const char *boot_method;    /* "reboot" (through the firmware) or "kexec"; NULL: not rebooted by the campaign */
	const char *snapshot_time;  /* the controller's time at the snapshot */
	const struct snapshot *snapshot;
	const struct fetch *fetch;
	const char *verify_summary; /* one line; "ok" when every check held */
	const json_t *proof;        /* the verify's proof levels (proof_levels_json()); may be NULL */
};

/*
 * Writes dir (created; must not hold a meta.json yet: a side is never
 * overwritten). Row problems (an output no parser accepts, a rep that
 * failed or timed out, a gate timeout) are recorded in meta.json and
 * appended to warnings, one line each. meta.json is written last, and
 * only when every other file was written, so its presence means the side
 * is complete. A directory without meta.json (a crash or a failed write
 * part-way) is written again in place. Returns 0 or -errno (-EEXIST: the
 * side exists already; -ENOSPC and the like: a file could not be written,
 * and there is no meta.json).
 */
int side_write(const char *dir, const struct side_record *record, struct strlist *warnings);

#endif
