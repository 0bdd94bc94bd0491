#include "kernel/param-values.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/cmdline.h"
#include "lib/alloc.h"
#include "lib/strbuf.h"

/*
 * What each parameter takes, from Documentation/admin-guide/kernel-parameters.txt
 * ("kernel-parameters.txt") and the function that parses it, checked
 * against the 6.1 and 6.12 sources. Where the two differ the table holds
 * the union: a value a newer kernel takes is never refused here (the
 * boot's log says whether the kernel that booted took it).
 */
enum value_form {
	FORM_FLAG,         /* the bare name only */
	FORM_WORD,         /* one of the words */
	FORM_LIST,         /* a comma-separated list of the words */
	FORM_BOOL,         /* kstrtobool() */
	FORM_UINT,         /* a whole number */
	FORM_HUGEPAGES,    /* a whole number, or NODE:COUNT,... */
	FORM_SIZE,         /* memparse(): a number with an optional K/M/G/T/P/E */
	FORM_CPULIST,      /* kernel-parameters.txt "cpu lists" */
	FORM_ISOLCPUS,     /* [flag,]... then a cpu list */
	FORM_MITIGATIONS,  /* off, or auto with its options */
};

struct value_rule {
	const char *names;     /* '|'-separated names that share the rule */
	enum value_form form;
	bool bare;             /* the bare name is taken too */
	const char *words;     /* '|'-separated; "memaper[=N]": the word, or word=NUMBER */
	const char *source;
};

