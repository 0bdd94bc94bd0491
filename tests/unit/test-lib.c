/* Unit tests for src/lib: strbuf, files, processes, parse errors. */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "lib/alloc.h"
#include "lib/escape.h"
#include "lib/file.h"
#include "lib/parse-error.h"
#include "lib/parse-number.h"
#include "lib/pattern.h"
#include "lib/process.h"
#include "lib/secret.h"
#include "lib/strbuf.h"
#include "lib/strvec.h"
#include "lib/timestamp.h"
#include "test-tmpdir.h"

static char *make_tmpdir(void)
{
	return test_tmpdir();
}

static void test_strbuf(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	size_t len;
	char *s;

	(void)state;
	assert_string_equal(strbuf_str(&sb), "");
	strbuf_addstr(&sb, "boot");
	strbuf_addch(&sb, '_');
	strbuf_addf(&sb, "%s=%d", "id", 42);
	for (int i = 0; i < 1000; i++)
		strbuf_addf(&sb, "%04d", i);
	assert_int_equal(sb.len, 10 + 4000);
	assert_memory_equal(sb.buf, "boot_id=42000000010002", 22);
	strbuf_truncate(&sb, 7);
	assert_string_equal(strbuf_str(&sb), "boot_id");
	s = strbuf_detach(&sb, &len);
	assert_int_equal(len, 7);
	assert_null(sb.buf);
	free(s);
}

static void test_strvec(void **state)
{
	struct strvec sv = STRVEC_INIT;
	char **v;

	(void)state;
	/* Empty: an argv all the same, and a detached array holding only NULL. */
	assert_null(strvec_argv(&sv)[0]);
	v = strvec_detach(&sv);
	assert_non_null(v);
	assert_null(v[0]);
	strv_free(v);
	strv_free(NULL);

	strvec_push(&sv, "b");
	strvec_pushf(&sv, "%s=%d", "a", 1);
	strvec_push_owned(&sv, xstrdup("c"));
	strvec_push_all(&sv, (const char *const[]){ "a=1", "", NULL });
	strvec_push_all(&sv, NULL);
	assert_int_equal(sv.n, 5);
	assert_null(sv.v[5]);
	strvec_sort(&sv);
	assert_string_equal(strvec_argv(&sv)[0], "");
	assert_string_equal(sv.v[1], "a=1");
	assert_string_equal(sv.v[2], "a=1");
	assert_string_equal(sv.v[3], "b");
	assert_string_equal(sv.v[4], "c");
	assert_null(sv.v[5]);
	v = strvec_detach(&sv);
	assert_null(sv.v);
	assert_int_equal(sv.n, 0);
	assert_string_equal(v[4], "c");
	assert_null(v[5]);
	strv_free(v);
	strvec_release(&sv);
}

