/*
 * hyperfine --export-json: {"results": [{"command", "mean", "stddev",
 * "median", "user", "system", "min", "max", "times": [...], "exit_codes",
 * and "parameters" with --parameter-scan/-list}]}. "command" is the command
 * line with parameters filled in, or the --command-name given. Every run's
 * wall time in seconds is in "times"; hyperfine subtracts the shell's
 * start-up time, which can leave 0 for a very short command.
 *
 * hyperfine rewrites the export after each command it has measured. With
 * --export-json /dev/stdout through a pipe, stdout therefore holds its
 * human text ("Benchmark 1: CMD", the "Time"/"Range" lines, "Summary")
 * and after each command the whole export so far: {r1}, then {r1, r2}. An
 * export whose results are the start of the next one's is such an
 * interim copy, not a repetition, and is skipped. Into a file, each
 * rewrite truncates the file while the human text goes on at its own
 * offset, and the two end up mixed: only --style none gives a file that
 * holds JSON alone.
 */
#include "parsers/parser-internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lib/alloc.h"

bool hyperfine_recognise(const json_t *doc)
{
	const json_t *first = json_array_get(json_object_get(doc, "results"), 0);

	return json_is_object(first) &&
	       (json_object_get(first, "command") || json_object_get(first, "times"));
}

/* The command, or "command#2" for the second result of that command in one export. */
static char *command_label(const json_t *results, size_t index, const char *command)
{
	size_t same = 0;

	for (size_t i = 0; i < index; i++) {
		const json_t *other = json_object_get(json_array_get(results, i), "command");

		if (json_is_string(other) && !strcmp(json_string_value(other), command))
			same++;
	}
	return same ? xasprintf("%s#%zu", command, same + 1) : xstrdup(command);
}

/*
 * hyperfine stops at a command that exits non-zero unless it was told to
 * ignore failures (-i); then the failed runs' times are in the export too.
 */
static void note_failures(const char *data, size_t offset, size_t index, const json_t *result,
			  struct parse_error *warning)
{
	const json_t *codes = json_object_get(result, "exit_codes"), *code;
	size_t k, failed = 0;

	json_array_foreach(codes, k, code)
		if (!json_is_integer(code) || json_integer_value(code) != 0)
			failed++;
	if (failed && warning && !warning->message)
		parser_error_at(warning, data, offset,
				"hyperfine results[%zu] ('%s'): %zu of %zu runs failed (non-zero exit code); their times are kept",
				index, json_string_value(json_object_get(result, "command")), failed,
				json_array_size(codes));
}

static int add_doc(const char *data, size_t offset, const json_t *doc,
		   struct metric_set *set, struct parse_error *err, struct parse_error *warning)
{
	const json_t *results = json_object_get(doc, "results"), *result;
	size_t i;

	if (!json_is_array(results) || !json_array_size(results)) {
		parser_error_at(err, data, offset,
				"not hyperfine --export-json output (no \"results\" list)");
		return -EINVAL;
	}
	json_array_foreach(results, i, result) {
		const json_t *command = json_object_get(result, "command");
		const json_t *times = json_object_get(result, "times"), *t;
		struct metric *m = NULL;
		char *name;
		size_t k;

		if (!json_is_string(command) || !json_string_length(command)) {
			parser_error_at(err, data, offset, "hyperfine results[%zu] has no command", i);
			return -EINVAL;
		}
		if (!json_is_array(times) || !json_array_size(times)) {
			parser_error_at(err, data, offset,
					"hyperfine results[%zu] ('%s') has no \"times\" list", i,
					json_string_value(command));
			return -EINVAL;
		}
		json_array_foreach(times, k, t) {
			double x;

			if (json_sample(t, false, &x) < 0) {
				parser_error_at(err, data, offset,
						"hyperfine results[%zu].times[%zu] ('%s') is %s, not a time >= 0",
						i, k, json_string_value(command), json_type_phrase(t));
				return -EINVAL;
			}
		}
		note_failures(data, offset, i, result, warning);
		name = command_label(results, i, json_string_value(command));
		json_array_foreach(times, k, t) {
			if (k == 0)
				m = metric_set_add_sample(set, name, BETTER_LOWER, "s", json_number_value(t));
			else
				metric_append(m, json_number_value(t));
		}
		free(name);
	}
	return 0;
}

