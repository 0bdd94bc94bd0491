/* Unit tests for src/lab/lab.c: the parts that do not need a running QEMU
 * (tests/cli/lab.bats boots the real one). */
#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "lab/lab.h"
#include "lib/alloc.h"
#include "lib/file.h"
#include "lib/strbuf.h"

static char *make_tmpdir(void)
{
	char *d = xstrdup("/tmp/bootab-test-lab-XXXXXX");

	assert_non_null(mkdtemp(d));
	return d;
}

static void remove_tree(const char *path)
{
	const char *argv[] = { "rm", "-rf", path, NULL };
	pid_t pid = fork();

	assert_true(pid >= 0);
	if (pid == 0) {
		execvp(argv[0], (char *const *)argv);
		_exit(127);
	}
	waitpid(pid, NULL, 0);
}

static void write_file(const char *dir, const char *name, const char *text)
{
	char *p = path_join(dir, name);

	assert_int_equal(file_write_atomic(p, text, strlen(text), 0600), 0);
	free(p);
}

static void test_cmdline_is_ours(void **state)
{
#define CMD(s) s, sizeof(s) - 1
	static const struct {
		const char *cmdline;
		size_t len;
		bool ours;
	} cases[] = {
		{ CMD("qemu-system-x86_64\0-name\0bootab-lab\0-pidfile\0/l/run/qemu.pid\0-daemonize\0"), true },
		{ CMD("/usr/bin/qemu-system-x86_64\0-pidfile\0/l/run/qemu.pid\0"), true },
		/* Another lab's QEMU, or ours under a different pid file. */
		{ CMD("qemu-system-x86_64\0-pidfile\0/other/run/qemu.pid\0"), false },
		{ CMD("qemu-system-x86_64\0-pidfile\0/l/run/qemu.pid.old\0"), false },
		/* The path alone, not after -pidfile. */
		{ CMD("qemu-system-x86_64\0-name\0/l/run/qemu.pid\0"), false },
		{ CMD("qemu-system-x86_64\0/l/run/qemu.pid\0-pidfile\0"), false },
		/* Not a QEMU (a pid reused by something else). */
		{ CMD("bash\0-pidfile\0/l/run/qemu.pid\0"), false },
		{ CMD("/usr/bin/vim\0/l/run/qemu.pid\0"), false },
		/* A zombie's empty cmdline; a truncated one. */
		{ "", 0, false },
		{ CMD("qemu-system-x86_64\0-pidfile\0/l/run/qemu.pid"), false },
	};
#undef CMD

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		bool got = lab_cmdline_is_ours(cases[i].cmdline, cases[i].len, "/l/run");

		if (got != cases[i].ours)
			fail_msg("case %zu: expected %d", i, cases[i].ours);
	}
}

static void test_ssh_config_format(void **state)
{
	char *text = lab_ssh_config_format("/home/u/.cache/bootab/lab", 40123);

	(void)state;
	assert_string_equal(text,
			    "# Written by 'bootab lab up'; valid while the lab runs.\n"
			    "Host bootab-lab\n"
			    "\tHostName 127.0.0.1\n"
			    "\tPort 40123\n"
			    "\tUser root\n"
			    "\tIdentityFile \"/home/u/.cache/bootab/lab/keys/id_ed25519\"\n"
			    "\tIdentitiesOnly yes\n"
			    "\tUserKnownHostsFile \"/home/u/.cache/bootab/lab/known_hosts\"\n"
			    "\tGlobalKnownHostsFile /dev/null\n"
			    "\tHostKeyAlias bootab-lab\n"
			    "\tStrictHostKeyChecking yes\n"
			    "\tBatchMode yes\n"
			    "\tConnectTimeout 5\n"
			    "\tLogLevel ERROR\n");
	free(text);
}

