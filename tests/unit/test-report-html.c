/* Unit tests for report.html: escaping, chart geometry, the timeline from meta.json, the page on hostile input. */
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

#include <jansson.h>

#include "judge/compare.h"
#include "lib/alloc.h"
#include "lib/file.h"
#include "lib/strbuf.h"
#include "report/chart.h"
#include "report/html.h"
#include "report/rep-line.h"
#include "report/timeline.h"
#include "report/words.h"

#define NEAR(a, b, tol) assert_true(fabs((a) - (b)) <= (tol))

static void test_escape(void **state)
{
	static const struct {
		const char *in, *out;
	} cases[] = {
		{ "", "" },
		{ "plain 0000:00:02.0", "plain 0000:00:02.0" },
		{ "<script>alert(1)</script>", "&lt;script&gt;alert(1)&lt;/script&gt;" },
		{ "a & b", "a &amp; b" },
		{ "\"quoted\" 'single'", "&quot;quoted&quot; &#39;single&#39;" },
		{ "&amp;", "&amp;amp;" },
		{ "tab\tnew\nline\r", "tab\tnew\nline\r" },
		/* Controls that are not whitespace, DEL and C1 controls become U+FFFD. */
		{ "a\x01" "b\x1b[31m", "a\xef\xbf\xbd" "b\xef\xbf\xbd[31m" },
		{ "del\x7f", "del\xef\xbf\xbd" },
		{ "c1\xc2\x85.", "c1\xef\xbf\xbd." },
		/* Valid UTF-8 passes: ±, €, an emoji. */
		{ "\xc2\xb1 \xe2\x82\xac \xf0\x9f\x9a\x80", "\xc2\xb1 \xe2\x82\xac \xf0\x9f\x9a\x80" },
		/* Not UTF-8: a lone 0xff, a stray continuation, an overlong '/', a surrogate, a cut sequence. */
		{ "x\xffy", "x\xef\xbf\xbdy" },
		{ "\x80", "\xef\xbf\xbd" },
		{ "\xc0\xaf", "\xef\xbf\xbd\xef\xbf\xbd" },
		{ "\xed\xa0\x80", "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd" },
		{ "\xe2\x82", "\xef\xbf\xbd\xef\xbf\xbd" },
		{ "\xf4\x90\x80\x80", "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd" },
		/* A cut sequence does not swallow the markup after it. */
		{ "\xe2<", "\xef\xbf\xbd&lt;" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct strbuf sb = STRBUF_INIT;

		strbuf_addstr(&sb, "[");
		html_escape(&sb, cases[i].in);
		strbuf_addstr(&sb, "]");
		{
			char *want = xasprintf("[%s]", cases[i].out);

			assert_string_equal(strbuf_str(&sb), want);
			free(want);
		}
		strbuf_release(&sb);
	}
}

static void test_axis(void **state)
{
	static const struct {
		double min, max;
		size_t ticks;
		double lo, hi, step;
		size_t n;
	} cases[] = {
		{ 0, 10, 5, 0, 10, 2.5, 5 },
		{ 742, 1515.2, 5, 600, 1600, 200, 6 },
		{ 599.6 - 10.2, 619.5 + 10.5, 5, 580, 640, 20, 4 },
		{ 51.6, 53.9, 5, 51, 54, 1, 4 },
		{ 0.3, 0.9, 4, 0.2, 1.0, 0.2, 5 },
		{ -3, 7, 5, -5, 7.5, 2.5, 6 },
		{ 36120948, 58461000, 5, 30e6, 60e6, 10e6, 4 },
		{ 36120948, 58461000, 8, 35e6, 60e6, 5e6, 6 },
		/* A range of zero is widened by 1 % either side, or by 1 at zero. */
		{ 5, 5, 5, 4.95, 5.05, 0.025, 5 },
		{ 0, 0, 5, -1, 1, 0.5, 5 },
		{ 0, 5.9, 8, 0, 6, 1, 7 },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct chart_axis a;

		assert_int_equal(chart_axis_nice(cases[i].min, cases[i].max, cases[i].ticks, &a), 0);
		NEAR(a.lo, cases[i].lo, 1e-9 * fmax(1, fabs(cases[i].lo)));
		NEAR(a.hi, cases[i].hi, 1e-9 * fmax(1, fabs(cases[i].hi)));
		NEAR(a.step, cases[i].step, 1e-12 * fmax(1, cases[i].step));
		assert_int_equal(a.n_ticks, cases[i].n);
		/* The axis covers the data and its ends are ticks. */
		assert_true(a.lo <= cases[i].min && a.hi >= cases[i].max);
		NEAR(a.lo + (double)(a.n_ticks - 1) * a.step, a.hi, 1e-9 * fmax(1, fabs(a.hi)));
	}
}

static void test_axis_errors(void **state)
{
	struct chart_axis a = { .lo = 7, .hi = 8, .step = 9, .n_ticks = 10 };

	(void)state;
	assert_int_equal(chart_axis_nice(NAN, 1, 5, &a), -EINVAL);
	assert_int_equal(chart_axis_nice(0, INFINITY, 5, &a), -EINVAL);
	assert_int_equal(chart_axis_nice(2, 1, 5, &a), -EINVAL);
	assert_int_equal(chart_axis_nice(0, 1, 1, &a), -EINVAL);
	/* Untouched on error. */
	assert_true(a.lo == 7 && a.hi == 8 && a.step == 9 && a.n_ticks == 10);
}

static void test_map_and_slots(void **state)
{
	struct chart_axis a = { .lo = 580, .hi = 640, .step = 20, .n_ticks = 4 };
	struct chart_axis flat = { .lo = 1, .hi = 1, .step = 1, .n_ticks = 1 };

	(void)state;
	/* A y axis: the low end at the bottom (larger pixel value). */
	NEAR(chart_axis_map(&a, 580, 218, 22), 218, 1e-9);
	NEAR(chart_axis_map(&a, 640, 218, 22), 22, 1e-9);
	NEAR(chart_axis_map(&a, 610, 218, 22), 120, 1e-9);
	NEAR(chart_axis_map(&a, 600, 0, 300), 100, 1e-9);
	NEAR(chart_axis_map(&flat, 5, 0, 100), 50, 1e-9);
	NEAR(chart_slot_center(0, 4, 62, 462), 112, 1e-9);
	NEAR(chart_slot_center(3, 4, 62, 462), 412, 1e-9);
	NEAR(chart_slot_center(0, 1, 0, 100), 50, 1e-9);
	NEAR(chart_slot_center(0, 0, 0, 100), 50, 1e-9);
}

static void test_tick_labels(void **state)
{
	static const struct {
		double v, step;
		const char *want;
	} cases[] = {
		{ 600, 200, "600" },
		{ 0, 200, "0" },
		{ 1e-17, 0.5, "0" },
		{ 52.5, 0.5, "52.5" },
		{ 4.975, 0.025, "4.975" },
		{ 0.25, 0.05, "0.25" },
		{ 3400, 200, "3400" },
		{ -2500, 500, "-2500" },
		{ 12000, 2000, "12k" },
		{ 12500, 2500, "12.5k" },
		{ 36e6, 1e7, "36M" },
		{ 35e6, 5e6, "35M" },
		{ 2.5e7, 2.5e6, "25.0M" },
		{ 2.2e8, 5e7, "220M" },
		{ 3e9, 1e9, "3G" },
		{ 1.5e12, 5e11, "1.5T" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct strbuf sb = STRBUF_INIT;

		chart_tick_label(&sb, cases[i].v, cases[i].step);
		assert_string_equal(strbuf_str(&sb), cases[i].want);
		strbuf_release(&sb);
	}
}

static void test_time_parse(void **state)
{
	static const struct {
		const char *in;
		double want;
	} good[] = {
		{ "2026-11-30T01:47:40Z", 1796003260 },
		{ "2026-11-30T01:47:22+0000", 1796003242 },
		{ "2026-11-30T01:48:19+00:00", 1796003299 },
		{ "2026-11-30T04:48:19+03:00", 1796003299 },
		{ "2026-11-29T20:18:19-05:30", 1796003299 },
		{ "2026-11-30T01:47:40.25Z", 1796003260.25 },
		/* rows_start carries the load average after the time. */
		{ "2026-11-30T01:47:38Z 0.85 0.22 0.07 3/60 431", 1796003258 },
	};
	static const char *const bad[] = {
		"", "2026-11-30", "2026-11-30T01:47:40", "2026-11-30T01:47:40+0", "2026-13-30T01:47:40Z",
		"2026-11-30T24:00:00Z", "2026-11-30T01:47:40Zjunk", "2026-11-30T01:47:40.Z", "x026-11-30T01:47:40Z",
		"2026-11-30T01:47:40+25:00", "2026-11-30T01:47:4OZ",
	};

	(void)state;
	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		double t = 0;

		assert_int_equal(timeline_time_parse(good[i].in, &t), 0);
		NEAR(t, good[i].want, 1e-6);
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		double t = 42;

		assert_int_equal(timeline_time_parse(bad[i], &t), -EINVAL);
		assert_true(t == 42);
	}
	{
		double t = 42;

		assert_int_equal(timeline_time_parse(NULL, &t), -EINVAL);
		assert_true(t == 42);
	}
}

/* The recorded lab boot: reboot 131 s, verify, two gates, one bench row of two reps, one check, fetch. */
static void test_timeline_lab(void **state)
{
	static const struct {
		enum timeline_kind kind;
		const char *start, *end, *row;
	} want[] = {
		{ TIMELINE_REBOOT, "2026-11-30T01:45:11Z", "2026-11-30T01:47:22Z", NULL },
		{ TIMELINE_SETUP, "2026-11-30T01:47:22Z", "2026-11-30T01:47:38Z", NULL },
		{ TIMELINE_GATE, "2026-11-30T01:47:38Z", "2026-11-30T01:47:40Z", "randread" },
		{ TIMELINE_ROW, "2026-11-30T01:47:40Z", "2026-11-30T01:48:08Z", "randread" },
		{ TIMELINE_GATE, "2026-11-30T01:48:08Z", "2026-11-30T01:48:09Z", "data-disk" },
		{ TIMELINE_CHECK, "2026-11-30T01:48:09Z", "2026-11-30T01:48:11Z", "data-disk" },
		{ TIMELINE_FETCH, "2026-11-30T01:48:11Z", "2026-11-30T01:48:19Z", NULL },
	};
	json_error_t jerr;
	json_t *meta = json_load_file(FIXTURES "/campaign-lab/passthrough/meta.json", 0, &jerr);
	struct timeline_lane lane = TIMELINE_LANE_INIT;
	double a, b, rep2;

	(void)state;
	assert_non_null(meta);
	assert_int_equal(timeline_lane_from_meta(meta, &lane), sizeof(want) / sizeof(want[0]));
	for (size_t i = 0; i < lane.n_spans; i++) {
		double s, e;

		assert_int_equal(timeline_time_parse(want[i].start, &s), 0);
		assert_int_equal(timeline_time_parse(want[i].end, &e), 0);
		assert_int_equal(lane.spans[i].kind, want[i].kind);
		NEAR(lane.spans[i].start, s, 1e-6);
		NEAR(lane.spans[i].end, e, 1e-6);
		if (want[i].row)
			assert_string_equal(lane.spans[i].row, want[i].row);
		else
			assert_null(lane.spans[i].row);
	}
	/* The bench row's second rep starts inside it. */
	assert_int_equal(lane.spans[3].n_reps, 1);
	assert_int_equal(timeline_time_parse("2026-11-30T01:47:59Z", &rep2), 0);
	NEAR(lane.spans[3].reps[0], rep2, 1e-6);
	assert_int_equal(lane.spans[5].n_reps, 0);
	assert_true(timeline_lane_bounds(&lane, &a, &b));
	NEAR(b - a, 188, 1e-6);
	timeline_lane_release(&lane);
	json_decref(meta);
}

/* meta.json is the target's word: wrong types and times drop spans, never fail. */
static void test_timeline_hostile(void **state)
{
	static const char *const metas[] = {
		"[]",
		"{}",
		"{\"target_time\": 7, \"reboot_s\": \"x\", \"rows\": {}}",
		"{\"target_time\": \"2026-11-30T01:47:22Z\", \"reboot_s\": -5, \"rows_start\": \"junk\"}",
		/* Backwards and absurd spans. */
		"{\"rows\": [{\"name\": \"r\", \"start\": \"2026-11-30T01:48:00Z\", \"end\": \"2026-11-30T01:47:00Z\"},"
		" {\"name\": \"s\", \"start\": \"2026-11-30T01:48:00Z\", \"end\": \"2030-01-01T00:00:00Z\"},"
		" {\"start\": \"2026-11-30T01:48:00Z\", \"end\": \"2026-11-30T01:49:00Z\"},"
		" 5, null]}",
		/* A controller clock far from the target's: no fetch span. */
		"{\"rows_end\": \"2026-11-30T01:48:11Z\", \"time\": \"2026-12-30T01:48:11Z\"}",
	};
	json_error_t jerr;
	json_t *ok;
	struct timeline_lane lane = TIMELINE_LANE_INIT;

	(void)state;
	for (size_t i = 0; i < sizeof(metas) / sizeof(metas[0]); i++) {
		json_t *meta = json_loads(metas[i], 0, &jerr);

		assert_non_null(meta);
		assert_int_equal(timeline_lane_from_meta(meta, &lane), 0);
		assert_false(timeline_lane_bounds(&lane, &(double){ 0 }, &(double){ 0 }));
		timeline_lane_release(&lane);
		json_decref(meta);
	}
	/* A row without reps or rc still shows; a rep outside its row is not a boundary. */
	ok = json_loads("{\"rows\": [{\"name\": \"r\", \"kind\": \"check\", \"rc\": 3, \"idle_wait_s\": 0,"
			" \"start\": \"2026-11-30T01:48:00Z\", \"end\": \"2026-11-30T01:48:30Z\", \"reps\": ["
			"{\"start\": \"2026-11-30T01:48:00Z\"}, {\"start\": \"2026-11-30T01:49:00Z\"},"
			"{\"start\": \"2026-11-30T01:48:10Z\"}, {\"start\": 3}]}]}", 0, &jerr);
	assert_non_null(ok);
	assert_int_equal(timeline_lane_from_meta(ok, &lane), 1);
	assert_int_equal(lane.spans[0].kind, TIMELINE_CHECK);
	assert_int_equal(lane.spans[0].rc, 3);
	assert_int_equal(lane.spans[0].n_reps, 1);
	timeline_lane_release(&lane);
	json_decref(ok);
}

/* ---- the page ---- */

static char *make_tmpdir(void)
{
	char *d = xstrdup("/tmp/bootab-html-XXXXXX");

	assert_non_null(mkdtemp(d));
	return d;
}

static void write_side(const char *root, const char *label, const char *mode, const char *row,
		       double mean, const char *kernel, const char *device, const char *type, int check_rc)
{
	char *dir = path_join(root, label), *path = path_join(dir, "meta.json"), *text;
	json_t *meta = json_pack(
		"{s:i, s:s, s:i, s:s, s:s, s:s, s:f, s:s, s:s, s:s,"
		" s:{s:s, s:[{s:i, s:s, s:[{s:s, s:s, s:s}]}]},"
		" s:{s:s},"
		" s:[{s:s, s:s, s:s, s:i, s:s, s:s, s:[{s:s, s:s, s:s, s:[f,f,f]}]},"
		"    {s:s, s:s, s:i, s:s, s:s}]}",
		"bootab_snapshot", 1, "format", "bootab-results", "format_version", 1, "mode", mode, "label", label,
		"kernel", kernel, "reboot_s", 61.5, "target_time", "2026-11-30T01:00:00+0000",
		"rows_start", "2026-11-30T01:00:10Z 0.1 0.1 0.1 1/1 1", "rows_end", "2026-11-30T01:01:00Z",
		"iommu", "summary", "1 x", "groups", "group", 0, "type", type, "devices", "name", device, "bus", "pci",
		"driver", "nvme",
		"versions", "tool", kernel,
		"rows", "name", row, "kind", "bench", "stat", "mean", "idle_wait_s", 2, "start", "2026-11-30T01:00:12Z",
		"end", "2026-11-30T01:00:50Z", "metrics", "name", "ops", "better", "higher", "unit", "op/s", "samples",
		mean - 1, mean, mean + 1,
		"name", "probe", "kind", "check", "rc", check_rc, "start", "2026-11-30T01:00:51Z", "end",
		"2026-11-30T01:00:59Z");

	assert_non_null(meta);
	assert_int_equal(dir_create_all(dir, 0755), 0);
	text = json_dumps(meta, 0);
	assert_int_equal(file_write_atomic(path, text, strlen(text), 0644), 0);
	free(text);
	json_decref(meta);
	free(path);
	free(dir);
}

static size_t count(const char *hay, const char *needle)
{
	size_t n = 0;

	for (const char *p = strstr(hay, needle); p; p = strstr(p + 1, needle))
		n++;
	return n;
}

static void remove_tree(const char *root, const char *const *labels, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		char *dir = path_join(root, labels[i]), *path = path_join(dir, "meta.json");

		unlink(path);
		rmdir(dir);
		free(path);
		free(dir);
	}
	rmdir(root);
}

