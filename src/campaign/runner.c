#include "campaign/runner.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/alloc.h"
#include "lib/shell-quote.h"
#include "lib/strbuf.h"

/*
 * The helpers every per-boot script carries (runner-helpers.sh, embedded at
 * build time as runner_helpers[]). The idle gate follows the
 * plan's [idle] section: CHECKS consecutive checks INTERVAL seconds apart
 * with the 1-minute load average below LOAD and every GPU busy below GPU %;
 * one busy check starts the count again. GPU busy is read from amdgpu's
 * gpu_busy_percent (Documentation/gpu/amdgpu/driver-misc.rst) on every
 * card, and from nvidia-smi (NVML's command-line client) where installed.
 */
#include "runner-helpers.h"

static void add_var(struct strbuf *sb, const char *name, const char *value)
{
	strbuf_addf(sb, "%s=", name);
	shell_quote_append(sb, value);
	strbuf_addch(sb, '\n');
}

static void add_comment(struct strbuf *sb, const char *prefix, const char *text)
{
	/* A command may span lines: comment every one of them. */
	strbuf_addf(sb, "# %s", prefix);
	for (const char *p = text; *p; p++) {
		strbuf_addch(sb, *p);
		if (*p == '\n')
			strbuf_addstr(sb, "#   ");
	}
	strbuf_addch(sb, '\n');
}

char *runner_generate(const struct plan *plan, const struct runner_options *o)
{
	struct strbuf sb = STRBUF_INIT;
	char num[64];

	strbuf_addf(&sb, "#!/bin/sh\n"
		    "# bootab per-boot script: campaign %s, boot %zu of %zu, %s (mode %s).\n"
		    "# Runs in the directory it sits in; rerun by hand with: sh run.sh\n"
		    "set -u\n"
		    "case $0 in */*) cd \"${0%%/*}\" || exit 1 ;; esac\n"
		    "LC_ALL=C\nexport LC_ALL\n\n",
		    o->campaign, o->boot_index + 1, o->n_boots, o->label, o->mode);
	snprintf(num, sizeof(num), "%g", plan->idle.load);
	add_var(&sb, "IDLE_LOAD", num);
	snprintf(num, sizeof(num), "%g", plan->idle.gpu_pct);
	add_var(&sb, "IDLE_GPU", num);
	snprintf(num, sizeof(num), "%u", plan->idle.checks);
	add_var(&sb, "IDLE_CHECKS", num);
	snprintf(num, sizeof(num), "%u", plan->idle.interval_s);
	add_var(&sb, "IDLE_INTERVAL", num);
	snprintf(num, sizeof(num), "%u", plan->idle.timeout_s);
	add_var(&sb, "IDLE_TIMEOUT", num);
	for (size_t i = 0; i < plan->n_rows; i++)
		if (plan_row_energy(plan, &plan->rows[i])) {
			char *powercap = xasprintf("%s/sys/class/powercap", o->root ? o->root : "");

			add_var(&sb, "POWERCAP", powercap);
			free(powercap);
			break;
		}
	strbuf_addch(&sb, '\n');
	strbuf_addstr(&sb, runner_helpers);

	strbuf_addstr(&sb, "\nclock_record\nread -r load_start < /proc/loadavg || load_start=\ntick\nrecord \"start $T $load_start\"\n");
	if (plan->n_versions)
		strbuf_addstr(&sb, "status versions\n");
	for (size_t i = 0; i < plan->n_versions; i++) {
		const struct plan_version *v = &plan->versions[i];

		add_comment(&sb, "version: ", v->command);
		strbuf_addstr(&sb, "sh -c ");
		shell_quote_append(&sb, v->command);
		strbuf_addf(&sb, " > version.%s 2> /dev/null < /dev/null\n", v->name);
		strbuf_addf(&sb, "record \"version %s $?\"\n", v->name);
	}
	if (o->park && plan->park.n) {
		strbuf_addstr(&sb, "status park\n");
		for (size_t i = 0; i < plan->park.n; i++) {
			strbuf_addstr(&sb, "sh -c ");
			shell_quote_append(&sb, plan->park.items[i]);
			strbuf_addf(&sb, " < /dev/null > park.%zu.out 2>&1\nrecord \"park %zu $?\"\n", i + 1, i + 1);
		}
	}
	for (size_t i = 0; i < plan->n_rows; i++) {
		const struct plan_row *r = &plan->rows[i];
		char timeout[32];

		snprintf(timeout, sizeof(timeout), "%u", r->timeout_s);
		strbuf_addf(&sb, "\n# %s %s: %u rep%s, timeout %us\n", r->check ? "check" : "row", r->name,
			    r->reps, r->reps == 1 ? "" : "s", r->timeout_s);
		add_comment(&sb, "", r->command);
		strbuf_addstr(&sb, "cmd=");
		shell_quote_append(&sb, r->command);
		strbuf_addch(&sb, '\n');
		strbuf_addf(&sb, "if idle_gate %s; then\n", r->name);
		for (unsigned rep = 1; rep <= r->reps; rep++) {
			strbuf_addf(&sb, "\tstatus \"%s %s %u/%u\"\n", r->check ? "check" : "row", r->name, rep, r->reps);
			strbuf_addf(&sb, "\trun_rep %s %u %s ", r->name, rep, timeout);
			shell_quote_append(&sb, r->user ? r->user : o->default_user ? o->default_user : "");
			strbuf_addstr(&sb, " \"$cmd\"");
			if (plan_row_perf(plan, r) || plan_row_energy(plan, r)) {
				strbuf_addch(&sb, ' ');
				shell_quote_append(&sb, plan_row_perf(plan, r) ? plan_row_perf(plan, r) : "");
				if (plan_row_perf_system(plan, r))
					strbuf_addstr(&sb, " system");
				else if (plan_row_energy(plan, r))
					strbuf_addstr(&sb, " ''");
			}
			if (plan_row_energy(plan, r))
				strbuf_addstr(&sb, " energy");
			strbuf_addch(&sb, '\n');
		}
		strbuf_addf(&sb, "else\n\trecord \"skip %s gate-timeout\"\nfi\n", r->name);
	}
	if (o->unpark && plan->unpark.n) {
		strbuf_addstr(&sb, "\nstatus unpark\n");
		for (size_t i = 0; i < plan->unpark.n; i++) {
			strbuf_addstr(&sb, "sh -c ");
			shell_quote_append(&sb, plan->unpark.items[i]);
			strbuf_addf(&sb, " < /dev/null > unpark.%zu.out 2>&1\nrecord \"unpark %zu $?\"\n", i + 1, i + 1);
		}
	}
	strbuf_addstr(&sb, "\ntick\nrecord \"end $T\"\nstatus \"done\"\n");
	return strbuf_detach(&sb, NULL);
}
