#include "campaign/campaign.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statvfs.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "target/boot-io-target.h"
#include "campaign/boot-script.h"
#include "boot/bls.h"
#include "boot/set.h"
#include "judge/compare.h"
#include "campaign/fetch.h"
#include "judge/history.h"
#include "campaign/journal.h"
#include "lib/alloc.h"
#include "lib/clock.h"
#include "lib/file.h"
#include "lib/shell-quote.h"
#include "lib/strbuf.h"
#include "campaign/plan.h"
#include "target/reboot.h"
#include "campaign/resume-unit.h"
#include "report/compare-report.h"
#include "campaign/side-write.h"
#include "results/side.h"
#include "kernel/snapshot.h"
#include "target/target.h"
#include "kernel/verify.h"

/* The controller stops before a reboot when its data directory has less free. */
#define MIN_FREE_BYTES ((unsigned long long)64 << 20)
/* Largest file fetched from a boot's run directory. */
#define FETCH_FILE_LIMIT "8388608"

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

static const char *const step_names[] = {
	[STEP_NONE] = "none", [STEP_BEGIN] = "begin", [STEP_SET] = "set",
	[STEP_REBOOTING] = "rebooting",
	[STEP_REBOOTED] = "rebooted", [STEP_VERIFIED] = "verified", [STEP_STARTED] = "started",
	[STEP_DONE] = "done", [STEP_FAILED] = "failed",
};

struct boot_progress {
	enum step step;
	char *boot_id;          /* from "rebooted" */
	double reboot_s;
	char *boot_id_before;
	char *rebooting_from;   /* from "rebooting": the boot_id the reboot left */
	double rebooting_at;    /* and the wall-clock time it was issued */
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
	bool oneshot;              /* test modes boot one-shot (systemd-boot) */
	double done_at;            /* when the last boot of this run finished */
	size_t done_this_run;
	bool local;                /* target = local: bootab runs on the box it reboots */
	char *rows_user;           /* local: who bench rows run as when the plan does not say */
	bool reboot_issued;        /* local: this process asked the box to reboot */
	char *abs_dir;             /* local: the campaign directory, absolute (the unit names it) */
	char *exe;                 /* local: this program, absolute (the unit runs it) */
};

