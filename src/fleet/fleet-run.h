#ifndef BOOTAB_FLEET_FLEET_RUN_H
#define BOOTAB_FLEET_FLEET_RUN_H

#include <stdbool.h>
#include <stddef.h>

#include "fleet/ansible-inventory.h"
#include "campaign/campaign.h"

/*
 * bootab run of a fleet plan: every box's campaign side by side, one
 * process each (its own SSH control master, journal, lock and signal
 * state), under one fleet directory:
 *
 *   DATA/<plan>-<time>/            the fleet directory (locked while it runs)
 *     plan.ini                     the fleet plan as given
 *     boxes                        "bootab-fleet 2", then "NAME DESTINATION" a line
 *     box/NAME/NAME.ini            the box's plan: the fleet plan with target = DESTINATION
 *     box/NAME/NAME-<time>/        the box's campaign, as bootab run makes it
 *     report.txt report.md         the pooled report (bootab report --fleet), once
 *     report.json                  two or more boxes have finished
 *
 * The fleet directory is taken with one mkdir (dir_create_new()) before
 * anything is written in it. A box that fails or hangs stops no other box;
 * the fleet ends when the last box's campaign ends, and [campaign]
 * box_timeout bounds each box (SIGTERM, then SIGKILL 60 s later). Resuming the fleet directory resumes every box
 * that has not finished where it stopped (a box whose campaign never
 * started starts) and leaves the finished ones alone. A fleet directory
 * of format 1 (its boxes file "bootab-fleet 1", each box's directory
 * NAME/ beside the fleet's files) is resumed in its own layout.
 */

struct fleet_run_options {
	const char *plan_path;        /* a new fleet */
	const char *resume_dir;       /* or: continue this one */
	const char *data_dir;         /* overrides [campaign] data */
	/*
	 * Each box's campaign options start as a copy of these (say, interrupted,
	 * ask_password ...); box_setup (may be NULL) then adjusts them in the box's
	 * process, and *ret_local asks for the box to run as target = local
	 * (tests: a --root tree per box).
	 */
	const struct campaign_options *box_options;
	void (*box_setup)(void *ctx, const char *box, struct campaign_options *options, bool *ret_local);
	void *box_setup_ctx;
	/* Lines of a box's campaign, prefixed by the box in the box's process, and the fleet's own (box NULL). */
	void (*say)(void *ctx, const char *box, enum campaign_level level, const char *line);
	void *say_ctx;
};

enum fleet_box_outcome {
	FLEET_BOX_FINISHED,
	FLEET_BOX_STOPPED,            /* resumable */
	FLEET_BOX_FAILED,             /* stopped on a problem its campaign named */
};

struct fleet_run_result {
	char *dir;                    /* the fleet directory; NULL when none was made */
	size_t n_boxes;
	char **box_names;
	enum fleet_box_outcome *outcomes;
	size_t n_finished;
	char *report_path;            /* report.txt, when written */
};

/*
 * Runs or resumes a fleet. Returns 0 when every box finished, -EAGAIN when
 * some did not (*ret says which; the fleet resumes), -EINVAL for a plan or
 * directory that is not a fleet's, -errno when the fleet directory cannot
 * be made or locked; say() named the problem. *ret is filled in every case
 * (fleet_run_result_release()).
 */
int fleet_run(const struct fleet_run_options *options, struct fleet_run_result *ret);

/* Whether dir is a fleet directory (it has a boxes file). */
bool fleet_dir_is(const char *dir);

void fleet_run_result_release(struct fleet_run_result *result);

#endif
