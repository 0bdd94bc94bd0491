#include "kernel/proof.h"

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

/* One arg being judged. */
struct judge {
	const struct snapshot *snap;
	const struct verify_args *args;
	size_t index;
	const struct verify_arg *a;
	const char *key;          /* the name with '-' as '_' */
	const char *what;         /* the arg as written: "pti=on" */
	struct verify_report *report;
	const char *watch;        /* touch map only: the plan's watched device */
	const char *inert;        /* why the box has nothing this arg acts on, or NULL */
	bool missing;             /* a file the proof reads is not there */
};

static void check(struct judge *j, enum verify_status status, enum proof_level level,
		  const char *expected, const char *where, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));

static void check(struct judge *j, enum verify_status status, enum proof_level level,
		  const char *expected, const char *where, const char *fmt, ...)
{
	struct strbuf found = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&found, fmt, ap);
	va_end(ap);
	verify_report_add(j->report, status, level, j->what, j->what, expected, where, "%s", found.buf);
	strbuf_release(&found);
}

/* A proof that fails because the file it reads is not there. */
#define MISSING(j, expected, where, ...) \
	((j)->missing = true, check((j), VERIFY_FAILED, PROOF_PROVEN, (expected), (where), __VA_ARGS__))

/* A proven check that holds when ok. */
#define PROVE(j, ok, expected, where, ...) \
	check((j), (ok) ? VERIFY_OK : VERIFY_FAILED, PROOF_PROVEN, (expected), (where), __VA_ARGS__)

/* ---------------------------------------------------------------- helpers */

/* kstrtobool's words: 1/y/Y/on/t/true and 0/n/N/off/f/false. -1: not a boolean. */
static int boolean_value(const char *s)
{
	static const char *const yes[] = { "1", "y", "yes", "on", "true", "t" };
	static const char *const no[] = { "0", "n", "no", "off", "false", "f" };

	if (!s)
		return -1;
	for (size_t i = 0; i < sizeof(yes) / sizeof(yes[0]); i++)
		if (!strcasecmp(s, yes[i]))
			return 1;
	for (size_t i = 0; i < sizeof(no) / sizeof(no[0]); i++)
		if (!strcasecmp(s, no[i]))
			return 0;
	return -1;
}

/* option among the comma-separated words of value ("off" in "off,nosmt"). */
static bool has_option(const char *value, const char *option)
{
	size_t n = strlen(option);

	for (const char *p = value; p && *p;) {
		const char *comma = strchr(p, ',');
		size_t len = comma ? (size_t)(comma - p) : strlen(p);

		if (len == n && !strncmp(p, option, n))
			return true;
		p = comma ? comma + 1 : NULL;
	}
	return false;
}

static bool value_is(const struct verify_arg *a, const char *v)
{
	return a->value && !strcmp(a->value, v);
}

static char *param_key(const char *name)
{
	char *key = xstrdup(name);

	for (char *p = key; *p; p++)
		if (*p == '-')
			*p = '_';
	return key;
}

static char *arg_text(const struct verify_arg *a)
{
	return a->value ? xasprintf("%s=%s", a->name, a->value) : xstrdup(a->name);
}

/* A kernel-state file from the snapshot (snapshot.sh's state records), or NULL. */
static const char *state(const struct judge *j, const char *path)
{
	return snapshot_entry_get(&j->snap->state, path, NULL);
}

/* The selected word of "always [madvise] never" (or "(full)" with open '('), the caller's. */
static char *selected_word(const char *s, char open, char close)
{
	const char *a = s ? strchr(s, open) : NULL, *b = a ? strchr(a + 1, close) : NULL;

	return b ? xstrndup(a + 1, (size_t)(b - a - 1)) : NULL;
}

/* Whether word is one of the blank-separated words of list. */
static bool has_word(const char *list, const char *word)
{
	size_t n = strlen(word);

	for (const char *p = list; p && *p;) {
		size_t len;

		p += strspn(p, " ");
		len = strcspn(p, " ");
		if (len == n && !strncmp(p, word, n))
			return true;
		p += len;
	}
	return false;
}

/* The message of the last kernel-log evidence line holding needle (its "[  0.0] " stamp left out), or NULL. */
static const char *evidence_line(const struct snapshot *snap, const char *needle)
{
	const char *found = NULL;

	for (size_t i = 0; i < snap->n_evidence; i++) {
		const char *line = snap->evidence[i], *stamp = line[0] == '[' ? strstr(line, "] ") : NULL;

		if (strstr(line, needle))
			found = stamp ? stamp + 2 : line;
	}
	return found;
}

static const char *log_where(const struct snapshot *snap)
{
	return snapshot_log_source_name(snap->log_source);
}

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

/* memparse(): "2M", "1G", "2048K", "4096" as kB; 0 when not a size. */
static unsigned long long size_kb(const char *s)
{
	char *end;
	unsigned long long v;

	if (!s || *s < '0' || *s > '9')
		return 0;
	v = strtoull(s, &end, 0);
	switch (*end) {
	case 'K': case 'k':
		end++;
		break;
	case 'M': case 'm':
		v *= 1024;
		end++;
		break;
	case 'G': case 'g':
		v *= 1024 * 1024;
		end++;
		break;
	case 'T': case 't':
		v *= 1024ULL * 1024 * 1024;
		end++;
		break;
	case '\0':
		v /= 1024;
		break;
	default:
		return 0;
	}
	return *end ? 0 : v;
}

