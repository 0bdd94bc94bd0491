#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "boot/set.h"
#include "campaign/internal.h"
#include "campaign/progress.h"
#include "kernel/proof.h"
#include "kernel/snapshot.h"
#include "kernel/verify.h"
#include "lib/alloc.h"
#include "lib/file.h"
#include "lib/strbuf.h"
#include "target/boot-io-target.h"
#include "target/reboot.h"
#include "target/target.h"
#include "target/verify-boot.h"

int campaign_set_mode(struct campaign *c, size_t k, size_t mode)
{
	struct boot_io *io = boot_io_target_new(c->target);
	struct boot_set_result res;
	struct parse_error err = PARSE_ERROR_INIT;
	int r;

	r = boot_set_kernel(io, c->plan.backend, c->managed, c->plan.modes[mode].args,
			    campaign_mode_kernel(c, mode), &res, &err);
	if (r < 0) {
		campaign_say(c, CAMPAIGN_ERROR, "boot %zu %s: setting mode %s failed: %s", k + 1, c->boots[k].label,
		    c->plan.modes[mode].name, err.message ? err.message : strerror(-r));
		parse_error_release(&err);
		boot_io_free(io);
		return r;
	}
	if (res.problems[0]) {
		for (char **p = res.problems; *p; p++)
			campaign_say(c, CAMPAIGN_ERROR, "boot %zu %s: set check failed: %s", k + 1, c->boots[k].label, *p);
		r = -EIO;
	} else if (res.after.has_default) {
		const struct boot_entry_args *e = &res.after.entries[res.after.default_index];

		campaign_progress(c, k, "default entry %s%s%s: %s", e->name, res.after.default_kernel ? ", kernel " : "",
				  res.after.default_kernel ? res.after.default_kernel : "", e->args);
	}
	boot_set_result_release(&res);
	parse_error_release(&err);
	boot_io_free(io);
	return r;
}

/*
 * The reboot into the standing config after a failure. A local campaign
 * removes its unit first: it stops here and does not resume by itself.
 */
static void campaign_reboot_to_standing(struct campaign *c)
{
	struct reboot_options ro = { .timeout_s = c->plan.boot_timeout_s, .power_cycle = c->plan.power_cycle,
				     .kexec = !strcmp(c->plan.backend, "kexec") };
	struct reboot_result rr;

	if (c->local) {
		local_unit_remove(c);
		campaign_say(c, CAMPAIGN_WARNING, "rebooting into the standing config; the campaign does not resume by itself (bootab run --resume %s)",
		    c->abs_dir);
		if (local_issue_reboot(c, NULL) == 0)
			(void)local_await_shutdown(c);
		return;
	}
	if (reboot_and_wait(c->target, &ro, &rr) == 0)
		campaign_say(c, CAMPAIGN_INFO, "the box is back on the standing config (boot_id %s)", rr.after);
	else
		campaign_say(c, CAMPAIGN_ERROR, "the box did not come back on the standing config: %s",
		    rr.error ? rr.error : "no answer");
	reboot_result_release(&rr);
}

/* Back to the first mode (the standing config) and into it, after a failure. */
void campaign_restore_standing(struct campaign *c, size_t k)
{
	campaign_say(c, CAMPAIGN_WARNING, "restoring the standing config (mode %s) and rebooting into it",
	    c->plan.modes[0].name);
	if (campaign_set_mode(c, k, 0) < 0) {
		campaign_say(c, CAMPAIGN_ERROR, "could not restore the standing config: the box keeps mode %s's entries",
		    c->plan.modes[c->boots[k].mode].name);
		return;
	}
	campaign_reboot_to_standing(c);
}

/* After a one-shot boot failed verify: the standing entries are intact, a plain reboot returns to them. */
void campaign_restore_oneshot(struct campaign *c)
{
	campaign_say(c, CAMPAIGN_WARNING, "rebooting into the standing config (mode %s): its entries were never changed",
	    c->plan.modes[0].name);
	campaign_reboot_to_standing(c);
}

