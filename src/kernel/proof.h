#ifndef BOOTAB_PROOF_H
#define BOOTAB_PROOF_H

#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>

#include "kernel/snapshot.h"
#include "kernel/verify.h"

/*
 * The built-in meaning of kernel parameters: one table (src/kernel/proof.c,
 * listed in docs/proof.md), one entry per parameter family, each naming
 * the kernel document that defines it and the sysfs or procfs file that
 * shows it took effect. A new parameter is one entry and its test.
 *
 * Each entry judges one asked arg against a snapshot and adds checks to a
 * verify report, each at a level (enum proof_level, kernel/verify.h).
 */

/* "cmdline only", "evidence", "proven". */
const char *proof_level_name(enum proof_level level);
/* The level named s (as proof_level_name() writes it); -EINVAL for any other text. */
int proof_level_parse(const char *s, enum proof_level *ret);

/* One entry of the table, as docs and `bootab verify --list` show it. */
struct proof_param {
	const char *params;  /* "pti=on|off|auto, nopti" */
	const char *reads;   /* "the pti flag in /proc/cpuinfo" */
	const char *doc;     /* "kernel-parameters.txt (pti=), Documentation/arch/x86/pti.rst" */
};

/* The table's entries in match order; *ret_n set. Borrowed, static. */
const struct proof_param *proof_params(size_t *ret_n);

/*
 * Judges every asked arg (the last occurrence of a name wins, as in the
 * kernel) against snap and appends the checks to report. Args no entry
 * knows get one note at the cmdline-only level.
 */
void proof_judge(const struct snapshot *snap, const struct verify_args *asked,
		 struct verify_report *report);

/*
 * The level each asked arg reached in report (checks whose arg is that
 * arg's text): the strongest level of a check that held or a note of
 * evidence, else cmdline only. ret[i] for asked->v[i]; ret has asked->n
 * slots. Returns the weakest over the args, or -1 when nothing was asked.
 */
int proof_levels(const struct verify_report *report, const struct verify_args *asked,
		 enum proof_level *ret);

/*
 * {"level": "proven"|"evidence"|"cmdline only"|null, "args": [{"arg", "level"}...]}
 * for meta.json's "proof" (docs/results-format.md). New reference.
 */
json_t *proof_levels_json(const struct verify_report *report, const struct verify_args *asked);

/* What a mode's setting can change on a box, judged on its standing boot. */
enum touch_verdict {
	TOUCH_CHANGES,       /* the standing boot is not in the state the arg asks for */
	TOUCH_NOTHING,       /* already so, or the box has nothing it acts on: a warning */
	TOUCH_UNKNOWN,       /* nothing in sysfs tells */
};

struct touch_item {
	char *arg;           /* "pti=off" */
	enum touch_verdict verdict;
	char *text;          /* "the pti flag is absent already (meltdown: Not affected)" */
};

struct touch_map {
	struct touch_item *v;
	size_t n, alloc;
};

/*
 * For every arg of a mode: whether it can change anything on the box
 * whose standing boot is standing. watch (may be NULL) is the device of
 * the plan's hypothesis: iommu=pt can change nothing when it is already
 * identity. Appends to *ret; release with touch_map_release().
 */
void proof_touch(const struct snapshot *standing, const struct verify_args *mode_args,
		 const char *watch, struct touch_map *ret);
void touch_map_release(struct touch_map *map);

#endif
