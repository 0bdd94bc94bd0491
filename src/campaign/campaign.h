#ifndef BOOTAB_CAMPAIGN_H
#define BOOTAB_CAMPAIGN_H

#include <stdbool.h>
#include <signal.h>

#include "lib/process.h"
#include "report/compare-report.h"
#include "target/target.h"

/*
 * A whole campaign from one plan: for each boot, set the mode's args,
 * reboot, verify from sysfs, snapshot, run the per-boot script detached on
 * the target, fetch its results into the boot's side directory; then the
 * report. Every finished step is journalled, so a campaign that stops at
 * any point continues with campaign_run() given its directory as
 * resume_dir (bootab run --resume) and never repeats a finished boot or
 * mixes two boots' data.
 */

enum campaign_level {
	CAMPAIGN_INFO,
	CAMPAIGN_WARNING,
	CAMPAIGN_ERROR,
};

struct campaign_options {
	const char *plan_path;        /* new campaign */
	const char *resume_dir;       /* or: continue this one */
	const char *data_dir;         /* overrides [campaign] data */
	const char *root;             /* target = local in a tree (tests, images): paths inside it */
	/* How the box is opened: the shell that runs scripts, how a sudo password is asked. */
	const char *target_shell;     /* NULL: sh */
	target_ask_password_fn ask_password; /* NULL: sudo must work without a password */
	bool dry_run;                 /* print what would run; touch nothing */
	/* Progress and problems, one line each (the command prints them). */
	void (*say)(void *ctx, enum campaign_level level, const char *line);
	void *say_ctx;
	/* Set from a signal handler: stop at the next safe point. */
	volatile sig_atomic_t *interrupted;
	/* Tests only: stop (as if interrupted) once this journal step is written ("boot 2 started"). */
	const char *stop_after;
	/*
	 * target = local in a tree (root): what stands in for the reboot,
	 * since a tree cannot reboot (tests play firmware and boot loader with
	 * it; it ends with SIGTERM to bootab, as a shutdown does). Returns as
	 * process_run() does, *ret filled on 0. NULL: the campaign stops
	 * before its first reboot.
	 */
	int (*reboot_tree)(void *ctx, struct process_result *ret);
	void *reboot_tree_ctx;
};

struct campaign_result {
	char *dir;                    /* the campaign directory */
	bool finished;                /* every boot done and the report written */
	bool resumable;               /* stopped part-way; campaign_run() with resume_dir continues */
	bool data_error;              /* stopped because the data directory could not be
					 written (full, read-only); nothing recorded was lost */
	bool rebooting;               /* target = local: the box is rebooting; the unit resumes */
	double total_s, reboot_s, gate_s, rows_s;   /* wall time and its parts, this run */
};

/*
 * Runs (or resumes) a campaign. When it finishes, after the report, the
 * boots of its first mode go into the machine's calibration history
 * (history_default_path(), or the plan's [campaign] history; not with
 * history = off) if every side names the same machine_id; a history that
 * cannot be written is a warning. Returns 0 when it finished, -EINTR when
 * interrupted (resumable), other -errno when it stopped on a problem
 * (say() told which, and which config the box is on); *ret is filled in
 * every case and released with campaign_result_release().
 */
int campaign_run(const struct campaign_options *options, struct campaign_result *ret);

/*
 * "campaign finished in 13 s: reboots 1 s, idle gates 2 s, rows 2 s,
 * bootab's own steps 7.6 s (58.5 %)" (caller's). The gates and rows are
 * measured on the target (in hundredths of a second where its runner
 * recorded them, else whole seconds) and may include time before this run (a
 * resume fetching rows an earlier run started): when they add up to more
 * than the run took, bootab's own share is not printed, never negative.
 */
char *campaign_result_summary(const struct campaign_result *result);

void campaign_result_release(struct campaign_result *result);

/* What bootab report may ask beyond the plan's own statistics. */
struct campaign_report_request {
	/* "mean,min" (every row) or "ROW=mean,min" (one row): compared by these statistics. */
	const struct strlist *stats;
	/* Also the report in text_format into *ret_text: mail and csv, which no file holds, or any. */
	bool text;
	enum report_format text_format;
	/* Write nothing into the campaign directory: the reports there stay as they were. */
	bool no_files;
	/* The txt or md report in *ret_text ends with the long legend (the files keep the short one). */
	bool legend_long;
	/* The txt report in *ret_text is wrapped to this many columns (0: as the file, 100). */
	unsigned width;
};

/*
 * Writes report.txt, report.md, report.json and report.html of the campaign
 * in dir from its side directories, judged with the machine's calibration
 * history when there is one (the plan's [campaign] history, else the
 * sides' machine's default file; none with history = off), with request
 * applied to every report it writes. It records nothing into the history:
 * campaign_run() does that once, when the campaign finishes. Returns 0 with *ret_text (the caller's; NULL unless request->text, and
 * NULL when fewer than two boots are recorded, except for txt and md,
 * which then hold the campaign's head alone), or -EINVAL for a statistic
 * that is not one (say() names it), or -errno.
 */
int campaign_report_request(const char *dir, const struct campaign_options *options,
			    const struct campaign_report_request *request, char **ret_text);

/*
 * The level a campaign's boot-level tests claim at: with rounds = auto,
 * its last look's (compare_sequential_alpha() at the round its recorded
 * sides complete); else 0.05 (COMPARE_ALPHA_DEFAULT). *ret_done (may be
 * NULL): that round, 0 for a fixed campaign or none complete.
 */
struct plan;
struct side;
double campaign_alpha(const struct plan *plan, const struct side *sides, size_t n_sides, unsigned *ret_done);

/* "<plan file name without .ini>-<UTC time>": a new campaign's (or fleet's) directory name (caller's). */
char *campaign_name_for(const char *plan_path);

#endif
