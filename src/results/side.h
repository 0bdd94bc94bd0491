#ifndef BOOTAB_SIDE_H
#define BOOTAB_SIDE_H

#include <stdbool.h>
#include <stddef.h>

#include "kernel/inventory.h"
#include <jansson.h>

#include "kernel/iommu.h"
#include "lib/parse-error.h"
#include "lib/strlist.h"
#include "stats/metric.h"
#include "stats/stats.h"

/*
 * A side is the results of one boot: a directory holding bootab's own
 * results (meta.json, see docs/results-format.md) and/or plain benchmark
 * output files, one file per row, recognised by content.
 */

enum row_kind {
	ROW_BENCH,
	ROW_CHECK,          /* a functional test: only its exit code counts */
};

struct row {
	char *name;
	enum row_kind kind;
	bool has_rc;
	int rc;
	bool by_run;        /* cold first run: compare run i with run i */
	bool has_stat;
	enum stat_kind stat;
	enum stat_kind stats[STAT_KINDS];   /* meta.json's stats: stat first, then the others compared */
	size_t n_stats;
	char *source;       /* the file the data came from, for messages */
	struct metric_set metrics;   /* and, for a test suite's output (KTAP), its checks */
	double *rep_s;      /* meta.json reps[].end - start, seconds, where both are recorded */
	size_t n_rep_s;
	bool has_idle_wait;
	double idle_wait_s; /* meta.json idle_wait_s */
};

/* The kernel a boot ran, as meta.json and kernel-config record it. */
struct side_kernel {
	char *release;      /* meta.json kernel (uname -r); NULL when not recorded */
	char *version;      /* kernel_version (uname -v) */
	char *build_id;     /* kernel_build_id: lowercase hex */
	char *package;      /* kernel_package.name */
	char *config_sha256;/* kernel_config.sha256 */
	char **config;      /* kernel-config: "CONFIG_NAME=VALUE" lines in file order,
			       NULL-terminated; NULL when the side has no such file */
	size_t n_config;
};

struct side_version {
	char *name;
	char *value;
};

/* One command of the plan's [prepare] as it ran on the boot (meta.json "prepare"). */
struct side_prepare {
	char *command;      /* escaped for printing (lib/escape.h), newlines too: one line */
	int rc;
};

struct side {
	char *dir;
	char *label;        /* the directory's name */
	char *mode;         /* meta.json's mode, else label without trailing digits (side_infer_modes()) */
	bool mode_recorded; /* the mode is meta.json's, not inferred from the label */
	unsigned round;     /* meta.json's round (1-based); 0: not recorded */
	char *machine_id;   /* meta.json's machine_id, or NULL */
	char *boot_id;      /* meta.json's boot_id, or NULL */
	struct side_kernel kernel;
	char *cmdline;      /* the kernel command line the boot ran (meta.json cmdline, meta.txt), or NULL */
	char *iommu_summary;/* its IOMMU group types ("1 DMA, 32 DMA-FQ, 2 identity", "no IOMMU groups"), or NULL */
	char *load;         /* the load when the rows started (meta.json loadavg, meta.txt start), or NULL */
	char *proof;        /* meta.json's proof level ("proven", "evidence", "cmdline only"), or NULL */
	char *proof_weak;   /* its args below proven, "preempt=full evidence, ...", or NULL */
	bool has_reboot;
	double reboot_s;    /* meta.json's reboot_s: seconds from reboot to the new boot answering */
	bool kexec;         /* meta.json's boot_method is "kexec": no firmware reset before this boot */
	struct side_prepare *prepare;   /* meta.json's prepare, in the order it ran; NULL when none */
	size_t n_prepare;
	struct row *rows;
	size_t n_rows;
	size_t alloc_rows;
	struct side_version *versions;
	size_t n_versions;
	size_t alloc_versions;
	struct inventory inventory;  /* meta.json's devices, kernel_log, failed_units (each may be unrecorded) */
	/*
	 * meta.json rows that bootab wrote but that cannot be read (a metric
	 * that does not parse): the warnings name each. A report without them
	 * would be wrong, so commands refuse to report.
	 */
	size_t unreadable_rows;
	json_t *meta;       /* meta.json as loaded (an object; the side's), or NULL */
	char *meta_problem; /* why there is no meta although the file is there, or NULL */
};

/*
 * Loads the side in directory dir into *ret. Problems with single files
 * (a JSON error, an unrecognised file, a bad field) are appended to
 * warnings as one line each, naming the file (and line, column or field),
 * and the rest still loads. Returns 0, or -errno when the directory
 * itself cannot be read (*ret untouched).
 */
int side_load(const char *dir, struct side *ret, struct strlist *warnings);

/*
 * Reads meta.json's content (len bytes; file names it in warnings) into
 * side: its mode (when valid), versions and rows, added to what side
 * holds, and the document itself into side->meta. Like side_load(), a bad field is one line in warnings and the
 * rest still loads; nothing is ever trusted to be well formed.
 */
void side_meta_parse(const char *file, const char *data, size_t len, struct side *side,
		     struct strlist *warnings);

/*
 * Like side_meta_parse() on a decoded document (root, an object), which
 * side->meta then holds a reference to.
 */
void side_meta_apply(const char *file, json_t *root, struct side *side, struct strlist *warnings);

