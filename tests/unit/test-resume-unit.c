/*
 * Unit tests for src/resume-unit: the quoting systemd reads back
 * (systemd.service(5) "Command lines", systemd.unit(5) "Specifiers"), the
 * unit text, and installing and removing it in a tree.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "lib/alloc.h"
#include "lib/file.h"
#include "lib/process.h"
#include "campaign/resume-unit.h"

static void test_quote(void **state)
{
	static const struct {
		const char *word;
		enum resume_unit_word kind;
		const char *quoted;
	} cases[] = {
		{ "run", RESUME_UNIT_ARG, "\"run\"" },
		{ "/srv/runs/a b", RESUME_UNIT_ARG, "\"/srv/runs/a b\"" },
		{ "100%", RESUME_UNIT_ARG, "\"100%%\"" },
		{ "$HOME", RESUME_UNIT_ARG, "\"$$HOME\"" },
		{ "say \"hi\"", RESUME_UNIT_ARG, "\"say \\\"hi\\\"\"" },
		{ "back\\slash", RESUME_UNIT_ARG, "\"back\\\\slash\"" },
		{ "/opt/bootab 1%/bootab", RESUME_UNIT_EXEC, "\"/opt/bootab 1%%/bootab\"" },
		{ "/opt/$x/bootab", RESUME_UNIT_EXEC, "\"/opt/$x/bootab\"" },
		{ "HOME=/home/$me 5%", RESUME_UNIT_ENV, "\"HOME=/home/$me 5%%\"" },
	};
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *q = resume_unit_quote(cases[i].word, cases[i].kind);

		assert_non_null(q);
		assert_string_equal(q, cases[i].quoted);
		free(q);
	}
	/* What systemd cannot take is refused, never mangled. */
	assert_null(resume_unit_quote("two\nlines", RESUME_UNIT_ARG));
	assert_null(resume_unit_quote("tab\there", RESUME_UNIT_ENV));
	assert_null(resume_unit_quote("/opt/a\"b/bootab", RESUME_UNIT_EXEC));
	assert_null(resume_unit_quote("/opt/a\\b/bootab", RESUME_UNIT_EXEC));
}

static void test_text(void **state)
{
	const char *argv[] = { "/usr/bin/bootab", "run", "--resume", "/srv/runs/x 1", NULL };
	const char *env[] = { "HOME=/root", NULL };
	struct resume_unit u = { .argv = argv, .env = env, .campaign_dir = "/srv/runs/x 1", .campaign_name = "x 1" };
	char *t = resume_unit_text(&u);

	(void)state;
	assert_non_null(t);
	assert_non_null(strstr(t, "\nX-Bootab-Campaign=/srv/runs/x 1\n"));
	assert_non_null(strstr(t, "\nEnvironment=\"HOME=/root\"\n"));
	assert_non_null(strstr(t, "\nExecStart=\"/usr/bin/bootab\" \"run\" \"--resume\" \"/srv/runs/x 1\"\n"));
	assert_non_null(strstr(t, "\n[Install]\nWantedBy=multi-user.target\n"));
	free(t);
	/* A relative program, a relative directory, a directory that would continue the line. */
	argv[0] = "bootab";
	assert_null(resume_unit_text(&u));
	argv[0] = "/usr/bin/bootab";
	u.campaign_dir = "runs/x";
	assert_null(resume_unit_text(&u));
	u.campaign_dir = "/srv/runs/x\\";
	assert_null(resume_unit_text(&u));
	u.campaign_dir = "/srv/runs/x\ny";
	assert_null(resume_unit_text(&u));
}

static void test_install_remove(void **state)
{
	char root[] = "/tmp/bootab-unit-XXXXXX";
	const char *argv[] = { "/usr/bin/bootab", "run", "--resume", "/srv/a", NULL };
	struct resume_unit a = { .argv = argv, .campaign_dir = "/srv/a", .campaign_name = "a" };
	struct resume_unit b = { .argv = argv, .campaign_dir = "/srv/b", .campaign_name = "b" };
	char *owner = NULL, *other = NULL, *unit, *link, target[256];
	ssize_t n;

	(void)state;
	assert_non_null(mkdtemp(root));
	unit = xasprintf("%s/etc/systemd/system/" RESUME_UNIT_NAME, root);
	link = xasprintf("%s/etc/systemd/system/multi-user.target.wants/" RESUME_UNIT_NAME, root);
	assert_int_equal(resume_unit_owner(root, &owner), -ENOENT);
	assert_int_equal(resume_unit_remove(root, "/srv/a"), 0);

	assert_int_equal(resume_unit_install(root, &a, &other), 0);
	assert_int_equal(resume_unit_owner(root, &owner), 0);
	assert_string_equal(owner, "/srv/a");
	free(owner);
	n = readlink(link, target, sizeof(target) - 1);
	assert_true(n > 0);
	target[n] = '\0';
	assert_string_equal(target, "/etc/systemd/system/" RESUME_UNIT_NAME);
	/* Installing again (the next reboot of the same campaign) is fine; another campaign is refused. */
	assert_int_equal(resume_unit_install(root, &a, &other), 0);
	assert_int_equal(resume_unit_install(root, &b, &other), -EBUSY);
	assert_string_equal(other, "/srv/a");
	free(other);
	assert_int_equal(resume_unit_remove(root, "/srv/b"), -EBUSY);
	assert_true(path_exists(unit));

	assert_int_equal(resume_unit_remove(root, "/srv/a"), 0);
	assert_false(path_exists(unit));
	assert_int_equal(access(link, F_OK), -1);

	/* A unit of that name that is not bootab's is left alone. */
	assert_int_equal(file_write_atomic(unit, "[Service]\nExecStart=/bin/true\n", 30, 0644), 0);
	assert_int_equal(resume_unit_install(root, &a, &other), -EEXIST);
	assert_int_equal(resume_unit_remove(root, "/srv/a"), -EBUSY);
	assert_true(path_exists(unit));

	unlink(unit);
	free(unit);
	free(link);
	{
		const char *rm[] = { "rm", "-rf", "--", root, NULL };
		struct process_result res;

		assert_int_equal(process_run(rm, NULL, &res), 0);
		assert_int_equal(res.exit_code, 0);
		process_result_release(&res);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_quote),
		cmocka_unit_test(test_text),
		cmocka_unit_test(test_install_remove),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