/* A boot came up: keep its ids and the reboot's length, and journal it. */
int campaign_record_rebooted(struct campaign *c, size_t k, const char *before, const char *after, double secs)
{
	struct boot_progress *bp = &c->progress[k];
	char extra[200];

	free(bp->boot_id);
	free(bp->boot_id_before);
	bp->boot_id = xstrdup(after);
	bp->boot_id_before = xstrdup(before);
	bp->reboot_s = secs;
	campaign_progress(c, k, "up in %.1f s, boot_id %s", secs, after);
	snprintf(extra, sizeof(extra), "%s %.1f %s", after, secs, before);
	return campaign_journal_step(c, k, STEP_REBOOTED, extra);
}

int campaign_reboot(struct campaign *c, size_t k)
{
	struct reboot_options ro = {
		.timeout_s = c->plan.boot_timeout_s,
		.power_cycle = c->plan.power_cycle,
		.kexec = !strcmp(c->plan.backend, "kexec"),
	};
	struct reboot_result rr;
	bool oneshot = campaign_boot_is_oneshot(c, k);
	int r;

	/* grub2-reboot is run from here; the reboot script tells the others. */
	if (oneshot && !c->oneshot_grubby)
		ro.oneshot_entry = oneshot_entry_id(c);
	r = campaign_check_data_dir(c, "before the reboot");
	if (r < 0)
		return r;
	if (oneshot && (r = oneshot_arm(c, k)) < 0) {
		oneshot_remove_entry(c);
		return r;
	}
	if (c->local)
		return local_reboot(c, k);
	campaign_progress(c, k, "rebooting into mode %s", c->plan.modes[c->boots[k].mode].name);
	r = reboot_and_wait(c->target, &ro, &rr);
	if (rr.power_cycled)
		campaign_say(c, CAMPAIGN_WARNING, "boot %zu %s: no answer in time, the power-cycle command ran%s",
		    k + 1, c->boots[k].label,
		    oneshot ? "; a one-shot boot that hung comes back on the standing config" : "");
	if (oneshot && r != -EINTR)
		oneshot_remove_entry(c);
	if (r < 0) {
		campaign_say(c, CAMPAIGN_ERROR, "boot %zu %s: %s", k + 1, c->boots[k].label,
		    rr.error ? rr.error : strerror(-r));
		reboot_result_release(&rr);
		return r;
	}
	c->res->reboot_s += rr.seconds;
	if (rr.power_cycled && oneshot) {
		/* The test mode never came up: the power cycle brought back the standing config. */
		campaign_say(c, CAMPAIGN_ERROR, "boot %zu %s: mode %s did not come up within %u s; after the power cycle the box is on its standing config (mode %s, boot_id %s)",
		    k + 1, c->boots[k].label, c->plan.modes[c->boots[k].mode].name, c->plan.boot_timeout_s,
		    c->plan.modes[0].name, rr.after);
		reboot_result_release(&rr);
		return -EHOSTDOWN;
	}
	r = campaign_record_rebooted(c, k, rr.before, rr.after, rr.seconds);
	reboot_result_release(&rr);
	return r;
}

static int verify_with(struct campaign *c, size_t k, struct snapshot *given, struct snapshot *ret,
		       char **ret_summary);

/* A config this snapshot read, for the later boots of its kernel's build (one memo a build). */
void campaign_remember_config(struct campaign *c, const struct snapshot *snap)
{
	struct snapshot_config_memo memo;

	for (size_t i = 0; i < c->n_config_memos; i++)
		if (snap->build_id && !strcmp(c->config_memos[i].build_id, snap->build_id))
			return;
	if (snapshot_config_memo_from(snap, &memo) < 0)
		return;
	c->config_memos = xrealloc(c->config_memos, (c->n_config_memos + 1) * sizeof(*c->config_memos));
	c->config_memos[c->n_config_memos++] = memo;
}

/* Snapshot and verify. Returns the snapshot in *ret (when verify passed or failed: both keep it). */
int campaign_verify(struct campaign *c, size_t k, struct snapshot *ret, char **ret_summary)
{
	return verify_with(c, k, NULL, ret, ret_summary);
}

int campaign_verify_snapshot(struct campaign *c, size_t k, struct snapshot *given, struct snapshot *ret,
			     char **ret_summary)
{
	return verify_with(c, k, given, ret, ret_summary);
}