static const struct value_rule rules[] = {
	/* x86 iommu_setup() compares each comma-separated word and says
	 * nothing of one it does not know: only this check catches a typo. */
	{ "iommu", FORM_LIST, false,
	  "off|force|noforce|biomerge|panic|nopanic|merge|nomerge|soft|pt|nopt|forcesac|allowdac|nodac|usedac|"
	  "fullflush|nofullflush|noagp|noaperture|memaper[=N]",
	  "kernel-parameters.txt (iommu=); arch/x86/kernel/pci-dma.c iommu_setup(), arch/x86/kernel/amd_gart_64.c gart_parse_options()" },
	{ "amd_iommu", FORM_LIST, false,
	  "fullflush|off|force_enable|force_isolation|pgtbl_v1|pgtbl_v2|irtcachedis|nohugepages|v2_pgsizes_only",
	  "kernel-parameters.txt (amd_iommu=); drivers/iommu/amd/init.c parse_amd_iommu_options()" },
	/* intgpu_off: Debian's kernels add it. */
	{ "intel_iommu", FORM_LIST, false,
	  "on|off|igfx_off|intgpu_off|forcedac|strict|sp_off|sm_on|sm_off|tboot_noforce",
	  "kernel-parameters.txt (intel_iommu=); drivers/iommu/intel/iommu.c intel_iommu_setup()" },
	{ "iommu.passthrough", FORM_BOOL, false, NULL,
	  "kernel-parameters.txt (iommu.passthrough=); drivers/iommu/iommu.c iommu_set_def_domain_type()" },
	{ "iommu.strict", FORM_BOOL, false, NULL,
	  "kernel-parameters.txt (iommu.strict=); drivers/iommu/iommu.c iommu_dma_setup()" },
	{ "mitigations", FORM_MITIGATIONS, false, NULL,
	  "kernel-parameters.txt (mitigations=); kernel/cpu.c mitigations_parse_cmdline(); admin-guide/hw-vuln/attack_vector_controls.rst" },
	{ "pti", FORM_WORD, false, "on|off|auto", "kernel-parameters.txt (pti=); arch/x86/mm/pti.c" },
	{ "nopti|nokaslr|nospectre_v1|nospectre_v2|nospec_store_bypass_disable", FORM_FLAG, false, NULL,
	  "kernel-parameters.txt (nopti, nokaslr, nospectre_v1, nospectre_v2, nospec_store_bypass_disable)" },
	{ "nosmt", FORM_WORD, true, "force", "kernel-parameters.txt (nosmt); kernel/cpu.c smt_cmdline_disable()" },
	{ "transparent_hugepage", FORM_WORD, false, "always|madvise|never",
	  "kernel-parameters.txt (transparent_hugepage=); mm/huge_memory.c setup_transparent_hugepage()" },
	{ "isolcpus", FORM_ISOLCPUS, false, "nohz|domain|managed_irq",
	  "kernel-parameters.txt (isolcpus=); kernel/sched/isolation.c housekeeping_isolcpus_setup()" },
	{ "nohz_full", FORM_CPULIST, false, NULL,
	  "kernel-parameters.txt (nohz_full=, cpu lists); kernel/sched/isolation.c housekeeping_nohz_full_setup()" },
	{ "rcu_nocbs", FORM_CPULIST, true, NULL,
	  "kernel-parameters.txt (rcu_nocbs=, cpu lists); kernel/rcu/tree_nocb.h rcu_nocb_setup()" },
	/* One whole value per arg (strcmp): "passive,no_hwp" is not taken. */
	{ "intel_pstate", FORM_WORD, false,
	  "disable|active|passive|force|no_hwp|hwp_only|support_acpi_ppc|per_cpu_perf_limits",
	  "kernel-parameters.txt (intel_pstate=); drivers/cpufreq/intel_pstate.c intel_pstate_setup()" },
	{ "amd_pstate", FORM_WORD, false, "disable|passive|active|guided",
	  "kernel-parameters.txt (amd_pstate=); drivers/cpufreq/amd-pstate.c amd_pstate_param()" },
	{ "cpufreq.default_governor", FORM_WORD, false,
	  "performance|powersave|userspace|ondemand|conservative|schedutil",
	  "kernel-parameters.txt (cpufreq.default_governor=); admin-guide/pm/cpufreq.rst (the governors)" },
	{ "preempt", FORM_WORD, false, "none|voluntary|full|lazy",
	  "kernel-parameters.txt (preempt=); kernel/sched/core.c sched_dynamic_mode()" },
	{ "idle", FORM_WORD, false, "poll|halt|nomwait",
	  "kernel-parameters.txt (idle=); arch/x86/kernel/process.c idle_setup()" },
	{ "processor.max_cstate|intel_idle.max_cstate", FORM_UINT, false, NULL,
	  "kernel-parameters.txt (processor.max_cstate=, intel_idle.max_cstate=); drivers/acpi/processor_idle.c, drivers/idle/intel_idle.c (module parameters)" },
	{ "hugepages", FORM_HUGEPAGES, false, NULL,
	  "kernel-parameters.txt (hugepages=); mm/hugetlb.c hugepages_setup()" },
	{ "hugepagesz|default_hugepagesz", FORM_SIZE, false, NULL,
	  "kernel-parameters.txt (hugepagesz=, default_hugepagesz=); mm/hugetlb.c, lib/cmdline.c memparse()" },
	{ "numa_balancing", FORM_WORD, false, "enable|disable",
	  "kernel-parameters.txt (numa_balancing=); mm/mempolicy.c setup_numabalancing()" },
	{ "spectre_v2", FORM_WORD, false,
	  "on|off|auto|retpoline|retpoline,amd|retpoline,lfence|retpoline,generic|eibrs|eibrs,lfence|eibrs,retpoline|ibrs",
	  "kernel-parameters.txt (spectre_v2=); arch/x86/kernel/cpu/bugs.c spectre_v2_parse_cmdline()" },
	{ "spectre_v2_user", FORM_WORD, false, "on|off|prctl|prctl,ibpb|seccomp|seccomp,ibpb|auto",
	  "kernel-parameters.txt (spectre_v2_user=); arch/x86/kernel/cpu/bugs.c spectre_v2_parse_user_cmdline()" },
	{ "spec_store_bypass_disable", FORM_WORD, false, "on|off|auto|prctl|seccomp",
	  "kernel-parameters.txt (spec_store_bypass_disable=); arch/x86/kernel/cpu/bugs.c ssb_parse_cmdline()" },
	{ "retbleed", FORM_LIST, false, "off|auto|unret|ibpb|ibrs|stuff|nosmt",
	  "kernel-parameters.txt (retbleed=); arch/x86/kernel/cpu/bugs.c retbleed_parse_cmdline()" },
	{ "l1tf", FORM_WORD, false, "full|full,force|flush|flush,nosmt|flush,nowarn|off",
	  "kernel-parameters.txt (l1tf=); arch/x86/kernel/cpu/bugs.c l1tf_cmdline()" },
	{ "mds|tsx_async_abort|mmio_stale_data", FORM_WORD, false, "off|full|full,nosmt",
	  "kernel-parameters.txt (mds=, tsx_async_abort=, mmio_stale_data=); arch/x86/kernel/cpu/bugs.c" },
	{ "srbds", FORM_WORD, false, "off", "kernel-parameters.txt (srbds=); arch/x86/kernel/cpu/bugs.c srbds_parse_cmdline()" },
	{ "gather_data_sampling", FORM_WORD, false, "off|force",
	  "kernel-parameters.txt (gather_data_sampling=); arch/x86/kernel/cpu/bugs.c gds_parse_cmdline()" },
	{ "spec_rstack_overflow", FORM_WORD, false, "off|microcode|safe-ret|ibpb|ibpb-vmexit",
	  "kernel-parameters.txt (spec_rstack_overflow=); arch/x86/kernel/cpu/bugs.c srso_parse_cmdline()" },
	{ "reg_file_data_sampling", FORM_WORD, false, "on|off",
	  "kernel-parameters.txt (reg_file_data_sampling=); arch/x86/kernel/cpu/bugs.c rfds_parse_cmdline()" },
	{ "indirect_target_selection", FORM_WORD, false, "on|off|force|vmexit|stuff",
	  "kernel-parameters.txt (indirect_target_selection=); arch/x86/kernel/cpu/bugs.c its_parse_cmdline()" },
	{ "init_on_alloc|init_on_free", FORM_BOOL, false, NULL,
	  "kernel-parameters.txt (init_on_alloc=, init_on_free=); mm/mm_init.c (kstrtobool)" },
};

