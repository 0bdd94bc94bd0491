/*
 * Unit tests for what bootab reads from others staying bounded and inside
 * its root: a target that prints without end, a file bigger than the
 * capture, a FIFO, symlinks out of a local --root (target scripts and the
 * boot io), a line without end.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#include "target/boot-io-target.h"
#include "campaign/journal.h"
#include "lib/alloc.h"
#include "lib/file.h"
#include "lib/process.h"
#include "results/fetch.h"
#include "results/side.h"
#include "kernel/snapshot.h"
#include "target/target.h"
#include "test-tmpdir.h"

static char *make_tmpdir(void)
{
	return test_tmpdir();
}

static void write_text(const char *dir, const char *name, const char *text)
{
	char *path = path_join(dir, name), *parent = xstrdup(path);

	*strrchr(parent, '/') = '\0';
	assert_int_equal(dir_create_all(parent, 0755), 0);
	assert_int_equal(file_write_atomic(path, text, strlen(text), 0644), 0);
	free(parent);
	free(path);
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

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* A program that never stops printing: bounded capture, ended by the timeout. */
static void test_endless_output(void **state)
{
	const char *argv[] = { "yes", "0123456789abcdef", NULL };
	struct process_options o = { .timeout_ms = 1500, .max_output = 1 << 20 };
	struct process_result r;
	double start = now_s();

	(void)state;
	assert_int_equal(process_run(argv, &o, &r), 0);
	assert_true(r.timed_out);
	assert_true(r.out_truncated);
	assert_int_equal(r.out_len, 1 << 20);
	assert_true(now_s() - start < 30);
	process_result_release(&r);
}

static struct target *local_target(const char *root)
{
	struct target_options o = { .root = root };
	struct target *t = NULL;
	char *error = NULL;

	assert_int_equal(target_open("local", &o, &t, &error), 0);
	return t;
}

/*
 * A file longer than the output capture comes back cut: it must be an
 * error, not a short file that an edit would then write back.
 */
static void test_target_read_file_longer_than_capture(void **state)
{
	char *root = make_tmpdir(), *path = path_join(root, "boot/grub/grub.cfg"), *data = NULL;
	size_t size = PROCESS_OUTPUT_MAX + 4096, len = 0;
	char *big = xmalloc(size);
	struct target *t;

	(void)state;
	memset(big, '#', size);
	write_text(root, "boot/grub/x", "");
	assert_int_equal(file_write_atomic(path, big, size, 0644), 0);
	t = local_target(root);
	assert_int_equal(target_read_file(t, "/boot/grub/grub.cfg", FILE_READ_MAX, false, &data, &len), -EFBIG);
	assert_null(data);
	assert_non_null(strstr(target_error(t), "is longer than"));
	target_close(t);
	free(big);
	free(path);
	free(root);
}

/* A FIFO is refused at once, by the local reader and by the target script. */
static void test_fifo(void **state)
{
	char *root = make_tmpdir(), *fifo = path_join(root, "etc/kernel/cmdline"), *data = NULL;
	size_t len;
	struct target *t;
	double start = now_s();

	(void)state;
	write_text(root, "etc/kernel/x", "");
	assert_int_equal(mkfifo(fifo, 0600), 0);
	assert_int_equal(file_read(fifo, FILE_READ_MAX, &data, &len), -EINVAL);
	t = local_target(root);
	assert_int_equal(target_read_file(t, "/etc/kernel/cmdline", FILE_READ_MAX, false, &data, &len), -EINVAL);
	assert_null(data);
	target_close(t);
	assert_true(now_s() - start < 30);
	free(fifo);
	free(root);
}

/* Under a local --root, the target scripts refuse a symlink that leads out of it. */
static void test_target_root_symlinks(void **state)
{
	char *root = make_tmpdir(), *outside = make_tmpdir();
	char *secret = path_join(outside, "secret"), *data = NULL, **names = NULL;
	struct target *t;
	struct boot_io *io;
	size_t len, n;

	(void)state;
	write_text(outside, "secret", "host file\n");
	write_text(root, "boot/efi/grubenv", "saved_entry=x\n");
	make_link(root, "boot/grub2/grubenv", "../efi/grubenv");
	make_link(root, "etc/default/grub", secret);
	make_link(root, "etc/kernel/cmdline", "../../../../../../../../../../../../../etc/hostname");
	make_link(root, "boot/loader/entries", outside);

	t = local_target(root);
	/* A link inside the tree is read. */
	assert_int_equal(target_read_file(t, "/boot/grub2/grubenv", 4096, false, &data, &len), 0);
	assert_string_equal(data, "saved_entry=x\n");
	free(data);
	data = NULL;
	assert_int_equal(target_read_file(t, "/etc/default/grub", 4096, false, &data, &len), -EIO);
	assert_null(data);
	assert_non_null(strstr(target_error(t), "leads out of the root"));
	assert_int_equal(target_read_file(t, "/etc/kernel/cmdline", 4096, false, &data, &len), -EIO);

	io = boot_io_target_new(t);
	assert_int_equal(io->read_file(io, "/etc/default/grub", &data, &len), -EIO);
	assert_true(io->exists(io, "/etc/default/grub") < 0);
	assert_true(io->list_dir(io, "/boot/loader/entries", &names, &n) < 0);
	assert_true(io->write_file(io, "/boot/loader/entries/x.conf", "options a\n", 10, 0644) < 0);
	assert_true(io->remove_file(io, "/boot/loader/entries/secret") < 0);
	/* Replacing the link itself stays inside the tree. */
	assert_int_equal(io->write_file(io, "/etc/default/grub", "GRUB_CMDLINE_LINUX=\"\"\n", 22, 0644), 0);
	boot_io_free(io);
	target_close(t);

	assert_int_equal(file_read(secret, 4096, &data, &len), 0);
	assert_string_equal(data, "host file\n");
	free(data);
	assert_int_equal(dir_list(outside, &names, &n), 0);
	assert_int_equal(n, 1);
	strv_free(names);
	free(secret);
	free(root);
	free(outside);
}

