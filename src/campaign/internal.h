#ifndef BOOTAB_CAMPAIGN_INTERNAL_H
#define BOOTAB_CAMPAIGN_INTERNAL_H

/*
 * What the files of src/campaign/ share to run one campaign; nothing
 * outside src/campaign/ includes this. campaign.c is the run loop and the
 * step machine; each step lives with its concern:
 *   steps.c     the journal: a boot's steps as it records them, read back on resume
 *   bring-up.c  set the mode, reboot into it, verify it; back to the standing config
 *   oneshot.c   test modes booted once through systemd-boot's LoaderEntryOneShot
 *               or GRUB's next_entry
 *   kernels.c   each mode's kernel: found before anything changes, the standing one restored
 *   local.c     target = local: bootab reboots its own box, a systemd unit resumes it
 *   rows.c      start the per-boot runner (runner.c) on the target and wait for it
 *   collect.c   fetch a boot's results into its side directory (side-write.c)
 *   report.c    the report and the calibration history at the end
 *   dry-run.c   what a campaign would run, printed
 *   progress.c  what the steps share: saying, progress lines, the stop flag,
 *               the data directory's room, a boot's run directory
 *   lava.c      target = lava: each boot a LAVA job (lava-job.c writes it,
 *               lava-results.c reads LAVA's answers)
 */

#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>

#include "campaign/campaign.h"
#include "boot/bls.h"
#include "plan/plan.h"
#include "campaign/progress.h"

struct snapshot;
struct bls_entries;

enum step {
	STEP_NONE,
	STEP_BEGIN,
	STEP_SET,
	STEP_REBOOTING,         /* target = local: the reboot is issued, bootab resumes after it */
	STEP_REBOOTED,
	STEP_VERIFIED,
	STEP_STARTED,
	STEP_DONE,
	STEP_FAILED,
};

struct boot_progress {
	enum step step;
	char *boot_id;          /* from "rebooted" */
	double reboot_s;
	char *boot_id_before;
	char *rebooting_from;   /* from "rebooting": the boot_id the reboot left */
	double rebooting_at;    /* and the wall-clock time it was issued */
	json_t *proof;          /* the last verify's proof levels (meta.json "proof"), or NULL */
	size_t seen;            /* progress lines of the started run already shown ("progress N") */
	long lava_job;          /* target = lava: the job of this boot ("started lava-job:ID"); 0: none */
};

struct campaign {
	const struct campaign_options *o;
	struct campaign_result *res;
	struct plan plan;
	char *dir;
	char *name;
	char *journal;
	struct plan_boot *boots;
	size_t n_boots;
	char **managed;
	struct boot_progress *progress;
	struct target *target;
	double started;
	bool oneshot;              /* test modes boot one-shot (systemd-boot or GRUB) */
	bool oneshot_grub;         /* ... through GRUB's next_entry and bootab's custom.cfg entry */
	bool oneshot_grubby;       /* ... through grub2-reboot and bootab's BLS entry (Fedora GRUB) */
	char *oneshot_path;        /* the one-shot entry this run wrote, until removed (NULL: not known) */
	double done_at;            /* when the last boot of this run finished */
	size_t done_this_run;
	unsigned decided_round;        /* rounds = auto: the round whose look decided it; 0: not decided */
	bool local;                /* target = local: bootab runs on the box it reboots */
	char *rows_user;           /* local: who bench rows run as when the plan does not say */
	bool reboot_issued;        /* local: this process asked the box to reboot */
	char *abs_dir;             /* local: the campaign directory, absolute (the unit names it) */
	char *exe;                 /* local: this program, absolute (the unit runs it) */
	char *standing_kernel;     /* plans with kernels: uname -r when the campaign began */
	char **mode_kernel;        /* per mode: the kernel spec it boots; NULL: the plan names none */
	char **mode_release;       /* per mode: the release uname -r must print; NULL: not checked */
	char *lava_token;          /* target = lava: the API token (never in argv, files or logs) */
	int lock_fd;               /* the campaign directory's lock, when locked */
	bool locked;
	/* The kernel configs this run's verify snapshots read, one per build:
	 * a later boot of the same build takes its config from here. */
	struct snapshot_config_memo *config_memos;
	size_t n_config_memos;
};

