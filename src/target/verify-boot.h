#ifndef BOOTAB_VERIFY_BOOT_H
#define BOOTAB_VERIFY_BOOT_H

#include <stddef.h>

#include <jansson.h>

#include "kernel/snapshot.h"
#include "kernel/verify.h"
#include "lib/parse-error.h"

struct target;
struct target_snapshot_options;

/*
 * One way to verify a boot, for bootab verify and the campaign alike: a
 * snapshot of the target that reads what the checks need (the module
 * parameters of the asked args, the files of sysfs() expectations), then
 * the kernel release check (when asked), the /proc/cmdline check, the built-in meaning of the asked args and
 * every expectation (kernel/verify.h).
 */
struct verify_boot_request {
	char *const *managed;                 /* every mode's args, NULL-terminated */
	char *const *asked;                   /* the args this boot should have */
	const struct verify_expect *expects;  /* also checked */
	size_t n_expects;
	const char *kernel;                   /* the release uname -r must print; NULL: not checked */
	const struct target_snapshot_options *snapshot;  /* NULL: a whole snapshot, every script run */
};

struct verify_boot_result {
	struct snapshot snapshot;
	struct verify_report report;          /* verify_report_failures(): how many failed */
	char *without_root;                   /* NULL, or why root was refused: sysfs was read
						 without it and the kernel log was not read */
	json_t *proof;                        /* the level of each asked arg (proof_levels_json());
						 NULL when the checks did not run */
};

/*
 * Snapshots t as root (the kernel log needs it); when root is refused
 * (-EACCES), again without root and without the kernel log, since sysfs
 * alone decides. Returns 0 when the checks ran (the report says whether
 * they held), else target_snapshot()'s -errno: -EINVAL with err saying
 * where the output does not parse, others with target_error(t). *ret is
 * filled in every case and released with verify_boot_result_release().
 */
int verify_boot(struct target *t, const struct verify_boot_request *request,
		struct verify_boot_result *ret, struct parse_error *err);

struct strvec;

/* Appends to words the args snapshot.sh takes for request: what its checks read. */
void verify_boot_snapshot_args(const struct verify_boot_request *request, struct strvec *words);

/*
 * The checks of verify_boot() on a snapshot taken elsewhere (a LAVA job's
 * test shell ran snapshot.sh with verify_boot_snapshot_args()): fills
 * ret->report and ret->proof; ret->snapshot is not touched. ret starts
 * zeroed; release it with verify_boot_result_release().
 */
void verify_boot_check(const struct snapshot *snapshot, const struct verify_boot_request *request,
		       struct verify_boot_result *ret);

void verify_boot_result_release(struct verify_boot_result *result);

#endif