/* ---------------------------------------------------------------- IOMMU */

/* "group 18 DMA: 0000:c2:00.0" for every group of the map whose type is not skip_type. */
static char *groups_not_of(const struct iommu_map *map, const char *skip_type)
{
	struct strbuf sb = STRBUF_INIT;

	for (size_t i = 0; i < map->n_groups; i++) {
		const struct iommu_group *g = &map->groups[i];
		bool first = true;

		if (!strcmp(g->type, skip_type))
			continue;
		strbuf_addf(&sb, "%sgroup %u %s:", sb.len ? "; " : "", g->number, g->type);
		for (size_t k = 0; k < map->n_devices; k++) {
			if (map->devices[k].group != g->number)
				continue;
			strbuf_addf(&sb, "%s%s", first ? " " : ", ", map->devices[k].name);
			first = false;
		}
	}
	return strbuf_detach(&sb, NULL);
}

#define GROUPS_PATH "/sys/kernel/iommu_groups/*/type"

static bool match_passthrough(const char *key, const struct verify_arg *a)
{
	return (!strcmp(key, "iommu") && value_is(a, "pt")) ||
	       (!strcmp(key, "iommu.passthrough") && boolean_value(a->value) == 1);
}

/* Documentation/ABI/testing/sysfs-kernel-iommu_groups: the group's default domain type. */
static void judge_passthrough(struct judge *j)
{
	const struct iommu_map *map = &j->snap->iommu;
	static const char expected[] = "IOMMU groups exist and are identity";
	size_t identity = iommu_map_count_type(map, "identity");
	size_t lazy = iommu_map_count_type(map, "DMA-FQ");
	char *summary = iommu_map_summary(map), *others;

	if (j->watch) {
		const char *type = iommu_map_device_type(map, j->watch);

		if (type && !strcmp(type, "identity"))
			j->inert = "the watched device is already identity";
	}
	if (map->n_groups == 0) {
		PROVE(j, false, expected, GROUPS_PATH, "no IOMMU groups (the IOMMU is off or absent)");
		free(summary);
		return;
	}
	others = groups_not_of(map, "identity");
	if (identity == 0 || lazy > 0)
		PROVE(j, false, expected, GROUPS_PATH, "%s; translated: %s", summary, others);
	else if (*others)
		/* The kernel keeps some devices strict whatever the default (untrusted, quirks). */
		PROVE(j, true, expected, GROUPS_PATH, "%s; kept translated by the kernel: %s", summary,
		      others);
	else
		PROVE(j, true, expected, GROUPS_PATH, "%s", summary);
	free(others);
	free(summary);
}

static bool match_strict(const char *key, const struct verify_arg *a)
{
	return !strcmp(key, "iommu.strict") && boolean_value(a->value) == 1;
}

static void judge_strict(struct judge *j)
{
	const struct iommu_map *map = &j->snap->iommu;
	static const char expected[] = "translated groups are DMA (strict), none DMA-FQ";
	char *summary = iommu_map_summary(map);

	if (map->n_groups == 0)
		PROVE(j, false, expected, GROUPS_PATH, "no IOMMU groups (the IOMMU is off or absent)");
	else
		PROVE(j, iommu_map_count_type(map, "DMA-FQ") == 0 && iommu_map_count_type(map, "DMA") > 0,
		      expected, GROUPS_PATH, "%s", summary);
	free(summary);
}

static bool match_iommu_off(const char *key, const struct verify_arg *a)
{
	return (!strcmp(key, "amd_iommu") || !strcmp(key, "intel_iommu")) && a->value &&
	       has_option(a->value, "off");
}

static void judge_iommu_off(struct judge *j)
{
	static const char expected[] = "no IOMMU groups and /sys/class/iommu empty";
	static const char where[] = "/sys/kernel/iommu_groups, /sys/class/iommu";
	struct strbuf units = STRBUF_INIT;
	char *summary = iommu_map_summary(&j->snap->iommu);

	for (size_t i = 0; i < j->snap->n_iommu_classes; i++)
		strbuf_addf(&units, "%s%s", i ? " " : "", j->snap->iommu_classes[i]);
	if (j->snap->iommu.n_groups == 0 && j->snap->n_iommu_classes == 0)
		PROVE(j, true, expected, where, "no IOMMU groups, no IOMMU units");
	else
		PROVE(j, false, expected, where, "%s; IOMMU units: %s", summary,
		      units.len ? units.buf : "none");
	strbuf_release(&units);
	free(summary);
}

/* ------------------------------------------------------- CPU vulnerabilities */

#define VULN_DIR "/sys/devices/system/cpu/vulnerabilities"

static bool not_affected(const char *text)
{
	return text && !strncmp(text, "Not affected", 12);
}

/*
 * Whether an entry reads as not mitigated by the kernel (admin-guide/hw-vuln/):
 *  - "Vulnerable...";
 *  - "Unknown: No mitigations" (processor_mmio_stale_data.rst: a CPU out of
 *    its servicing period; no mitigation is attempted);
 *  - itlb_multihit's "KVM: Vulnerable", and "KVM: Mitigation: VMX
 *    unsupported" or "VMX disabled" (multihit.rst: without VMX there is
 *    nothing for KVM to mitigate);
 *  - l1tf's "Mitigation: PTE Inversion" (l1tf.rst: always enabled, with
 *    mitigations off too).
 */