static void say(const struct campaign *c, enum campaign_level level, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int report(const char *dir, const struct campaign_options *o, bool record);

static void say(const struct campaign *c, enum campaign_level level, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	if (c->o->say)
		c->o->say(c->o->say_ctx, level, strbuf_str(&sb));
	strbuf_release(&sb);
}

static bool interrupted(const struct campaign *c)
{
	return c->o->interrupted && *c->o->interrupted;
}

static const char *elapsed(const struct campaign *c, char *buf, size_t size)
{
	double s = clock_now_s() - c->started;

	snprintf(buf, size, "%02d:%02d:%02d", (int)(s / 3600), (int)(s / 60) % 60, (int)s % 60);
	return buf;
}

static void progress(const struct campaign *c, size_t k, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* "[00:03:12] boot 2/5 strict: rebooting (ETA 00:09:40)" */
static void progress(const struct campaign *c, size_t k, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	char t[32];
	size_t done = 0;
	va_list ap;

	for (size_t i = 0; i < c->n_boots; i++)
		done += c->progress[i].step == STEP_DONE;
	strbuf_addf(&sb, "[%s] boot %zu/%zu %s: ", elapsed(c, t, sizeof(t)), k + 1, c->n_boots,
		    c->boots[k].label);
	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	if (c->done_this_run > 0 && done < c->n_boots) {
		/* The boots so far set the pace; the current one has run since the last finished. */
		double per = (c->done_at - c->started) / (double)c->done_this_run;
		double left = per * (double)(c->n_boots - done) - (clock_now_s() - c->done_at);

		/* Past the estimate there is nothing honest to say. */
		if (left >= 1)
			strbuf_addf(&sb, " (ETA %02d:%02d:%02d)", (int)(left / 3600), (int)(left / 60) % 60,
				    (int)left % 60);
	}
	say(c, CAMPAIGN_INFO, "%s", strbuf_str(&sb));
	strbuf_release(&sb);
}

static int journal_step(struct campaign *c, size_t k, enum step step, const char *extra)
{
	int r = journal_appendf(c->journal, "boot %zu %s %s%s%s", k + 1, c->boots[k].label,
				step_names[step], extra ? " " : "", extra ? extra : "");
	char stop[128];

	if (r < 0) {
		say(c, CAMPAIGN_ERROR, "cannot write the journal %s: %s", c->journal, strerror(-r));
		c->res->data_error = true;
		return r;
	}
	c->progress[k].step = step;
	snprintf(stop, sizeof(stop), "boot %zu %s", k + 1, step_names[step]);
	if (c->o->stop_after && !strcmp(c->o->stop_after, stop)) {
		say(c, CAMPAIGN_WARNING, "stopping after '%s' as asked", stop);
		return -EINTR;
	}
	return 0;
}

/*
 * Room to record a boot's results: checked when the campaign starts (before
 * anything on the target changes) and before every reboot, so a full or
 * read-only disk stops the campaign while the box is on a known boot.
 */
static int check_data_dir(struct campaign *c, const char *when)
{
	struct statvfs st;
	char *probe = path_join(c->dir, ".write-test");
	int r = file_write_atomic(probe, "ok\n", 3, 0600);

	unlink(probe);
	free(probe);
	if (r < 0) {
		say(c, CAMPAIGN_ERROR, "the data directory %s is not writable (%s): stopping %s",
		    c->dir, strerror(-r), when);
		c->res->data_error = true;
		return r;
	}
	if (statvfs(c->dir, &st) == 0 &&
	    (unsigned long long)st.f_bavail * st.f_frsize < MIN_FREE_BYTES) {
		c->res->data_error = true;
		say(c, CAMPAIGN_ERROR, "the data directory %s has %.1f MiB free, less than the 64 MiB a boot's results may need: stopping %s",
		    c->dir, (double)st.f_bavail * (double)st.f_frsize / (1 << 20), when);
		return -ENOSPC;
	}
	return 0;
}

static char *remote_dir(const struct campaign *c, size_t k)
{
	/* A local target in a tree (--root) keeps the run directories in the tree too. */
	const char *root = c->local && c->o->root ? c->o->root : "";

	return xasprintf("%s/var/tmp/bootab/%s/%s", root, c->name, c->boots[k].label);
}

#define ONESHOT_ENTRY "bootab-oneshot.conf"

/* Whether this boot is a one-shot boot: a test mode on a one-shot capable box. */
static bool boot_is_oneshot(const struct campaign *c, size_t k)
{
	return c->oneshot && c->boots[k].mode != 0;
}

/*
 * A one-shot boot leaves every standing entry as it is and writes one more
 * entry: the default entry with the mode's args. systemd-boot boots it
 * once (LoaderEntryOneShot); a box that hangs comes back on the default
 * entry after a power cycle.
 */
static int step_set_oneshot(struct campaign *c, size_t k)
{
	struct boot_io *io = boot_io_target_new(c->target);
	struct bls_entries entries = { 0 };
	struct parse_error err = PARSE_ERROR_INIT;
	char *rule = NULL, *text = NULL, *path = NULL, *options = NULL;
	size_t def;
	int r;

	r = bls_entries_read(io, &entries, &err);
	if (r == 0)
		r = bls_default_entry(io, &entries, &def, &rule);
	if (r < 0) {
		say(c, CAMPAIGN_ERROR, "boot %zu %s: cannot find the default boot entry: %s", k + 1,
		    c->boots[k].label, err.message ? err.message : strerror(-r));
		goto out;
	}
	r = bls_entry_edit(entries.entries[def].text, c->managed, c->plan.modes[c->boots[k].mode].args,
			   &text, &err);
	if (r < 0) {
		say(c, CAMPAIGN_ERROR, "boot %zu %s: cannot edit %s: %s", k + 1, c->boots[k].label,
		    entries.entries[def].path, err.message ? err.message : strerror(-r));
		goto out;
	}
	path = xasprintf("%s/%s", entries.entries[def].dir, ONESHOT_ENTRY);
	r = io->write_file(io, path, text, strlen(text), 0644);
	if (r < 0) {
		say(c, CAMPAIGN_ERROR, "boot %zu %s: cannot write %s: %s", k + 1, c->boots[k].label, path,
		    strerror(-r));
		goto out;
	}
	options = bls_entry_options(text);
	progress(c, k, "one-shot entry %s (from %s): %s", path, entries.entries[def].name, options);
out:
	free(options);
	free(path);
	free(text);
	free(rule);
	bls_entries_release(&entries);
	parse_error_release(&err);
	boot_io_free(io);
	return r;
}

/* The one-shot entry has served once it booted (or failed to): remove it. */
static void remove_oneshot_entry(struct campaign *c)
{
	struct boot_io *io = boot_io_target_new(c->target);

	for (size_t i = 0; bls_entry_dirs[i]; i++) {
		char *path = xasprintf("%s/%s", bls_entry_dirs[i], ONESHOT_ENTRY);

		if (io->exists(io, path) == 1 && io->remove_file(io, path) < 0)
			say(c, CAMPAIGN_WARNING, "cannot remove %s, ignoring", path);
		free(path);
	}
	boot_io_free(io);
}

/* One-shot boots need systemd-boot's entries and efivarfs on the target. */
static int decide_oneshot(struct campaign *c)
{
	struct boot_io *io;
	const struct boot_backend *backend = NULL;
	char *found = NULL;
	bool usable = false;

	if (c->plan.oneshot == ONESHOT_OFF)
		return 0;
	io = boot_io_target_new(c->target);
	if (strcmp(c->plan.backend, "auto"))
		backend = boot_backend_find(c->plan.backend);
	else
		boot_backend_detect(io, &backend, &found);
	if (backend && !strcmp(backend->name, "bls") &&
	    io->exists(io, "/sys/firmware/efi/efivars") == 1)
		usable = true;
	free(found);
	boot_io_free(io);
	if (!usable && c->plan.oneshot == ONESHOT_ON) {
		say(c, CAMPAIGN_ERROR, "oneshot = on, but the target does not boot through systemd-boot entries with efivarfs mounted");
		return -EOPNOTSUPP;
	}
	c->oneshot = usable;
	say(c, CAMPAIGN_INFO, "test modes boot %s", usable ? "one-shot (systemd-boot LoaderEntryOneShot); the standing entries keep the first mode" : "persistently (no one-shot boots on this target)");
	return 0;
}

static int step_set(struct campaign *c, size_t k, size_t mode)
{
	struct boot_io *io = boot_io_target_new(c->target);
	struct boot_set_result res;
	struct parse_error err = PARSE_ERROR_INIT;
	int r;

	r = boot_set(io, c->plan.backend, c->managed, c->plan.modes[mode].args, &res, &err);
	if (r < 0) {
		say(c, CAMPAIGN_ERROR, "boot %zu %s: setting mode %s failed: %s", k + 1, c->boots[k].label,
		    c->plan.modes[mode].name, err.message ? err.message : strerror(-r));
		parse_error_release(&err);
		boot_io_free(io);
		return r;
	}
	if (res.problems[0]) {
		for (char **p = res.problems; *p; p++)
			say(c, CAMPAIGN_ERROR, "boot %zu %s: set check failed: %s", k + 1, c->boots[k].label, *p);
		r = -EIO;
	} else if (res.after.has_default) {
		const struct boot_entry_args *e = &res.after.entries[res.after.default_index];

		progress(c, k, "default entry %s: %s", e->name, e->args);
	}
	boot_set_result_release(&res);
	parse_error_release(&err);
	boot_io_free(io);
	return r;
}

/*
 * target = local: asks the box to reboot. In a tree (--root) nothing can
 * reboot: tests stand in for the firmware and boot loader with the command
 * in BOOTAB_TEST_LOCAL_REBOOT (it ends with SIGTERM to bootab, as a
 * shutdown does).
 */
static int local_issue_reboot(struct campaign *c)
{
	struct process_result res;
	int r;

	if (c->o->root) {
		const char *hook = getenv("BOOTAB_TEST_LOCAL_REBOOT");
		const char *argv[] = { "sh", "-c", hook, NULL };
		struct process_options po = { .timeout_ms = 60000 };

		if (!hook || !*hook) {
			say(c, CAMPAIGN_ERROR, "--root %s: a tree cannot reboot", c->o->root);
			return -EOPNOTSUPP;
		}
		c->reboot_issued = true;
		r = process_run(argv, &po, &res);
	} else {
		const char *args[] = { !strcmp(c->plan.backend, "kexec") ? "kexec" : "reboot", NULL };

		c->reboot_issued = true;
		r = target_run_script(c->target, "reboot", args, NULL, 0, true, 60000, &res);
	}
	if (r < 0) {
		say(c, CAMPAIGN_ERROR, "cannot reboot: %s", c->o->root ? strerror(-r) : target_error(c->target));
		c->reboot_issued = false;
		return r;
	}
	if (res.exit_code != 0 && !interrupted(c)) {
		say(c, CAMPAIGN_ERROR, "the reboot command failed (exit %d): %.*s", res.exit_code,
		    (int)strcspn(res.err, "\n"), res.err);
		process_result_release(&res);
		c->reboot_issued = false;
		return -EIO;
	}
	process_result_release(&res);
	return 0;
}

/*
 * After asking for the reboot: this process ends with the boot (systemd
 * stops it). Returns -ERESTART when it was stopped, -ETIMEDOUT when the
 * box is still up after the boot timeout.
 */
static int local_await_shutdown(struct campaign *c)
{
	double end = clock_now_s() + (c->plan.boot_timeout_s ? c->plan.boot_timeout_s : 300);

	while (clock_now_s() < end) {
		if (interrupted(c))
			return -ERESTART;
		clock_sleep_s(0.2);
	}
	c->reboot_issued = false;
	say(c, CAMPAIGN_ERROR, "the box did not go down within %u s of the reboot command",
	    c->plan.boot_timeout_s);
	return -ETIMEDOUT;
}

/*
 * A local campaign that stops on a failure reboots into the standing
 * config without resuming: the unit goes first.
 */
static void local_unit_remove(struct campaign *c)
{
	int r = resume_unit_remove(c->o->root, c->abs_dir);

	if (r < 0)
		say(c, CAMPAIGN_WARNING, "cannot remove the systemd unit %s: %s", RESUME_UNIT_NAME, strerror(-r));
}

/*
 * The reboot into the standing config after a failure. A local campaign
 * removes its unit first: it stops here and does not resume by itself.
 */
static void reboot_to_standing(struct campaign *c)
{
	struct reboot_options ro = { .timeout_s = c->plan.boot_timeout_s, .power_cycle = c->plan.power_cycle,
				     .kexec = !strcmp(c->plan.backend, "kexec") };
	struct reboot_result rr;

	if (c->local) {
		local_unit_remove(c);
		say(c, CAMPAIGN_WARNING, "rebooting into the standing config; the campaign does not resume by itself (bootab run --resume %s)",
		    c->abs_dir);
		if (local_issue_reboot(c) == 0)
			(void)local_await_shutdown(c);
		return;
	}
	if (reboot_and_wait(c->target, &ro, &rr) == 0)
		say(c, CAMPAIGN_INFO, "the box is back on the standing config (boot_id %s)", rr.after);
	else
		say(c, CAMPAIGN_ERROR, "the box did not come back on the standing config: %s",
		    rr.error ? rr.error : "no answer");
	reboot_result_release(&rr);
}

/* Back to the first mode (the standing config) and into it, after a failure. */
static void restore_standing(struct campaign *c, size_t k)
{
	say(c, CAMPAIGN_WARNING, "restoring the standing config (mode %s) and rebooting into it",
	    c->plan.modes[0].name);
	if (step_set(c, k, 0) < 0) {
		say(c, CAMPAIGN_ERROR, "could not restore the standing config: the box keeps mode %s's entries",
		    c->plan.modes[c->boots[k].mode].name);
		return;
	}
	reboot_to_standing(c);
}

/* After a one-shot boot failed verify: the standing entries are intact, a plain reboot returns to them. */
static void restore_oneshot(struct campaign *c)
{
	say(c, CAMPAIGN_WARNING, "rebooting into the standing config (mode %s): its entries were never changed",
	    c->plan.modes[0].name);
	reboot_to_standing(c);
}

/* A boot came up: keep its ids and the reboot's length, and journal it. */
static int record_rebooted(struct campaign *c, size_t k, const char *before, const char *after, double secs)
{
	struct boot_progress *bp = &c->progress[k];
	char extra[200];

	free(bp->boot_id);
	free(bp->boot_id_before);
	bp->boot_id = xstrdup(after);
	bp->boot_id_before = xstrdup(before);
	bp->reboot_s = secs;
	progress(c, k, "up in %.1f s, boot_id %s", secs, after);
	snprintf(extra, sizeof(extra), "%s %.1f %s", after, secs, before);
	return journal_step(c, k, STEP_REBOOTED, extra);
}

/* Installs the unit that runs bootab run --resume after the reboot. */
static int local_unit_install(struct campaign *c)
{
	const char *argv[8], *env[3];
	char *home = NULL, *xdg = NULL, *other = NULL;
	struct resume_unit u = { .argv = argv, .env = env, .campaign_dir = c->abs_dir, .campaign_name = c->name };
	size_t n = 0, ne = 0;
	int r;

	argv[n++] = c->exe;
	argv[n++] = "run";
	if (c->o->root) {
		argv[n++] = "--root";
		argv[n++] = c->o->root;
	}
	argv[n++] = "--resume";
	argv[n++] = c->abs_dir;
	argv[n] = NULL;
	/* Where the calibration history and the user's settings live. */
	if (getenv("HOME"))
		env[ne++] = home = xasprintf("HOME=%s", getenv("HOME"));
	if (getenv("XDG_DATA_HOME"))
		env[ne++] = xdg = xasprintf("XDG_DATA_HOME=%s", getenv("XDG_DATA_HOME"));
	env[ne] = NULL;
	r = resume_unit_install(c->o->root, &u, &other);
	if (r == -EBUSY)
		say(c, CAMPAIGN_ERROR, "another campaign (%s) is set to resume on this box (%s): finish or stop it first",
		    other, RESUME_UNIT_NAME);
	else if (r == -EINVAL)
		say(c, CAMPAIGN_ERROR, "the campaign directory %s or the program %s cannot be named in a systemd unit (control characters)",
		    c->abs_dir, c->exe);
	else if (r == -EEXIST)
		say(c, CAMPAIGN_ERROR, "/etc/systemd/system/%s exists and is not bootab's: not replacing it",
		    RESUME_UNIT_NAME);
	else if (r < 0)
		say(c, CAMPAIGN_ERROR, "cannot install the systemd unit %s: %s", RESUME_UNIT_NAME, strerror(-r));
	free(other);
	free(home);
	free(xdg);
	return r;
}

/*
 * target = local: journal the boot being left, install the resume unit,
 * reboot. bootab ends with the boot; the unit starts bootab run --resume
 * in the new boot, which takes it from "rebooting".
 */
static int step_reboot_local(struct campaign *c, size_t k)
{
	char *before = NULL, extra[128];
	int r;

	r = target_boot_id(c->target, false, 30000, &before);
	if (r < 0) {
		say(c, CAMPAIGN_ERROR, "boot %zu %s: cannot read this boot's id: %s", k + 1, c->boots[k].label,
		    target_error(c->target));
		return r;
	}
	r = local_unit_install(c);
	if (r < 0) {
		free(before);
		return r;
	}
	snprintf(extra, sizeof(extra), "%s %.3f", before, clock_wall_s());
	free(c->progress[k].rebooting_from);
	c->progress[k].rebooting_from = before;
	c->progress[k].rebooting_at = clock_wall_s();
	r = journal_step(c, k, STEP_REBOOTING, extra);
	if (r < 0)
		return r;
	progress(c, k, "rebooting into mode %s; bootab continues after the boot (systemd unit %s, journalctl -u %s)",
		 c->plan.modes[c->boots[k].mode].name, RESUME_UNIT_NAME, RESUME_UNIT_NAME);
	r = local_issue_reboot(c);
	if (r < 0)
		return r;
	r = local_await_shutdown(c);
	c->res->rebooting = r == -ERESTART;
	return r;
}

/*
 * target = local, resumed after "rebooting": the boot came (a new
 * boot_id: journal it as rebooted) or the reboot never happened (do it
 * again). The reboot's length is wall-clock time on the box across its
 * own reboot: the firmware and boot loader included.
 */
static int local_after_reboot(struct campaign *c, size_t k)
{
	struct boot_progress *bp = &c->progress[k];
	char *now = NULL;
	double secs;
	int r = target_boot_id(c->target, false, 30000, &now);

	if (r < 0) {
		say(c, CAMPAIGN_ERROR, "boot %zu %s: cannot read this boot's id: %s", k + 1, c->boots[k].label,
		    target_error(c->target));
		return r;
	}
	if (!bp->rebooting_from || !strcmp(now, bp->rebooting_from)) {
		say(c, CAMPAIGN_WARNING, "boot %zu %s: the box did not reboot since bootab asked it to: asking again",
		    k + 1, c->boots[k].label);
		bp->step = STEP_SET;
		free(now);
		return 0;
	}
	if (boot_is_oneshot(c, k))
		remove_oneshot_entry(c);
	secs = clock_wall_s() - bp->rebooting_at;
	if (secs < 0 || !isfinite(secs))
		secs = 0;
	c->res->reboot_s += secs;
	r = record_rebooted(c, k, bp->rebooting_from, now, secs);
	free(now);
	return r;
}

static int step_reboot(struct campaign *c, size_t k)
{
	struct reboot_options ro = {
		.timeout_s = c->plan.boot_timeout_s,
		.power_cycle = c->plan.power_cycle,
		.kexec = !strcmp(c->plan.backend, "kexec"),
	};
	struct reboot_result rr;
	int r;

	if (boot_is_oneshot(c, k))
		ro.oneshot_entry = ONESHOT_ENTRY;
	r = check_data_dir(c, "before the reboot");
	if (r < 0)
		return r;
	if (c->local)
		return step_reboot_local(c, k);
	progress(c, k, "rebooting into mode %s", c->plan.modes[c->boots[k].mode].name);
	r = reboot_and_wait(c->target, &ro, &rr);
	if (rr.power_cycled)
		say(c, CAMPAIGN_WARNING, "boot %zu %s: no answer in time, the power-cycle command ran%s",
		    k + 1, c->boots[k].label,
		    ro.oneshot_entry ? "; a one-shot boot that hung comes back on the standing config" : "");
	if (ro.oneshot_entry && r != -EINTR)
		remove_oneshot_entry(c);
	if (r < 0) {
		say(c, CAMPAIGN_ERROR, "boot %zu %s: %s", k + 1, c->boots[k].label,
		    rr.error ? rr.error : strerror(-r));
		reboot_result_release(&rr);
		return r;
	}
	c->res->reboot_s += rr.seconds;
	if (rr.power_cycled && ro.oneshot_entry) {
		/* The test mode never came up: the power cycle brought back the standing config. */
		say(c, CAMPAIGN_ERROR, "boot %zu %s: mode %s did not come up within %u s; after the power cycle the box is on its standing config (mode %s, boot_id %s)",
		    k + 1, c->boots[k].label, c->plan.modes[c->boots[k].mode].name, c->plan.boot_timeout_s,
		    c->plan.modes[0].name, rr.after);
		reboot_result_release(&rr);
		return -EHOSTDOWN;
	}
	r = record_rebooted(c, k, rr.before, rr.after, rr.seconds);
	reboot_result_release(&rr);
	return r;
}

/* Snapshot and verify. Returns the snapshot in *ret (when verify passed or failed: both keep it). */
static int step_verify(struct campaign *c, size_t k, struct snapshot *ret, char **ret_summary)
{
	const struct plan_mode *m = &c->plan.modes[c->boots[k].mode];
	struct verify_args asked;
	struct verify_report report = { 0 };
	struct parse_error err = PARSE_ERROR_INIT;
	struct verify_expect *expects = xcalloc(m->expects.n + 1, sizeof(*expects));
	char **words = NULL;
	size_t n_words = 0, alloc_words = 0, failed;
	struct strbuf sum = STRBUF_INIT;
	int r;

	verify_args_from_list(m->args, &asked);
	verify_snapshot_args(&asked, &words, &n_words, &alloc_words);
	for (size_t i = 0; i < m->expects.n; i++) {
		char *error = NULL;

		/* The plan was checked when it was loaded. */
		if (verify_expect_parse(m->expects.items[i], &expects[i], &error) == 0 &&
		    expects[i].kind == EXPECT_SYSFS) {
			GROW(words, alloc_words, n_words + 2);
			words[n_words++] = xasprintf("file:%s", expects[i].subject);
		}
		free(error);
	}
	GROW(words, alloc_words, n_words + 1);
	words[n_words] = NULL;
	progress(c, k, "verifying from sysfs");
	r = target_snapshot(c->target, (const char *const *)words, true, ret, NULL, &err);
	if (r < 0) {
		say(c, CAMPAIGN_ERROR, "boot %zu %s: snapshot failed: %s", k + 1, c->boots[k].label,
		    err.message ? err.message : target_error(c->target));
		goto out;
	}
	if (c->progress[k].boot_id && strcmp(ret->boot_id, c->progress[k].boot_id)) {
		say(c, CAMPAIGN_ERROR, "boot %zu %s: the box is on boot %s, not %s: it rebooted on its own",
		    k + 1, c->boots[k].label, ret->boot_id, c->progress[k].boot_id);
		snapshot_release(ret);
		r = -ESTALE;
		goto out;
	}
	verify_cmdline(ret, c->managed, m->args, &report);
	verify_semantics(ret, &asked, &report);
	for (size_t i = 0; i < m->expects.n; i++)
		verify_expect_check(ret, &expects[i], &report);
	failed = verify_report_failures(&report);
	for (size_t i = 0; i < report.n; i++) {
		const struct verify_check *v = &report.v[i];

		if (v->status == VERIFY_FAILED) {
			say(c, CAMPAIGN_ERROR, "boot %zu %s: verify failed: %s: expected %s, found %s (read %s)",
			    k + 1, c->boots[k].label, v->what, v->expected ? v->expected : "-",
			    v->found ? v->found : "-", v->where ? v->where : "-");
			strbuf_addf(&sum, "%sFAILED %s: expected %s, found %s", sum.len ? "; " : "", v->what,
				    v->expected ? v->expected : "-", v->found ? v->found : "-");
		}
	}
	if (!failed) {
		size_t judged = 0;

		for (size_t i = 0; i < report.n; i++)
			judged += report.v[i].status == VERIFY_OK;
		strbuf_addf(&sum, "ok (%zu checks)", judged);
		progress(c, k, "verified: %zu checks hold", judged);
		r = 0;
	} else {
		r = -EPROTO;
	}
	*ret_summary = strbuf_detach(&sum, NULL);
out:
	strbuf_release(&sum);
	for (size_t i = 0; i < m->expects.n; i++)
		verify_expect_release(&expects[i]);
	free(expects);
	verify_report_release(&report);
	verify_args_release(&asked);
	strv_free(words);
	parse_error_release(&err);
	return r;
}

static int step_start(struct campaign *c, size_t k)
{
	struct boot_script_options so = {
		.campaign = c->name, .boot_index = k, .n_boots = c->n_boots,
		.label = c->boots[k].label, .mode = c->plan.modes[c->boots[k].mode].name,
		.park = k == 0, .unpark = k + 1 == c->n_boots, .default_user = c->rows_user,
	};
	char *script = boot_script_generate(&c->plan, &so);
	char *dir = remote_dir(c, k), *unit = xasprintf("bootab-%s-%s", c->name, c->boots[k].label);
	const char *args[] = { dir, unit, NULL };
	struct process_result res;
	int r;

	r = target_run_script(c->target, "run-start", args, script, strlen(script), false, 60000, &res);
	if (r < 0) {
		say(c, CAMPAIGN_ERROR, "boot %zu %s: cannot start the rows: %s", k + 1, c->boots[k].label,
		    target_error(c->target));
	} else if (res.exit_code == 3) {
		/* Already started on this boot (a resume after the start was lost): go on polling. */
		process_result_release(&res);
		r = 0;
	} else if (res.exit_code != 0) {
		say(c, CAMPAIGN_ERROR, "boot %zu %s: cannot start the rows (exit %d): %.*s", k + 1,
		    c->boots[k].label, res.exit_code, (int)strcspn(res.err, "\n"), res.err);
		process_result_release(&res);
		r = -EIO;
	} else {
		process_result_release(&res);
	}
	if (r == 0) {
		progress(c, k, "rows started in %s", dir);
		r = journal_step(c, k, STEP_STARTED, dir);
	}
	free(unit);
	free(dir);
	free(script);
	return r;
}

/* The longest a boot's rows may take: every rep's timeout, every gate's. */
static double rows_deadline_s(const struct plan *p)
{
	double s = 120;

	for (size_t i = 0; i < p->n_rows; i++) {
		s += (double)p->rows[i].reps * p->rows[i].timeout_s;
		s += p->idle.timeout_s ? p->idle.timeout_s : 86400.0;
	}
	return s;
}

/*
 * Waits for the per-boot script's status "done", asking at most once per
 * poll interval. A dropped connection is retried; a new boot_id means the
 * box rebooted under the rows, and that boot's data is not used.
 */
static int step_wait(struct campaign *c, size_t k)
{
	char *dir = remote_dir(c, k), *last = NULL;
	const char *args[] = { dir, NULL };
	double start = clock_now_s(), deadline = rows_deadline_s(&c->plan);
	unsigned poll = c->plan.poll_s ? c->plan.poll_s : 60;
	int r = -ETIMEDOUT, failures = 0;

	for (;;) {
		struct process_result res;
		int q;

		if (interrupted(c)) {
			r = -EINTR;
			break;
		}
		q = target_run_script(c->target, "run-status", args, NULL, 0, false, 30000, &res);
		if (q == 0 && res.exit_code == 0) {
			size_t n = strcspn(res.out, "\n");

			failures = 0;
			res.out[n] = '\0';
			if (!last || strcmp(last, res.out)) {
				progress(c, k, "%s", res.out);
				free(last);
				last = xstrdup(res.out);
			}
			process_result_release(&res);
			if (!strcmp(last, "done")) {
				r = 0;
				break;
			}
		} else {
			char *id = NULL;

			if (q == 0)
				process_result_release(&res);
			failures++;
			say(c, CAMPAIGN_WARNING, "boot %zu %s: status not readable (%s), retrying",
			    k + 1, c->boots[k].label, q < 0 ? target_error(c->target) : "no status file");
			target_drop_connection(c->target);
			if (target_boot_id(c->target, true, 15000, &id) == 0) {
				if (c->progress[k].boot_id && strcmp(id, c->progress[k].boot_id)) {
					say(c, CAMPAIGN_ERROR, "boot %zu %s: the box rebooted under the rows (boot_id %s); this boot's data is not used",
					    k + 1, c->boots[k].label, id);
					free(id);
					r = -ESTALE;
					break;
				}
				free(id);
			}
		}
		if (clock_now_s() - start > deadline) {
			say(c, CAMPAIGN_ERROR, "boot %zu %s: the rows did not finish within %.0f s", k + 1,
			    c->boots[k].label, deadline);
			r = -ETIMEDOUT;
			break;
		}
		/* While a row runs the box is not poked more than once per poll interval. */
		for (unsigned i = 0; i < poll * 10 && !interrupted(c); i++)
			clock_sleep_s(0.1);
	}
	free(last);
	free(dir);
	return r;
}

static void add_times(struct campaign *c, const struct fetch *f)
{
	const struct fetched_file *results = fetch_find(f, "results");
	const char *p = results ? results->data : "";

	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		char line[512], a[200], b[40], d[40], e[40];
		unsigned rep;
		int rc;
		long s;

		if (len < sizeof(line)) {
			memcpy(line, p, len);
			line[len] = '\0';
			if (sscanf(line, "gate %199s %39s %ld", a, b, &s) == 3)
				c->res->gate_s += (double)s;
			else if (sscanf(line, "rep %199s %u %d %39s %39s %ld", a, &rep, &rc, d, e, &s) == 6)
				c->res->rows_s += (double)s;
		}
		p += len + (nl ? 1 : 0);
	}
}

static void set_aside(struct campaign *c, size_t k);

/* Whether the complete side in dir (its meta.json) was recorded on boot boot_id. */
static bool side_is_of_boot(const char *dir, const char *boot_id)
{
	struct strlist warnings = STRLIST_INIT;
	struct side side;
	bool same = false;

	if (side_load(dir, &side, &warnings) == 0) {
		same = side.boot_id && boot_id && !strcmp(side.boot_id, boot_id);
		side_release(&side);
	}
	strlist_release(&warnings);
	return same;
}

static int step_fetch(struct campaign *c, size_t k, const struct snapshot *snap, const char *verify_summary)
{
	char *dir = remote_dir(c, k), *side = path_join(c->dir, c->boots[k].label), *now;
	const char *args[] = { dir, FETCH_FILE_LIMIT, NULL };
	struct process_options po = { 0 };
	struct process_result res;
	struct parse_error err = PARSE_ERROR_INIT;
	struct strlist warnings = STRLIST_INIT;
	struct fetch f;
	struct side_record rec;
	int r;

	(void)po;
	progress(c, k, "fetching results");
	r = target_run_script(c->target, "run-fetch", args, NULL, 0, false, 600000, &res);
	if (r < 0 || res.exit_code != 0) {
		say(c, CAMPAIGN_ERROR, "boot %zu %s: fetching %s failed: %s", k + 1, c->boots[k].label, dir,
		    r < 0 ? target_error(c->target) : res.err);
		if (r == 0)
			process_result_release(&res);
		r = r < 0 ? r : -EIO;
		goto out;
	}
	if (res.out_truncated) {
		say(c, CAMPAIGN_ERROR, "boot %zu %s: the results in %s are more than %zu bytes; nothing kept",
		    k + 1, c->boots[k].label, dir, res.out_len);
		process_result_release(&res);
		r = -EFBIG;
		goto out;
	}
	r = fetch_parse(res.out, res.out_len, &f, &err);
	process_result_release(&res);
	if (r < 0) {
		say(c, CAMPAIGN_ERROR, "boot %zu %s: the results from %s do not parse: line %u: %s", k + 1,
		    c->boots[k].label, dir, err.line, err.message);
		goto out;
	}
	add_times(c, &f);
	now = time_now_iso8601();
	rec = (struct side_record){
		.plan = &c->plan, .campaign = c->name, .target = c->plan.target,
		.boot_index = k, .n_boots = c->n_boots, .label = c->boots[k].label,
		.mode = c->plan.modes[c->boots[k].mode].name, .round = c->boots[k].round,
		.boot_id_before = c->progress[k].boot_id_before, .reboot_s = c->progress[k].reboot_s,
		.snapshot_time = now, .snapshot = snap, .fetch = &f, .verify_summary = verify_summary,
	};
	r = side_write(side, &rec, &warnings);
	if (r == -EEXIST) {
		/* The campaign stopped after the side was written, before the journal said so. */
		if (side_is_of_boot(side, c->progress[k].boot_id)) {
			progress(c, k, "results already in %s (written before the campaign stopped)", side);
			r = 0;
		} else {
			set_aside(c, k);
			r = side_write(side, &rec, &warnings);
		}
	}
	free(now);
	for (size_t i = 0; i < warnings.n; i++)
		say(c, CAMPAIGN_WARNING, "%s", warnings.items[i]);
	strlist_release(&warnings);
	fetch_release(&f);
	if (r < 0) {
		say(c, CAMPAIGN_ERROR, "boot %zu %s: cannot write %s: %s (its rows are done; fetched again on --resume)",
		    k + 1, c->boots[k].label, side, strerror(-r));
		c->res->data_error = true;
		goto out;
	}
	progress(c, k, "results in %s", side);
	r = journal_step(c, k, STEP_DONE, NULL);
	c->done_at = clock_now_s();
	c->done_this_run++;
out:
	parse_error_release(&err);
	free(side);
	free(dir);
	return r;
}

/* A side directory left by a boot that did not finish is moved aside, never mixed in. */
static void set_aside(struct campaign *c, size_t k)
{
	char *side = path_join(c->dir, c->boots[k].label);

	if (path_exists(side)) {
		for (int i = 1; i < 1000; i++) {
			char *to = xasprintf("%s.abandoned-%d", side, i);

			if (!path_exists(to)) {
				if (file_rename(side, to) == 0)
					say(c, CAMPAIGN_WARNING, "an unfinished %s was moved to %s", side, to);
				free(to);
				break;
			}
			free(to);
		}
	}
	free(side);
}

static int run_boot(struct campaign *c, size_t k)
{
	struct boot_progress *bp = &c->progress[k];
	struct snapshot snap;
	char *summary = NULL, *id = NULL;
	bool have_snap = false;
	int r = 0;

	/* Resuming after the reboot a local campaign asked for. */
	if (bp->step == STEP_REBOOTING) {
		r = local_after_reboot(c, k);
		if (r < 0)
			return r;
	}
	/* Resuming: a boot that got as far as "rebooted" continues only on that very boot. */
	if (bp->step >= STEP_REBOOTED && bp->step < STEP_DONE) {
		r = target_boot_id(c->target, true, 30000, &id);
		if (r < 0) {
			say(c, CAMPAIGN_ERROR, "boot %zu %s: the box does not answer: %s", k + 1,
			    c->boots[k].label, target_error(c->target));
			return r;
		}
		if (strcmp(id, bp->boot_id)) {
			say(c, CAMPAIGN_WARNING, "boot %zu %s: the box is on another boot (%s) than the one this boot's steps ran on (%s): starting the boot again",
			    k + 1, c->boots[k].label, id, bp->boot_id);
			set_aside(c, k);
			bp->step = STEP_NONE;
		} else {
			progress(c, k, "resuming on the same boot (%s) after '%s'", id, step_names[bp->step]);
		}
		free(id);
	}
	if (bp->step < STEP_BEGIN && (r = journal_step(c, k, STEP_BEGIN, NULL)) < 0)
		return r;
	if (bp->step < STEP_SET) {
		if (interrupted(c))
			return -EINTR;
		/* Before the entries change: a box left set for a mode it never booted is a trap. */
		r = check_data_dir(c, "before the boot entries change");
		if (r < 0)
			return r;
		progress(c, k, "setting mode %s (%s)", c->plan.modes[c->boots[k].mode].name,
			 *c->plan.modes[c->boots[k].mode].args_text ? c->plan.modes[c->boots[k].mode].args_text
								     : "standing kernel defaults");
		r = boot_is_oneshot(c, k) ? step_set_oneshot(c, k) : step_set(c, k, c->boots[k].mode);
		if (r < 0) {
			journal_step(c, k, STEP_FAILED, "set");
			if (r == -EIO)
				restore_standing(c, k);
			return r;
		}
		if ((r = journal_step(c, k, STEP_SET, NULL)) < 0)
			return r;
	}
	if (bp->step < STEP_REBOOTED) {
		if (interrupted(c))
			return -EINTR;
		r = step_reboot(c, k);
		if (r < 0) {
			if (r != -EINTR && r != -ERESTART)
				journal_step(c, k, STEP_FAILED, "reboot");
			return r;
		}
	}
	if (bp->step < STEP_DONE) {
		r = step_verify(c, k, &snap, &summary);
		have_snap = r == 0 || r == -EPROTO;
		if (r == -EPROTO) {
			/* A failed verify benchmarks nothing. */
			journal_step(c, k, STEP_FAILED, "verify");
			say(c, CAMPAIGN_ERROR, "boot %zu %s is not the boot asked for (%s): nothing is benchmarked on it",
			    k + 1, c->boots[k].label, summary);
			if (boot_is_oneshot(c, k))
				restore_oneshot(c);
			else
				restore_standing(c, k);
			goto out;
		}
		if (r < 0)
			goto out;
		if (bp->step < STEP_VERIFIED && (r = journal_step(c, k, STEP_VERIFIED, NULL)) < 0)
			goto out;
	}
	if (bp->step < STEP_STARTED) {
		if (interrupted(c)) {
			r = -EINTR;
			goto out;
		}
		r = step_start(c, k);
		if (r < 0)
			goto out;
	}
	if (bp->step < STEP_DONE) {
		r = step_wait(c, k);
		if (r == -ESTALE) {
			set_aside(c, k);
			bp->step = STEP_NONE;
			journal_step(c, k, STEP_FAILED, "rebooted-under-rows");
			goto out;
		}
		if (r < 0)
			goto out;
		r = step_fetch(c, k, &snap, summary);
	}
out:
	if (have_snap)
		snapshot_release(&snap);
	free(summary);
	return r;
}

/* A login name as useradd(8) takes it, to run rows as. */
static bool user_name_ok(const char *s)
{
	size_t n = strlen(s);

	if (n == 0 || n > 32 || s[0] == '-')
		return false;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') ||
		      *s == '_' || *s == '-' || *s == '.'))
			return false;
	return true;
}

