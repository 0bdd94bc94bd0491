/* Unit tests for src/boot: BLS entry edits, GRUB defaults edits (checked by a real sh), plans with rollback. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "boot/bls.h"
#include "boot/boot.h"
#include "boot/grub.h"
#include "boot/set.h"
#include "kernel/cmdline.h"
#include "lib/alloc.h"
#include "lib/file.h"
#include "lib/process.h"
#include "target/boot-io-target.h"
#include "target/target.h"
#include "test-tmpdir.h"

static char *const managed[] = { (char *)"iommu=pt", (char *)"amd_iommu=off", (char *)"iommu.strict=1", NULL };

static char *make_tmpdir(void)
{
	return test_tmpdir();
}

static void write_file(const char *dir, const char *name, const char *text)
{
	char *path = path_join(dir, name), *parent = xstrdup(path);

	*strrchr(parent, '/') = '\0';
	assert_int_equal(dir_create_all(parent, 0755), 0);
	assert_int_equal(file_write_atomic(path, text, strlen(text), 0755), 0);
	free(parent);
	free(path);
}

static char *read_back(const char *dir, const char *name)
{
	char *path = path_join(dir, name), *data = NULL;
	size_t len;

	assert_int_equal(file_read(path, 1 << 20, &data, &len), 0);
	free(path);
	return data;
}

static void test_bls_edit(void **state)
{
	static const struct {
		const char *text;
		const char *args;        /* space-separated, NULL: none */
		const char *want;
	} cases[] = {
		/* Fedora: every other key and the GRUB variables stay. */
		{ "title Fedora Linux (6.5.6-300.fc39.x86_64) 39\nversion 6.5.6-300.fc39.x86_64\n"
		  "options root=UUID=x ro iommu=pt $tuned_params\nid fedora-1\ngrub_users $grub_users\n"
		  "grub_arg --unrestricted\ngrub_class fedora\n", "amd_iommu=off",
		  "title Fedora Linux (6.5.6-300.fc39.x86_64) 39\nversion 6.5.6-300.fc39.x86_64\n"
		  "options root=UUID=x ro $tuned_params amd_iommu=off\nid fedora-1\ngrub_users $grub_users\n"
		  "grub_arg --unrestricted\ngrub_class fedora\n" },
		/* kernel-install's aligned keys; comments and blank lines kept. */
		{ "# comment\ntitle      Debian\n\noptions    root=x ro amd-iommu=off\nlinux      /linux\n", NULL,
		  "# comment\ntitle      Debian\n\noptions    root=x ro\nlinux      /linux\n" },
		/* Several options lines: strip in each, add to the last. */
		{ "options root=x iommu=pt\noptions quiet iommu.strict=1\n", "iommu=pt",
		  "options root=x\noptions quiet iommu=pt\n" },
		/* `--` in the first line: add before it, never after. */
		{ "options root=x -- single\noptions quiet\n", "iommu=pt",
		  "options root=x iommu=pt -- single\noptions quiet\n" },
		/* Past `--` a managed-looking word is init's. */
		{ "options root=x --\noptions iommu=pt\n", NULL, "options root=x --\noptions iommu=pt\n" },
		/* No options line: one is added. */
		{ "title x\nlinux /vmlinuz", "iommu=pt", "title x\nlinux /vmlinuz\noptions iommu=pt\n" },
		{ "options\n", "iommu=pt", "options iommu=pt\n" },
		/* Nothing to do: the same bytes. */
		{ "options  ro   quiet  \n#options iommu=pt\n", NULL, "options  ro   quiet  \n#options iommu=pt\n" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char **args = NULL, *got = NULL;

		assert_int_equal(cmdline_args_parse(cases[i].args ? cases[i].args : "", &args, NULL), 0);
		assert_int_equal(bls_entry_edit(cases[i].text, managed, args, &got, NULL), 0);
		if (strcmp(got, cases[i].want))
			fail_msg("case %zu: got\n%s\nwant\n%s", i, got, cases[i].want);
		free(got);
		strv_free(args);
	}
}

static void test_bls_edit_errors(void **state)
{
	struct parse_error err = PARSE_ERROR_INIT;
	char *got = (char *)"untouched";

	(void)state;
	assert_int_equal(bls_entry_edit("title x\noptions $kernelopts\n", managed, NULL, &got, &err), -EINVAL);
	assert_string_equal(got, "untouched");
	assert_int_equal(err.line, 2);
	assert_int_equal(err.column, 9);
	parse_error_release(&err);
	assert_int_equal(bls_entry_edit("options a \"b\n", managed, NULL, &got, &err), -EINVAL);
	assert_string_equal(got, "untouched");
	assert_int_equal(err.line, 1);
	assert_int_equal(err.column, 11);
	parse_error_release(&err);
}

