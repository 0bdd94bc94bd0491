#ifndef BOOTAB_SIDE_WRITE_H
#define BOOTAB_SIDE_WRITE_H

#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>

#include "results/fetch.h"
#include "lib/strlist.h"
#include "plan/plan.h"
#include "kernel/snapshot.h"

/*
 * Writes one boot's side directory from what the campaign gathered: the
 * snapshot taken after verify, and the files the per-boot script left on
 * the target (fetch). Every row's raw output is kept under rows/, the
 * script under scripts/; each bench row's output goes through its parser
 * into meta.json's metrics. docs/results-format.md describes the result.
 */
struct side_record {
	const struct plan *plan;
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