/* A snapshot line without end is refused, not buffered. */
static void test_snapshot_line_without_end(void **state)
{
	size_t size = SNAPSHOT_MAX_BYTES - 1;
	char *data = xmalloc(size + 1);
	struct snapshot s = { 0 };
	struct parse_error err = PARSE_ERROR_INIT;

	(void)state;
	memcpy(data, "bootab-snapshot\t1\ncmdline\t", 26);
	memset(data + 26, 'x', size - 26);
	data[size] = '\0';
	assert_int_equal(snapshot_parse(data, size, &s, &err), -EINVAL);
	assert_int_equal(err.line, 2);
	assert_non_null(err.message);
	parse_error_release(&err);
	free(data);
}

/* A journal whose last line never ends: read as torn, cut in a few reads by the next append. */
static void test_journal_torn_long_line(void **state)
{
	char *dir = make_tmpdir(), *path = path_join(dir, "journal");
	size_t size = JOURNAL_MAX_BYTES - 16;
	char *data = xmalloc(size);
	struct journal j;
	struct parse_error err = PARSE_ERROR_INIT;
	double start = now_s();

	(void)state;
	memset(data, 'x', size);
	memcpy(data, "boot 1 a begin\n", 15);
	assert_int_equal(file_write_atomic(path, data, size, 0600), 0);
	assert_int_equal(journal_read(path, &j, &err), 0);
	assert_int_equal(j.n_lines, 1);
	assert_true(j.torn);
	journal_release(&j);
	assert_int_equal(journal_append(path, "boot 1 a set"), 0);
	assert_true(now_s() - start < 10);
	assert_int_equal(journal_read(path, &j, &err), 0);
	assert_int_equal(j.n_lines, 2);
	assert_false(j.torn);
	assert_string_equal(j.lines[1], "boot 1 a set");
	journal_release(&j);
	free(data);
	free(path);
	free(dir);
}

/* meta.json nested 100,000 deep: one warning naming the file, nothing loaded. */
static void test_meta_json_deep(void **state)
{
	size_t n = 100000;
	char *data = xmalloc(n + 1);
	struct side side = { 0 };
	struct strlist warnings = STRLIST_INIT;

	(void)state;
	memset(data, '[', n);
	data[n] = '\0';
	side.mode = xstrdup("a");
	side_meta_parse("a/meta.json", data, n, &side, &warnings);
	assert_int_equal(warnings.n, 1);
	assert_non_null(strstr(warnings.items[0], "a/meta.json:1:"));
	assert_non_null(strstr(warnings.items[0], "depth"));
	assert_int_equal(side.n_rows, 0);
	strlist_release(&warnings);
	side_release(&side);
	free(data);
}

/* A file over the fetch limit is listed as skipped, never cut; a skip within the limit is a lie. */
static void test_fetch_skip_record(void **state)
{
	static const char stream[] = "bootab-fetch 1\nfile results 3\nabc\nskip big.1.out 2000000000\nend\n";
	static const char small_skip[] = "bootab-fetch 1\nskip big.1.out 12\nend\n";
	struct parse_error err = PARSE_ERROR_INIT;
	struct fetch f;

	(void)state;
	assert_int_equal(fetch_parse(stream, strlen(stream), &f, &err), 0);
	assert_int_equal(f.n_files, 1);
	assert_int_equal(f.n_skipped, 1);
	assert_string_equal(f.skipped[0].name, "big.1.out");
	assert_true(f.skipped[0].size == 2000000000ULL);
	assert_null(fetch_find(&f, "big.1.out"));
	fetch_release(&f);
	assert_int_equal(fetch_parse(small_skip, strlen(small_skip), &f, &err), -EINVAL);
	assert_int_equal(err.line, 2);
	assert_string_equal(err.message, "file 'big.1.out' skipped at 12 bytes, within the limit");
	parse_error_release(&err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_endless_output),
		cmocka_unit_test(test_target_read_file_longer_than_capture),
		cmocka_unit_test(test_fifo),
		cmocka_unit_test(test_target_root_symlinks),
		cmocka_unit_test(test_snapshot_line_without_end),
		cmocka_unit_test(test_journal_torn_long_line),
		cmocka_unit_test(test_fetch_skip_record),
		cmocka_unit_test(test_meta_json_deep),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
