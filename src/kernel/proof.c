/*
 * The proof table and the engine that walks it: each asked arg to the
 * entry that knows it (the parameter families are proof-*.c), the level
 * each arg reached, and the touch map of a mode judged on the standing boot.
 */

#include "kernel/proof-internal.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "kernel/cmdline.h"
#include "kernel/iommu.h"
#include "kernel/refusal.h"
#include "lib/alloc.h"
#include "lib/strbuf.h"
#include "lib/strvec.h"

/*
 * Every entry cites Documentation/admin-guide/kernel-parameters.txt
 * ("kernel-parameters.txt" below) for what the parameter does, and the
 * ABI document for the file that shows it.
 */

const char *proof_level_name(enum proof_level level)
{
	switch (level) {
	case PROOF_PROVEN:
		return "proven";
	case PROOF_EVIDENCE:
		return "evidence";
	case PROOF_CMDLINE:
		break;
	}
	return "cmdline only";
}

int proof_level_parse(const char *s, enum proof_level *ret)
{
	static const enum proof_level all[] = { PROOF_CMDLINE, PROOF_EVIDENCE, PROOF_PROVEN };

	for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++) {
		if (s && !strcmp(s, proof_level_name(all[i]))) {
			*ret = all[i];
			return 0;
		}
	}
	return -EINVAL;
}

static char *arg_text(const struct verify_arg *a)
{
	return a->value ? xasprintf("%s=%s", a->name, a->value) : xstrdup(a->name);
}

/* ---------------------------------------------------------------- the table */

struct entry {
	struct proof_param doc;
	bool (*match)(const char *key, const struct verify_arg *a);
	void (*judge)(struct judge *j);
	bool iommu;               /* show the IOMMU kernel-log evidence next to it */
};