/*
 * Labels, modes, row names, kernels and device names from files reach the
 * page escaped; every metric gets its chart and every side its dot.
 */
static void test_page_hostile_names(void **state)
{
	static const char *const labels[] = { "base<script>", "fast\"x", "base2" };
	static const char *const row = "row<i>&'";
	char *root = make_tmpdir();
	struct side sides[3];
	struct strlist warnings = STRLIST_INIT;
	struct compare_options co = { .stat = STAT_MEAN, .loud_pct = COMPARE_LOUD_PCT_DEFAULT };
	struct report_options ro = { .format = REPORT_HTML, .loud_pct = COMPARE_LOUD_PCT_DEFAULT,
				     .warnings = &warnings, .title = "t</title><script>", .watch = "<u>" };
	struct compare_result res;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	write_side(root, labels[0], "m<b>", row, 100, "6.1<script>alert(1)</script>", "<u>", "DMA-FQ", 0);
	write_side(root, labels[1], "fast'&", row, 120, "6.1", "<u>", "identity", 1);
	write_side(root, labels[2], "m<b>", row, 101, "6.1", "<u>", "DMA-FQ", 0);
	for (size_t k = 0; k < 3; k++) {
		char *dir = path_join(root, labels[k]);

		assert_int_equal(side_load(dir, &sides[k], &warnings), 0);
		free(dir);
	}
	strlist_add(&warnings, "a warning with <markup> & \"quotes\"");
	assert_int_equal(compare_sides(sides, 3, &co, &res, &warnings), 0);
	f = open_memstream(&buf, &len);
	assert_non_null(f);
	assert_int_equal(report_compare(f, &res, &ro), 0);
	fclose(f);

	/* Nothing from the files opens a tag or ends an attribute. */
	assert_int_equal(count(buf, "<script"), 0);
	assert_int_equal(count(buf, "<u>"), 0);
	assert_int_equal(count(buf, "m<b>"), 0);
	assert_int_equal(count(buf, "row<i>"), 0);
	assert_int_equal(count(buf, "<markup>"), 0);
	assert_non_null(strstr(buf, "<title>bootab report: t&lt;/title&gt;&lt;script&gt;</title>"));
	assert_non_null(strstr(buf, "6.1&lt;script&gt;alert(1)&lt;/script&gt;"));
	assert_non_null(strstr(buf, "data-side=\"fast&quot;x\""));
	assert_non_null(strstr(buf, "a warning with &lt;markup&gt; &amp; &quot;quotes&quot;"));
	/* One chart for the one metric, with a dot per side and the drift band. */
	assert_int_equal(count(buf, "<svg class=\"chart\""), 1);
	assert_non_null(strstr(buf, "data-metric=\"row&lt;i&gt;&amp;&#39; ops\" data-points=\"3\""));
	assert_int_equal(count(buf, "<circle class=\"pt\""), 3);
	assert_non_null(strstr(buf, "<rect class=\"band\" data-drift=\"1.0000\""));
	/* Verdicts in the table and beside the chart: +20 % against a 1 % drift counts. */
	assert_int_equal(count(buf, "data-verdict=\"counts\""), 2);
	assert_int_equal(count(buf, "data-verdict=\"baseline\""), 2);
	assert_int_equal(count(buf, "data-verdict=\"drift\""), 2);
	/* The cost is shown beside the gain, the watched device called out and highlighted as changed. */
	assert_non_null(strstr(buf, "<span class=\"cost\">cost: probe failed, rc=1</span>"));
	assert_non_null(strstr(buf, "<tr class=\"changed watch\" data-device=\"&lt;u&gt;\">"));
	/* Timeline: reboot, verify, gate, row, check per side (no fetch time recorded). */
	assert_non_null(strstr(buf, "data-spans=\"15\""));
	free(buf);

	/* A write error is reported. */
	f = fopen("/dev/full", "w");
	if (f) {
		assert_int_equal(report_compare(f, &res, &ro), -EIO);
		fclose(f);
	}
	compare_result_release(&res);
	for (size_t k = 0; k < 3; k++)
		side_release(&sides[k]);
	strlist_release(&warnings);
	remove_tree(root, labels, 3);
	free(root);
}

