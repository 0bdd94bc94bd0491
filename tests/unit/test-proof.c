/* Unit tests for src/kernel/proof: each parameter's proof, its lie, its level, and the touch map. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "kernel/cmdline.h"
#include "kernel/proof.h"
#include "kernel/snapshot.h"
#include "kernel/verify.h"
#include "lib/alloc.h"
#include "lib/file.h"
#include "lib/strbuf.h"

#define HEAD "bootab-snapshot\t1\nboot_id\t79060c21-363e-4a3a-aa1b-4c3911e5e399\nkernel\t6.1.0-57-amd64\ncmdline\tro\n"

/* A snapshot of records (sysfs state, vulnerabilities, groups) and kernel-log evidence lines. */
static void snapshot_of(const char *records, const char *klog, struct snapshot *ret)
{
	struct strbuf sb = STRBUF_INIT;
	struct parse_error err = PARSE_ERROR_INIT;

	strbuf_addf(&sb, "%s%slog_source\tdmesg\nlog_count\t0\n", HEAD, records);
	for (const char *p = klog; p && *p;) {
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

static void args_of(const char *text, struct verify_args *ret)
{
	struct parse_error err = PARSE_ERROR_INIT;
	char **list = NULL;

	assert_int_equal(cmdline_args_parse(text, &list, &err), 0);
	verify_args_from_list(list, ret);
	strv_free(list);
}

enum outcome { HOLDS, FAILS, NOTED };

struct judge_case {
	const char *name;
	const char *records;
	const char *klog;
	const char *args;
	const char *arg;            /* the arg whose outcome is checked */
	enum outcome outcome;
	enum proof_level level;
};

#define SMT(c, a) "state\t/sys/devices/system/cpu/smt/control\t" c "\nstate\t/sys/devices/system/cpu/smt/active\t" a "\n"
#define FLAGS(f) "state\t/proc/cpuinfo:flags\t" f "\n"
#define VULN(n, t) "vuln\t" n "\t" t "\n"
#define STATE(p, v) "state\t" p "\t" v "\n"
#define HP2M "/sys/kernel/mm/hugepages/hugepages-2048kB/nr_hugepages"
#define HP1G "/sys/kernel/mm/hugepages/hugepages-1048576kB/nr_hugepages"
#define IPSTATUS "/sys/devices/system/cpu/intel_pstate/status"
#define APSTATUS "/sys/devices/system/cpu/amd_pstate/status"
#define DRIVER(d) STATE("/sys/devices/system/cpu/cpufreq/policy0/scaling_driver", d)
#define PREEMPT "/sys/kernel/debug/sched/preempt"
#define VERSION_DYN STATE("/proc/sys/kernel/version", "#1 SMP PREEMPT_DYNAMIC Debian 6.1.158-1")
#define AUTO_INIT_ON "mem auto-init: stack:all(zero), heap alloc:on, heap free:off"

static const struct judge_case judge_cases[] = {
	/* pti: the flag, never the meltdown entry (it reads the CPU) */
	{ "pti=on, flag set", FLAGS("fpu vme pti smep") VULN("meltdown", "Not affected"),
	  "Kernel/User page tables isolation: enabled", "pti=on", "pti=on", HOLDS, PROOF_PROVEN },
	{ "pti=on, the lie: cmdline only", FLAGS("fpu vme smep") VULN("meltdown", "Not affected"),
	  "Kernel/User page tables isolation: enabled", "pti=on", "pti=on", FAILS, PROOF_PROVEN },
	{ "pti=off", FLAGS("fpu vme"), NULL, "pti=off", "pti=off", HOLDS, PROOF_PROVEN },
	{ "nopti with the flag", FLAGS("fpu pti"), NULL, "nopti", "nopti", FAILS, PROOF_PROVEN },
	{ "pti=auto, unaffected CPU", FLAGS("fpu") VULN("meltdown", "Not affected"), NULL, "pti=auto",
	  "pti=auto", HOLDS, PROOF_PROVEN },
	{ "pti=auto, affected CPU without PTI", FLAGS("fpu") VULN("meltdown", "Mitigation: PTI"), NULL,
	  "pti=auto", "pti=auto", FAILS, PROOF_PROVEN },
	{ "pti=on, no flags line", "", NULL, "pti=on", "pti=on", FAILS, PROOF_PROVEN },
	/* SMT */
	{ "nosmt", SMT("off", "0"), NULL, "nosmt", "nosmt", HOLDS, PROOF_PROVEN },
	{ "nosmt, SMT still on", SMT("on", "1"), NULL, "nosmt", "nosmt", FAILS, PROOF_PROVEN },
	{ "nosmt, no SMT", SMT("notsupported", "0"), NULL, "nosmt", "nosmt", HOLDS, PROOF_PROVEN },
	{ "nosmt=force", SMT("forceoff", "0"), NULL, "nosmt=force", "nosmt=force", HOLDS, PROOF_PROVEN },
	{ "nosmt=force, only off", SMT("off", "0"), NULL, "nosmt=force", "nosmt=force", FAILS, PROOF_PROVEN },
	{ "mitigations=auto,nosmt, MDS", SMT("off", "0") VULN("mds", "Mitigation: Clear CPU buffers; SMT disabled"),
	  NULL, "mitigations=auto,nosmt", "mitigations=auto,nosmt", HOLDS, PROOF_PROVEN },
	{ "mitigations=auto,nosmt, MDS, SMT on", SMT("on", "1") VULN("mds", "Mitigation: Clear CPU buffers; SMT vulnerable"),
	  NULL, "mitigations=auto,nosmt", "mitigations=auto,nosmt", FAILS, PROOF_PROVEN },
	{ "mitigations=auto,nosmt, nothing affected", SMT("on", "1") VULN("mds", "Not affected") VULN("l1tf", "Not affected"),
	  NULL, "mitigations=auto,nosmt", "mitigations=auto,nosmt", NOTED, PROOF_CMDLINE },
	/* mitigations=off */
	{ "mitigations=off", VULN("spectre_v2", "Vulnerable, IBPB: disabled, STIBP: disabled")
	  VULN("l1tf", "Mitigation: PTE Inversion") VULN("mds", "Not affected"), NULL, "mitigations=off",
	  "mitigations=off", HOLDS, PROOF_PROVEN },
	{ "mitigations=off on the lab's CPU: no VMX, MMIO unknown", VULN("itlb_multihit", "KVM: Mitigation: VMX unsupported")
	  VULN("mmio_stale_data", "Unknown: No mitigations") VULN("mds", "Vulnerable; SMT Host state unknown")
	  VULN("meltdown", "Vulnerable"), NULL, "mitigations=off", "mitigations=off", HOLDS, PROOF_PROVEN },
	{ "mitigations=off, KVM still splits huge pages", VULN("itlb_multihit", "KVM: Mitigation: Split huge pages"),
	  NULL, "mitigations=off", "mitigations=off", FAILS, PROOF_PROVEN },
	{ "mitigations=off, still mitigated", VULN("spectre_v2", "Mitigation: Retpolines"), NULL,
	  "mitigations=off", "mitigations=off", FAILS, PROOF_PROVEN },
	/* speculation controls */
	{ "spectre_v2=off", VULN("spectre_v2", "Vulnerable, IBPB: disabled, STIBP: disabled"), NULL,
	  "spectre_v2=off", "spectre_v2=off", HOLDS, PROOF_PROVEN },
	{ "spectre_v2=off, mitigated", VULN("spectre_v2", "Mitigation: Retpolines"), NULL, "spectre_v2=off",
	  "spectre_v2=off", FAILS, PROOF_PROVEN },
	{ "nospectre_v2", VULN("spectre_v2", "Vulnerable"), NULL, "nospectre_v2", "nospectre_v2", HOLDS,
	  PROOF_PROVEN },
	{ "retbleed=auto, vulnerable", VULN("retbleed", "Vulnerable"), NULL, "retbleed=auto", "retbleed=auto",
	  FAILS, PROOF_PROVEN },
	{ "spec_store_bypass_disable=on", VULN("spec_store_bypass", "Mitigation: Speculative Store Bypass disabled"),
	  NULL, "spec_store_bypass_disable=on", "spec_store_bypass_disable=on", HOLDS, PROOF_PROVEN },
	{ "spectre_v2=off on an unaffected CPU", VULN("spectre_v2", "Not affected"), NULL, "spectre_v2=off",
	  "spectre_v2=off", NOTED, PROOF_CMDLINE },
	{ "mds=off, no entry", "", NULL, "mds=off", "mds=off", FAILS, PROOF_PROVEN },
	/* transparent huge pages */
	{ "transparent_hugepage=always", STATE("/sys/kernel/mm/transparent_hugepage/enabled", "[always] madvise never"),
	  NULL, "transparent_hugepage=always", "transparent_hugepage=always", HOLDS, PROOF_PROVEN },
	{ "transparent_hugepage=always, madvise", STATE("/sys/kernel/mm/transparent_hugepage/enabled", "always [madvise] never"),
	  NULL, "transparent_hugepage=always", "transparent_hugepage=always", FAILS, PROOF_PROVEN },
	/* huge pages: each hugepages= counts pages of the hugepagesz= before it */
	{ "hugepages= of the size before it", STATE(HP2M, "16") STATE(HP1G, "0") STATE("/proc/meminfo:Hugepagesize", "1048576 kB"),
	  NULL, "hugepagesz=2M hugepages=16 default_hugepagesz=1G", "hugepages=16", HOLDS, PROOF_PROVEN },
	{ "default_hugepagesz=1G", STATE(HP2M, "16") STATE(HP1G, "0") STATE("/proc/meminfo:Hugepagesize", "1048576 kB"),
	  NULL, "hugepagesz=2M hugepages=16 default_hugepagesz=1G", "default_hugepagesz=1G", HOLDS, PROOF_PROVEN },
	{ "hugepagesz= with its hugepages=", STATE(HP2M, "16") STATE("/proc/meminfo:Hugepagesize", "1048576 kB"),
	  NULL, "hugepagesz=2M hugepages=16 default_hugepagesz=1G", "hugepagesz=2M", HOLDS, PROOF_PROVEN },
	{ "hugepagesz=, an unsupported size", STATE(HP2M, "0"), NULL, "hugepagesz=16M hugepages=4", "hugepagesz=16M",
	  FAILS, PROOF_PROVEN },
	{ "hugepages=, pool empty", STATE(HP2M, "0") STATE("/proc/meminfo:Hugepagesize", "2048 kB"),
	  NULL, "hugepagesz=2M hugepages=16", "hugepages=16", FAILS, PROOF_PROVEN },
	{ "default_hugepagesz=1G, still 2M", STATE(HP2M, "16") STATE("/proc/meminfo:Hugepagesize", "2048 kB"),
	  NULL, "default_hugepagesz=1G", "default_hugepagesz=1G", FAILS, PROOF_PROVEN },
	{ "hugepages= of the default size", STATE(HP2M, "8") STATE("/proc/meminfo:Hugepagesize", "2048 kB"),
	  NULL, "hugepages=8", "hugepages=8", HOLDS, PROOF_PROVEN },
	{ "hugepages= of the default_hugepagesz", STATE(HP2M, "0") STATE(HP1G, "2") STATE("/proc/meminfo:Hugepagesize", "1048576 kB"),
	  NULL, "default_hugepagesz=1G hugepages=2", "hugepages=2", HOLDS, PROOF_PROVEN },
	/* isolation */
	{ "isolcpus=1-3", STATE("/sys/devices/system/cpu/isolated", "1-3"), NULL, "isolcpus=1-3", "isolcpus=1-3",
	  HOLDS, PROOF_PROVEN },
	{ "isolcpus=, lists as sets", STATE("/sys/devices/system/cpu/isolated", "1-3,5"), NULL,
	  "isolcpus=domain,5,1,2-3", "isolcpus=domain,5,1,2-3", HOLDS, PROOF_PROVEN },
	{ "isolcpus=, nothing isolated", STATE("/sys/devices/system/cpu/isolated", ""), NULL, "isolcpus=1-3",
	  "isolcpus=1-3", FAILS, PROOF_PROVEN },
	{ "isolcpus=managed_irq only", STATE("/sys/devices/system/cpu/isolated", ""), NULL, "isolcpus=managed_irq,2",
	  "isolcpus=managed_irq,2", NOTED, PROOF_CMDLINE },
	{ "nohz_full=", STATE("/sys/devices/system/cpu/nohz_full", "1-3"), NULL, "nohz_full=1-3", "nohz_full=1-3",
	  HOLDS, PROOF_PROVEN },
	{ "nohz_full= on a kernel without it", "", NULL, "nohz_full=1-3", "nohz_full=1-3", FAILS, PROOF_PROVEN },
	/* frequency drivers and governors */
	{ "intel_pstate=passive", STATE(IPSTATUS, "passive") DRIVER("intel_cpufreq"), NULL, "intel_pstate=passive",
	  "intel_pstate=passive", HOLDS, PROOF_PROVEN },
	{ "intel_pstate=passive, still active", STATE(IPSTATUS, "active") DRIVER("intel_pstate"), NULL,
	  "intel_pstate=passive", "intel_pstate=passive", FAILS, PROOF_PROVEN },
	{ "intel_pstate=disable", DRIVER("acpi-cpufreq"), NULL, "intel_pstate=disable", "intel_pstate=disable",
	  HOLDS, PROOF_PROVEN },
	{ "intel_pstate=disable, still there", STATE(IPSTATUS, "active") DRIVER("intel_pstate"), NULL,
	  "intel_pstate=disable", "intel_pstate=disable", FAILS, PROOF_PROVEN },
	{ "intel_pstate=no_hwp: the driver runs, the option leaves no file", STATE(IPSTATUS, "active") DRIVER("intel_pstate"),
	  NULL, "intel_pstate=no_hwp", "intel_pstate=no_hwp", NOTED, PROOF_CMDLINE },
	{ "amd_pstate=active", STATE(APSTATUS, "active") DRIVER("amd-pstate-epp"), NULL, "amd_pstate=active",
	  "amd_pstate=active", HOLDS, PROOF_PROVEN },
	{ "amd_pstate=active, acpi-cpufreq", DRIVER("acpi-cpufreq"), NULL, "amd_pstate=active", "amd_pstate=active",
	  FAILS, PROOF_PROVEN },
	{ "amd_pstate=guided, passive", STATE(APSTATUS, "passive") DRIVER("amd-pstate"), NULL, "amd_pstate=guided",
	  "amd_pstate=guided", FAILS, PROOF_PROVEN },
	{ "cpufreq.default_governor=", "governor\tpolicy0\tperformance\ngovernor\tpolicy1\tperformance\n", NULL,
	  "cpufreq.default_governor=performance", "cpufreq.default_governor=performance", HOLDS, PROOF_PROVEN },
	{ "cpufreq.default_governor=, one policy differs", "governor\tpolicy0\tperformance\ngovernor\tpolicy1\tpowersave\n",
	  NULL, "cpufreq.default_governor=performance", "cpufreq.default_governor=performance", FAILS, PROOF_PROVEN },
	/* preemption */
	{ "preempt=full from debugfs", STATE(PREEMPT, "none voluntary (full)") VERSION_DYN, NULL, "preempt=full",
	  "preempt=full", HOLDS, PROOF_PROVEN },
	{ "preempt=full, debugfs says voluntary", STATE(PREEMPT, "none (voluntary) full") VERSION_DYN,
	  "Dynamic Preempt: full", "preempt=full", "preempt=full", FAILS, PROOF_PROVEN },
	{ "preempt=full, only the log", VERSION_DYN, "Dynamic Preempt: full", "preempt=full", "preempt=full",
	  NOTED, PROOF_EVIDENCE },
	{ "preempt=full, the log says voluntary", VERSION_DYN, "Dynamic Preempt: voluntary", "preempt=full",
	  "preempt=full", FAILS, PROOF_EVIDENCE },
	{ "preempt= on a kernel without PREEMPT_DYNAMIC", STATE("/proc/sys/kernel/version", "#1 SMP PREEMPT Debian"),
	  "Dynamic Preempt: full", "preempt=full", "preempt=full", FAILS, PROOF_PROVEN },
	{ "preempt=, nothing readable", "", NULL, "preempt=none", "preempt=none", NOTED, PROOF_CMDLINE },
	/* NUMA balancing */
	{ "numa_balancing=disable", STATE("/proc/sys/kernel/numa_balancing", "0"), NULL, "numa_balancing=disable",
	  "numa_balancing=disable", HOLDS, PROOF_PROVEN },
	{ "numa_balancing=disable, on", STATE("/proc/sys/kernel/numa_balancing", "1"), NULL, "numa_balancing=disable",
	  "numa_balancing=disable", FAILS, PROOF_PROVEN },
	{ "numa_balancing=enable", STATE("/proc/sys/kernel/numa_balancing", "1"), NULL, "numa_balancing=enable",
	  "numa_balancing=enable", HOLDS, PROOF_PROVEN },
	/* no sysfs trace */
	{ "init_on_alloc=1, the log agrees", "", AUTO_INIT_ON, "init_on_alloc=1", "init_on_alloc=1", NOTED,
	  PROOF_EVIDENCE },
	{ "init_on_free=1, the log disagrees", "", AUTO_INIT_ON, "init_on_free=1", "init_on_free=1", FAILS,
	  PROOF_EVIDENCE },
	{ "init_on_alloc=1, no log", "", NULL, "init_on_alloc=1", "init_on_alloc=1", NOTED, PROOF_CMDLINE },
	{ "nokaslr, at the link address", STATE("/proc/kallsyms:_text", "ffffffff81000000"), NULL, "nokaslr",
	  "nokaslr", NOTED, PROOF_EVIDENCE },
	{ "nokaslr, randomised", STATE("/proc/kallsyms:_text", "ffffffff9a000000"), NULL, "nokaslr", "nokaslr",
	  FAILS, PROOF_PROVEN },
	{ "nokaslr, not root", "", NULL, "nokaslr", "nokaslr", NOTED, PROOF_CMDLINE },
	/* module parameters, and what nothing knows */
	{ "module parameter", "param\tttm.pages_limit\t31457280\n", NULL, "ttm.pages_limit=31457280",
	  "ttm.pages_limit=31457280", HOLDS, PROOF_PROVEN },
	{ "module parameter, other value", "param\tttm.pages_limit\t1\n", NULL, "ttm.pages_limit=31457280",
	  "ttm.pages_limit=31457280", FAILS, PROOF_PROVEN },
	{ "unknown parameter", "", NULL, "foo=bar", "foo=bar", NOTED, PROOF_CMDLINE },
};

static void test_judge_table(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(judge_cases) / sizeof(judge_cases[0]); i++) {
		const struct judge_case *c = &judge_cases[i];
		struct snapshot snap;
		struct verify_args args;
		struct verify_report report = { 0 };
		enum proof_level levels[8];
		bool failed = false, held = false;
		size_t index = 0, seen = 0;

		snapshot_of(c->records, c->klog, &snap);
		args_of(c->args, &args);
		proof_judge(&snap, &args, &report);
		for (size_t k = 0; k < report.n; k++) {
			if (!report.v[k].arg || strcmp(report.v[k].arg, c->arg))
				continue;
			seen++;
			failed |= report.v[k].status == VERIFY_FAILED;
			held |= report.v[k].status == VERIFY_OK;
		}
		for (size_t k = 0; k < args.n; k++) {
			char *t = args.v[k].value ? xasprintf("%s=%s", args.v[k].name, args.v[k].value)
						  : xstrdup(args.v[k].name);

			if (!strcmp(t, c->arg))
				index = k;
			free(t);
		}
		proof_levels(&report, &args, levels);
		if (!seen || (c->outcome == FAILS) != failed || (c->outcome == HOLDS) != (held && !failed) ||
		    levels[index] != c->level)
			fail_msg("%s: %zu checks, failed %d, held %d, level %s; expected %s at %s", c->name, seen,
				 failed, held, proof_level_name(levels[index]),
				 c->outcome == FAILS ? "fails" : c->outcome == HOLDS ? "holds" : "a note",
				 proof_level_name(c->level));
		verify_report_release(&report);
		verify_args_release(&args);
		snapshot_release(&snap);
	}
}

struct touch_case {
	const char *name;
	const char *records;
	const char *args;
	const char *watch;
	enum touch_verdict verdict;
	const char *text;           /* a part of the text */
};

#define GROUPS(type) "group\t0\t" type "\ndevice\t0\t0000:00:02.0\tpci\t0x1af4\t0x1042\t0x010000\tvirtio-pci\n" \
	"group\t1\tDMA-FQ\ndevice\t1\t0000:00:03.0\tpci\t0x1af4\t0x1041\t0x020000\tvirtio-pci\n"

static const struct touch_case touch_cases[] = {
	{ "pti=off where PTI is off", FLAGS("fpu") VULN("meltdown", "Not affected"), "pti=off", NULL,
	  TOUCH_NOTHING, "already so: no pti flag" },
	{ "pti=on where PTI is off", FLAGS("fpu") VULN("meltdown", "Not affected"), "pti=on", NULL,
	  TOUCH_CHANGES, "now no pti flag" },
	{ "mitigations=off where nothing is affected", VULN("meltdown", "Not affected") VULN("mds", "Not affected"),
	  "mitigations=off", NULL, TOUCH_NOTHING, "no vulnerabilities entry reads affected" },
	{ "mitigations=off where something is mitigated", VULN("spectre_v2", "Mitigation: Retpolines"),
	  "mitigations=off", NULL, TOUCH_CHANGES, "spectre_v2: Mitigation: Retpolines" },
	{ "nosmt without SMT", SMT("notsupported", "0"), "nosmt", NULL, TOUCH_NOTHING, "the CPU has no SMT" },
	{ "nosmt with SMT", SMT("on", "1"), "nosmt", NULL, TOUCH_CHANGES, "now control on, active 1" },
	{ "transparent_hugepage=always where always", STATE("/sys/kernel/mm/transparent_hugepage/enabled", "[always] madvise never"),
	  "transparent_hugepage=always", NULL, TOUCH_NOTHING, "already so" },
	{ "transparent_hugepage=never where always", STATE("/sys/kernel/mm/transparent_hugepage/enabled", "[always] madvise never"),
	  "transparent_hugepage=never", NULL, TOUCH_CHANGES, "now always" },
	{ "iommu=pt, the watched device already identity", GROUPS("identity"), "iommu=pt", "0000:00:02.0",
	  TOUCH_NOTHING, "the watched device is already identity" },
	{ "iommu=pt, the watched device translated", GROUPS("DMA-FQ"), "iommu=pt", "0000:00:02.0",
	  TOUCH_CHANGES, "now 2 DMA-FQ" },
	{ "spectre_v2=off on an unaffected CPU", VULN("spectre_v2", "Not affected"), "spectre_v2=off", NULL,
	  TOUCH_NOTHING, "the CPU is not affected" },
	{ "a module parameter already set", "param\tttm.pages_limit\t31457280\n", "ttm.pages_limit=31457280", NULL,
	  TOUCH_NOTHING, "already so: 31457280" },
	{ "what sysfs cannot tell", "", "foo=bar", NULL, TOUCH_UNKNOWN, "sysfs does not tell" },
	{ "amd_iommu= on an Intel IOMMU", "iommu_class\tdmar0\n" GROUPS("DMA-FQ"), "amd_iommu=off", NULL,
	  TOUCH_NOTHING, "the box's IOMMU is Intel's (dmar units in /sys/class/iommu); amd_iommu= acts on AMD's" },
	{ "amd_iommu= with no IOMMU unit to tell", "", "amd_iommu=force_isolation", NULL, TOUCH_UNKNOWN,
	  "sysfs does not tell" },
	{ "intel_iommu=off on an Intel IOMMU", "iommu_class\tdmar0\n" GROUPS("DMA-FQ"), "intel_iommu=off", NULL,
	  TOUCH_CHANGES, "now 2 DMA-FQ" },
	{ "intel_iommu= on an AMD IOMMU", "iommu_class\tivhd0\n" GROUPS("DMA-FQ"), "intel_iommu=sm_on", NULL,
	  TOUCH_NOTHING, "the box's IOMMU is AMD's" },
};

/* A standing boot that had the mode's arg, and whose kernel said it ignored it. */
static void test_touch_standing_refusal(void **state)
{
	static const char text[] =
		"bootab-snapshot\t1\nboot_id\t79060c21-363e-4a3a-aa1b-4c3911e5e399\nkernel\t6.1.0-57-amd64\n"
		"cmdline\tro preempt=lazy nosuchparam=1\nlog_source\tdmesg\nlog_count\t0\n"
		"klog\t[    0.000000] Dynamic Preempt: unsupported mode: lazy\n"
		"klog\t[    0.000000] Unknown kernel command line parameters \"nosuchparam=1 preempt=lazy\", will be passed to user space.\n"
		"end\n";
	struct snapshot snap;
	struct parse_error err = PARSE_ERROR_INIT;
	struct verify_args args;
	struct touch_map map = { 0 };

	(void)state;
	if (snapshot_parse(text, strlen(text), &snap, &err) < 0)
		fail_msg("snapshot: %s", err.message);
	args_of("preempt=lazy preempt=full nosuchparam=2", &args);
	proof_touch(&snap, &args, NULL, &map);
	/* preempt=full is the one judged (the last); another value of nosuchparam was not refused. */
	assert_int_equal(map.n, 2);
	assert_string_equal(map.v[0].arg, "preempt=full");
	assert_int_not_equal(map.v[0].verdict, TOUCH_NOTHING);
	assert_string_equal(map.v[1].arg, "nosuchparam=2");
	assert_int_equal(map.v[1].verdict, TOUCH_UNKNOWN);
	touch_map_release(&map);
	verify_args_release(&args);
	args_of("preempt=lazy nosuchparam=1", &args);
	proof_touch(&snap, &args, NULL, &map);
	assert_int_equal(map.n, 2);
	assert_int_equal(map.v[0].verdict, TOUCH_NOTHING);
	assert_string_equal(map.v[0].text, "the running kernel did not take it on the standing boot: "
					   "Dynamic Preempt: unsupported mode: lazy");
	assert_int_equal(map.v[1].verdict, TOUCH_NOTHING);
	assert_non_null(strstr(map.v[1].text, "the running kernel did not take it on the standing boot: Unknown kernel command line parameters"));
	touch_map_release(&map);
	verify_args_release(&args);
	snapshot_release(&snap);
	parse_error_release(&err);
}

static void test_touch_table(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(touch_cases) / sizeof(touch_cases[0]); i++) {
		const struct touch_case *c = &touch_cases[i];
		struct snapshot snap;
		struct verify_args args;
		struct touch_map map = { 0 };

		snapshot_of(c->records, NULL, &snap);
		args_of(c->args, &args);
		proof_touch(&snap, &args, c->watch, &map);
		if (map.n != 1 || map.v[0].verdict != c->verdict || !strstr(map.v[0].text, c->text))
			fail_msg("%s: %zu items; %d %s", c->name, map.n, map.n ? (int)map.v[0].verdict : -1,
				 map.n ? map.v[0].text : "");
		touch_map_release(&map);
		verify_args_release(&args);
		snapshot_release(&snap);
	}
}

