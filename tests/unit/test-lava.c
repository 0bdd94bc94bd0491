/* Unit tests for src/lava/lava-job.c and lava-results.c: the job a boot becomes, and LAVA's answers read back. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "campaign/runner.h"
#include "lava/lava.h"
#include "plan/plan.h"
#include "results/fetch.h"
#include "kernel/snapshot.h"
#include "lib/alloc.h"
#include "lib/base64.h"
#include "lib/clock.h"
#include "lib/escape.h"
#include "lib/file.h"
#include "lib/strbuf.h"

static const char plan_text[] =
	"[campaign]\ntarget = lava\nreps = 2\nboot_timeout = 300\n"
	"[mode \"standing\"]\n[mode \"pti\"]\nargs = pti=on\n"
	"[row \"loop\"]\ncommand = echo 'it''s' \"$HOME\"\nparser = number\nbetter = lower\n"
	"[lava]\nurl = http://127.0.0.1:8765\ntags = bootab-lab\ndevice = bootab-qemu-01\n"
	"token_env = LAVA_TOKEN\nkernel = file:///srv/lab/vmlinuz\ninitramfs = file:///srv/lab/initrd.cpio.gz\n"
	"prompt = lab\"\\# \n";

static void load_plan(struct plan *p)
{
	struct parse_error err = PARSE_ERROR_INIT;

	if (plan_parse("lava.ini", plan_text, p, &err) < 0)
		fail_msg("%u: %s", err.line, err.message);
	parse_error_release(&err);
}

/* The steps' base64 chunks, joined and decoded: the script the job runs. */
static char *script_of_job(const char *job)
{
	struct strbuf enc = STRBUF_INIT, dec = STRBUF_INIT;
	const char *p = job;

	while ((p = strstr(p, "- \"printf '%s' '"))) {
		const char *q;

		p += strlen("- \"printf '%s' '");
		q = strchr(p, '\'');
		assert_non_null(q);
		strbuf_add(&enc, p, (size_t)(q - p));
		p = q;
	}
	assert_int_equal(base64_decode_append(&dec, strbuf_str(&enc), enc.len), 0);
	strbuf_release(&enc);
	return strbuf_detach(&dec, NULL);
}

