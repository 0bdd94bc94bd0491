#include "target/reboot.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lib/alloc.h"
#include "lib/clock.h"
#include "lib/process.h"

/*
 * Polls until a boot_id other than before answers or timeout_s passes.
 * Returns 0 and *ret_boot_id (the caller's), or -ETIMEDOUT. Each attempt
 * is a fresh connection bounded as a whole: QEMU's port forward, and some
 * firewalls, accept TCP while the box is down, and ssh then waits for a
 * banner that never comes.
 */
static int reboot_wait_new_boot(struct target *t, const char *before, double timeout_s, int attempt_ms,
				char **ret_boot_id)
{
	double start = clock_now_s();

	for (;;) {
		double attempt_start = clock_now_s(), left;
		char *id = NULL;

		if (target_poll_boot_id(t, attempt_ms, &id) == 0) {
			if (strcmp(id, before)) {
				*ret_boot_id = id;
				return 0;
			}
			free(id);
			target_drop_connection(t);
		}
		left = timeout_s - (clock_now_s() - start);
		if (left <= 0)
			return -ETIMEDOUT;
		/* About every 2 s: a short attempt waits out the rest. */
		if (clock_now_s() - attempt_start < 2.0)
			clock_sleep_s(2.0 - (clock_now_s() - attempt_start));
	}
}

static char *first_line(const char *s)
{
	return xstrndup(s, strcspn(s, "\n"));
}

int target_ask_oneshot(struct target *t, const char *entry, char **ret_error)
{
	const char *args[] = { entry, NULL };
	struct process_result res;
	int r = target_run_script(t, "oneshot", args, NULL, 0, true, 60000, &res);

	if (r < 0) {
		*ret_error = xstrdup(target_error(t));
		return r;
	}
	if (res.exit_code != 0) {
		char *why = first_line(res.err);

		*ret_error = xasprintf("one-shot boot of '%s' failed: %s", entry, *why ? why : "no message");
		free(why);
		process_result_release(&res);
		return -EIO;
	}
	process_result_release(&res);
	return 0;
}

/* The boot id before, root, the one-shot asked for, and the reboot command. 0 or -errno (ret->error says why). */
static int ask_reboot(struct target *t, const struct reboot_options *o, struct reboot_result *ret, double *ret_start)
{
	struct process_result res;
	int r;

	r = target_boot_id(t, false, 30000, &ret->before);
	if (r < 0) {
		ret->error = xstrdup(target_error(t));
		return r;
	}
	r = target_probe_root(t);
	if (r < 0) {
		ret->error = xstrdup(target_error(t));
		return r;
	}
	if (o->oneshot_entry) {
		r = target_ask_oneshot(t, o->oneshot_entry, &ret->error);
		if (r < 0)
			return r;
	}
	*ret_start = clock_now_s();
	{
		const char *args[] = { o->kexec ? "kexec" : "reboot", NULL };

		r = target_run_script(t, "reboot", args, NULL, 0, true, 30000, &res);
	}
	if (r == 0) {
		if (res.exit_code != 0) {
			char *why = first_line(res.err);

			ret->error = xasprintf("reboot failed (exit %d): %s", res.exit_code, why);
			free(why);
			process_result_release(&res);
			return -EIO;
		}
		process_result_release(&res);
	} else if (r != -EHOSTUNREACH && r != -ETIMEDOUT) {
		ret->error = xstrdup(target_error(t));
		return r;
	}
	return 0;
}

int reboot_and_wait(struct target *t, const struct reboot_options *o, struct reboot_result *ret)
{
	double timeout = o->timeout_s > 0 ? o->timeout_s : 300;
	int attempt_ms = o->attempt_ms > 0 ? o->attempt_ms : 10000;
	struct process_result res;
	double start;
	int r;

	memset(ret, 0, sizeof(*ret));
	/* The boot id, the one-shot and the reboot itself in one session. */
	target_batch_begin(t);
	r = ask_reboot(t, o, ret, &start);
	/* The connection may drop as the box goes down; the boot_id decides. The master's connection dies with the box. */
	if (r == 0)
		target_drop_connection(t);
	target_batch_end(t);
	if (r < 0)
		return r;
	r = reboot_wait_new_boot(t, ret->before, timeout, attempt_ms, &ret->after);
	if (r == 0) {
		ret->seconds = clock_now_s() - start;
		return 0;
	}
	if (!o->power_cycle) {
		ret->error = xasprintf("no new boot answered within %.0f s (boot_id still %s or no answer), and no power-cycle command is set",
				       timeout, ret->before);
		return -ETIMEDOUT;
	}
	{
		/* The user's own command from their plan: it is theirs to quote. */
		const char *pc[] = { "sh", "-c", o->power_cycle, NULL };
		struct process_options po = { .timeout_ms = 120000 };

		ret->power_cycled = true;
		r = process_run(pc, &po, &res);
		if (r < 0 || res.exit_code != 0) {
			ret->error = xasprintf("no new boot within %.0f s, and the power-cycle command failed (%s)",
					       timeout, r < 0 ? strerror(-r) : res.timed_out ? "timed out" : "non-zero exit");
			if (r == 0)
				process_result_release(&res);
			return -ETIMEDOUT;
		}
		process_result_release(&res);
	}
	r = reboot_wait_new_boot(t, ret->before, timeout, attempt_ms, &ret->after);
	if (r < 0) {
		ret->error = xasprintf("no new boot answered within %.0f s, nor within %.0f s after the power cycle",
				       timeout, timeout);
		return -ETIMEDOUT;
	}
	ret->seconds = clock_now_s() - start;
	return 0;
}

void reboot_result_release(struct reboot_result *r)
{
	free(r->before);
	free(r->after);
	free(r->error);
	memset(r, 0, sizeof(*r));
}
