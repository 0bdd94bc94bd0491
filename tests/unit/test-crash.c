/*
 * Crash safety under SIGKILL: a child process writes (file_write_atomic,
 * journal_append, side_write) in a loop with BOOTAB_TEST_WRITE_DELAY_US
 * set, so that each write is split in parts, and the parent kills it at a
 * random moment, many times. After every kill the parent checks what a
 * reader of the results may rely on: a file is the old or the new version,
 * the journal is whole lines, a side is either without meta.json or
 * complete.
 *
 * The delays come from a seeded generator; the seed is printed and every
 * failure names the seed and the iteration. Replay one with
 * BOOTAB_TEST_KILL_SEED=N; BOOTAB_TEST_KILL_ITERATIONS=N runs more (or
 * fewer) kills per test (default 200).
 *
 * The files live on /dev/shm when it is there: a SIGKILL leaves the page
 * cache as it is, so what a kill can tear is the same on tmpfs as on a
 * disk, and without the disk's fsync time the test takes seconds.
 */
#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#include <jansson.h>

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

static uint64_t seed;
static uint64_t rng_state;
static unsigned iterations = 200;

/* splitmix64: small, and the same sequence everywhere for a seed. */
static uint64_t rng_next(void)
{
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static int setup_seed(void **state)
{
	const char *s = getenv("BOOTAB_TEST_KILL_SEED"), *n = getenv("BOOTAB_TEST_KILL_ITERATIONS");

	(void)state;
	seed = s ? strtoull(s, NULL, 10) : (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 16);
	if (n && strtoul(n, NULL, 10) > 0)
		iterations = (unsigned)strtoul(n, NULL, 10);
	print_message("kill tests: BOOTAB_TEST_KILL_SEED=%llu, %u kills per test\n",
		      (unsigned long long)seed, iterations);
	return 0;
}

static char *make_tmpdir(void)
{
	char *d = xstrdup(access("/dev/shm", W_OK) == 0 ? "/dev/shm/bootab-crash-XXXXXX"
							  : "/tmp/bootab-crash-XXXXXX");

	assert_non_null(mkdtemp(d));
	return d;
}

static void remove_tree(const char *path)
{
	char **names;
	struct stat st;

	if (lstat(path, &st) < 0)
		return;
	if (S_ISDIR(st.st_mode) && dir_list(path, &names, NULL) == 0) {
		for (char **n = names; *n; n++) {
			char *p = path_join(path, *n);

			remove_tree(p);
			free(p);
		}
		strv_free(names);
		rmdir(path);
	} else {
		unlink(path);
	}
}

static void sleep_us(unsigned long us)
{
	struct timespec ts = { (time_t)(us / 1000000), (long)(us % 1000000) * 1000 };

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

static double now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

/*
 * How long one op takes here, now, with the write delay: kills are spread
 * over about two of them, however fast or loaded the machine is.
 */
static unsigned long kill_window_us(void (*op)(void *), void *ctx, const char *delay_us)
{
	double t0, t;

	file_set_test_write_delay(strtol(delay_us, NULL, 10));
	t0 = now_us();
	op(ctx);
	t = now_us() - t0;
	file_set_test_write_delay(0);
	return t < 500 ? 1000 : (unsigned long)(2 * t);
}

/*
 * Forks child_loop(ctx) with the write delay set, lets it run for a random
 * time below max_us (counted from when the child is running) and kills it
 * with SIGKILL. Returns the delay used.
 */
static unsigned long run_and_kill(void (*child_loop)(void *), void *ctx, const char *delay_us,
				  unsigned long max_us)
{
	unsigned long us = (unsigned long)(rng_next() % max_us);
	int status, ready[2];
	char c;
	pid_t pid;

	assert_int_equal(pipe(ready), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		close(ready[0]);
		file_set_test_write_delay(strtol(delay_us, NULL, 10));
		if (write(ready[1], "r", 1) != 1)
			_exit(4);
		close(ready[1]);
		child_loop(ctx);
		_exit(0);
	}
	close(ready[1]);
	/* On a loaded machine a new process may wait long for its first run. */
	assert_int_equal(read(ready[0], &c, 1), 1);
	close(ready[0]);
	sleep_us(us);
	kill(pid, SIGKILL);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	/* The loops never end on their own: a child that exited failed a write. */
	if (!WIFSIGNALED(status))
		fail_msg("seed %llu: the writer exited (status %d) instead of being killed",
			 (unsigned long long)seed, status);
	return us;
}

/* ---- file_write_atomic: old or new, byte for byte ---- */

struct atomic_ctx {
	char *path;
	struct strbuf a, b;
};

/* The old version, then the new one. */
static void atomic_op(void *p)
{
	struct atomic_ctx *c = p;

	if (file_write_atomic(c->path, c->a.buf, c->a.len, 0644) < 0 ||
	    file_write_atomic(c->path, c->b.buf, c->b.len, 0644) < 0)
		_exit(3);
}

static void atomic_loop(void *p)
{
	for (;;)
		atomic_op(p);
}

static void test_kill_file_write_atomic(void **state)
{
	struct atomic_ctx c = { .a = STRBUF_INIT, .b = STRBUF_INIT };
	char *dir = make_tmpdir();
	unsigned seen_a = 0, seen_b = 0, temps = 0;
	unsigned long window;

	(void)state;
	rng_state = seed ^ 1;
	c.path = path_join(dir, "meta.json");
	/* Two versions of different lengths, each spanning several pages. */
	for (int i = 0; i < 3000; i++)
		strbuf_addf(&c.a, "old %04d\n", i);
	for (int i = 0; i < 9000; i++)
		strbuf_addf(&c.b, "new version line %05d\n", i);
	window = kill_window_us(atomic_op, &c, "500");
	assert_int_equal(file_write_atomic(c.path, c.a.buf, c.a.len, 0644), 0);
	for (unsigned i = 0; i < iterations; i++) {
		unsigned long us = run_and_kill(atomic_loop, &c, "500", window);
		char *data = NULL, **names;
		size_t len = 0, n;

		assert_int_equal(file_read(c.path, FILE_READ_MAX, &data, &len), 0);
		if (len == c.a.len && !memcmp(data, c.a.buf, len))
			seen_a++;
		else if (len == c.b.len && !memcmp(data, c.b.buf, len))
			seen_b++;
		else
			fail_msg("seed %llu, kill %u after %lu us: %s is neither version (%zu bytes)",
				 (unsigned long long)seed, i, us, c.path, len);
		free(data);
		/* A left temporary has its own name; remove it as a reader would ignore it. */
		assert_int_equal(dir_list(dir, &names, &n), 0);
		for (size_t k = 0; k < n; k++) {
			if (!strcmp(names[k], "meta.json"))
				continue;
			if (strncmp(names[k], "meta.json.tmp-", 14))
				fail_msg("seed %llu, kill %u: unexpected file %s", (unsigned long long)seed, i,
					 names[k]);
			temps++;
			char *t = path_join(dir, names[k]);

			unlink(t);
			free(t);
		}
		strv_free(names);
	}
	print_message("file_write_atomic: %u kills, old version %u times, new %u, temporaries left %u\n",
		      iterations, seen_a, seen_b, temps);
	/* The delays reach both sides of the rename. */
	assert_true(seen_a > 0 && seen_b > 0);
	remove_tree(dir);
	free(dir);
	free(c.path);
	strbuf_release(&c.a);
	strbuf_release(&c.b);
}

/* ---- journal_append: whole lines only ---- */

static char *journal_line(size_t k)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addf(&sb, "boot %zu step", k);
	/* Lengths from a few bytes to past a page, so appends cross page ends. */
	for (size_t i = 0; i < (k * 613) % 5000; i++)
		strbuf_addch(&sb, (char)('a' + (k + i) % 26));
	strbuf_addf(&sb, " end %zu", k);
	return strbuf_detach(&sb, NULL);
}

static void journal_loop(void *p)
{
	const char *path = p;
	struct journal j;
	struct parse_error err = PARSE_ERROR_INIT;
	size_t k = 0;

	if (journal_read(path, &j, &err) == 0) {
		k = j.n_lines;
		journal_release(&j);
	}
	for (;; k++) {
		char *line = journal_line(k);

		if (journal_append(path, line) < 0)
			_exit(3);
		free(line);
	}
}

/* One append of a long line to a scratch journal. */
static void journal_op(void *p)
{
	char *path = xasprintf("%s.scratch", (const char *)p), *line = journal_line(8);

	if (journal_append(path, line) < 0)
		_exit(3);
	unlink(path);
	free(line);
	free(path);
}

static void test_kill_journal_append(void **state)
{
	char *dir = make_tmpdir(), *path = path_join(dir, "journal");
	unsigned torn = 0;
	size_t last = 0;
	unsigned long window;

	(void)state;
	rng_state = seed ^ 2;
	window = 2 * kill_window_us(journal_op, path, "1000");
	for (unsigned i = 0; i < iterations; i++) {
		unsigned long us = run_and_kill(journal_loop, path, "1000", window);
		struct journal j;
		struct parse_error err = PARSE_ERROR_INIT;
		int r = journal_read(path, &j, &err);

		if (r == -ENOENT)
			continue;
		if (r < 0)
			fail_msg("seed %llu, kill %u after %lu us: journal_read: %s", (unsigned long long)seed,
				 i, us, err.message ? err.message : strerror(-r));
		/* Every line is the very line appended, in order; nothing recorded is lost. */
		if (j.n_lines < last)
			fail_msg("seed %llu, kill %u: %zu lines, there were %zu", (unsigned long long)seed, i,
				 j.n_lines, last);
		for (size_t k = 0; k < j.n_lines; k++) {
			char *want = journal_line(k);

			if (strcmp(j.lines[k], want))
				fail_msg("seed %llu, kill %u after %lu us: line %zu is not what was appended",
					 (unsigned long long)seed, i, us, k + 1);
			free(want);
		}
		torn += j.torn;
		last = j.n_lines;
		journal_release(&j);
	}
	print_message("journal_append: %u kills, %zu whole lines, a cut last line %u times\n", iterations,
		      last, torn);
	/* The kills did land inside appends, and the next append cut those lines off. */
	assert_true(torn > 0);
	assert_true(last > 0);
	remove_tree(dir);
	free(path);
	free(dir);
}

/* ---- side_write: no meta.json, or a complete side ---- */

static const char plan_text[] =
	"[campaign]\n"
	"target = lab\n"
	"order = translated passthrough\n"
	"reps = 2\n"
	"[mode \"translated\"]\n"
	"args =\n"
	"[mode \"passthrough\"]\n"
	"args = iommu=pt\n"
	"[row \"randread\"]\n"
	"command = fio --name=randread --output-format=json\n"
	"parser = fio\n"
	"[check \"data-disk\"]\n"
	"command = true\n"
	"[version \"kernel\"]\n"
	"command = uname -r\n";

static const char snapshot_text[] =
	"bootab-snapshot\t1\n"
	"boot_id\t79060c21-363e-4a3a-aa1b-4c3911e5e399\n"
	"kernel\t6.1.0-57-amd64\n"
	"cmdline\tro quiet iommu=pt\n"
	"log_source\tabsent\n"
	"end\n";

struct side_ctx {
	char *dir;
	struct plan plan;
	struct side_plan asked;     /* what the plan asks each side to record */
	struct snapshot snap;
	struct fetch fetch;
};

static void fetch_add(struct strbuf *sb, const char *name, const char *data, size_t len)
{
	strbuf_addf(sb, "file %s %zu\n", name, len);
	strbuf_add(sb, data, len);
	strbuf_addch(sb, '\n');
}

static void side_ctx_init(struct side_ctx *c)
{
	struct parse_error err = PARSE_ERROR_INIT;
	struct strbuf sb = STRBUF_INIT;
	const char results[] =
		"start 2024-06-01T10:00:00Z\n"
		"rep randread 1 0 2024-06-01T10:00:01Z 2024-06-01T10:00:04Z 3\n"
		"rep randread 2 0 2024-06-01T10:00:05Z 2024-06-01T10:00:08Z 3\n"
		"rep data-disk 1 0 2024-06-01T10:00:09Z 2024-06-01T10:00:09Z 0\n"
		"rep data-disk 2 0 2024-06-01T10:00:10Z 2024-06-01T10:00:10Z 0\n"
		"end 2024-06-01T10:00:11Z\n";
	char *fio;
	size_t len;

	c->dir = make_tmpdir();
	assert_int_equal(plan_parse("crash.ini", plan_text, &c->plan, &err), 0);
	plan_side(&c->plan, &c->asked);
	assert_int_equal(snapshot_parse(snapshot_text, strlen(snapshot_text), &c->snap, &err), 0);
	assert_int_equal(file_read(FIXTURES "/parsers/fio/randread.json", FILE_READ_MAX, &fio, &len), 0);
	strbuf_addstr(&sb, "bootab-fetch 1\n");
	fetch_add(&sb, "results", results, strlen(results));
	fetch_add(&sb, "run.sh", "#!/bin/sh\n", 10);
	fetch_add(&sb, "randread.1.out", fio, len);
	fetch_add(&sb, "randread.2.out", fio, len);
	fetch_add(&sb, "randread.1.err", "", 0);
	fetch_add(&sb, "data-disk.1.out", "64+0 records in\n", 16);
	fetch_add(&sb, "data-disk.2.out", "64+0 records in\n", 16);
	fetch_add(&sb, "version.kernel", "6.1.0-57-amd64\n", 15);
	strbuf_addstr(&sb, "end\n");
	assert_int_equal(fetch_parse(sb.buf, sb.len, &c->fetch, &err), 0);
	parse_error_release(&err);
	strbuf_release(&sb);
	free(fio);
}

static void side_ctx_release(struct side_ctx *c)
{
	remove_tree(c->dir);
	free(c->dir);
	plan_side_release(&c->asked);
	plan_release(&c->plan);
	snapshot_release(&c->snap);
	fetch_release(&c->fetch);
}

static int write_side(struct side_ctx *c, size_t k)
{
	char *name = xasprintf("side-%04zu", k), *dir = path_join(c->dir, name);
	struct strlist warnings = STRLIST_INIT;
	struct side_record rec = {
		.plan = &c->asked, .campaign = "crash", .target = "lab", .boot_index = k % 2,
		.n_boots = 2, .label = name, .mode = k % 2 ? "passthrough" : "translated",
		.round = 1, .reboot_s = 25.0, .snapshot_time = "2024-06-01T10:00:00Z",
		.snapshot = &c->snap, .fetch = &c->fetch, .verify_summary = "ok (3 checks)",
	};
	int r = side_write(dir, &rec, &warnings);

	strlist_release(&warnings);
	free(dir);
	free(name);
	return r;
}

static bool side_complete(const char *dir)
{
	char *meta = path_join(dir, "meta.json");
	bool r = path_exists(meta);

	free(meta);
	return r;
}

static void side_op(void *p)
{
	struct side_ctx *c = p;
	char *dir = path_join(c->dir, "side-9999");

	if (write_side(c, 9999) < 0)
		_exit(3);
	remove_tree(dir);
	free(dir);
}

/* Finishes the side a kill left without meta.json (as a resume does), then writes new ones. */
static void side_loop(void *p)
{
	struct side_ctx *c = p;
	char **names;
	size_t n, k = 0;

	if (dir_list(c->dir, &names, &n) < 0)
		_exit(3);
	for (size_t i = 0; i < n; i++) {
		char *d = path_join(c->dir, names[i]);

		k = (size_t)strtoul(names[i] + 5, NULL, 10);
		if (!side_complete(d) && write_side(c, k) < 0)
			_exit(3);
		k++;
		free(d);
	}
	strv_free(names);
	for (;; k++)
		if (write_side(c, k) < 0)
			_exit(3);
}

/* A complete side loads with no warning, every file it names is there, both reps parsed. */
static void check_side(const char *dir, unsigned i, unsigned long us)
{
	struct strlist warnings = STRLIST_INIT;
	struct side side;
	struct row *row;
	char *meta = path_join(dir, "meta.json");
	json_error_t jerr;
	json_t *root = json_load_file(meta, JSON_REJECT_DUPLICATES, &jerr), *rows, *jr, *rep;
	size_t ri, pi;

	if (!root)
		fail_msg("seed %llu, kill %u after %lu us: %s: %s", (unsigned long long)seed, i, us, meta,
			 jerr.text);
	rows = json_object_get(root, "rows");
	assert_int_equal(json_array_size(rows), 2);
	json_array_foreach(rows, ri, jr) {
		json_array_foreach(json_object_get(jr, "reps"), pi, rep) {
			const char *out = json_string_value(json_object_get(rep, "out"));
			char *path = path_join(dir, out);

			if (!path_exists(path))
				fail_msg("seed %llu, kill %u: %s names %s, which is missing",
					 (unsigned long long)seed, i, meta, out);
			free(path);
		}
	}
	json_decref(root);
	assert_int_equal(side_load(dir, &side, &warnings), 0);
	for (size_t w = 0; w < warnings.n; w++)
		fail_msg("seed %llu, kill %u: %s", (unsigned long long)seed, i, warnings.items[w]);
	row = side_find_row(&side, "randread");
	assert_non_null(row);
	assert_int_equal(row->metrics.n_metrics > 0, 1);
	assert_int_equal(row->metrics.metrics[0].n_samples, 2);
	side_release(&side);
	strlist_release(&warnings);
	free(meta);
}

static void test_kill_side_write(void **state)
{
	struct side_ctx c = { 0 };
	unsigned incomplete_seen = 0;
	size_t n = 0, n_checked = 0;
	char **names, **checked = NULL;
	unsigned long window;

	(void)state;
	rng_state = seed ^ 3;
	side_ctx_init(&c);
	window = kill_window_us(side_op, &c, "200");
	for (unsigned i = 0; i < iterations; i++) {
		unsigned long us = run_and_kill(side_loop, &c, "200", window);

		assert_int_equal(dir_list(c.dir, &names, &n), 0);
		for (size_t k = 0; k < n; k++) {
			char *d = path_join(c.dir, names[k]);
			bool seen = false;

			/* A complete side is never written again: check each once. */
			for (size_t m = 0; m < n_checked && !seen; m++)
				seen = !strcmp(checked[m], names[k]);
			if (seen) {
				free(d);
				continue;
			}
			if (side_complete(d)) {
				check_side(d, i, us);
				checked = xrealloc(checked, (n_checked + 1) * sizeof(*checked));
				checked[n_checked++] = xstrdup(names[k]);
			} else {
				incomplete_seen++;
			}
			free(d);
		}
		strv_free(names);
	}
	for (size_t m = 0; m < n_checked; m++)
		free(checked[m]);
	free(checked);
	/* What the kills left unfinished is finished in place, as a resume does. */
	assert_int_equal(dir_list(c.dir, &names, &n), 0);
	for (size_t k = 0; k < n; k++) {
		char *d = path_join(c.dir, names[k]);

		if (!side_complete(d))
			assert_int_equal(write_side(&c, (size_t)strtoul(names[k] + 5, NULL, 10)), 0);
		check_side(d, iterations, 0);
		free(d);
	}
	strv_free(names);
	print_message("side_write: %u kills, %zu sides, a side without meta.json seen %u times\n",
		      iterations, n, incomplete_seen);
	assert_true(incomplete_seen > 0 && n_checked > 0);
	side_ctx_release(&c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kill_file_write_atomic),
		cmocka_unit_test(test_kill_journal_append),
		cmocka_unit_test(test_kill_side_write),
	};

	return cmocka_run_group_tests(tests, setup_seed, NULL);
}
