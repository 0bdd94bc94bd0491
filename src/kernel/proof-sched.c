/*
 * The CPU scheduling family of the proof table: isolcpus=, nohz_full=,
 * the cpufreq drivers and governor, preempt= and numa_balancing=, proven
 * from /sys/devices/system/cpu, debugfs and /proc/sys/kernel.
 */

#include "kernel/proof-internal.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "lib/alloc.h"
#include "lib/strbuf.h"

#define MAX_CPUS 65536

/*
 * A CPU list ("0-3,8,10-11", kernel-parameters.txt "cpu lists") in its
 * canonical form: sorted ranges, as sysfs prints them. NULL for what is
 * not a plain list (the "N", "all" and ":used/group" forms are not
 * compared). "" for an empty list.
 */
static char *cpulist_canonical(const char *s)
{
	unsigned char *set;
	struct strbuf sb = STRBUF_INIT;
	const char *p = s;

	if (!s)
		return NULL;
	set = xcalloc(MAX_CPUS, 1);
	while (*p && *p != '\n') {
		char *end;
		unsigned long a = strtoul(p, &end, 10), b = a;

		if (end == p || a >= MAX_CPUS)
			goto bad;
		p = end;
		if (*p == '-') {
			b = strtoul(p + 1, &end, 10);
			if (end == p + 1 || b >= MAX_CPUS || b < a)
				goto bad;
			p = end;
		}
		for (unsigned long c = a; c <= b; c++)
			set[c] = 1;
		if (*p == ',')
			p++;
		else if (*p && *p != '\n')
			goto bad;
	}
	for (unsigned long c = 0; c < MAX_CPUS; c++) {
		unsigned long e = c;

		if (!set[c])
			continue;
		while (e + 1 < MAX_CPUS && set[e + 1])
			e++;
		if (e == c)
			strbuf_addf(&sb, "%s%lu", sb.len ? "," : "", c);
		else
			strbuf_addf(&sb, "%s%lu-%lu", sb.len ? "," : "", c, e);
		c = e;
	}
	free(set);
	return strbuf_detach(&sb, NULL);
bad:
	free(set);
	strbuf_release(&sb);
	return NULL;
}

/* ------------------------------------------------------ CPU isolation, nohz */

#define CPU_ISOLATED "/sys/devices/system/cpu/isolated"
#define CPU_NOHZ_FULL "/sys/devices/system/cpu/nohz_full"

bool proof_isolcpus_match(const char *key, const struct verify_arg *a)
{
	return a->value && (!strcmp(key, "isolcpus") || !strcmp(key, "nohz_full"));
}

/*
 * kernel-parameters.txt (isolcpus=[flag-list,]cpu-list, nohz_full=);
 * Documentation/ABI/testing/sysfs-devices-system-cpu: "isolated" lists
 * the CPUs isolcpus= takes out of scheduler load balancing (its "domain"
 * flag, the default), "nohz_full" the adaptive-tick CPUs. The file is
 * absent on a kernel without CONFIG_NO_HZ_FULL.
 */
void proof_isolcpus_judge(struct judge *j)
{
	bool nohz = !strcmp(j->key, "nohz_full");
	const char *path = nohz ? CPU_NOHZ_FULL : CPU_ISOLATED;
	const char *list = j->a->value, *have = proof_state(j, path);
	char *want, *got;

	if (!nohz) {
		/* Flags come first, each ending in ','; without any, "domain" is meant. */
		bool flags = false, domain = false;

		while (*list && !(*list >= '0' && *list <= '9')) {
			size_t len = strcspn(list, ",");

			flags = true;
			domain |= len == 6 && !strncmp(list, "domain", 6);
			list += len + (list[len] == ',');
		}
		if (flags && !domain) {
			proof_check(j, VERIFY_NOTE, PROOF_CMDLINE, NULL, path,
				    "flags without domain: the isolated file does not show these CPUs (not judged)");
			return;
		}
	}
	want = cpulist_canonical(list);
	if (!want) {
		proof_check(j, VERIFY_NOTE, PROOF_CMDLINE, NULL, path,
			    "not a plain CPU list: not compared (add an expect line)");
		return;
	}
	/* An empty mask reads "" (older kernels: "(null)"). */
	got = have && strcmp(have, "(null)") ? cpulist_canonical(have) : have ? xstrdup("") : NULL;
	if (!have)
		MISSING(j, want, path, "absent%s", nohz ? " (a kernel without NO_HZ_FULL)" : "");
	else
		PROVE(j, got && !strcmp(got, want), want, path, "%s", *have ? have : "(empty)");
	free(want);
	free(got);
}

