/* Unit tests for src/judge/history.c and the meta.json fields side_load reads for it. */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include <gsl/gsl_cdf.h>

#include "judge/history.h"
#include "lib/alloc.h"
#include "lib/file.h"
#include "results/side.h"
#include "test-tmpdir.h"

static char *make_tmpdir(void)
{
	return test_tmpdir();
}

static void write_file(const char *dir, const char *name, const char *text)
{
	char *p = path_join(dir, name);

	assert_int_equal(file_write_atomic(p, text, strlen(text), 0644), 0);
	free(p);
}

static void test_default_path(void **state)
{
	char *p;

	(void)state;
	setenv("XDG_DATA_HOME", "/data", 1);
	setenv("HOME", "/home/u", 1);
	p = history_default_path("0123abcd");
	assert_string_equal(p, "/data/bootab/history/0123abcd.json");
	free(p);
	/* A relative XDG_DATA_HOME is ignored, as the XDG spec says. */
	setenv("XDG_DATA_HOME", "rel", 1);
	p = history_default_path("0123abcd");
	assert_string_equal(p, "/home/u/.local/share/bootab/history/0123abcd.json");
	free(p);
	unsetenv("XDG_DATA_HOME");
	unsetenv("HOME");
	assert_null(history_default_path("0123abcd"));
}

static void test_roundtrip(void **state)
{
	char *dir = make_tmpdir(), *path = path_join(dir, "sub/dir/m.json");
	struct history h = HISTORY_INIT, back = HISTORY_INIT;
	struct parse_error err = PARSE_ERROR_INIT;
	struct history_entry e = { .key = xstrdup("b1,b2"), .recorded = xstrdup("2025-03-01T10:00:00Z"),
				   .kind = xstrdup("aa") };

	(void)state;
	h.machine_id = xstrdup("0123abcd");
	e.metrics = xcalloc(2, sizeof(*e.metrics));
	e.n_metrics = 2;
	e.metrics[0] = (struct history_metric){ xstrdup("llama"), xstrdup("pp512"), NULL, 2 };
	e.metrics[0].boots = xcalloc(2, sizeof(struct stats_boot));
	e.metrics[0].boots[0] = (struct stats_boot){ 6.123456789012345, 5, 1.5e-5 };
	e.metrics[0].boots[1] = (struct stats_boot){ 6.13, 4, 0 };
	/* A metric with one boot is dropped. */
	e.metrics[1] = (struct history_metric){ xstrdup("llama"), xstrdup("tg128"), NULL, 1 };
	e.metrics[1].boots = xcalloc(1, sizeof(struct stats_boot));
	assert_int_equal(history_add(&h, &e), 0);
	assert_int_equal(history_save(&h, path), 0);
	assert_int_equal(history_load(path, &back, &err), 0);
	assert_string_equal(back.machine_id, "0123abcd");
	assert_int_equal(back.n_entries, 1);
	assert_int_equal(back.entries[0].n_metrics, 1);
	assert_string_equal(back.entries[0].key, "b1,b2");
	assert_string_equal(back.entries[0].kind, "aa");
	assert_int_equal(back.entries[0].metrics[0].n_boots, 2);
	assert_true(back.entries[0].metrics[0].boots[0].mean == 6.123456789012345);
	assert_int_equal(back.entries[0].metrics[0].boots[1].n, 4);
	{
		struct stats_group *g;

		assert_int_equal(history_groups(&back, "llama", "pp512", NULL, &g), 1);
		assert_int_equal(g[0].n, 2);
		free(g);
		struct strlist skip = STRLIST_INIT;

		/* One of the entry's boots is enough to leave it out (a subset of its campaign). */
		strlist_add(&skip, "b9");
		assert_int_equal(history_groups(&back, "llama", "pp512", &skip, &g), 1);
		free(g);
		strlist_add(&skip, "b2");
		assert_int_equal(history_groups(&back, "llama", "pp512", &skip, &g), 0);
		free(g);
		strlist_release(&skip);
		/* "b" is not "b1": boots are matched whole. */
		strlist_add(&skip, "b");
		assert_int_equal(history_groups(&back, "llama", "pp512", &skip, &g), 1);
		free(g);
		strlist_release(&skip);
		assert_int_equal(history_groups(&back, "llama", "tg128", NULL, &g), 0);
		free(g);
	}
	history_release(&h);
	history_release(&back);
	unlink(path);
	free(path);
	path = path_join(dir, "nothing.json");
	back.n_entries = 77;
	assert_int_equal(history_load(path, &back, &err), -ENOENT);
	assert_int_equal(back.n_entries, 77);
	parse_error_release(&err);
	free(path);
	free(dir);
}