static void test_parse_number(void **state)
{
	static const struct {
		const char *s;
		long min, max;
		int r;
		long v;
	} longs[] = {
		{ "5", 1, 600, 0, 5 },
		{ "-3", -5, 5, 0, -3 },
		{ "+3", 0, 5, 0, 3 },
		{ "600", 1, 600, 0, 600 },
		{ "601", 1, 600, -ERANGE, 0 },
		{ "0", 1, 600, -ERANGE, 0 },
		{ "99999999999999999999999", 0, 1, -ERANGE, 0 },
		{ "", 0, 9, -EINVAL, 0 },
		{ " 5", 0, 9, -EINVAL, 0 },
		{ "5 ", 0, 9, -EINVAL, 0 },
		{ "5s", 0, 9, -EINVAL, 0 },
		{ "0x5", 0, 9, -EINVAL, 0 },
		{ "-", 0, 9, -EINVAL, 0 },
	};
	static const struct {
		const char *s;
		int r;
		double v;
	} doubles[] = {
		{ "2.5", 0, 2.5 },
		{ ".5", 0, 0.5 },
		{ "-1e2", 0, -100 },
		{ "1e-400", 0, 0 },
		{ "1e400", -ERANGE, 0 },
		{ "inf", -EINVAL, 0 },
		{ "nan", -EINVAL, 0 },
		{ "1001", -ERANGE, 0 },
		{ "1.5%", -EINVAL, 0 },
		{ "", -EINVAL, 0 },
	};
	const char *end = NULL;
	long v = 42;
	double d = 42;

	(void)state;
	for (size_t i = 0; i < sizeof(longs) / sizeof(longs[0]); i++) {
		v = 42;
		assert_int_equal(number_parse_long(longs[i].s, longs[i].min, longs[i].max, &v), longs[i].r);
		assert_int_equal(v, longs[i].r ? 42 : longs[i].v);
	}
	for (size_t i = 0; i < sizeof(doubles) / sizeof(doubles[0]); i++) {
		d = 42;
		assert_int_equal(number_parse_double(doubles[i].s, -1000, 1000, &d), doubles[i].r);
		if (doubles[i].r)
			assert_true(d == 42);
		else
			assert_true(fabs(d - doubles[i].v) < 1e-12);
	}
	/* The scanners stop after the number and leave the rest to the caller. */
	assert_int_equal(number_scan_long("30s", 10, 0, 60, &v, &end), 0);
	assert_int_equal(v, 30);
	assert_string_equal(end, "s");
	assert_int_equal(number_scan_double("5 %", 0, 100, &d, &end), 0);
	assert_string_equal(end, " %");
	assert_int_equal(number_scan_long("1af", 16, 0, 0xffff, &v, &end), 0);
	assert_int_equal(v, 0x1af);
	/* Base 16 takes no second prefix: "0x0x10" is not an id. */
	assert_int_equal(number_scan_long("0x10", 16, 0, 0xffff, &v, &end), -EINVAL);
	/* Digits alone: no sign, no blank, not empty, any length. */
	assert_true(number_is_digits("0"));
	assert_true(number_is_digits("123456789012345678901234567890"));
	assert_false(number_is_digits(""));
	assert_false(number_is_digits("+1"));
	assert_false(number_is_digits("12 "));
	assert_false(number_is_digits("1a"));
	assert_false(number_is_digits("2026-12-03T07:12:33Z"));
}

static void test_file_atomic_roundtrip(void **state)
{
	char *dir = make_tmpdir(), *path = path_join(dir, "meta.json"), *data = NULL;
	char **names = NULL;
	size_t len = 0, n = 0;

	(void)state;
	assert_int_equal(file_write_atomic(path, "old\n", 4, 0644), 0);
	assert_int_equal(file_write_atomic(path, "new\n", 4, 0644), 0);
	assert_int_equal(file_read(path, 100, &data, &len), 0);
	assert_int_equal(len, 4);
	assert_string_equal(data, "new\n");
	free(data);
	/* No temporaries are left behind. */
	assert_int_equal(dir_list(dir, &names, &n), 0);
	assert_int_equal(n, 1);
	assert_string_equal(names[0], "meta.json");
	strv_free(names);
	/* Too big: error, outputs untouched. */
	data = (char *)"untouched";
	assert_int_equal(file_read(path, 3, &data, &len), -EFBIG);
	assert_string_equal(data, "untouched");
	unlink(path);
	rmdir(dir);
	free(path);
	free(dir);
}

static void test_file_refuses_fifo_and_dir(void **state)
{
	char *dir = make_tmpdir(), *fifo = path_join(dir, "fifo"), *data = NULL;
	size_t len;

	(void)state;
	assert_int_equal(mkfifo(fifo, 0600), 0);
	assert_int_equal(file_read(fifo, 100, &data, &len), -EINVAL);
	assert_int_equal(file_read(dir, 100, &data, &len), -EISDIR);
	assert_int_equal(file_read("/nonexistent/bootab", 100, &data, &len), -ENOENT);
	assert_null(data);
	unlink(fifo);
	rmdir(dir);
	free(fifo);
	free(dir);
}