/* A named box's directory (it holds its name): its own Host alias, the lab's host key alias. */
static void test_box_ssh_config(void **state)
{
	char *dir = make_tmpdir(), *box = lab_box_dir(dir, "b1"), *name = path_join(box, "name");
	char *text, *want, *host;

	(void)state;
	assert_string_equal(box + strlen(dir), "/boxes/b1");
	host = lab_ssh_host(dir);
	assert_string_equal(host, "bootab-lab");
	free(host);
	assert_int_equal(dir_create_all(box, 0755), 0);
	assert_int_equal(file_write_atomic(name, "b1\n", 3, 0644), 0);
	host = lab_ssh_host(box);
	assert_string_equal(host, "bootab-lab-b1");
	free(host);
	text = lab_ssh_config_format(box, 40124);
	want = xasprintf("# Written by 'bootab lab up'; valid while the lab runs.\n"
			 "Host bootab-lab-b1\n"
			 "\tHostName 127.0.0.1\n"
			 "\tPort 40124\n"
			 "\tUser root\n"
			 "\tIdentityFile \"%s/keys/id_ed25519\"\n"
			 "\tIdentitiesOnly yes\n"
			 "\tUserKnownHostsFile \"%s/known_hosts\"\n"
			 "\tGlobalKnownHostsFile /dev/null\n"
			 "\tHostKeyAlias bootab-lab\n"
			 "\tStrictHostKeyChecking yes\n"
			 "\tBatchMode yes\n"
			 "\tConnectTimeout 5\n"
			 "\tLogLevel ERROR\n", box, box);
	assert_string_equal(text, want);
	free(text);
	free(want);
	/* A name file that does not hold a box name is not one. */
	assert_int_equal(file_write_atomic(name, "B 1\n", 4, 0644), 0);
	host = lab_ssh_host(box);
	assert_string_equal(host, "bootab-lab");
	free(host);
	assert_true(lab_box_name_valid("b1"));
	assert_true(lab_box_name_valid("web-02"));
	assert_true(lab_box_name_valid("abcdefghijklmnopqrstuvwxyz012345"));
	assert_false(lab_box_name_valid("abcdefghijklmnopqrstuvwxyz0123456"));
	assert_false(lab_box_name_valid(""));
	assert_false(lab_box_name_valid("-b"));
	assert_false(lab_box_name_valid("B1"));
	assert_false(lab_box_name_valid("b_1"));
	assert_false(lab_box_name_valid("b/1"));
	unlink(name);
	rmdir(box);
	free(name);
	free(box);
	box = path_join(dir, "boxes");
	rmdir(box);
	free(box);
	rmdir(dir);
	free(dir);
}

static void set_or_unset(const char *name, const char *value)
{
	if (value)
		setenv(name, value, 1);
	else
		unsetenv(name);
}

static void test_dir_resolve(void **state)
{
	static const struct {
		const char *lab_dir, *xdg, *home, *want;
		int r;
	} cases[] = {
		{ "/x/lab", "/c", "/h", "/x/lab", 0 },
		{ "", "/c", "/h", "/c/bootab/lab", 0 },
		{ NULL, "/c", "/h", "/c/bootab/lab", 0 },
		{ NULL, "", "/h", "/h/.cache/bootab/lab", 0 },
		{ NULL, NULL, "/h", "/h/.cache/bootab/lab", 0 },
		{ NULL, NULL, NULL, "untouched", -ENOENT },
		{ "", "", "", "untouched", -ENOENT },
	};
	char *saved[3];
	const char *names[3] = { "BOOTAB_LAB_DIR", "XDG_CACHE_HOME", "HOME" };

	(void)state;
	for (int k = 0; k < 3; k++)
		saved[k] = getenv(names[k]) ? xstrdup(getenv(names[k])) : NULL;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *dir = (char *)"untouched";

		set_or_unset("BOOTAB_LAB_DIR", cases[i].lab_dir);
		set_or_unset("XDG_CACHE_HOME", cases[i].xdg);
		set_or_unset("HOME", cases[i].home);
		assert_int_equal(lab_dir_resolve(&dir), cases[i].r);
		assert_string_equal(dir, cases[i].want);
		if (cases[i].r == 0)
			free(dir);
	}
	for (int k = 0; k < 3; k++) {
		set_or_unset(names[k], saved[k]);
		free(saved[k]);
	}
}

