#ifndef BOOTAB_VERIFY_H
#define BOOTAB_VERIFY_H

#include <stdbool.h>
#include <stddef.h>

#include "kernel/snapshot.h"
#include "lib/strvec.h"

/*
 * Whether a boot is the one asked for, judged from what sysfs and procfs
 * say (a snapshot), never from kernel-log lines: the kernel prints
 * "Default domain type: Translated" on a boot where no IOMMU was
 * initialised.
 */

/* One kernel argument: name=value, or a bare name (value NULL). */
struct verify_arg {
	char *name;
	char *value;
};

struct verify_args {
	struct verify_arg *v;
	size_t n, alloc;
};

/*
 * The args as name/value pairs (split at the first '='). args is a
 * NULL-terminated list as cmdline_args_parse() returns it (already
 * checked against the kernel's syntax). *ret is the caller's.
 */
void verify_args_from_list(char *const *args, struct verify_args *ret);
void verify_args_release(struct verify_args *args);

/*
 * How far a check reaches, weakest first (the level of a mode is the
 * minimum over its args):
 *   proven        sysfs or procfs shows the setting in effect
 *   evidence      only a kernel-log line (or an address) agrees; shown,
 *                 never taken as proof
 *   cmdline only  nothing but /proc/cmdline says so
 */
enum proof_level {
	PROOF_CMDLINE,
	PROOF_EVIDENCE,
	PROOF_PROVEN,
};

enum verify_status {
	VERIFY_OK,
	VERIFY_FAILED,
	VERIFY_NOTE,      /* recorded, not judged (could not be verified, or evidence only) */
};

struct verify_check {
	enum verify_status status;
	char *what;       /* "iommu=pt", "/proc/cmdline has iommu=pt" */
	char *expected;   /* NULL for notes */
	char *found;      /* what sysfs/procfs said */
	char *where;      /* the paths read */
	enum proof_level level;
	char *arg;        /* the asked arg this check judges ("pti=on"); NULL for others */
};

struct verify_report {
	struct verify_check *v;
	size_t n, alloc;
};

/* Appends one check; found is printf-formatted. arg and expected may be NULL. */
void verify_report_add(struct verify_report *report, enum verify_status status,
		       enum proof_level level, const char *arg, const char *what,
		       const char *expected, const char *where, const char *found_fmt, ...)
	__attribute__((format(printf, 8, 9)));

/* How many checks failed. */
size_t verify_report_failures(const struct verify_report *report);
void verify_report_release(struct verify_report *report);

/*
 * /proc/cmdline (snap->cmdline) holds every asked arg and no other
 * managed arg, by cmdline_check()'s rules (the last occurrence wins,
 * '-' equals '_' in names, loader tokens and init's args after `--`
 * ignored). managed and asked: NULL-terminated lists.
 */
void verify_cmdline(const struct snapshot *snap, char *const *managed, char *const *asked,
		    struct verify_report *report);

/*
 * uname -r (snap->kernel) is release; nothing for release NULL (a plan
 * that names no kernel).
 */
void verify_kernel(const struct snapshot *snap, const char *release, struct verify_report *report);

/*
 * The built-in meaning of asked args, checked in sysfs:
 *   iommu=pt, iommu.passthrough=1   groups exist and are identity; groups
 *                                   the kernel keeps strict (DMA) are
 *                                   listed, DMA-FQ fails
 *   iommu.strict=1                  no DMA-FQ group; translated groups are DMA
 *   amd_iommu=off, intel_iommu=off  no IOMMU groups, /sys/class/iommu empty
 *   mitigations=off                 every affected vulnerabilities entry
 *                                   reads "Vulnerable..."
 *   MODULE.PARAM=V                  /sys/module/MODULE/parameters/PARAM
 *                                   equals V (Y/N/1/0/on/off/true/false
 *                                   compared as booleans)
 */
void verify_semantics(const struct snapshot *snap, const struct verify_args *asked,
		      struct verify_report *report);

/* What snapshot.sh must read for asked: "param:MOD.PARAM" words, appended to words. */
void verify_snapshot_args(const struct verify_args *asked, struct strvec *words);

/*
 * An --expect expression:
 *   iommu.groups=N                 the number of IOMMU groups
 *   iommu.type(ADDR)=TYPE          the type of ADDR's group ("none": ADDR in no group)
 *   sysfs(/sys/PATH)=VALUE         the first line of a sysfs or procfs file
 */
enum verify_expect_kind {
	EXPECT_IOMMU_GROUPS,
	EXPECT_IOMMU_TYPE,
	EXPECT_SYSFS,
};

struct verify_expect {
	enum verify_expect_kind kind;
	char *subject;    /* ADDR or PATH; NULL for iommu.groups */
	char *value;
	unsigned long groups;
};

/* Parses expr. Returns 0 or -EINVAL with *ret_error (caller frees); *ret untouched on error. */
int verify_expect_parse(const char *expr, struct verify_expect *ret, char **ret_error);
void verify_expect_release(struct verify_expect *e);
/* Checks one expectation against snap. sysfs() needs "file:PATH" in the snapshot's args. */
void verify_expect_check(const struct snapshot *snap, const struct verify_expect *e,
			 struct verify_report *report);

#endif