/* One rep as the campaign prints it when it arrives. */
static void test_rep_line(void **state)
{
	static const struct {
		double v;
		const char *unit, *text;
	} values[] = {
		{ 5412, "IOPS", "5412 IOPS" }, { 42, "", "42.00" }, { 1.4, NULL, "1.40" },
		{ 14100, "IOPS", "14.10 k IOPS" }, { 2.5e7, "IOPS", "25.00 M IOPS" },
		{ 1960, "ms", "1.96 s" }, { 0.25, "s", "250.0 ms" }, { -3300, "ms", "-3.30 s" },
		{ 21648, "KiB/s", "21.14 MiB/s" }, { 0.00123, "", "0.001230" }, { NAN, "ms", "-" },
	};
	struct metric_set set = { 0 };
	char *t;

	(void)state;
	for (size_t i = 0; i < sizeof(values) / sizeof(values[0]); i++) {
		t = report_value_in_unit(values[i].v, values[i].unit);
		assert_string_equal(t, values[i].text);
		free(t);
	}
	t = report_rep_line("randread", 2, 3, false, 0, NULL);
	assert_string_equal(t, "row randread 2/3: done (no value parsed)");
	free(t);
	metric_set_add_sample(&set, "randread.iops", BETTER_HIGHER, "IOPS", 5412);
	t = report_rep_line("randread", 2, 3, false, 0, &set);
	assert_string_equal(t, "row randread 2/3: 5412 IOPS");
	free(t);
	metric_set_add_sample(&set, "randread.bw_kib", BETTER_HIGHER, "KiB/s", 21648);
	t = report_rep_line("randread", 2, 3, false, 0, &set);
	assert_string_equal(t, "row randread 2/3: randread.iops 5412 IOPS (+1 more)");
	free(t);
	t = report_rep_line("randread", 3, 3, false, 124, &set);
	assert_string_equal(t, "row randread 3/3: failed (rc=124)");
	free(t);
	t = report_rep_line("data-disk", 1, 1, true, 0, NULL);
	assert_string_equal(t, "check data-disk 1/1: passed");
	free(t);
	metric_set_release(&set);
	/* A name from the box cannot move the cursor. */
	memset(&set, 0, sizeof(set));
	metric_set_add_sample(&set, "x", BETTER_HIGHER, "\x1b[2J", 1);
	t = report_rep_line("r", 1, 1, false, 0, &set);
	assert_string_equal(t, "row r 1/1: 1.00 \\x1b[2J");
	free(t);
	metric_set_release(&set);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_escape),
		cmocka_unit_test(test_rep_line),
		cmocka_unit_test(test_axis),
		cmocka_unit_test(test_axis_errors),
		cmocka_unit_test(test_map_and_slots),
		cmocka_unit_test(test_tick_labels),
		cmocka_unit_test(test_time_parse),
		cmocka_unit_test(test_timeline_lab),
		cmocka_unit_test(test_timeline_hostile),
		cmocka_unit_test(test_page_hostile_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