/* Reads the journal into c->progress. */
static int load_journal(struct campaign *c)
{
	struct journal j;
	struct parse_error err = PARSE_ERROR_INIT;
	int r = journal_read(c->journal, &j, &err);

	if (r < 0) {
		say(c, CAMPAIGN_ERROR, "cannot read the journal %s: %s", c->journal,
		    err.message ? err.message : strerror(-r));
		parse_error_release(&err);
		return r;
	}
	if (j.torn)
		say(c, CAMPAIGN_WARNING, "the journal's last line was cut off (a crash while writing it), ignoring it");
	for (size_t i = 0; i < j.n_lines; i++) {
		char label[200], step[32], a[64], b[64];
		size_t k;
		double s = -1;
		int n = sscanf(j.lines[i], "boot %zu %199s %31s %63s %lf %63s", &k, label, step, a, &s, b);

		if (!strncmp(j.lines[i], "local rows-as ", 14) && user_name_ok(j.lines[i] + 14)) {
			free(c->rows_user);
			c->rows_user = xstrdup(j.lines[i] + 14);
			continue;
		}

		if (n < 3 || k < 1 || k > c->n_boots || strcmp(label, c->boots[k - 1].label))
			continue;
		k--;
		for (size_t st = 0; st < sizeof(step_names) / sizeof(step_names[0]); st++) {
			if (strcmp(step, step_names[st]))
				continue;
			if (st == STEP_FAILED) {
				/* A failed step is done again on resume. */
				if (c->progress[k].step > STEP_BEGIN)
					c->progress[k].step = STEP_BEGIN;
				continue;
			}
			c->progress[k].step = (enum step)st;
			if (st == STEP_REBOOTING && n >= 5) {
				free(c->progress[k].rebooting_from);
				c->progress[k].rebooting_from = xstrdup(a);
				c->progress[k].rebooting_at = s;
			}
			if (st == STEP_REBOOTED && n >= 4) {
				free(c->progress[k].boot_id);
				c->progress[k].boot_id = xstrdup(a);
				c->progress[k].reboot_s = s;
				if (n >= 6) {
					free(c->progress[k].boot_id_before);
					c->progress[k].boot_id_before = xstrdup(b);
				}
			}
		}
	}
	journal_release(&j);
	return 0;
}