static bool reads_vulnerable(const char *name, const char *text)
{
	return !strncmp(text, "Vulnerable", 10) || !strncmp(text, "Unknown", 7) ||
	       !strncmp(text, "KVM: Vulnerable", 15) || !strcmp(text, "KVM: Mitigation: VMX unsupported") ||
	       !strcmp(text, "KVM: Mitigation: VMX disabled") ||
	       (!strcmp(name, "l1tf") && !strncmp(text, "Mitigation: PTE Inversion", 25));
}

static bool match_mitigations_off(const char *key, const struct verify_arg *a)
{
	return !strcmp(key, "mitigations") && value_is(a, "off");
}

/* kernel-parameters.txt (mitigations=off); Documentation/ABI/testing/sysfs-devices-system-cpu. */
static void judge_mitigations_off(struct judge *j)
{
	static const char expected[] = "every affected entry reads Vulnerable";
	const struct snapshot_entries *v = &j->snap->vulnerabilities;
	struct strbuf bad = STRBUF_INIT;
	size_t affected = 0;

	if (v->n == 0) {
		check(j, VERIFY_NOTE, PROOF_CMDLINE, NULL, VULN_DIR, "no entries: not verified");
		return;
	}
	for (size_t i = 0; i < v->n; i++) {
		if (not_affected(v->v[i].value))
			continue;
		affected++;
		if (!reads_vulnerable(v->v[i].name, v->v[i].value))
			strbuf_addf(&bad, "%s%s: %s", bad.len ? "; " : "", v->v[i].name, v->v[i].value);
	}
	if (affected == 0) {
		j->inert = "no vulnerabilities entry reads affected";
		PROVE(j, true, expected, VULN_DIR, "every one of %zu entries reads Not affected", v->n);
	} else if (bad.len) {
		PROVE(j, false, expected, VULN_DIR, "%s", bad.buf);
	} else {
		PROVE(j, true, expected, VULN_DIR, "%zu affected, none mitigated", affected);
	}
	strbuf_release(&bad);
}

/*
 * The speculation controls, each judged through its own vulnerabilities
 * entry (kernel-parameters.txt; Documentation/admin-guide/hw-vuln/). 
 * A CPU the entry calls "Not affected" is not judged: the control changes
 * nothing there.
 */
static const struct speculation_control {
	const char *param;
	const char *entry;
	bool always_off;          /* nospectre_v2 and friends: a bare "off" */
} speculation_controls[] = {
	{ "spectre_v2", "spectre_v2", false },
	{ "nospectre_v2", "spectre_v2", true },
	{ "nospectre_v1", "spectre_v1", true },
	{ "spec_store_bypass_disable", "spec_store_bypass", false },
	{ "nospec_store_bypass_disable", "spec_store_bypass", true },
	{ "retbleed", "retbleed", false },
	{ "l1tf", "l1tf", false },
	{ "mds", "mds", false },
	{ "tsx_async_abort", "tsx_async_abort", false },
	{ "mmio_stale_data", "mmio_stale_data", false },
	{ "srbds", "srbds", false },
	{ "gather_data_sampling", "gather_data_sampling", false },
	{ "spec_rstack_overflow", "spec_rstack_overflow", false },
	{ "reg_file_data_sampling", "reg_file_data_sampling", false },
	{ "indirect_target_selection", "indirect_target_selection", false },
};

static const struct speculation_control *speculation_control(const char *key)
{
	for (size_t i = 0; i < sizeof(speculation_controls) / sizeof(speculation_controls[0]); i++)
		if (!strcmp(key, speculation_controls[i].param))
			return &speculation_controls[i];
	return NULL;
}

static bool match_speculation(const char *key, const struct verify_arg *a)
{
	const struct speculation_control *sc = speculation_control(key);

	return sc && (sc->always_off ? !a->value : a->value != NULL);
}

static void judge_speculation(struct judge *j)
{
	const struct speculation_control *sc = speculation_control(j->key);
	char *where = xasprintf(VULN_DIR "/%s", sc->entry);
	const char *text = snapshot_entry_get(&j->snap->vulnerabilities, sc->entry, NULL);
	bool off = sc->always_off || value_is(j->a, "off");

	if (!text) {
		MISSING(j, off ? "Vulnerable" : "Mitigation: ...", where, "absent (this kernel does not report %s)",
			sc->entry);
	} else if (not_affected(text)) {
		j->inert = "the CPU is not affected";
		check(j, VERIFY_NOTE, PROOF_CMDLINE, NULL, where,
		      "%s: the CPU is not affected, the control changes nothing (not judged)", text);
	} else if (off) {
		PROVE(j, reads_vulnerable(sc->entry, text), "Vulnerable", where, "%s", text);
	} else {
		/* Which mitigation the value picks is shown, not judged: the kernel may pick another. */
		PROVE(j, !reads_vulnerable(sc->entry, text) || !strcmp(sc->entry, "l1tf"),
		      "Mitigation: ...", where, "%s", text);
	}
	free(where);
}

/* ---------------------------------------------------------------- SMT */

#define SMT_CONTROL "/sys/devices/system/cpu/smt/control"
#define SMT_ACTIVE "/sys/devices/system/cpu/smt/active"