/* Only the newest HISTORY_MAX_ENTRIES entries judge: older ones age out. */
static void test_entries_age_out(void **state)
{
	struct history h = HISTORY_INIT;
	struct stats_group *g;
	size_t n;

	(void)state;
	for (int i = 0; i < HISTORY_MAX_ENTRIES + 3; i++) {
		/* Entry i recorded on day (i * 7) % 23 + 1: file order is not time order. */
		struct history_entry e = { .key = xasprintf("k%d", i),
					   .recorded = xasprintf("2025-03-%02dT10:00:00Z", (i * 7) % 23 + 1),
					   .kind = xstrdup("aa") };

		e.metrics = xcalloc(1, sizeof(*e.metrics));
		e.n_metrics = 1;
		e.metrics[0] = (struct history_metric){ xstrdup("r"), xstrdup("x"), NULL, 2 };
		e.metrics[0].boots = xcalloc(2, sizeof(struct stats_boot));
		/* The day it was recorded, to tell the groups apart. */
		e.metrics[0].boots[0] = (struct stats_boot){ (double)((i * 7) % 23 + 1), 1, 0 };
		e.metrics[0].boots[1] = (struct stats_boot){ 0, 1, 0 };
		assert_int_equal(history_add(&h, &e), 0);
	}
	n = history_groups(&h, "r", "x", NULL, &g);
	assert_int_equal(n, HISTORY_MAX_ENTRIES);
	/* Days 1, 2 and 3 aged out; the rest are kept in file order. */
	for (size_t i = 0; i < n; i++)
		assert_true(g[i].boots[0].mean > 3);
	for (size_t i = 1; i < n; i++) {
		size_t a = 0, b = 0;

		for (size_t e = 0; e < h.n_entries; e++) {
			if (h.entries[e].metrics[0].boots == g[i - 1].boots)
				a = e;
			if (h.entries[e].metrics[0].boots == g[i].boots)
				b = e;
		}
		assert_true(a < b);
	}
	free(g);
	history_release(&h);
}

static void test_add_without_boots(void **state)
{
	struct history h = HISTORY_INIT;
	struct history_entry e = { .key = xstrdup("k"), .recorded = xstrdup(""), .kind = xstrdup("repeat") };

	(void)state;
	assert_int_equal(history_add(&h, &e), -ENODATA);
	assert_int_equal(h.n_entries, 0);
	assert_null(e.key);
	history_release(&h);
}

static void test_bad_files(void **state)
{
	static const struct {
		const char *text;
		const char *message;
	} cases[] = {
		{ "{\"format\": \"bootab-history\",\n \"entries\": [}", "F:2:14: unexpected token near '}'" },
		{ "{\"format\": \"other\"}", "F: format: not a bootab history (\"bootab-history\")" },
		{ "{\"format\": \"bootab-history\", \"format_version\": 2}", "F: format_version: only version 1 is known" },
		{ "{\"format\": \"bootab-history\", \"format_version\": 1, \"entries\": {}}", "F: entries: not an array" },
		{ "{\"format\": \"bootab-history\", \"format_version\": 1, \"entries\": [{\"metrics\": []}]}",
		  "F: entries[0].key: missing or not a string" },
		{ "{\"format\": \"bootab-history\", \"format_version\": 1, \"entries\": [{\"key\": \"k\", \"metrics\": "
		  "[{\"row\": \"r\", \"metric\": \"m\", \"boots\": [{\"mean_log\": 1, \"n\": 0, \"ss_log\": 0}]}]}]}",
		  "F: entries[0].metrics[0].boots[0]: needs mean_log (number), n (integer >= 1) and ss_log (number >= 0)" },
	};
	char *dir = make_tmpdir(), *path = path_join(dir, "h.json");

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct history h = { .n_entries = 99 };
		struct parse_error err = PARSE_ERROR_INIT;
		char *msg, *want;

		write_file(dir, "h.json", cases[i].text);
		assert_int_equal(history_load(path, &h, &err), -EINVAL);
		assert_int_equal(h.n_entries, 99);
		msg = parse_error_format(&err);
		want = xasprintf("%s%s", path, cases[i].message + 1);
		assert_string_equal(msg, want);
		free(msg);
		free(want);
		parse_error_release(&err);
	}
	unlink(path);
	rmdir(dir);
	free(path);
	free(dir);
}