static void test_job_definition(void **state)
{
	static const char *const snap_args[] = { "param:pti.x", "file:/sys/a b", NULL };
	static char pti[] = "pti=on";
	char *args[] = { pti, NULL };
	struct lava_boot b = {
		.campaign = "lava-20261202-030000", .boot_index = 1, .n_boots = 3, .label = "pti", .mode = "pti",
		.args = args, .snapshot_args = snap_args,
	};
	struct runner_options ro = { .campaign = b.campaign, .boot_index = b.boot_index, .n_boots = b.n_boots,
				     .label = b.label, .mode = b.mode };
	struct plan p;
	char *job, *script, *want, *runner;

	(void)state;
	load_plan(&p);
	runner = runner_generate(&p, &ro);
	b.runner = runner;
	b.fetch_limit = FETCH_FILE_LIMIT;
	job = lava_job_definition(&p, &b);
	/* Pinned by tag, the device type's deploy and boot, the mode's args on -append and in the context. */
	assert_non_null(strstr(job, "device_type: \"qemu\"\n"));
	assert_non_null(strstr(job, "job_name: \"bootab lava-20261202-030000 boot 2/3 pti\"\n"));
	assert_non_null(strstr(job, "tags:\n- \"bootab-lab\"\n"));
	assert_non_null(strstr(job, "  extra_kernel_args: \"console=ttyS0,115200 pti=on\"\n"));
	assert_non_null(strstr(job, "        image_arg: \"-kernel {kernel} -append \\\"console=ttyS0,115200 pti=on\\\"\"\n"));
	assert_non_null(strstr(job, "        url: \"file:///srv/lab/vmlinuz\"\n"));
	assert_non_null(strstr(job, "    to: tmpfs\n"));
	assert_non_null(strstr(job, "    method: qemu\n"));
	assert_non_null(strstr(job, "  job:\n    seconds: 1800\n"));
	assert_non_null(strstr(job, "- boot:\n    timeout:\n      seconds: 300\n"));
	/* The prompt's quote and backslash escaped: the scalar ends where it should. */
	assert_non_null(strstr(job, "    prompts:\n    - \"lab\\\"\\\\#\"\n"));
	assert_non_null(strstr(job, "          - \"base64 -d /tmp/bootab-lava.b64 > /tmp/bootab-lava.sh && sh /tmp/bootab-lava.sh\"\n"));
	/* No line of the job carries a raw control character or a bare quote of the plan. */
	for (const char *c = job; *c; c++)
		assert_true(*c == '\n' || (unsigned char)*c >= 0x20);

	script = script_of_job(job);
	want = lava_boot_script(&b);
	assert_string_equal(script, want);
	/* The snapshot scripts, the fetch and the rows' runner, each a file of its own. */
	assert_non_null(strstr(script, "cat > snapshot.sh <<'BOOTAB_LAVA_EOF_0'\nROOT=''\n"));
	assert_non_null(strstr(script, "cat > kernel-id.sh <<'BOOTAB_LAVA_EOF_0'\n"));
	assert_non_null(strstr(script, "cat > inventory.sh <<'BOOTAB_LAVA_EOF_0'\n"));
	assert_non_null(strstr(script, "cat > run-fetch.sh <<'BOOTAB_LAVA_EOF_0'\n"));
	assert_non_null(strstr(script, "cat > run/run.sh <<'BOOTAB_LAVA_EOF_0'\n#!/bin/sh\n# bootab per-boot script: campaign lava-20261202-030000, boot 2 of 3, pti (mode pti).\n"));
	/* The row's command as the runner quotes it. */
	assert_non_null(strstr(script, "cmd='echo '\\''it'\\'''\\''s'\\'' \"$HOME\"'\n"));
	/* snapshot.sh's args, each one shell word. */
	assert_non_null(strstr(script, "sh snapshot.sh 'param:pti.x' 'file:/sys/a b' > snapshot.out"));
	assert_non_null(strstr(script, "lava-test-case \"$row.$rep\" --result \"$res\" --measurement \"$secs\" --units s\n"));
	assert_non_null(strstr(script, "sh run-fetch.sh \"$d/run\" 1073741824 > fetch.out\n"));
	assert_non_null(strstr(script, "bootab_put fetch fetch.out\n"));
	free(runner);
	free(want);
	free(script);
	free(job);
	plan_release(&p);
}

/* A heredoc delimiter that a line of the text is gets another number. */
static void test_job_heredoc_delimiter(void **state)
{
	struct plan p;
	struct parse_error err = PARSE_ERROR_INIT;
	char *args[] = { NULL };
	struct lava_boot b = { .campaign = "c", .n_boots = 1, .label = "a", .mode = "a", .args = args };
	struct runner_options ro = { .campaign = "c", .n_boots = 1, .label = "a", .mode = "a" };
	char *script, *runner;

	(void)state;
	assert_int_equal(plan_parse("lava.ini",
				    "[campaign]\ntarget = lava\n[mode \"a\"]\n[row \"r\"]\ncommand = true\n"
				    "command = BOOTAB_LAVA_EOF_0\ncommand = false\nparser = number\nbetter = lower\n"
				    "[lava]\nurl = http://l\ndevice = d\ntoken_env = T\nkernel = file:///k\n"
				    "initramfs = file:///i\nprompt = #\n", &p, &err), 0);
	runner = runner_generate(&p, &ro);
	b.runner = runner;
	script = lava_boot_script(&b);
	assert_non_null(strstr(script, "cat > run/run.sh <<'BOOTAB_LAVA_EOF_1'\n"));
	assert_non_null(strstr(script, "\nBOOTAB_LAVA_EOF_1\n"));
	free(script);
	free(runner);
	plan_release(&p);
	parse_error_release(&err);
}

