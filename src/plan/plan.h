#ifndef BOOTAB_PLAN_H
#define BOOTAB_PLAN_H

#include <stdbool.h>
#include <stddef.h>

#include "judge/design.h"
#include "lib/parse-error.h"
#include "lib/strlist.h"
#include "parsers/parser.h"
#include "stats/stats.h"

/*
 * A campaign plan: an INI file with git-config-like sections
 * ([campaign], [mode "NAME"], [row "NAME"], [check "NAME"],
 * [version "NAME"], [factor "NAME"], [idle], [park], [unpark]); docs/plan.md
 * is its manual.
 */

enum plan_oneshot {
	ONESHOT_AUTO,       /* one-shot where the bootloader allows it */
	ONESHOT_ON,         /* required: stop if the bootloader cannot */
	ONESHOT_OFF,
};

struct plan_mode {
	char *name;
	char *args_text;          /* as written */
	char **args;              /* validated kernel args, NULL-terminated */
	char *kernel;             /* a release as uname -r prints it, or /boot/PATH; NULL: the standing kernel */
	struct strlist expects;   /* "iommu.groups=0", "iommu.type(ADDR)=identity", ... */
	unsigned line;
	bool design_run;          /* a run of the plan's factor design (not written by the user) */
	size_t run;               /* design_run: its row of plan->design */
};

/* A factor of a screening design: a set of args, on or off on each boot. */
struct plan_factor {
	char *name;
	char *args_text;
	char **args;              /* validated kernel args, NULL-terminated */
	unsigned line;
};

enum plan_design_kind {
	PLAN_DESIGN_NONE,
	PLAN_DESIGN_SCREEN,       /* the fewest runs that keep main effects clear (judge/design.h) */
	PLAN_DESIGN_FULL,         /* every combination of the factors */
};

struct plan_row {
	char *name;
	bool check;               /* [check]: only the exit code is kept */
	char *command;            /* POSIX sh, the user's own */
	unsigned reps;            /* times the command runs (1 when the tool repeats itself) */
	enum parser_kind parser;
	char *selector;           /* for parser json */
	bool has_better;
	bool better_lower;        /* for number, json and regex parsers */
	char *metric;             /* regex: the metric's name */
	char *pattern;            /* regex: POSIX extended, one group */
	char *unit;               /* regex: the metric's unit, or NULL */
	bool has_stat;
	enum stat_kind stat;      /* the first of stats */
	enum stat_kind stats[STAT_KINDS];   /* "stat = mean,min": each compared, the first judged first */
	size_t n_stats;
	bool by_run;
	double equivalence_pct;   /* "same within -/+ PCT %" margin of this row; 0: the campaign's */
	unsigned timeout_s;
	char *user;               /* run as; NULL: the SSH user ("root" to run as root) */
	char *perf;               /* perf stat events ("cycles,instructions"); NULL: the campaign's */
	bool perf_off;            /* perf = off: no counters for this row whatever the campaign says */
	bool has_perf_scope;
	bool perf_system;         /* perf_scope = system (perf stat -a); else the command alone */
	bool has_energy;
	bool energy;              /* energy = on: RAPL read before and after each rep */
	unsigned line;
};

struct plan_version {
	char *name;
	char *command;
	unsigned line;
};

struct plan_idle {
	double load;              /* load1 below this */
	double gpu_pct;           /* every GPU busy below this */
	unsigned checks;          /* consecutive idle checks */
	unsigned interval_s;
	unsigned timeout_s;       /* 0: wait as long as it takes */
};

/*
 * target = lava: the boots run as jobs of a LAVA instance ([lava]); see
 * docs/fleet.md "LAVA". Strings are checked when the plan is read (URLs
 * and names without quotes, spaces or control characters; the prompt
 * printable); the token file's mode when the campaign starts.
 */
