/* Unit tests for src/kernel/param-values: the values the kernel takes, known before a reboot. */
#include <errno.h>
#include <setjmp.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "kernel/param-values.h"

/* Each arg and whether the kernel takes it (per kernel-parameters.txt and the parser named in the table). */
static const struct {
	const char *arg;
	bool taken;
} cases[] = {
	/* the IOMMU: lists, and the values users confuse */
	{ "iommu=pt", true },
	{ "iommu=nopt", true },
	{ "iommu=pt,nomerge", true },
	{ "iommu=memaper=2", true },
	{ "iommu=passthrough", false },
	{ "iommu", false },
	{ "amd_iommu=pt", false },
	{ "amd_iommu=off", true },
	{ "amd_iommu=fullflush,force_isolation", true },
	{ "amd_iommu=force_isolation,pt", false },
	{ "amd_iommu=off,", false },
	{ "amd-iommu=pgtbl_v2", true },
	{ "intel_iommu=pt", false },
	{ "intel_iommu=on,sm_on", true },
	{ "intel_iommu=igfx_off", true },
	{ "intel_iommu=intgpu_off", true },
	/* booleans as kstrtobool() reads them */
	{ "iommu.passthrough=1", true },
	{ "iommu.passthrough=on", true },
	{ "iommu.passthrough=Y", true },
	{ "iommu.passthrough=off", true },
	{ "iommu.passthrough=true", true },
	{ "iommu.passthrough=maybe", false },
	{ "iommu.passthrough=o", false },
	{ "iommu.passthrough=", false },
	{ "iommu.strict=0", true },
	{ "iommu.strict=2", false },
	{ "init_on_alloc=1", true },
	{ "init_on_free=x", false },
	/* mitigations and the speculation controls */
	{ "mitigations=off", true },
	{ "mitigations=auto", true },
	{ "mitigations=auto,nosmt", true },
	{ "mitigations=auto,no_user_user,no_guest_guest", true },
	{ "mitigations=on", false },
	{ "mitigations=nosmt", false },
	{ "mitigations=off,nosmt", false },
	{ "pti=on", true },
	{ "pti=auto", true },
	{ "pti=1", false },
	{ "nopti", true },
	{ "nopti=1", false },
	{ "nokaslr", true },
	{ "nosmt", true },
	{ "nosmt=force", true },
	{ "nosmt=on", false },
	{ "spectre_v2=retpoline,generic", true },
	{ "spectre_v2=eibrs", true },
	{ "spectre_v2=retpoline,bogus", false },
	{ "spec_store_bypass_disable=seccomp", true },
	{ "retbleed=auto,nosmt", true },
	{ "retbleed=unret", true },
	{ "retbleed=maybe", false },
	{ "l1tf=flush,nosmt", true },
	{ "mds=full,nosmt", true },
	{ "mds=on", false },
	{ "tsx_async_abort=off", true },
	{ "spec_rstack_overflow=safe-ret", true },
	{ "gather_data_sampling=force", true },
	{ "indirect_target_selection=vmexit", true },
	{ "nospectre_v2", true },
	/* memory */
	{ "transparent_hugepage=madvise", true },
	{ "transparent_hugepage=yes", false },
	{ "hugepages=16", true },
	{ "hugepages=0:4,1:8", true },
	{ "hugepages=lots", false },
	{ "hugepages=-1", false },
	{ "hugepagesz=1G", true },
	{ "hugepagesz=2M", true },
	{ "hugepagesz=2048k", true },
	{ "hugepagesz=1GB", false },
	{ "hugepagesz=G", false },
	{ "default_hugepagesz=1G", true },
	{ "numa_balancing=disable", true },
	{ "numa_balancing=off", false },
	/* CPU lists */
	{ "isolcpus=1-3", true },
	{ "isolcpus=nohz,domain,1-3", true },
	{ "isolcpus=managed_irq,domain,2,4-N", true },
	{ "isolcpus=domain,1-7:2/4", true },
	{ "isolcpus=bogus,1", false },
	{ "isolcpus=nohz,", false },
	{ "isolcpus=1-", false },
	{ "nohz_full=1-3,5", true },
	{ "nohz_full=all", true },
	{ "nohz_full=", false },
	{ "nohz_full=1,,2", false },
	{ "rcu_nocbs", true },
	{ "rcu_nocbs=1-3", true },
	{ "rcu_nocbs=x", false },
	/* frequency and idle */
	{ "intel_pstate=passive", true },
	{ "intel_pstate=no_hwp", true },
	{ "intel_pstate=passive,no_hwp", false },
	{ "intel_pstate=enable", false },
	{ "amd_pstate=guided", true },
	{ "amd_pstate=on", false },
	{ "cpufreq.default_governor=performance", true },
	{ "cpufreq.default_governor=turbo", false },
	{ "preempt=full", true },
	{ "preempt=lazy", true },
	{ "preempt=rt", false },
	{ "idle=poll", true },
	{ "idle=nomwait", true },
	{ "idle=halt,poll", false },
	{ "processor.max_cstate=1", true },
	{ "processor.max_cstate=C1", false },
	{ "intel_idle.max_cstate=0", true },
	/* names the table does not hold: not judged */
	{ "quiet", true },
	{ "nowatchdog", true },
	{ "nosuchparam=1", true },
	{ "virtio_blk.queue_depth=64", true },
};