/* Whether the line at pos is hyperfine's human text: "Benchmark N: ...", "Summary", indented or blank. */
static bool is_human_line(const char *data, size_t len, size_t pos)
{
	static const char summary[] = "Summary";
	size_t n = len - pos;

	if (n >= 10 && !strncmp(data + pos, "Benchmark ", 10)) {
		size_t i = pos + 10;

		while (i < len && data[i] >= '0' && data[i] <= '9')
			i++;
		return i > pos + 10 && i < len && data[i] == ':';
	}
	if (n >= sizeof(summary) - 1 && !strncmp(data + pos, summary, sizeof(summary) - 1))
		return n == sizeof(summary) - 1 || data[pos + sizeof(summary) - 1] == '\n' ||
		       data[pos + sizeof(summary) - 1] == '\r';
	return data[pos] == ' ' || data[pos] == '\t' || data[pos] == '\n' || data[pos] == '\r';
}

size_t hyperfine_json_start(const char *data, size_t len, size_t pos)
{
	while (pos < len && data[pos] != '{' && is_human_line(data, len, pos)) {
		while (pos < len && data[pos] != '\n')
			pos++;
		if (pos < len)
			pos++;
	}
	return pos;
}

bool hyperfine_text_mixed(const char *data, size_t len)
{
	return memmem(data, len, "\"results\"", 9) && memmem(data, len, "\"command\"", 9) &&
	       (memmem(data, len, "Time (mean", 10) || memmem(data, len, " times faster than ", 19) ||
		memmem(data, len, "Range (min", 10));
}

/* Whether the results of export a are the first results of export b, times and all. */
static bool is_interim_export(const json_t *a, const json_t *b)
{
	const json_t *ra = json_object_get(a, "results"), *rb = json_object_get(b, "results");
	size_t n = json_array_size(ra);

	if (!json_is_array(ra) || !json_is_array(rb) || n == 0 || n >= json_array_size(rb))
		return false;
	for (size_t i = 0; i < n; i++) {
		const json_t *x = json_array_get(ra, i), *y = json_array_get(rb, i);

		if (!json_equal(json_object_get(x, "command"), json_object_get(y, "command")) ||
		    !json_equal(json_object_get(x, "times"), json_object_get(y, "times")))
			return false;
	}
	return true;
}

int hyperfine_parse(const char *data, size_t len, struct metric_set *set,
		    struct parse_error *err, struct parse_error *warning)
{
	struct json_docs docs = JSON_DOCS_INIT(data, len);
	size_t n_docs = 0, held_offset = 0;
	json_t *held = NULL;
	int r;

	/* One export is held until the next shows whether it was an interim copy. */
	for (;;) {
		size_t offset;
		json_t *doc;

		docs.pos = hyperfine_json_start(data, len, docs.pos);
		r = json_docs_next(&docs, 0, &doc, &offset, err, NULL);
		if (r < 0)
			goto fail;
		if (r == 0)
			break;
		if (held && !is_interim_export(held, doc)) {
			r = add_doc(data, held_offset, held, set, err, warning);
			if (r < 0) {
				json_decref(doc);
				goto fail;
			}
			n_docs++;
		}
		json_decref(held);
		held = doc;
		held_offset = offset;
	}
	if (held) {
		r = add_doc(data, held_offset, held, set, err, warning);
		if (r < 0)
			goto fail;
		n_docs++;
		json_decref(held);
	}
	if (!n_docs) {
		parse_error_set(err, 0, 0, "no hyperfine results");
		return -EINVAL;
	}
	return 0;
fail:
	json_decref(held);
	return r;
}
