/* Unit tests for src/kernel/refusal: the kernel's own refusals of args, read from its log. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "kernel/refusal.h"
#include "kernel/snapshot.h"
#include "kernel/verify.h"
#include "lib/alloc.h"
#include "lib/strbuf.h"

/*
 * Lines as the lab's 6.1 and 6.12 kernels logged them
 * (tests/fixtures/sysfs/lab-refused-*, make-refused-trees.sh), and lines
 * of the same wording in the kernel sources for what the lab cannot show
 * (a mitigation's parser on an affected CPU, a module given a bad value).
 */
static const struct {
	const char *line;
	const char *name;
	bool refused;
} cases[] = {
	{ "[    0.000000] Unknown kernel command line parameters \"nokaslr nospectre_v2 nosuchparam=1 preempt=bogus transparent_hugepage=bogus pti=on spectre_v2=off spec_store_bypass_disable=off\", will be passed to user space.", "nosuchparam", true },
	{ "[    0.000000] Unknown kernel command line parameters \"nokaslr nospectre_v2 nosuchparam=1 preempt=bogus\", will be passed to user space.", "preempt", true },
	/* Read by arch code, listed all the same: their proofs judge them. */
	{ "[    0.000000] Unknown kernel command line parameters \"nokaslr nospectre_v2 nosuchparam=1 pti=on spectre_v2=off spec_store_bypass_disable=off\", will be passed to user space.", "pti", false },
	{ "[    0.000000] Unknown kernel command line parameters \"nokaslr nospectre_v2 nosuchparam=1\", will be passed to user space.", "nokaslr", false },
	{ "[    0.000000] Unknown kernel command line parameters \"nokaslr spectre_v2=off\", will be passed to user space.", "spectre_v2", false },
	{ "[    0.000000] Unknown kernel command line parameters \"nosuchparam=1\", will be passed to user space.", "quiet", false },
	{ "[    0.000000] Unknown kernel command line parameters \"nosuchparam=1\", will be passed to user space.", "nosuch", false },
	{ "[    0.000000] Unknown kernel command line parameters \"no-such-param=1\", will be passed to user space.", "no_such_param", true },
	{ "[    0.000000] Malformed early option 'iommu.passthrough'", "iommu.passthrough", true },
	{ "[    0.000000] Malformed early option 'idle'", "idle", true },
	{ "[    0.000000] Malformed early option 'idle'", "iommu", false },
	{ "[    0.000000] DMAR: Unknown option - 'pt'", "intel_iommu", true },
	{ "[    0.000000] DMAR: Unknown option - 'pt'", "amd_iommu", false },
	{ "[    0.000000] AMD-Vi: Unknown option - 'pt'", "amd_iommu", true },
	{ "[    0.000000] AMD-Vi: Unknown option - 'pt'", "iommu", false },
	{ "[    0.000000] Unsupported mitigations=bogus, system may still be vulnerable", "mitigations", true },
	{ "[    0.000000] Dynamic Preempt: unsupported mode: bogus", "preempt", true },
	{ "[    0.000000] huge_memory: transparent_hugepage= cannot parse, ignored", "transparent_hugepage", true },
	{ "[    0.000000] isolcpus: Skipped unknown flag bogus", "isolcpus", true },
	{ "[    0.000000] Housekeeping: nohz_full= or isolcpus= incorrect CPU range", "nohz_full", true },
	{ "[    0.000000] HugeTLB: unsupported default_hugepagesz=3M", "default_hugepagesz", true },
	{ "[    0.000000] HugeTLB: unsupported default_hugepagesz=3M", "hugepagesz", false },
	{ "[    0.000000] HugeTLB: unsupported hugepagesz=3M", "hugepagesz", true },
	{ "[    0.000000] HugeTLB: hugepages=4 does not follow a valid hugepagesz, ignoring", "hugepages", true },
	{ "[    0.000000] Booting kernel: `abc' invalid for parameter `processor.max_cstate'", "processor.max_cstate", true },
	{ "[    0.000000] Booting kernel: `abc' invalid for parameter `processor.max_cstate'", "processor", false },
	{ "[   12.100000] nls_ascii: unknown parameter 'nosuch' ignored", "nls_ascii.nosuch", true },
	{ "[   12.100000] nls_ascii: unknown parameter 'nosuch' ignored", "nls_ascii.other", false },
	{ "[   12.100000] virtio_blk: `x' invalid for parameter `queue_depth'", "virtio_blk.queue_depth", true },
	{ "[    0.000000] Spectre V2 : unknown option (bogus). Switching to AUTO select", "spectre_v2", true },
	{ "[    0.000000] RETBleed: Ignoring unknown retbleed option (bogus).", "retbleed", true },
	{ "[    0.000000] Speculative Store Bypass: unknown option (bogus). Switching to default mode", "spec_store_bypass_disable", true },
	{ "[    0.000000] mempolicy: Unable to parse numa_balancing=", "numa_balancing", true },
	/* The journal's form of a line. */
	{ "Dec 04 10:00:00 box kernel: DMAR: Unknown option - 'pt'", "intel_iommu", true },
	{ "Dec 04 10:00:00 box kernel: nls_ascii: unknown parameter 'nosuch' ignored", "nls_ascii.nosuch", true },
	/* Lines that refuse nothing. */
	{ "[    0.036000] tsc: Unable to calibrate against PIT", "tsc", false },
	{ "[    1.573768] iommu: Default domain type: Translated ", "iommu", false },
	{ "[    0.000000] DMAR: IOMMU enabled", "intel_iommu", false },
	{ "[    0.000000] Kernel command line: intel_iommu=pt", "intel_iommu", false },
};

