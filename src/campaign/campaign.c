#include "campaign/campaign.h"
#include "plan/plan.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statvfs.h>
#include <time.h>
#include <unistd.h>

#include "campaign/internal.h"
#include "campaign/progress.h"
#include "campaign/journal.h"
#include "kernel/snapshot.h"
#include "lib/alloc.h"
#include "lib/clock.h"
#include "lib/file.h"
#include "lib/lockfile.h"
#include "lib/strbuf.h"
#include "target/boot-io-target.h"
#include "target/target.h"

char *campaign_name_for(const char *plan_path)
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

/*
 * One run at a time in a campaign directory: two would both append to the
 * journal and reboot the box twice. The lock (on the directory itself:
 * nothing is written) is held until bootab ends (across a local
 * campaign's reboots the resumed run takes it anew).
 */
static int campaign_lock(struct campaign *c)
{
	char *held = NULL;
	int r = lockfile_take(c->dir, &c->lock_fd, &held);

	if (r == 0) {
		c->locked = true;
	} else if (r == -EBUSY) {
		campaign_say(c, CAMPAIGN_ERROR, "the campaign %s is in use by %s: one run at a time", c->dir, held);
		free(held);
	} else {
		campaign_say(c, CAMPAIGN_ERROR, "cannot lock the campaign directory %s: %s", c->dir, strerror(-r));
	}
	return r;
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

		campaign_say(c, CAMPAIGN_ERROR, "%s", msg);
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

		c->name = campaign_name_for(plan_path);
		if (c->o->dry_run) {
			c->dir = path_join(data, c->name);
			free(resume_plan);
			return 0;
		}
		/* Taken before anything is written: a run started in the same second from a plan of this name gets another. */
		{
			char *name = c->name;

			r = dir_create_new(data, name, 0755, &c->dir, &c->name);
			if (r < 0) {
				c->dir = path_join(data, name);
				c->name = name;
			} else {
				free(name);
			}
		}
		if (r == 0)
			r = file_read(plan_path, 1 << 20, &text, &len);
		if (r == 0) {
			char *copy = path_join(c->dir, "plan.ini");

			r = file_write_atomic(copy, text, len, 0644);
			free(copy);
			free(text);
		}
		if (r < 0) {
			campaign_say(c, CAMPAIGN_ERROR, "cannot create the campaign directory %s: %s", c->dir, strerror(-r));
			c->res->data_error = true;
			free(resume_plan);
			return r;
		}
	}
	r = campaign_lock(c);
	if (r < 0) {
		free(resume_plan);
		return r;
	}
	c->journal = path_join(c->dir, "journal");
	if (c->o->resume_dir) {
		r = campaign_load_journal(c);
		if (r < 0) {
			free(resume_plan);
			return r;
		}
	} else {
		r = journal_appendf(c->journal, "bootab-journal 1 campaign %s boots %zu", c->name, c->n_boots);
		if (r < 0) {
			campaign_say(c, CAMPAIGN_ERROR, "cannot write the journal %s: %s", c->journal, strerror(-r));
			c->res->data_error = true;
			free(resume_plan);
			return r;
		}
	}
	free(resume_plan);
	return 0;
}

/*
 * "boot 1/3 x: SSH sessions: set 2, reboot wait 4, verify+snapshot+start 1,
 * rows 1, fetch 1; scripts: set 3, ...": what each step of this boot asked of the box (a step
 * done before a resume counts as "-"); "local sessions" on the local
 * target, where each is a shell bootab runs.
 */
