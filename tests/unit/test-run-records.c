/* Unit tests for results/run-records.c and lib/timestamp.c's UTC text: the results file's times. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cmocka.h>

#include "lib/alloc.h"
#include "lib/timestamp.h"
#include "results/run-records.h"

/* What the C library says second t is, in the runner's form (years of four digits here). */
static void gmtime_text(long long t, char *buf, size_t size)
{
	time_t tt = (time_t)t;
	struct tm tm;

	assert_non_null(gmtime_r(&tt, &tm));
	assert_true(strftime(buf, size, "%Y-%m-%dT%H:%M:%SZ", &tm) > 0);
}

/* Seconds across days, leap days, months, years and centuries. */
static const long long boundaries[] = {
	0,              /* 1970-01-01T00:00:00Z */
	59, 86399,      /* the end of the first day */
	951782399,      /* 2000-02-28T23:59:59Z: 2000 is a leap year (divisible by 400) */
	951868799,      /* 2000-02-29T23:59:59Z */
	946684799,      /* 1999-12-31T23:59:59Z: the century */
	978307199,      /* 2000-12-31T23:59:59Z: day 366 */
	1709251199,     /* 2024-02-29T23:59:59Z */
	1740787199,     /* 2025-02-28T23:59:59Z: no leap day */
	1796282076,
	4107542399,     /* 2100-02-28T23:59:59Z: 2100 is not a leap year */
	4102444799,     /* 2099-12-31T23:59:59Z */
	253402300798,   /* a second before the last four-digit year ends */
};

static void test_format_utc(void **state)
{
	char got[TIMESTAMP_UTC_SIZE], want[64];

	(void)state;
	for (size_t i = 0; i < sizeof(boundaries) / sizeof(boundaries[0]); i++)
		for (long long d = 0; d <= 1; d++) {
			gmtime_text(boundaries[i] + d, want, sizeof(want));
			assert_int_equal(timestamp_format_utc(boundaries[i] + d, got), 0);
			assert_string_equal(got, want);
		}
	assert_int_equal(timestamp_format_utc(951868800, got), 0);
	assert_string_equal(got, "2000-03-01T00:00:00Z");
	assert_int_equal(timestamp_format_utc(4107542400LL, got), 0);
	assert_string_equal(got, "2100-03-01T00:00:00Z");
	assert_int_equal(timestamp_format_utc(-1, got), 0);
	assert_string_equal(got, "1969-12-31T23:59:59Z");
	/* RFC 3339's years are four digits: the first and the last second, and none outside. */
	assert_int_equal(timestamp_format_utc(-62167219200LL, got), 0);
	assert_string_equal(got, "0000-01-01T00:00:00Z");
	assert_int_equal(timestamp_format_utc(253402300799LL, got), 0);
	assert_string_equal(got, "9999-12-31T23:59:59Z");
	assert_int_equal(timestamp_format_utc(253402300800LL, got), -ERANGE);
	assert_string_equal(got, "");
	assert_int_equal(timestamp_format_utc(-62167219201LL, got), -ERANGE);
}

/*
 * A results file whose clock record reads EPOCH at uptime 123456.78 s, and
 * a rep that starts 0.50 s and ends 1.01 s past the clock (the second
 * the clock read, and the next): at every boundary, each time is gmtime's
 * text of the second the sum gives.
 */
static void test_ticks_to_utc(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(boundaries) / sizeof(boundaries[0]); i++) {
		struct run_records recs;
		char *text, start[64], end[64], first[128];
		long long epoch = boundaries[i];

		text = xasprintf("clock 12345678 %lld\nstart 12345679 0.12 0.07 0.02 1/601 2574\n"
				 "gate r ok 0 3\nrep r 1 0 12345728 12345779 0 51\nend 12345780\n", epoch);
		run_records_parse(text, &recs);
		gmtime_text(epoch, start, sizeof(start));
		gmtime_text(epoch + 1, end, sizeof(end));
		assert_int_equal(recs.n_reps, 1);
		assert_string_equal(recs.reps[0].row, "r");
		assert_int_equal(recs.reps[0].rep, 1);
		assert_int_equal(recs.reps[0].rc, 0);
		assert_string_equal(recs.reps[0].start, start);
		assert_string_equal(recs.reps[0].end, end);
		assert_int_equal(recs.reps[0].seconds, 0);
		assert_int_equal(recs.reps[0].hundredths, 51);
		assert_string_equal(recs.end, end);
		snprintf(first, sizeof(first), "%s 0.12 0.07 0.02 1/601 2574", start);
		assert_string_equal(recs.start, first);
		assert_int_equal(recs.n_gates, 1);
		assert_int_equal(recs.gates[0].hundredths, 3);
		assert_int_equal(recs.untimed, 0);
		run_records_release(&recs);
		free(text);
	}
}