/*
 * Documentation/ABI/testing/sysfs-devices-system-cpu (smt/control: on,
 * off, forceoff, notsupported, notimplemented; smt/active: 1 while
 * sibling threads run). want: "off" or "forceoff".
 */
static void prove_smt_off(struct judge *j, const char *want, const char *expected)
{
	const char *control = state(j, SMT_CONTROL), *active = state(j, SMT_ACTIVE);

	if (!control) {
		MISSING(j, expected, SMT_CONTROL, "absent (this kernel cannot switch SMT)");
	} else if (!strcmp(control, "notsupported")) {
		j->inert = "the CPU has no SMT";
		PROVE(j, true, expected, SMT_CONTROL ", " SMT_ACTIVE,
		      "control notsupported: the CPU has no SMT, nothing to turn off");
	} else {
		bool ok = (!strcmp(control, want) || (!strcmp(want, "off") && !strcmp(control, "forceoff"))) &&
			  active && !strcmp(active, "0");

		PROVE(j, ok, expected, SMT_CONTROL ", " SMT_ACTIVE, "control %s, active %s", control,
		      active ? active : "(absent)");
	}
}

static bool match_nosmt(const char *key, const struct verify_arg *a)
{
	return !strcmp(key, "nosmt") && (!a->value || !strcmp(a->value, "force"));
}

static void judge_nosmt(struct judge *j)
{
	if (j->a->value)
		prove_smt_off(j, "forceoff", "SMT control forceoff, active 0");
	else
		prove_smt_off(j, "off", "SMT control off, active 0");
}

/*
 * mitigations=auto,nosmt turns SMT off only where a mitigation needs it:
 * the MDS, TAA, MMIO stale data and L1TF mitigations do
 * (kernel-parameters.txt, mitigations=; hw-vuln/mds.rst, tsx_async_abort.rst,
 * processor_mmio_stale_data.rst, l1tf.rst).
 */
static bool match_mitigations_nosmt(const char *key, const struct verify_arg *a)
{
	return !strcmp(key, "mitigations") && a->value && has_option(a->value, "nosmt");
}

static void judge_mitigations_nosmt(struct judge *j)
{
	static const char *const smt_bugs[] = { "mds", "tsx_async_abort", "mmio_stale_data", "l1tf" };
	struct strbuf affected = STRBUF_INIT;

	for (size_t i = 0; i < sizeof(smt_bugs) / sizeof(smt_bugs[0]); i++) {
		const char *text = snapshot_entry_get(&j->snap->vulnerabilities, smt_bugs[i], NULL);

		if (text && !not_affected(text))
			strbuf_addf(&affected, "%s%s", affected.len ? ", " : "", smt_bugs[i]);
	}
	if (affected.len) {
		char *expected = xasprintf("SMT control off, active 0 (affected: %s)", affected.buf);

		prove_smt_off(j, "off", expected);
		free(expected);
	} else {
		const char *control = state(j, SMT_CONTROL);

		j->inert = "no bug whose mitigation turns SMT off affects this CPU";
		check(j, VERIFY_NOTE, PROOF_CMDLINE, NULL, VULN_DIR,
		      "no bug whose mitigation turns SMT off (mds, tsx_async_abort, mmio_stale_data, l1tf) affects this CPU: SMT stays %s (not judged)",
		      control ? control : "as it is");
	}
	strbuf_release(&affected);
}

/* ---------------------------------------------------------------- PTI */

#define CPUINFO_FLAGS "/proc/cpuinfo:flags"

static bool match_pti(const char *key, const struct verify_arg *a)
{
	return (!strcmp(key, "pti") && (value_is(a, "on") || value_is(a, "off") || value_is(a, "auto"))) ||
	       (!strcmp(key, "nopti") && !a->value);
}

/*
 * kernel-parameters.txt (pti=, nopti); Documentation/arch/x86/pti.rst: the
 * "pti" CPU flag is set when page table isolation is in use. The meltdown
 * vulnerabilities entry reports the CPU, not the mitigation: under pti=on
 * on an unaffected CPU it still reads "Not affected".
 */
static void judge_pti(struct judge *j)
{
	const char *flags = state(j, CPUINFO_FLAGS);
	const char *meltdown = snapshot_entry_get(&j->snap->vulnerabilities, "meltdown", NULL);
	const char *line = evidence_line(j->snap, "page tables isolation");
	bool want;

	if (value_is(j->a, "auto"))
		want = meltdown && !not_affected(meltdown);
	else
		want = value_is(j->a, "on");
	if (!flags)
		MISSING(j, want ? "the pti flag" : "no pti flag", "/proc/cpuinfo", "no flags line read");
	else
		PROVE(j, has_word(flags, "pti") == want, want ? "the pti flag" : "no pti flag",
		      "/proc/cpuinfo", "%s (meltdown: %s)", has_word(flags, "pti") ? "pti flag set" : "no pti flag",
		      meltdown ? meltdown : "not reported");
	if (line)
		check(j, VERIFY_NOTE, PROOF_EVIDENCE, NULL, log_where(j->snap), "%s", line);
}

/* ---------------------------------------------------- transparent huge pages */

#define THP_ENABLED "/sys/kernel/mm/transparent_hugepage/enabled"

static bool match_thp(const char *key, const struct verify_arg *a)
{
	return !strcmp(key, "transparent_hugepage") &&
	       (value_is(a, "always") || value_is(a, "madvise") || value_is(a, "never"));
}