static void test_write_atomic_fails_cleanly(void **state)
{
	(void)state;
	assert_int_equal(file_write_atomic("/nonexistent-dir/x", "a", 1, 0644), -ENOENT);
}

static void test_dir_create_all(void **state)
{
	char *dir = make_tmpdir(), *deep = path_join(dir, "a/b/c");
	char *cmd;

	(void)state;
	assert_int_equal(dir_create_all(deep, 0755), 0);
	assert_true(path_is_dir(deep));
	assert_int_equal(dir_create_all(deep, 0755), 0);
	cmd = xasprintf("%s/a/file", dir);
	assert_int_equal(file_write_atomic(cmd, "", 0, 0644), 0);
	free(cmd);
	cmd = xasprintf("%s/a/file/x", dir);
	assert_int_equal(dir_create_all(cmd, 0755), -ENOTDIR);
	free(cmd);
	free(deep);
	free(dir);
}

/* A name taken is never shared: the next free name-N, each made by this call. */
static void test_dir_create_new(void **state)
{
	char *dir = make_tmpdir(), *parent = path_join(dir, "runs"), *path = NULL, *name = NULL;

	(void)state;
	assert_int_equal(dir_create_new(parent, "fleet-1", 0755, &path, &name), 0);
	assert_string_equal(name, "fleet-1");
	assert_true(path_is_dir(path));
	free(path);
	free(name);
	assert_int_equal(dir_create_new(parent, "fleet-1", 0755, &path, &name), 0);
	assert_string_equal(name, "fleet-1-2");
	free(name);
	free(path);
	assert_int_equal(dir_create_new(parent, "fleet-1", 0755, &path, NULL), 0);
	assert_string_equal(path + strlen(parent), "/fleet-1-3");
	free(path);
	for (unsigned n = 4; n < 100; n++) {
		assert_int_equal(dir_create_new(parent, "fleet-1", 0755, &path, NULL), 0);
		free(path);
	}
	assert_int_equal(dir_create_new(parent, "fleet-1", 0755, &path, NULL), -EEXIST);
	free(parent);
	parent = xasprintf("%s/file", dir);
	assert_int_equal(file_write_atomic(parent, "", 0, 0644), 0);
	assert_int_equal(dir_create_new(parent, "x", 0755, &path, NULL), -ENOTDIR);
	free(parent);
	free(dir);
}

static void test_paths(void **state)
{
	char *s;

	(void)state;
	s = path_join("/a/", "/b");
	assert_string_equal(s, "/a/b");
	free(s);
	s = path_basename("/x/y/pt2/");
	assert_string_equal(s, "pt2");
	free(s);
	s = path_basename("pt");
	assert_string_equal(s, "pt");
	free(s);
}

static void test_process_capture_and_stdin(void **state)
{
	const char *argv[] = { "sh", "-c", "cat; echo err >&2; exit 3", NULL };
	struct process_options o = { .stdin_data = "hello", .stdin_len = 5 };
	struct process_result r;

	(void)state;
	assert_int_equal(process_run(argv, &o, &r), 0);
	assert_int_equal(r.exit_code, 3);
	assert_string_equal(r.out, "hello");
	assert_string_equal(r.err, "err\n");
	assert_false(r.timed_out);
	process_result_release(&r);
}

static void test_process_timeout_kills_group(void **state)
{
	const char *argv[] = { "sh", "-c", "sleep 30 & sleep 30; echo never", NULL };
	struct process_options o = { .timeout_ms = 300 };
	struct process_result r;

	(void)state;
	assert_int_equal(process_run(argv, &o, &r), 0);
	assert_true(r.timed_out);
	assert_int_equal(r.exit_code, 128 + 9);
	assert_string_equal(r.out, "");
	process_result_release(&r);
}

