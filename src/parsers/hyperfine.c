/*
 * hyperfine --export-json: {"results": [{"command", "mean", "stddev",
 * "median", "user", "system", "min", "max", "times": [...], "exit_codes",
 * and "parameters" with --parameter-scan/-list}]}. "command" is the command
 * line with parameters filled in, or the --command-name given. Every run's
 * wall time in seconds is in "times"; hyperfine subtracts the shell's
 * start-up time, which can leave 0 for a very short command.
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

int hyperfine_parse(const char *data, size_t len, struct metric_set *set,
		    struct parse_error *err, struct parse_error *warning)
{
	struct json_docs docs = JSON_DOCS_INIT(data, len);
	size_t n_docs = 0;

	for (;;) {
		size_t offset;
		json_t *doc;
		int r = json_docs_next(&docs, 0, &doc, &offset, err, NULL);

		if (r < 0)
			return r;
		if (r == 0)
			break;
		r = add_doc(data, offset, doc, set, err, warning);
		json_decref(doc);
		if (r < 0)
			return r;
		n_docs++;
	}
	if (!n_docs) {
		parse_error_set(err, 0, 0, "no hyperfine results");
		return -EINVAL;
	}
	return 0;
}
