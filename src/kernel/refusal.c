#include "kernel/refusal.h"

#include <stdlib.h>
#include <string.h>

#include "kernel/cmdline.h"
#include "lib/alloc.h"

/*
 * How a refusal line names the parameter it refuses. The wording of each
 * line is the same in the 6.1 and 6.12 kernels (both booted on the lab:
 * tests/fixtures/klog).
 */
enum refusal_naming {
	NAMES_FIXED,        /* the line is about the parameters in names */
	NAMES_UNKNOWN_LIST, /* init/main.c print_unknown_bootoptions(): "... parameters "A B=1", will be passed to user space." */
	NAMES_QUOTED,       /* init/main.c do_early_param(): "Malformed early option 'NAME'" */
	NAMES_MODULE,       /* kernel/module/main.c unknown_module_param_cb(): "MODULE: unknown parameter 'P' ignored" */
	NAMES_PARSE_ARGS,   /* kernel/params.c parse_args(): "DOING: `V' invalid for parameter `P'", "DOING: Unknown parameter `P'" */
};

static const struct refusal_line {
	const char *needle;
	enum refusal_naming naming;
	const char *names;  /* NAMES_FIXED: '|'-separated */
} refusal_lines[] = {
	{ "Unknown kernel command line parameters \"", NAMES_UNKNOWN_LIST, NULL },
	{ "Malformed early option '", NAMES_QUOTED, NULL },
	{ ": unknown parameter '", NAMES_MODULE, NULL },
	{ "' invalid for parameter `", NAMES_PARSE_ARGS, NULL },
	{ ": Unknown parameter `", NAMES_PARSE_ARGS, NULL },
	/* drivers/iommu/amd/init.c parse_amd_iommu_options(), drivers/iommu/intel/iommu.c intel_iommu_setup() */
	{ "AMD-Vi: Unknown option - '", NAMES_FIXED, "amd_iommu" },
	{ "DMAR: Unknown option - '", NAMES_FIXED, "intel_iommu" },
	/* drivers/pci/pci.c pci_setup() */
	{ "PCI: Unknown option `", NAMES_FIXED, "pci" },
	/* kernel/cpu.c mitigations_parse_cmdline(); arch/x86/kernel/cpu/bugs.c */
	{ "Unsupported mitigations=", NAMES_FIXED, "mitigations" },
	{ "Spectre V2 : unknown option (", NAMES_FIXED, "spectre_v2" },
	{ "Spectre V2 : Unknown user space protection option (", NAMES_FIXED, "spectre_v2_user" },
	{ "Spectre V2 : Ignoring unknown spectre_bhi option (", NAMES_FIXED, "spectre_bhi" },
	{ "Speculative Store Bypass: unknown option (", NAMES_FIXED, "spec_store_bypass_disable" },
	{ "RETBleed: Ignoring unknown retbleed option (", NAMES_FIXED, "retbleed" },
	{ "Speculative Return Stack Overflow: Ignoring unknown SRSO option (", NAMES_FIXED, "spec_rstack_overflow" },
	{ "ITS: Ignoring unknown indirect_target_selection option (", NAMES_FIXED, "indirect_target_selection" },
	{ "Transient Scheduler Attacks: Ignoring unknown tsa=", NAMES_FIXED, "tsa" },
	{ "VMSCAPE: Ignoring unknown vmscape=", NAMES_FIXED, "vmscape" },
	{ "tsx: invalid option, defaulting to off", NAMES_FIXED, "tsx" },
	/* kernel/sched/core.c, kernel/sched/isolation.c */
	{ "Dynamic Preempt: unsupported mode: ", NAMES_FIXED, "preempt" },
	{ "isolcpus: Skipped unknown flag ", NAMES_FIXED, "isolcpus" },
	{ "isolcpus: Error, unknown flag", NAMES_FIXED, "isolcpus" },
	{ "Housekeeping: nohz_full= or isolcpus= incorrect CPU range", NAMES_FIXED, "nohz_full|isolcpus" },
	/* mm/huge_memory.c, mm/hugetlb.c, mm/mempolicy.c */
	{ "transparent_hugepage= cannot parse, ignored", NAMES_FIXED, "transparent_hugepage" },
	{ "HugeTLB: unsupported hugepagesz=", NAMES_FIXED, "hugepagesz" },
	{ "HugeTLB: unsupported default_hugepagesz=", NAMES_FIXED, "default_hugepagesz" },
	{ "does not follow a valid hugepagesz, ignoring", NAMES_FIXED, "hugepages" },
	{ "Unable to parse numa_balancing=", NAMES_FIXED, "numa_balancing" },
	/* init/main.c parse_rodata(), mm/usercopy.c parse_hardened_usercopy() */
	{ "Invalid option string for rodata: '", NAMES_FIXED, "rodata" },
	{ "Invalid option string for hardened_usercopy: '", NAMES_FIXED, "hardened_usercopy" },
};

