#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "campaign/internal.h"
#include "campaign/runner.h"
#include "lib/alloc.h"
#include "lib/clock.h"
#include "lib/process.h"
#include "target/target.h"
#include "target/exit-codes.h"

int campaign_start_rows(struct campaign *c, size_t k)
{
	struct runner_options so = {
		.campaign = c->name, .boot_index = k, .n_boots = c->n_boots,
		.label = c->boots[k].label, .mode = c->plan.modes[c->boots[k].mode].name,
		.park = k == 0, .unpark = k + 1 == c->n_boots, .default_user = c->rows_user,
	};
	char *script = runner_generate(&c->plan, &so);
	char *dir = campaign_remote_dir(c, k), *unit = xasprintf("bootab-%s-%s", c->name, c->boots[k].label);
	const char *args[] = { dir, unit, NULL };
	struct process_result res;
	int r;

	r = target_run_script(c->target, "run-start", args, script, strlen(script), false, 60000, &res);
	if (r < 0) {
		campaign_say(c, CAMPAIGN_ERROR, "boot %zu %s: cannot start the rows: %s", k + 1, c->boots[k].label,
		    target_error(c->target));
	} else if (res.exit_code == TARGET_EXIT_STARTED) {
		/* Already started on this boot (a resume after the start was lost): go on polling. */
		process_result_release(&res);
		r = 0;
	} else if (res.exit_code != 0) {
		campaign_say(c, CAMPAIGN_ERROR, "boot %zu %s: cannot start the rows (exit %d): %.*s", k + 1,
		    c->boots[k].label, res.exit_code, (int)strcspn(res.err, "\n"), res.err);
		process_result_release(&res);
		r = -EIO;
	} else {
		process_result_release(&res);
	}
	if (r == 0) {
		campaign_progress(c, k, "rows started in %s", dir);
		r = campaign_journal_step(c, k, STEP_STARTED, dir);
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
int campaign_wait_rows(struct campaign *c, size_t k)
{
	char *dir = campaign_remote_dir(c, k), *last = NULL;
	const char *args[] = { dir, NULL };
	double start = clock_now_s(), deadline = rows_deadline_s(&c->plan);
	unsigned poll = c->plan.poll_s ? c->plan.poll_s : 60;
	int r = -ETIMEDOUT, failures = 0;

	for (;;) {
		struct process_result res;
		int q;

		if (campaign_interrupted(c)) {
			r = -EINTR;
			break;
		}
		q = target_run_script(c->target, "run-status", args, NULL, 0, false, 30000, &res);
		if (q == 0 && res.exit_code == 0) {
			size_t n = strcspn(res.out, "\n");

			failures = 0;
			res.out[n] = '\0';
			if (!last || strcmp(last, res.out)) {
				campaign_progress(c, k, "%s", res.out);
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
			campaign_say(c, CAMPAIGN_WARNING, "boot %zu %s: status not readable (%s), retrying",
			    k + 1, c->boots[k].label, q < 0 ? target_error(c->target) : "no status file");
			target_drop_connection(c->target);
			if (target_boot_id(c->target, true, 15000, &id) == 0) {
				if (c->progress[k].boot_id && strcmp(id, c->progress[k].boot_id)) {
					campaign_say(c, CAMPAIGN_ERROR, "boot %zu %s: the box rebooted under the rows (boot_id %s); this boot's data is not used",
					    k + 1, c->boots[k].label, id);
					free(id);
					r = -ESTALE;
					break;
				}
				free(id);
			}
		}
		if (clock_now_s() - start > deadline) {
			campaign_say(c, CAMPAIGN_ERROR, "boot %zu %s: the rows did not finish within %.0f s", k + 1,
			    c->boots[k].label, deadline);
			r = -ETIMEDOUT;
			break;
		}
		/* While a row runs the box is not poked more than once per poll interval. */
		for (unsigned i = 0; i < poll * 10 && !campaign_interrupted(c); i++)
			clock_sleep_s(0.1);
	}
	free(last);
	free(dir);
	return r;
}
