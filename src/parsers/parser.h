#ifndef BOOTAB_PARSERS_PARSER_H
#define BOOTAB_PARSERS_PARSER_H

#include <stddef.h>

#include "lib/parse-error.h"
#include "metric.h"

/*
 * Parsers turn a benchmark's own output into metrics. They take bytes and
 * return data, or an error with its position; they never print.
 */
enum parser_kind {
	PARSER_AUTO,
	PARSER_LLAMA_BENCH,   /* llama-bench -o jsonl, -o json (also cut off) */
	PARSER_FIO,           /* fio --output-format=json */
	PARSER_HYPERFINE,     /* hyperfine --export-json */
	PARSER_NUMBER,        /* one number per line */
	PARSER_JSON,          /* any JSON, one number picked by a selector */
};

/* "llama-bench", "fio", ... ; NULL for an unknown kind. */
const char *parser_kind_name(enum parser_kind kind);
/* Returns 0 and sets *ret_kind for a known name, else -EINVAL. */
int parser_kind_from_name(const char *name, enum parser_kind *ret_kind);

/*
 * Recognises output by its content. Returns the kind, or PARSER_AUTO when
 * the data is none of the formats bootab knows.
 */
enum parser_kind parser_detect(const char *data, size_t len);

/*
 * Parses data (len bytes, NUL-terminated) as kind (PARSER_AUTO: detect)
 * and appends its samples to *set, each metric named as the tool names
 * it. selector is used by PARSER_JSON only. On error returns -EINVAL
 * (or -ENOMSG for unrecognised content), fills *err (line, column,
 * message; file untouched) and leaves *set exactly as it was.
 */
int parser_parse(enum parser_kind kind, const char *selector, const char *data, size_t len,
		 struct metric_set *set, struct parse_error *err);

#endif