/* ---------------------------------------------------------------- cpufreq */

#define POLICY0_DRIVER "/sys/devices/system/cpu/cpufreq/policy0/scaling_driver"

/* The first policy's scaling_driver (snapshot.sh records the first one found). */
static const char *scaling_driver(const struct judge *j, const char **ret_path)
{
	for (size_t i = 0; i < j->snap->state.n; i++) {
		const char *name = j->snap->state.v[i].name;

		if (!strncmp(name, "/sys/devices/system/cpu/cpufreq/policy", 38) &&
		    strstr(name, "/scaling_driver")) {
			*ret_path = name;
			return j->snap->state.v[i].value;
		}
	}
	*ret_path = POLICY0_DRIVER;
	return NULL;
}

bool proof_pstate_match(const char *key, const struct verify_arg *a)
{
	return a->value && (!strcmp(key, "intel_pstate") || !strcmp(key, "amd_pstate"));
}

/*
 * kernel-parameters.txt (intel_pstate=, amd_pstate=);
 * Documentation/admin-guide/pm/intel_pstate.rst and amd-pstate.rst: the
 * driver's "status" file reads active, passive (amd: also guided) or off;
 * the scaling driver is intel_pstate (active), intel_cpufreq (passive),
 * amd-pstate-epp (active), amd-pstate (passive, guided).
 */
void proof_pstate_judge(struct judge *j)
{
	bool intel = !strcmp(j->key, "intel_pstate");
	const char *status_path = intel ? "/sys/devices/system/cpu/intel_pstate/status"
					: "/sys/devices/system/cpu/amd_pstate/status";
	const char *status = proof_state(j, status_path), *driver_path, *driver = scaling_driver(j, &driver_path);
	const char *value = j->a->value, *want_status = NULL, *want_driver = NULL;
	char *where = xasprintf("%s, %s", status_path, driver_path);

	if (intel && proof_has_option(value, "disable")) {
		PROVE(j, !status && (!driver || (strcmp(driver, "intel_pstate") && strcmp(driver, "intel_cpufreq"))),
		      "no intel_pstate status, another scaling driver", where, "status %s, driver %s",
		      status ? status : "(absent)", driver ? driver : "(none)");
		free(where);
		return;
	}
	if (!intel && !strcmp(value, "disable")) {
		PROVE(j, !driver || strncmp(driver, "amd-pstate", 10), "another scaling driver than amd-pstate",
		      where, "status %s, driver %s", status ? status : "(absent)", driver ? driver : "(none)");
		free(where);
		return;
	}
	if (intel && proof_has_option(value, "passive")) {
		want_status = "passive";
		want_driver = "intel_cpufreq";
	} else if (intel && proof_has_option(value, "active")) {
		want_status = "active";
		want_driver = "intel_pstate";
	} else if (!intel && (!strcmp(value, "active") || !strcmp(value, "passive") || !strcmp(value, "guided"))) {
		want_status = value;
		want_driver = !strcmp(value, "active") ? "amd-pstate-epp" : "amd-pstate";
	}
	if (want_status) {
		char *expected = xasprintf("status %s, driver %s", want_status, want_driver);

		PROVE(j, status && driver && !strcmp(status, want_status) && !strcmp(driver, want_driver), expected,
		      where, "status %s, driver %s", status ? status : "(absent)", driver ? driver : "(none)");
		free(expected);
	} else if (status && driver && (intel ? !strncmp(driver, "intel_", 6) : !strncmp(driver, "amd-pstate", 10))) {
		/* no_hwp, hwp_only, force, per_cpu_perf_limits...: the driver runs; the option leaves no file. */
		proof_check(j, VERIFY_NOTE, PROOF_CMDLINE, NULL, where,
			    "the driver runs (status %s, driver %s); this option leaves no trace in sysfs", status, driver);
	} else {
		PROVE(j, false, intel ? "the intel_pstate driver" : "the amd-pstate driver", where,
		      "status %s, driver %s", status ? status : "(absent)", driver ? driver : "(none)");
	}
	free(where);
}

bool proof_default_governor_match(const char *key, const struct verify_arg *a)
{
	return !strcmp(key, "cpufreq.default_governor") && a->value;
}

/*
 * kernel-parameters.txt (cpufreq.default_governor=);
 * Documentation/admin-guide/pm/cpufreq.rst: every policy's
 * scaling_governor starts with it.
 */