#define N_RULES (sizeof(rules) / sizeof(rules[0]))

int param_kstrtobool(const char *s)
{
	/* lib/kstrtox.c kstrtobool(): the first byte, or "on"/"of". */
	if (!s)
		return -1;
	switch (s[0]) {
	case 'y': case 'Y': case 't': case 'T': case '1':
		return 1;
	case 'n': case 'N': case 'f': case 'F': case '0':
		return 0;
	case 'o': case 'O':
		if (s[1] == 'n' || s[1] == 'N')
			return 1;
		if (s[1] == 'f' || s[1] == 'F')
			return 0;
		break;
	default:
		break;
	}
	return -1;
}

/* Whether the n bytes at s are one of the '|'-separated words. */
static bool word_in(const char *s, size_t n, const char *words)
{
	for (const char *w = words; w && *w;) {
		size_t len = strcspn(w, "|");
		const char *opt = memchr(w, '[', len);

		if (len == n && !strncmp(w, s, n))
			return true;
		/* "memaper[=N]": the bare word or word=NUMBER. */
		if (opt) {
			size_t base = (size_t)(opt - w);

			if (n == base && !strncmp(w, s, base))
				return true;
			if (n > base + 1 && !strncmp(w, s, base) && s[base] == '=' &&
			    strspn(s + base + 1, "0123456789") == n - base - 1)
				return true;
		}
		w += len + (w[len] == '|');
	}
	return false;
}

static bool digits(const char *s, size_t n)
{
	return n > 0 && strspn(s, "0123456789") >= n;
}