/* kernel-parameters.txt (transparent_hugepage=); Documentation/admin-guide/mm/transhuge.rst. */
static void judge_thp(struct judge *j)
{
	const char *enabled = state(j, THP_ENABLED);
	char *sel = selected_word(enabled, '[', ']');

	if (!enabled)
		MISSING(j, j->a->value, THP_ENABLED, "absent (a kernel without transparent huge pages)");
	else
		PROVE(j, sel && !strcmp(sel, j->a->value), j->a->value, THP_ENABLED, "%s (%s)",
		      sel ? sel : "none selected", enabled);
	free(sel);
}

/* ---------------------------------------------------------- HugeTLB pages */

#define MEMINFO_SIZE "/proc/meminfo:Hugepagesize"

static bool match_hugepages(const char *key, const struct verify_arg *a)
{
	return a->value && (!strcmp(key, "hugepages") || !strcmp(key, "hugepagesz") ||
			    !strcmp(key, "default_hugepagesz"));
}

/* "/sys/kernel/mm/hugepages/hugepages-2048kB/nr_hugepages" for 2048 kB. */
static char *nr_path(unsigned long long kb)
{
	return xasprintf("/sys/kernel/mm/hugepages/hugepages-%llukB/nr_hugepages", kb);
}

/*
 * kernel-parameters.txt (hugepages=, hugepagesz=, default_hugepagesz=) and
 * Documentation/admin-guide/mm/hugetlbpage.rst: hugepages= counts pages of
 * the hugepagesz= before it, else of the default size; the default size
 * is default_hugepagesz=, shown as Hugepagesize in /proc/meminfo; each
 * size's pool is /sys/kernel/mm/hugepages/hugepages-<size>kB/nr_hugepages.
 */
static void judge_hugepages(struct judge *j)
{
	const char *meminfo = state(j, MEMINFO_SIZE);
	unsigned long long kb = 0;

	if (!strcmp(j->key, "default_hugepagesz")) {
		kb = size_kb(j->a->value);
		if (!kb) {
			check(j, VERIFY_FAILED, PROOF_PROVEN, "a size", "/proc/cmdline", "not a size");
			return;
		}
		{
			char *expected = xasprintf("%llu kB", kb);

			PROVE(j, meminfo && strtoull(meminfo, NULL, 10) == kb, expected,
			      "/proc/meminfo (Hugepagesize)", "%s", meminfo ? meminfo : "absent");
			free(expected);
		}
		return;
	}
	if (!strcmp(j->key, "hugepagesz")) {
		/* A size reserves nothing by itself: the hugepages= after it says how many. */
		const char *count = NULL;
		char *path;
		bool found = false;
		const char *nr;

		for (size_t i = j->index + 1; i < j->args->n && !count; i++) {
			char *k = param_key(j->args->v[i].name);

			if (!strcmp(k, "hugepagesz")) {
				free(k);
				break;
			}
			if (!strcmp(k, "hugepages"))
				count = j->args->v[i].value;
			free(k);
		}
		kb = size_kb(j->a->value);
		path = nr_path(kb);
		nr = snapshot_entry_get(&j->snap->state, path, &found);
		if (!kb || !found)
			MISSING(j, "a supported huge page size", path, "absent (no pool of that size)");
		else if (count)
			PROVE(j, nr && !strcmp(nr, count), count, path, "a pool of %s pages",
			      nr ? nr : "?");
		else
			check(j, VERIFY_NOTE, PROOF_CMDLINE, NULL, path,
			      "a supported size; without hugepages= after it, nothing to prove");
		free(path);
		return;
	}
	/* hugepages=N: the size is the hugepagesz= before it, else the default. */
	for (size_t i = j->index; i-- > 0;) {
		char *k = param_key(j->args->v[i].name);

		if (!strcmp(k, "hugepagesz"))
			kb = size_kb(j->args->v[i].value);
		free(k);
		if (kb)
			break;
	}
	for (size_t i = 0; !kb && i < j->args->n; i++) {
		char *k = param_key(j->args->v[i].name);

		if (!strcmp(k, "default_hugepagesz"))
			kb = size_kb(j->args->v[i].value);
		free(k);
	}
	if (!kb && meminfo)
		kb = strtoull(meminfo, NULL, 10);
	if (!kb) {
		MISSING(j, j->a->value, "/proc/meminfo", "no huge page size (Hugepagesize absent)");
		return;
	}
	{
		char *path = nr_path(kb);
		const char *nr = state(j, path);
		char *end;
		unsigned long long want = strtoull(j->a->value, &end, 10);

		if (*end || end == j->a->value)
			check(j, VERIFY_FAILED, PROOF_PROVEN, "a number", "/proc/cmdline", "not a number");
		else
			PROVE(j, nr && strtoull(nr, NULL, 10) == want, j->a->value, path, "%s%s",
			      nr ? nr : "absent", nr ? " pages" : " (no pool of that size)");
		free(path);
	}
}

/* ------------------------------------------------------ CPU isolation, nohz */

#define CPU_ISOLATED "/sys/devices/system/cpu/isolated"
#define CPU_NOHZ_FULL "/sys/devices/system/cpu/nohz_full"