static void test_bls_default_and_options(void **state)
{
	char *dir = make_tmpdir(), *rule = NULL, *opts;
	struct boot_io *io;
	struct bls_entries entries;
	size_t index = 99;

	(void)state;
	write_file(dir, "boot/loader/entries/m-6.1.0-9-amd64.conf", "options a\n");
	write_file(dir, "boot/loader/entries/m-6.1.0-10-amd64.conf", "options b\noptions c\n");
	write_file(dir, "boot/loader/entries/m-6.1.0-8-amd64.conf", "options d\n");
	io = boot_io_local_new(dir);
	assert_non_null(io);
	assert_int_equal(bls_entries_read(io, &entries, NULL), 0);
	assert_int_equal(entries.n, 3);
	/* No default set: the highest version, as the menu sorts it. */
	assert_int_equal(bls_default_entry(io, &entries, &index, &rule), 0);
	assert_string_equal(entries.entries[index].name, "m-6.1.0-10-amd64.conf");
	assert_string_equal(rule, "newest entry (no default set)");
	free(rule);
	opts = bls_entry_options(entries.entries[index].text);
	assert_string_equal(opts, "b c");
	free(opts);
	write_file(dir, "boot/loader/loader.conf", "timeout 3\ndefault m-6.1.0-9*  \n");
	assert_int_equal(bls_default_entry(io, &entries, &index, &rule), 0);
	assert_string_equal(entries.entries[index].name, "m-6.1.0-9-amd64.conf");
	assert_string_equal(rule, "/boot/loader/loader.conf default m-6.1.0-9*");
	free(rule);
	/* The EFI variable wins over loader.conf (4 attribute bytes, UTF-16LE). */
	{
		static const char var[] = "\x07\0\0\0m\0-\0" "6\0.\0" "1\0.\0" "0\0-\0" "8\0-\0a\0m\0d\0" "6\0" "4\0\0";

		char *path = path_join(dir, "sys/firmware/efi/efivars");

		assert_int_equal(dir_create_all(path, 0755), 0);
		free(path);
		path = path_join(dir, "sys/firmware/efi/efivars/LoaderEntryDefault-4a67b082-0a4c-41cf-b6c7-440b29bb8c4f");
		assert_int_equal(file_write_atomic(path, var, sizeof(var) - 1, 0644), 0);
		free(path);
	}
	assert_int_equal(bls_default_entry(io, &entries, &index, &rule), 0);
	assert_string_equal(entries.entries[index].name, "m-6.1.0-8-amd64.conf");
	assert_string_equal(rule, "EFI variable LoaderEntryDefault=m-6.1.0-8-amd64");
	free(rule);
	bls_entries_release(&entries);
	boot_io_free(io);
	free(dir);
}

/* What a real sh makes of GRUB_CMDLINE_LINUX after sourcing the files. */
static char *sh_source(const char *const *paths, const char *var)
{
	char *script = xasprintf("for f in \"$@\"; do . \"$f\"; done; printf %%s \"$%s\"", var);
	const char *argv[8] = { "sh", "-c", script, "sh" };
	struct process_options options = { .timeout_ms = 10000 };
	struct process_result res;
	char *out;
	size_t n = 4;

	for (size_t i = 0; paths[i]; i++)
		argv[n++] = paths[i];
	argv[n] = NULL;
	assert_int_equal(process_run(argv, &options, &res), 0);
	assert_int_equal(res.exit_code, 0);
	out = xstrdup(res.out);
	process_result_release(&res);
	free(script);
	return out;
}

