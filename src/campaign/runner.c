#include "campaign/runner.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/alloc.h"
#include "lib/shell-quote.h"
#include "lib/strbuf.h"

/*
 * The helpers every per-boot script carries. The idle gate follows the
 * plan's [idle] section: CHECKS consecutive checks INTERVAL seconds apart
 * with the 1-minute load average below LOAD and every GPU busy below GPU %;
 * one busy check starts the count again. GPU busy is read from amdgpu's
 * gpu_busy_percent (Documentation/gpu/amdgpu/driver-misc.rst) on every
 * card, and from nvidia-smi (NVML's command-line client) where installed.
 */
static const char helpers[] =
	"now() { date -u +%Y-%m-%dT%H:%M:%SZ; }\n"
	"secs() { date +%s; }\n"
	"status() { printf '%s\\n' \"$*\" > status.tmp && mv status.tmp status; printf '%s\\n' \"$*\" >> progress; }\n"
	"record() { printf '%s\\n' \"$*\" >> results; }\n"
	"\n"
	"gpu_busy() {\n"
	"\tbusy=0\n"
	"\tfor f in /sys/class/drm/card*/device/gpu_busy_percent; do\n"
	"\t\t[ -r \"$f\" ] || continue\n"
	"\t\tv=$(head -c 16 \"$f\" 2>/dev/null) || continue\n"
	"\t\tcase $v in '' | *[!0-9]*) continue ;; esac\n"
	"\t\t[ \"$v\" -gt \"$busy\" ] && busy=$v\n"
	"\tdone\n"
	"\tif command -v nvidia-smi >/dev/null 2>&1; then\n"
	"\t\tfor v in $(nvidia-smi --query-gpu=utilization.gpu --format=csv,noheader,nounits 2>/dev/null); do\n"
	"\t\t\tcase $v in '' | *[!0-9]*) continue ;; esac\n"
	"\t\t\t[ \"$v\" -gt \"$busy\" ] && busy=$v\n"
	"\t\tdone\n"
	"\tfi\n"
	"\techo \"$busy\"\n"
	"}\n"
	"\n"
	"# idle_gate ROW: wait until the box is idle; records the wait.\n"
	"idle_gate() {\n"
	"\tstatus \"gate $1\"\n"
	"\tgate_start=$(secs)\n"
	"\tn=0\n"
	"\twhile :; do\n"
	"\t\tload=$(cut -d ' ' -f 1 /proc/loadavg)\n"
	"\t\tgpu=$(gpu_busy)\n"
	"\t\tif awk -v l=\"$load\" -v g=\"$gpu\" -v ml=\"$IDLE_LOAD\" -v mg=\"$IDLE_GPU\" 'BEGIN { exit !(l + 0 < ml + 0 && g + 0 < mg + 0) }'; then\n"
	"\t\t\tn=$((n + 1))\n"
	"\t\telse\n"
	"\t\t\tn=0\n"
	"\t\tfi\n"
	"\t\tsleep \"$IDLE_INTERVAL\"\n"
	"\t\t[ \"$n\" -ge \"$IDLE_CHECKS\" ] && break\n"
	"\t\tif [ \"$IDLE_TIMEOUT\" -gt 0 ] && [ $(($(secs) - gate_start)) -ge \"$IDLE_TIMEOUT\" ]; then\n"
	"\t\t\trecord \"gate $1 timeout $(($(secs) - gate_start))\"\n"
	"\t\t\treturn 1\n"
	"\t\tfi\n"
	"\tdone\n"
	"\trecord \"gate $1 ok $(($(secs) - gate_start))\"\n"
	"}\n"
	"\n"
	"# run_rep ROW REP TIMEOUT USER COMMAND: one rep, as USER (empty: as we are).\n"
	"run_rep() {\n"
	"\trow=$1 rep=$2 limit=$3 user=$4 command=$5\n"
	"\tif [ -z \"$user\" ] || [ \"$user\" = \"$(id -un)\" ]; then\n"
	"\t\tset -- sh -c \"$command\"\n"
	"\telse\n"
	"\t\tset -- sudo -n -u \"$user\" sh -c \"$command\"\n"
	"\tfi\n"
	"\tif command -v timeout >/dev/null 2>&1; then\n"
	"\t\tset -- timeout \"$limit\" \"$@\"\n"
	"\tfi\n"
	"\trep_start=$(now)\n"
	"\trep_secs=$(secs)\n"
	"\t\"$@\" > \"$row.$rep.out\" 2> \"$row.$rep.err\" < /dev/null\n"
	"\trc=$?\n"
	"\trecord \"rep $row $rep $rc $rep_start $(now) $(($(secs) - rep_secs))\"\n"
	"\tprintf 'rep %s %s %s %s\\n' \"$row\" \"$rep\" \"$rc\" \"$(($(secs) - rep_secs))\" >> progress\n"
	"}\n";

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
		    "cd \"$(dirname \"$0\")\" || exit 1\n"
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
	strbuf_addch(&sb, '\n');
	strbuf_addstr(&sb, helpers);

	strbuf_addstr(&sb, "\nrecord \"start $(now) $(cat /proc/loadavg)\"\n");
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
			strbuf_addstr(&sb, " \"$cmd\"\n");
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
	strbuf_addstr(&sb, "\nrecord \"end $(now)\"\nstatus \"done\"\n");
	return strbuf_detach(&sb, NULL);
}