void proof_default_governor_judge(struct judge *j)
{
	const struct snapshot_entries *g = &j->snap->governors;
	static const char where[] = "/sys/devices/system/cpu/cpufreq/policy*/scaling_governor";
	struct strbuf other = STRBUF_INIT;

	if (g->n == 0) {
		MISSING(j, j->a->value, where, "no cpufreq policy");
		return;
	}
	for (size_t i = 0; i < g->n; i++)
		if (strcmp(g->v[i].value, j->a->value))
			strbuf_addf(&other, "%s%s %s", other.len ? ", " : "", g->v[i].name, g->v[i].value);
	if (other.len)
		PROVE(j, false, j->a->value, where, "%s", other.buf);
	else
		PROVE(j, true, j->a->value, where, "every one of %zu %s %s", g->n,
		      g->n == 1 ? "policy" : "policies", j->a->value);
	strbuf_release(&other);
}

/* ------------------------------------------------------------- preemption */

#define SCHED_PREEMPT "/sys/kernel/debug/sched/preempt"

bool proof_preempt_match(const char *key, const struct verify_arg *a)
{
	return !strcmp(key, "preempt") && a->value;
}

/*
 * kernel-parameters.txt (preempt=none|voluntary|full|lazy, on
 * PREEMPT_DYNAMIC kernels). The kernel publishes the mode only in debugfs
 * (sched/preempt, the selected one in parentheses; root, debugfs mounted,
 * and CONFIG_SCHED_DEBUG where the scheduler's debugfs files need it) and
 * in its log
 * ("Dynamic Preempt: full"). The build's "PREEMPT_DYNAMIC" is in
 * /proc/sys/kernel/version.
 */
void proof_preempt_judge(struct judge *j)
{
	const char *debugfs = proof_state(j, SCHED_PREEMPT), *version = proof_state(j, "/proc/sys/kernel/version");
	const char *line = proof_evidence_line(j->snap, "Dynamic Preempt: ");

	if (debugfs) {
		char *sel = proof_selected_word(debugfs, '(', ')');

		PROVE(j, sel && !strcmp(sel, j->a->value), j->a->value, SCHED_PREEMPT, "%s (%s)",
		      sel ? sel : "none selected", debugfs);
		free(sel);
		return;
	}
	if (version && !strstr(version, "PREEMPT_DYNAMIC")) {
		PROVE(j, false, "a PREEMPT_DYNAMIC kernel", "/proc/sys/kernel/version",
		      "%s (preempt= does nothing on this kernel)", version);
		return;
	}
	if (line) {
		const char *mode = strstr(line, "Dynamic Preempt: ") + strlen("Dynamic Preempt: ");

		if (strcmp(mode, j->a->value))
			proof_check(j, VERIFY_FAILED, PROOF_EVIDENCE, j->a->value, proof_log_where(j->snap),
				    "the kernel log says %s", line);
		else
			proof_check(j, VERIFY_NOTE, PROOF_EVIDENCE, NULL, proof_log_where(j->snap),
				    "%s (%s not readable: debugfs not mounted, or not root)", line, SCHED_PREEMPT);
		return;
	}
	proof_check(j, VERIFY_NOTE, PROOF_CMDLINE, NULL, SCHED_PREEMPT,
		    "not readable (debugfs not mounted, or not root) and no kernel-log line: not verified");
}

/* ---------------------------------------------------------- NUMA balancing */

#define NUMA_BALANCING "/proc/sys/kernel/numa_balancing"

bool proof_numa_balancing_match(const char *key, const struct verify_arg *a)
{
	return !strcmp(key, "numa_balancing") && (proof_value_is(a, "enable") || proof_value_is(a, "disable"));
}

/*
 * kernel-parameters.txt (numa_balancing=); Documentation/admin-guide/sysctl/
 * kernel.rst: numa_balancing reads 0 when off, 1 (or 2, 3 with memory
 * tiering) when on.
 */
void proof_numa_balancing_judge(struct judge *j)
{
	const char *v = proof_state(j, NUMA_BALANCING);
	bool want = proof_value_is(j->a, "enable");

	if (!v)
		MISSING(j, want ? "non-zero" : "0", NUMA_BALANCING, "absent (a kernel without NUMA balancing)");
	else
		PROVE(j, (strcmp(v, "0") != 0) == want, want ? "non-zero" : "0", NUMA_BALANCING, "%s", v);
}