static char *campaign_name(const char *plan_path)
{
	char *base = path_basename(plan_path), *dot = strrchr(base, '.'), *name;
	time_t t = time(NULL);
	struct tm tm;
	char stamp[32];

	if (dot && dot != base)
		*dot = '\0';
	for (char *p = base; *p; p++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.", *p))
			*p = '_';
	gmtime_r(&t, &tm);
	strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", &tm);
	name = xasprintf("%s-%s", base, stamp);
	free(base);
	return name;
}

static void dry_run(struct campaign *c)
{
	printf("campaign %s: %zu boots on %s, data in %s\n", c->name, c->n_boots,
	       c->plan.target ? c->plan.target : "(no target)", c->dir);
	for (size_t k = 0; k < c->n_boots; k++) {
		const struct plan_mode *m = &c->plan.modes[c->boots[k].mode];
		struct boot_script_options so = {
			.campaign = c->name, .boot_index = k, .n_boots = c->n_boots,
			.label = c->boots[k].label, .mode = m->name, .park = k == 0,
			.unpark = k + 1 == c->n_boots,
		};
		char *script = boot_script_generate(&c->plan, &so), *dir = remote_dir(c, k);
		struct strbuf sb = STRBUF_INIT;

		printf("\n== boot %zu/%zu: %s (mode %s)\n", k + 1, c->n_boots, c->boots[k].label, m->name);
		strbuf_addstr(&sb, "bootab set --target ");
		shell_quote_append(&sb, c->plan.target ? c->plan.target : "?");
		strbuf_addf(&sb, " --backend %s --managed ", c->plan.backend);
		{
			struct strbuf w = STRBUF_INIT;

			for (char **a = c->managed; *a; a++)
				strbuf_addf(&w, "%s%s", a == c->managed ? "" : " ", *a);
			shell_quote_append(&sb, strbuf_str(&w));
			strbuf_release(&w);
		}
		strbuf_addstr(&sb, " --args ");
		shell_quote_append(&sb, m->args_text);
		printf("%s\n", strbuf_str(&sb));
		printf("bootab reboot --target %s --timeout %u%s%s\n", c->plan.target ? c->plan.target : "?",
		       c->plan.boot_timeout_s, c->plan.power_cycle ? " --power-cycle " : "",
		       c->plan.power_cycle ? c->plan.power_cycle : "");
		strbuf_truncate(&sb, 0);
		strbuf_addf(&sb, "bootab verify --target %s --args ", c->plan.target ? c->plan.target : "?");
		shell_quote_append(&sb, m->args_text);
		for (size_t e = 0; e < m->expects.n; e++) {
			strbuf_addstr(&sb, " --expect ");
			shell_quote_append(&sb, m->expects.items[e]);
		}
		printf("%s\nbootab snapshot --target %s\n", strbuf_str(&sb), c->plan.target ? c->plan.target : "?");
		printf("# the per-boot script, started detached in %s:\n%s", dir, script);
		printf("# then its results are fetched into %s/%s\n", c->dir, c->boots[k].label);
		strbuf_release(&sb);
		free(script);
		free(dir);
	}
}

static int setup(struct campaign *c)
{
	struct parse_error err = PARSE_ERROR_INIT;
	const char *plan_path = c->o->plan_path;
	char *resume_plan = NULL;
	int r;

	if (c->o->resume_dir) {
		char *base;

		c->dir = xstrdup(c->o->resume_dir);
		resume_plan = path_join(c->dir, "plan.ini");
		plan_path = resume_plan;
		base = path_basename(c->dir);
		c->name = base;
	}
	r = plan_load(plan_path, &c->plan, &err);
	if (r < 0) {
		char *msg = parse_error_format(&err);

		say(c, CAMPAIGN_ERROR, "%s", msg);
		free(msg);
		parse_error_release(&err);
		free(resume_plan);
		return r;
	}
	parse_error_release(&err);
	c->n_boots = plan_boots(&c->plan, &c->boots);
	c->managed = plan_managed_args(&c->plan);
	c->progress = xcalloc(c->n_boots, sizeof(*c->progress));
	if (!c->o->resume_dir) {
		const char *data = c->o->data_dir ? c->o->data_dir : c->plan.data_dir ? c->plan.data_dir : "runs";
		char *text;
		size_t len;

		c->name = campaign_name(plan_path);
		c->dir = path_join(data, c->name);
		if (c->o->dry_run) {
			free(resume_plan);
			return 0;
		}
		r = dir_create_all(c->dir, 0755);
		if (r == 0)
			r = file_read(plan_path, 1 << 20, &text, &len);
		if (r == 0) {
			char *copy = path_join(c->dir, "plan.ini");

			r = file_write_atomic(copy, text, len, 0644);
			free(copy);
			free(text);
		}
		if (r < 0) {
			say(c, CAMPAIGN_ERROR, "cannot create the campaign directory %s: %s", c->dir, strerror(-r));
			c->res->data_error = true;
			free(resume_plan);
			return r;
		}
	}
	c->journal = path_join(c->dir, "journal");
	if (c->o->resume_dir) {
		r = load_journal(c);
		if (r < 0) {
			free(resume_plan);
			return r;
		}
	} else {
		r = journal_appendf(c->journal, "bootab-journal 1 campaign %s boots %zu", c->name, c->n_boots);
		if (r < 0) {
			say(c, CAMPAIGN_ERROR, "cannot write the journal %s: %s", c->journal, strerror(-r));
			c->res->data_error = true;
			free(resume_plan);
			return r;
		}
	}
	free(resume_plan);
	return 0;
}

/*
 * target = local: bootab runs on the box as root, rows as the user who
 * started it (sudo's SUDO_USER, kept in the journal for the resumed runs
 * that systemd starts), and a systemd unit carries it across its reboots.
 */
static int local_setup(struct campaign *c)
{
	char buf[4096];
	ssize_t n;

	c->local = true;
	if (!c->o->root && geteuid() != 0) {
		say(c, CAMPAIGN_ERROR, "target = local sets boot entries and reboots this box: run bootab as root (sudo bootab run ...)");
		return -EPERM;
	}
	if (c->plan.power_cycle)
		say(c, CAMPAIGN_WARNING, "target = local: power_cycle is not used (nothing else is there to run it); a one-shot boot that hangs comes back on the standing config at the next reset");
	c->abs_dir = realpath(c->dir, NULL);
	n = readlink("/proc/self/exe", buf, sizeof(buf) - 1);
	if (!c->abs_dir || n <= 0) {
		say(c, CAMPAIGN_ERROR, "cannot name %s for the resume unit: %s", !c->abs_dir ? c->dir : "this program",
		    strerror(errno));
		return -errno;
	}
	buf[n] = '\0';
	c->exe = xstrdup(buf);
	if (!c->o->resume_dir) {
		const char *user = getenv("SUDO_USER");

		if (user && strcmp(user, "root") && user_name_ok(user)) {
			int r = journal_appendf(c->journal, "local rows-as %s", user);

			if (r < 0) {
				say(c, CAMPAIGN_ERROR, "cannot write the journal %s: %s", c->journal, strerror(-r));
				return r;
			}
			c->rows_user = xstrdup(user);
		}
	}
	return 0;
}

int campaign_run(const struct campaign_options *o, struct campaign_result *ret)
{
	struct campaign c = { .o = o, .res = ret, .started = clock_now_s() };
	char *error = NULL;
	int r;

	memset(ret, 0, sizeof(*ret));
	r = setup(&c);
	if (r < 0)
		goto out;
	ret->dir = xstrdup(c.dir);
	if (o->dry_run) {
		dry_run(&c);
		goto out;
	}
	if (!c.plan.target) {
		say(&c, CAMPAIGN_ERROR, "%s: [campaign] target is not set", c.plan.file);
		r = -EINVAL;
		goto out;
	}
	r = check_data_dir(&c, "before anything on the target changes");
	if (r < 0) {
		ret->resumable = true;
		goto out;
	}
	if (!strcmp(c.plan.target, "local")) {
		r = local_setup(&c);
		if (r < 0)
			goto out;
	} else if (o->root) {
		say(&c, CAMPAIGN_ERROR, "--root works with target = local only, not '%s'", c.plan.target);
		r = -EINVAL;
		goto out;
	}
	r = target_open_default(c.plan.target, o->root, 0, &c.target, &error);
	if (r < 0) {
		say(&c, CAMPAIGN_ERROR, "%s", error);
		free(error);
		goto out;
	}
	r = target_probe_root(c.target);
	if (r < 0) {
		say(&c, CAMPAIGN_ERROR, "%s", target_error(c.target));
		goto out;
	}
	say(&c, CAMPAIGN_INFO, "campaign %s: %zu boots on %s (root through %s), data in %s", c.name,
	    c.n_boots, c.plan.target, target_root_method(c.target), c.dir);
	r = decide_oneshot(&c);
	if (r < 0)
		goto out;
	for (size_t k = 0; k < c.n_boots; k++) {
		if (c.progress[k].step == STEP_DONE)
			continue;
		r = run_boot(&c, k);
		if (r < 0)
			break;
	}
	if (r == 0) {
		r = report(c.dir, o, true);
		if (r == 0) {
			journal_append(c.journal, "finished");
			ret->finished = true;
		} else {
			ret->data_error = r == -ENOSPC || r == -EDQUOT || r == -EROFS;
		}
	} else if (r == -EINTR) {
		ret->resumable = true;
	} else {
		ret->resumable = true;
	}
	/* A local campaign resumes by itself only across the reboots it makes. */
	if (c.local && !ret->rebooting)
		local_unit_remove(&c);
out:
	ret->total_s = clock_now_s() - c.started;
	target_close(c.target);
	for (size_t k = 0; k < c.n_boots; k++) {
		free(c.progress[k].boot_id);
		free(c.progress[k].boot_id_before);
		free(c.progress[k].rebooting_from);
	}
	free(c.progress);
	free(c.rows_user);
	free(c.abs_dir);
	free(c.exe);
	if (c.boots)
		plan_boots_free(c.boots, c.n_boots);
	strv_free(c.managed);
	if (c.plan.file)
		plan_release(&c.plan);
	free(c.dir);
	free(c.name);
	free(c.journal);
	return r;
}

void campaign_result_release(struct campaign_result *r)
{
	free(r->dir);
	memset(r, 0, sizeof(*r));
}

/* The IOMMU facts of one side, from its meta.json. */
static void side_iommu(const char *side_dir, const char *watch, char **ret_summary, char **ret_watch)
{
	char *path = path_join(side_dir, "meta.json");
	json_error_t jerr;
	json_t *root = json_load_file(path, JSON_REJECT_DUPLICATES, &jerr);
	struct snapshot snap;
	struct parse_error err = PARSE_ERROR_INIT;

	*ret_summary = NULL;
	*ret_watch = NULL;
	if (root && snapshot_from_json(root, &snap, &err) == 0) {
		*ret_summary = iommu_map_summary(&snap.iommu);
		if (watch) {
			const char *type = iommu_map_device_type(&snap.iommu, watch);

			*ret_watch = xstrdup(type ? type : snap.iommu.n_groups ? "in no group" : "no IOMMU groups");
		}
		snapshot_release(&snap);
	}
	parse_error_release(&err);
	json_decref(root);
	free(path);
}

static int write_report(const char *dir, const char *name, const struct compare_result *res,
			enum report_format format, const struct strlist *warnings, const char *extra,
			const struct plan *plan)
{
	char *title = path_basename(dir);
	struct report_options ro = { .format = format, .loud_pct = COMPARE_LOUD_PCT_DEFAULT, .warnings = warnings,
				     .title = title, .watch = plan->watch };
	char *buf = NULL, *path = path_join(dir, name);
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	int r;

	if (!f) {
		free(path);
		free(title);
		return -errno;
	}
	if (extra && format != REPORT_JSON && format != REPORT_HTML)
		fputs(extra, f);
	r = report_compare(f, res, &ro);
	fclose(f);
	if (r == 0)
		r = file_write_atomic(path, buf, len, 0644);
	free(buf);
	free(path);
	free(title);
	return r;
}

/*
 * The machine's calibration history for the report: the plan's history
 * (a file or a directory), else the sides' machine's default file. A
 * history that cannot be used is a warning: it never stops the report.
 * Returns 1 with *ret and *ret_path, else 0.
 */
static int report_history_open(const struct plan *plan, const struct side *sides, size_t n_sides,
			       char **ret_path, struct history *ret, struct strlist *warnings)
{
	char *error = NULL;
	int r;

	if (plan->history_off)
		return 0;
	r = history_open(sides, n_sides, plan->history, false, ret_path, ret, &error, warnings);
	if (r < 0) {
		strlist_addf(warnings, "%s: [campaign] history %s: %s, ignoring the history", plan->file,
			     plan->history ? plan->history : "(default)", error);
		free(error);
		return 0;
	}
	return r;
}

/*
 * Adds the campaign's boots of its first mode (A and its repeats, or
 * every boot of an A/A campaign) to the machine's history, when every side
 * names the same machine. Every problem is a warning: the campaign is done.
 */
static void report_history_record(const struct campaign *c, const struct plan *plan, const struct compare_result *res,
				  bool have_history, const char *path, struct history *history)
{
	const char *machine = history_sides_machine(res->sides, res->n_sides, NULL);
	size_t boots;
	int r;

	if (plan->history_off)
		return;
	if (!machine) {
		say(c, CAMPAIGN_WARNING, "calibration history not recorded: the sides do not all name one machine (meta.json machine_id)");
		return;
	}
	if (!have_history) {
		char *default_path = plan->history ? NULL : history_default_path(machine);

		if (plan->history || default_path)
			say(c, CAMPAIGN_WARNING, "calibration history of machine %s not recorded: %s cannot be used",
			    machine, plan->history ? plan->history : default_path);
		else
			say(c, CAMPAIGN_WARNING, "calibration history of machine %s not recorded: neither XDG_DATA_HOME nor HOME is an absolute path",
			    machine);
		free(default_path);
		return;
	}
	r = compare_history_record(res, history, path, &boots);
	if (r == -ENODATA) {
		say(c, CAMPAIGN_INFO, "calibration history: no metric has two boots of %s, nothing recorded in %s",
		    res->sides[0].mode, path);
		return;
	}
	if (r < 0) {
		say(c, CAMPAIGN_WARNING, "cannot write the calibration history '%s': %s, ignoring", path, strerror(-r));
		return;
	}
	say(c, CAMPAIGN_INFO, "calibration history: recorded %zu boots of %s in %s (%zu entries)", boots,
	    res->sides[0].mode, path, history->n_entries);
}

/* campaign_report(); record: also add the first mode's boots to the history. */
static int report(const char *dir, const struct campaign_options *o, bool record)
{
	struct campaign c = { .o = o };
	struct parse_error err = PARSE_ERROR_INIT;
	struct plan plan;
	struct plan_boot *boots;
	struct side *sides;
	struct strlist warnings = STRLIST_INIT, row_margins = STRLIST_INIT;
	struct strbuf head = STRBUF_INIT;
	struct compare_options co = { .stat = STAT_MEAN, .loud_pct = COMPARE_LOUD_PCT_DEFAULT,
				      .boots_needed = true };
	struct compare_result res;
	struct history history = HISTORY_INIT;
	char *plan_path = path_join(dir, "plan.ini"), *first_watch = NULL, *history_path = NULL;
	bool watch_differs = false, have_history = false;
	size_t n, n_sides = 0;
	int r;

	r = plan_load(plan_path, &plan, &err);
	free(plan_path);
	if (r < 0) {
		say(&c, CAMPAIGN_ERROR, "%s: %s", dir, err.message ? err.message : strerror(-r));
		parse_error_release(&err);
		return r;
	}
	parse_error_release(&err);
	n = plan_boots(&plan, &boots);
	sides = xcalloc(n, sizeof(*sides));
	strbuf_addf(&head, "campaign %s: ", dir);
	for (size_t k = 0; k < n; k++) {
		char *side_dir = path_join(dir, boots[k].label), *meta = path_join(side_dir, "meta.json");

		if (path_exists(meta) && side_load(side_dir, &sides[n_sides], &warnings) == 0)
			n_sides++;
		free(meta);
		free(side_dir);
	}
	strbuf_addf(&head, "%zu of %zu boots recorded\n", n_sides, n);
	strbuf_addstr(&head, "verified IOMMU group types per side:\n");
	for (size_t k = 0; k < n_sides; k++) {
		char *summary, *watch;

		side_iommu(sides[k].dir, plan.watch, &summary, &watch);
		strbuf_addf(&head, "  %-14s %s", sides[k].label, summary ? summary : "(not recorded)");
		if (plan.watch)
			strbuf_addf(&head, "; %s: %s", plan.watch, watch ? watch : "(not recorded)");
		strbuf_addch(&head, '\n');
		if (watch) {
			if (!first_watch)
				first_watch = xstrdup(watch);
			else if (strcmp(first_watch, watch))
				watch_differs = true;
		}
		free(summary);
		free(watch);
	}
	if (plan.watch && first_watch && !watch_differs && n_sides > 1)
		strbuf_addf(&head, "warning: %s is %s in every mode: the setting did not change this device's DMA path; a gain needs another explanation\n",
			    plan.watch, first_watch);
	strbuf_addch(&head, '\n');
	if (n_sides < 2) {
		say(&c, CAMPAIGN_WARNING, "%s: fewer than two boots recorded, no comparison", dir);
		char *txt = path_join(dir, "report.txt");

		r = file_write_atomic(txt, head.buf, head.len, 0644);
		if (r < 0)
			say(&c, CAMPAIGN_ERROR, "cannot write %s: %s", txt, strerror(-r));
		free(txt);
		goto out;
	}
	/* As bootab compare does: the machine's noise floor judges a campaign with few repeats. */
	have_history = report_history_open(&plan, sides, n_sides, &history_path, &history, &warnings) > 0;
	co.history = have_history ? &history : NULL;
	/* The plan's equivalence margins: the campaign's, and each row's own. */
	co.equivalence_pct = plan.equivalence_pct;
	for (size_t i = 0; i < plan.n_rows; i++)
		if (plan.rows[i].equivalence_pct > 0)
			strlist_addf(&row_margins, "%s=%.17g", plan.rows[i].name, plan.rows[i].equivalence_pct);
	co.row_equivalence = &row_margins;
	r = compare_sides(sides, n_sides, &co, &res, &warnings);
	if (r < 0) {
		say(&c, CAMPAIGN_ERROR, "%s: cannot compare the sides: %s", dir, strerror(-r));
		goto out;
	}
	for (size_t i = 0; i < warnings.n; i++)
		say(&c, CAMPAIGN_WARNING, "%s", warnings.items[i]);
	r = write_report(dir, "report.txt", &res, REPORT_TEXT, &warnings, head.buf, &plan);
	if (r == 0)
		r = write_report(dir, "report.md", &res, REPORT_MD, &warnings, head.buf, &plan);
	if (r == 0)
		r = write_report(dir, "report.json", &res, REPORT_JSON, &warnings, NULL, &plan);
	if (r == 0)
		r = write_report(dir, "report.html", &res, REPORT_HTML, &warnings, NULL, &plan);
	if (r == 0 && record)
		report_history_record(&c, &plan, &res, have_history, history_path, &history);
	compare_result_release(&res);
	if (r < 0)
		say(&c, CAMPAIGN_ERROR, "cannot write the report in %s: %s (the reports there before are kept whole)",
		    dir, strerror(-r));
out:
	history_release(&history);
	free(history_path);
	for (size_t k = 0; k < n_sides; k++)
		side_release(&sides[k]);
	free(sides);
	free(first_watch);
	strbuf_release(&head);
	strlist_release(&warnings);
	strlist_release(&row_margins);
	plan_boots_free(boots, n);
	plan_release(&plan);
	return r;
}

int campaign_report(const char *dir, const struct campaign_options *o)
{
	return report(dir, o, false);
}
