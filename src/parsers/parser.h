#ifndef BOOTAB_PARSERS_PARSER_H
#define BOOTAB_PARSERS_PARSER_H

#include <stddef.h>

#include "lib/parse-error.h"
#include "stats/metric.h"

/*
 * Parsers turn a benchmark's own output into metrics. They take bytes and
 * return data, or an error with its position; they never print.
 * docs/results-format.md ("Plain benchmark output files") lists what each
 * one accepts and how it names its metrics.
 */
enum parser_kind {
	PARSER_AUTO,
	PARSER_LLAMA_BENCH,   /* llama-bench -o jsonl, -o json (also cut off) */
	PARSER_FIO,           /* fio --output-format=json */
	PARSER_HYPERFINE,     /* hyperfine --export-json */
	PARSER_NUMBER,        /* one number per line */
	PARSER_JSON,          /* any JSON, one number picked by a selector */
	PARSER_DMA_MAP_BENCHMARK, /* the kernel's tools/testing/selftests/dma/dma_map_benchmark */
	PARSER_KTAP,          /* KTAP/KUnit/kselftest TAP results: checks, not numbers */
	PARSER_NEW_OLD_TABLE, /* the "pgsz ,avg new,old ns, min new,old ns" table */
	PARSER_REGEX,         /* any text, one number per matching line (struct parser_regex) */
};

/*
 * "auto", "llama-bench", "fio", "hyperfine", "number", "json",
 * "dma-map-benchmark", "ktap", "new-old-table", "regex"; NULL for an
 * unknown kind.
 */
const char *parser_kind_name(enum parser_kind kind);
/* Returns 0 and sets *ret_kind for a known name (exact match), else -EINVAL. */
int parser_kind_from_name(const char *name, enum parser_kind *ret_kind);

/*
 * Splits a plan's parser setting: "fio", "auto", "json .results[0].mean".
 * "json" needs a selector after blanks; the other kinds take none
 * ("regex" takes its pattern from other plan keys: struct parser_regex).
 * Returns 0 and sets *ret_kind and *ret_selector (the caller's; NULL for
 * kinds without one), or -EINVAL with nothing written.
 */
int parser_spec_parse(const char *spec, enum parser_kind *ret_kind, char **ret_selector);

/*
 * Checks a selector for PARSER_JSON: ".results[0].mean" (jq-like: .key,
 * [N], [-N] from the end, ["key with dots"]), "results.0.mean" (a numeric
 * key indexes an array), or "." (the document is the number). Returns 0,
 * or -EINVAL with *err saying what is wrong (no line: it is no file's).
 */
int parser_selector_check(const char *selector, struct parse_error *err);

/*
 * Recognises output by its content. Returns the kind, or PARSER_AUTO when
 * the data is none of the formats bootab knows. Never returns PARSER_JSON
 * or PARSER_REGEX: those need a selector or a pattern from the user.
 */
enum parser_kind parser_detect(const char *data, size_t len);

/*
 * Parses data (len bytes, NUL-terminated) as kind (PARSER_AUTO: detect)
 * and appends its samples to *set. Several results one after another (a
 * row's reps appended to one file) add samples to the same metrics.
 * selector is used by PARSER_JSON only (see json_selector_compile()).
 *
 * On error returns -EINVAL (or -ENOMSG for content no parser recognises),
 * fills *err (line, column, message; err->file untouched) and leaves *set
 * exactly as it was.
 *
 * warning may be NULL. On success, when the data was accepted but part of
 * it was dropped (the incomplete last result of a llama-bench run that was
 * killed, text fio printed around its JSON), *warning gets the position and
 * a message saying what was dropped; otherwise it is left untouched.
 */
int parser_parse(enum parser_kind kind, const char *selector, const char *data, size_t len,
		 struct metric_set *set, struct parse_error *err, struct parse_error *warning);

/*
 * The length of a kernel log line's prefix: dmesg's time stamp
 * ("[    4.000700] "), journalctl -k's "Jan 23 14:01:07 HOST kernel: "
 * (and a time stamp after it, as journalctl -k -o short-monotonic or a
 * kernel with printk.time=1 writes), or 0 when line (len bytes) has none.
 */
size_t parser_kernel_log_prefix(const char *line, size_t len);

/* What a plan says of a regex row: the pattern and the metric it measures. */
struct parser_regex {
	const char *metric;           /* the metric's name */
	const char *pattern;          /* POSIX extended (regcomp(3), REG_EXTENDED), one group */
	const char *unit;             /* NULL: none */
	enum metric_better better;
};

/*
 * Checks a pattern for PARSER_REGEX: it compiles as a POSIX extended
 * regular expression and has exactly one group. Returns 0, or -EINVAL
 * with *ret_error (the caller's) saying why not.
 */
int parser_regex_check(const char *pattern, char **ret_error);

/*
 * Like parser_parse() for PARSER_REGEX: every line the pattern matches
 * gives one sample of spec->metric, its group read as a decimal number.
 * No matching line, or a group that is no number, is an error (with the
 * position of that group); *set is then untouched.
 */
int parser_parse_regex(const struct parser_regex *spec, const char *data, size_t len, struct metric_set *set,
		       struct parse_error *err, struct parse_error *warning);

#endif
