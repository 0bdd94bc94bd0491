#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "campaign/internal.h"
#include "campaign/progress.h"
#include "campaign/journal.h"
#include "campaign/resume-unit.h"
#include "lib/alloc.h"
#include "lib/clock.h"
#include "lib/process.h"
#include "target/reboot.h"
#include "target/target.h"

/* A login name as useradd(8) takes it, to run rows as. */
bool local_user_name_ok(const char *s)
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

/*
 * target = local: bootab runs on the box as root, rows as the user who
 * started it (sudo's SUDO_USER, kept in the journal for the resumed runs
 * that systemd starts), and a systemd unit carries it across its reboots.
 */
int local_setup(struct campaign *c)
{
	char buf[4096];
	ssize_t n;

	c->local = true;
	if (!c->o->root && geteuid() != 0) {
		campaign_say(c, CAMPAIGN_ERROR, "target = local sets boot entries and reboots this box: run bootab as root (sudo bootab run ...)");
		return -EPERM;
	}
	if (c->plan.power_cycle)
		campaign_say(c, CAMPAIGN_WARNING, "target = local: power_cycle is not used (nothing else is there to run it); a one-shot boot that hangs comes back on the standing config at the next reset");
	c->abs_dir = realpath(c->dir, NULL);
	n = readlink("/proc/self/exe", buf, sizeof(buf) - 1);
	if (!c->abs_dir || n <= 0) {
		campaign_say(c, CAMPAIGN_ERROR, "cannot name %s for the resume unit: %s", !c->abs_dir ? c->dir : "this program",
		    strerror(errno));
		return -errno;
	}
	buf[n] = '\0';
	c->exe = xstrdup(buf);
	if (!c->o->resume_dir) {
		const char *user = getenv("SUDO_USER");

		if (user && strcmp(user, "root") && local_user_name_ok(user)) {
			int r = journal_appendf(c->journal, "local rows-as %s", user);

			if (r < 0) {
				campaign_say(c, CAMPAIGN_ERROR, "cannot write the journal %s: %s", c->journal, strerror(-r));
				return r;
			}
			c->rows_user = xstrdup(user);
		}
	}
	return 0;
}

/*
 * target = local: asks the box to reboot, into oneshot_entry once when it
 * is not NULL. In a tree (--root) nothing can reboot: the options'
 * reboot_tree stands in, when there is one.
 */
int local_issue_reboot(struct campaign *c, const char *oneshot_entry)
{
	struct process_result res;
	int r;

	if (oneshot_entry) {
		char *why = NULL;

		r = target_ask_oneshot(c->target, oneshot_entry, &why);
		if (r < 0) {
			campaign_say(c, CAMPAIGN_ERROR, "cannot reboot: %s", why ? why : strerror(-r));
			free(why);
			return r;
		}
	}
	if (c->o->root) {
		if (!c->o->reboot_tree) {
			campaign_say(c, CAMPAIGN_ERROR, "--root %s: a tree cannot reboot", c->o->root);
			return -EOPNOTSUPP;
		}
		c->reboot_issued = true;
		r = c->o->reboot_tree(c->o->reboot_tree_ctx, &res);
	} else {
		const char *args[] = { !strcmp(c->plan.backend, "kexec") ? "kexec" : "reboot", NULL };

		c->reboot_issued = true;
		r = target_run_script(c->target, "reboot", args, NULL, 0, true, 60000, &res);
	}
	if (r < 0) {
		campaign_say(c, CAMPAIGN_ERROR, "cannot reboot: %s", c->o->root ? strerror(-r) : target_error(c->target));
		c->reboot_issued = false;
		return r;
	}
	if (res.exit_code != 0 && !campaign_interrupted(c)) {
		campaign_say(c, CAMPAIGN_ERROR, "the reboot command failed (exit %d): %.*s", res.exit_code,
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
int local_await_shutdown(struct campaign *c)
{
	double end = clock_now_s() + (c->plan.boot_timeout_s ? c->plan.boot_timeout_s : 300);

	while (clock_now_s() < end) {
		if (campaign_interrupted(c))
			return -ERESTART;
		clock_sleep_s(0.2);
	}
	c->reboot_issued = false;
	campaign_say(c, CAMPAIGN_ERROR, "the box did not go down within %u s of the reboot command",
	    c->plan.boot_timeout_s);
	return -ETIMEDOUT;
}

/*
 * A local campaign that stops on a failure reboots into the standing
 * config without resuming: the unit goes first.
 */
void local_unit_remove(struct campaign *c)
{
	int r = resume_unit_remove(c->o->root, c->abs_dir);

	if (r < 0)
		campaign_say(c, CAMPAIGN_WARNING, "cannot remove the systemd unit %s: %s", RESUME_UNIT_NAME, strerror(-r));
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
		campaign_say(c, CAMPAIGN_ERROR, "another campaign (%s) is set to resume on this box (%s): finish or stop it first",
		    other, RESUME_UNIT_NAME);
	else if (r == -EINVAL)
		campaign_say(c, CAMPAIGN_ERROR, "the campaign directory %s or the program %s cannot be named in a systemd unit (control characters)",
		    c->abs_dir, c->exe);
	else if (r == -EEXIST)
		campaign_say(c, CAMPAIGN_ERROR, "/etc/systemd/system/%s exists and is not bootab's: not replacing it",
		    RESUME_UNIT_NAME);
	else if (r < 0)
		campaign_say(c, CAMPAIGN_ERROR, "cannot install the systemd unit %s: %s", RESUME_UNIT_NAME, strerror(-r));
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
int local_reboot(struct campaign *c, size_t k)
{
	char *before = NULL, extra[128];
	int r;

	r = target_boot_id(c->target, false, 30000, &before);
	if (r < 0) {
		campaign_say(c, CAMPAIGN_ERROR, "boot %zu %s: cannot read this boot's id: %s", k + 1, c->boots[k].label,
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
	r = campaign_journal_step(c, k, STEP_REBOOTING, extra);
	if (r < 0)
		return r;
	campaign_progress(c, k, "rebooting into mode %s; bootab continues after the boot (systemd unit %s, journalctl -u %s)",
		 c->plan.modes[c->boots[k].mode].name, RESUME_UNIT_NAME, RESUME_UNIT_NAME);
	/* A grubby box was told already (oneshot_arm()). */
	r = local_issue_reboot(c, campaign_boot_is_oneshot(c, k) && !c->oneshot_grubby ? oneshot_entry_id(c) : NULL);
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
int local_after_reboot(struct campaign *c, size_t k)
{
	struct boot_progress *bp = &c->progress[k];
	char *now = NULL;
	double secs;
	int r = target_boot_id(c->target, false, 30000, &now);

	if (r < 0) {
		campaign_say(c, CAMPAIGN_ERROR, "boot %zu %s: cannot read this boot's id: %s", k + 1, c->boots[k].label,
		    target_error(c->target));
		return r;
	}
	if (!bp->rebooting_from || !strcmp(now, bp->rebooting_from)) {
		campaign_say(c, CAMPAIGN_WARNING, "boot %zu %s: the box did not reboot since bootab asked it to: asking again",
		    k + 1, c->boots[k].label);
		bp->step = STEP_SET;
		free(now);
		return 0;
	}
	if (campaign_boot_is_oneshot(c, k))
		oneshot_remove_entry(c);
	secs = clock_wall_s() - bp->rebooting_at;
	if (secs < 0 || !isfinite(secs))
		secs = 0;
	c->res->reboot_s += secs;
	r = campaign_record_rebooted(c, k, bp->rebooting_from, now, secs);
	free(now);
	return r;
}