static bool uint_valid(const char *s)
{
	return *s && digits(s, strlen(s));
}

/* memparse(): a number (0x.. too) and one of K M G T P E (either case). */
static bool size_valid(const char *s)
{
	char *end;

	if (*s < '0' || *s > '9')
		return false;
	(void)strtoull(s, &end, 0);
	if (*end && strchr("KkMmGgTtPpEe", *end))
		end++;
	return !*end;
}

/* One CPU number or N (the last CPU). */
static const char *cpu_number(const char *p)
{
	if (*p == 'N')
		return p + 1;
	if (*p < '0' || *p > '9')
		return NULL;
	return p + strspn(p, "0123456789");
}

/*
 * kernel-parameters.txt "cpu lists": items separated by ',', each "all",
 * a number, or a range A-B with an optional ":used/group"; N is the last
 * CPU (lib/bitmap-str.c bitmap_parselist()).
 */
static bool cpulist_valid(const char *s)
{
	const char *p = s;

	if (!*p)
		return false;
	while (*p) {
		if (!strncmp(p, "all", 3)) {
			p += 3;
		} else {
			if (!(p = cpu_number(p)))
				return false;
			if (*p == '-') {
				if (!(p = cpu_number(p + 1)))
					return false;
				if (*p == ':') {
					size_t n = strspn(p + 1, "0123456789");

					if (!n || p[1 + n] != '/' || !digits(p + 2 + n, 1))
						return false;
					p += 2 + n + strspn(p + 2 + n, "0123456789");
				}
			}
		}
		if (*p == ',' && p[1])
			p++;
		else if (*p)
			return false;
	}
	return true;
}

/* hugepages=N, or the per-node form NODE:COUNT[,NODE:COUNT...]. */
static bool hugepages_valid(const char *s)
{
	if (uint_valid(s))
		return true;
	for (const char *p = s; *p;) {
		size_t a = strspn(p, "0123456789"), b;

		if (!a || p[a] != ':')
			return false;
		b = strspn(p + a + 1, "0123456789");
		if (!b)
			return false;
		p += a + 1 + b;
		if (*p == ',' && p[1])
			p++;
		else if (*p)
			return false;
	}
	return *s != '\0';
}

static bool list_valid(const char *s, const char *words)
{
	if (!*s)
		return false;
	for (const char *p = s; *p;) {
		size_t n = strcspn(p, ",");

		if (!word_in(p, n, words))
			return false;
		p += n;
		if (*p == ',' && p[1])
			p++;
		else if (*p)
			return false;
	}
	return true;
}

/* Flags first, each ending in ',' (kernel/sched/isolation.c), then the CPUs. */
static bool isolcpus_valid(const char *s, const char *flags)
{
	while (*s && !((*s >= '0' && *s <= '9') || *s == 'N' || !strncmp(s, "all", 3))) {
		size_t n = strcspn(s, ",");

		if (!word_in(s, n, flags) || s[n] != ',')
			return false;
		s += n + 1;
	}
	return cpulist_valid(s);
}

/* off; or auto, then nosmt and the attack-vector words (attack_vector_controls.rst). */
static bool mitigations_valid(const char *s)
{
	if (!strcmp(s, "off") || !strcmp(s, "auto"))
		return true;
	return !strncmp(s, "auto,", 5) &&
	       list_valid(s + 5, "nosmt|no_user_kernel|no_user_user|no_guest_host|no_guest_guest|no_cross_thread");
}