static void say_sessions(const struct campaign *c, size_t k, const struct target_counts *n, const bool *counted)
{
	static const char *const names[] = { "set", "reboot wait", "verify+snapshot+start", "rows", "fetch" };
	struct strbuf sb = STRBUF_INIT;

	for (size_t i = 0; i < 5; i++) {
		strbuf_addf(&sb, "%s%s ", i ? ", " : "", names[i]);
		if (counted[i] && counted[i + 1])
			strbuf_addf(&sb, "%lu", n[i + 1].sessions - n[i].sessions);
		else
			strbuf_addch(&sb, '-');
		if (counted[i] && counted[i + 1] && n[i + 1].unanswered > n[i].unanswered)
			strbuf_addf(&sb, " (+%lu polls no box answered)", n[i + 1].unanswered - n[i].unanswered);
	}
	/* The scripts each step ran there, in its sessions (a batch carries several). */
	for (size_t i = 0; i < 5; i++) {
		strbuf_addf(&sb, "%s%s ", i ? ", " : "; scripts: ", names[i]);
		if (counted[i] && counted[i + 1])
			strbuf_addf(&sb, "%lu", n[i + 1].scripts - n[i].scripts);
		else
			strbuf_addch(&sb, '-');
	}
	campaign_progress(c, k, "%s sessions: %s", target_kind(c->target) == TARGET_SSH ? "SSH" : "local",
			  strbuf_str(&sb));
	strbuf_release(&sb);
}

/* Resuming a boot that got as far as "rebooted": on that very boot it goes on, on another it starts again. */
static int resume_on_same_boot(struct campaign *c, size_t k)
{
	struct boot_progress *bp = &c->progress[k];
	char *id = NULL;
	int r;

	r = target_boot_id(c->target, true, 30000, &id);
	if (r < 0) {
		campaign_say(c, CAMPAIGN_ERROR, "boot %zu %s: the box does not answer: %s", k + 1,
		    c->boots[k].label, target_error(c->target));
		return r;
	}
	if (strcmp(id, bp->boot_id)) {
		campaign_say(c, CAMPAIGN_WARNING, "boot %zu %s: the box is on another boot (%s) than the one this boot's steps ran on (%s): starting the boot again",
		    k + 1, c->boots[k].label, id, bp->boot_id);
		campaign_set_aside(c, k);
		bp->step = STEP_NONE;
	} else {
		campaign_progress(c, k, "resuming on the same boot (%s) after '%s'", id, campaign_step_name(bp->step));
	}
	free(id);
	return 0;
}

static void say_setting_mode(struct campaign *c, size_t k)
{
	const struct plan_mode *m = &c->plan.modes[c->boots[k].mode];
	const char *kernel = campaign_mode_kernel(c, c->boots[k].mode);

	if (kernel)
		campaign_progress(c, k, "setting mode %s (kernel %s, %s%s)", m->name, kernel,
				  *m->args_text ? "args " : "its default args", m->args_text);
	else
		campaign_progress(c, k, "setting mode %s (%s)", m->name,
				  *m->args_text ? m->args_text : "standing kernel defaults");
}

/* The set step: the boot entries (or the one-shot) changed for boot k's mode, journalled. */
static int step_set(struct campaign *c, size_t k)
{
	int r;

	if (campaign_interrupted(c))
		return -EINTR;
	/* Before the entries change: a box left set for a mode it never booted is a trap. */
	r = campaign_check_data_dir(c, "before the boot entries change");
	if (r < 0)
		return r;
	say_setting_mode(c, k);
	/* The boot loader's files read and written in one session. */
	target_batch_begin(c->target);
	r = campaign_boot_is_oneshot(c, k) ? oneshot_set(c, k) : campaign_set_mode(c, k, c->boots[k].mode);
	target_batch_end(c->target);
	if (r < 0) {
		campaign_journal_step(c, k, STEP_FAILED, "set");
		if (r == -EIO)
			campaign_restore_standing(c, k);
		return r;
	}
	if ((r = campaign_journal_step(c, k, STEP_SET, NULL)) < 0)
		return r;
	return 0;
}

/* The boot's [prepare] (campaign_prepare()); a failed one fails the boot as a failed verify does. */
static int boot_prepare(struct campaign *c, size_t k, bool *batched)
{
	int r = campaign_prepare(c, k);

	if (r != -EPROTO)
		return r;
	target_batch_end(c->target);
	*batched = false;
	campaign_journal_step(c, k, STEP_FAILED, "prepare");
	if (campaign_boot_is_oneshot(c, k))
		campaign_restore_oneshot(c);
	else
		campaign_restore_standing(c, k);
	return r;
}