static void test_process_output_bounded(void **state)
{
	const char *argv[] = { "sh", "-c", "head -c 100000 /dev/zero", NULL };
	struct process_options o = { .max_output = 1000 };
	struct process_result r;

	(void)state;
	assert_int_equal(process_run(argv, &o, &r), 0);
	assert_int_equal(r.out_len, 1000);
	assert_true(r.out_truncated);
	process_result_release(&r);
}

static void test_process_not_found(void **state)
{
	const char *argv[] = { "bootab-no-such-program", NULL };
	struct process_result r = { .exit_code = 77 };

	(void)state;
	assert_int_equal(process_run(argv, NULL, &r), -ENOENT);
	assert_int_equal(r.exit_code, 77);
}

/* Lines as they come, bytes framed between them, the end, the exit status and stderr. */
static void test_process_stream(void **state)
{
	const char *argv[] = { "sh", "-c", "printf 'one\\ntwo\\n'; sleep 0.3; printf 'abc\\nlast'; echo oops >&2; exit 5", NULL };
	struct process_stream s;
	char *line = NULL, *err = NULL;

	(void)state;
	assert_int_equal(process_stream_start(argv, &s), 0);
	assert_int_equal(process_stream_line(&s, 100, 5000, &line), 1);
	assert_string_equal(line, "one");
	free(line);
	assert_int_equal(process_stream_line(&s, 100, 5000, &line), 1);
	assert_string_equal(line, "two");
	free(line);
	/* Nothing whole within 50 ms: a timeout, nothing consumed. */
	line = NULL;
	assert_int_equal(process_stream_line(&s, 100, 50, &line), -ETIMEDOUT);
	assert_null(line);
	assert_int_equal(process_stream_bytes(&s, 4, 5000, &line), 1);
	assert_memory_equal(line, "abc\n", 5);
	free(line);
	/* An unterminated last line is dropped at the end. */
	assert_int_equal(process_stream_line(&s, 100, 5000, &line), 0);
	assert_int_equal(process_stream_finish(&s, false, &err), 5);
	assert_string_equal(err, "oops\n");
	free(err);
}

/* A line longer than max is refused; finish with stop ends a program that would run on. */
static void test_process_stream_long_line_and_stop(void **state)
{
	const char *argv[] = { "sh", "-c", "printf '0123456789\\n'; exec sleep 60", NULL };
	const char *missing[] = { "bootab-no-such-program", NULL };
	struct process_stream s;
	char *line = NULL;

	(void)state;
	assert_int_equal(process_stream_start(missing, &s), -ENOENT);
	assert_int_equal(process_stream_start(argv, &s), 0);
	assert_int_equal(process_stream_line(&s, 5, 5000, &line), -EMSGSIZE);
	assert_null(line);
	assert_int_equal(process_stream_finish(&s, true, NULL), 128 + 15);
}

/*
 * A piped stream: 4 MiB written to cat come back whole (the output is read
 * while the input is written: neither side blocks), then the end of stdin
 * ends it; writing to a program that went away is -EPIPE, not SIGPIPE.
 */
static void test_process_stream_piped(void **state)
{
	const char *cat[] = { "cat", NULL }, *gone[] = { "sh", "-c", "exec 0<&-; echo bye", NULL };
	size_t n = (size_t)4 << 20;
	char *data = xmalloc(n), *back = NULL, *line = NULL;
	struct process_stream s;
	int r = 0;

	(void)state;
	for (size_t i = 0; i < n; i++)
		data[i] = (char)('a' + i % 26);
	assert_int_equal(process_stream_start_piped(cat, &s), 0);
	assert_int_equal(process_stream_write(&s, data, n, 20000), 0);
	process_stream_close_stdin(&s);
	assert_int_equal(process_stream_bytes(&s, n, 20000, &back), 1);
	assert_memory_equal(back, data, n);
	assert_int_equal(process_stream_line(&s, 100, 5000, &line), 0);
	assert_int_equal(process_stream_finish(&s, false, NULL), 0);
	free(back);
	assert_int_equal(process_stream_start_piped(gone, &s), 0);
	assert_int_equal(process_stream_line(&s, 100, 5000, &line), 1);
	assert_string_equal(line, "bye");
	free(line);
	for (int i = 0; i < 50 && r == 0; i++)
		r = process_stream_write(&s, data, 65536, 5000);
	assert_int_equal(r, -EPIPE);
	assert_int_equal(process_stream_finish(&s, false, NULL), 0);
	free(data);
}