/* The one-shot entry's file name, next to the default entry (systemd-boot). */
#define ONESHOT_ENTRY BLS_ONESHOT_ENTRY
/* The journal line a campaign with kernels records once: the release the box ran when it began. */
#define JOURNAL_STANDING_KERNEL "standing-kernel "

/* The entry the reboot boots once: the BLS entry id or GRUB's menu entry id. */
const char *oneshot_entry_id(const struct campaign *c);

/*
 * touch.c: before the first boot of a new campaign, what each mode can
 * change on the box, from its standing boot: said (a warning per arg that
 * can change nothing, never a stop) and kept in the campaign's touch.txt
 * for the report. A snapshot that fails is a warning too. The dump of the
 * boot loader's files io reads from (the one-shot check, the kernels) runs
 * beside its snapshot.
 */
void campaign_touch_preflight(struct campaign *c, struct boot_io *io);

/*
 * rows.c: the plan's [prepare] on boot k, each command as root after
 * verify and before the rows; their output and exit codes kept in the
 * side directory's prepare.json (side_write() takes them into meta.json
 * and meta.txt). Returns 0, -EPROTO when a command failed (said: the boot
 * fails as a failed verify does), or -errno when one could not run.
 */
int campaign_prepare(struct campaign *c, size_t k);

/* steps.c: the journal's name of a step ("rebooted"). */
const char *campaign_step_name(enum step step);
/* steps.c: appends "boot K LABEL STEP [EXTRA]" and moves boot k to step; -EINTR at stop_after. */
int campaign_journal_step(struct campaign *c, size_t k, enum step step, const char *extra);
/*
 * steps.c: appends "boot K LABEL progress N TIME": the first N progress
 * lines of boot k's run were shown, the last at TIME (the controller's
 * clock, seconds since the epoch); a resumed watch starts after them.
 */
int campaign_journal_seen(struct campaign *c, size_t k, size_t seen);
/* steps.c: reads the journal into c->progress (and a local campaign's rows user). */
int campaign_load_journal(struct campaign *c);

/* bring-up.c: sets mode's args on every entry and checks them; -EIO when the check failed. */
int campaign_set_mode(struct campaign *c, size_t k, size_t mode);
/* bring-up.c: reboots into boot k and journals "rebooted". */
int campaign_reboot(struct campaign *c, size_t k);
/* bring-up.c: keeps the new boot's ids and the reboot's length, journals "rebooted". */
int campaign_record_rebooted(struct campaign *c, size_t k, const char *before, const char *after, double secs);
/* bring-up.c: snapshot and verify; -EPROTO when verify failed (*ret kept then too). */
int campaign_verify(struct campaign *c, size_t k, struct snapshot *ret, char **ret_summary);
/*
 * bring-up.c: campaign_verify()'s checks on a snapshot taken elsewhere (a
 * LAVA job's): given is moved into *ret in every case where it returns 0
 * or -EPROTO.
 */
int campaign_verify_snapshot(struct campaign *c, size_t k, struct snapshot *given, struct snapshot *ret,
			     char **ret_summary);
/* bring-up.c: after a failure, back to the standing config (or the intact one-shot's) and into it. */
void campaign_restore_standing(struct campaign *c, size_t k);
void campaign_restore_oneshot(struct campaign *c);

/* oneshot.c */
bool campaign_boot_is_oneshot(const struct campaign *c, size_t k);
int oneshot_set(struct campaign *c, size_t k);
void oneshot_remove_entry(struct campaign *c);

/* bring-up.c: a config this snapshot read, for the later boots of its kernel's build (one memo a build). */
void campaign_remember_config(struct campaign *c, const struct snapshot *snap);
/* Just before the reboot of one-shot boot k, where the boot loader is told
 * here rather than by the reboot script (grub2-reboot on a grubby box): 0,
 * or -errno, said. */
int oneshot_arm(struct campaign *c, size_t k);
/* Whether test modes boot one-shot here, read through io (the preflight's). */
int oneshot_decide(struct campaign *c, struct boot_io *io);

