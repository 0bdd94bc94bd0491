/*
 * Unit tests for src/parsers/perf-stat.c on perf stat -j output captured
 * from perf 6.1 and written in its format (tests/fixtures/perf/README says
 * which is which), and its error paths. Expected values were read off the
 * fixture files themselves.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "lib/alloc.h"
#include "lib/file.h"
#include "parsers/perf-stat.h"

struct want_counter {
	const char *event;
	const char *unit;
	enum perf_counter_state state;
	double value;
	double running_pct;
};

struct fixture_case {
	const char *file;
	size_t n;
	struct want_counter counters[6];
};

static const struct fixture_case cases[] = {
	{ "software.json", 5, {
		{ "task-clock", "msec", PERF_COUNTED, 93.754255, 100 },
		{ "context-switches", "", PERF_COUNTED, 1354, 100 },
		{ "page-faults", "", PERF_COUNTED, 269, 100 },
		{ "cycles", "", PERF_NOT_SUPPORTED, 0, 100 },
		{ "instructions", "", PERF_NOT_SUPPORTED, 0, 100 } } },
	{ "system-wide.json", 3, {
		{ "task-clock", "msec", PERF_COUNTED, 446.867685, 100 },
		{ "context-switches", "", PERF_COUNTED, 358, 100 },
		{ "page-faults", "", PERF_COUNTED, 3988, 100 } } },
	{ "repeat.json", 2, {
		{ "task-clock", "msec", PERF_COUNTED, 3.073621, 100 },
		{ "page-faults", "", PERF_COUNTED, 48, 100 } } },
	/* One line per CPU: one counter, the CPUs' counts summed. */
	{ "per-cpu.json", 1, {
		{ "context-switches", "", PERF_COUNTED, 210, 100 } } },
	{ "hardware-multiplexed.json", 5, {
		{ "cycles", "", PERF_COUNTED, 2491870523.0, 66.71 },
		{ "instructions", "", PERF_COUNTED, 3120447719.0, 66.69 },
		{ "dTLB-load-misses", "", PERF_COUNTED, 18422901, 66.67 },
		{ "iTLB-load-misses", "", PERF_NOT_COUNTED, 0, 0 },
		{ "context-switches", "", PERF_COUNTED, 1187, 100 } } },
	{ "user-only.json", 2, {
		{ "cycles:u", "", PERF_COUNTED, 88301551, 100 },
		{ "instructions:u", "", PERF_COUNTED, 120559870, 100 } } },
	{ "metric-lines.json", 2, {
		{ "task-clock", "msec", PERF_COUNTED, 1.603107, 100 },
		{ "context-switches", "", PERF_COUNTED, 3, 100 } } },
};

static void test_fixtures(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct fixture_case *c = &cases[i];
		char *path = xasprintf("%s/perf/%s", FIXTURES, c->file), *data = NULL;
		struct perf_stat stat = PERF_STAT_INIT;
		struct parse_error err = PARSE_ERROR_INIT;
		size_t len;

		assert_int_equal(file_read(path, FILE_READ_MAX, &data, &len), 0);
		if (perf_stat_parse(data, len, &stat, &err) < 0)
			fail_msg("%s: %u: %s", c->file, err.line, err.message);
		assert_int_equal(stat.n_counters, c->n);
		for (size_t k = 0; k < c->n; k++) {
			const struct perf_counter *got = &stat.counters[k];
			const struct want_counter *want = &c->counters[k];

			assert_string_equal(got->event, want->event);
			assert_string_equal(got->unit, want->unit);
			assert_int_equal(got->state, want->state);
			if (want->state == PERF_COUNTED && got->value != want->value)
				fail_msg("%s %s: %.17g, expected %.17g", c->file, want->event, got->value, want->value);
			if (got->running_pct != want->running_pct)
				fail_msg("%s %s: pcnt-running %.17g, expected %.17g", c->file, want->event,
					 got->running_pct, want->running_pct);
		}
		perf_stat_release(&stat);
		free(data);
		free(path);
	}
}

static void test_errors(void **state)
{
	static const struct {
		const char *text;
		unsigned line;
		const char *message;
	} bad[] = {
		{ "", 0, "perf stat -j: no event in the output" },
		{ "# started on Fri Dec  4 10:27:37 2026\n\n", 2, "perf stat -j: no event in the output" },
		{ "{\"metric-value\" : 1.0}\n", 1, "perf stat -j: no event in the output" },
		{ "\n Performance counter stats for 'true':\n", 2, "not perf stat -j output: '[' or '{' expected near 'Performance'" },
		{ "{\"counter-value\" : \"12\", \"event\" : \"cycles\"}\n{\"counter-value\" : \"-3\", \"event\" : \"x\"}\n", 2,
		  "perf stat -j: \"counter-value\" is not a count, <not counted> or <not supported>" },
		{ "{\"counter-value\" : \"<unknown>\", \"event\" : \"cycles\"}\n", 1,
		  "perf stat -j: \"counter-value\" is not a count, <not counted> or <not supported>" },
		{ "{\"event\" : \"cycles\"}\n", 1,
		  "perf stat -j: \"counter-value\" is missing or neither a string nor a number" },
		{ "{\"counter-value\" : \"1\", \"event\" : \"cycles\", \"pcnt-running\" : 130.0}\n", 1,
		  "perf stat -j: \"pcnt-running\" is not a share from 0 to 100" },
		{ "{\"counter-value\" : \"1\", \"event\" : \"a\\u001bb\"}\n", 1, "perf stat -j: \"event\" is not a name" },
		{ "{\"counter-value\" : \"1e300\", \"event\" : \"x\"}\n", 1,
		  "perf stat -j: \"counter-value\" is not a count, <not counted> or <not supported>" },
		{ "[1]\n", 1, "perf stat -j: not a JSON object" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct perf_stat stat = PERF_STAT_INIT;
		struct parse_error err = PARSE_ERROR_INIT;

		assert_int_equal(perf_stat_parse(bad[i].text, strlen(bad[i].text), &stat, &err), -EINVAL);
		assert_null(stat.counters);
		assert_int_equal(err.line, bad[i].line);
		assert_string_equal(err.message, bad[i].message);
		parse_error_release(&err);
	}
}

static void test_user_only(void **state)
{
	static const struct {
		const char *event, *asked;
		bool user_only;
	} cases_u[] = {
		{ "cycles:u", "cycles,instructions", true },
		{ "instructions:u", "cycles,instructions", true },
		{ "cycles:u", "cycles:u,instructions", false },
		{ "cycles", "cycles", false },
		{ "cycles:k", "cycles", false },
		{ ":u", "", false },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases_u) / sizeof(cases_u[0]); i++)
		if (perf_event_user_only(cases_u[i].event, cases_u[i].asked) != cases_u[i].user_only)
			fail_msg("%s asked as %s", cases_u[i].event, cases_u[i].asked);
	assert_string_equal(perf_counter_state_name(PERF_NOT_SUPPORTED), "not supported");
	assert_string_equal(perf_counter_state_name(PERF_NOT_COUNTED), "not counted");
	assert_null(perf_counter_state_name(PERF_COUNTED));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fixtures),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_user_only),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