/*
 * Reads a meta.txt that a side's own bench script wrote (not bootab's: the
 * side has no meta.json), in the layout docs/results-format.md describes
 * ("meta.txt written by a bench script"): the time, the kernel release,
 * the command line, the IOMMU group types, kernel log lines, build lines,
 * "start TIME load ...", one "NAME rc=N TIME" line per row, "end TIME".
 * Its facts go into side as meta.json's would (side->meta is a document
 * with meta.json's keys); each line that does not fit is one line in
 * warnings naming the file, line and field, and the rest still loads.
 */
void side_meta_txt_parse(const char *file, const char *data, size_t len, struct side *side,
			 struct strlist *warnings);

/* The row called name, or NULL (borrowed). */
struct row *side_find_row(const struct side *side, const char *name);
/*
 * How side's command line differs from first's, word by word: "-iommu=pt
 * +amd_iommu=off" ("" when they are the same); the caller's. NULL when
 * either recorded none.
 */
char *side_args_against(const struct side *side, const struct side *first);
/* The value of version name, or NULL (borrowed). */
const char *side_version(const struct side *side, const char *name);

/*
 * Whether name cannot be a boot label (a side directory in the campaign
 * directory) or a row name (a directory under a side's rows/), because the
 * results layout uses it: ".", "..", hidden and temporary files, the
 * campaign's own files (plan.ini, journal, lock, report.*) and the names
 * set-aside sides get (LABEL.abandoned-N). *ret_why (static) says why.
 */
bool results_name_reserved(const char *name, const char **ret_why);

/* The label with trailing digits removed ("pt2" -> "pt"); the caller's. */
char *side_mode_from_label(const char *label);

/*
 * The modes of sides whose meta.json names none, from their labels, never
 * by a guess: a label is a repeat of mode M only when another side is
 * labelled M and the label is M followed by digits (pt2; not when M ends
 * in a digit: run1 and run10 are two modes), by "-", "_" or "." and
 * digits, or by "-again" ("v6.1-again"); any other label is its own mode
 * (v6.1 and v6.8 are two modes; run1 run2 run3 are three). A numbered
 * series from 1 (stem1, stem2, ...) is a series of modes even beside a
 * side called stem. Two sides with the same label are a warning, as is
 * every inferred mode that is not the label itself when the label looks
 * like a version (holds a '.'); when several labels are numbered, one
 * line in warnings says which sides were taken as repeats (and which as
 * a series).
 */
void side_infer_modes(struct side *sides, size_t n, struct strlist *warnings);

/*
 * The sides grouped by mode, built once so that no step over many sides
 * compares mode names pairwise: modes are numbered in first-seen order
 * (sides[0]'s mode is 0), of[k] is side k's mode, and the sides of mode g
 * are sides[start[g]] .. sides[start[g + 1] - 1], in side order (the first
 * of them is the mode's first side).
 */
struct side_modes {
	size_t n;           /* modes */
	size_t *of;         /* per side */
	size_t *start;      /* per mode, and one more: n + 1 */
	size_t *sides;      /* every side, mode by mode */
};

/* Indexes the modes of sides (n >= 0). Release with side_modes_release(). */
void side_modes_index(const struct side *sides, size_t n, struct side_modes *ret);
/* The first side of mode g. */
size_t side_modes_first(const struct side_modes *modes, size_t g);
/* How many sides mode g has. */
size_t side_modes_count(const struct side_modes *modes, size_t g);
void side_modes_release(struct side_modes *modes);

/*
 * Whether name can be a side's label or mode: printable, one line, 1 to
 * 200 bytes (what meta.json's mode must be too).
 */
bool side_name_valid(const char *name);

/*
 * Gives sides the modes of assignments, each "LABEL=MODE" (compare
 * --mode): LABEL names exactly one side by its label, and MODE replaces
 * what meta.json says (a line in warnings when it differs) and is never
 * inferred. Returns 0, or -EINVAL when a label names no side or two,
 * with *ret_error (the caller's) saying which; sides are then partly
 * assigned.
 */
int side_assign_modes(struct side *sides, size_t n, const struct strlist *assignments,
		      struct strlist *warnings, char **ret_error);

void side_release(struct side *side);

/*
 * The side directory's own files, written and read here only
 * (docs/results-format.md):
 *   meta.json   the boot and its rows; written last, so its presence
 *               says the side is complete
 *   meta.txt    the same for a reader
 *   iommu.txt   one line per device (group, type, address, name, driver),
 *               then "iommu group types: SUMMARY"
 */

/*
 * Reads a side's meta.json as side_load() does (at most FILE_READ_MAX
 * bytes, no key twice, an object): path is the side directory or the
 * meta.json file itself. *ret_file (the caller's) is the file read, set
 * whatever the outcome. Returns 0 with *ret_meta (the caller's), -errno
 * when the file cannot be read, or -EINVAL with err saying where the JSON
 * stops (line, column) or that it is not an object.
 */
int side_meta_read(const char *path, char **ret_file, json_t **ret_meta, struct parse_error *err);

/* Whether dir is a recorded side: it holds a meta.json (written last, so the side is complete). */
bool side_recorded(const char *dir);

/* meta.json's text: two-space indent, keys in the order they were set, a final newline. The caller's. */
char *side_meta_dump(const json_t *meta);


/*
 * Writes iommu.txt (when iommu is not NULL), meta.txt, then meta.json
 * into dir, each whole (a temporary file renamed). Stops at the first
 * that fails and names it in *ret_failed (the caller's), with no
 * meta.json written. Returns 0 or -errno.
 */
int side_write_meta(const char *dir, const json_t *meta, const char *meta_txt,
		    const struct iommu_map *iommu, char **ret_failed);

#endif
