#ifndef BOOTAB_CAMPAIGN_TOUCH_H
#define BOOTAB_CAMPAIGN_TOUCH_H

#include "plan/plan.h"
#include "kernel/snapshot.h"
#include "lib/strbuf.h"
#include "lib/strlist.h"
#include "target/target.h"

/*
 * What each mode of a plan can change on its box, judged from the
 * standing boot before anything changes (the case study's rule: check
 * what the setting touches before measuring it). Each arg is judged by
 * the proof table (kernel/proof.h) as if the standing boot were the mode:
 * where the proof already holds, or the box has nothing the arg acts on,
 * the setting can change nothing, and that is a warning, never a stop.
 */

/* The file in a campaign directory that keeps the map for the report. */
#define TOUCH_FILE "touch.txt"

/*
 * Snapshots the standing boot of t with what every mode's proofs read
 * (as root for the kernel log; without root, sysfs alone), with_kernel
 * also the kernel's records (kernel-id.sh, its config included); beside
 * (NULL: none) one more script run at the same time, its answer in
 * beside_ret (target_snapshot_options' beside). Returns 0
 * or -errno with target_error(t) or err saying why; *ret untouched then.
 */
int touch_snapshot(struct target *t, const struct plan *plan, bool with_kernel, const struct target_job *beside,
		   struct process_result *beside_ret, struct snapshot *ret, struct parse_error *err);

/*
 * The map as text, one line per arg of every mode after a heading, and
 * each "can change nothing" as one line in warnings ("mode M: ARG can
 * change nothing on this box: WHY"), also in the text as "warning: ...".
 */
void touch_map_format(const struct plan *plan, const struct snapshot *standing, struct strbuf *text,
		      struct strlist *warnings);

/*
 * Reads a campaign's touch.txt back: its text (the caller's; NULL when
 * there is none) and its warning lines appended to warnings.
 */
int touch_map_load(const char *campaign_dir, char **ret_text, struct strlist *warnings);

#endif