static void test_parse_error(void **state)
{
	struct parse_error e = PARSE_ERROR_INIT;
	unsigned line, col;
	char *s;

	(void)state;
	text_position("ab\ncd\nef", 7, &line, &col);
	assert_int_equal(line, 3);
	assert_int_equal(col, 2);
	parse_error_set_file(&e, "pt/fio.json");
	parse_error_set(&e, 3, 2, "expected '%c'", '}');
	s = parse_error_format(&e);
	assert_string_equal(s, "pt/fio.json:3:2: expected '}'");
	free(s);
	parse_error_release(&e);
}

static void test_timestamp(void **state)
{
	static const struct {
		const char *text;
		int r;
		double want;
	} cases[] = {
		/* 2025-03-01T00:00:00Z is 1740787200 (date -u -d @1740787200). */
		{ "2025-03-01T00:00:00Z", 0, 1740787200 },
		{ "2025-03-01T10:42:07Z", 0, 1740787200 + 38527 },
		{ "2025-03-01T11:42:07.25+01:00", 0, 1740787200 + 38527.25 },
		{ "2025-02-28t19:12:07-05:30", 0, 1740787200 + 2527 },
		{ "2025-03-01 10:42:07z", 0, 1740787200 + 38527 },
		/* The second timegm() answers with -1, and those around it. */
		{ "1969-12-31T23:59:59Z", 0, -1 },
		{ "1969-12-31T23:59:58Z", 0, -2 },
		{ "1970-01-01T00:00:00Z", 0, 0 },
		/* February 29th: leap years only (2000 is one, 1900 and 2025 not). */
		{ "2000-02-29T00:00:00Z", 0, 951782400 },
		{ "2024-02-29T00:00:00Z", 0, 1709164800 },
		{ "2025-02-29T00:00:00Z", -EINVAL, 0 },
		{ "1900-02-29T00:00:00Z", -EINVAL, 0 },
		{ "2025-04-31T00:00:00Z", -EINVAL, 0 },
		{ "2025-03-01T10:42:07", -EINVAL, 0 },
		{ "2025-03-01T10:42:07.Z", -EINVAL, 0 },
		{ "2025-13-01T10:42:07Z", -EINVAL, 0 },
		{ "2025-03-01T10:42:07Z trailing", -EINVAL, 0 },
		{ "2025-3-01T10:42:07Z", -EINVAL, 0 },
		{ "", -EINVAL, 0 },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		double t = 42;

		print_message("%s\n", cases[i].text);
		assert_int_equal(timestamp_parse_rfc3339(cases[i].text, &t), cases[i].r);
		if (cases[i].r == 0)
			assert_true(fabs(t - cases[i].want) < 1e-6);
		else
			assert_true(t == 42);
	}
}