static char *fixture(const char *name, size_t *ret_len)
{
	char *path = xasprintf("%s/lava/%s", FIXTURES, name), *data;

	assert_int_equal(file_read(path, 64 << 20, &data, ret_len), 0);
	free(path);
	return data;
}

static void test_submit_and_status(void **state)
{
	struct parse_error err = PARSE_ERROR_INIT;
	struct lava_job_status st = { .id = 99 };
	size_t len;
	char *text;
	long id = 0;

	(void)state;
	text = fixture("submitted.json", &len);
	assert_int_equal(lava_submit_parse(text, len, &id, &err), 0);
	assert_true(id > 0);
	free(text);
	text = fixture("job-finished.json", &len);
	assert_int_equal(lava_job_status_parse(text, len, &st, &err), 0);
	assert_int_equal(st.id, id);
	assert_string_equal(st.state, "Finished");
	assert_string_equal(st.health, "Complete");
	assert_string_equal(st.actual_device, "bootab-qemu-01");
	free(text);
	lava_job_status_release(&st);

	/* Answers that are not a job's: one message, nothing written. */
	id = 7;
	text = xstrdup("{\"message\": \"Invalid job definition\"}");
	assert_int_equal(lava_submit_parse(text, strlen(text), &id, &err), -EINVAL);
	free(text);
	assert_int_equal(id, 7);
	assert_string_equal(err.message, "no job id (job_ids): Invalid job definition");
	assert_int_equal(lava_submit_parse("<html>", 6, &id, &err), -EINVAL);
	assert_non_null(strstr(err.message, "not JSON"));
	st.id = 99;
	text = xstrdup("{\"id\": 5, \"state\": 3, \"health\": \"Complete\"}");
	assert_int_equal(lava_job_status_parse(text, strlen(text), &st, &err), -EINVAL);
	free(text);
	assert_string_equal(err.message, "state: not a string");
	assert_int_equal(st.id, 99);
	parse_error_release(&err);
}

/* The real log of a job of bootab's: every block back, whole, and each snapshot script's output read on its own. */
static void test_log_files(void **state)
{
	static const char *const scripts[] = { "snapshot", "kernel-id", "inventory" };
	struct parse_error err = PARSE_ERROR_INIT;
	struct snapshot_text texts[3];
	struct lava_files files;
	struct snapshot snap;
	char *log;
	size_t len;

	(void)state;
	log = fixture("job-log.yaml", &len);
	assert_int_equal(lava_log_files(log, len, &files, &err), 0);
	assert_int_equal(files.n, 4);
	for (size_t i = 0; i < 3; i++) {
		const struct lava_file *f = lava_files_find(&files, scripts[i]);

		assert_non_null(f);
		texts[i] = (struct snapshot_text){ f->data, f->len };
	}
	assert_non_null(lava_files_find(&files, "fetch"));
	assert_true(!strncmp(lava_files_find(&files, "fetch")->data, "bootab-fetch 1\n", 15));
	assert_int_equal(snapshot_parse_scripts(texts, 3, &snap, &err, NULL), 0);
	assert_non_null(strstr(snap.cmdline, "pti=on"));
	assert_string_equal(snap.kernel, "6.1.0-57-amd64");
	/* kernel-id.sh's build id and inventory.sh's devices, read from their own blocks. */
	assert_non_null(snap.build_id);
	assert_int_equal(snap.inventory.n_pci, 6);
	snapshot_release(&snap);
	lava_files_release(&files);
	free(log);
	parse_error_release(&err);
}