/* Hours and days later in the same boot: the uptime carries the clock on. */
static void test_ticks_later(void **state)
{
	struct run_records recs;

	(void)state;
	/* 2024-02-28T23:00:00Z is 1709161200; 3600.00 s later is the leap day, 24 h more is March. */
	run_records_parse("clock 500 1709161200\nrep r 1 0 360500 9359999 89994 8999499\n", &recs);
	assert_string_equal(recs.reps[0].start, "2024-02-29T00:00:00Z");
	/* (9359999 - 500) / 100 = 93594.99 s: 93594 whole seconds. */
	assert_string_equal(recs.reps[0].end, "2024-03-01T00:59:54Z");
	run_records_release(&recs);
}

/* A results file of an older runner: RFC 3339 times, no clock record, no hundredths. */
static void test_old_form(void **state)
{
	struct run_records recs;

	(void)state;
	run_records_parse("start 2026-10-14T20:35:09+03:00 0.12 0.07 0.02 1/601 2574\n"
			  "gate r ok 4\n"
			  "rep r 1 0 2024-06-01T10:00:01Z 2024-06-01T10:00:04Z 3\n"
			  "rep r 2 1 2024-06-01T10:00:05Z 2024-06-01T10:00:08Z 3 301\n"
			  "skip s gate-timeout\n"
			  "end 2024-06-01T10:00:09Z\n", &recs);
	assert_string_equal(recs.start, "2026-10-14T20:35:09+03:00 0.12 0.07 0.02 1/601 2574");
	assert_int_equal(recs.n_reps, 2);
	assert_string_equal(recs.reps[0].start, "2024-06-01T10:00:01Z");
	assert_string_equal(recs.reps[0].end, "2024-06-01T10:00:04Z");
	assert_int_equal(recs.reps[0].hundredths, -1);
	assert_int_equal(recs.reps[1].rc, 1);
	assert_int_equal(recs.reps[1].hundredths, 301);
	assert_int_equal(recs.n_gates, 1);
	assert_string_equal(recs.gates[0].state, "ok");
	assert_int_equal(recs.gates[0].seconds, 4);
	assert_int_equal(recs.gates[0].hundredths, -1);
	assert_int_equal(recs.skipped.n, 1);
	assert_string_equal(recs.skipped.items[0], "s");
	assert_true(recs.has_end);
	assert_string_equal(recs.end, "2024-06-01T10:00:09Z");
	assert_int_equal(recs.untimed, 0);
	run_records_release(&recs);
}

/* Ticks with no clock to place them: left out and counted, never a time. */
static void test_no_clock(void **state)
{
	struct run_records recs;

	(void)state;
	run_records_parse("start 100 0.1\nrep r 1 0 150 250 1 100\nend 300\n", &recs);
	assert_null(recs.start);
	assert_true(recs.has_start);
	assert_int_equal(recs.n_reps, 1);
	assert_string_equal(recs.reps[0].start, "");
	assert_string_equal(recs.reps[0].end, "");
	assert_int_equal(recs.reps[0].hundredths, 100);
	assert_true(recs.has_end);
	assert_string_equal(recs.end, "");
	assert_int_equal(recs.untimed, 4);
	run_records_release(&recs);

	/* date gave nothing ("-"), or the clock record is malformed: the same. */
	run_records_parse("clock 100 -\nrep r 1 0 150 250 1 100\nclock 100 1x\nrep r 2 0 150 250 1 100\n", &recs);
	assert_int_equal(recs.n_reps, 2);
	assert_string_equal(recs.reps[1].start, "");
	assert_int_equal(recs.untimed, 4);
	run_records_release(&recs);

	/* A time past 9999-12-31 is no RFC 3339 time either. */
	run_records_parse("clock 0 253402300799\nrep r 1 0 0 100 1 100\n", &recs);
	assert_string_equal(recs.reps[0].start, "9999-12-31T23:59:59Z");
	assert_string_equal(recs.reps[0].end, "");
	assert_int_equal(recs.untimed, 1);
	run_records_release(&recs);

	/* A clock past 9999, or the largest number a long holds: no clock (and no overflow). */
	run_records_parse("clock 0 253402300800\nrep r 1 0 0 100 1 100\n"
			  "clock 0 9223372036854775807\nrep r 2 0 9223372036854775807 100 1 100\n", &recs);
	assert_int_equal(recs.n_reps, 2);
	assert_string_equal(recs.reps[0].start, "");
	assert_string_equal(recs.reps[1].start, "");
	assert_int_equal(recs.untimed, 4);
	run_records_release(&recs);

	/*
	 * A time before 1970 (a box whose date says 1970-01-01T00:00:02Z, the
	 * rep 2.9 s before it was read) is a time like any other, rounded down.
	 */
	run_records_parse("clock 330 2\nrep r 1 0 40 330 0 290\n", &recs);
	assert_string_equal(recs.reps[0].start, "1969-12-31T23:59:59Z");
	assert_string_equal(recs.reps[0].end, "1970-01-01T00:00:02Z");
	assert_int_equal(recs.untimed, 0);
	run_records_release(&recs);
}

