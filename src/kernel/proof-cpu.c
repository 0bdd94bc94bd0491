/*
 * The CPU vulnerability family of the proof table: mitigations=, the
 * speculation controls, nosmt and pti=, proven from
 * /sys/devices/system/cpu/vulnerabilities, smt/ and /proc/cpuinfo's flags.
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

bool proof_mitigations_off_match(const char *key, const struct verify_arg *a)
{
	return !strcmp(key, "mitigations") && proof_value_is(a, "off");
}

/* kernel-parameters.txt (mitigations=off); Documentation/ABI/testing/sysfs-devices-system-cpu. */
void proof_mitigations_off_judge(struct judge *j)
{
	static const char expected[] = "every affected entry reads Vulnerable";
	const struct snapshot_entries *v = &j->snap->vulnerabilities;
	struct strbuf bad = STRBUF_INIT;
	size_t affected = 0;

	if (v->n == 0) {
		proof_check(j, VERIFY_NOTE, PROOF_CMDLINE, NULL, VULN_DIR, "no entries: not verified");
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

bool proof_speculation_match(const char *key, const struct verify_arg *a)
{
	const struct speculation_control *sc = speculation_control(key);

	return sc && (sc->always_off ? !a->value : a->value != NULL);
}

void proof_speculation_judge(struct judge *j)
{
	const struct speculation_control *sc = speculation_control(j->key);
	char *where = xasprintf(VULN_DIR "/%s", sc->entry);
	const char *text = snapshot_entry_get(&j->snap->vulnerabilities, sc->entry, NULL);
	bool off = sc->always_off || proof_value_is(j->a, "off");

	if (!text) {
		MISSING(j, off ? "Vulnerable" : "Mitigation: ...", where, "absent (this kernel does not report %s)",
			sc->entry);
	} else if (not_affected(text)) {
		j->inert = "the CPU is not affected";
		proof_check(j, VERIFY_NOTE, PROOF_CMDLINE, NULL, where,
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
	const char *control = proof_state(j, SMT_CONTROL), *active = proof_state(j, SMT_ACTIVE);

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

bool proof_nosmt_match(const char *key, const struct verify_arg *a)
{
	return !strcmp(key, "nosmt") && (!a->value || !strcmp(a->value, "force"));
}

void proof_nosmt_judge(struct judge *j)
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
bool proof_mitigations_nosmt_match(const char *key, const struct verify_arg *a)
{
	return !strcmp(key, "mitigations") && a->value && proof_has_option(a->value, "nosmt");
}

void proof_mitigations_nosmt_judge(struct judge *j)
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
		const char *control = proof_state(j, SMT_CONTROL);

		j->inert = "no bug whose mitigation turns SMT off affects this CPU";
		proof_check(j, VERIFY_NOTE, PROOF_CMDLINE, NULL, VULN_DIR,
			    "no bug whose mitigation turns SMT off (mds, tsx_async_abort, mmio_stale_data, l1tf) affects this CPU: SMT stays %s (not judged)",
			    control ? control : "as it is");
	}
	strbuf_release(&affected);
}

/* ---------------------------------------------------------------- PTI */

#define CPUINFO_FLAGS "/proc/cpuinfo:flags"

bool proof_pti_match(const char *key, const struct verify_arg *a)
{
	return (!strcmp(key, "pti") && (proof_value_is(a, "on") || proof_value_is(a, "off") || proof_value_is(a, "auto"))) ||
	       (!strcmp(key, "nopti") && !a->value);
}

/*
 * kernel-parameters.txt (pti=, nopti); Documentation/arch/x86/pti.rst: the
 * "pti" CPU flag is set when page table isolation is in use. The meltdown
 * vulnerabilities entry reports the CPU, not the mitigation: under pti=on
 * on an unaffected CPU it still reads "Not affected".
 */
void proof_pti_judge(struct judge *j)
{
	const char *flags = proof_state(j, CPUINFO_FLAGS);
	const char *meltdown = snapshot_entry_get(&j->snap->vulnerabilities, "meltdown", NULL);
	const char *line = proof_evidence_line(j->snap, "page tables isolation");
	bool want;

	if (proof_value_is(j->a, "auto"))
		want = meltdown && !not_affected(meltdown);
	else
		want = proof_value_is(j->a, "on");
	if (!flags)
		MISSING(j, want ? "the pti flag" : "no pti flag", "/proc/cpuinfo", "no flags line read");
	else
		PROVE(j, has_word(flags, "pti") == want, want ? "the pti flag" : "no pti flag",
		      "/proc/cpuinfo", "%s (meltdown: %s)", has_word(flags, "pti") ? "pti flag set" : "no pti flag",
		      meltdown ? meltdown : "not reported");
	if (line)
		proof_check(j, VERIFY_NOTE, PROOF_EVIDENCE, NULL, proof_log_where(j->snap), "%s", line);
}
