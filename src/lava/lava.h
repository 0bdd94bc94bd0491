#ifndef BOOTAB_LAVA_H
#define BOOTAB_LAVA_H

#include <stdbool.h>
#include <stddef.h>

#include "plan/plan.h"
#include "lib/parse-error.h"

/*
 * target = lava: each boot of a campaign is one job of a LAVA instance
 * (docs/fleet.md "LAVA"). bootab writes the job definition, LAVA boots
 * the device with the mode's args and runs bootab's test script in its
 * test shell; the script prints what an SSH campaign would fetch (the
 * snapshot scripts' output, the run directory's fetch stream) into the
 * job log, base64-encoded between
 *     bootab-lava-begin NAME SIZE
 *     bootab-lava-end NAME
 * lines, and reports each rep as a lava-test-case with its seconds as the
 * measurement. bootab reads the log back through LAVA's API.
 */

/* One boot as its job runs it. */
struct lava_boot {
	const char *campaign;
	size_t boot_index;                  /* 0-based */
	size_t n_boots;
	const char *label;
	const char *mode;
	char *const *args;                  /* the mode's kernel args, NULL-terminated */
	const char *const *snapshot_args;   /* snapshot.sh's (verify_boot_snapshot_args()) */
	const char *runner;                 /* the per-boot rows script (runner_generate()'s), borrowed */
	unsigned long long fetch_limit;     /* run-fetch.sh's LIMIT: larger files stay on the device */
};

/*
 * The test script the job's test shell runs (POSIX sh): the snapshot
 * scripts, boot->runner for the rows, the fetch; the caller's.
 */
char *lava_boot_script(const struct lava_boot *boot);

/*
 * The job definition (YAML) of boot: LAVA's qemu device type, the plan's
 * kernel and initramfs deployed to tmpfs, [lava] kernel_args and the
 * mode's args on QEMU's -append (the qemu boot method takes the command
 * line from there) and in context: extra_kernel_args (bootloader device
 * types read that), pinned by the plan's tags, the test script carried in
 * its inline test definition. Every string in it is a double-quoted YAML
 * scalar. The caller's.
 */
char *lava_job_definition(const struct plan *plan, const struct lava_boot *boot);

/* What LAVA's /api/v0.2/jobs/ID/ says of a job. */
struct lava_job_status {
	long id;
	char *state;             /* Submitted, Scheduling, Scheduled, Running, Canceling, Finished */
	char *health;            /* Unknown, Complete, Incomplete, Canceled */
	char *actual_device;     /* NULL until scheduled */
	char *failure_comment;   /* NULL when none */
};

/*
 * Every text of LAVA's that a message may print (a job's state, health,
 * device, failure comment, error) is cut to this many bytes, "..." and its
 * length after (lava_field_dup(), a new string).
 */
#define LAVA_FIELD_MAX 500

/*
 * Parses the answer of POST /api/v0.2/jobs/ ({"job_ids": [ID], ...}).
 * Returns 0 and *ret_id, or -EINVAL with err (what is wrong).
 */
int lava_submit_parse(const char *json, size_t len, long *ret_id, struct parse_error *err);

/*
 * Parses the answer of GET /api/v0.2/jobs/ID/. Returns 0 and *ret
 * (lava_job_status_release()), or -EINVAL with err; *ret untouched then.
 */
int lava_job_status_parse(const char *json, size_t len, struct lava_job_status *ret,
			  struct parse_error *err);
void lava_job_status_release(struct lava_job_status *status);

/* One file a job's log carried. */
struct lava_file {
	char *name;      /* "snapshot", "kernel-id", "inventory", "fetch" */
	char *data;      /* NUL-terminated (not counted in len) */
	size_t len;
};

struct lava_files {
	struct lava_file *v;
	size_t n, alloc;
};

/*
 * Reads the files out of a job's log (GET /api/v0.2/jobs/ID/logs/: one
 * "- {JSON}" line per log record). Only the test shell's own lines count
 * (records of level "target"); kernel messages between them are skipped.
 * A begin without its end, a size that is not what was announced, a name
 * given twice, a block that is not base64 or a target record that is not
 * JSON is an error: returns -EINVAL with err (the log's line, what is
 * wrong) and *ret untouched; else 0 and *ret (lava_files_release()).
 */
int lava_log_files(const char *log, size_t len, struct lava_files *ret, struct parse_error *err);

/* The file called name, or NULL (borrowed). */
const struct lava_file *lava_files_find(const struct lava_files *files, const char *name);
void lava_files_release(struct lava_files *files);

/*
 * Why a job did not complete, from its log: the error_type and error_msg
 * of LAVA's lava/job result ("Job error: Invalid job data: ..."), else
 * the last record of level "error"; in one line. Returns 0 and *ret (the
 * caller's, not escaped), or -ENOENT when the log says nothing.
 */
int lava_log_job_error(const char *log, size_t len, char **ret);

#endif
