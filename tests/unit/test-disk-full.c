/*
 * A full disk and a read-only one under the writers: file_write_atomic()
 * leaves the old file and no temporary, journal_append() leaves whole
 * lines, side_write() leaves no meta.json, and nothing written before is
 * touched.
 *
 * The file system is a real one: a 256 KiB tmpfs mounted in a mount
 * namespace of this process (it vanishes when the test ends). That needs
 * root (CAP_SYS_ADMIN); without it the tests are skipped and say so.
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "campaign/journal.h"
#include "lib/alloc.h"
#include "lib/file.h"
#include "lib/strbuf.h"
#include "lib/strlist.h"
#include "plan/plan.h"
#include "results/fetch.h"
#include "results/side-write.h"
#include "results/side.h"
#include "kernel/snapshot.h"

static char mnt[] = "/tmp/bootab-full-XXXXXX";
static const char *no_mount; /* why the tests cannot run, or NULL */

static int mount_small_fs(void **state)
{
	(void)state;
	if (!mkdtemp(mnt))
		return -1;
	/* A private mount namespace: the tmpfs is this process's alone. */
	if (unshare(CLONE_NEWNS) < 0) {
		no_mount = "cannot make a mount namespace (needs root)";
		return 0;
	}
	/* The kernel ignores source and type here; they are named for valgrind's syscall check. */
	if (mount("none", "/", "none", MS_REC | MS_PRIVATE, NULL) < 0 ||
	    mount("tmpfs", mnt, "tmpfs", 0, "size=256k,mode=0755") < 0)
		no_mount = "cannot mount a tmpfs (needs root)";
	return 0;
}

static int unmount_small_fs(void **state)
{
	(void)state;
	if (!no_mount)
		umount2(mnt, MNT_DETACH);
	rmdir(mnt);
	return 0;
}

/* Each test starts on a new, empty, writable tmpfs. */
static void fresh_fs(void)
{
	if (no_mount)
		skip();
	assert_int_equal(umount2(mnt, MNT_DETACH), 0);
	assert_int_equal(mount("tmpfs", mnt, "tmpfs", 0, "size=256k,mode=0755"), 0);
}

/* Fills the file system to the last block with mnt/filler. */
static void fill(void)
{
	char *path = path_join(mnt, "filler"), block[4096];
	int fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);

	assert_true(fd >= 0);
	memset(block, 'f', sizeof(block));
	for (;;) {
		ssize_t n = write(fd, block, sizeof(block));

		if (n < 0) {
			assert_int_equal(errno, ENOSPC);
			break;
		}
	}
	/* And the last bytes of a block. */
	while (write(fd, block, 1) == 1)
		;
	close(fd);
	free(path);
}

/* Frees bytes at the end of the filler: room for some files, not for all. */
static void make_room(off_t bytes)
{
	char *path = path_join(mnt, "filler");
	struct stat st;

	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(truncate(path, st.st_size - bytes), 0);
	free(path);
}

static void set_read_only(void)
{
	assert_int_equal(mount("tmpfs", mnt, "tmpfs", MS_REMOUNT | MS_RDONLY, "size=256k"), 0);
}

/* The names in mnt, joined with spaces. */
static char *names_in(const char *dir)
{
	struct strbuf sb = STRBUF_INIT;
	char **names;

	assert_int_equal(dir_list(dir, &names, NULL), 0);
	for (char **n = names; *n; n++)
		strbuf_addf(&sb, "%s%s", n == names ? "" : " ", *n);
	strv_free(names);
	return strbuf_detach(&sb, NULL);
}

static void assert_file_is(const char *path, const char *want)
{
	char *data;
	size_t len;

	assert_int_equal(file_read(path, FILE_READ_MAX, &data, &len), 0);
	assert_int_equal(len, strlen(want));
	assert_memory_equal(data, want, len);
	free(data);
}

static void test_write_atomic_full_keeps_old(void **state)
{
	char *path, *names, *big = xmalloc(64 << 10);

	(void)state;
	fresh_fs();
	path = path_join(mnt, "report.txt");
	assert_int_equal(file_write_atomic(path, "old report\n", 11, 0644), 0);
	fill();
	memset(big, 'n', 64 << 10);
	assert_int_equal(file_write_atomic(path, big, 64 << 10, 0644), -ENOSPC);
	assert_file_is(path, "old report\n");
	/* No temporary is left to fill the disk further or be mistaken for a result. */
	names = names_in(mnt);
	assert_string_equal(names, "filler report.txt");
	free(names);
	free(big);
	free(path);
}