static bool match_isolcpus(const char *key, const struct verify_arg *a)
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
static void judge_isolcpus(struct judge *j)
{
	bool nohz = !strcmp(j->key, "nohz_full");
	const char *path = nohz ? CPU_NOHZ_FULL : CPU_ISOLATED;
	const char *list = j->a->value, *have = state(j, path);
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
			check(j, VERIFY_NOTE, PROOF_CMDLINE, NULL, path,
			      "flags without domain: the isolated file does not show these CPUs (not judged)");
			return;
		}
	}
	want = cpulist_canonical(list);
	if (!want) {
		check(j, VERIFY_NOTE, PROOF_CMDLINE, NULL, path,
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

static bool match_pstate(const char *key, const struct verify_arg *a)
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
static void judge_pstate(struct judge *j)
{
	bool intel = !strcmp(j->key, "intel_pstate");
	const char *status_path = intel ? "/sys/devices/system/cpu/intel_pstate/status"
					: "/sys/devices/system/cpu/amd_pstate/status";
	const char *status = state(j, status_path), *driver_path, *driver = scaling_driver(j, &driver_path);
	const char *value = j->a->value, *want_status = NULL, *want_driver = NULL;
	char *where = xasprintf("%s, %s", status_path, driver_path);

	if (intel && has_option(value, "disable")) {
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
	if (intel && has_option(value, "passive")) {
		want_status = "passive";
		want_driver = "intel_cpufreq";
	} else if (intel && has_option(value, "active")) {
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
		check(j, VERIFY_NOTE, PROOF_CMDLINE, NULL, where,
		      "the driver runs (status %s, driver %s); this option leaves no trace in sysfs", status, driver);
	} else {
		PROVE(j, false, intel ? "the intel_pstate driver" : "the amd-pstate driver", where,
		      "status %s, driver %s", status ? status : "(absent)", driver ? driver : "(none)");
	}
	free(where);
}

static bool match_default_governor(const char *key, const struct verify_arg *a)
{
	return !strcmp(key, "cpufreq.default_governor") && a->value;
}

/*
 * kernel-parameters.txt (cpufreq.default_governor=);
 * Documentation/admin-guide/pm/cpufreq.rst: every policy's
 * scaling_governor starts with it.
 */
static void judge_default_governor(struct judge *j)
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

static bool match_preempt(const char *key, const struct verify_arg *a)
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
static void judge_preempt(struct judge *j)
{
	const char *debugfs = state(j, SCHED_PREEMPT), *version = state(j, "/proc/sys/kernel/version");
	const char *line = evidence_line(j->snap, "Dynamic Preempt: ");

	if (debugfs) {
		char *sel = selected_word(debugfs, '(', ')');

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
			check(j, VERIFY_FAILED, PROOF_EVIDENCE, j->a->value, log_where(j->snap),
			      "the kernel log says %s", line);
		else
			check(j, VERIFY_NOTE, PROOF_EVIDENCE, NULL, log_where(j->snap),
			      "%s (%s not readable: debugfs not mounted, or not root)", line, SCHED_PREEMPT);
		return;
	}
	check(j, VERIFY_NOTE, PROOF_CMDLINE, NULL, SCHED_PREEMPT,
	      "not readable (debugfs not mounted, or not root) and no kernel-log line: not verified");
}

/* ---------------------------------------------------------- NUMA balancing */

#define NUMA_BALANCING "/proc/sys/kernel/numa_balancing"

static bool match_numa_balancing(const char *key, const struct verify_arg *a)
{
	return !strcmp(key, "numa_balancing") && (value_is(a, "enable") || value_is(a, "disable"));
}

/*
 * kernel-parameters.txt (numa_balancing=); Documentation/admin-guide/sysctl/
 * kernel.rst: numa_balancing reads 0 when off, 1 (or 2, 3 with memory
 * tiering) when on.
 */
static void judge_numa_balancing(struct judge *j)
{
	const char *v = state(j, NUMA_BALANCING);
	bool want = value_is(j->a, "enable");

	if (!v)
		MISSING(j, want ? "non-zero" : "0", NUMA_BALANCING, "absent (a kernel without NUMA balancing)");
	else
		PROVE(j, (strcmp(v, "0") != 0) == want, want ? "non-zero" : "0", NUMA_BALANCING, "%s", v);
}

/* ------------------------------------------------- what leaves no sysfs trace */

static bool match_init_on(const char *key, const struct verify_arg *a)
{
	return (!strcmp(key, "init_on_alloc") || !strcmp(key, "init_on_free")) &&
	       boolean_value(a->value) >= 0;
}

/*
 * kernel-parameters.txt (init_on_alloc=, init_on_free=): nothing in sysfs
 * shows them; mm/mm_init.c logs "mem auto-init: ..., heap alloc:on, heap
 * free:off". Evidence: a log line that disagrees fails the boot, one that
 * agrees proves nothing.
 */
static void judge_init_on(struct judge *j)
{
	const char *line = evidence_line(j->snap, "mem auto-init:");
	const char *field = !strcmp(j->key, "init_on_alloc") ? "heap alloc:" : "heap free:";
	const char *at = line ? strstr(line, field) : NULL;
	char *want = xasprintf("%s%s", field, boolean_value(j->a->value) ? "on" : "off");

	if (!at)
		check(j, VERIFY_NOTE, PROOF_CMDLINE, NULL, log_where(j->snap),
		      "no sysfs trace, and no \"mem auto-init\" kernel-log line: not verified");
	else if (strncmp(at, want, strlen(want)))
		check(j, VERIFY_FAILED, PROOF_EVIDENCE, want, log_where(j->snap), "the kernel log says %s", line);
	else
		check(j, VERIFY_NOTE, PROOF_EVIDENCE, NULL, log_where(j->snap), "no sysfs trace; %s", line);
	free(want);
}

static bool match_nokaslr(const char *key, const struct verify_arg *a)
{
	return !strcmp(key, "nokaslr") && !a->value;
}

/*
 * kernel-parameters.txt (nokaslr): nothing in sysfs says whether the
 * kernel was randomised. As root, /proc/kallsyms gives _text: at the
 * x86-64 link address (0xffffffff81000000) the kernel was not moved, or
 * was moved by chance to where it was linked; anywhere else it was
 * randomised, and nokaslr did not hold.
 */
static void judge_nokaslr(struct judge *j)
{
	const char *text = state(j, "/proc/kallsyms:_text");

	if (!text)
		check(j, VERIFY_NOTE, PROOF_CMDLINE, NULL, "/proc/kallsyms",
		      "no sysfs trace, and _text not readable (root only): not verified");
	else if (!strcmp(text, "ffffffff81000000"))
		check(j, VERIFY_NOTE, PROOF_EVIDENCE, NULL, "/proc/kallsyms",
		      "_text at %s, the link address (a randomised kernel can land there too)", text);
	else if (strlen(text) == 16 && !strncmp(text, "ffffffff", 8) && strchr("89ab", text[8]))
		/* The kernel image is placed within 1 GiB above 0xffffffff80000000. */
		check(j, VERIFY_FAILED, PROOF_PROVEN, "_text at ffffffff81000000", "/proc/kallsyms",
		      "_text at %s: the kernel was randomised", text);
	else
		check(j, VERIFY_NOTE, PROOF_CMDLINE, NULL, "/proc/kallsyms",
		      "_text at %s: not an x86-64 layout bootab knows (not judged)", text);
}

/* ------------------------------------------------------ module parameters */

/* Dotted names that are not kernel modules (initramfs, systemd): nothing in /sys/module. */
static bool userspace_namespace(const char *module)
{
	static const char *const names[] = { "rd", "systemd", "udev", "plymouth", "luks", "vconsole" };

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(module, names[i]))
			return true;
	return false;
}

/* Whether name is MODULE.PARAM as module parameters are written. */
static bool module_param_name(const char *name)
{
	const char *dot = strchr(name, '.');

	if (!dot || dot == name || !dot[1] || strchr(dot + 1, '.'))
		return false;
	for (const char *p = name; *p; p++)
		if (p != dot && !((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
				  (*p >= '0' && *p <= '9') || *p == '_' || *p == '-'))
			return false;
	return true;
}

static bool match_module_param(const char *key, const struct verify_arg *a)
{
	/* iommu.* are core parameters of the IOMMU layer, not a module's. */
	return a->value && module_param_name(key) && strncmp(key, "iommu.", 6);
}

/* kernel-parameters.txt ("module.param=value"); Documentation/ABI/stable/sysfs-module. */
static void judge_module_param(struct judge *j)
{
	char *module = xstrndup(j->key, (size_t)(strchr(j->key, '.') - j->key));
	char *where = xasprintf("/sys/module/%s/parameters/%s", module, strchr(j->key, '.') + 1);
	bool found = false;
	const char *value = snapshot_entry_get(&j->snap->params, j->key, &found);
	int want_bool = boolean_value(j->a->value), have_bool = boolean_value(value);

	if (!found || !value) {
		if (userspace_namespace(module))
			check(j, VERIFY_NOTE, PROOF_CMDLINE, NULL, where,
			      "not a kernel module parameter: not verified");
		else
			MISSING(j, j->a->value, where, "absent (module not loaded, or the parameter is not readable)");
	} else {
		PROVE(j, want_bool >= 0 && have_bool >= 0 ? want_bool == have_bool : !strcmp(j->a->value, value),
		      j->a->value, where, "%s", value);
	}
	free(module);
	free(where);
}

void verify_snapshot_args(const struct verify_args *asked, struct strvec *words)
{
	for (size_t i = 0; i < asked->n; i++) {
		char *key;

		if (!asked->v[i].value || !module_param_name(asked->v[i].name))
			continue;
		key = param_key(asked->v[i].name);
		if (strncmp(key, "iommu.", 6))
			strvec_pushf(words, "param:%s", key);
		free(key);
	}
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
	  match_passthrough, judge_passthrough, true },
	{ { "iommu.strict=1", "translated groups are DMA, none DMA-FQ",
	    "kernel-parameters.txt (iommu.strict=); ABI testing/sysfs-kernel-iommu_groups" },
	  match_strict, judge_strict, true },
	{ { "amd_iommu=off, intel_iommu=off", "no IOMMU groups, /sys/class/iommu empty",
	    "kernel-parameters.txt (amd_iommu=, intel_iommu=); ABI testing/sysfs-class-iommu" },
	  match_iommu_off, judge_iommu_off, true },
	{ { "mitigations=off", "every affected vulnerabilities entry reads Vulnerable",
	    "kernel-parameters.txt (mitigations=); ABI testing/sysfs-devices-system-cpu (vulnerabilities)" },
	  match_mitigations_off, judge_mitigations_off, false },
	{ { "mitigations=auto,nosmt", "smt/control off and smt/active 0 where mds, tsx_async_abort, mmio_stale_data or l1tf is affected",
	    "kernel-parameters.txt (mitigations=); hw-vuln/mds.rst, l1tf.rst; ABI testing/sysfs-devices-system-cpu (smt)" },
	  match_mitigations_nosmt, judge_mitigations_nosmt, false },
	{ { "nosmt, nosmt=force", "smt/control off (forceoff) and smt/active 0; notsupported: no SMT",
	    "kernel-parameters.txt (nosmt); ABI testing/sysfs-devices-system-cpu (smt/control, smt/active)" },
	  match_nosmt, judge_nosmt, false },
	{ { "pti=on|off|auto, nopti", "the pti flag in /proc/cpuinfo (auto: set where meltdown is affected); the isolation log line as evidence",
	    "kernel-parameters.txt (pti=, nopti); Documentation/arch/x86/pti.rst" },
	  match_pti, judge_pti, false },
	{ { "transparent_hugepage=always|madvise|never", "the selected [value] of /sys/kernel/mm/transparent_hugepage/enabled",
	    "kernel-parameters.txt (transparent_hugepage=); admin-guide/mm/transhuge.rst" },
	  match_thp, judge_thp, false },
	{ { "hugepages=, hugepagesz=, default_hugepagesz=", "nr_hugepages of the size in /sys/kernel/mm/hugepages; Hugepagesize in /proc/meminfo",
	    "kernel-parameters.txt (hugepages=, hugepagesz=, default_hugepagesz=); admin-guide/mm/hugetlbpage.rst; ABI testing/sysfs-kernel-mm-hugepages" },
	  match_hugepages, judge_hugepages, false },
	{ { "isolcpus=, nohz_full=", "/sys/devices/system/cpu/isolated, /sys/devices/system/cpu/nohz_full (CPU lists compared as sets)",
	    "kernel-parameters.txt (isolcpus=, nohz_full=); ABI testing/sysfs-devices-system-cpu (isolated, nohz_full)" },
	  match_isolcpus, judge_isolcpus, false },
	{ { "intel_pstate=, amd_pstate=", "the driver's status file and the first policy's scaling_driver",
	    "kernel-parameters.txt (intel_pstate=, amd_pstate=); admin-guide/pm/intel_pstate.rst, amd-pstate.rst" },
	  match_pstate, judge_pstate, false },
	{ { "cpufreq.default_governor=", "scaling_governor of every cpufreq policy",
	    "kernel-parameters.txt (cpufreq.default_governor=); admin-guide/pm/cpufreq.rst" },
	  match_default_governor, judge_default_governor, false },
	{ { "preempt=none|voluntary|full|lazy", "/sys/kernel/debug/sched/preempt (root, debugfs); else the \"Dynamic Preempt\" log line as evidence",
	    "kernel-parameters.txt (preempt=); kernel/sched/debug.c (sched/preempt)" },
	  match_preempt, judge_preempt, false },
	{ { "numa_balancing=enable|disable", "/proc/sys/kernel/numa_balancing (0 off, else on)",
	    "kernel-parameters.txt (numa_balancing=); admin-guide/sysctl/kernel.rst (numa_balancing)" },
	  match_numa_balancing, judge_numa_balancing, false },
	{ { "spectre_v2=, nospectre_v1, nospectre_v2, spec_store_bypass_disable=, nospec_store_bypass_disable, retbleed=, l1tf=, mds=, tsx_async_abort=, mmio_stale_data=, srbds=, gather_data_sampling=, spec_rstack_overflow=, reg_file_data_sampling=, indirect_target_selection=",
	    "the control's own vulnerabilities entry: off reads Vulnerable, other values a Mitigation; not judged where it reads Not affected",
	    "kernel-parameters.txt (each control); admin-guide/hw-vuln/; ABI testing/sysfs-devices-system-cpu (vulnerabilities)" },
	  match_speculation, judge_speculation, false },
	{ { "init_on_alloc=, init_on_free=", "no sysfs trace: the \"mem auto-init\" log line as evidence (a disagreeing line fails)",
	    "kernel-parameters.txt (init_on_alloc=, init_on_free=)" },
	  match_init_on, judge_init_on, false },
	{ { "nokaslr", "no sysfs trace: _text in /proc/kallsyms (root) at the link address as evidence; elsewhere it fails",
	    "kernel-parameters.txt (nokaslr)" },
	  match_nokaslr, judge_nokaslr, false },
	{ { "MODULE.PARAM=V", "/sys/module/MODULE/parameters/PARAM (booleans compared as booleans)",
	    "kernel-parameters.txt (module parameters); ABI stable/sysfs-module" },
	  match_module_param, judge_module_param, false },
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
	char *key = param_key(a->name), *what = arg_text(a);
	const struct entry *e = entry_for(key, a);
	struct judge j = { .snap = snap, .args = args, .index = index, .a = a, .key = key,
			   .what = what, .report = report, .watch = watch };
	bool iommu = e ? e->iommu : iommu_name(key);

	/* hugepages= pairs with the hugepagesz= before it: every one counts, not the last. */
	if (e && e->judge == judge_hugepages && strcmp(key, "default_hugepagesz"))
		;
	else if (!is_last(args, index))
		goto out;
	if (e)
		e->judge(&j);
	else
		check(&j, VERIFY_NOTE, PROOF_CMDLINE, NULL, "/proc/cmdline",
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