struct plan_lava {
	bool present;                  /* a [lava] section was given */
	char *url;                     /* http:// or https://, without a trailing '/' */
	char *device;                  /* the device every job must run on (checked); may be NULL */
	struct strlist tags;           /* device tags every job asks for */
	char *device_type;             /* "qemu", the one device type bootab writes jobs for */
	char *arch;                    /* the job's context arch (QEMU's binary); default "amd64" */
	char *token_file;              /* a file holding the API token (mode 0600) */
	char *token_env;               /* or the environment variable that holds it */
	char *kernel;                  /* the kernel the jobs deploy: a file://, http:// or https:// URL */
	char *initramfs;               /* the initramfs (cpio.newc, gzip): LAVA's overlay is appended to it */
	char *kernel_args;             /* on every boot's command line before the mode's; default console=ttyS0,115200 */
	char *prompt;                  /* the shell prompt on the console after boot */
	unsigned job_timeout_s;        /* LAVA's job timeout; default 1800 */
	unsigned poll_s;               /* seconds between job state reads; default 10 */
	unsigned line;                 /* the [lava] header's line */
};

enum plan_order_kind {
	ORDER_DEFAULT,            /* every mode once per round, then the first again */
	ORDER_ABBA,               /* each round forward, then backward */
	ORDER_RANDOM,             /* shuffled within each round (seeded), first mode at both ends */
	ORDER_AA,                 /* every boot the first mode: a do-nothing A/A campaign */
	ORDER_LIST,               /* an explicit list of mode names */
};

struct plan {
	char *file;
	char *target;
	/*
	 * A fleet instead of one target: SSH destinations (targets), or the
	 * hosts of an Ansible INI inventory (inventory, relative to the plan's
	 * directory; group: its group, NULL: all). campaign/inventory.h
	 * turns either into the boxes.
	 */
	struct strlist targets;
	char *inventory;
	char *group;
	unsigned targets_line, inventory_line;
	unsigned box_timeout_s;        /* fleet: a box's campaign ends at most this long after it started; 0: none */
	unsigned box_timeout_line;
	char *backend;
	enum plan_order_kind order_kind;
	struct strlist order_list;     /* ORDER_LIST: as written */
	unsigned rounds;               /* rounds = auto: max_rounds */
	/*
	 * rounds = auto: after every round the boot-level tests look at the
	 * data with group-sequential boundaries (judge/compare.h), and the
	 * campaign stops once every test is decided, or after max_rounds.
	 */
	bool rounds_auto;
	unsigned max_rounds;
	bool has_max_rounds;
	unsigned rounds_line, max_rounds_line;   /* where they were given, for errors */
	unsigned long seed;
	bool has_seed;
	char *data_dir;
	unsigned boot_timeout_s;
	char *power_cycle;             /* the user's command, run on the controller */
	enum plan_oneshot oneshot;
	char *watch;                   /* device address of the hypothesis, e.g. 0000:c6:00.0 */
	struct strlist ignore;         /* patterns of costs found by bootab not to report (judge/costs.h) */
	char *history;                 /* calibration history: a file or a directory; NULL: the machine's default */
	bool history_off;              /* history = off: no history is read or recorded */
	double equivalence_pct;        /* "same within -/+ PCT %" margin of every row; 0: none */
	unsigned default_reps;
	unsigned poll_s;               /* seconds between status reads while rows run */
	char *perf;                    /* perf stat events of every row that names none; NULL: none */
	bool perf_system;              /* perf_scope = system: every row's counters system-wide */
	bool energy;                   /* energy = on: every row's RAPL energy (a row's own energy replaces it) */
	struct plan_mode *modes;
	size_t n_modes;
	struct plan_row *rows;         /* rows and checks, in file order */
	size_t n_rows;
	struct plan_version *versions;
	size_t n_versions;
	struct plan_idle idle;
	struct strlist park;
	struct strlist unpark;
	struct strlist prepare;        /* [prepare]: run as root on every boot after verify, before the rows */
	struct plan_lava lava;
	/*
	 * [factor] sections: their design's runs are the first modes (run 0,
	 * every factor off, named "off"; the others "runNN"), each with the
	 * args of the factors it sets; the user's own modes follow. With
	 * rounds > 1 and a design_foldable() design, the design is folded:
	 * its fold-over's runs ("foldNN", run NN reversed) are modes too,
	 * booted in the even rounds, the design's own in the odd ones.
	 */
	struct plan_factor *factors;
	size_t n_factors;
	enum plan_design_kind design_kind;
	unsigned design_line;
	struct design design;          /* when n_factors */
	size_t alloc_modes, alloc_rows, alloc_versions, alloc_factors;
};

