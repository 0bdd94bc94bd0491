#ifndef BOOTAB_PARSERS_PARSER_INTERNAL_H
#define BOOTAB_PARSERS_PARSER_INTERNAL_H

/*
 * What the format parsers share. Only src/parsers/ includes this; the rest
 * of bootab goes through parser.h.
 *
 * Every format parser below appends to *set, which parser_parse() hands
 * in empty and throws away on error, so a parser may stop half-way. They
 * return 0, or -EINVAL with *err filled (position in the whole data). A
 * parser that drops part of the data on success says so in *warning.
 */

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "lib/parse-error.h"
#include "stats/metric.h"

int llama_bench_parse(const char *data, size_t len, struct metric_set *set,
		      struct parse_error *err, struct parse_error *warning);
int fio_parse(const char *data, size_t len, struct metric_set *set,
	      struct parse_error *err, struct parse_error *warning);
int hyperfine_parse(const char *data, size_t len, struct metric_set *set,
		    struct parse_error *err, struct parse_error *warning);
int number_parse(const char *data, size_t len, struct metric_set *set,
		 struct parse_error *err, struct parse_error *warning);
int dma_map_benchmark_parse(const char *data, size_t len, struct metric_set *set,
			    struct parse_error *err, struct parse_error *warning);
int ktap_parse(const char *data, size_t len, struct metric_set *set,
	       struct parse_error *err, struct parse_error *warning);
int new_old_table_parse(const char *data, size_t len, struct metric_set *set,
			struct parse_error *err, struct parse_error *warning);
int json_select_parse(const char *selector, const char *data, size_t len, struct metric_set *set,
		      struct parse_error *err, struct parse_error *warning);

/*
 * The line (1-based) of the header of llama-bench's markdown table, its
 * default output ("| model | ... | test | t/s |"), or 0 when data has none.
 */
size_t llama_bench_markdown_line(const char *data, size_t len);

/* Whether one decoded JSON document looks like that tool's output. */
bool llama_bench_recognise(const json_t *doc);
bool fio_recognise(const json_t *doc);
bool hyperfine_recognise(const json_t *doc);
/*
 * Where hyperfine's JSON starts at or after pos (a line start): past its
 * human text ("Benchmark N: ...", indented lines, "Summary", blank lines)
 * that --export-json /dev/stdout through a pipe puts before each export.
 * Stops at the first other line, or at len.
 */
size_t hyperfine_json_start(const char *data, size_t len, size_t pos);
/* Whether data looks like a hyperfine export with its human text written into it (a file, not --style none). */
bool hyperfine_text_mixed(const char *data, size_t len);

/* Whether text output looks like that tool's (a line only it prints). */
bool dma_map_benchmark_recognise(const char *data, size_t len);
bool ktap_recognise(const char *data, size_t len);
bool new_old_table_recognise(const char *data, size_t len);

/*
 * Lines: from *pos, the next line [*ret_begin, *ret_end) without its
 * newline or a CR before it; *pos moves past it. False at the end.
 */
bool text_next_line(const char *data, size_t len, size_t *pos, size_t *ret_begin, size_t *ret_end);
/* Strips spaces and tabs from both ends of [*begin, *end). */
void text_trim(const char *data, size_t *begin, size_t *end);
/* Whether [begin, end) starts with prefix. */
bool text_starts(const char *data, size_t begin, size_t end, const char *prefix);
/* A decimal number filling [begin, end) (no inf, nan or hex): 0 and *ret, or -EINVAL. */
int text_decimal(const char *data, size_t begin, size_t end, double *ret);
/* [begin, end) fit for a message: at most 40 bytes, others as \xNN. The caller's. */
char *text_quote(const char *data, size_t begin, size_t end);
/* The same with at most max bytes of the input. */
char *text_quote_max(const char *data, size_t begin, size_t end, size_t max);

/* Offset of the first line that starts with '{' (fio may print text before its JSON), or len. */
size_t fio_json_start(const char *data, size_t len);

/* Sets *err with the line and column of byte offset in data. */
void parser_error_at(struct parse_error *err, const char *data, size_t offset,
		     const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* A cursor over JSON documents written one after another in data. */
struct json_docs {
	const char *data;
	size_t len;
	size_t pos;
};

#define JSON_DOCS_INIT(d, l) { (d), (l), 0 }

/* Moves pos past blanks (space, tab, CR, LF). Returns whether any data is left. */
bool json_docs_skip_blanks(struct json_docs *docs);

/*
 * Decodes the JSON value that starts at the next non-blank byte. flags are
 * added to JSON_DISABLE_EOF_CHECK. Returns 1 with *ret_doc (a new
 * reference) and *ret_offset (where it starts), 0 when only blanks are
 * left, or -EINVAL with *err at the decoder's position. On that error,
 * *ret_cut (if not NULL) says whether the data ended inside the value: a
 * run killed while writing it, not a malformed file.
 */
int json_docs_next(struct json_docs *docs, size_t flags, json_t **ret_doc, size_t *ret_offset,
		   struct parse_error *err, bool *ret_cut);

/*
 * A sample from a JSON number: 0 and *ret_value, or -EINVAL when v is no
 * number, is not finite, or is negative while allow_negative is false.
 */
int json_sample(const json_t *v, bool allow_negative, double *ret_value);

/*
 * Appends one more sample to m, a metric that metric_set_add_sample()
 * returned and that no later call has moved: the way to add a run of
 * samples to one metric without looking its name up each time.
 */
void metric_append(struct metric *m, double value);

/* "a string", "an array", ... for messages. */
const char *json_type_phrase(const json_t *v);

#endif