static int run_boot(struct campaign *c, size_t k)
{
	struct boot_progress *bp = &c->progress[k];
	struct snapshot snap;
	char *summary = NULL;
	bool have_snap = false, batched = false, just_up = false;
	/* SSH sessions at each step's end: set, reboot wait, verify+snapshot+start, rows, fetch. */
	struct target_counts n[6] = { 0 };
	bool counted[6] = { false };
	int r = 0, fetch_fd = -1;

	target_counts(c->target, &n[0]);
	counted[0] = true;

	/* Resuming after the reboot a local campaign asked for. */
	if (bp->step == STEP_REBOOTING) {
		r = local_after_reboot(c, k);
		if (r < 0)
			return r;
		/* Back on the new boot, its id just read: what follows is counted from here. */
		just_up = bp->step == STEP_REBOOTED;
		target_counts(c->target, &n[2]);
		counted[2] = just_up;
	}
	/* Resuming: a boot that got as far as "rebooted" continues only on that very boot. */
	if (!just_up && bp->step >= STEP_REBOOTED && bp->step < STEP_DONE && (r = resume_on_same_boot(c, k)) < 0)
		return r;
	if (bp->step < STEP_BEGIN && (r = campaign_journal_step(c, k, STEP_BEGIN, NULL)) < 0)
		return r;
	/*
	 * One session before the reboot (the set, the one-shot, the reboot
	 * command) and one after it (the one-shot entry's removal, verify,
	 * snapshot and the start of the rows, the start only once verify
	 * passed): the reboot drops the first, the next script starts the
	 * second over the connection that saw the new boot.
	 */
	target_batch_begin(c->target);
	batched = true;
	if (bp->step < STEP_SET) {
		r = step_set(c, k);
		if (r < 0)
			goto out;
		target_counts(c->target, &n[1]);
		counted[1] = true;
	}
	if (bp->step < STEP_REBOOTED) {
		if (campaign_interrupted(c)) {
			r = -EINTR;
			goto out;
		}
		r = campaign_reboot(c, k);
		if (r < 0) {
			if (r != -EINTR && r != -ERESTART)
				campaign_journal_step(c, k, STEP_FAILED, "reboot");
			goto out;
		}
		target_counts(c->target, &n[2]);
		counted[2] = counted[1];
	}
	if (bp->step < STEP_DONE) {
		r = campaign_verify(c, k, &snap, &summary);
		have_snap = r == 0 || r == -EPROTO;
		if (r == -EPROTO) {
			target_batch_end(c->target);
			batched = false;
			/* A failed verify benchmarks nothing. */
			campaign_journal_step(c, k, STEP_FAILED, "verify");
			campaign_say(c, CAMPAIGN_ERROR, "boot %zu %s is not the boot asked for (%s): nothing is benchmarked on it",
			    k + 1, c->boots[k].label, summary);
			if (campaign_boot_is_oneshot(c, k))
				campaign_restore_oneshot(c);
			else
				campaign_restore_standing(c, k);
			goto out;
		}
		if (r < 0)
			goto out;
		if (bp->step < STEP_VERIFIED && (r = campaign_journal_step(c, k, STEP_VERIFIED, NULL)) < 0)
			goto out;
	}
	if (bp->step < STEP_STARTED && c->plan.prepare.n && (r = boot_prepare(c, k, &batched)) < 0)
		goto out;
	if (bp->step < STEP_STARTED) {
		if (campaign_interrupted(c)) {
			r = -EINTR;
			goto out;
		}
		r = campaign_start_rows(c, k);
		if (r < 0)
			goto out;
	}
	target_batch_end(c->target);
	batched = false;
	if (bp->step < STEP_DONE) {
		target_counts(c->target, &n[3]);
		counted[3] = true;
		r = campaign_wait_rows(c, k, &fetch_fd);
		target_counts(c->target, &n[4]);
		counted[4] = true;
		if (r == -ESTALE) {
			campaign_set_aside(c, k);
			bp->step = STEP_NONE;
			campaign_journal_step(c, k, STEP_FAILED, "rebooted-under-rows");
			goto out;
		}
		if (r < 0)
			goto out;
		/* Results the watch carried on after the rows' end need no session of their own. */
		r = campaign_fetch(c, k, &snap, summary, fetch_fd);
		target_counts(c->target, &n[5]);
		counted[5] = true;
		if (r == 0)
			say_sessions(c, k, n, counted);
	}
out:
	if (batched)
		target_batch_end(c->target);
	if (have_snap)
		snapshot_release(&snap);
	free(summary);
	return r;
}