static const struct entry table[] = {
	{ { "iommu=pt, iommu.passthrough=1", "every IOMMU group's type is identity (groups the kernel keeps strict are listed)",
	    "kernel-parameters.txt (iommu=, iommu.passthrough=); ABI testing/sysfs-kernel-iommu_groups" },
	  proof_passthrough_match, proof_passthrough_judge, true },
	{ { "iommu.strict=1", "translated groups are DMA, none DMA-FQ",
	    "kernel-parameters.txt (iommu.strict=); ABI testing/sysfs-kernel-iommu_groups" },
	  proof_strict_match, proof_strict_judge, true },
	{ { "amd_iommu=off, intel_iommu=off", "no IOMMU groups, /sys/class/iommu empty",
	    "kernel-parameters.txt (amd_iommu=, intel_iommu=); ABI testing/sysfs-class-iommu" },
	  proof_iommu_off_match, proof_iommu_off_judge, true },
	{ { "mitigations=off", "every affected vulnerabilities entry reads Vulnerable",
	    "kernel-parameters.txt (mitigations=); ABI testing/sysfs-devices-system-cpu (vulnerabilities)" },
	  proof_mitigations_off_match, proof_mitigations_off_judge, false },
	{ { "mitigations=auto,nosmt", "smt/control off and smt/active 0 where mds, tsx_async_abort, mmio_stale_data or l1tf is affected",
	    "kernel-parameters.txt (mitigations=); hw-vuln/mds.rst, l1tf.rst; ABI testing/sysfs-devices-system-cpu (smt)" },
	  proof_mitigations_nosmt_match, proof_mitigations_nosmt_judge, false },
	{ { "nosmt, nosmt=force", "smt/control off (forceoff) and smt/active 0; notsupported: no SMT",
	    "kernel-parameters.txt (nosmt); ABI testing/sysfs-devices-system-cpu (smt/control, smt/active)" },
	  proof_nosmt_match, proof_nosmt_judge, false },
	{ { "pti=on|off|auto, nopti", "the pti flag in /proc/cpuinfo (auto: set where meltdown is affected); the isolation log line as evidence",
	    "kernel-parameters.txt (pti=, nopti); Documentation/arch/x86/pti.rst" },
	  proof_pti_match, proof_pti_judge, false },
	{ { "transparent_hugepage=always|madvise|never", "the selected [value] of /sys/kernel/mm/transparent_hugepage/enabled",
	    "kernel-parameters.txt (transparent_hugepage=); admin-guide/mm/transhuge.rst" },
	  proof_thp_match, proof_thp_judge, false },
	{ { "hugepages=, hugepagesz=, default_hugepagesz=", "nr_hugepages of the size in /sys/kernel/mm/hugepages; Hugepagesize in /proc/meminfo",
	    "kernel-parameters.txt (hugepages=, hugepagesz=, default_hugepagesz=); admin-guide/mm/hugetlbpage.rst; ABI testing/sysfs-kernel-mm-hugepages" },
	  proof_hugepages_match, proof_hugepages_judge, false },
	{ { "isolcpus=, nohz_full=", "/sys/devices/system/cpu/isolated, /sys/devices/system/cpu/nohz_full (CPU lists compared as sets)",
	    "kernel-parameters.txt (isolcpus=, nohz_full=); ABI testing/sysfs-devices-system-cpu (isolated, nohz_full)" },
	  proof_isolcpus_match, proof_isolcpus_judge, false },
	{ { "intel_pstate=, amd_pstate=", "the driver's status file and the first policy's scaling_driver",
	    "kernel-parameters.txt (intel_pstate=, amd_pstate=); admin-guide/pm/intel_pstate.rst, amd-pstate.rst" },
	  proof_pstate_match, proof_pstate_judge, false },
	{ { "cpufreq.default_governor=", "scaling_governor of every cpufreq policy",
	    "kernel-parameters.txt (cpufreq.default_governor=); admin-guide/pm/cpufreq.rst" },
	  proof_default_governor_match, proof_default_governor_judge, false },
	{ { "preempt=none|voluntary|full|lazy", "/sys/kernel/debug/sched/preempt (root, debugfs); else the \"Dynamic Preempt\" log line as evidence",
	    "kernel-parameters.txt (preempt=); kernel/sched/debug.c (sched/preempt)" },
	  proof_preempt_match, proof_preempt_judge, false },
	{ { "numa_balancing=enable|disable", "/proc/sys/kernel/numa_balancing (0 off, else on)",
	    "kernel-parameters.txt (numa_balancing=); admin-guide/sysctl/kernel.rst (numa_balancing)" },
	  proof_numa_balancing_match, proof_numa_balancing_judge, false },
	{ { "spectre_v2=, nospectre_v1, nospectre_v2, spec_store_bypass_disable=, nospec_store_bypass_disable, retbleed=, l1tf=, mds=, tsx_async_abort=, mmio_stale_data=, srbds=, gather_data_sampling=, spec_rstack_overflow=, reg_file_data_sampling=, indirect_target_selection=",
	    "the control's own vulnerabilities entry: off reads Vulnerable, other values a Mitigation; not judged where it reads Not affected",
	    "kernel-parameters.txt (each control); admin-guide/hw-vuln/; ABI testing/sysfs-devices-system-cpu (vulnerabilities)" },
	  proof_speculation_match, proof_speculation_judge, false },
	{ { "init_on_alloc=, init_on_free=", "no sysfs trace: the \"mem auto-init\" log line as evidence (a disagreeing line fails)",
	    "kernel-parameters.txt (init_on_alloc=, init_on_free=)" },
	  proof_init_on_match, proof_init_on_judge, false },
	{ { "nokaslr", "no sysfs trace: _text in /proc/kallsyms (root) at the link address as evidence; elsewhere it fails",
	    "kernel-parameters.txt (nokaslr)" },
	  proof_nokaslr_match, proof_nokaslr_judge, false },
	{ { "MODULE.PARAM=V", "/sys/module/MODULE/parameters/PARAM (booleans compared as booleans)",
	    "kernel-parameters.txt (module parameters); ABI stable/sysfs-module" },
	  proof_module_param_match, proof_module_param_judge, false },
};

#define N_TABLE (sizeof(table) / sizeof(table[0]))

const struct proof_param *proof_params(size_t *ret_n)
{
	static struct proof_param docs[N_TABLE];

	for (size_t i = 0; i < N_TABLE; i++)
		docs[i] = table[i].doc;
	*ret_n = N_TABLE;
	return docs;
}

static const struct entry *entry_for(const char *key, const struct verify_arg *a)
{
	for (size_t i = 0; i < N_TABLE; i++)
		if (table[i].match(key, a))
			return &table[i];
	return NULL;
}

/* The last occurrence of name in args (the kernel applies them in order). */
static bool is_last(const struct verify_args *args, size_t index)
{
	for (size_t i = index + 1; i < args->n; i++)
		if (cmdline_name_equal(args->v[i].name, args->v[index].name))
			return false;
	return true;
}

static bool iommu_name(const char *key)
{
	return !strncmp(key, "iommu", 5) || strstr(key, "_iommu");
}