static void test_lines(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		if (refusal_line_names(cases[i].line, cases[i].name) != cases[i].refused)
			fail_msg("'%s' for %s: %s", cases[i].line, cases[i].name,
				 cases[i].refused ? "not seen" : "seen");
}

/* A snapshot whose kernel-log evidence is klog (one line each). */
static void snapshot_of(const char *klog, struct snapshot *ret)
{
	struct strbuf sb = STRBUF_INIT;
	struct parse_error err = PARSE_ERROR_INIT;

	strbuf_addstr(&sb, "bootab-snapshot\t1\nboot_id\t79060c21-363e-4a3a-aa1b-4c3911e5e399\n"
			   "kernel\t6.1.0-57-amd64\ncmdline\tro\nlog_source\tdmesg\nlog_count\t0\n");
	for (const char *p = klog; *p;) {
		size_t n = strcspn(p, "\n");

		strbuf_addf(&sb, "klog\t%.*s\n", (int)n, p);
		p += n + (p[n] == '\n');
	}
	strbuf_addstr(&sb, "end\n");
	if (snapshot_parse(sb.buf, sb.len, ret, &err) < 0)
		fail_msg("snapshot: line %u: %s", err.line, err.message);
	strbuf_release(&sb);
	parse_error_release(&err);
}

/* One failed check per asked arg the log refuses, quoting the line; nothing for the others. */
static void test_judge(void **state)
{
	struct snapshot snap = { 0 };
	struct verify_report report = { 0 };
	struct verify_args asked = { 0 };
	char *const args[] = { (char *)"intel_iommu=pt", (char *)"quiet", (char *)"pti=on", (char *)"nosuchparam=1", NULL };

	(void)state;
	snapshot_of("[    0.000000] DMAR: Unknown option - 'pt'\n"
		    "[    0.000000] Unknown kernel command line parameters \"nosuchparam=1 pti=on\", will be passed to user space.\n"
		    "[    0.000000] Kernel/User page tables isolation: enabled\n", &snap);
	verify_args_from_list(args, &asked);
	refusals_judge(&snap, &asked, &report);
	assert_int_equal(report.n, 2);
	assert_int_equal(report.v[0].status, VERIFY_FAILED);
	assert_int_equal(report.v[0].level, PROOF_EVIDENCE);
	assert_string_equal(report.v[0].arg, "intel_iommu=pt");
	assert_string_equal(report.v[0].found, "the kernel log says: DMAR: Unknown option - 'pt'");
	assert_string_equal(report.v[0].where, "dmesg");
	assert_string_equal(report.v[1].arg, "nosuchparam=1");
	assert_string_equal(report.v[1].found, "the kernel log says: Unknown kernel command line parameters "
					       "\"nosuchparam=1 pti=on\", will be passed to user space.");
	assert_int_equal(verify_report_failures(&report), 2);
	verify_report_release(&report);
	verify_args_release(&asked);
	snapshot_release(&snap);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lines),
		cmocka_unit_test(test_judge),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
