/* Unit tests for src/kernel/cmdline.c: the kernel's tokenizer, the toggle, arg checks, verify's rules. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "kernel/cmdline.h"
#include "lib/alloc.h"
#include "lib/file.h"
#include "lib/strbuf.h"

/* Tokens rendered as "name=value|name|[init]name|--" joined by spaces. */
static char *render(const struct cmdline *c)
{
	struct strbuf sb = STRBUF_INIT;

	for (size_t i = 0; i < c->n_tokens; i++) {
		const struct cmdline_token *t = &c->tokens[i];

		if (i)
			strbuf_addch(&sb, ' ');
		if (t->separator) {
			strbuf_addstr(&sb, "--");
			continue;
		}
		strbuf_addf(&sb, "%s<%s>", t->init_arg ? "[init]" : "", t->name);
		if (t->value)
			strbuf_addf(&sb, "=<%s>", t->value);
	}
	return strbuf_detach(&sb, NULL);
}

static void test_parse(void **state)
{
	static const struct {
		const char *text;
		const char *tokens;
	} cases[] = {
		{ "", "" },
		{ "   \t\n", "" },
		{ "quiet", "<quiet>" },
		{ "  root=UUID=ab ro\n", "<root>=<UUID=ab> <ro>" },
		/* Documentation/admin-guide/kernel-parameters.rst: quotes protect spaces. */
		{ "param=\"spaces in here\" x", "<param>=<spaces in here> <x>" },
		{ "\"foo=a b\" y", "<foo>=<a b> <y>" },
		/* next_arg(): a quote in the middle of a value stays. */
		{ "foo=a\"b c\"", "<foo>=<a\"b c\">" },
		{ "\"bare flag\"", "<bare flag>" },
		/* `--` ends the kernel's part; a second one is init's. */
		{ "a -- b=1 -- c", "<a> -- [init]<b>=<1> [init]<--> [init]<c>" },
		{ "--=x a", "<-->=<x> <a>" },
		{ "a\tb\vc\rd", "<a> <b> <c> <d>" },
		/* The kernel's Latin-1 isspace() includes 0xa0. */
		{ "a\xa0" "b", "<a> <b>" },
		{ "x= y", "<x>=<> <y>" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct cmdline c;
		char *got;

		assert_int_equal(cmdline_parse(cases[i].text, 0, &c, NULL), 0);
		got = render(&c);
		if (strcmp(got, cases[i].tokens))
			fail_msg("'%s': got '%s', want '%s'", cases[i].text, got, cases[i].tokens);
		free(got);
		/* Lossless: no edit gives back the bytes. */
		got = cmdline_format_edit(&c, NULL, NULL);
		assert_string_equal(got, cases[i].text);
		free(got);
		cmdline_release(&c);
	}
}

static void test_parse_unterminated_quote(void **state)
{
	struct parse_error err = PARSE_ERROR_INIT;
	struct cmdline c = { (char *)"untouched", NULL, 0, 0 };

	(void)state;
	assert_int_equal(cmdline_parse("a b=\"c d", 0, &c, &err), -EINVAL);
	assert_string_equal(c.text, "untouched");
	assert_int_equal(err.column, 5);
	assert_string_equal(err.message, "unterminated quote in kernel command line");
	parse_error_release(&err);
	/* The kernel accepts it: the token runs to the end. */
	assert_int_equal(cmdline_parse("a b=\"c d", CMDLINE_TOLERANT, &c, NULL), 0);
	assert_int_equal(c.n_tokens, 2);
	assert_string_equal(c.tokens[1].value, "c d");
	cmdline_release(&c);
}

static void test_names(void **state)
{
	struct cmdline c;

	(void)state;
	assert_true(cmdline_name_equal("amd_iommu", "amd-iommu"));
	assert_true(cmdline_name_equal("iommu.pass-through", "iommu.pass_through"));
	assert_true(cmdline_name_equal("log-buf-len", "log_buf_len"));
	assert_false(cmdline_name_equal("iommu", "iommu.strict"));
	assert_false(cmdline_name_equal("Quiet", "quiet"));
	/* One of a '|' list, each compared whole. */
	assert_true(cmdline_name_listed("amd-iommu", "iommu|amd_iommu"));
	assert_true(cmdline_name_listed("iommu", "iommu|amd_iommu"));
	assert_false(cmdline_name_listed("iommu", "amd_iommu|iommu.strict"));
	assert_false(cmdline_name_listed("iommu.strict", "iommu|amd_iommu"));
	assert_false(cmdline_name_listed("iommu", ""));
	assert_true(cmdline_name_listed("nosmt", "nosmt"));
	assert_true(cmdline_is_loader_name("BOOT_IMAGE"));
	assert_true(cmdline_is_loader_name("initrd"));
	assert_false(cmdline_is_loader_name("initrd_extra"));
	/* Last occurrence wins; init's args never count. */
	assert_int_equal(cmdline_parse("iommu=pt amd-iommu=on iommu=off -- iommu=soft", 0, &c, NULL), 0);
	assert_string_equal(cmdline_find_last(&c, "iommu")->value, "off");
	assert_string_equal(cmdline_find_last(&c, "amd_iommu")->value, "on");
	assert_null(cmdline_find_last(&c, "quiet"));
	cmdline_release(&c);
}

static void test_arg_valid(void **state)
{
	static const struct {
		const char *arg;
		const char *reason;    /* NULL: valid */
	} cases[] = {
		{ "iommu=pt", NULL },
		{ "amd_iommu=off", NULL },
		{ "quiet", NULL },
		{ "iommu.strict=1", NULL },
		{ "ttm.pages_limit=31457280", NULL },
		{ "amdgpu.lockup_timeout=10000,60000,10000,10000", NULL },
		{ "crashkernel=1G-4G:192M,4G-64G:256M", NULL },
		{ "console=ttyS0,115200n8", NULL },
		{ "acpi_osi=!Windows", NULL },
		{ "video=HDMI-A-1:1920x1080@60", NULL },
		{ "", "empty argument" },
		{ "--", "'--' is the separator before init's arguments, not a kernel parameter" },
		{ "=pt", "parameter name is empty" },
		{ "-x", "parameter name cannot start with '-'" },
		{ "iommu=pt;reboot", "';' is not allowed in a value (shell, GRUB and quoting characters are refused)" },
		{ "a=$(id)", "'$' is not allowed in a value (shell, GRUB and quoting characters are refused)" },
		{ "a=`id`", "'`' is not allowed in a value (shell, GRUB and quoting characters are refused)" },
		{ "dyndbg=\"file x\"", "'\"' is not allowed in a value (shell, GRUB and quoting characters are refused)" },
		{ "a='b'", "''' is not allowed in a value (shell, GRUB and quoting characters are refused)" },
		{ "a=b|c", "'|' is not allowed in a value (shell, GRUB and quoting characters are refused)" },
		{ "a=b&c", "'&' is not allowed in a value (shell, GRUB and quoting characters are refused)" },
		{ "a=b>c", "'>' is not allowed in a value (shell, GRUB and quoting characters are refused)" },
		{ "a=b\\c", "'\\' is not allowed in a value (shell, GRUB and quoting characters are refused)" },
		{ "a=b\nc", "byte 0x0a is not allowed in a value (shell, GRUB and quoting characters are refused)" },
		{ "a=\x7f", "byte 0x7f is not allowed in a value (shell, GRUB and quoting characters are refused)" },
		{ "a=\xc3\xa9", "byte 0xc3 is not allowed in a value (shell, GRUB and quoting characters are refused)" },
		{ "na$me=1", "'$' is not allowed in a parameter name" },
		{ "a b", "a space is not allowed in a parameter name" },
		{ "BOOT_IMAGE=/vmlinuz", "BOOT_IMAGE= is set by the boot loader, not by a plan" },
		{ "initrd=/initrd", "initrd= is set by the boot loader, not by a plan" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *reason = NULL;
		int r = cmdline_arg_valid(cases[i].arg, &reason);

		if (!cases[i].reason) {
			if (r != 0)
				fail_msg("'%s' refused: %s", cases[i].arg, reason);
			continue;
		}
		assert_int_equal(r, -EINVAL);
		assert_string_equal(reason, cases[i].reason);
		free(reason);
	}
}

static void test_args_parse(void **state)
{
	struct parse_error err = PARSE_ERROR_INIT;
	char **args = NULL, *untouched = (char *)"x";

	(void)state;
	assert_int_equal(cmdline_args_parse("  iommu=pt\tamd_iommu=off  ", &args, &err), 0);
	assert_string_equal(args[0], "iommu=pt");
	assert_string_equal(args[1], "amd_iommu=off");
	assert_null(args[2]);
	strv_free(args);
	assert_int_equal(cmdline_args_parse("", &args, &err), 0);
	assert_null(args[0]);
	strv_free(args);
	args = &untouched;
	assert_int_equal(cmdline_args_parse("iommu=pt a=$x", &args, &err), -EINVAL);
	assert_ptr_equal(args, &untouched);
	assert_int_equal(err.column, 10);
	assert_string_equal(err.message, "invalid kernel argument 'a=$x': '$' is not allowed in a value "
			   "(shell, GRUB and quoting characters are refused)");
	parse_error_release(&err);
}

static void test_apply(void **state)
{
	static const struct {
		const char *line;
		const char *managed;
		const char *mode;
		const char *want;
	} cases[] = {
		/* The seed's toggle: strip both, add one. */
		{ "ro quiet iommu=pt", "iommu=pt amd_iommu=off", "amd_iommu=off", "ro quiet amd_iommu=off" },
		{ "ro quiet iommu=pt", "iommu=pt amd_iommu=off", "", "ro quiet" },
		{ "ro quiet", "iommu=pt amd_iommu=off", "iommu=pt", "ro quiet iommu=pt" },
		/* By name: any value, dash or underscore, every occurrence. */
		{ "a iommu=off b iommu=soft c", "iommu=pt", "iommu=pt", "a b c iommu=pt" },
		{ "a amd-iommu=off b", "amd_iommu=off", "", "a b" },
		{ "a iommu b", "iommu=pt", "", "a b" },
		/* iommu.strict is another parameter than iommu. */
		{ "iommu.strict=1 iommu=pt", "iommu=pt", "", "iommu.strict=1" },
		/* The mode's own names are managed too: no duplicate. */
		{ "quiet console=tty0", "iommu=pt", "console=ttyS0", "quiet console=ttyS0" },
		/* Unmanaged tokens keep their bytes and the whitespace before them. */
		{ "  root=UUID=x\tro  foo=\"a b\"  iommu=pt  rhgb\n", "iommu=pt", "iommu.strict=1",
		  "  root=UUID=x\tro  foo=\"a b\"  rhgb iommu.strict=1\n" },
		{ "iommu=pt ro", "iommu=pt", "", "ro" },
		/* Before `--`; init's args are never touched. */
		{ "ro -- iommu=pt single", "iommu=pt", "amd_iommu=off", "ro amd_iommu=off -- iommu=pt single" },
		{ "-- single", "iommu=pt", "iommu=pt", "iommu=pt -- single" },
		{ "", "iommu=pt", "iommu=pt", "iommu=pt" },
		{ "iommu=pt", "iommu=pt", "", "" },
		/* Nothing managed present, nothing added: the same bytes. */
		{ "  ro  quiet \n", "iommu=pt", "", "  ro  quiet \n" },
		/* A GRUB variable in a BLS line is an unmanaged word. */
		{ "ro $tuned_params iommu=pt", "iommu=pt", "iommu=pt", "ro $tuned_params iommu=pt" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char **managed = NULL, **mode = NULL, *got = NULL;

		assert_int_equal(cmdline_args_parse(cases[i].managed, &managed, NULL), 0);
		assert_int_equal(cmdline_args_parse(cases[i].mode, &mode, NULL), 0);
		assert_int_equal(cmdline_apply(cases[i].line, managed, mode, &got, NULL), 0);
		if (strcmp(got, cases[i].want))
			fail_msg("'%s': got '%s', want '%s'", cases[i].line, got, cases[i].want);
		free(got);
		strv_free(managed);
		strv_free(mode);
	}
}

static void test_apply_refuses_broken_line(void **state)
{
	struct parse_error err = PARSE_ERROR_INIT;
	char *managed[] = { (char *)"iommu=pt", NULL }, *got = (char *)"untouched";

	(void)state;
	assert_int_equal(cmdline_apply("a \"b iommu=pt", managed, NULL, &got, &err), -EINVAL);
	assert_string_equal(got, "untouched");
	parse_error_release(&err);
}

static void test_edits_never_change_unmanaged(void **state)
{
	static const char *const lines[] = {
		"BOOT_IMAGE=(hd0,gpt2)/vmlinuz-7.2.9-300.fc45.x86_64 root=UUID=x ro rootflags=subvol=root rhgb "
		"quiet ttm.pages_limit=31457280 ttm.page_pool_size=31457280 "
		"amdgpu.lockup_timeout=10000,60000,10000,10000 amd_iommu=off",
		"initrd=\\initrd console=ttyS0 iommu=pt iommu.strict=1 -- init=x",
		"a=\"x y\" iommu=pt b",
	};
	char *managed[] = { (char *)"iommu=pt", (char *)"amd_iommu=off", (char *)"iommu.strict=1", NULL };
	char *mode[] = { (char *)"iommu.strict=1", NULL };

	(void)state;
	for (size_t i = 0; i < sizeof(lines) / sizeof(lines[0]); i++) {
		char *out = NULL, **before, **after;

		assert_int_equal(cmdline_apply(lines[i], managed, mode, &out, NULL), 0);
		before = cmdline_unmanaged_tokens(lines[i], managed, mode);
		after = cmdline_unmanaged_tokens(out, managed, mode);
		for (size_t k = 0; before[k] || after[k]; k++) {
			assert_non_null(before[k]);
			assert_non_null(after[k]);
			assert_string_equal(before[k], after[k]);
		}
		strv_free(before);
		strv_free(after);
		free(out);
	}
}

static void test_check(void **state)
{
	static const struct {
		const char *cmdline;
		const char *managed;
		const char *asked;
		const char *missing;      /* joined by ',' */
		const char *unexpected;
	} cases[] = {
		{ "BOOT_IMAGE=/v ro iommu=pt\n", "iommu=pt amd_iommu=off", "iommu=pt", "", "" },
		{ "ro amd_iommu=off", "iommu=pt amd_iommu=off", "iommu=pt", "iommu=pt", "amd_iommu=off" },
		/* Last occurrence wins, and the overridden one is still a leftover. */
		{ "iommu=pt iommu=off", "iommu=pt", "iommu=pt", "iommu=pt", "iommu=off" },
		{ "iommu=off iommu=pt", "iommu=pt", "iommu=pt", "", "iommu=off" },
		{ "amd-iommu=off", "amd_iommu=off", "amd_iommu=off", "", "" },
		/* Translated: no managed arg at all. */
		{ "initrd=\\initrd ro", "iommu=pt amd_iommu=off", "", "", "" },
		{ "ro iommu=pt", "iommu=pt amd_iommu=off", "", "", "iommu=pt" },
		/* After `--` it is init's. */
		{ "ro -- iommu=pt", "iommu=pt", "iommu=pt", "iommu=pt", "" },
		/* A name asked twice: each value must be there. */
		{ "console=tty0 console=ttyS0", "", "console=tty0 console=ttyS0", "", "" },
		{ "console=ttyS0", "", "console=tty0 console=ttyS0", "console=tty0", "" },
		{ "quiet=1", "", "quiet", "quiet", "quiet=1" },
		{ "a=\"x\" iommu.strict=1", "iommu.strict=1", "iommu.strict=1", "", "" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct cmdline_check_result r = CMDLINE_CHECK_RESULT_INIT;
		char **managed = NULL, **asked = NULL;
		struct strbuf m = STRBUF_INIT, u = STRBUF_INIT;

		assert_int_equal(cmdline_args_parse(cases[i].managed, &managed, NULL), 0);
		assert_int_equal(cmdline_args_parse(cases[i].asked, &asked, NULL), 0);
		assert_int_equal(cmdline_check(cases[i].cmdline, managed, asked, &r), 0);
		for (size_t k = 0; r.missing[k]; k++)
			strbuf_addf(&m, "%s%s", k ? "," : "", r.missing[k]);
		for (size_t k = 0; r.unexpected[k]; k++)
			strbuf_addf(&u, "%s%s", k ? "," : "", r.unexpected[k]);
		if (strcmp(strbuf_str(&m), cases[i].missing) || strcmp(strbuf_str(&u), cases[i].unexpected))
			fail_msg("'%s': missing '%s' unexpected '%s'", cases[i].cmdline, strbuf_str(&m),
				 strbuf_str(&u));
		assert_int_equal(cmdline_check_ok(&r), !*cases[i].missing && !*cases[i].unexpected);
		strbuf_release(&m);
		strbuf_release(&u);
		cmdline_check_result_release(&r);
		strv_free(managed);
		strv_free(asked);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_parse_unterminated_quote),
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_arg_valid),
		cmocka_unit_test(test_args_parse),
		cmocka_unit_test(test_apply),
		cmocka_unit_test(test_apply_refuses_broken_line),
		cmocka_unit_test(test_edits_never_change_unmanaged),
		cmocka_unit_test(test_check),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