#define N_REFUSAL_LINES (sizeof(refusal_lines) / sizeof(refusal_lines[0]))

/*
 * Names the x86 kernel lists among the unknown parameters although its own
 * code reads them from the command line and acts on them: the boot
 * decompressor (nokaslr), arch/x86/kernel/cpu/bugs.c (spectre_v2=,
 * spectre_v2_user=, nospectre_v2, spec_store_bypass_disable=,
 * nospec_store_bypass_disable) and, on 6.1, arch/x86/mm/pti.c (pti=,
 * nopti). Seen on the lab's 6.1 and 6.12 boots (tests/fixtures/klog).
 * Their proofs judge them; the list does not.
 */
static const char *const read_by_arch[] = {
	"nokaslr", "spectre_v2", "spectre_v2_user", "nospectre_v2", "spec_store_bypass_disable",
	"nospec_store_bypass_disable", "pti", "nopti",
};

static bool arch_reads(const char *name)
{
	for (size_t i = 0; i < sizeof(read_by_arch) / sizeof(read_by_arch[0]); i++)
		if (cmdline_name_equal(name, read_by_arch[i]))
			return true;
	return false;
}

const char *refusal_message(const char *line)
{
	const char *k = strstr(line, " kernel: ");

	if (line[0] == '[' && strstr(line, "] "))
		return strstr(line, "] ") + 2;
	return k ? k + 9 : line;
}

/* Whether the text up to end, read as the kernel's unknown list, holds name. */
static bool unknown_list_names(const char *list, const char *end, const char *name)
{
	for (const char *p = list; p < end;) {
		size_t len = strcspn(p, " \"");
		size_t nlen = strcspn(p, "= \"");
		char *token = xstrndup(p, nlen < len ? nlen : len);
		bool same = cmdline_name_equal(token, name) && !arch_reads(token);

		free(token);
		if (same)
			return true;
		p += len;
		p += strspn(p, " ");
		if (*p == '"')
			break;
	}
	return false;
}

/* The text between open (just after the needle) and the next close, or NULL; the caller's. */
static char *quoted(const char *open, char close)
{
	const char *end = strchr(open, close);

	return end ? xstrndup(open, (size_t)(end - open)) : NULL;
}

static bool line_names(const struct refusal_line *r, const char *msg, const char *at, const char *name)
{
	const char *after = at + strlen(r->needle);
	char *param = NULL;
	bool same = false;

	switch (r->naming) {
	case NAMES_FIXED:
		return cmdline_name_listed(name, r->names);
	case NAMES_UNKNOWN_LIST:
		return unknown_list_names(after, after + strlen(after), name);
	case NAMES_QUOTED:
		param = quoted(after, '\'');
		break;
	case NAMES_MODULE: {
		/* "MODULE: unknown parameter 'P' ignored": the module is the message's first word. */
		char *p = quoted(after, '\'');

		if (p && at > msg && !memchr(msg, ' ', (size_t)(at - msg)))
			param = xasprintf("%.*s.%s", (int)(at - msg), msg, p);
		free(p);
		break;
	}
	case NAMES_PARSE_ARGS: {
		/* "Booting kernel: ..." for the command line (P carries its module); "MODULE: ..." at load. */
		const char *colon = strstr(msg, ": ");
		char *bare = quoted(after, '\'');

		if (bare && colon && (strchr(bare, '.') || !strncmp(msg, "Booting kernel: ", 16)))
			param = xstrdup(bare);
		else if (bare && colon && !memchr(msg, ' ', (size_t)(colon - msg)))
			param = xasprintf("%.*s.%s", (int)(colon - msg), msg, bare);
		free(bare);
		break;
	}
	}
	same = param && cmdline_name_equal(param, name);
	free(param);
	return same;
}

bool refusal_line_names(const char *line, const char *name)
{
	const char *msg = refusal_message(line);

	for (size_t i = 0; i < N_REFUSAL_LINES; i++) {
		const char *at = strstr(msg, refusal_lines[i].needle);

		if (at && line_names(&refusal_lines[i], msg, at, name))
			return true;
	}
	return false;
}

void refusals_judge(const struct snapshot *snap, const struct verify_args *asked,
		    struct verify_report *report)
{
	const char *where = snapshot_log_source_name(snap->log_source);

	for (size_t i = 0; i < asked->n; i++) {
		const struct verify_arg *a = &asked->v[i];
		char *what = a->value ? xasprintf("%s=%s", a->name, a->value) : xstrdup(a->name);

		for (size_t k = 0; k < snap->n_evidence; k++) {
			if (!refusal_line_names(snap->evidence[k], a->name))
				continue;
			verify_report_add(report, VERIFY_FAILED, PROOF_EVIDENCE, what, what,
					  "the kernel takes it", where, "the kernel log says: %s",
					  refusal_message(snap->evidence[k]));
		}
		free(what);
	}
}