static void test_builder_find(void **state)
{
	char *tmp = make_tmpdir(), *p, *bin, *lab, *exe, *want, *got = (char *)"untouched";

	(void)state;
	bin = path_join(tmp, "build");
	lab = path_join(tmp, "lab");
	assert_int_equal(dir_create_all(bin, 0755), 0);
	assert_int_equal(dir_create_all(lab, 0755), 0);
	exe = path_join(bin, "bootab");
	write_file(bin, "bootab", "");

	/* Nothing next to the binary: -ENOENT, output untouched. */
	unsetenv("BOOTAB_LAB_SOURCE");
	assert_int_equal(lab_builder_find(exe, &got), -ENOENT);
	assert_string_equal(got, "untouched");

	/* <exe dir>/../lab/build.sh, as in a source tree. */
	write_file(lab, "build.sh", "#!/bin/bash\n");
	want = path_join(lab, "build.sh");
	assert_int_equal(lab_builder_find(exe, &got), 0);
	assert_string_equal(got, want);
	free(got);

	/* BOOTAB_LAB_SOURCE wins, and must hold build.sh. */
	setenv("BOOTAB_LAB_SOURCE", bin, 1);
	got = (char *)"untouched";
	assert_int_equal(lab_builder_find(exe, &got), -ENOENT);
	assert_string_equal(got, "untouched");
	setenv("BOOTAB_LAB_SOURCE", lab, 1);
	assert_int_equal(lab_builder_find(exe, &got), 0);
	assert_string_equal(got, want);
	free(got);
	unsetenv("BOOTAB_LAB_SOURCE");

	p = tmp;
	remove_tree(p);
	free(want);
	free(exe);
	free(bin);
	free(lab);
	free(tmp);
}

static void test_status_and_stop_without_qemu(void **state)
{
	char *tmp = make_tmpdir(), *run = path_join(tmp, "run"), *pid_text, *p;
	struct lab_status st = { .running = true, .pid = 42, .port = 42 };
	bool was_running = true;

	(void)state;
	/* No run directory at all: not running, no pid, no port. */
	assert_int_equal(lab_status_read(tmp, &st), 0);
	assert_false(st.running);
	assert_int_equal(st.pid, 0);
	assert_int_equal(st.port, 0);

	/* A pid file naming a live process that is not our QEMU (this test). */
	assert_int_equal(dir_create_all(run, 0700), 0);
	pid_text = xasprintf("%d\n", (int)getpid());
	write_file(run, "qemu.pid", pid_text);
	write_file(run, "port", "40123\n");
	write_file(run, "ssh_config", "Host bootab-lab\n");
	assert_int_equal(lab_status_read(tmp, &st), 0);
	assert_false(st.running);
	assert_int_equal(st.pid, getpid());
	assert_int_equal(st.port, 40123);

	/* Garbage in the files reads as nothing. */
	write_file(run, "qemu.pid", "12abc\n");
	write_file(run, "port", "-1\n");
	assert_int_equal(lab_status_read(tmp, &st), 0);
	assert_int_equal(st.pid, 0);
	assert_int_equal(st.port, 0);

	/* Stop: nothing to end (this process survives), stale files go. */
	write_file(run, "qemu.pid", pid_text);
	assert_int_equal(lab_stop(tmp, 1000, &was_running), 0);
	assert_false(was_running);
	p = path_join(run, "ssh_config");
	assert_false(path_exists(p));
	free(p);
	p = path_join(run, "qemu.pid");
	assert_false(path_exists(p));
	free(p);

	/* Not built: start refuses, nothing written. */
	{
		char *err = (char *)"untouched";
		struct lab_status out = { .pid = 7 };

		assert_int_equal(lab_start(tmp, 0, &out, &err), -ENOENT);
		assert_int_equal(out.pid, 7);
		assert_null(err);
	}
	assert_int_equal(lab_power_cycle(tmp), -ESRCH);

	remove_tree(tmp);
	free(pid_text);
	free(run);
	free(tmp);
}

/* A one-connection stand-in for QEMU's human monitor on run/monitor.sock. */
static pid_t fake_monitor(const char *run, const char *reply, bool close_after)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	char *path = path_join(run, "monitor.sock");
	int fd = socket(AF_UNIX, SOCK_STREAM, 0);
	pid_t pid;

	assert_true(fd >= 0);
	assert_true(strlen(path) < sizeof(sa.sun_path));
	memcpy(sa.sun_path, path, strlen(path) + 1);
	assert_int_equal(bind(fd, (struct sockaddr *)&sa, sizeof(sa)), 0);
	assert_int_equal(listen(fd, 1), 0);
	free(path);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		static const char banner[] =
			"QEMU 7.2.22 monitor - type 'help' for more information\r\n(qemu) ";
		char buf[256];
		int c = accept(fd, NULL, NULL);
		ssize_t n;

		if (c < 0 || write(c, banner, sizeof(banner) - 1) < 0)
			_exit(1);
		n = read(c, buf, sizeof(buf));
		if (n <= 0 || buf[n - 1] != '\n')
			_exit(1);
		if (write(c, reply, strlen(reply)) < 0)
			_exit(1);
		if (!close_after && write(c, "(qemu) ", 7) < 0)
			_exit(1);
		close(c);
		_exit(0);
	}
	close(fd);
	return pid;
}

