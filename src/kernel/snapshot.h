#ifndef BOOTAB_SNAPSHOT_H
#define BOOTAB_SNAPSHOT_H

#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>

#include "kernel/inventory.h"
#include "kernel/iommu.h"
#include "lib/parse-error.h"

struct strbuf;

/*
 * What one boot is, as the target script snapshot.sh reports it: kernel,
 * command line, boot_id, IOMMU map, kernel-log evidence and the state a
 * benchmark depends on (load, governor, temperatures, CPU vulnerabilities,
 * module parameters). docs/target.md describes the record format.
 */

/* A named value; value NULL means the target reported it absent. */
struct snapshot_entry {
	char *name;
	char *value;
};

struct snapshot_entries {
	struct snapshot_entry *v;
	size_t n, alloc;
};

struct snapshot_thermal {
	char *zone;           /* "thermal_zone0" */
	char *type;           /* "acpitz"; NULL when the zone has no type */
	long millidegrees;
	bool has_temp;
};

enum snapshot_log_source {
	SNAPSHOT_LOG_ABSENT,      /* neither journalctl nor dmesg gave a kernel log */
	SNAPSHOT_LOG_JOURNALCTL,
	SNAPSHOT_LOG_DMESG,
	SNAPSHOT_LOG_FILE,        /* a captured tree's var/log/dmesg */
	SNAPSHOT_LOG_SKIPPED,     /* not asked for (snapshot.sh nolog) */
};

struct snapshot {
	char *target_time;    /* the target's clock, as it printed it */
	char *boot_id;        /* validated: 36-character lowercase UUID */
	char *kernel;         /* kernel release */
	char *hostname;       /* may be NULL */
	char *machine_id;     /* machine-id(5): 32 lowercase hex digits; NULL when absent or not an id */
	char *cmdline;        /* /proc/cmdline */
	char *loadavg;        /* /proc/loadavg; may be NULL */
	struct snapshot_entries governors;      /* policyN → governor */
	struct snapshot_entries vulnerabilities;/* name → text */
	struct snapshot_entries params;         /* MODULE.PARAM → value or NULL */
	struct snapshot_entries files;          /* path → first line or NULL */
	struct snapshot_entries state;          /* what the parameter proofs read: path → value */
	struct snapshot_thermal *thermal;
	size_t n_thermal, alloc_thermal;
	char **iommu_classes;                   /* /sys/class/iommu entries */
	size_t n_iommu_classes, alloc_iommu_classes;
	struct iommu_map iommu;
	enum snapshot_log_source log_source;
	char **log_lines;                       /* IOMMU kernel-log lines (at most 2000) */
	size_t n_log_lines, alloc_log_lines;
	unsigned long log_count;                /* how many the log held */
	struct inventory inventory;             /* devices, kernel errors, failed units */
	char *raw;                              /* the snapshot.sh output it came from, when kept; may be NULL */
	/* The running kernel's identity. */
	char *kernel_version;                   /* uname -v: build number and date; NULL: not read */
	bool has_notes;                         /* /sys/kernel/notes was read */
	char *build_id;                         /* its GNU build id, lowercase hex; NULL: none found */
	char *config_source;                    /* "/boot/config-RELEASE" or "/proc/config.gz"; NULL: none */
	char *config_sha256;                    /* of that text; NULL: no sha256sum on the box */
	char *package_manager;                  /* "dpkg", "rpm"; NULL: no package owns the image */
	char *package;                          /* "linux-image-6.1.0-57-amd64 6.1.158-1" */
	struct snapshot_entries config;         /* CONFIG_NAME -> value, every option set */
	char *config_read_on;                   /* NULL: read on this boot; else the boot_id whose snapshot
						   read it, for a kernel of this build id (kernel_config_reused) */
	char **evidence;                        /* kernel-log lines the proofs show (at most 200) */
	size_t n_evidence, alloc_evidence;
};

/*
 * A kernel's config as one boot's snapshot read it, for a later snapshot of
 * a kernel with the same GNU build id and release: the config is a property
 * of the build, so that one need not read it again.
 */
struct snapshot_config_memo {
	char *boot_id;      /* the boot whose snapshot read it */
	char *kernel;       /* its release */
	char *build_id;
	char *source;       /* kernel_config's source and SHA-256 (NULL: no sha256sum) */
	char *sha256;
	struct snapshot_entries config;
};

/*
 * The memo of a snapshot that read its kernel's config itself and knows its
 * build id: returns 0 and fills *ret (snapshot_config_memo_release()), else
 * -ENOENT and leaves *ret zeroed.
 */
int snapshot_config_memo_from(const struct snapshot *snap, struct snapshot_config_memo *ret);

void snapshot_config_memo_release(struct snapshot_config_memo *memo);

/*
 * The records a later boot's snapshot carries in place of kernel-id.sh's
 * config records: "kernel_config_reused BOOT_ID BUILD_ID", then the memo's
 * kernel_config and kconfig records (docs/target.md).
 */