/*
 * rounds = auto: boot k closes a round (the first mode's boot after every
 * mode's) and a boot follows it. The last boot needs no look: the campaign
 * ends there anyway, and its report judges at the last boundary.
 */
static bool look_due(const struct campaign *c, size_t k)
{
	return c->plan.rounds_auto && k > 0 && k + 1 < c->n_boots && c->boots[k].mode == 0 &&
	       k % c->plan.n_modes == 0;
}

/*
 * The look after the round boot k closes: the report's comparison at the
 * round's boundary on the boots so far. Decided: journal it and stop after
 * this boot. A look that cannot be made is a warning: more boots never hurt.
 */
static void sequential_look(struct campaign *c, size_t k)
{
	unsigned round = (unsigned)(k / c->plan.n_modes);
	bool decided = false;
	char *line = NULL;
	int r = campaign_look(c->dir, c->o, &decided, &line);

	if (r < 0) {
		campaign_say(c, CAMPAIGN_WARNING, "round %u of at most %u: cannot look at the boots so far (%s): going on",
			     round, c->plan.max_rounds, strerror(-r));
	} else if (decided && journal_appendf(c->journal, "decided after round %u", round) == 0) {
		campaign_say(c, CAMPAIGN_INFO, "round %u of at most %u: %s: decided, no more boots", round,
			     c->plan.max_rounds, line);
		c->decided_round = round;
	} else {
		campaign_say(c, CAMPAIGN_INFO, "round %u of at most %u: %s: going on", round, c->plan.max_rounds,
			     line ? line : "no test yet");
	}
	free(line);
}

/*
 * Before the first boot: the root probe, the one-shot check, the touch map
 * (a new campaign's) and the kernels, in one session, its count said.
 */
static int preflight(struct campaign *c)
{
	/* One view of the boot loader's files for the one-shot check and the kernels (one dump). */
	struct boot_io *io = boot_io_target_new(c->target);
	struct target_counts n[2];
	int r;

	target_counts(c->target, &n[0]);
	target_batch_begin(c->target);
	r = target_probe_root(c->target);
	if (r < 0) {
		campaign_say(c, CAMPAIGN_ERROR, "%s", target_error(c->target));
		goto out;
	}
	campaign_say(c, CAMPAIGN_INFO, "campaign %s: %zu boots on %s (root through %s), data in %s", c->name,
	    c->n_boots, c->plan.target, target_root_method(c->target), c->dir);
	/* A new campaign's touch map first: the dump oneshot_decide reads runs beside its snapshot. */
	if (!c->o->resume_dir)
		campaign_touch_preflight(c, io);
	r = oneshot_decide(c, io);
	if (r < 0)
		goto out;
	r = campaign_kernels_preflight(c, io);
out:
	target_batch_end(c->target);
	boot_io_free(io);
	target_counts(c->target, &n[1]);
	if (r == 0)
		campaign_say(c, CAMPAIGN_INFO, "preflight (root, one-shot, touch map, kernels): %s sessions %lu, scripts %lu",
			     target_kind(c->target) == TARGET_SSH ? "SSH" : "local", n[1].sessions - n[0].sessions,
			     n[1].scripts - n[0].scripts);
	return r;
}

/*
 * target = lava: LAVA boots the device for each job, so there is no box
 * to reach, set or reboot here; each boot is a job (lava.c), and the
 * report is the one every campaign writes.
 */