static void test_write_atomic_read_only(void **state)
{
	char *path, *names;

	(void)state;
	fresh_fs();
	path = path_join(mnt, "meta.json");
	assert_int_equal(file_write_atomic(path, "{}\n", 3, 0644), 0);
	set_read_only();
	assert_int_equal(file_write_atomic(path, "{\"new\": 1}\n", 11, 0644), -EROFS);
	assert_file_is(path, "{}\n");
	names = names_in(mnt);
	assert_string_equal(names, "meta.json");
	free(names);
	free(path);
}

static void test_journal_full_keeps_whole_lines(void **state)
{
	const char *before = "bootab-journal 1 campaign c boots 2\nboot 1 a begin\nboot 1 a set\n";
	char *path, *line = xmalloc(10001);
	struct journal j;
	struct parse_error err = PARSE_ERROR_INIT;

	(void)state;
	fresh_fs();
	path = path_join(mnt, "journal");
	assert_int_equal(journal_append(path, "bootab-journal 1 campaign c boots 2"), 0);
	assert_int_equal(journal_append(path, "boot 1 a begin"), 0);
	assert_int_equal(journal_append(path, "boot 1 a set"), 0);
	fill();
	/* Longer than what is left of the journal's last block: part of it would fit. */
	memset(line, 'x', 10000);
	line[10000] = '\0';
	assert_int_equal(journal_append(path, line), -ENOSPC);
	assert_file_is(path, before);
	assert_int_equal(journal_read(path, &j, &err), 0);
	assert_int_equal(j.n_lines, 3);
	assert_int_equal(j.torn, 0);
	journal_release(&j);
	/* With room again, appends go on after the whole lines. */
	{
		char *filler = path_join(mnt, "filler");

		unlink(filler);
		free(filler);
	}
	assert_int_equal(journal_append(path, "boot 1 a rebooted"), 0);
	assert_int_equal(journal_read(path, &j, &err), 0);
	assert_int_equal(j.n_lines, 4);
	assert_string_equal(j.lines[3], "boot 1 a rebooted");
	journal_release(&j);
	free(line);
	free(path);
}

static void test_journal_read_only(void **state)
{
	char *path;

	(void)state;
	fresh_fs();
	path = path_join(mnt, "journal");
	assert_int_equal(journal_append(path, "boot 1 a begin"), 0);
	set_read_only();
	assert_int_equal(journal_append(path, "boot 1 a set"), -EROFS);
	assert_file_is(path, "boot 1 a begin\n");
	free(path);
}

/* ---- side_write ---- */

static const char plan_text[] =
	"[campaign]\n"
	"target = lab\n"
	"order = a b\n"
	"reps = 2\n"
	"[mode \"a\"]\n"
	"args =\n"
	"[mode \"b\"]\n"
	"args = iommu=pt\n"
	"[row \"randread\"]\n"
	"command = fio --output-format=json\n"
	"parser = fio\n";

static const char snapshot_text[] =
	"bootab-snapshot\t1\n"
	"boot_id\t79060c21-363e-4a3a-aa1b-4c3911e5e399\n"
	"kernel\t6.1.0-57-amd64\n"
	"cmdline\tro quiet\n"
	"log_source\tabsent\n"
	"end\n";

static int write_side(const char *dir, const struct plan *plan, const struct snapshot *snap,
		      const struct fetch *f)
{
	struct strlist warnings = STRLIST_INIT;
	struct side_plan asked;
	struct side_record rec;
	int r;

	plan_side(plan, &asked);
	rec = (struct side_record){
		.plan = &asked, .campaign = "c", .target = "lab", .boot_index = 0, .n_boots = 2,
		.label = "a", .mode = "a", .round = 1, .reboot_s = -1,
		.snapshot_time = "2024-06-01T10:00:00Z", .snapshot = snap, .fetch = f,
		.verify_summary = "ok (1 checks)",
	};
	r = side_write(dir, &rec, &warnings);
	plan_side_release(&asked);
	strlist_release(&warnings);
	return r;
}