static bool value_valid(const struct value_rule *r, const char *value)
{
	if (!value)
		return r->form == FORM_FLAG || r->bare;
	switch (r->form) {
	case FORM_FLAG:
		return false;
	case FORM_WORD:
		return word_in(value, strlen(value), r->words);
	case FORM_LIST:
		return list_valid(value, r->words);
	case FORM_BOOL:
		return param_kstrtobool(value) >= 0;
	case FORM_UINT:
		return uint_valid(value);
	case FORM_HUGEPAGES:
		return hugepages_valid(value);
	case FORM_SIZE:
		return size_valid(value);
	case FORM_CPULIST:
		return cpulist_valid(value);
	case FORM_ISOLCPUS:
		return isolcpus_valid(value, r->words);
	case FORM_MITIGATIONS:
		return mitigations_valid(value);
	}
	return false;
}

/* The words as "a, b or c". */
static void add_words(struct strbuf *sb, const char *words, const char *last)
{
	for (const char *w = words; *w;) {
		size_t len = strcspn(w, "|");
		bool final = !w[len];

		if (w != words)
			strbuf_addstr(sb, final ? last : ", ");
		strbuf_addf(sb, "%.*s", (int)len, w);
		w += len + !final;
	}
}

/* What the rule takes, in words. */
static void rule_takes(const struct value_rule *r, struct strbuf *sb)
{
	switch (r->form) {
	case FORM_FLAG:
		strbuf_addstr(sb, "no value (the name alone)");
		return;
	case FORM_WORD:
		strbuf_addstr(sb, r->bare ? "no value, or one of " : "one of ");
		add_words(sb, r->words, " or ");
		return;
	case FORM_LIST:
		strbuf_addstr(sb, "a comma-separated list of ");
		add_words(sb, r->words, ", ");
		return;
	case FORM_BOOL:
		strbuf_addstr(sb, "a boolean as kstrtobool() reads it (1, y, on, true / 0, n, off, false)");
		return;
	case FORM_UINT:
		strbuf_addstr(sb, "a whole number");
		return;
	case FORM_HUGEPAGES:
		strbuf_addstr(sb, "a whole number, or NODE:COUNT,... per NUMA node");
		return;
	case FORM_SIZE:
		strbuf_addstr(sb, "a size: a number with K, M or G (2M, 1G)");
		return;
	case FORM_CPULIST:
		strbuf_addstr(sb, r->bare ? "no value, or a CPU list (1-3,8; N is the last CPU; all)"
				      : "a CPU list (1-3,8; N is the last CPU; all)");
		return;
	case FORM_ISOLCPUS:
		strbuf_addstr(sb, "flags (");
		add_words(sb, r->words, ", ");
		strbuf_addstr(sb, "), each followed by a comma, then a CPU list (nohz,domain,1-3)");
		return;
	case FORM_MITIGATIONS:
		strbuf_addstr(sb, "off, auto, or auto followed by ,nosmt and attack vectors (auto,nosmt, auto,no_user_user, ...)");
		return;
	}
}

static const struct value_rule *rule_for(const char *name)
{
	for (size_t i = 0; i < N_RULES; i++)
		if (cmdline_name_listed(name, rules[i].names))
			return &rules[i];
	return NULL;
}

int param_value_check(const char *arg, char **ret_reason)
{
	const char *eq = strchr(arg, '=');
	char *name = eq ? xstrndup(arg, (size_t)(eq - arg)) : xstrdup(arg);
	const struct value_rule *r = rule_for(name);
	struct strbuf sb = STRBUF_INIT;

	if (!r || value_valid(r, eq ? eq + 1 : NULL)) {
		free(name);
		return 0;
	}
	if (eq)
		strbuf_addf(&sb, "%s: the kernel does not take '%s': it takes ", name, eq + 1);
	else
		strbuf_addf(&sb, "%s: the kernel does not take it without a value: it takes ", name);
	rule_takes(r, &sb);
	strbuf_addf(&sb, " (%s)", r->source);
	free(name);
	*ret_reason = strbuf_detach(&sb, NULL);
	return -EINVAL;
}

int param_values_check(char *const *args, char **ret_reason)
{
	for (char *const *a = args; a && *a; a++)
		if (param_value_check(*a, ret_reason) < 0)
			return -EINVAL;
	return 0;
}