/*
 * An IOMMU driver's parameter on a box whose IOMMU units are all the other
 * vendor's: /sys/class/iommu names Intel's units dmar<N>
 * (drivers/iommu/intel/dmar.c) and AMD's ivhd<N> (drivers/iommu/amd/init.c).
 * Without units the box does not tell.
 */
static const char *iommu_vendor_inert(const struct snapshot *snap, const char *key)
{
	bool intel = false, amd = false;

	for (size_t i = 0; i < snap->n_iommu_classes; i++) {
		intel |= !strncmp(snap->iommu_classes[i], "dmar", 4);
		amd |= !strncmp(snap->iommu_classes[i], "ivhd", 4);
	}
	if (!strcmp(key, "amd_iommu") && intel && !amd)
		return "the box's IOMMU is Intel's (dmar units in /sys/class/iommu); amd_iommu= acts on AMD's";
	if (!strcmp(key, "intel_iommu") && amd && !intel)
		return "the box's IOMMU is AMD's (ivhd units in /sys/class/iommu); intel_iommu= acts on Intel's";
	return NULL;
}

/* Judges args->v[index]; returns whether it is IOMMU-related. */
static bool judge_one(const struct snapshot *snap, const struct verify_args *args, size_t index,
		      const char *watch, struct verify_report *report, const char **ret_inert,
		      bool *ret_missing)
{
	const struct verify_arg *a = &args->v[index];
	char *key = proof_param_key(a->name), *what = arg_text(a);
	const struct entry *e = entry_for(key, a);
	struct judge j = { .snap = snap, .args = args, .index = index, .a = a, .key = key,
			   .what = what, .report = report, .watch = watch };
	bool iommu = e ? e->iommu : iommu_name(key);

	/* hugepages= pairs with the hugepagesz= before it: every one counts, not the last. */
	if (e && e->judge == proof_hugepages_judge && strcmp(key, "default_hugepagesz"))
		;
	else if (!is_last(args, index))
		goto out;
	if (e)
		e->judge(&j);
	else
		proof_check(&j, VERIFY_NOTE, PROOF_CMDLINE, NULL, "/proc/cmdline",
			    "no built-in proof for this parameter (an expect line can add one)");
out:
	if (!j.inert)
		j.inert = iommu_vendor_inert(snap, key);
	if (ret_inert)
		*ret_inert = j.inert;
	if (ret_missing)
		*ret_missing = j.missing;
	free(key);
	free(what);
	return iommu;
}

void proof_judge(const struct snapshot *snap, const struct verify_args *asked,
		 struct verify_report *report)
{
	bool iommu = false;

	for (size_t i = 0; i < asked->n; i++)
		iommu |= judge_one(snap, asked, i, NULL, report, NULL, NULL);
	/* The kernel's own word that it ignored an arg fails it, known to the table or not. */
	refusals_judge(snap, asked, report);
	if (!iommu)
		return;
	/* Evidence, shown next to the proof, never instead of it. */
	for (size_t k = 0; k < snap->n_log_lines; k++) {
		const char *line = strstr(snap->log_lines[k], "Default domain type");

		if (line) {
			/* The kernel prints "Translated " with a trailing blank. */
			int len = (int)strlen(line);

			while (len > 0 && line[len - 1] == ' ')
				len--;
			verify_report_add(report, VERIFY_NOTE, PROOF_EVIDENCE, NULL, "kernel log (not trusted)",
					  NULL, snapshot_log_source_name(snap->log_source), "%.*s", len, line);
			break;
		}
	}
}

int proof_levels(const struct verify_report *report, const struct verify_args *asked,
		 enum proof_level *ret)
{
	int weakest = -1;

	for (size_t i = 0; i < asked->n; i++) {
		char *what = arg_text(&asked->v[i]);
		enum proof_level level = PROOF_CMDLINE;

		for (size_t k = 0; k < report->n; k++) {
			const struct verify_check *c = &report->v[k];

			if (!c->arg || strcmp(c->arg, what))
				continue;
			if ((c->status == VERIFY_OK || (c->status == VERIFY_NOTE && c->level == PROOF_EVIDENCE) ||
			     (c->status == VERIFY_FAILED && c->level > PROOF_CMDLINE)) &&
			    c->level > level)
				level = c->level;
		}
		ret[i] = level;
		if (weakest < 0 || (int)level < weakest)
			weakest = (int)level;
		free(what);
	}
	return weakest;
}