static void test_side_meta_fields(void **state)
{
	char *dir = make_tmpdir();
	struct strlist w = STRLIST_INIT;
	struct side s;
	const struct row *r;

	(void)state;
	write_file(dir, "meta.json",
		   "{\"mode\": \"pt\", \"round\": 3, \"machine_id\": \"0123abcd\", \"boot_id\": \"9f1c-77\",\n"
		   " \"reboot_s\": 84.5, \"rows\": [{\"name\": \"r\", \"idle_wait_s\": 60,\n"
		   " \"metrics\": [{\"name\": \"x\", \"samples\": [1, 2]}],\n"
		   " \"reps\": [{\"rc\": 0, \"start\": \"2025-03-01T10:00:00Z\", \"end\": \"2025-03-01T10:00:12.5Z\"},\n"
		   "          {\"rc\": 0, \"start\": \"2025-03-01T11:00:13+01:00\", \"end\": \"2025-03-01T10:00:25Z\"}]},\n"
		   " {\"name\": \"bad\", \"metrics\": [{\"name\": \"x\", \"samples\": [1]}],\n"
		   "  \"reps\": [{\"start\": \"yesterday\", \"end\": \"2025-03-01T10:00:25Z\"}]}]}\n");
	assert_int_equal(side_load(dir, &s, &w), 0);
	assert_int_equal(s.round, 3);
	assert_string_equal(s.machine_id, "0123abcd");
	assert_string_equal(s.boot_id, "9f1c-77");
	assert_true(s.has_reboot);
	assert_true(s.reboot_s == 84.5);
	r = side_find_row(&s, "r");
	assert_int_equal(r->n_rep_s, 2);
	assert_true(fabs(r->rep_s[0] - 12.5) < 1e-9);
	assert_true(fabs(r->rep_s[1] - 12) < 1e-9);
	assert_true(r->has_idle_wait && r->idle_wait_s == 60);
	assert_int_equal(side_find_row(&s, "bad")->n_rep_s, 0);
	assert_int_equal(w.n, 1);
	assert_true(strstr(w.items[0], "meta.json: rows[1].reps[0]: start/end are not RFC 3339 times in order, ignoring them"));
	side_release(&s);
	strlist_release(&w);

	/* Bad ids and rounds are named and ignored. */
	write_file(dir, "meta.json", "{\"round\": 0, \"machine_id\": \"../etc\", \"reboot_s\": \"slow\", \"rows\": []}");
	assert_int_equal(side_load(dir, &s, &w), 0);
	assert_int_equal(s.round, 0);
	assert_null(s.machine_id);
	assert_false(s.has_reboot);
	assert_int_equal(w.n, 4);
	assert_true(strstr(w.items[0], "meta.json: round: not a positive integer, ignoring it"));
	assert_true(strstr(w.items[1], "meta.json: reboot_s: not a number of seconds from 0 to 31622400, ignoring it"));
	assert_true(strstr(w.items[2], "meta.json: machine_id: not a hexadecimal id, ignoring it"));
	side_release(&s);
	strlist_release(&w);
	{
		char *p = path_join(dir, "meta.json");

		unlink(p);
		free(p);
	}
	rmdir(dir);
	free(dir);
}

/*
 * The worst false-claim rate over noise factors f >= 1 at a limit, for the
 * ratio law expected x (b - 2) / b x F(a, b) (b infinite: chi-square), as
 * history_box_limit() promises it; written out again here.
 */
static double worst_at(double limit, double expected, double a, double b)
{
	double worst = 0;

	for (double f = 1; f <= 8; f += 0.001) {
		double x = limit / (f * f), below;

		below = isinf(b) ? gsl_cdf_chisq_P(x / expected * a, a)
				 : gsl_cdf_fdist_P(x / (expected * (b - 2) / b), a, b);
		worst = fmax(worst, below * 2 * gsl_cdf_ugaussian_Q(1.959963984540054 / f));
	}
	return worst;
}

static void test_box_limit(void **state)
{
	static const struct {
		double expected, a, b;
	} laws[] = {
		{ 1.25, 1, 10 },                /* one metric, 10 A/A pairs */
		{ 1.25, 64, 10 },               /* eight independent metrics */
		{ 1.25, 10.7, INFINITY },       /* sixteen */
		{ 1.8, 1, 4.5 },                /* a history of 4 df or fewer */
	};

	(void)state;
	for (size_t i = 0; i < sizeof(laws) / sizeof(laws[0]); i++) {
		double limit = history_box_limit(laws[i].expected, laws[i].a, laws[i].b, 0.05);

		/* At the limit the worst box gives 2 alpha; 1 % above it, more. */
		assert_true(limit > 0);
		assert_true(worst_at(limit, laws[i].expected, laws[i].a, laws[i].b) <= 0.1 + 1e-4);
		assert_true(worst_at(limit * 1.01, laws[i].expected, laws[i].a, laws[i].b) > 0.1);
	}
	/* More metrics, more room: a box no noisier than its history trips less. */
	assert_true(history_box_limit(1.25, 64, 10, 0.05) > history_box_limit(1.25, 1, 10, 0.05));
	/* A stricter level, a tighter limit. */
	assert_true(history_box_limit(1.25, 64, 10, 0.01) < history_box_limit(1.25, 64, 10, 0.05));
	assert_true(isnan(history_box_limit(0, 1, 10, 0.05)));
	assert_true(isnan(history_box_limit(1.25, 0, 10, 0.05)));
	assert_true(isnan(history_box_limit(1.25, 1, 2, 0.05)));
	assert_true(isnan(history_box_limit(1.25, 1, 10, 0.5)));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_default_path),
		cmocka_unit_test(test_roundtrip),
		cmocka_unit_test(test_entries_age_out),
		cmocka_unit_test(test_add_without_boots),
		cmocka_unit_test(test_bad_files),
		cmocka_unit_test(test_side_meta_fields),
		cmocka_unit_test(test_box_limit),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