/* What a terminal could act on becomes visible; UTF-8 text, newlines and tabs stay. */
static void test_text_escape(void **state)
{
	static const struct {
		const char *in, *out;
		unsigned flags;
	} cases[] = {
		{ "plain text", "plain text", 0 },
		{ "d\xc3\xa9" "bit \xe2\x86\x92 \xe2\x9c\x93 \xf0\x9f\x98\x80", "d\xc3\xa9" "bit \xe2\x86\x92 \xe2\x9c\x93 \xf0\x9f\x98\x80", 0 },
		{ "a\x1b[2Jb", "a\\x1b[2Jb", 0 },
		{ "over\rwrite", "over\\x0dwrite", 0 },
		{ "bs\b\x7f", "bs\\x08\\x7f", 0 },
		{ "two\nlines\tand a tab", "two\nlines\tand a tab", 0 },
		{ "one\nline", "one\\x0aline", TEXT_ESCAPE_NEWLINE },
		/* C1: U+009B is CSI; U+0085 NEL. */
		{ "x\xc2\x9b" "2Jy\xc2\x85", "x\\u{009B}2Jy\\u{0085}", 0 },
		/* U+00A0 is not a control. */
		{ "nb\xc2\xa0sp", "nb\xc2\xa0sp", 0 },
		/* Bidi override and isolate (Trojan Source). */
		{ "ok\xe2\x80\xae" "deliF\xe2\x81\xa6", "ok\\u{202E}deliF\\u{2066}", 0 },
		/* Not UTF-8: a lone continuation, an overlong '/', a surrogate, a cut sequence. */
		{ "\x80\xc0\xaf\xed\xa0\x80\xe2\x82", "\\x80\\xc0\\xaf\\xed\\xa0\\x80\\xe2\\x82", 0 },
	};
	static const char *const allow[] = { "\033[32m", "\033[0m", NULL };
	struct strbuf sb = STRBUF_INIT;

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		strbuf_truncate(&sb, 0);
		text_escape_append(&sb, cases[i].in, strlen(cases[i].in), cases[i].flags, NULL);
		assert_string_equal(strbuf_str(&sb), cases[i].out);
		/* Escaping escaped text changes nothing. */
		{
			char *again = text_escape(strbuf_str(&sb));

			assert_string_equal(again, cases[i].out);
			free(again);
		}
	}
	/* The colours bootab writes itself pass; any other escape does not. */
	strbuf_truncate(&sb, 0);
	text_escape_append(&sb, "\033[32mgood\033[0m \033[1A", 18, 0, allow);
	assert_string_equal(strbuf_str(&sb), "\033[32mgood\033[0m \\x1b[1A");
	assert_true(utf8_printable("d\xc3\xa9" "bit", 6));
	assert_false(utf8_printable("tab\there", 8));
	assert_false(utf8_printable("c1\xc2\x9b", 4));
	assert_false(utf8_printable("\xff", 1));
	strbuf_release(&sb);
}

/* Patterns regcomp() would take gigabytes or minutes over are refused first; ordinary ones compile. */
static void test_pattern_compile(void **state)
{
	static const struct {
		const char *pattern;
		int rc;
		const char *message;
	} cases[] = {
		{ "^average map latency\\(us\\):([0-9.]+)", 0, NULL },
		{ "took ( *[0-9]+) ms|(ab)*|a?b?c{0,3}|(x|y)+|\\b([0-9]+)\\b|[*]+|a{2,}", 0, NULL },
		{ "((a{255}){255}){255}", -E2BIG, "copy it more than 100000 times over" },
		{ "a (b x++++++++++++++++++++++++++++++", -E2BIG, "copy it more than 100000 times over" },
		{ "^a**m", -E2BIG, "repeats what can match nothing" },
		{ "([0-9]*?)", -E2BIG, "POSIX has no lazy '*?'" },
		{ "(a?)+", -E2BIG, "repeats what can match nothing" },
		{ "(a|)*", -E2BIG, "repeats what can match nothing" },
		{ "(|a){2}", -E2BIG, "repeats what can match nothing" },
		{ "(a*b*){0,4}", -E2BIG, "repeats what can match nothing" },
		{ "^*", -E2BIG, "repeats what can match nothing" },
		{ "x\\b+", -E2BIG, "repeats what can match nothing" },
		{ "(a*b)*", 0, NULL },
		{ "((a+)+)+\\2b", -EINVAL, "a back-reference ('\\2'): POSIX extended patterns have none" },
		{ "(x)\\1", -EINVAL, "back-reference ('\\1')" },
		{ "(a)(b)(c)(d)(e)(f)(g)(h)(i)\\9", -EINVAL, "back-reference ('\\9')" },
		{ "[\\1]x\\\\1\\.", 0, NULL },
		{ "a(", -EINVAL, "Unmatched ( or \\(" },
	};
	char long_pattern[PATTERN_LENGTH_MAX + 2];

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		regex_t re;
		char *error = NULL;
		int r = pattern_compile(&re, cases[i].pattern, 0, &error);

		print_message("%s\n", cases[i].pattern);
		assert_int_equal(r, cases[i].rc);
		if (r == 0) {
			assert_null(error);
			regfree(&re);
		} else {
			assert_non_null(strstr(error, cases[i].message));
			free(error);
		}
	}
	memset(long_pattern, 'a', sizeof(long_pattern) - 1);
	long_pattern[sizeof(long_pattern) - 1] = '\0';
	{
		regex_t re;
		char *error = NULL;

		assert_int_equal(pattern_compile(&re, long_pattern, 0, &error), -E2BIG);
		assert_string_equal(error, "the pattern is longer than 1024 bytes");
		free(error);
		long_pattern[PATTERN_LENGTH_MAX] = '\0';
		assert_int_equal(pattern_compile(&re, long_pattern, REG_NOSUB, &error), 0);
		regfree(&re);
	}
}