static void test_monitor_command(void **state)
{
	char *tmp = make_tmpdir(), *run = path_join(tmp, "run"), *sock = path_join(run, "monitor.sock");
	char *reply = (char *)"untouched";
	int status;
	pid_t pid;

	(void)state;
	assert_int_equal(dir_create_all(run, 0700), 0);
	/* No socket: QEMU is not there. */
	assert_int_equal(lab_monitor_command(tmp, "system_reset", &reply), -ENOENT);
	assert_string_equal(reply, "untouched");
	/* A newline would smuggle a second command. */
	assert_int_equal(lab_monitor_command(tmp, "system_reset\nquit", &reply), -EINVAL);

	pid = fake_monitor(run, "system_reset\r\n", false);
	assert_int_equal(lab_monitor_command(tmp, "system_reset", &reply), 0);
	assert_string_equal(reply, "system_reset\r\n(qemu) ");
	free(reply);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_int_equal(status, 0);
	unlink(sock);

	/* quit: QEMU closes the connection instead of prompting. */
	pid = fake_monitor(run, "quit\r\n", true);
	assert_int_equal(lab_monitor_command(tmp, "quit", NULL), 0);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	unlink(sock);

	remove_tree(tmp);
	free(sock);
	free(run);
	free(tmp);
}

static char *read_fixture(const char *name, size_t *ret_len)
{
	char *p = xasprintf("%s/lab-console/%s", FIXTURES, name), *data = NULL;

	assert_int_equal(file_read(p, 1 << 20, &data, ret_len), 0);
	free(p);
	return data;
}

static void expect_halt(const char *name, const char *want)
{
	size_t len;
	char *data = read_fixture(name, &len), *halt = lab_console_halted(data, len);

	if (want) {
		assert_non_null(halt);
		assert_string_equal(halt, want);
	} else {
		assert_null(halt);
	}
	free(halt);
	free(data);
}

/* Recorded consoles of the Debian guest (tests/fixtures/lab-console/README). */
static void test_console_halted(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	const char *text;
	size_t len;
	char *data, *halt;

	(void)state;
	expect_halt("debian-grub-kernel-missing.log", "Failed to boot both default and fallback entries.");
	expect_halt("debian-panic.log", "[    5.406042] Kernel panic - not syncing: VFS: Unable to mount "
		    "root fs on unknown-block(0,0)");
	/* After the power cycle the firmware and a kernel start again. */
	expect_halt("debian-panic-power-cycle.log", NULL);
	expect_halt("debian-boot.log", NULL);

	/* A panic with panic=N goes on by itself. */
	data = read_fixture("debian-panic.log", &len);
	strbuf_add(&sb, data, len);
	strbuf_addstr(&sb, "[   15.4] Rebooting in 10 seconds..\r\n");
	halt = lab_console_halted(sb.buf, sb.len);
	assert_null(halt);
	/* A prompt has no newline after it; a line without marks does not end the stop. */
	strbuf_truncate(&sb, 0);
	strbuf_addstr(&sb, "error: no such device: 0b0a.\r\nEntering rescue mode...\r\n\x1b[0mgrub rescue> ");
	halt = lab_console_halted(sb.buf, sb.len);
	assert_non_null(halt);
	assert_string_equal(halt, "grub rescue>");
	free(halt);
	assert_null(lab_console_halted("", 0));
	/* A menu's padding is cut to 8 spaces; the kernel's own spacing stays. */
	text = "\x1b[5;1H            grub>           ";
	halt = lab_console_halted(text, strlen(text));
	assert_non_null(halt);
	assert_string_equal(halt, "grub>");
	free(halt);
	text = "x                    Failed to boot both default and fallback entries.";
	halt = lab_console_halted(text, strlen(text));
	assert_non_null(halt);
	assert_string_equal(halt, "x        Failed to boot both default and fallback entries.");
	free(halt);
	strbuf_release(&sb);
	free(data);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cmdline_is_ours),
		cmocka_unit_test(test_ssh_config_format),
		cmocka_unit_test(test_box_ssh_config),
		cmocka_unit_test(test_dir_resolve),
		cmocka_unit_test(test_builder_find),
		cmocka_unit_test(test_status_and_stop_without_qemu),
		cmocka_unit_test(test_monitor_command),
		cmocka_unit_test(test_console_halted),
	};

	signal(SIGPIPE, SIG_IGN);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