/*
 * kernels.c: lists the kernels the boot loader can boot and finds every
 * mode's (a plan without `kernel` keys only has them listed); -ENOENT,
 * said with the list, when one is not installed. Nothing changes on the box.
 * Reads through io (the preflight's: what oneshot_decide() read is not read again).
 */
int campaign_kernels_preflight(struct campaign *c, struct boot_io *io);
/* kernels.c: the kernel spec mode boots and the release it must show; NULL when the plan names none. */
const char *campaign_mode_kernel(const struct campaign *c, size_t mode);
const char *campaign_mode_release(const struct campaign *c, size_t mode);
/* kernels.c: the index of the entry booting mode's kernel in entries; -ENOENT. */
int campaign_kernel_entry(struct campaign *c, const struct bls_entries *entries, size_t mode,
			  size_t *ret_index);
/* kernels.c: at the end, the standing kernel is the default again (when the first mode ran another). */
void campaign_kernel_restore(struct campaign *c);
void campaign_kernels_release(struct campaign *c);

/* local.c: target = local. */
bool local_user_name_ok(const char *s);
int local_setup(struct campaign *c);
int local_issue_reboot(struct campaign *c, const char *oneshot_entry);
int local_await_shutdown(struct campaign *c);
void local_unit_remove(struct campaign *c);
int local_reboot(struct campaign *c, size_t k);
int local_after_reboot(struct campaign *c, size_t k);

/*
 * rows.c: starts boot k's runner on the target (journals "started"); waits
 * for "done", *ret_fetch_fd then the results as the watch carried them on
 * after it (a nameless file for campaign_fetch(), or -1: not carried).
 */
int campaign_start_rows(struct campaign *c, size_t k);
int campaign_wait_rows(struct campaign *c, size_t k, int *ret_fetch_fd);

/*
 * collect.c: boot k's results into its side directory, journals "done":
 * those in carried_fd (taken, when >= 0), else fetched with run-fetch.sh.
 */
int campaign_fetch(struct campaign *c, size_t k, const struct snapshot *snap, const char *verify_summary,
		   int carried_fd);
/* collect.c: a nameless temporary file in the campaign directory for boot k's results; an fd or -errno (said unless quiet). */
int campaign_fetch_file(struct campaign *c, size_t k, bool quiet);
/* collect.c: boot k's side written from its snapshot and fetched files, journals "done". */
struct fetch;
int campaign_write_side(struct campaign *c, size_t k, const struct snapshot *snap, const char *verify_summary,
			const struct fetch *f);
/* collect.c: moves an unfinished side directory of boot k aside. */
void campaign_set_aside(struct campaign *c, size_t k);

/*
 * report.c: campaign_report_request(), and with record also the first
 * mode's boots added to the history (request and ret_text NULL: none).
 */
int campaign_write_report(const char *dir, const struct campaign_options *o, bool record,
			  const struct campaign_report_request *request, char **ret_text);

/*
 * report.c: a look of a rounds = auto campaign at its recorded boots, by
 * the report's own comparison at the look's boundary: *ret_decided when
 * every boot-level test is decided; *ret_line (the caller's, may be NULL
 * on error) says how many are. Returns 0 or -errno (nothing written).
 */
int campaign_look(const char *dir, const struct campaign_options *o, bool *ret_decided, char **ret_line);

/* lava.c: target = lava: the token read (0600 file or environment) and lava/ made; -errno, said. */
int lava_setup(struct campaign *c);
/*
 * lava.c: boot k as a LAVA job: written and submitted (its id journalled
 * first thing), waited for, its log read back, verified, its side
 * written. A job that does not complete is a failed boot (-EIO, LAVA's
 * reason said); -EINTR when asked to stop (the job goes on, --resume
 * waits for it).
 */
int lava_run_boot(struct campaign *c, size_t k);
/* lava.c: boot k's job definition (the caller's). */
char *lava_campaign_job(struct campaign *c, size_t k);

/* dry-run.c: prints what the campaign would run. */
void campaign_dry_run(struct campaign *c);

#endif