static void test_secret_hold(void **state)
{
	struct rlimit before, now;

	(void)state;
	/* A process that could dump a core: dumpable, a core limit above 0. */
	assert_int_equal(prctl(PR_SET_DUMPABLE, 1, 0, 0, 0), 0);
	assert_int_equal(getrlimit(RLIMIT_CORE, &before), 0);
	before.rlim_cur = before.rlim_max;
	assert_int_equal(setrlimit(RLIMIT_CORE, &before), 0);
	if (before.rlim_cur == 0)
		skip();
	assert_int_equal(secret_hold(), 0);
	assert_int_equal(prctl(PR_GET_DUMPABLE, 0, 0, 0, 0), 0);
	assert_int_equal(getrlimit(RLIMIT_CORE, &now), 0);
	assert_int_equal(now.rlim_cur, 0);
	/* Nested: still held until the last release. */
	assert_int_equal(secret_hold(), 0);
	secret_release();
	assert_int_equal(prctl(PR_GET_DUMPABLE, 0, 0, 0, 0), 0);
	assert_int_equal(getrlimit(RLIMIT_CORE, &now), 0);
	assert_int_equal(now.rlim_cur, 0);
	secret_release();
	/* Put back as it was. */
	assert_int_equal(prctl(PR_GET_DUMPABLE, 0, 0, 0, 0), 1);
	assert_int_equal(getrlimit(RLIMIT_CORE, &now), 0);
	assert_int_equal(now.rlim_cur, before.rlim_cur);
	assert_int_equal(now.rlim_max, before.rlim_max);
	/* A release without a hold changes nothing. */
	secret_release();
	assert_int_equal(prctl(PR_GET_DUMPABLE, 0, 0, 0, 0), 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_strbuf),
		cmocka_unit_test(test_text_escape),
		cmocka_unit_test(test_strvec),
		cmocka_unit_test(test_parse_number),
		cmocka_unit_test(test_pattern_compile),
		cmocka_unit_test(test_file_atomic_roundtrip),
		cmocka_unit_test(test_file_refuses_fifo_and_dir),
		cmocka_unit_test(test_write_atomic_fails_cleanly),
		cmocka_unit_test(test_dir_create_all),
		cmocka_unit_test(test_dir_create_new),
		cmocka_unit_test(test_paths),
		cmocka_unit_test(test_process_capture_and_stdin),
		cmocka_unit_test(test_process_timeout_kills_group),
		cmocka_unit_test(test_process_output_bounded),
		cmocka_unit_test(test_process_not_found),
		cmocka_unit_test(test_process_stream),
		cmocka_unit_test(test_process_stream_long_line_and_stop),
		cmocka_unit_test(test_process_stream_piped),
		cmocka_unit_test(test_parse_error),
		cmocka_unit_test(test_timestamp),
		cmocka_unit_test(test_secret_hold),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
