#include <stdio.h>
#include <stdlib.h>

#include "campaign/internal.h"
#include "campaign/progress.h"
#include "campaign/runner.h"
#include "lib/shell-quote.h"
#include "lib/strbuf.h"
#include "lib/strvec.h"

/* Prints argv as one shell line: every word quoted, so the line pastes into a shell as is. */
static void print_command(struct strvec *argv)
{
	struct strbuf sb = STRBUF_INIT;

	shell_quote_argv_append_readable(&sb, strvec_argv(argv));
	printf("%s\n", strbuf_str(&sb));
	strbuf_release(&sb);
	strvec_release(argv);
}

/*
 * The bootab commands that do boot k's steps by hand: set, reboot, verify
 * (with the managed args, as the campaign checks that no other managed
 * arg is left), snapshot.
 */
static void print_steps(const struct campaign *c, const struct plan_mode *m, const char *managed)
{
	const char *target = c->plan.target ? c->plan.target : "?";
	struct strvec v = STRVEC_INIT;

	strvec_push_all(&v, (const char *const[]){ "bootab", "set", "--target", target, "--backend",
						    c->plan.backend, "--managed", managed, "--args",
						    m->args_text, NULL });
	print_command(&v);
	strvec_push_all(&v, (const char *const[]){ "bootab", "reboot", "--target", target, "--timeout", NULL });
	strvec_pushf(&v, "%u", c->plan.boot_timeout_s);
	if (c->plan.power_cycle)
		strvec_push_all(&v, (const char *const[]){ "--power-cycle", c->plan.power_cycle, NULL });
	print_command(&v);
	strvec_push_all(&v, (const char *const[]){ "bootab", "verify", "--target", target, "--managed",
						    managed, "--args", m->args_text, NULL });
	for (size_t e = 0; e < m->expects.n; e++)
		strvec_push_all(&v, (const char *const[]){ "--expect", m->expects.items[e], NULL });
	print_command(&v);
	strvec_push_all(&v, (const char *const[]){ "bootab", "snapshot", "--target", target, NULL });
	print_command(&v);
}

/* target = lava: each boot's job definition, as it would be submitted. */
static void dry_run_lava(struct campaign *c)
{
	printf("campaign %s: %zu boots as LAVA jobs on %s, data in %s\n", c->name, c->n_boots, c->plan.lava.url, c->dir);
	for (size_t k = 0; k < c->n_boots; k++) {
		char *job = lava_campaign_job(c, k);

		printf("\n== boot %zu/%zu: %s (mode %s): the job POSTed to %s/api/v0.2/jobs/\n%s", k + 1, c->n_boots,
		       c->boots[k].label, c->plan.modes[c->boots[k].mode].name, c->plan.lava.url, job);
		free(job);
	}
}

void campaign_dry_run(struct campaign *c)
{
	struct strbuf managed = STRBUF_INIT;

	if (plan_is_lava(&c->plan)) {
		dry_run_lava(c);
		return;
	}
	for (char **a = c->managed; *a; a++)
		strbuf_addf(&managed, "%s%s", a == c->managed ? "" : " ", *a);
	printf("campaign %s: %zu boots on %s, data in %s\n", c->name, c->n_boots,
	       c->plan.target ? c->plan.target : "(no target)", c->dir);
	for (size_t k = 0; k < c->n_boots; k++) {
		const struct plan_mode *m = &c->plan.modes[c->boots[k].mode];
		struct runner_options so = {
			.campaign = c->name, .boot_index = k, .n_boots = c->n_boots,
			.label = c->boots[k].label, .mode = m->name, .park = k == 0,
			.unpark = k + 1 == c->n_boots,
		};
		char *script = runner_generate(&c->plan, &so), *dir = campaign_remote_dir(c, k);

		printf("\n== boot %zu/%zu: %s (mode %s)\n", k + 1, c->n_boots, c->boots[k].label, m->name);
		print_steps(c, m, strbuf_str(&managed));
		printf("# the per-boot script, started detached in %s:\n%s", dir, script);
		printf("# then its results are fetched into %s/%s\n", c->dir, c->boots[k].label);
		free(script);
		free(dir);
	}
	strbuf_release(&managed);
}