/* rounds = auto: the ceiling's default and range. */
#define PLAN_MAX_ROUNDS_DEFAULT 6
#define PLAN_MAX_ROUNDS_MIN 2
#define PLAN_MAX_ROUNDS_MAX 20

/* One boot of the campaign. */
struct plan_boot {
	size_t mode;                   /* index into plan->modes */
	char *label;                   /* mode name, then name2, name3 ... */
	unsigned round;                /* 1-based */
};

/*
 * Parses plan text (name: the file name for errors). Every error names
 * file, line and key. Returns 0 and *ret (plan_release()), or -EINVAL with
 * err filled; *ret untouched then.
 */
int plan_parse(const char *name, const char *text, struct plan *ret, struct parse_error *err);

/* Reads and parses a plan file. -errno for I/O errors (err says which file). */
int plan_load(const char *path, struct plan *ret, struct parse_error *err);

/*
 * The boot order: *ret_boots (free with plan_boots_free()). The random
 * order uses plan->seed. Returns the number of boots.
 */
size_t plan_boots(const struct plan *plan, struct plan_boot **ret_boots);
void plan_boots_free(struct plan_boot *boots, size_t n);

/* The union of every mode's args, by name, first spelling kept (NULL-terminated, strv_free()). */
char **plan_managed_args(const struct plan *plan);

/* Whether any mode names a kernel (the campaign then chooses the kernel of every boot). */
bool plan_has_kernels(const struct plan *plan);

/*
 * Whether s can be a mode's kernel: a release (letters, digits and . _ + ~ -,
 * as uname -r prints it) or an absolute path under /boot with no ".."
 * component and the same characters plus '/'. On false, *ret_why says why
 * (static text).
 */
bool plan_kernel_valid(const char *s, const char **ret_why);

/*
 * Whether s can be a plan's inventory group (group =): a group name as an
 * Ansible INI inventory holds it, letters, digits, '_', '.' and '-', not
 * "." or "..". The inventory reader (fleet/) checks its groups with it too.
 */
bool plan_group_name_valid(const char *s);

/* Whether the plan's target is a LAVA instance (target = lava). */
bool plan_is_lava(const struct plan *plan);

/* Whether the plan names a fleet (targets or inventory): fleet/ runs it, not a campaign. */
bool plan_is_fleet(const struct plan *plan);

/*
 * The perf stat events of row (borrowed: the row's own, else the
 * campaign's), or NULL when it has no counters (a check, perf = off).
 */
const char *plan_row_perf(const struct plan *plan, const struct plan_row *row);
/* Whether row's counters count the whole box (perf stat -a) rather than its command. */
bool plan_row_perf_system(const struct plan *plan, const struct plan_row *row);

/* Whether row reads RAPL energy around each rep (its own energy, else the campaign's; never a check). */
bool plan_row_energy(const struct plan *plan, const struct plan_row *row);

struct side_plan;

/*
 * What the plan asks each boot's side to record (results/side-write.h):
 * its rows and checks, each with the campaign's perf and energy settings
 * applied, and its versions' names. Borrows from plan; release with
 * plan_side_release().
 */
void plan_side(const struct plan *plan, struct side_plan *ret);
void plan_side_release(struct side_plan *side);

/* The mode called name, or NULL. */
const struct plan_mode *plan_find_mode(const struct plan *plan, const char *name);

/*
 * The plan as plan file text, every setting spelled out (defaults
 * included, in the order docs/plan.md lists them; a command's lines as
 * repeated `command =` keys). plan_parse() of the result gives back an
 * equal plan, line numbers aside. The caller's.
 */
char *plan_format(const struct plan *plan);

void plan_release(struct plan *plan);

#endif