static void test_values(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *why = NULL;
		int r = param_value_check(cases[i].arg, &why);

		if (r != (cases[i].taken ? 0 : -EINVAL))
			fail_msg("%s: %d (%s)", cases[i].arg, r, why ? why : "taken");
		assert_true(cases[i].taken ? why == NULL : why != NULL);
		free(why);
	}
}

/* The reason names the parameter, the value, what it takes and where that comes from. */
static void test_reason(void **state)
{
	char *why = NULL;
	char *const args[] = { (char *)"iommu=pt", (char *)"amd_iommu=pt", (char *)"pti=x", NULL };

	(void)state;
	assert_int_equal(param_value_check("amd_iommu=pt", &why), -EINVAL);
	assert_string_equal(why, "amd_iommu: the kernel does not take 'pt': it takes a comma-separated list of "
				 "fullflush, off, force_enable, force_isolation, pgtbl_v1, pgtbl_v2, irtcachedis, "
				 "nohugepages, v2_pgsizes_only (kernel-parameters.txt (amd_iommu=); "
				 "drivers/iommu/amd/init.c parse_amd_iommu_options())");
	free(why);
	why = NULL;
	assert_int_equal(param_value_check("nosmt=on", &why), -EINVAL);
	assert_string_equal(why, "nosmt: the kernel does not take 'on': it takes no value, or one of force "
				 "(kernel-parameters.txt (nosmt); kernel/cpu.c smt_cmdline_disable())");
	free(why);
	why = NULL;
	assert_int_equal(param_value_check("transparent_hugepage", &why), -EINVAL);
	assert_string_equal(why, "transparent_hugepage: the kernel does not take it without a value: it takes one "
				 "of always, madvise or never (kernel-parameters.txt (transparent_hugepage=); "
				 "mm/huge_memory.c setup_transparent_hugepage())");
	free(why);
	why = NULL;
	/* The first refused arg of a list. */
	assert_int_equal(param_values_check(args, &why), -EINVAL);
	assert_non_null(strstr(why, "amd_iommu: "));
	free(why);
	why = NULL;
	assert_int_equal(param_values_check(NULL, &why), 0);
	assert_null(why);
}

static void test_kstrtobool(void **state)
{
	static const struct {
		const char *s;
		int want;
	} b[] = {
		{ "1", 1 }, { "y", 1 }, { "Yes", 1 }, { "t", 1 }, { "on", 1 }, { "ON", 1 },
		{ "0", 0 }, { "n", 0 }, { "No", 0 }, { "f", 0 }, { "off", 0 }, { "oF", 0 },
		{ "o", -1 }, { "", -1 }, { "2", -1 }, { "enable", -1 },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(b) / sizeof(b[0]); i++)
		if (param_kstrtobool(b[i].s) != b[i].want)
			fail_msg("'%s': %d, want %d", b[i].s, param_kstrtobool(b[i].s), b[i].want);
	assert_int_equal(param_kstrtobool(NULL), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_values),
		cmocka_unit_test(test_reason),
		cmocka_unit_test(test_kstrtobool),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