static int run_lava(struct campaign *c)
{
	int r = c->o->root ? -EINVAL : lava_setup(c);

	if (c->o->root)
		campaign_say(c, CAMPAIGN_ERROR, "--root works with target = local only, not lava");
	for (size_t k = 0; r == 0 && k < c->n_boots && !c->decided_round; k++) {
		if (c->progress[k].step != STEP_DONE)
			r = lava_run_boot(c, k);
		if (r == 0 && look_due(c, k) && c->progress[k + 1].step == STEP_NONE)
			sequential_look(c, k);
	}
	if (r == 0) {
		r = campaign_write_report(c->dir, c->o, true, NULL, NULL);
		if (r == 0) {
			journal_append(c->journal, "finished");
			c->res->finished = true;
		} else {
			c->res->data_error = r == -ENOSPC || r == -EDQUOT || r == -EROFS;
		}
	} else {
		c->res->resumable = true;
	}
	return r;
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
		campaign_dry_run(&c);
		goto out;
	}
	if (plan_is_fleet(&c.plan)) {
		campaign_say(&c, CAMPAIGN_ERROR, "%s: [campaign] names a fleet (targets or inventory): a campaign runs on one target",
		    c.plan.file);
		r = -EINVAL;
		goto out;
	}
	if (!c.plan.target) {
		campaign_say(&c, CAMPAIGN_ERROR, "%s: [campaign] target is not set", c.plan.file);
		r = -EINVAL;
		goto out;
	}
	r = campaign_check_data_dir(&c, "before anything on the target changes");
	if (r < 0) {
		ret->resumable = true;
		goto out;
	}
	if (plan_is_lava(&c.plan)) {
		r = run_lava(&c);
		goto out;
	}
	if (!strcmp(c.plan.target, "local")) {
		r = local_setup(&c);
		if (r < 0)
			goto out;
	} else if (o->root) {
		campaign_say(&c, CAMPAIGN_ERROR, "--root works with target = local only, not '%s'", c.plan.target);
		r = -EINVAL;
		goto out;
	}
	r = target_open(c.plan.target,
			&(struct target_options){ .root = o->root, .shell = o->target_shell,
						  .ask_password = o->ask_password },
			&c.target, &error);
	if (r < 0) {
		campaign_say(&c, CAMPAIGN_ERROR, "%s", error);
		free(error);
		goto out;
	}
	r = preflight(&c);
	if (r < 0)
		goto out;
	for (size_t k = 0; k < c.n_boots && !c.decided_round; k++) {
		if (c.progress[k].step != STEP_DONE) {
			r = run_boot(&c, k);
			if (r < 0)
				break;
		}
		/* A look not made yet (a resumed campaign makes the last one again). */
		if (look_due(&c, k) && c.progress[k + 1].step == STEP_NONE)
			sequential_look(&c, k);
	}
	if (r == 0)
		campaign_kernel_restore(&c);
	if (r == 0) {
		r = campaign_write_report(c.dir, o, true, NULL, NULL);
		if (r == 0) {
			journal_append(c.journal, "finished");
			ret->finished = true;
		} else {
			ret->data_error = r == -ENOSPC || r == -EDQUOT || r == -EROFS;
		}
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
		json_decref(c.progress[k].proof);
	}
	free(c.progress);
	for (size_t i = 0; i < c.n_config_memos; i++)
		snapshot_config_memo_release(&c.config_memos[i]);
	free(c.config_memos);
	campaign_kernels_release(&c);
	free(c.rows_user);
	free(c.oneshot_path);
	if (c.lava_token)
		explicit_bzero(c.lava_token, strlen(c.lava_token));
	free(c.lava_token);
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
	if (c.locked)
		close(c.lock_fd);
	return r;
}

char *campaign_result_summary(const struct campaign_result *r)
{
	double own = r->total_s - r->reboot_s - r->gate_s - r->rows_s;
	char *head = xasprintf("campaign finished in %.0f s: reboots %.0f s, idle gates %.0f s, rows %.0f s",
			       r->total_s, r->reboot_s, r->gate_s, r->rows_s), *line;

	if (own >= 0 && r->total_s > 0)
		line = xasprintf("%s, bootab's own steps %.1f s (%.1f %%)", head, own, 100 * own / r->total_s);
	else
		line = xasprintf("%s (measured on the target, partly before this run: more than this run's %.0f s)",
				 head, r->total_s);
	free(head);
	return line;
}

void campaign_result_release(struct campaign_result *r)
{
	free(r->dir);
	memset(r, 0, sizeof(*r));
}