static void test_grub_edit_sourced(void **state)
{
	static const struct {
		const char *main;       /* /etc/default/grub */
		const char *dropin;     /* a grub.d file, or NULL */
		const char *args;
		const char *want;       /* GRUB_CMDLINE_LINUX as sh sees it */
	} cases[] = {
		{ "GRUB_CMDLINE_LINUX_DEFAULT=\"quiet\"\nGRUB_CMDLINE_LINUX=\"\"\n", NULL, "iommu=pt", "iommu=pt" },
		{ "GRUB_CMDLINE_LINUX=\"console=ttyS0 iommu=pt\"\n", NULL, "amd_iommu=off",
		  "console=ttyS0 amd_iommu=off" },
		{ "GRUB_CMDLINE_LINUX='a iommu=pt b'\n", NULL, "", "a b" },
		{ "GRUB_CMDLINE_LINUX=iommu=pt\n", NULL, "amd_iommu=off", "amd_iommu=off" },
		{ "GRUB_CMDLINE_LINUX=quiet # the serial box\n", NULL, "iommu=pt", "quiet iommu=pt" },
		{ "export GRUB_CMDLINE_LINUX=\"x\"\n", NULL, "iommu=pt", "x iommu=pt" },
		/* Escapes inside double quotes survive the round trip. */
		{ "GRUB_CMDLINE_LINUX=\"a=\\\"b c\\\" d\\\\e iommu=pt\"\n", NULL, "iommu.strict=1",
		  "a=\"b c\" d\\e iommu.strict=1" },
		/* The drop-in appends to the value so far; the args go there. */
		{ "GRUB_CMDLINE_LINUX=\"amd_iommu=off\"\n",
		  "GRUB_CMDLINE_LINUX=\"$GRUB_CMDLINE_LINUX iommu=pt console=ttyS0\"\n", "iommu.strict=1",
		  " console=ttyS0 iommu.strict=1" },
		{ "GRUB_CMDLINE_LINUX=\"\"\n", "GRUB_CMDLINE_LINUX=\"${GRUB_CMDLINE_LINUX} iommu=pt\"\n", "",
		  "" },
		/* A drop-in that replaces the value: earlier assignments are dead. */
		{ "GRUB_CMDLINE_LINUX=\"iommu=pt\"\n", "GRUB_CMDLINE_LINUX=\"ro\"\n", "amd_iommu=off",
		  "ro amd_iommu=off" },
		/* No assignment at all: one is added. */
		{ "GRUB_TIMEOUT=5\n", NULL, "iommu=pt", "iommu=pt" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *dir = make_tmpdir(), *main_path = path_join(dir, "grub"), *drop_path = path_join(dir, "50.cfg");
		const char *texts[2] = { cases[i].main, cases[i].dropin };
		char *edited[2] = { NULL, NULL }, **args = NULL, *got, *emulated;
		const char *paths[3] = { main_path, cases[i].dropin ? drop_path : NULL, NULL };
		size_t n = cases[i].dropin ? 2 : 1;
		int counts[2] = { 0, 0 }, last = -1;

		assert_int_equal(cmdline_args_parse(cases[i].args, &args, NULL), 0);
		for (size_t k = 0; k < n; k++) {
			counts[k] = grub_count_assignments(texts[k], GRUB_CMDLINE, NULL);
			assert_true(counts[k] >= 0);
			if (counts[k])
				last = (int)k;
		}
		for (size_t k = 0; k < n; k++) {
			int at = last < 0 ? (k == 0 ? -2 : -1) : ((int)k == last ? counts[k] - 1 : -1);

			assert_int_equal(grub_edit(texts[k], managed, args, at, &edited[k], NULL), 0);
			assert_int_equal(file_write_atomic(paths[k], edited[k], strlen(edited[k]), 0644), 0);
		}
		got = sh_source(paths, GRUB_CMDLINE);
		if (strcmp(got, cases[i].want))
			fail_msg("case %zu: sh says '%s', want '%s'\n%s", i, got, cases[i].want, edited[n - 1]);
		/* bootab's own reading agrees with sh. */
		assert_int_equal(grub_effective((const char *const *)edited, paths, n, GRUB_CMDLINE,
						&emulated, NULL), 0);
		assert_string_equal(emulated, got);
		free(emulated);
		free(got);
		for (size_t k = 0; k < n; k++) {
			unlink(paths[k]);
			free(edited[k]);
		}
		strv_free(args);
		rmdir(dir);
		free(dir);
		free(main_path);
		free(drop_path);
	}
}

static void test_grub_debian_default_file(void **state)
{
	char *text = NULL, *edited = NULL;
	char *args[] = { (char *)"iommu=pt", NULL };
	size_t len;

	(void)state;
	/* Debian 12's shipped file: only the GRUB_CMDLINE_LINUX line changes. */
	assert_int_equal(file_read(FIXTURES "/boot/grub-debian12/etc/default/grub", 1 << 16, &text, &len), 0);
	assert_int_equal(grub_count_assignments(text, GRUB_CMDLINE, NULL), 1);
	assert_int_equal(grub_edit(text, managed, args, 0, &edited, NULL), 0);
	{
		char *at = strstr(text, "GRUB_CMDLINE_LINUX=\"\"\n");
		size_t head = (size_t)(at - text);

		assert_non_null(at);
		assert_memory_equal(edited, text, head);
		assert_string_equal(edited + head + strlen("GRUB_CMDLINE_LINUX=\"iommu=pt\"\n"),
				    at + strlen("GRUB_CMDLINE_LINUX=\"\"\n"));
		assert_memory_equal(edited + head, "GRUB_CMDLINE_LINUX=\"iommu=pt\"\n", 30);
	}
	free(edited);
	free(text);
}

/*
 * A line inside another variable's quoted value is part of that value, not
 * an assignment: sh sets only GRUB_FOO here, so counting, editing and the
 * effective value all see the one real GRUB_CMDLINE_LINUX.
 */
static void test_grub_other_quoted_value(void **state)
{
	static const char text[] = "GRUB_FOO=\"x\nGRUB_CMDLINE_LINUX=\\\"inner\\\" \\\\\"\n"
				   "GRUB_CMDLINE_LINUX=\"quiet\"\n"
				   "GRUB_BAR='\nGRUB_CMDLINE_LINUX=\"single\"\n'\n";
	static const char expected[] = "GRUB_FOO=\"x\nGRUB_CMDLINE_LINUX=\\\"inner\\\" \\\\\"\n"
				       "GRUB_CMDLINE_LINUX=\"quiet iommu=pt\"\n"
				       "GRUB_BAR='\nGRUB_CMDLINE_LINUX=\"single\"\n'\n";
	const char *texts[] = { text }, *names[] = { "grub" };
	char *args[] = { (char *)"iommu=pt", NULL };
	char *edited = NULL, *value = NULL;

	(void)state;
	assert_int_equal(grub_count_assignments(text, GRUB_CMDLINE, NULL), 1);
	assert_int_equal(grub_edit(text, managed, args, 0, &edited, NULL), 0);
	assert_string_equal(edited, expected);
	assert_int_equal(grub_effective(texts, names, 1, GRUB_CMDLINE, &value, NULL), 0);
	assert_string_equal(value, "quiet");
	free(edited);
	free(value);
}

static void test_grub_edit_refuses(void **state)
{
	static const struct {
		const char *text;
		unsigned line, column;
		const char *message;
	} cases[] = {
		{ "A=1\nGRUB_CMDLINE_LINUX=\"$(cat /x)\"\n", 2, 21,
		  "value uses shell expansion, which bootab does not edit" },
		{ "GRUB_CMDLINE_LINUX=\"`id`\"\n", 1, 21, "value uses shell expansion, which bootab does not edit" },
		{ "GRUB_CMDLINE_LINUX=\"$FOO x\"\n", 1, 21, "value uses shell expansion, which bootab does not edit" },
		{ "GRUB_CMDLINE_LINUX=\"a\n", 1, 20, "unterminated double quote" },
		{ "GRUB_CMDLINE_LINUX='a\n", 1, 20, "unterminated single quote" },
		{ "GRUB_CMDLINE_LINUX=a$b\n", 1, 21, "unquoted value uses shell syntax bootab does not edit" },
		{ "GRUB_CMDLINE_LINUX=\"a\"; reboot\n", 1, 23, "unsupported shell syntax after the value" },
		{ "GRUB_CMDLINE_LINUX_DEFAULT=\"quiet \\\"x\"\n", 1, 28, "unterminated quote in kernel command line" },
		/* Another variable's quote that never closes swallows the rest of the file. */
		{ "GRUB_CMDLINE_LINUX=\"\"\nGRUB_FOO=\"a\nGRUB_CMDLINE_LINUX=b\n", 2, 10,
		  "unterminated double quote" },
		{ "export GRUB_FOO='a\n", 1, 17, "unterminated single quote" },
		/* What follows `--` is init's, across assignments too. */
		{ "GRUB_CMDLINE_LINUX=\"quiet -- single\"\n", 1, 20,
		  "'--' (init's arguments) in the value: bootab does not edit such a file" },
		{ "GRUB_CMDLINE_LINUX=\"\"\nGRUB_CMDLINE_LINUX_DEFAULT='-- x'\n", 2, 28,
		  "'--' (init's arguments) in the value: bootab does not edit such a file" },
		/* A here-document's GRUB_CMDLINE_LINUX= line is data: the file is refused, not edited there. */
		{ "GRUB_CMDLINE_LINUX=\"\"\ncat > /tmp/x <<EOF\nGRUB_CMDLINE_LINUX=\"evil\"\nEOF\n", 2, 14,
		  "a here-document (<<), which bootab does not edit" },
		{ "true <<-'X'\n\tGRUB_CMDLINE_LINUX=1\n\tX\nGRUB_CMDLINE_LINUX=\"\"\n", 1, 6,
		  "a here-document (<<), which bootab does not edit" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct parse_error err = PARSE_ERROR_INIT;
		char *got = (char *)"untouched";

		assert_int_equal(grub_edit(cases[i].text, managed, NULL, -1, &got, &err), -EINVAL);
		assert_string_equal(got, "untouched");
		if (err.line != cases[i].line || err.column != cases[i].column ||
		    strcmp(err.message, cases[i].message))
			fail_msg("case %zu: %u:%u: %s", i, err.line, err.column, err.message);
		parse_error_release(&err);
	}
}

static void test_grub_cfg_entries(void **state)
{
	char *text = NULL, **titles, **ids, **args;
	size_t len;

	(void)state;
	assert_int_equal(file_read(FIXTURES "/boot/grub-debian12/boot/grub/grub.cfg", 1 << 20, &text, &len), 0);
	assert_int_equal(grub_cfg_entries(text, &titles, &ids, &args), 0);
	assert_string_equal(titles[0], "Debian GNU/Linux");
	assert_string_equal(ids[0], "gnulinux-simple-5e0d7c1a-2f43-4b8e-9a61-0c7d2e9f1b34");
	assert_string_equal(args[0], "root=UUID=5e0d7c1a-2f43-4b8e-9a61-0c7d2e9f1b34 ro  iommu=pt "
			    "console=ttyS0,115200n8 quiet");
	assert_string_equal(titles[2], "Debian GNU/Linux, with Linux 6.1.0-18-amd64 (recovery mode)");
	assert_null(titles[5]);
	strv_free(titles);
	strv_free(ids);
	strv_free(args);
	free(text);
}

/* A root with two files and a tool that fails or succeeds. */
static char *plan_root(const char *tool_exit)
{
	char *dir = make_tmpdir(), *tool;

	write_file(dir, "etc/a", "old a\n");
	write_file(dir, "etc/b", "old b\n");
	write_file(dir, "etc/protected", "before\n");
	tool = xasprintf("#!/bin/sh\necho changed > \"$BOOTAB_ROOT/etc/protected\"\n"
			 "echo \"$*\" >> \"$BOOTAB_ROOT/ran\"\necho 'tool: broken on purpose' >&2\nexit %s\n",
			 tool_exit);
	write_file(dir, "usr/sbin/tool", tool);
	free(tool);
	return dir;
}

static void make_plan(struct boot_plan *plan)
{
	const char *regen[] = { "tool", "regen", NULL }, *last[] = { "tool", "last", NULL };

	boot_plan_add_write(plan, "/etc/a", "old a\n", 6, "new a\n", 6, 0644);
	boot_plan_add_write(plan, "/etc/b", "old b\n", 6, "new b\n", 6, 0644);
	boot_plan_add_write(plan, "/etc/c", NULL, 0, "new c\n", 6, 0644);
	boot_plan_add_protect(plan, "/etc/protected");
	boot_plan_add_run(plan, regen, true);
	boot_plan_add_run(plan, last, false);
}

static void assert_tree(const char *dir, const char *a, const char *b, const char *protected, bool c)
{
	char *s, **names = NULL, *etc = path_join(dir, "etc"), *cpath = path_join(dir, "etc/c");
	size_t n;

	s = read_back(dir, "etc/a");
	assert_string_equal(s, a);
	free(s);
	s = read_back(dir, "etc/b");
	assert_string_equal(s, b);
	free(s);
	s = read_back(dir, "etc/protected");
	assert_string_equal(s, protected);
	free(s);
	assert_int_equal(path_exists(cpath), c);
	/* No temporary left. */
	assert_int_equal(dir_list(etc, &names, &n), 0);
	for (size_t i = 0; i < n; i++)
		assert_null(strstr(names[i], ".bootab-new"));
	strv_free(names);
	free(etc);
	free(cpath);
}

static void test_plan_execute_ok(void **state)
{
	char *dir = plan_root("0"), *ran;
	struct boot_plan plan = BOOT_PLAN_INIT;
	struct boot_io *io = boot_io_local_new(dir);

	(void)state;
	make_plan(&plan);
	assert_int_equal(boot_plan_execute(io, &plan, NULL), 0);
	assert_tree(dir, "new a\n", "new b\n", "changed\n", true);
	ran = read_back(dir, "ran");
	assert_string_equal(ran, "regen\nlast\n");
	free(ran);
	boot_plan_release(&plan);
	boot_io_free(io);
	free(dir);
}

static void test_plan_execute_rolls_back(void **state)
{
	char *dir = plan_root("$([ \"$1\" = last ] && echo 3 || echo 0)"), *ran;
	struct boot_plan plan = BOOT_PLAN_INIT;
	struct parse_error err = PARSE_ERROR_INIT;
	struct boot_io *io = boot_io_local_new(dir);

	(void)state;
	make_plan(&plan);
	assert_int_equal(boot_plan_execute(io, &plan, &err), -EIO);
	/* Every file as it was, the new one gone, the protected one restored. */
	assert_tree(dir, "old a\n", "old b\n", "before\n", false);
	/* The regenerating command ran again on the restored files. */
	ran = read_back(dir, "ran");
	assert_string_equal(ran, "regen\nlast\nregen\n");
	free(ran);
	assert_string_equal(err.file, "tool");
	assert_string_equal(err.message, "'tool last' exited 3: tool: broken on purpose; files restored");
	parse_error_release(&err);
	boot_plan_release(&plan);
	boot_io_free(io);
	free(dir);
}

static void test_plan_execute_stale(void **state)
{
	char *dir = plan_root("0"), *ran = path_join(dir, "ran");
	struct boot_plan plan = BOOT_PLAN_INIT;
	struct parse_error err = PARSE_ERROR_INIT;
	struct boot_io *io = boot_io_local_new(dir);

	(void)state;
	make_plan(&plan);
	write_file(dir, "etc/b", "edited meanwhile\n");
	assert_int_equal(boot_plan_execute(io, &plan, &err), -ESTALE);
	assert_tree(dir, "old a\n", "edited meanwhile\n", "before\n", false);
	assert_false(path_exists(ran));
	assert_string_equal(err.file, "/etc/b");
	assert_string_equal(err.message, "changed since it was read; nothing was written");
	parse_error_release(&err);
	boot_plan_release(&plan);
	boot_io_free(io);
	free(ran);
	free(dir);
}

static void test_local_io_root(void **state)
{
	char *dir = make_tmpdir();
	struct boot_io *io = boot_io_local_new(dir);
	const char *argv[] = { "update-grub", NULL };
	struct process_result res;

	(void)state;
	assert_null(boot_io_local_new("/nonexistent/bootab"));
	/* A fixture root never runs the host's tools. */
	assert_int_equal(io->run(io, argv, &res), -ENOENT);
	assert_int_equal(io->exists(io, "/etc/default/grub"), 0);
	{
		char *want = xasprintf("local root %s", dir);

		assert_string_equal(io->description, want);
		free(want);
	}
	boot_io_free(io);
	free(dir);
}

static void make_link(const char *dir, const char *name, const char *target)
{
	char *path = path_join(dir, name), *parent = xstrdup(path);

	*strrchr(parent, '/') = '\0';
	assert_int_equal(dir_create_all(parent, 0755), 0);
	assert_int_equal(symlink(target, path), 0);
	free(parent);
	free(path);
}

/*
 * With a root, symlinks resolve inside it as if it were "/": absolute
 * targets are taken from the root, ".." stops at it, and nothing outside
 * is read, listed, written or run.
 */
static void test_local_io_root_symlinks(void **state)
{
	char *root = make_tmpdir(), *outside = make_tmpdir();
	char *escape_abs = path_join(outside, "secret"), *escape_rel, *tool;
	struct boot_io *io;
	struct process_result res;
	const char *argv[] = { "update-grub", NULL };
	char *data = NULL, **names = NULL;
	size_t len, n;

	(void)state;
	write_file(outside, "secret", "host file\n");
	write_file(outside, "update-grub", "#!/bin/sh\necho host tool\n");
	escape_rel = xasprintf("../../../../../../../../../..%s", escape_abs);
	/* In-tree links work as on the target. */
	write_file(root, "boot/efi/EFI/fedora/grubenv", "saved_entry=x\n");
	make_link(root, "boot/grub2/grubenv", "../efi/EFI/fedora/grubenv");
	make_link(root, "etc/grub2-efi.cfg", "/boot/efi/EFI/fedora/grubenv");
	/* Links that would leave the tree. */
	make_link(root, "etc/default/grub", escape_abs);
	make_link(root, "etc/kernel/cmdline", escape_rel);
	make_link(root, "boot/loader/entries", outside);
	tool = path_join(outside, "update-grub");
	make_link(root, "usr/sbin/update-grub", tool);
	free(tool);
	make_link(root, "etc/loop-a", "loop-b");
	make_link(root, "etc/loop-b", "loop-a");

	io = boot_io_local_new(root);
	assert_int_equal(io->read_file(io, "/boot/grub2/grubenv", &data, &len), 0);
	assert_string_equal(data, "saved_entry=x\n");
	free(data);
	assert_int_equal(io->read_file(io, "/etc/grub2-efi.cfg", &data, &len), 0);
	assert_string_equal(data, "saved_entry=x\n");
	free(data);

	assert_int_equal(io->read_file(io, "/etc/default/grub", &data, &len), -ENOENT);
	assert_int_equal(io->read_file(io, "/etc/kernel/cmdline", &data, &len), -ENOENT);
	assert_int_equal(io->read_file(io, "/../../../../../..//etc/../etc/default/grub", &data, &len), -ENOENT);
	assert_int_equal(io->exists(io, "/etc/default/grub"), 0);
	assert_int_equal(io->list_dir(io, "/boot/loader/entries", &names, &n), -ENOENT);
	assert_int_equal(io->read_file(io, "/etc/loop-a", &data, &len), -ELOOP);
	assert_int_equal(io->run(io, argv, &res), -ENOENT);
	/* A write goes through the tree's directories, never the link's target outside. */
	assert_int_equal(io->write_file(io, "/boot/loader/entries/x.conf", "options a\n", 10, 0644), -ENOENT);
	assert_int_equal(io->write_file(io, "/etc/default/grub", "GRUB_CMDLINE_LINUX=\"\"\n", 22, 0644), 0);
	data = read_back(outside, "secret");
	assert_string_equal(data, "host file\n");
	free(data);
	assert_int_equal(dir_list(outside, &names, &n), 0);
	assert_int_equal(n, 2);
	strv_free(names);
	/* The written file replaced the link inside the tree. */
	data = read_back(root, "etc/default/grub");
	assert_string_equal(data, "GRUB_CMDLINE_LINUX=\"\"\n");
	free(data);
	/* A tree that carries the path the link names is read there. */
	write_file(root, escape_abs, "tree file\n");
	assert_int_equal(io->read_file(io, "/etc/kernel/cmdline", &data, &len), 0);
	assert_string_equal(data, "tree file\n");
	free(data);

	boot_io_free(io);
	free(escape_abs);
	free(escape_rel);
	free(root);
	free(outside);
}

/*
 * Files and tool output bootab cannot edit faithfully are refused before
 * anything is planned: a NUL byte would cut the file short when written
 * back, and a grubby listing longer than bootab reads would hide entries.
 */
static void test_refuses_untrustworthy_input(void **state)
{
	static const char entry[] = "title x\noptions quiet\0 iommu=off\n";
	static const char cmdline[] = "quiet\0 root=/dev/sda1\n";
	char *root = make_tmpdir(), *path;
	char *args[] = { (char *)"iommu=pt", NULL };
	struct boot_io *io;
	struct boot_plan plan = BOOT_PLAN_INIT;
	struct parse_error err = PARSE_ERROR_INIT;

	(void)state;
	write_file(root, "boot/loader/entries/a.conf", "title a\n");
	path = path_join(root, "boot/loader/entries/a.conf");
	assert_int_equal(file_write_atomic(path, entry, sizeof(entry) - 1, 0644), 0);
	free(path);
	write_file(root, "etc/kernel/cmdline", "x");
	path = path_join(root, "etc/kernel/cmdline");
	assert_int_equal(file_write_atomic(path, cmdline, sizeof(cmdline) - 1, 0644), 0);
	free(path);
	io = boot_io_local_new(root);

	assert_int_equal(boot_backend_bls.plan(io, managed, args, NULL, &plan, &err), -EINVAL);
	assert_string_equal(err.file, "/boot/loader/entries/a.conf");
	assert_string_equal(err.message, "contains a NUL byte: not a boot entry");
	assert_int_equal(plan.n_actions, 0);
	assert_int_equal(kernel_cmdline_plan(io, managed, args, NULL, &plan, &err), -EINVAL);
	assert_string_equal(err.file, "/etc/kernel/cmdline");
	assert_string_equal(err.message, "contains a NUL byte: not a kernel command line");
	assert_int_equal(plan.n_actions, 0);

	/* grubby printing more than PROCESS_OUTPUT_MAX. */
	write_file(root, "usr/sbin/grubby", "#!/bin/sh\nhead -c 20000000 /dev/zero | tr '\\0' 'x'\n");
	assert_int_equal(boot_backend_grubby.plan(io, managed, args, NULL, &plan, &err), -EIO);
	assert_string_equal(err.file, "grubby");
	assert_string_equal(err.message, "'grubby --info=ALL' printed more than bootab reads, not an entry listing");
	assert_int_equal(plan.n_actions, 0);

	boot_plan_release(&plan);
	parse_error_release(&err);
	boot_io_free(io);
	free(root);
}

/* A boot_io that counts what is asked of the one it wraps. */
struct counting_io {
	struct boot_io io;
	struct boot_io *inner;
	unsigned ops, changes;
};

static struct boot_io *inner_of(struct boot_io *io, bool change)
{
	struct counting_io *c = (struct counting_io *)io;

	c->ops++;
	c->changes += change;
	return c->inner;
}

static int c_read(struct boot_io *io, const char *p, char **d, size_t *l)
{
	struct boot_io *in = inner_of(io, false);

	return in->read_file(in, p, d, l);
}

static int c_write(struct boot_io *io, const char *p, const void *d, size_t l, mode_t m)
{
	struct boot_io *in = inner_of(io, true);

	return in->write_file(in, p, d, l, m);
}

static int c_rename(struct boot_io *io, const char *a, const char *b)
{
	struct boot_io *in = inner_of(io, true);

	return in->rename_file(in, a, b);
}

static int c_remove(struct boot_io *io, const char *p)
{
	struct boot_io *in = inner_of(io, true);

	return in->remove_file(in, p);
}

static int c_list(struct boot_io *io, const char *p, char ***n, size_t *k)
{
	struct boot_io *in = inner_of(io, false);

	return in->list_dir(in, p, n, k);
}

static int c_exists(struct boot_io *io, const char *p)
{
	struct boot_io *in = inner_of(io, false);

	return in->exists(in, p);
}

static int c_is_link(struct boot_io *io, const char *p)
{
	struct boot_io *in = inner_of(io, false);

	return in->is_link(in, p);
}

static int c_run(struct boot_io *io, const char *const *argv, struct process_result *ret)
{
	struct boot_io *in = inner_of(io, true);

	return in->run(in, argv, ret);
}

static void counting_io_init(struct counting_io *c, struct boot_io *inner)
{
	memset(c, 0, sizeof(*c));
	c->inner = inner;
	c->io = (struct boot_io){ .read_file = c_read, .write_file = c_write, .rename_file = c_rename,
				  .remove_file = c_remove, .list_dir = c_list, .exists = c_exists,
				  .is_link = c_is_link, .run = c_run, .may_run = inner->may_run,
				  .description = inner->description, .data = inner->data };
}

static void copy_tree(const char *from, const char *to)
{
	char *src = xasprintf("%s/.", from);
	const char *argv[] = { "cp", "-a", src, to, NULL };
	struct process_options o = { .timeout_ms = 20000 };
	struct process_result res;

	assert_int_equal(process_run(argv, &o, &res), 0);
	assert_int_equal(res.exit_code, 0);
	process_result_release(&res);
	free(src);
}

/*
 * Setting a mode through a target reads the boot loader's files in one
 * script run (io.sh dump) before the change, one before the temporaries
 * replace the files and one after, and ends with
 * exactly the files, result and read-back that the same set through the
 * local io gives, which reads path by path.
 */
static void test_target_io_reads_in_one_go(void **state)
{
	static const char *const trees[] = { "lab", "boot/bls-fedora" };
	char *args[] = { (char *)"iommu=pt", NULL };

	(void)state;
	for (size_t i = 0; i < sizeof(trees) / sizeof(trees[0]); i++) {
		char *local_root = make_tmpdir(), *target_root = make_tmpdir(), *src, *e1 = NULL, *open_error = NULL;
		struct counting_io local;
		struct boot_set_result a = { 0 }, b = { 0 };
		struct parse_error ea = PARSE_ERROR_INIT, eb = PARSE_ERROR_INIT;
		struct target_options to = { .root = target_root };
		struct target_counts before, after;
		struct target *t = NULL;
		struct boot_io *io;
		const char *diff[] = { "diff", "-r", NULL, NULL, NULL };
		struct process_options po = { .timeout_ms = 20000 };
		struct process_result res;

		if (!strcmp(trees[i], "lab")) {
			src = xasprintf("%s/sysfs/lab-translated", FIXTURES);
			copy_tree(src, local_root);
			write_file(local_root, "boot/loader/loader.conf", "default lab.conf\ntimeout 0\n");
			write_file(local_root, "boot/loader/entries/lab.conf",
				   "title bootab lab\nlinux /vmlinuz\ninitrd /initrd\noptions console=ttyS0 no_timer_check\n");
		} else {
			src = xasprintf("%s/%s", FIXTURES, trees[i]);
			copy_tree(src, local_root);
		}
		copy_tree(local_root, target_root);
		/* What a set may change: the boot loader's files. */
		diff[2] = e1 = path_join(local_root, "boot");
		diff[3] = path_join(target_root, "boot");

		counting_io_init(&local, boot_io_local_new(local_root));
		assert_int_equal(boot_set(&local.io, "auto", managed, args, &a, &ea), 0);

		assert_int_equal(target_open("local", &to, &t, &open_error), 0);
		io = boot_io_target_new(t);
		target_counts(t, &before);
		assert_int_equal(boot_set(io, "auto", managed, args, &b, &eb), 0);
		target_counts(t, &after);

		/* The same backend, plan and read-back, and the same files on disk. */
		assert_string_equal(a.backend->name, b.backend->name);
		assert_int_equal(a.plan.n_actions, b.plan.n_actions);
		assert_int_equal(a.after.n_entries, b.after.n_entries);
		for (size_t k = 0; k < a.after.n_entries; k++) {
			assert_string_equal(a.after.entries[k].name, b.after.entries[k].name);
			assert_string_equal(a.after.entries[k].args, b.after.entries[k].args);
		}
		assert_null(a.problems ? a.problems[0] : NULL);
		assert_null(b.problems ? b.problems[0] : NULL);
		assert_int_equal(process_run(diff, &po, &res), 0);
		if (res.exit_code != 0)
			fail_msg("%s: the trees differ:\n%s%s", trees[i], res.out, res.err);
		process_result_release(&res);
		/* One run per change; the whole config read before, after the
		 * temporaries (is every file still as planned?) and after. */
		if (after.sessions - before.sessions > local.changes + 3)
			fail_msg("%s: %lu script runs for %u changes (%u operations path by path)", trees[i],
				 after.sessions - before.sessions, local.changes, local.ops);
		assert_true(after.sessions - before.sessions < local.ops);

		boot_set_result_release(&a);
		boot_set_result_release(&b);
		parse_error_release(&ea);
		parse_error_release(&eb);
		boot_io_free(io);
		boot_io_free(local.inner);
		target_close(t);
		free((char *)diff[3]);
		free(e1);
		free(src);
		free(local_root);
		free(target_root);
	}
}

/* A file edited on the box after the dump that planned the change is still caught. */
static void test_target_io_stale(void **state)
{
	char *dir = make_tmpdir(), *data = NULL, *now;
	struct boot_plan plan = BOOT_PLAN_INIT;
	struct parse_error err = PARSE_ERROR_INIT;
	struct target_options to = { .root = dir };
	struct target *t = NULL;
	struct boot_io *io;
	size_t len;

	(void)state;
	write_file(dir, "boot/loader/entries/x.conf", "options a\n");
	assert_int_equal(target_open("local", &to, &t, &now), 0);
	io = boot_io_target_new(t);
	assert_int_equal(io->read_file(io, "/boot/loader/entries/x.conf", &data, &len), 0);
	assert_string_equal(data, "options a\n");
	boot_plan_add_write(&plan, "/boot/loader/entries/x.conf", data, len, "options b\n", 10, 0644);
	write_file(dir, "boot/loader/entries/x.conf", "options edited\n");
	assert_int_equal(boot_plan_execute(io, &plan, &err), -ESTALE);
	now = read_back(dir, "boot/loader/entries/x.conf");
	assert_string_equal(now, "options edited\n");
	assert_string_equal(err.message, "changed since it was read; nothing was written");
	free(now);
	free(data);
	parse_error_release(&err);
	boot_plan_release(&plan);
	boot_io_free(io);
	target_close(t);
	free(dir);
}

static void test_backends(void **state)
{
	(void)state;
	assert_ptr_equal(boot_backend_find("grub"), &boot_backend_grub);
	assert_null(boot_backend_find("gru"));
	assert_null(boot_backend_find("GRUB"));
	for (size_t i = 0; boot_backends[i]; i++)
		assert_ptr_equal(boot_backend_find(boot_backends[i]->name), boot_backends[i]);
}

/*
 * The kernels a box can boot, listed through a target, come from the one
 * dump of the boot loader's files (the entries and where unified kernel
 * images are) and are those the local io lists path by path.
 */
static void test_target_io_kernels_in_one_dump(void **state)
{
	static const struct {
		const char *tree, *backend;
		unsigned long sessions;   /* what the listing asks of the box */
	} cases[] = {
		{ "boot/kernel-install", "kernel-cmdline", 1 },
		{ "boot/bls-fedora", "bls", 1 },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *root = make_tmpdir(), *src = xasprintf("%s/%s", FIXTURES, cases[i].tree), *open_error = NULL;
		const struct boot_backend *backend = boot_backend_find(cases[i].backend);
		struct boot_kernels a = BOOT_KERNELS_INIT, b = BOOT_KERNELS_INIT;
		struct parse_error ea = PARSE_ERROR_INIT, eb = PARSE_ERROR_INIT;
		struct target_options to = { .root = root };
		struct target_counts before, after;
		struct boot_io *local, *io;
		struct target *t = NULL;

		copy_tree(src, root);
		local = boot_io_local_new(root);
		assert_non_null(backend);
		assert_int_equal(backend->kernels(local, &a, &ea), 0);
		assert_int_equal(target_open("local", &to, &t, &open_error), 0);
		io = boot_io_target_new(t);
		target_counts(t, &before);
		assert_int_equal(backend->kernels(io, &b, &eb), 0);
		target_counts(t, &after);
		assert_true(a.n > 0);
		assert_int_equal(a.n, b.n);
		for (size_t k = 0; k < a.n; k++) {
			assert_string_equal(a.v[k].release ? a.v[k].release : "-", b.v[k].release ? b.v[k].release : "-");
			assert_string_equal(a.v[k].image ? a.v[k].image : "-", b.v[k].image ? b.v[k].image : "-");
			assert_string_equal(a.v[k].entry ? a.v[k].entry : "-", b.v[k].entry ? b.v[k].entry : "-");
		}
		if (after.sessions - before.sessions != cases[i].sessions)
			fail_msg("%s: %lu script runs to list the kernels, want %lu", cases[i].tree,
				 after.sessions - before.sessions, cases[i].sessions);
		boot_kernels_release(&a);
		boot_kernels_release(&b);
		parse_error_release(&ea);
		parse_error_release(&eb);
		boot_io_free(io);
		boot_io_free(local);
		target_close(t);
		free(src);
		free(root);
	}
}

int main(void)
{
	/* The fixture trees carry stand-ins for the bootloader tools. */
	setenv("BOOTAB_TEST_ROOT_TOOLS", "1", 1);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bls_edit),
		cmocka_unit_test(test_bls_edit_errors),
		cmocka_unit_test(test_bls_default_and_options),
		cmocka_unit_test(test_grub_edit_sourced),
		cmocka_unit_test(test_grub_debian_default_file),
		cmocka_unit_test(test_grub_other_quoted_value),
		cmocka_unit_test(test_grub_edit_refuses),
		cmocka_unit_test(test_grub_cfg_entries),
		cmocka_unit_test(test_plan_execute_ok),
		cmocka_unit_test(test_plan_execute_rolls_back),
		cmocka_unit_test(test_plan_execute_stale),
		cmocka_unit_test(test_local_io_root),
		cmocka_unit_test(test_local_io_root_symlinks),
		cmocka_unit_test(test_refuses_untrustworthy_input),
		cmocka_unit_test(test_target_io_reads_in_one_go),
		cmocka_unit_test(test_target_io_kernels_in_one_dump),
		cmocka_unit_test(test_target_io_stale),
		cmocka_unit_test(test_backends),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