/* The script rerun by hand after a reboot appends its own clock: each time goes by the clock before it. */
static void test_second_clock(void **state)
{
	struct run_records recs;

	(void)state;
	run_records_parse("clock 90000 1740787200\nrep r 1 0 90100 90200 1 100\n"
			  "clock 1000 1740790800\nrep r 1 0 1100 1200 1 100\n", &recs);
	assert_int_equal(recs.n_reps, 2);
	assert_string_equal(recs.reps[0].start, "2025-03-01T00:00:01Z");
	assert_string_equal(recs.reps[1].start, "2025-03-01T01:00:01Z");
	assert_string_equal(recs.reps[1].end, "2025-03-01T01:00:02Z");
	run_records_release(&recs);
}

/* Zone z is zone (named name) with its readings before and after and its range max. */
static void assert_zone(const struct energy_zone *z, const char *zone, const char *name, long before, long after,
			long max)
{
	assert_string_equal(z->zone, zone);
	assert_string_equal(z->name, name);
	assert_int_equal(z->before, before);
	assert_int_equal(z->after, after);
	assert_int_equal(z->max, max);
}

/*
 * The counters and energy records the runner writes before each rep
 * record (src/campaign/runner-helpers.sh, run_rep): each goes to the rep
 * of its row and number, whichever comes first in the file.
 */
static void test_counters_energy(void **state)
{
	struct run_records recs;

	(void)state;
	run_records_parse("clock 100 1000\n"
			  "counters a 1 no-perf\n"
			  "energy a 1 before intel-rapl:0 package-0 1000000 262143328850\n"
			  "energy a 1 before intel-rapl:0:0 core - 262143328850\n"
			  "energy a 1 after intel-rapl:0 package-0 3500000 262143328850\n"
			  "energy a 1 after intel-rapl:0:0 core - 262143328850\n"
			  "rep a 1 0 100 300 2 200\n"
			  "energy b 1 none\n"
			  "rep b 1 0 300 400 1 100\n"
			  "rep a 2 0 400 500 1 100\n"
			  "energy a 2 before intel-rapl:0 package-0 262143000000 -\n"
			  "energy a 2 after intel-rapl:0 package-0 500000 - trailing\n"
			  "energy a 2 sideways intel-rapl:1 package-1 7 8\n"
			  "counters b 1 perf\nenergy b 1 before z\nenergy a x none\n", &recs);
	assert_int_equal(recs.n_reps, 3);
	/* a 1: no perf; two zones, the core's unreadable. */
	assert_true(recs.reps[0].no_perf);
	assert_false(recs.reps[0].no_rapl);
	assert_int_equal(recs.reps[0].n_zones, 2);
	assert_zone(&recs.reps[0].zones[0], "intel-rapl:0", "package-0", 1000000, 3500000, 262143328850);
	assert_zone(&recs.reps[0].zones[1], "intel-rapl:0:0", "core", -1, -1, 262143328850);
	/* b 1: no zone; a malformed counters and energy record change nothing. */
	assert_false(recs.reps[1].no_perf);
	assert_true(recs.reps[1].no_rapl);
	assert_int_equal(recs.reps[1].n_zones, 0);
	/* a 2: its records after its rep record; no range; a reading of neither kind names a zone only. */
	assert_false(recs.reps[2].no_perf);
	assert_int_equal(recs.reps[2].n_zones, 2);
	assert_zone(&recs.reps[2].zones[0], "intel-rapl:0", "package-0", 262143000000, 500000, -1);
	assert_zone(&recs.reps[2].zones[1], "intel-rapl:1", "package-1", -1, -1, 8);
	run_records_release(&recs);
}

/* Malformed records are skipped; the others still read. */
static void test_malformed(void **state)
{
	struct run_records recs;

	(void)state;
	run_records_parse("clock 0 0\nrep r x 0 1 2 0 0\nrep r 1\nrep r 1 0 1 2 zero\ngate r ok\n"
			  "gate r ok x\nrep  1 0 1 2 0\n\nrep r 2 0 100 200 1 x\nreplay r 1 0 1 2 3\n", &recs);
	assert_int_equal(recs.n_reps, 1);
	assert_string_equal(recs.reps[0].row, "r");
	assert_int_equal(recs.reps[0].rep, 2);
	assert_int_equal(recs.reps[0].hundredths, -1);
	assert_string_equal(recs.reps[0].start, "1970-01-01T00:00:01Z");
	assert_int_equal(recs.n_gates, 0);
	assert_false(recs.has_start);
	assert_false(recs.has_end);
	run_records_release(&recs);
	run_records_parse(NULL, &recs);
	assert_int_equal(recs.n_reps, 0);
	run_records_release(&recs);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_format_utc),
		cmocka_unit_test(test_ticks_to_utc),
		cmocka_unit_test(test_ticks_later),
		cmocka_unit_test(test_old_form),
		cmocka_unit_test(test_no_clock),
		cmocka_unit_test(test_second_clock),
		cmocka_unit_test(test_counters_energy),
		cmocka_unit_test(test_malformed),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