void snapshot_config_memo_records(const struct snapshot_config_memo *memo, struct strbuf *out);

/* Bounds on what snapshot_parse() accepts. */
#define SNAPSHOT_MAX_BYTES ((size_t)8 << 20)
#define SNAPSHOT_MAX_LINE 8192
#define SNAPSHOT_MAX_LOG_LINES 2000
#define SNAPSHOT_MAX_CONFIG 40000
/* A config value is kept whole up to KEPT bytes; a longer one is cut to CUT and marked. */
#define SNAPSHOT_CONFIG_VALUE_KEPT 4160
#define SNAPSHOT_CONFIG_VALUE_CUT 4096

/*
 * A kernel config value as the snapshot keeps it: unchanged when it is
 * printable UTF-8 of at most SNAPSHOT_CONFIG_VALUE_KEPT bytes; else
 * escaped (text_escape_append(): a Latin-1 byte as \xNN) and, when that
 * is longer than SNAPSHOT_CONFIG_VALUE_KEPT, cut to at most
 * SNAPSHOT_CONFIG_VALUE_CUT bytes and followed by "... (N bytes, fnv1a64
 * HASH)" (N and the hash of the whole raw value, so two long values that
 * differ anywhere stay different). A kept value is kept again unchanged.
 * The caller's.
 */
char *snapshot_config_value(const char *raw);
#define SNAPSHOT_MAX_EVIDENCE_LINES 200

/*
 * Parses snapshot.sh output. The input is untrusted: every line is bounded,
 * every field checked (count, characters, numbers, ids), and the output
 * must start with the format header and end with "end". On error returns
 * -EINVAL (-EFBIG past SNAPSHOT_MAX_BYTES), sets err's line, column and
 * message, and leaves *ret untouched. *ret is released with
 * snapshot_release().
 */
int snapshot_parse(const char *data, size_t len, struct snapshot *ret, struct parse_error *err);

/* One script's output, as snapshot_parse_scripts() reads it. */
struct snapshot_text {
	const char *data;
	size_t len;
};

/*
 * A snapshot from its scripts' outputs, each read on its own: texts[0]
 * is snapshot.sh's (the header first, "end" last), the others
 * kernel-id.sh's and inventory.sh's records (neither header nor "end";
 * empty: that script did not run). Errors as snapshot_parse(), with
 * err's line one of texts[*ret_which] (ret_which may be NULL); the bound
 * SNAPSHOT_MAX_BYTES is the whole's.
 */
int snapshot_parse_scripts(const struct snapshot_text *texts, size_t n, struct snapshot *ret,
			   struct parse_error *err, size_t *ret_which);

/*
 * The texts as snapshot.out keeps them (what snapshot_parse() reads):
 * the others' records before snapshot.sh's closing "end" line (without
 * that line, snapshot.sh's output alone). The result is the caller's,
 * NUL-terminated, its length in *ret_len.
 */
char *snapshot_join_scripts(const struct snapshot_text *texts, size_t n, size_t *ret_len);

void snapshot_release(struct snapshot *snap);

/* The value of name in entries (NULL when absent or reported absent); *ret_found says which. */
const char *snapshot_entry_get(const struct snapshot_entries *entries, const char *name,
			       bool *ret_found);

const char *snapshot_log_source_name(enum snapshot_log_source source);

/* Whether s is a boot_id as the kernel prints it (lowercase UUID). */
bool boot_id_valid(const char *s);

/* Whether s is a machine id as machine-id(5) defines it: 32 lowercase hex digits. */
bool machine_id_valid(const char *s);

/*
 * Extra facts recorded with a snapshot, from the controller's side.
 */
struct snapshot_context {
	const char *time;     /* the controller's time, ISO 8601 */
	const char *target;   /* the --target given */
};

/*
 * Names the PCI devices of the IOMMU map and of the inventory from pci.ids
 * (ids_path NULL: libpci's default). Returns 0, or -ENOENT when pci.ids
 * cannot be read (devices are then named by number or not at all).
 */
int snapshot_describe(struct snapshot *snap, const char *ids_path);

/* meta.json's object for snap (the inventory's keys included). New reference. */
json_t *snapshot_to_json(const struct snapshot *snap, const struct snapshot_context *ctx);

/* meta.txt: the case study's layout (time, kernel, cmdline, iommu group types, ...). The result is the caller's. */
char *snapshot_to_text(const struct snapshot *snap, const struct snapshot_context *ctx);

/*
 * Reads the IOMMU map (and the cmdline, boot_id, kernel, hostname and a
 * valid machine_id when present)
 * from a meta.json written by snapshot_to_json(). On error returns -EINVAL
 * with err set and *ret untouched.
 */
int snapshot_from_json(const json_t *json, struct snapshot *ret, struct parse_error *err);

/* The local time now as "2026-10-14T20:34:09+03:00"; the result is the caller's. */
char *time_now_iso8601(void);

#endif