/* A log cut short, a block whose size is not the announced one, a record that is not JSON: one error, nothing kept. */
static void test_log_malformed(void **state)
{
	static const struct {
		const char *text;
		unsigned line;
		const char *message;
	} cases[] = {
		{ "- {\"dt\": \"x\", \"lvl\": \"target\", \"msg\": \"bootab-lava-begin fetch 3\"}\n"
		  "- {\"dt\": \"x\", \"lvl\": \"target\", \"msg\": \"YWJj\"}\n",
		  1, "block 'fetch' has no end: the log stops inside it" },
		{ "- {\"dt\": \"x\", \"lvl\": \"target\", \"msg\": \"bootab-lava-begin fetch 4\"}\n"
		  "- {\"dt\": \"x\", \"lvl\": \"target\", \"msg\": \"YWJj\"}\n"
		  "- {\"dt\": \"x\", \"lvl\": \"target\", \"msg\": \"bootab-lava-end fetch\"}\n",
		  3, "block 'fetch' holds 3 bytes, not the 4 its begin line announced (line 1)" },
		{ "- {\"dt\": \"x\", \"lvl\": \"target\", \"msg\": \"bootab-lava-begin fetch 3\"}\n"
		  "- {\"dt\": \"x\", \"lvl\": \"target\", \"msg\": \"YW*j\"}\n",
		  2, "block 'fetch' (begun on line 1): not base64" },
		{ "- {\"dt\": \"x\", \"lvl\": \"target\", \"msg\": \"bootab-lava-begin fetch 3\"}\n"
		  "- {\"dt\": \"x\", \"lvl\": \"target\", \"msg\": \"YWJj\n",
		  2, "a target record that is not JSON" },
		{ "- {\"dt\": \"x\", \"lvl\": \"target\", \"msg\": \"bootab-lava-begin ../x 3\"}\n",
		  1, "'../x' is not a file name bootab's test script prints" },
		{ "- {\"dt\": \"x\", \"lvl\": \"target\", \"msg\": \"bootab-lava-end fetch\"}\n",
		  1, "the end of block 'fetch' without its begin" },
		{ "- {\"dt\": \"x\", \"lvl\": \"target\", \"msg\": \"bootab-lava-begin b 0\"}\n"
		  "- {\"dt\": \"x\", \"lvl\": \"target\", \"msg\": \"bootab-lava-end b\"}\n"
		  "- {\"dt\": \"x\", \"lvl\": \"target\", \"msg\": \"bootab-lava-begin a 0\"}\n"
		  "- {\"dt\": \"x\", \"lvl\": \"target\", \"msg\": \"bootab-lava-end a\"}\n"
		  "- {\"dt\": \"x\", \"lvl\": \"target\", \"msg\": \"bootab-lava-begin a 0\"}\n"
		  "- {\"dt\": \"x\", \"lvl\": \"target\", \"msg\": \"bootab-lava-end a\"}\n"
		  "- {\"dt\": \"x\", \"lvl\": \"target\", \"msg\": \"bootab-lava-begin b 0\"}\n"
		  "- {\"dt\": \"x\", \"lvl\": \"target\", \"msg\": \"bootab-lava-end b\"}\n",
		  5, "block 'a' is given twice" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct parse_error err = PARSE_ERROR_INIT;
		struct lava_files files = { .n = 42 };

		print_message("case %zu\n", i);
		assert_int_equal(lava_log_files(cases[i].text, strlen(cases[i].text), &files, &err), -EINVAL);
		assert_int_equal(files.n, 42);
		assert_int_equal(err.line, cases[i].line);
		assert_string_equal(err.message, cases[i].message);
		parse_error_release(&err);
	}
}

/* A log of n one-byte blocks, each a name of its own; the seconds lava_log_files() takes over it. */
static double log_of_blocks_s(size_t n)
{
	struct parse_error err = PARSE_ERROR_INIT;
	struct strbuf sb = STRBUF_INIT;
	struct lava_files files;
	double t;

	for (size_t i = 0; i < n; i++)
		strbuf_addf(&sb, "- {\"dt\": \"x\", \"lvl\": \"target\", \"msg\": \"bootab-lava-begin b%zu 1\"}\n"
				 "- {\"dt\": \"x\", \"lvl\": \"target\", \"msg\": \"eA==\"}\n"
				 "- {\"dt\": \"x\", \"lvl\": \"target\", \"msg\": \"bootab-lava-end b%zu\"}\n", i, i);
	t = clock_now_s();
	assert_int_equal(lava_log_files(sb.buf, sb.len, &files, &err), 0);
	t = clock_now_s() - t;
	assert_int_equal(files.n, n);
	lava_files_release(&files);
	strbuf_release(&sb);
	return t;
}

/*
 * A log of many blocks is read in time linear in them (a name was once
 * looked up among all before it: 100,000 blocks took 12.6 s, 200,000
 * 49.7 s). Four times the blocks must cost about four times the time, not
 * sixteen: the bound (9x) leaves room for a loaded machine. Timing under
 * valgrind says nothing about the algorithm.
 */
static void test_log_many_blocks_linear(void **state)
{
	const char *lane = getenv("BOOTAB_TEST_NO_LAB");
	double small, large;

	(void)state;
	if (lane && !strcmp(lane, "check-valgrind"))
		skip();
	small = log_of_blocks_s(20000);
	large = log_of_blocks_s(80000);
	print_message("20000 blocks %.3f s, 80000 blocks %.3f s\n", small, large);
	assert_true(large / (small > 0.01 ? small : 0.01) < 9);
}

/* Kernel messages between a block's lines and records of other levels are skipped. */
static void test_log_skips(void **state)
{
	static const char text[] =
		"- {\"dt\": \"x\", \"lvl\": \"results\", \"msg\": {\"case\": \"a\", \"endtc\": ! \"588\"}}\n"
		"- {\"dt\": \"x\", \"lvl\": \"target\", \"msg\": \"+ bootab-lava-begin x 1\"}\n"
		"- {\"dt\": \"x\", \"lvl\": \"target\", \"msg\": \"bootab-lava-begin fetch 6\"}\n"
		"- {\"dt\": \"x\", \"lvl\": \"target\", \"msg\": \"YWJj\\r\"}\n"
		"- {\"dt\": \"x\", \"lvl\": \"target\", \"msg\": \"[   12.441416] random: crng init done\"}\n"
		"- {\"dt\": \"x\", \"lvl\": \"debug\", \"msg\": \"Received signal\"}\n"
		"- {\"dt\": \"x\", \"lvl\": \"target\", \"msg\": \"ZGVm\"}\n"
		"- {\"dt\": \"x\", \"lvl\": \"target\", \"msg\": \"bootab-lava-end fetch\"}\n";
	struct parse_error err = PARSE_ERROR_INIT;
	struct lava_files files;

	(void)state;
	assert_int_equal(lava_log_files(text, strlen(text), &files, &err), 0);
	assert_int_equal(files.n, 1);
	assert_string_equal(files.v[0].data, "abcdef");
	lava_files_release(&files);
	parse_error_release(&err);
}

/* Jobs that did not complete, as LAVA answered: their health, and the reason their log gives. */
static void test_failed_jobs(void **state)
{
	struct parse_error err = PARSE_ERROR_INIT;
	struct lava_job_status st;
	char *text, *why = NULL;
	size_t len;

	(void)state;
	text = fixture("job-incomplete.json", &len);
	assert_int_equal(lava_job_status_parse(text, len, &st, &err), 0);
	assert_string_equal(st.state, "Finished");
	assert_string_equal(st.health, "Incomplete");
	assert_null(st.failure_comment);
	lava_job_status_release(&st);
	free(text);
	text = fixture("job-incomplete-log.yaml", &len);
	assert_int_equal(lava_log_job_error(text, len, &why), 0);
	assert_string_equal(why, "Job error: Invalid job data: [\"Image file '/tmp/lava8/images/missing.cpio.gz' does not exist or is not readable\"]");
	free(why);
	free(text);
	/* A complete job's log names no error. */
	text = fixture("job-log.yaml", &len);
	assert_int_equal(lava_log_job_error(text, len, &why), -ENOENT);
	free(text);
	text = fixture("job-canceled.json", &len);
	assert_int_equal(lava_job_status_parse(text, len, &st, &err), 0);
	assert_string_equal(st.health, "Canceled");
	assert_null(st.actual_device);
	lava_job_status_release(&st);
	free(text);
	parse_error_release(&err);
}

/*
 * A server's 1 MB field (a failure comment, a submit message, a job error)
 * is cut to LAVA_FIELD_MAX bytes at a UTF-8 boundary, its length said.
 */
static void test_field_cut(void **state)
{
	struct parse_error err = PARSE_ERROR_INIT;
	struct lava_job_status st;
	struct strbuf big = STRBUF_INIT;
	char *text, *why = NULL;
	long id = 0;

	(void)state;
	strbuf_addstr(&big, "x");
	for (int i = 0; i < 500000; i++)
		strbuf_addstr(&big, "\xc3\xa9");
	text = xasprintf("{\"id\": 5, \"state\": \"Finished\", \"health\": \"Incomplete\", \"failure_comment\": \"%s\"}",
			 big.buf);
	assert_int_equal(lava_job_status_parse(text, strlen(text), &st, &err), 0);
	free(text);
	assert_true(strlen(st.failure_comment) <= LAVA_FIELD_MAX + 32);
	assert_true(utf8_printable(st.failure_comment, strlen(st.failure_comment)));
	assert_int_equal(strncmp(st.failure_comment, big.buf, LAVA_FIELD_MAX - 1), 0);
	assert_non_null(strstr(st.failure_comment, "... (1000001 bytes)"));
	lava_job_status_release(&st);
	text = xasprintf("{\"message\": \"%s\"}", big.buf);
	assert_int_equal(lava_submit_parse(text, strlen(text), &id, &err), -EINVAL);
	free(text);
	assert_true(strlen(err.message) <= LAVA_FIELD_MAX + 64);
	text = xasprintf("- {\"dt\": \"2026-01-01T00:00:00\", \"lvl\": \"error\", \"msg\": \"%s\"}\n", big.buf);
	assert_int_equal(lava_log_job_error(text, strlen(text), &why), 0);
	free(text);
	assert_true(strlen(why) <= LAVA_FIELD_MAX + 32);
	free(why);
	strbuf_release(&big);
	parse_error_release(&err);
}

static void test_base64(void **state)
{
	static const char *const plain[] = { "", "a", "ab", "abc", "abcd", "\x00\xff\x10" };
	static const char *const bad[] = { "YWJ", "YW=j", "Y===", "YWJj=", "YWJ\n" };

	(void)state;
	for (size_t i = 0; i < sizeof(plain) / sizeof(plain[0]); i++) {
		struct strbuf enc = STRBUF_INIT, dec = STRBUF_INIT;
		size_t n = i == 5 ? 3 : strlen(plain[i]);

		base64_encode_append(&enc, plain[i], n);
		assert_int_equal(enc.len % 4, 0);
		assert_int_equal(base64_decode_append(&dec, strbuf_str(&enc), enc.len), 0);
		assert_int_equal(dec.len, n);
		assert_memory_equal(strbuf_str(&dec), plain[i], n);
		strbuf_release(&enc);
		strbuf_release(&dec);
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct strbuf dec = STRBUF_INIT;

		assert_int_equal(base64_decode_append(&dec, bad[i], strlen(bad[i])), -EINVAL);
		strbuf_release(&dec);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_job_definition),
		cmocka_unit_test(test_job_heredoc_delimiter),
		cmocka_unit_test(test_submit_and_status),
		cmocka_unit_test(test_log_files),
		cmocka_unit_test(test_log_malformed),
		cmocka_unit_test(test_log_many_blocks_linear),
		cmocka_unit_test(test_log_skips),
		cmocka_unit_test(test_failed_jobs),
		cmocka_unit_test(test_field_cut),
		cmocka_unit_test(test_base64),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
