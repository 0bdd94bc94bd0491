#ifndef BOOTAB_METRIC_H
#define BOOTAB_METRIC_H

#include <stdbool.h>
#include <stddef.h>

/*
 * A metric is one number a row measures, with its samples in rep order
 * ("pp512 @ d65536" of one model, "randread.iops", "mean_s"). It knows
 * which way is better, so every delta can be printed as "+ve is better".
 */
enum metric_better {
	BETTER_HIGHER = 1,
	BETTER_LOWER = -1,
};

struct metric {
	char *name;
	enum metric_better better;
	char *unit;            /* "t/s", "IOPS", "ns", "s" or "" */
	/*
	 * NULL: one of the row's own numbers. Else what measured it beside
	 * them, "perf" (a counter of its command) or "rapl" (energy): why
	 * its numbers moved, not one of them. Static text.
	 */
	const char *counter;
	double *samples;
	size_t n_samples;
	size_t alloc_samples;
	/*
	 * What produced the samples, in the tool's own words: its build and
	 * settings as "key=value" fields joined by 0x1f ("build_commit=79e2e74eb",
	 * "n_threads=16", ...), or NULL. The
	 * same metric with another origin on another side is not comparable.
	 */
	char *origin;
};

/*
 * A test suite's verdicts (KTAP/KUnit output): not numbers to compare but
 * checks whose failures are a cost of the side they failed on.
 */
enum check_outcome {
	CHECK_PASSED,
	CHECK_FAILED,           /* "not ok" (also TIMEOUT, ERROR), or planned and never reported */
	CHECK_SKIPPED,          /* SKIP */
	CHECK_XFAIL,            /* "not ok" with TODO or XFAIL: expected to fail */
	CHECK_OUTCOMES,
};

/* "passed", "failed", "skipped", "xfail". */
const char *check_outcome_name(enum check_outcome outcome);

/* The metrics of one row, in first-seen order, and its checks if it has any. */
struct metric_set {
	struct metric *metrics;
	size_t n_metrics;
	size_t alloc_metrics;
	bool has_checks;
	size_t checks[CHECK_OUTCOMES];   /* how many of each outcome */
	char **failed;                   /* the failed checks' names, in order */
	size_t n_failed, alloc_failed;
	/* By name: an open-addressing table of metrics[] indices + 1 (0: empty). */
	size_t *index;
	size_t index_size;
};

#define METRIC_SET_INIT { NULL, 0, 0, false, { 0 }, NULL, 0, 0, NULL, 0 }

/*
 * The largest sample magnitude bootab computes with: squares and sums of
 * squares of such samples stay finite (no benchmark measures 1e100 of
 * anything; a larger value is an error in its output).
 */
#define METRIC_SAMPLE_MAX 1e100

/* Whether v is finite and |v| <= METRIC_SAMPLE_MAX. */
bool metric_sample_valid(double v);

/* The longest metric name or unit bootab keeps, in bytes. */
#define METRIC_NAME_MAX 4096

/*
 * Whether name can be a metric's name or unit in every output and in
 * meta.json: at most METRIC_NAME_MAX bytes of UTF-8 without control
 * characters (C0, DEL, C1). Empty is valid for a unit only (allow_empty).
 */
bool metric_text_valid(const char *name, bool allow_empty);

/* The metric called name, or NULL. Borrowed. Constant time on average. */
struct metric *metric_set_find(const struct metric_set *set, const char *name);

/*
 * Appends one sample to the metric called name, creating it (with better
 * and unit, copied) when it is new. Returns the metric (borrowed).
 */
struct metric *metric_set_add_sample(struct metric_set *set, const char *name,
				     enum metric_better better, const char *unit,
				     double value);

/*
 * Counts one check of the given outcome; a failed one is also listed by
 * name (copied).
 */
void metric_set_add_check(struct metric_set *set, enum check_outcome outcome, const char *name);

/* Appends every sample of src to dst, metric by metric, and adds its checks. src is unchanged. */
void metric_set_merge(struct metric_set *dst, const struct metric_set *src);

/* Sets m's origin (a copy) unless it has one: the first result of a metric speaks for it. */
void metric_set_origin(struct metric *m, const char *origin);

/* Adds src's checks to dst's. */
void metric_set_merge_checks(struct metric_set *dst, const struct metric_set *src);

void metric_set_release(struct metric_set *set);

#endif
