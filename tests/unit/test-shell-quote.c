/* Unit tests for src/lib/shell-quote: quoted forms, and round trips through real shells. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "lib/alloc.h"
#include "lib/process.h"
#include "lib/shell-quote.h"
#include "lib/strbuf.h"

static const struct {
	const char *word;
	const char *quoted;
} cases[] = {
	{ "", "''" },
	{ "iommu=pt", "'iommu=pt'" },
	{ "it's", "'it'\\''s'" },
	{ "'", "''\\'''" },
	{ "''", "''\\'''\\'''" },
	{ "$(reboot)", "'$(reboot)'" },
	{ "`id`", "'`id`'" },
	{ "a;b&&c||d|e", "'a;b&&c||d|e'" },
	{ "-oProxyCommand=sh", "'-oProxyCommand=sh'" },
	{ "two\nlines", "'two\nlines'" },
	{ "tab\there", "'tab\there'" },
	{ "back\\slash\\", "'back\\slash\\'" },
	{ "*?[a-z]~", "'*?[a-z]~'" },
	{ "\"double\" $HOME ${IFS}", "'\"double\" $HOME ${IFS}'" },
	{ "end'", "'end'\\'''" },
	{ "\x01\x7f\xc3\xa9", "'\x01\x7f\xc3\xa9'" },
	{ "#comment", "'#comment'" },
	{ "a b  c", "'a b  c'" },
	{ "!event", "'!event'" },
};

static void test_quoted_forms(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *q = shell_quote(cases[i].word);

		assert_string_equal(q, cases[i].quoted);
		free(q);
	}
}

/* Each shell must turn the quoted word back into exactly the original bytes. */
static void roundtrip_in(const char *shell_argv0, const char *shell_argv1)
{
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct strbuf line = STRBUF_INIT;
		struct process_result res;
		const char *argv[5];
		size_t n = 0;
		char *want;

		strbuf_addstr(&line, "printf '[%s]' ");
		shell_quote_append(&line, cases[i].word);
		argv[n++] = shell_argv0;
		if (shell_argv1)
			argv[n++] = shell_argv1;
		argv[n++] = "-c";
		argv[n++] = strbuf_str(&line);
		argv[n] = NULL;
		assert_int_equal(process_run(argv, NULL, &res), 0);
		assert_int_equal(res.exit_code, 0);
		want = xasprintf("[%s]", cases[i].word);
		assert_string_equal(res.out, want);
		free(want);
		process_result_release(&res);
		strbuf_release(&line);
	}
}

static void test_roundtrip_dash(void **state)
{
	(void)state;
	roundtrip_in("dash", NULL);
}

static void test_roundtrip_busybox(void **state)
{
	(void)state;
	roundtrip_in("busybox", "sh");
}

static void test_roundtrip_bash(void **state)
{
	(void)state;
	roundtrip_in("bash", NULL);
}

/* A whole argv survives as separate words, with no word split or globbed. */
static void test_argv(void **state)
{
	const char *words[] = { "-n", "a b", "", "'*'", "$1", "x\ny", NULL };
	struct strbuf line = STRBUF_INIT;
	struct process_result res;
	const char *argv[] = { "dash", "-c", NULL, NULL };

	(void)state;
	strbuf_addstr(&line, "for w in ");
	shell_quote_argv_append(&line, words);
	strbuf_addstr(&line, "; do printf '<%s>' \"$w\"; done");
	argv[2] = strbuf_str(&line);
	assert_int_equal(process_run(argv, NULL, &res), 0);
	assert_string_equal(res.out, "<-n><a b><><'*'><$1><x\ny>");
	process_result_release(&res);
	strbuf_release(&line);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_quoted_forms),
		cmocka_unit_test(test_roundtrip_dash),
		cmocka_unit_test(test_roundtrip_busybox),
		cmocka_unit_test(test_roundtrip_bash),
		cmocka_unit_test(test_argv),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