static void test_side_write_full(void **state)
{
	struct parse_error err = PARSE_ERROR_INIT;
	struct plan plan;
	struct snapshot snap;
	struct fetch f;
	struct strbuf sb = STRBUF_INIT, big = STRBUF_INIT;
	const char results[] = "start 2024-06-01T10:00:00Z\n"
			       "rep randread 1 0 2024-06-01T10:00:01Z 2024-06-01T10:00:04Z 3\n"
			       "rep randread 2 0 2024-06-01T10:00:05Z 2024-06-01T10:00:08Z 3\n"
			       "end 2024-06-01T10:00:09Z\n";
	char *fio, *a, *b, *meta_a, *meta_b, *before, *after;
	size_t len, len2;
	struct side side;
	struct strlist warnings = STRLIST_INIT;

	(void)state;
	fresh_fs();
	assert_int_equal(plan_parse("full.ini", plan_text, &plan, &err), 0);
	assert_int_equal(snapshot_parse(snapshot_text, strlen(snapshot_text), &snap, &err), 0);
	assert_int_equal(file_read(FIXTURES "/parsers/fio/randread.json", FILE_READ_MAX, &fio, &len), 0);
	/* The second rep's stderr is large: it is what does not fit. */
	for (int i = 0; i < 3000; i++)
		strbuf_addf(&big, "fio: warning line %d\n", i);
	strbuf_addstr(&sb, "bootab-fetch 1\n");
	strbuf_addf(&sb, "file results %zu\n%s\n", strlen(results), results);
	strbuf_addf(&sb, "file randread.1.out %zu\n", len);
	strbuf_add(&sb, fio, len);
	strbuf_addf(&sb, "\nfile randread.2.out %zu\n", len);
	strbuf_add(&sb, fio, len);
	strbuf_addf(&sb, "\nfile randread.2.err %zu\n", big.len);
	strbuf_add(&sb, big.buf, big.len);
	strbuf_addstr(&sb, "\nend\n");
	assert_int_equal(fetch_parse(sb.buf, sb.len, &f, &err), 0);
	parse_error_release(&err);

	a = path_join(mnt, "a");
	b = path_join(mnt, "b");
	meta_a = path_join(a, "meta.json");
	meta_b = path_join(b, "meta.json");
	assert_int_equal(write_side(a, &plan, &snap, &f), 0);
	assert_int_equal(file_read(meta_a, FILE_READ_MAX, &before, &len), 0);
	/*
	 * Room for the small files but not for the large stderr: a side that
	 * misses a file must not get its meta.json, even though meta.json
	 * itself would fit.
	 */
	fill();
	make_room(48 << 10);
	assert_int_equal(write_side(b, &plan, &snap, &f), -ENOSPC);
	assert_false(path_exists(meta_b));
	/* The side recorded before is untouched and still loads whole. */
	assert_int_equal(file_read(meta_a, FILE_READ_MAX, &after, &len2), 0);
	assert_int_equal(len, len2);
	assert_memory_equal(before, after, len);
	assert_int_equal(side_load(a, &side, &warnings), 0);
	assert_int_equal(warnings.n, 0);
	assert_int_equal(side_find_row(&side, "randread")->metrics.metrics[0].n_samples, 2);
	side_release(&side);
	/* With room again the same side is written in place, whole. */
	{
		char *filler = path_join(mnt, "filler");

		unlink(filler);
		free(filler);
	}
	assert_int_equal(write_side(b, &plan, &snap, &f), 0);
	assert_int_equal(side_load(b, &side, &warnings), 0);
	assert_int_equal(warnings.n, 0);
	side_release(&side);

	strlist_release(&warnings);
	free(before);
	free(after);
	free(meta_a);
	free(meta_b);
	free(a);
	free(b);
	free(fio);
	strbuf_release(&sb);
	strbuf_release(&big);
	fetch_release(&f);
	snapshot_release(&snap);
	plan_release(&plan);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_write_atomic_full_keeps_old),
		cmocka_unit_test(test_write_atomic_read_only),
		cmocka_unit_test(test_journal_full_keeps_whole_lines),
		cmocka_unit_test(test_journal_read_only),
		cmocka_unit_test(test_side_write_full),
	};

	return cmocka_run_group_tests(tests, mount_small_fs, unmount_small_fs);
}