static void test_levels(void **state)
{
	struct snapshot snap;
	struct verify_args args;
	struct verify_report report = { 0 };
	json_t *j;
	char *text;

	(void)state;
	snapshot_of(FLAGS("fpu pti"), AUTO_INIT_ON, &snap);
	args_of("pti=on init_on_alloc=1 foo=bar", &args);
	proof_judge(&snap, &args, &report);
	j = proof_levels_json(&report, &args);
	text = json_dumps(j, JSON_SORT_KEYS | JSON_COMPACT);
	assert_string_equal(text, "{\"args\":[{\"arg\":\"pti=on\",\"level\":\"proven\"},"
				  "{\"arg\":\"init_on_alloc=1\",\"level\":\"evidence\"},"
				  "{\"arg\":\"foo=bar\",\"level\":\"cmdline only\"}],\"level\":\"cmdline only\"}");
	free(text);
	json_decref(j);
	verify_report_release(&report);
	verify_args_release(&args);
	/* Nothing asked: no level. */
	args_of("", &args);
	j = proof_levels_json(&report, &args);
	assert_true(json_is_null(json_object_get(j, "level")));
	json_decref(j);
	verify_args_release(&args);
	snapshot_release(&snap);
	{
		enum proof_level l;

		assert_int_equal(proof_level_parse("evidence", &l), 0);
		assert_int_equal(l, PROOF_EVIDENCE);
		assert_int_equal(proof_level_parse("proof", &l), -EINVAL);
	}
}

