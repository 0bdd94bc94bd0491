#ifndef BOOTAB_HISTORY_H
#define BOOTAB_HISTORY_H

#include <stdbool.h>
#include <stddef.h>

#include "lib/parse-error.h"
#include "lib/strlist.h"
#include "results/side.h"
#include "stats/stats.h"

/*
 * A machine's calibration history: boots of one mode from do-nothing
 * (A/A) campaigns and from every campaign's repeats of its first mode,
 * kept per (row, metric) as boot summaries in log space. Boot-to-boot
 * differences within an entry measure the machine's noise floor; entries
 * are never compared with each other. docs/statistics.md describes the
 * file ($XDG_DATA_HOME/bootab/history/<machine-id>.json).
 */

struct history_metric {
	char *row;
	char *metric;
	struct stats_boot *boots;
	size_t n_boots;
};

struct history_entry {
	char *key;              /* which boots: see history_campaign_key() */
	char *recorded;         /* RFC 3339 time of recording */
	char *kind;             /* "aa" (every boot one mode) or "repeat" */
	struct history_metric *metrics;
	size_t n_metrics;
};

struct history {
	char *machine_id;       /* NULL: not known */
	struct history_entry *entries;
	size_t n_entries;
	size_t alloc_entries;
};

#define HISTORY_INIT { NULL, NULL, 0, 0 }

/*
 * The default history file of a machine:
 * ${XDG_DATA_HOME:-$HOME/.local/share}/bootab/history/<machine_id>.json.
 * NULL when neither variable is set. The result is the caller's.
 */
char *history_default_path(const char *machine_id);

/*
 * The machine every side ran on (meta.json machine_id), borrowed from
 * sides: NULL when a side does not name its machine, or when two sides
 * name different machines (then one line in warnings, unless NULL).
 */
const char *history_sides_machine(const struct side *sides, size_t n_sides, struct strlist *warnings);

/*
 * Finds and loads the calibration history of the sides' machine: path (a
 * file, or a directory holding MACHINE-ID.json), or when path is NULL the
 * default file of the machine (history_default_path()). required: the
 * caller records into it, so a history it cannot name or read is an error
 * even where it was not asked for by path.
 *
 * Returns 1 with *ret and *ret_path (the caller's): the history, empty
 * (with the sides' machine) when its file does not exist yet. Returns 0
 * when there is none to use: no path, no machine named, not required; or
 * the default file is broken and not required (one line in warnings).
 * Returns -EINVAL with *ret_error (one line, the caller's) when the
 * history cannot be used: a directory or required history and no machine
 * named, a file that does not parse, or the history of another machine.
 * *ret and *ret_path are untouched unless 1 is returned.
 */
int history_open(const struct side *sides, size_t n_sides, const char *path, bool required,
		 char **ret_path, struct history *ret, char **ret_error, struct strlist *warnings);

/*
 * Loads the history in file path. Returns 0 and *ret (history_release()),
 * -ENOENT when the file does not exist, -errno for other I/O errors, or
 * -EINVAL with err naming the file, line and column or the field.
 * *ret untouched on error.
 */
int history_load(const char *path, struct history *ret, struct parse_error *err);

/* Writes the history to path atomically, creating its directory. 0 or -errno. */
int history_save(const struct history *history, const char *path);

/*
 * The key of a campaign's first-mode boots: their boot_ids joined with
 * ",", or (when a boot_id is missing) their directories. Recording the same
 * campaign twice replaces its entry, and a comparison never calibrates
 * against its own boots. The result is the caller's.
 */
char *history_campaign_key(const struct side *sides, size_t n_sides);

/*
 * Adds entry, taking ownership of what it holds (*entry is zeroed); an
 * entry with the same key is replaced. Metrics with fewer than two boots
 * are dropped; an entry left with none is not added (-ENODATA, entry
 * released). Returns 0.
 */
int history_add(struct history *history, struct history_entry *entry);

/*
 * Adds entry (history_add()) to the history in file path as one
 * read-modify-write under an exclusive flock(2) on DIR/.NAME.lock for
 * path DIR/NAME (made once beside it, empty, never removed): the file is read again under the lock,
 * so writers at the same time each keep their entry. *history becomes what
 * was written. Returns 0; -ENODATA when entry has nothing to add (nothing
 * written, entry released); -EINVAL when the file no longer parses or
 * names another machine than history; other -errno (I/O). entry is
 * released in every case.
 */
int history_record_locked(struct history *history, const char *path, struct history_entry *entry);

void history_entry_release(struct history_entry *entry);

/* Entries a metric is judged with: the newest ones; older ones age out. */
#define HISTORY_MAX_ENTRIES 20

/*
 * The groups (one per entry) that hold row/metric with at least two boots:
 * the HISTORY_MAX_ENTRIES most recently recorded of them (by their
 * recorded time, then their place in the file), leaving out every entry
 * that holds one of the boots in skip (boot_ids or directories, as
 * history_campaign_ids() gives them; NULL skips none): a comparison never
 * calibrates against its own boots, even a subset of a recorded campaign.
 * *ret_groups points into history, in file order; free() the array only.
 * Returns the number of groups.
 */
size_t history_groups(const struct history *history, const char *row, const char *metric,
		      const struct strlist *skip, struct stats_group **ret_groups);

/*
 * What names each side's boot in a history key: its boot_id, and its
 * directory (real path) for keys recorded from sides without one. Appended
 * to ret.
 */
void history_campaign_ids(const struct side *sides, size_t n_sides, struct strlist *ret);

/*
 * For each entry of history (history->n_entries slots of ret), the metric
 * row/metric it holds with two boots or more, or NULL: where it holds
 * none, and for every entry holding a boot of skip (as history_groups()).
 * Borrowed from history.
 */
void history_metric_slots(const struct history *history, const char *row, const char *metric,
			  const struct strlist *skip, const struct history_metric **ret);

/*
 * Whether the box is noisier than its history, judged over every metric
 * of a campaign at once: the campaign's repeat boots of each metric, in
 * units of that metric's history variance, pooled.
 */
struct history_box {
	bool checked;           /* a metric had a history and boot-to-boot df of its own */
	size_t metrics;         /* the metrics that bear on it */
	/*
	 * The mean over those metrics of campaign / history boot-mean
	 * variance, each weighted by the campaign's degrees of freedom, and
	 * how it is distributed on a box no noisier than its history: its
	 * mean (above 1: the history's variances are estimates) and effective
	 * degrees of freedom (fewer where metrics move together).
	 */
	double ratio, expected, df;
	/*
	 * Taken as expected x (df_history - 2) / df_history x F(df,
	 * df_history); INFINITY: expected x chi-square(df) / df.
	 */
	double df_history;
	double limit;           /* the largest ratio the history still judges (history_box_limit()) */
	bool noisier;           /* ratio > limit: the history t decides nothing */
};

/*
 * The largest value of a variance ratio at which the history still judges
 * a test at level alpha, where the ratio on a box no noisier than its
 * history is distributed as struct history_box says (mean expected, df,
 * df_history): the limit that keeps the false-claim rate of the history t
 * at most 2 alpha on a box any amount noisier than its history. On a box
 * whose boot-mean sd is f times its history's the ratio is f^2 times as
 * large, and the worst f >= 1 of P(ratio <= limit) x P(|Z| > z(1 -
 * alpha/2) / f) is kept at 2 alpha. NaN for expected or df not positive,
 * df_history not above 2, or alpha outside (0, 0.5).
 */
double history_box_limit(double expected, double df, double df_history, double alpha);

void history_release(struct history *history);

#endif