json_t *proof_levels_json(const struct verify_report *report, const struct verify_args *asked)
{
	enum proof_level *levels = xcalloc(asked->n + 1, sizeof(*levels));
	int weakest = proof_levels(report, asked, levels);
	json_t *args = json_array();

	for (size_t i = 0; i < asked->n; i++) {
		char *what = arg_text(&asked->v[i]);

		json_array_append_new(args, json_pack("{s:s, s:s}", "arg", what, "level",
						      proof_level_name(levels[i])));
		free(what);
	}
	free(levels);
	return json_pack("{s:o, s:o}", "level",
			 weakest < 0 ? json_null() : json_string(proof_level_name((enum proof_level)weakest)),
			 "args", args);
}

/* ---------------------------------------------------------------- touch map */

static void touch_add(struct touch_map *map, const char *arg, enum touch_verdict verdict,
		      const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static void touch_add(struct touch_map *map, const char *arg, enum touch_verdict verdict,
		      const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	GROW(map->v, map->alloc, map->n + 1);
	map->v[map->n++] = (struct touch_item){ xstrdup(arg), verdict, strbuf_detach(&sb, NULL) };
}

/*
 * The line of the standing boot's log in which its kernel refused arg a,
 * when the standing command line holds a as the mode asks it; else NULL.
 */
static const char *standing_refusal(const struct snapshot *standing, const struct verify_arg *a)
{
	struct cmdline line = CMDLINE_INIT;
	const struct cmdline_token *t;
	const char *found = NULL;

	if (!standing->cmdline || cmdline_parse(standing->cmdline, CMDLINE_TOLERANT, &line, NULL) < 0)
		return NULL;
	t = cmdline_find_last(&line, a->name);
	if (t && (t->value && a->value ? !strcmp(t->value, a->value) : !t->value && !a->value))
		for (size_t k = 0; k < standing->n_evidence && !found; k++)
			if (refusal_line_names(standing->evidence[k], a->name))
				found = refusal_message(standing->evidence[k]);
	cmdline_release(&line);
	return found;
}

/*
 * The standing boot judged as if it were the mode: an arg whose proof
 * already holds there (or that finds nothing to act on) can change
 * nothing; one whose proof fails there changes what it names.
 */
void proof_touch(const struct snapshot *standing, const struct verify_args *mode_args,
		 const char *watch, struct touch_map *ret)
{
	for (size_t i = 0; i < mode_args->n; i++) {
		struct verify_report r = { 0 };
		char *what = arg_text(&mode_args->v[i]);
		const char *inert = NULL, *refused;
		bool failed = false, proven = false, missing = false;
		struct strbuf found = STRBUF_INIT;

		judge_one(standing, mode_args, i, watch, &r, &inert, &missing);
		for (size_t k = 0; k < r.n; k++) {
			const struct verify_check *c = &r.v[k];

			if (!c->arg)
				continue;
			failed |= c->status == VERIFY_FAILED && c->level == PROOF_PROVEN;
			proven |= c->status == VERIFY_OK && c->level == PROOF_PROVEN;
		}
		for (size_t k = 0; k < r.n; k++) {
			const struct verify_check *c = &r.v[k];

			/* What sysfs says; a log line only where nothing else does. */
			if (c->arg && (c->level == PROOF_PROVEN || (!failed && !proven)))
				strbuf_addf(&found, "%s%s (%s)", found.len ? "; " : "", c->found, c->where);
		}
		refused = standing_refusal(standing, &mode_args->v[i]);
		if (r.n == 0)
			; /* A repeated name: its last occurrence is judged. */
		else if (refused)
			touch_add(ret, what, TOUCH_NOTHING, "the running kernel did not take it on the standing boot: %s",
				  refused);
		else if (inert)
			touch_add(ret, what, TOUCH_NOTHING, "%s: %s", inert, found.buf);
		else if (proven && !failed)
			touch_add(ret, what, TOUCH_NOTHING, "the standing boot is already so: %s", found.buf);
		else if (failed && !missing)
			touch_add(ret, what, TOUCH_CHANGES, "now %s", found.buf);
		else
			touch_add(ret, what, TOUCH_UNKNOWN, "sysfs does not tell: %s", found.buf);
		strbuf_release(&found);
		verify_report_release(&r);
		free(what);
	}
}

void touch_map_release(struct touch_map *map)
{
	for (size_t i = 0; i < map->n; i++) {
		free(map->v[i].arg);
		free(map->v[i].text);
	}
	free(map->v);
	map->v = NULL;
	map->n = map->alloc = 0;
}