static void test_state_records_bounded(void **state)
{
	struct snapshot snap;
	struct parse_error err = PARSE_ERROR_INIT;
	static const char *const bad[] = {
		HEAD "state\t/etc/passwd\troot\nlog_source\tabsent\nend\n",
		HEAD "state\t/sys/../etc\tx\nlog_source\tabsent\nend\n",
		HEAD "state\t/sys/a\tx\nstate\t/sys/a\ty\nlog_source\tabsent\nend\n",
		HEAD "log_source\tabsent\nklog\tDynamic Preempt: full\nend\n",
	};

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(snapshot_parse(bad[i], strlen(bad[i]), &snap, &err), -EINVAL);
		parse_error_release(&err);
	}
	{
		struct strbuf sb = STRBUF_INIT;

		strbuf_addstr(&sb, HEAD "log_source\tdmesg\nlog_count\t0\n");
		for (int i = 0; i <= SNAPSHOT_MAX_EVIDENCE_LINES; i++)
			strbuf_addstr(&sb, "klog\tDynamic Preempt: full\n");
		strbuf_addstr(&sb, "end\n");
		assert_int_equal(snapshot_parse(sb.buf, sb.len, &snap, &err), -EINVAL);
		parse_error_release(&err);
		strbuf_release(&sb);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_judge_table),
		cmocka_unit_test(test_touch_table),
		cmocka_unit_test(test_touch_standing_refusal),
		cmocka_unit_test(test_levels),
		cmocka_unit_test(test_state_records_bounded),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