static int verify_with(struct campaign *c, size_t k, struct snapshot *given, struct snapshot *ret,
		       char **ret_summary)
{
	const struct plan_mode *m = &c->plan.modes[c->boots[k].mode];
	struct verify_expect *expects = xcalloc(m->expects.n + 1, sizeof(*expects));
	struct verify_boot_result res;
	struct parse_error err = PARSE_ERROR_INIT;
	size_t failed, n_expects = 0;
	struct strbuf sum = STRBUF_INIT;
	const struct target_snapshot_options memos = { .memos = c->config_memos, .n_memos = c->n_config_memos };
	int r;

	for (size_t i = 0; i < m->expects.n; i++) {
		char *error = NULL;

		/* The plan was checked when it was loaded. */
		if (verify_expect_parse(m->expects.items[i], &expects[n_expects], &error) == 0)
			n_expects++;
		free(error);
	}
	campaign_progress(c, k, "verifying from sysfs%s", given ? " (the snapshot the job took)" : "");
	{
		const struct verify_boot_request q = { .managed = c->managed, .asked = m->args, .expects = expects,
						       .n_expects = n_expects,
						       .kernel = campaign_mode_release(c, c->boots[k].mode),
						       .snapshot = &memos };

		if (given) {
			/* The snapshot is ours now, as verify_boot()'s would be. */
			memset(&res, 0, sizeof(res));
			res.snapshot = *given;
			memset(given, 0, sizeof(*given));
			verify_boot_check(&res.snapshot, &q, &res);
			r = 0;
		} else {
			r = verify_boot(c->target, &q, &res, &err);
			if (r == 0)
				campaign_remember_config(c, &res.snapshot);
		}
	}
	if (res.without_root)
		campaign_say(c, CAMPAIGN_WARNING, "boot %zu %s: %s; reading sysfs without root, kernel log not read",
			     k + 1, c->boots[k].label, res.without_root);
	if (r < 0) {
		campaign_say(c, CAMPAIGN_ERROR, "boot %zu %s: snapshot failed: %s", k + 1, c->boots[k].label,
			     err.message ? err.message : target_error(c->target));
		goto out;
	}
	/* Device names for the report, from this machine's pci.ids (absent: by number). */
	snapshot_describe(&res.snapshot, getenv("BOOTAB_PCI_IDS"));
	if (c->progress[k].boot_id && strcmp(res.snapshot.boot_id, c->progress[k].boot_id)) {
		campaign_say(c, CAMPAIGN_ERROR, "boot %zu %s: the box is on boot %s, not %s: it rebooted on its own",
			     k + 1, c->boots[k].label, res.snapshot.boot_id, c->progress[k].boot_id);
		r = -ESTALE;
		goto out;
	}
	failed = verify_report_failures(&res.report);
	json_decref(c->progress[k].proof);
	c->progress[k].proof = json_incref(res.proof);
	for (size_t i = 0; i < res.report.n; i++) {
		const struct verify_check *v = &res.report.v[i];

		if (v->status == VERIFY_FAILED) {
			campaign_say(c, CAMPAIGN_ERROR, "boot %zu %s: verify failed: %s: expected %s, found %s (read %s)",
				     k + 1, c->boots[k].label, v->what, v->expected ? v->expected : "-",
				     v->found ? v->found : "-", v->where ? v->where : "-");
			strbuf_addf(&sum, "%sFAILED %s: expected %s, found %s", sum.len ? "; " : "", v->what,
				    v->expected ? v->expected : "-", v->found ? v->found : "-");
		}
	}
	if (!failed) {
		size_t judged = 0;

		for (size_t i = 0; i < res.report.n; i++)
			judged += res.report.v[i].status == VERIFY_OK;
		strbuf_addf(&sum, "ok (%zu checks)", judged);
		campaign_progress(c, k, "verified: %zu checks hold", judged);
		r = 0;
	} else {
		r = -EPROTO;
	}
	*ret_summary = strbuf_detach(&sum, NULL);
	/* The snapshot is the caller's now. */
	*ret = res.snapshot;
	memset(&res.snapshot, 0, sizeof(res.snapshot));
out:
	verify_boot_result_release(&res);
	strbuf_release(&sum);
	for (size_t i = 0; i < n_expects; i++)
		verify_expect_release(&expects[i]);
	free(expects);
	parse_error_release(&err);
	return r;
}
