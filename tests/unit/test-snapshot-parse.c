/* Unit tests for src/snapshot: parsing snapshot.sh output (untrusted), meta.json, meta.txt. */
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

#include "lib/alloc.h"
#include "lib/process.h"
#include "lib/strbuf.h"
#include "kernel/notes.h"
#include "kernel/snapshot.h"
#include "lib/shell-quote.h"
#include "lib/file.h"
#include "target/target.h"
#include "test-tmpdir.h"

#define HEAD "bootab-snapshot\t1\n"
#define BOOT "boot_id\t79060c21-363e-4a3a-aa1b-4c3911e5e399\nkernel\t6.1.0-57-amd64\ncmdline\tro quiet\n"
#define TAIL "log_source\tabsent\nend\n"
/* Big-endian notes whose build id is deadbeef. */
#define NOTES "kernel_notes\t000000040000000400000003474e5500deadbeef\n"

/* Runs the embedded snapshot.sh on a fixture tree with shell, returns its output. */
static char *run_snapshot(const char *tree, const char *shell, const char *const *args)
{
	struct target_options o = { .root = tree, .shell = shell };
	struct target *t = NULL;
	struct process_result res;
	char *error = NULL, *out;

	assert_int_equal(target_open("local", &o, &t, &error), 0);
	assert_int_equal(target_run_script(t, "snapshot", args, NULL, 0, true, 180000, &res), 0);
	assert_int_equal(res.exit_code, 0);
	assert_string_equal(res.err, "");
	out = res.out;
	free(res.err);
	target_close(t);
	return out;
}

static void check_seed_translated(const struct snapshot *s)
{
	char *summary = iommu_map_summary(&s->iommu);

	assert_string_equal(summary, "1 DMA, 32 DMA-FQ, 2 identity");
	free(summary);
	assert_string_equal(s->boot_id, "3f6c2a1e-58b7-4d0e-9c41-7a2b9e0d4c11");
	assert_string_equal(s->kernel, "7.2.9-300.fc45.x86_64");
	assert_string_equal(s->hostname, "a9-mega");
	assert_string_equal(s->machine_id, "4c4c4544004a3610804bb7c04f395032");
	assert_non_null(strstr(s->cmdline, "ttm.pages_limit=31457280"));
	assert_int_equal(s->iommu.n_groups, 35);
	assert_int_equal(s->iommu.n_devices, 44);
	assert_string_equal(iommu_map_device_type(&s->iommu, "0000:c6:00.0"), "identity");
	assert_string_equal(iommu_map_device_type(&s->iommu, "0000:c7:00.1"), "identity");
	assert_string_equal(iommu_map_device_type(&s->iommu, "0000:c2:00.0"), "DMA");
	/* The platform device is kept, by its sysfs name, with no ids. */
	{
		const struct iommu_device *d = iommu_map_device(&s->iommu, "MSFT0201:00");

		assert_non_null(d);
		assert_int_equal(d->group, 0);
		assert_string_equal(d->bus, "platform");
		assert_int_equal(d->vendor, IOMMU_ID_ABSENT);
		assert_null(d->driver);
	}
	{
		const struct iommu_device *d = iommu_map_device(&s->iommu, "0000:c6:00.0");

		assert_int_equal(d->vendor, 0x1002);
		assert_int_equal(d->device, 0x1586);
		assert_int_equal(d->class_code, 0x038000);
		assert_string_equal(d->driver, "amdgpu");
		assert_string_equal(d->bus, "pci");
	}
	assert_int_equal(s->n_iommu_classes, 1);
	assert_string_equal(s->iommu_classes[0], "ivhd0");
	assert_int_equal(s->log_source, SNAPSHOT_LOG_FILE);
	/* 44 "Adding to iommu group" + 2 domain lines + 3 AMD-Vi; the command line is left out */
	assert_int_equal(s->log_count, 49);
	assert_int_equal(s->n_log_lines, 49);
	for (size_t i = 0; i < s->n_log_lines; i++)
		assert_null(strstr(s->log_lines[i], "ommand line"));
	assert_string_equal(snapshot_entry_get(&s->params, "ttm.pages_limit", NULL), "31457280");
	{
		bool found = false;

		assert_null(snapshot_entry_get(&s->params, "nosuch.param", &found));
		assert_true(found);
		assert_null(snapshot_entry_get(&s->params, "never.asked", &found));
		assert_false(found);
	}
	assert_string_equal(snapshot_entry_get(&s->files, "/sys/module/ttm/parameters/page_pool_size", NULL),
			    "31457280");
	assert_int_equal(s->governors.n, 4);
	assert_int_equal(s->vulnerabilities.n, 14);
	assert_int_equal(s->n_thermal, 1);
	assert_int_equal(s->thermal[0].millidegrees, 45000);
}

static void test_parse_fixture_dash_and_busybox(void **state)
{
	const char *args[] = { "param:ttm.pages_limit", "param:nosuch.param",
		"file:/sys/module/ttm/parameters/page_pool_size", NULL };
	char dir[] = "/tmp/bootab-test-XXXXXX", *busybox_sh;
	const char *shells[2] = { "dash", NULL };

	(void)state;
	/* busybox runs its sh applet when called as "sh" */
	assert_non_null(mkdtemp(dir));
	busybox_sh = xasprintf("%s/sh", dir);
	assert_int_equal(symlink("/bin/busybox", busybox_sh), 0);
	shells[1] = busybox_sh;
	for (size_t i = 0; i < 2; i++) {
		struct parse_error err = PARSE_ERROR_INIT;
		struct snapshot s = { 0 };
		char *out;

		out = run_snapshot(FIXTURES "/sysfs/seed-translated", shells[i], args);
		if (snapshot_parse(out, strlen(out), &s, &err) < 0)
			fail_msg("%u: %s", err.line, err.message);
		check_seed_translated(&s);
		snapshot_release(&s);
		free(out);
	}
	unlink(busybox_sh);
	rmdir(dir);
	free(busybox_sh);
}

static void test_parse_off_box(void **state)
{
	struct parse_error err = PARSE_ERROR_INIT;
	struct snapshot s = { 0 };
	char *out = run_snapshot(FIXTURES "/sysfs/seed-off", "dash", NULL), *summary;

	(void)state;
	assert_int_equal(snapshot_parse(out, strlen(out), &s, &err), 0);
	summary = iommu_map_summary(&s.iommu);
	assert_string_equal(summary, "no IOMMU groups");
	assert_int_equal(s.n_iommu_classes, 0);
	/* the log still says Translated; it is recorded, as evidence */
	assert_int_equal(s.log_count, 3);
	assert_non_null(strstr(s.log_lines[0], "Default domain type: Translated"));
	free(summary);
	snapshot_release(&s);
	free(out);
}

/* snapshot.sh, kernel-id.sh and inventory.sh, as target_snapshot() runs them: the raw output. */
static char *run_full_snapshot(const char *tree, const char *shell)
{
	struct target_options o = { .root = tree, .shell = shell };
	struct parse_error err = PARSE_ERROR_INIT;
	struct target *t = NULL;
	struct snapshot s = { 0 };
	char *error = NULL, *raw = NULL;

	assert_int_equal(target_open("local", &o, &t, &error), 0);
	assert_int_equal(target_snapshot(t, NULL, true, &s, &raw, &err), 0);
	snapshot_release(&s);
	target_close(t);
	return raw;
}

/* The off boot of the case study: the NPU unbound, its node gone, the amdxdna lines. */
static void test_parse_inventory(void **state)
{
	char dir[] = "/tmp/bootab-test-XXXXXX", *busybox_sh;
	const char *shells[2] = { "dash", NULL };

	(void)state;
	/* busybox runs its sh applet when called as "sh" */
	assert_non_null(mkdtemp(dir));
	busybox_sh = xasprintf("%s/sh", dir);
	assert_int_equal(symlink("/bin/busybox", busybox_sh), 0);
	shells[1] = busybox_sh;
	for (size_t i = 0; i < 2; i++) {
		struct parse_error err = PARSE_ERROR_INIT;
		struct snapshot s = { 0 }, p = { 0 };
		char *out = run_full_snapshot(FIXTURES "/sysfs/seed-off", shells[i]);
		char *pt = run_full_snapshot(FIXTURES "/sysfs/seed-passthrough2", shells[i]);
		const struct inventory *inv = &s.inventory;
		const struct inventory_pci *npu;
		const struct klog_line *last;

		assert_int_equal(snapshot_parse(out, strlen(out), &s, &err), 0);
		assert_true(inv->has_devices);
		assert_int_equal(inv->n_pci, 43);
		npu = inventory_find_pci(inv, "0000:c7:00.1");
		assert_non_null(npu);
		assert_null(npu->driver);
		assert_int_equal(npu->iommu_group, -1);
		assert_int_equal(npu->vendor, 0x1022);
		assert_int_equal(npu->device, 0x17f0);
		assert_int_equal(npu->class_code, 0x118000);
		assert_string_equal(inventory_find_pci(inv, "0000:c6:00.0")->driver, "amdgpu");
		/* accel0 gone; loop0 and zram0 and the connector (no node) left out */
		assert_int_equal(inv->n_nodes, 8);
		for (size_t n = 0; n < inv->n_nodes; n++) {
			assert_string_not_equal(inv->nodes[n].dev, "/dev/accel/accel0");
			assert_null(strstr(inv->nodes[n].dev, "loop"));
		}
		assert_string_equal(inv->nodes[0].dev, "/dev/dri/card1");
		assert_string_equal(inv->nodes[0].device, "0000:c6:00.0");
		assert_int_equal(inv->n_netifs, 3);
		assert_string_equal(inv->netifs[0].name, "enp195s0");
		assert_string_equal(inv->netifs[0].operstate, "up");
		assert_int_equal(inv->netifs[0].carrier, 1);
		assert_string_equal(inv->netifs[0].device, "0000:c3:00.0");
		assert_int_equal(inv->netifs[2].carrier, -1);
		assert_true(inv->has_klog);
		assert_int_equal(inv->klog_source, INVENTORY_SOURCE_FILE);
		assert_int_equal(inv->n_klog, 6);
		assert_int_equal(inv->klog_count, 6);
		last = &inv->klog[5];
		assert_int_equal(last->level, 3);
		assert_true(last->time > 9.8722 && last->time < 9.8723);
		assert_string_equal(last->text, "amdxdna 0000:c7:00.1: probe with driver amdxdna failed with error -22");
		assert_string_equal(last->key, "amdxdna 0000:c7:00.1: probe with driver amdxdna failed with error -22");
		assert_int_equal(inv->klog[0].level, 4);
		assert_true(inv->has_units);
		assert_int_equal(inv->n_failed_units, 0);

		assert_int_equal(snapshot_parse(pt, strlen(pt), &p, &err), 0);
		assert_int_equal(p.inventory.n_failed_units, 1);
		assert_string_equal(p.inventory.failed_units[0], "fwupd-refresh.service");
		assert_string_equal(inventory_find_pci(&p.inventory, "0000:c7:00.1")->driver, "amdxdna");
		assert_int_equal(inventory_find_pci(&p.inventory, "0000:c7:00.1")->iommu_group, 29);
		assert_string_equal(p.inventory.nodes[0].dev, "/dev/accel/accel0");
		assert_string_equal(p.inventory.nodes[0].device, "0000:c7:00.1");

		/* meta.json keeps all of it, and reads back the same */
		{
			json_t *j = snapshot_to_json(&p, NULL);
			struct inventory back;

			assert_string_equal(json_string_value(json_object_get(json_array_get(json_object_get(
				json_object_get(j, "devices"), "pci"), 38), "iommu_type")), "identity");
			assert_int_equal(inventory_from_json(j, &back, &err), 0);
			assert_int_equal(back.n_pci, p.inventory.n_pci);
			assert_int_equal(back.n_nodes, p.inventory.n_nodes);
			assert_int_equal(back.n_netifs, p.inventory.n_netifs);
			assert_int_equal(back.n_klog, p.inventory.n_klog);
			assert_int_equal(back.klog_count, p.inventory.klog_count);
			assert_string_equal(back.failed_units[0], "fwupd-refresh.service");
			assert_int_equal(back.netifs[2].carrier, -1);
			assert_string_equal(back.klog[back.n_klog - 1].key, p.inventory.klog[p.inventory.n_klog - 1].key);
			for (size_t n = 0; n < back.n_pci; n++) {
				assert_string_equal(back.pci[n].address, p.inventory.pci[n].address);
				assert_int_equal(back.pci[n].iommu_group, p.inventory.pci[n].iommu_group);
			}
			inventory_release(&back);
			json_decref(j);
		}
		snapshot_release(&p);
		snapshot_release(&s);
		free(pt);
		free(out);
	}
	unlink(busybox_sh);
	rmdir(dir);
	free(busybox_sh);
}

/*
 * Every script travels as one quoted argument of the ssh command line, and
 * the lab's dropbear refuses a command past 9000 bytes: what is sent stays
 *  under it, with 500 bytes for the sudo wrapper, the label and the arguments.
 */
static void test_scripts_fit_a_command_line(void **state)
{
	static const char *const names[] = { "batch", "boot-id", "io", "oneshot", "probe", "read-file", "reboot",
					     "run-fetch", "run-start", "run-watch", "snapshot", "inventory", "kernel-id", NULL };
	struct target_options o = { .root = NULL };
	struct target *t = NULL;
	char *error = NULL;

	(void)state;
	assert_int_equal(target_open("local", &o, &t, &error), 0);
	for (size_t i = 0; names[i]; i++) {
		char *text = target_script_render(t, names[i]), *quoted;

		assert_non_null(text);
		quoted = shell_quote(text);
		if (strlen(quoted) > 8500)
			fail_msg("%s: %zu bytes on the command line", names[i], strlen(quoted));
		/* comment lines are left out; the code is all there */
		assert_null(strstr(text, "\n#"));
		free(quoted);
		free(text);
	}
	target_close(t);
}

/* Removes the line "time\t..." from s, in place. */
static void drop_time_record(char *s)
{
	char *p = strstr(s, "\ntime\t"), *end;

	assert_non_null(p);
	end = strchr(p + 1, '\n');
	assert_non_null(end);
	memmove(p, end, strlen(end) + 1);
}

/* A snapshot of tree with shell: its raw output and the sessions it took. */
static char *snapshot_sessions(const char *tree, const char *shell, bool no_batch, unsigned long *ret_sessions)
{
	const char *args[] = { "param:ttm.pages_limit", "param:nosuch.param",
		"file:/sys/module/ttm/parameters/page_pool_size", "file:/sys/kernel/iommu_groups/0/type", NULL };
	struct target_options o = { .root = tree, .shell = shell, .no_batch = no_batch };
	struct parse_error err = PARSE_ERROR_INIT;
	struct target_counts before, after;
	struct snapshot s = { 0 };
	struct target *t = NULL;
	char *error = NULL, *raw = NULL;

	assert_int_equal(target_open("local", &o, &t, &error), 0);
	target_counts(t, &before);
	if (target_snapshot(t, args, true, &s, &raw, &err) < 0)
		fail_msg("%s (%s): %s %s", tree, shell, err.message ? err.message : "", target_error(t));
	target_counts(t, &after);
	*ret_sessions = after.sessions - before.sessions;
	snapshot_release(&s);
	parse_error_release(&err);
	target_close(t);
	return raw;
}

/*
 * A snapshot is its three scripts in one batch: one session, and the same
 * output byte for byte as the scripts run one session each, on captured
 * trees (a box, the lab off and translated, the seed box with its devices),
 * under dash and busybox sh.
 */
static void test_snapshot_in_one_session(void **state)
{
	/* One tree of each kind (bench/snapshot-same.sh compares every tree, old build against new). */
	static const char *const trees[] = { "box-amd", "lab-off", "lab-translated", "seed-translated", NULL };
	char *dir = test_tmpdir(), *busybox_sh = path_join(dir, "sh");
	const char *shells[] = { "dash", busybox_sh, NULL };

	(void)state;
	assert_int_equal(symlink("/bin/busybox", busybox_sh), 0);
	for (size_t i = 0; trees[i]; i++) {
		char *tree = xasprintf("%s/sysfs/%s", FIXTURES, trees[i]);

		for (size_t j = 0; shells[j]; j++) {
			unsigned long alone, batched;
			char *a = snapshot_sessions(tree, shells[j], true, &alone);
			char *b = snapshot_sessions(tree, shells[j], false, &batched);

			/* The same but for the clock's "time" record (the runs are seconds apart). */
			drop_time_record(a);
			drop_time_record(b);
			if (strcmp(a, b))
				fail_msg("%s (%s): the batch's snapshot differs from the scripts' own:\n%s\n---\n%s", trees[i],
					 shells[j], a, b);
			assert_int_equal(alone, 3);
			assert_int_equal(batched, 1);
			free(a);
			free(b);
		}
		free(tree);
	}
	free(busybox_sh);
	free(dir);
}

/* io.sh exists PATH on t: its exit code. */
static int run_exists(struct target *t, const char *path)
{
	const char *args[] = { "exists", path, NULL };
	struct process_result res;
	int code;

	assert_int_equal(target_run_script(t, "io", args, NULL, 0, false, 20000, &res), 0);
	code = res.exit_code;
	process_result_release(&res);
	return code;
}

/*
 * Scripts in a batch get their args and stdin as they would alone (a last
 * line without its newline, spaces, quotes, an empty argument) and give
 * their exit codes, stdout and stderr; what the batch cannot carry (an
 * argument with a newline) runs alone; a batch ends with its last end.
 */
static void test_batch_runs_like_alone(void **state)
{
	static const char *const data[] = { "", "one line\n", "no newline at the end", "a\n\n  b \\ 'q' \"\n\nlast",
					    NULL };
	char *root = test_tmpdir();

	(void)state;
	for (size_t no_batch = 0; no_batch < 2; no_batch++) {
		struct target_options o = { .root = root, .no_batch = no_batch };
		struct target_counts before, after;
		struct target *t = NULL;
		char *error = NULL;

		assert_int_equal(target_open("local", &o, &t, &error), 0);
		target_counts(t, &before);
		target_batch_begin(t);
		target_batch_begin(t);
		for (size_t i = 0; data[i]; i++) {
			char *path = xasprintf("/f %zu '$x'", i), *file = xasprintf("%s%s", root, path), *got = NULL;
			const char *args[] = { "write", path, "0644", NULL };
			struct process_result res;
			size_t len;

			assert_int_equal(target_run_script(t, "io", args, data[i], strlen(data[i]), false, 20000, &res), 0);
			assert_int_equal(res.exit_code, 0);
			process_result_release(&res);
			assert_int_equal(file_read(file, 1 << 20, &got, &len), 0);
			assert_int_equal(len, strlen(data[i]));
			assert_memory_equal(got, data[i], len);
			free(got);
			free(file);
			free(path);
		}
		{
			/* An exit code and stderr, and an empty argument. */
			const char *args[] = { "remove", "/nothing here", NULL }, *empty[] = { "", NULL };
			struct process_result res;

			assert_int_equal(target_run_script(t, "io", args, NULL, 0, false, 20000, &res), 0);
			assert_int_equal(res.exit_code, 3);
			process_result_release(&res);
			assert_int_equal(target_run_script(t, "io", empty, NULL, 0, false, 20000, &res), 0);
			assert_int_equal(res.exit_code, 2);
			assert_non_null(strstr(res.err, "usage"));
			process_result_release(&res);
		}
		target_batch_end(t);
		target_counts(t, &after);
		/* Six runs: one session in a batch, six alone. */
		assert_int_equal(after.sessions - before.sessions, no_batch ? 6 : 1);
		/* Still in the outer batch: an argument with a newline runs alone, the next goes in the batch again. */
		assert_int_equal(run_exists(t, "/a\nb"), 1);
		assert_int_equal(run_exists(t, "/f 1 '$x'"), 0);
		target_counts(t, &before);
		assert_int_equal(before.sessions - after.sessions, no_batch ? 2 : 1);
		/* The outer end ends the batch: what follows runs alone. */
		target_batch_end(t);
		assert_int_equal(run_exists(t, "/f 1 '$x'"), 0);
		target_counts(t, &after);
		assert_int_equal(after.sessions - before.sessions, 1);
		target_close(t);
	}
	free(root);
}

/*
 * Scripts run together give what each gives alone, in the order asked
 * (exit codes, stdout, stderr, args): inside a batch as one session,
 * outside one session each.
 */
static void test_scripts_together_like_alone(void **state)
{
	char *root = test_tmpdir(), *file = path_join(root, "f");
	static const char *const exists[] = { "exists", "/f", NULL }, *const missing[] = { "exists", "/nothing", NULL },
				 *const bad[] = { "", NULL }, *const read_f[] = { "/f", "100", NULL };
	const struct target_job jobs[] = {
		{ "io", exists, false }, { "io", missing, false }, { "io", bad, false }, { "read-file", read_f, false },
	};
	const size_t n = sizeof(jobs) / sizeof(jobs[0]);
	struct process_result alone[4];

	(void)state;
	assert_int_equal(file_write_atomic(file, "some data\n", 10, 0644), 0);
	for (int mode = 0; mode < 3; mode++) {
		/* 0: each alone; 1: together outside a batch; 2: together in one. */
		struct target_options o = { .root = root };
		struct target_counts before, after;
		struct process_result res[4];
		struct target *t = NULL;
		char *error = NULL;

		assert_int_equal(target_open("local", &o, &t, &error), 0);
		target_counts(t, &before);
		if (mode == 2)
			target_batch_begin(t);
		if (mode == 0)
			for (size_t i = 0; i < n; i++)
				assert_int_equal(target_run_script(t, jobs[i].name, jobs[i].args, NULL, 0, false, 20000,
								   &alone[i]), 0);
		else
			assert_int_equal(target_run_scripts(t, n, jobs, 20000, res), 0);
		if (mode == 2)
			target_batch_end(t);
		target_counts(t, &after);
		assert_int_equal(after.sessions - before.sessions, mode == 2 ? 1 : n);
		assert_int_equal(after.scripts - before.scripts, n);
		for (size_t i = 0; mode && i < n; i++) {
			assert_int_equal(res[i].exit_code, alone[i].exit_code);
			assert_int_equal(res[i].out_len, alone[i].out_len);
			assert_memory_equal(res[i].out, alone[i].out, res[i].out_len);
			assert_string_equal(res[i].err, alone[i].err);
			process_result_release(&res[i]);
		}
		target_close(t);
	}
	assert_int_equal(alone[0].exit_code, 0);
	assert_int_equal(alone[1].exit_code, 1);
	assert_int_equal(alone[2].exit_code, 2);
	assert_string_equal(alone[3].out, "some data\n");
	for (size_t i = 0; i < n; i++)
		process_result_release(&alone[i]);
	free(file);
	free(root);
}

/*
 * batch.sh's "bg" requests run at the same time: two scripts that each
 * wait (at most 20 s) for the other's file finish only when both run at
 * once; a join answers both in the order they started, and a "run" after
 * it is answered alone (the batch says 2: dd there, its directory's name
 * plain). Under a TMPDIR with a space in its name the batch says 0 and
 * runs nothing: bootab then runs each script on its own.
 */
static void test_batch_bg_runs_at_once(void **state)
{
	char *dir = test_tmpdir(), *spaced = xasprintf("%s/a b", dir), *tmpdir = xasprintf("TMPDIR=%s", spaced);
	const char *text = target_script_text("batch");
	struct process_options po = { .timeout_ms = 60000 };
	const char *argv[] = { "env", "TMPDIR=/tmp", "sh", "-c", text, "batch", "sh", NULL };

	(void)state;
	assert_non_null(text);
	assert_int_equal(mkdir(spaced, 0700), 0);
	for (int plain = 1; plain >= 0; plain--) {
		struct strbuf req = STRBUF_INIT;
		struct process_result res;

		for (int k = 0; k < 2; k++) {
			char *arg = xasprintf("%s/%c%d", dir, 'a' + k, plain);
			char *script = xasprintf(": > \"$1\"; i=0; while [ ! -e %s/%c%d ] && [ $i -lt 200 ]; do sleep 0.1; "
						 "i=$((i + 1)); done; [ -e %s/%c%d ] && echo w%d && echo e%d >&2\n",
						 dir, 'b' - k, plain, dir, 'b' - k, plain, k, k);

			strbuf_addf(&req, "bg w%d user 1 %zu 0\n%s\n%s", k, strlen(script), arg, script);
			free(arg);
			free(script);
		}
		/* The last one's stdin: 5 bytes, the last line without its newline. */
		strbuf_addf(&req, "join\nrun last user 0 %zu 5\ncat; echo; exit 7\nab\ncd", strlen("cat; echo; exit 7\n"));
		argv[1] = plain ? "TMPDIR=/tmp" : tmpdir;
		po.stdin_data = req.buf;
		po.stdin_len = req.len;
		assert_int_equal(process_run(argv, &po, &res), 0);
		assert_int_equal(res.exit_code, 0);
		assert_string_equal(res.out, plain ? "bootab-batch 2\nbootab-batch 0 3 3\nw0\ne0\nbootab-batch 0 3 3\nw1\ne1\n"
						     "bootab-batch 7 6 0\nab\ncd\n"
						   : "bootab-batch 0\n");
		process_result_release(&res);
		strbuf_release(&req);
	}
	free(tmpdir);
	free(spaced);
	free(dir);
}

static const struct {
	const char *input;
	unsigned line;
	const char *message;
} bad[] = {
	{ "", 1, "empty snapshot output" },
	{ "hello\n", 1, "not snapshot output" },
	{ "bootab-snapshot\t2\nend\n", 1, "not snapshot output" },
	{ HEAD BOOT "log_source\tabsent\n", 5, "no 'end' record" },
	{ HEAD BOOT "log_source\tabsent\nend", 6, "last line has no newline" },
	{ HEAD BOOT TAIL "time\tx\n", 7, "record after 'end'" },
	{ HEAD "kernel\t6.1\ncmdline\tx\n" TAIL, 5, "missing record 'boot_id'" },
	{ HEAD BOOT "end\n", 5, "missing record 'log_source'" },
	{ HEAD BOOT "log_source\tdmesg\nend\n", 6, "missing record 'log_count'" },
	{ HEAD "boot_id\tnot-a-uuid\n", 2, "not a boot id" },
	{ HEAD "boot_id\t79060C21-363E-4A3A-AA1B-4C3911E5E399\n", 2, "not a boot id" },
	{ HEAD BOOT "kernel\t6.1\n", 5, "repeated" },
	{ HEAD "kernel\t6.1 ; rm\n", 2, "not a kernel release" },
	{ HEAD "frobnicate\t1\n", 2, "unknown record 'frobnicate'" },
	{ HEAD "kernel\t6.1\textra\n", 2, "record 'kernel': 3 fields, expected 2" },
	{ HEAD "cmdline\ta\x1b[2Jb\n", 2, "control character 0x1b" },
	{ HEAD "cmdline\ta\rb\n", 2, "control character 0x0d" },
	{ HEAD "hostname\tbox\xc2\x9b" "2J\n", 2, "control character U+009B" },
	{ HEAD "cmdline\ta\xc2\x85" "b\n", 2, "control character U+0085" },
	{ HEAD "cmdline\t\xff\xfe\n", 2, "not UTF-8" },
	{ HEAD "a\tb\tc\td\te\tf\tg\th\ti\n", 2, "too many fields" },
	{ HEAD "group\t1x\tDMA\n", 2, "group number '1x' is not a number" },
	{ HEAD "group\t-1\tDMA\n", 2, "is not a number" },
	{ HEAD "group\t99999999999999999999\tDMA\n", 2, "is not a number" },
	{ HEAD "group\t1\tDMA FQ\n", 2, "is not a group type" },
	{ HEAD "group\t1\tDMA\ngroup\t1\tDMA\n", 3, "group 1 repeated" },
	{ HEAD "device\t1\t0000:00:01.0\tpci\t0x1\t0x2\t0x3\t-\n", 2, "device record before its group 1" },
	{ HEAD "group\t1\tDMA\ndevice\t1\t../../x\tpci\t-\t-\t-\t-\n", 3, "not a sysfs device name" },
	{ HEAD "group\t1\tDMA\ndevice\t1\tx\tpci\t1002\t-\t-\t-\n", 3, "vendor id '1002'" },
	{ HEAD "group\t1\tDMA\ndevice\t1\tx\tpci\t0x10000\t-\t-\t-\n", 3, "vendor id" },
	{ HEAD "group\t1\tDMA\ndevice\t1\tx\tpci\t-\t0xzz\t-\t-\n", 3, "device id '0xzz'" },
	{ HEAD "group\t1\tDMA\ndevice\t1\tx\tpci\t-\t-\t0x1000000\t-\n", 3, "device class" },
	{ HEAD "group\t1\tDMA\ndevice\t1\tx\tpci\t-\t-\t-\tbad driver\n", 3, "driver name" },
	{ HEAD "group\t1\tDMA\ndevice\t1\tx\tpci\t-\t-\t-\t-\ndevice\t1\tx\tpci\t-\t-\t-\t-\n", 4,
	  "device x repeated" },
	{ HEAD "log\tline\n", 2, "without a log source" },
	{ HEAD "log_source\tsyslog\n", 2, "log source 'syslog'" },
	{ HEAD "log_source\tdmesg\nlog\ta\nlog_count\t0\n", 4, "less than the log lines" },
	{ HEAD "log_count\t12abc\n", 2, "log_count '12abc'" },
	{ HEAD "param\tnodot\t1\n", 2, "not MODULE.PARAM" },
	{ HEAD "param\ta.b.c\t1\n", 2, "not MODULE.PARAM" },
	{ HEAD "param_absent\t../x.y\n", 2, "not MODULE.PARAM" },
	{ HEAD "file\trelative\tv\n", 2, "not an absolute path" },
	{ HEAD "thermal\tthermal_zone0\tacpitz\thot\n", 2, "not millidegrees" },
	{ HEAD "governor\tpolicy0\tperf ormance\n", 2, "malformed" },
	{ HEAD "vuln\tmeltdown\tx\nvuln\tmeltdown\ty\n", 3, "repeated" },
	{ HEAD "machine_id\tnot-an-id\nmachine_id\t4c4c4544004a3610804bb7c04f395032\n", 3,
	  "record 'machine_id' repeated" },
	{ HEAD "machine_id\t4c4c4544004a3610804bb7c04f395032\textra\n", 2,
	  "record 'machine_id': 3 fields, expected 2" },
	{ HEAD "machine_id\t4c4c4544\x1b" "004a3610804bb7c04f395032\n", 2, "control character 0x1b" },
	/* the device inventory, kernel-log lines and units */
	{ HEAD "pci\t0000:00:01.0\t0x1\t0x2\t0x3\t-\t-\n", 2, "before 'inventory'" },
	{ HEAD "inventory\t2\n", 2, "inventory format '2'" },
	{ HEAD "inventory\t1\ninventory\t1\n", 3, "record 'inventory' repeated" },
	{ HEAD "inventory\t1\npci\t0000:00:01.0\t1af4\t0x2\t0x3\t-\t-\n", 3, "vendor, device or class" },
	{ HEAD "inventory\t1\npci\t0000:00:01.0\t0x1\t0x2\t0x3\tbad driver\t-\n", 3, "malformed" },
	{ HEAD "inventory\t1\npci\t0000:00:01.0\t0x1\t0x2\t0x3\t-\tx\n", 3, "IOMMU group 'x'" },
	{ HEAD "inventory\t1\npci\ta\t-\t-\t-\t-\t-\npci\ta\t-\t-\t-\t-\t-\n", 4, "pci device 'a' repeated" },
	{ HEAD "inventory\t1\nnode\taccel\taccel0\t../etc/shadow\t-\n", 3, "not a name under /dev" },
	{ HEAD "inventory\t1\nnode\taccel\taccel0\t/etc/shadow\t-\n", 3, "not a name under /dev" },
	{ HEAD "inventory\t1\nnode\tac cel\taccel0\taccel/accel0\t-\n", 3, "malformed" },
	{ HEAD "inventory\t1\nnetif\teth0\tup\tyes\t-\n", 3, "carrier 'yes'" },
	{ HEAD "inventory\t1\nnetif\teth0\tsideways\t1\t-\n", 3, "operstate 'sideways'" },
	{ HEAD "inventory\t1\nkmsg\t3\t1.0\tx\n", 3, "without a kernel log source" },
	{ HEAD "inventory\t1\nkmsg_source\tsyslog\n", 3, "kernel log source 'syslog'" },
	{ HEAD "inventory\t1\nkmsg_source\tdmesg\nkmsg\t5\t1.0\tx\n", 4, "kmsg level '5'" },
	{ HEAD "inventory\t1\nkmsg_source\tdmesg\nkmsg\t3\tsoon\tx\n", 4, "kmsg time 'soon'" },
	{ HEAD "inventory\t1\nkmsg_source\tdmesg\nkmsg\t3\t-1\tx\n", 4, "kmsg time '-1'" },
	{ HEAD "inventory\t1\nkmsg_source\tdmesg\nkmsg\t3\t1.0\tx\nkmsg_count\t0\n", 5, "at least the lines given" },
	{ HEAD BOOT "log_source\tabsent\ninventory\t1\nkmsg_source\tdmesg\nend\n", 8, "missing record 'kmsg_count'" },
	{ HEAD "inventory\t1\nunits_source\tinit.d\n", 3, "units source 'init.d'" },
	{ HEAD "inventory\t1\nunits_source\tabsent\nunit_failed\tx.service\n", 4, "without a units source" },
	{ HEAD "inventory\t1\nunits_source\tsystemctl\nunit_failed\ta/b\n", 4, "unit name 'a/b'" },
	{ HEAD "kernel_notes\t0400000\n", 2, "kernel_notes is not hex bytes" },
	{ HEAD "kernel_notes\t04000000zz\n", 2, "kernel_notes is not hex bytes" },
	/* namesz 4, descsz 20, type 3, but only the name follows */
	{ HEAD "kernel_notes\t040000001400000003000000474e5500\n", 2, "are not ELF notes" },
	{ HEAD "kernel_notes\t00\nkernel_notes\t00\n", 3, "record 'kernel_notes' repeated" },
	{ HEAD "kernel_config_reused\t79060c21-363e-4a3a-aa1b-4c3911e5e399\tdeadbeef\n", 2,
	  "names build id 'deadbeef', this kernel's is 'unknown'" },
	{ HEAD NOTES "kernel_config_reused\t79060c21-363e-4a3a-aa1b-4c3911e5e399\tdeadbeee\n", 3,
	  "names build id 'deadbeee', this kernel's is 'deadbeef'" },
	{ HEAD NOTES "kernel_config_reused\tnot-a-boot\tdeadbeef\n", 3, "'not-a-boot' is not a boot_id" },
	{ HEAD NOTES "kernel_config\t/proc/config.gz\t-\nkernel_config_reused\t79060c21-363e-4a3a-aa1b-4c3911e5e399\tdeadbeef\n",
	  4, "kernel_config_reused after kernel_config" },
	{ HEAD NOTES "kernel_config_reused\t79060c21-363e-4a3a-aa1b-4c3911e5e399\tdeadbeef\n"
	  "kernel_config_reused\t79060c21-363e-4a3a-aa1b-4c3911e5e399\tdeadbeef\n", 4, "record 'kernel_config_reused' repeated" },
	{ HEAD BOOT NOTES "kernel_config_reused\t79060c21-363e-4a3a-aa1b-4c3911e5e399\tdeadbeef\n" TAIL, 8,
	  "missing record 'kernel_config'" },
	{ HEAD "kernel_config\t/etc/shadow\t-\n", 2, "is not /boot/config-RELEASE or /proc/config.gz" },
	{ HEAD "kernel_config\t/boot/config-6.1;x\t-\n", 2, "is not /boot/config-RELEASE" },
	{ HEAD "kernel_config\t/proc/config.gz\tabc\n", 2, "is not a SHA-256 in hex" },
	{ HEAD "kernel_config\t/proc/config.gz\t" "0123456789ABCDEF0123456789abcdef0123456789abcdef0123456789abcdef\n", 2,
	  "is not a SHA-256 in hex" },
	{ HEAD "kconfig\tIOMMU\ty\n", 2, "config option 'IOMMU' is not CONFIG_NAME" },
	{ HEAD "kconfig\tCONFIG_A-B\ty\n", 2, "is not CONFIG_NAME" },
	{ HEAD "kernel_package\tpacman\tlinux\n", 2, "package manager 'pacman' is not dpkg or rpm" },
	{ HEAD "kernel_package\tdpkg\t\n", 2, "is not a package name" },
	{ HEAD "kernel_version\t#1 SMP\x1b[2J\n", 2, "control character 0x1b" },
};

static void test_parse_rejects(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct parse_error err = PARSE_ERROR_INIT;
		struct snapshot s;

		memset(&s, 0x5a, sizeof(s));
		if (snapshot_parse(bad[i].input, strlen(bad[i].input), &s, &err) != -EINVAL)
			fail_msg("case %zu accepted", i);
		if (!err.message || !strstr(err.message, bad[i].message) || err.line != bad[i].line)
			fail_msg("case %zu: got line %u '%s', want line %u '%s'", i, err.line,
				 err.message ? err.message : "(null)", bad[i].line, bad[i].message);
		/* untouched on error */
		for (size_t b = 0; b < sizeof(s); b++)
			assert_int_equal(((unsigned char *)&s)[b], 0x5a);
		parse_error_release(&err);
	}
}

static void test_parse_bounds(void **state)
{
	struct parse_error err = PARSE_ERROR_INIT;
	struct strbuf sb = STRBUF_INIT;
	struct snapshot s = { 0 };

	(void)state;
	/* a line over the limit */
	strbuf_addstr(&sb, HEAD "cmdline\t");
	for (int i = 0; i < SNAPSHOT_MAX_LINE; i++)
		strbuf_addch(&sb, 'x');
	strbuf_addch(&sb, '\n');
	assert_int_equal(snapshot_parse(sb.buf, sb.len, &s, &err), -EINVAL);
	assert_int_equal(err.line, 2);
	assert_non_null(strstr(err.message, "longer than"));
	parse_error_release(&err);
	strbuf_release(&sb);

	/* more log lines than the script ever prints */
	strbuf_addstr(&sb, HEAD BOOT "log_source\tdmesg\n");
	for (int i = 0; i <= SNAPSHOT_MAX_LOG_LINES; i++)
		strbuf_addstr(&sb, "log\tiommu: x\n");
	assert_int_equal(snapshot_parse(sb.buf, sb.len, &s, &err), -EINVAL);
	assert_int_equal(err.line, 5 + 1 + SNAPSHOT_MAX_LOG_LINES);
	parse_error_release(&err);
	strbuf_release(&sb);

	/* too big as a whole: refused before reading */
	assert_int_equal(snapshot_parse("", SNAPSHOT_MAX_BYTES + 1, &s, &err), -EFBIG);
	parse_error_release(&err);
}

static void test_parse_minimal_and_log_sanitised(void **state)
{
	static const char in[] = HEAD BOOT "log_source\tdmesg\nlog\tiommu: caf\xe9 \xc3\xa9\nlog_count\t5\nend\n";
	struct parse_error err = PARSE_ERROR_INIT;
	struct snapshot s = { 0 };

	(void)state;
	assert_int_equal(snapshot_parse(in, sizeof(in) - 1, &s, &err), 0);
	assert_int_equal(s.iommu.n_groups, 0);
	assert_int_equal(s.log_count, 5);
	/* a stray Latin-1 byte becomes '?', valid UTF-8 stays */
	assert_string_equal(s.log_lines[0], "iommu: caf? \xc3\xa9");
	assert_null(s.hostname);
	snapshot_release(&s);
}

/*
 * What the kernel accepts is never a reason to refuse a boot: interface
 * names with ESC, DEL, UTF-8, a Latin-1 byte or a backslash (the names of a
 * real capture in a network namespace, tests/cli/snapshot.bats), config
 * values with a Latin-1 byte or longer than a line: kept escaped, cut when
 * long, and read back from meta.json the same.
 */
static void test_parse_kernel_given_names_escaped(void **state)
{
	struct parse_error err = PARSE_ERROR_INIT;
	struct strbuf sb = STRBUF_INIT, raw = STRBUF_INIT;
	struct snapshot s = { 0 };
	struct inventory back;
	char *cut, *again;
	json_t *j;

	(void)state;
	strbuf_addstr(&sb, HEAD BOOT NOTES "inventory\t1\n"
		      "netif\teth\x1b[31m\tdown\t-\t-\n"
		      "netif\tdel\x7f\tdown\t-\t-\n"
		      "netif\teth\xc3\xa9\tup\t1\t-\n"
		      "netif\tlat\xe9\tdown\t-\t-\n"
		      "netif\ta\\x1b\tdown\t-\t-\n"
		      "netif\tc1\xc2\x9b\tdown\t-\t-\n"
		      "kernel_config\t/proc/config.gz\t-\n"
		      "kconfig\tCONFIG_DEFAULT_HOSTNAME\t\"caf\xe9\"\n"
		      "kconfig\tCONFIG_LONG\t");
	for (int i = 0; i < 3 * SNAPSHOT_MAX_LINE; i++)
		strbuf_addch(&raw, (char)(i % 7 ? 'x' : 0xe9));
	strbuf_add(&sb, raw.buf, raw.len);
	strbuf_addstr(&sb, "\n" TAIL);
	assert_int_equal(snapshot_parse(sb.buf, sb.len, &s, &err), 0);
	assert_int_equal(s.inventory.n_netifs, 6);
	assert_string_equal(s.inventory.netifs[0].name, "eth\\x1b[31m");
	assert_string_equal(s.inventory.netifs[1].name, "del\\x7f");
	assert_string_equal(s.inventory.netifs[2].name, "eth\xc3\xa9");
	assert_string_equal(s.inventory.netifs[3].name, "lat\\xe9");
	assert_string_equal(s.inventory.netifs[4].name, "a\\x5cx1b");
	assert_string_equal(s.inventory.netifs[5].name, "c1\\u{009B}");
	assert_int_equal(s.config.n, 2);
	assert_string_equal(s.config.v[0].value, "\"caf\\xe9\"");
	/* Cut within the bound, never inside an escape, marked with the whole value's length and hash. */
	cut = s.config.v[1].value;
	assert_true(strlen(cut) <= SNAPSHOT_CONFIG_VALUE_KEPT);
	assert_non_null(strstr(cut, "... (24576 bytes, fnv1a64 "));
	assert_true(strstr(cut, "... (") - cut <= SNAPSHOT_CONFIG_VALUE_CUT);
	assert_true(!strncmp(strstr(cut, "... (") - 4, "\\xe9", 4) || strstr(cut, "... (")[-1] == 'x');
	/* A kept value is kept again unchanged (a later boot's memo records carry it). */
	again = snapshot_config_value(cut);
	assert_string_equal(again, cut);
	free(again);
	/* Another long value that differs only past the cut stays another value. */
	raw.buf[raw.len - 1] = 'y';
	again = snapshot_config_value(raw.buf);
	assert_string_not_equal(again, cut);
	free(again);
	/* meta.json holds the escaped names and reads back the same. */
	j = snapshot_to_json(&s, NULL);
	assert_int_equal(inventory_from_json(j, &back, &err), 0);
	assert_int_equal(back.n_netifs, 6);
	for (size_t i = 0; i < back.n_netifs; i++)
		assert_string_equal(back.netifs[i].name, s.inventory.netifs[i].name);
	inventory_release(&back);
	json_decref(j);
	snapshot_release(&s);
	parse_error_release(&err);
	strbuf_release(&sb);
	strbuf_release(&raw);
}

/* machine-id(5) holds an id or it names no machine: anything else is absent, never an error. */
static const struct {
	const char *record;     /* the machine_id record's line, or "" for none */
	const char *want;       /* NULL: absent */
} machine_ids[] = {
	{ "machine_id\t4c4c4544004a3610804bb7c04f395032\n", "4c4c4544004a3610804bb7c04f395032" },
	{ "", NULL },
	{ "machine_id\t\n", NULL },
	{ "machine_id\tuninitialized\n", NULL },
	{ "machine_id\t4C4C4544004A3610804BB7C04F395032\n", NULL },
	{ "machine_id\t4c4c4544004a3610804bb7c04f39503\n", NULL },
	{ "machine_id\t4c4c4544004a3610804bb7c04f3950321\n", NULL },
	{ "machine_id\t4c4c4544-004a-3610-804b-b7c04f395032\n", NULL },
	{ "machine_id\t../../../etc/passwd0123456789abcdef\n", NULL },
	{ "machine_id\t4c4c4544004a3610804bb7c04f39503 \n", NULL },
	{ "machine_id\t\xc3\xa9" "c4c4544004a3610804bb7c04f39503\n", NULL },
};

static void test_parse_machine_id(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(machine_ids) / sizeof(machine_ids[0]); i++) {
		struct parse_error err = PARSE_ERROR_INIT;
		struct snapshot s = { 0 };
		char *in = xasprintf(HEAD BOOT "%s" TAIL, machine_ids[i].record);
		json_t *j;

		if (snapshot_parse(in, strlen(in), &s, &err) < 0)
			fail_msg("case %zu: %u: %s", i, err.line, err.message);
		if (machine_ids[i].want)
			assert_string_equal(s.machine_id, machine_ids[i].want);
		else if (s.machine_id)
			fail_msg("case %zu: machine_id '%s' accepted", i, s.machine_id);
		/* meta.json says null for an absent id, never the file's text */
		j = snapshot_to_json(&s, NULL);
		if (machine_ids[i].want)
			assert_string_equal(json_string_value(json_object_get(j, "machine_id")), machine_ids[i].want);
		else
			assert_true(json_is_null(json_object_get(j, "machine_id")));
		json_decref(j);
		snapshot_release(&s);
		free(in);
	}
	assert_true(machine_id_valid("0123456789abcdef0123456789abcdef"));
	assert_false(machine_id_valid(""));
	assert_false(machine_id_valid("0123456789abcdef0123456789abcdeg"));
}

/* Writes text (a line) to tree/rel, creating its directories. */
static void tree_put(const char *tree, const char *rel, const char *text)
{
	char *path = xasprintf("%s/%s", tree, rel), *cmd;
	FILE *f;

	cmd = xasprintf("mkdir -p \"$(dirname '%s')\"", path);
	assert_int_equal(system(cmd), 0);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	free(cmd);
	free(path);
}

/* The GNU build id in /sys/kernel/notes as the lab's Debian 6.1 kernel exports it (504 bytes: Xen
 * and Linux notes around it), and the malformed cases. */
static void test_notes_build_id(void **state)
{
	/* Big-endian words (an s390 or ppc64 box read from an x86 controller). */
	static const unsigned char be[] = {
		0, 0, 0, 4, 0, 0, 0, 4, 0, 0, 0, 3, 'G', 'N', 'U', 0, 0xde, 0xad, 0xbe, 0xef,
	};
	/* A Xen note, no build id. */
	static const unsigned char none[] = { 4, 0, 0, 0, 4, 0, 0, 0, 6, 0, 0, 0, 'X', 'e', 'n', 0, 1, 2, 3, 4 };
	static const unsigned char truncated[] = { 4, 0, 0, 0, 20, 0, 0, 0, 3, 0, 0, 0, 'G', 'N', 'U', 0, 1 };
	char *data = NULL, *hex = NULL;
	size_t len;

	(void)state;
	assert_int_equal(file_read(FIXTURES "/kernel/notes-6.1.0-57-amd64", 4096, &data, &len), 0);
	assert_int_equal(len, 504);
	assert_int_equal(kernel_notes_build_id((const unsigned char *)data, len, &hex), 0);
	/* as Python's struct module reads the same bytes */
	assert_string_equal(hex, "6a2b4ac77585b8cf102cba771300e573c8489b69");
	free(hex);
	free(data);
	assert_int_equal(kernel_notes_build_id(be, sizeof(be), &hex), 0);
	assert_string_equal(hex, "deadbeef");
	free(hex);
	hex = (char *)"untouched";
	assert_int_equal(kernel_notes_build_id(none, sizeof(none), &hex), -ENOENT);
	assert_int_equal(kernel_notes_build_id(truncated, sizeof(truncated), &hex), -EINVAL);
	assert_int_equal(kernel_notes_build_id(none, 0, &hex), -EINVAL);
	assert_string_equal(hex, "untouched");
}

static void tree_copy(const char *tree, const char *rel, const char *from)
{
	char *cmd = xasprintf("mkdir -p \"$(dirname '%s/%s')\" && cp '%s' '%s/%s'", tree, rel, from, tree, rel);

	assert_int_equal(system(cmd), 0);
	free(cmd);
}

static char *sha256_of(const char *path)
{
	char *cmd = xasprintf("sha256sum '%s'", path), line[128] = "";
	FILE *f = popen(cmd, "r");

	assert_non_null(f);
	assert_non_null(fgets(line, sizeof(line), f));
	pclose(f);
	free(cmd);
	line[64] = '\0';
	return xstrdup(line);
}

/* A tree with the lab kernel's notes, its config and a dpkg database that owns it. */
static void kernel_tree(const char *dir)
{
	tree_put(dir, "proc/sys/kernel/random/boot_id", "79060c21-363e-4a3a-aa1b-4c3911e5e399\n");
	tree_put(dir, "proc/sys/kernel/osrelease", "6.1.0-57-amd64\n");
	tree_put(dir, "proc/sys/kernel/version", "#1 SMP PREEMPT_DYNAMIC Debian 6.1.192-3 (2026-11-26)\n");
	tree_put(dir, "proc/cmdline", "ro quiet\n");
	tree_copy(dir, "sys/kernel/notes", FIXTURES "/kernel/notes-6.1.0-57-amd64");
	tree_copy(dir, "boot/config-6.1.0-57-amd64", FIXTURES "/kernel/config-6.1.0-57-amd64");
	/* dpkg's own records: the file list of the package, and its status stanza */
	tree_put(dir, "var/lib/dpkg/info/linux-image-6.1.0-57-amd64.list",
		 "/.\n/boot\n/boot/System.map-6.1.0-57-amd64\n/boot/config-6.1.0-57-amd64\n/boot/vmlinuz-6.1.0-57-amd64\n");
	tree_put(dir, "var/lib/dpkg/info/base-files.list", "/.\n/etc\n/etc/debian_version\n");
	tree_put(dir, "var/lib/dpkg/status",
		 "Package: base-files\nStatus: install ok installed\nVersion: 12.4+deb12u12\n\n"
		 "Package: linux-image-6.1.0-57-amd64\nStatus: install ok installed\nPriority: optional\n"
		 "Section: kernel\nArchitecture: amd64\nSource: linux-signed-amd64 (6.1.192+3)\nVersion: 6.1.192-3\n\n");
}

/* snapshot.sh on a tree with the lab kernel's notes, its config and a dpkg database that owns it. */
static void test_script_kernel_identity(void **state)
{
	char bb[] = "/tmp/bootab-bb-XXXXXX", *busybox_sh;
	const char *shells[2] = { "dash", NULL };

	(void)state;
	/* busybox runs its sh applet when called as "sh" */
	assert_non_null(mkdtemp(bb));
	busybox_sh = xasprintf("%s/sh", bb);
	assert_int_equal(symlink("/bin/busybox", busybox_sh), 0);
	shells[1] = busybox_sh;
	for (size_t i = 0; i < 2; i++) {
		char dir[] = "/tmp/bootab-test-XXXXXX", *out, *cmd, *want_sum;
		struct parse_error err = PARSE_ERROR_INIT;
		struct snapshot s = { 0 };
		json_t *j;
		bool found;

		assert_non_null(mkdtemp(dir));
		kernel_tree(dir);
		{
			struct target_options o = { .root = dir, .shell = shells[i] };
			struct target *t = NULL;
			char *error = NULL;

			/* snapshot.sh, then kernel-id.sh, read as one record */
			assert_int_equal(target_open("local", &o, &t, &error), 0);
			if (target_snapshot(t, NULL, true, &s, &out, &err) < 0)
				fail_msg("%s: %u: %s (%s)", shells[i], err.line, err.message, target_error(t));
			target_close(t);
		}
		assert_string_equal(s.kernel_version, "#1 SMP PREEMPT_DYNAMIC Debian 6.1.192-3 (2026-11-26)");
		assert_true(s.has_notes);
		assert_string_equal(s.build_id, "6a2b4ac77585b8cf102cba771300e573c8489b69");
		assert_string_equal(s.config_source, "/boot/config-6.1.0-57-amd64");
		want_sum = sha256_of(FIXTURES "/kernel/config-6.1.0-57-amd64");
		assert_string_equal(s.config_sha256, want_sum);
		free(want_sum);
		/* every CONFIG_X=V line of the file, none of its comments */
		assert_int_equal(s.config.n, 30);
		assert_string_equal(snapshot_entry_get(&s.config, "CONFIG_IOMMU_DEFAULT_DMA_LAZY", &found), "y");
		assert_null(snapshot_entry_get(&s.config, "CONFIG_IOMMU_DEFAULT_PASSTHROUGH", &found));
		assert_false(found);
		assert_string_equal(s.package_manager, "dpkg");
		assert_string_equal(s.package, "linux-image-6.1.0-57-amd64 6.1.192-3");
		j = snapshot_to_json(&s, NULL);
		assert_string_equal(json_string_value(json_object_get(j, "kernel_build_id")),
				    "6a2b4ac77585b8cf102cba771300e573c8489b69");
		assert_string_equal(json_string_value(json_object_get(json_object_get(j, "kernel_package"), "name")),
				    "linux-image-6.1.0-57-amd64 6.1.192-3");
		assert_int_equal(json_integer_value(json_object_get(json_object_get(j, "kernel_config"), "options")), 30);
		json_decref(j);
		snapshot_release(&s);
		free(out);
		cmd = xasprintf("rm -rf '%s'", dir);
		assert_int_equal(system(cmd), 0);
		free(cmd);
	}
	unlink(busybox_sh);
	rmdir(bb);
	free(busybox_sh);
}

/* snapshot_run's raw output without its "time" record (the clock moves between runs). */
static char *without_time(const char *raw)
{
	struct strbuf sb = STRBUF_INIT;

	for (const char *p = raw; *p;) {
		size_t n = strcspn(p, "\n") + 1;

		if (strncmp(p, "time\t", 5))
			strbuf_add(&sb, p, n);
		p += n;
	}
	return strbuf_detach(&sb, NULL);
}

/* A snapshot with the memo of a config an earlier boot read: taken when release and build id match, marked, else read. */
static void test_script_kernel_config_reused(void **state)
{
	char dir[] = "/tmp/bootab-test-XXXXXX", *raw[4] = { NULL }, *cmd, *a, *b;
	struct parse_error err = PARSE_ERROR_INIT;
	struct snapshot s[4] = { 0 };
	struct snapshot_config_memo memo, other[2], none;
	struct target_options o = { .shell = "dash" };
	struct target *t = NULL;
	char *error = NULL, *want_sum;
	json_t *j;
	char *text;

	(void)state;
	assert_non_null(mkdtemp(dir));
	kernel_tree(dir);
	o.root = dir;
	assert_int_equal(target_open("local", &o, &t, &error), 0);
	assert_int_equal(target_snapshot(t, NULL, true, &s[0], &raw[0], &err), 0);
	assert_null(s[0].config_read_on);
	assert_int_equal(snapshot_config_memo_from(&s[0], &memo), 0);
	assert_string_equal(memo.build_id, "6a2b4ac77585b8cf102cba771300e573c8489b69");
	assert_int_equal(memo.config.n, 30);
	/* Memos of another build, and of this build id under another release: the config is read, and
	 * the two parts of kernel-id.sh print what one whole run printed. */
	assert_int_equal(snapshot_config_memo_from(&s[0], &other[0]), 0);
	other[0].build_id[0] = other[0].build_id[0] == '0' ? '1' : '0';
	assert_int_equal(snapshot_config_memo_from(&s[0], &other[1]), 0);
	free(other[1].kernel);
	other[1].kernel = xstrdup("6.1.0-58-amd64");
	assert_int_equal(target_snapshot_with(t, NULL, true,
					      &(struct target_snapshot_options){ .memos = other, .n_memos = 2 },
					      &s[1], &raw[1], &err), 0);
	assert_null(s[1].config_read_on);
	a = without_time(raw[0]);
	b = without_time(raw[1]);
	assert_string_equal(a, b);
	free(a);
	free(b);
	/* The config file changes on the box: a memo of this very kernel is taken, not the file. */
	tree_put(dir, "boot/config-6.1.0-57-amd64", "CONFIG_CHANGED=y\n");
	assert_int_equal(target_snapshot_with(t, NULL, true,
					      &(struct target_snapshot_options){ .memos = &memo, .n_memos = 1 },
					      &s[2], &raw[2], &err), 0);
	assert_string_equal(s[2].config_read_on, s[0].boot_id);
	assert_int_equal(s[2].config.n, 30);
	assert_null(snapshot_entry_get(&s[2].config, "CONFIG_CHANGED", NULL));
	want_sum = sha256_of(FIXTURES "/kernel/config-6.1.0-57-amd64");
	assert_string_equal(s[2].config_sha256, want_sum);
	assert_string_equal(s[2].config_source, "/boot/config-6.1.0-57-amd64");
	/* Marked in the raw output, just before the records it marks; the rest as a whole run. */
	assert_non_null(strstr(raw[2], "kernel_config_reused\t79060c21-363e-4a3a-aa1b-4c3911e5e399\t"
				       "6a2b4ac77585b8cf102cba771300e573c8489b69\nkernel_config\t/boot/config-6.1.0-57-amd64\t"));
	assert_non_null(strstr(raw[2], "\ninventory\t1\n"));
	a = without_time(raw[0]);
	b = without_time(raw[2]);
	{
		const char *mark = strstr(b, "kernel_config_reused\t");
		size_t nl = strcspn(mark, "\n") + 1;

		assert_int_equal(strlen(a) + nl, strlen(b));
		assert_memory_equal(a, b, (size_t)(mark - b));
		assert_string_equal(a + (mark - b), mark + nl);
	}
	free(a);
	free(b);
	j = snapshot_to_json(&s[2], NULL);
	assert_string_equal(json_string_value(json_object_get(json_object_get(j, "kernel_config"), "read_on_boot_id")),
			    "79060c21-363e-4a3a-aa1b-4c3911e5e399");
	json_decref(j);
	j = snapshot_to_json(&s[0], NULL);
	assert_null(json_object_get(json_object_get(j, "kernel_config"), "read_on_boot_id"));
	json_decref(j);
	text = snapshot_to_text(&s[2], NULL);
	assert_non_null(strstr(text, "kernel config read on boot 79060c21-363e-4a3a-aa1b-4c3911e5e399 (the same build id)"));
	free(text);
	/* A config taken from a memo makes no memo of its own. */
	assert_int_equal(snapshot_config_memo_from(&s[2], &none), -ENOENT);
	assert_null(none.build_id);
	/* With no memo of its build, the changed file is what the snapshot reads. */
	assert_int_equal(target_snapshot_with(t, NULL, true,
					      &(struct target_snapshot_options){ .memos = other, .n_memos = 2 },
					      &s[3], &raw[3], &err), 0);
	assert_null(s[3].config_read_on);
	assert_int_equal(s[3].config.n, 1);
	assert_string_equal(snapshot_entry_get(&s[3].config, "CONFIG_CHANGED", NULL), "y");
	target_close(t);
	for (size_t i = 0; i < 4; i++) {
		snapshot_release(&s[i]);
		free(raw[i]);
	}
	snapshot_config_memo_release(&memo);
	snapshot_config_memo_release(&other[0]);
	snapshot_config_memo_release(&other[1]);
	free(want_sum);
	cmd = xasprintf("rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
	free(cmd);
}

/* snapshot.sh reads /etc/machine-id, else the D-Bus copy; a present /etc file decides. */
static void test_script_machine_id_sources(void **state)
{
	static const struct {
		const char *etc, *dbus;   /* file contents; NULL: no such file */
		const char *want;
	} cases[] = {
		{ "0123456789abcdef0123456789abcdef\n", "fedcba9876543210fedcba9876543210\n",
		  "0123456789abcdef0123456789abcdef" },
		{ NULL, "fedcba9876543210fedcba9876543210\n", "fedcba9876543210fedcba9876543210" },
		{ NULL, NULL, NULL },
		{ "uninitialized\n", "fedcba9876543210fedcba9876543210\n", NULL },
		{ "", NULL, NULL },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char dir[] = "/tmp/bootab-test-XXXXXX", *out, *cmd;
		struct parse_error err = PARSE_ERROR_INIT;
		struct snapshot s = { 0 };

		assert_non_null(mkdtemp(dir));
		tree_put(dir, "proc/sys/kernel/random/boot_id", "79060c21-363e-4a3a-aa1b-4c3911e5e399\n");
		tree_put(dir, "proc/sys/kernel/osrelease", "6.1.0-57-amd64\n");
		tree_put(dir, "proc/cmdline", "ro quiet\n");
		if (cases[i].etc)
			tree_put(dir, "etc/machine-id", cases[i].etc);
		if (cases[i].dbus)
			tree_put(dir, "var/lib/dbus/machine-id", cases[i].dbus);
		out = run_snapshot(dir, "dash", NULL);
		if (snapshot_parse(out, strlen(out), &s, &err) < 0)
			fail_msg("case %zu: %u: %s", i, err.line, err.message);
		if (cases[i].want)
			assert_string_equal(s.machine_id, cases[i].want);
		else if (s.machine_id)
			fail_msg("case %zu: machine_id '%s' accepted", i, s.machine_id);
		snapshot_release(&s);
		free(out);
		cmd = xasprintf("rm -rf '%s'", dir);
		assert_int_equal(system(cmd), 0);
		free(cmd);
	}
}

static void test_json_and_text(void **state)
{
	const char *args[] = { "param:ttm.pages_limit", NULL };
	struct parse_error err = PARSE_ERROR_INIT;
	struct snapshot s = { 0 }, back = { 0 };
	struct snapshot_context ctx = { "2026-10-14T20:34:09+03:00", "local" };
	char *out = run_snapshot(FIXTURES "/sysfs/seed-off", "dash", args), *text;
	json_t *j;

	(void)state;
	assert_int_equal(snapshot_parse(out, strlen(out), &s, &err), 0);
	text = snapshot_to_text(&s, &ctx);
	/* The case study's first lines, then the empty map said plainly. */
	assert_memory_equal(text, "2026-10-14T20:34:09+03:00\n7.2.9-300.fc45.x86_64\nBOOT_IMAGE=", 59);
	assert_non_null(strstr(text, "\niommu group types: no IOMMU groups\n"));
	assert_non_null(strstr(text, "\niommu log lines: 3 (file; evidence, not proof)\n"
				     "[    0.312807] iommu: Default domain type: Translated\n"));
	assert_non_null(strstr(text, "\nparam ttm.pages_limit=31457280\n"));
	j = snapshot_to_json(&s, &ctx);
	assert_string_equal(json_string_value(json_object_get(json_object_get(j, "iommu"), "summary")),
			    "no IOMMU groups");
	assert_int_equal(json_integer_value(json_object_get(json_object_get(j, "iommu_log"), "count")), 3);
	assert_int_equal(snapshot_from_json(j, &back, &err), 0);
	assert_string_equal(back.boot_id, s.boot_id);
	assert_string_equal(back.machine_id, "4c4c4544004a3610804bb7c04f395032");
	assert_non_null(strstr(text, "\nmachine_id 4c4c4544004a3610804bb7c04f395032\n"));
	assert_int_equal(back.iommu.n_groups, 0);
	json_decref(j);
	snapshot_release(&back);
	snapshot_release(&s);
	free(text);
	free(out);
}

static void test_time_format(void **state)
{
	char *t = time_now_iso8601();

	(void)state;
	/* 2026-11-30T00:53:52+00:00 */
	assert_int_equal(strlen(t), 25);
	assert_int_equal(t[10], 'T');
	assert_int_equal(t[22], ':');
	free(t);
}

/* The scripts' outputs read each on its own: the same snapshot as their join, an error in its own lines. */
static void test_parse_scripts(void **state)
{
	static const char kernel_id[] = NOTES "kernel_version\t#1 SMP\n";
	static const char inventory[] = "inventory\t1\nunits_source\tabsent\n";
	const struct snapshot_text texts[] = {
		{ HEAD BOOT TAIL, sizeof(HEAD BOOT TAIL) - 1 },
		{ kernel_id, sizeof(kernel_id) - 1 },
		{ inventory, sizeof(inventory) - 1 },
	};
	struct snapshot_text cut[3];
	struct parse_error err = PARSE_ERROR_INIT;
	struct snapshot s, joined;
	size_t which = 9, len;
	char *raw = snapshot_join_scripts(texts, 3, &len);
	char *a, *b;

	(void)state;
	assert_string_equal(raw, HEAD BOOT "log_source\tabsent\n" NOTES "kernel_version\t#1 SMP\n"
				 "inventory\t1\nunits_source\tabsent\nend\n");
	assert_int_equal(len, strlen(raw));
	assert_int_equal(snapshot_parse_scripts(texts, 3, &s, &err, &which), 0);
	assert_int_equal(which, 0);
	assert_int_equal(snapshot_parse(raw, len, &joined, &err), 0);
	a = snapshot_to_text(&s, NULL);
	b = snapshot_to_text(&joined, NULL);
	assert_string_equal(a, b);
	assert_non_null(s.build_id);
	assert_string_equal(s.build_id, "deadbeef");
	free(a);
	free(b);
	free(raw);
	snapshot_release(&s);
	snapshot_release(&joined);

	/* A bad record in inventory.sh's output: its own line 2, that script named. */
	memcpy(cut, texts, sizeof(cut));
	cut[2] = (struct snapshot_text){ "inventory\t1\nunits_source\tmaybe\n", 32 };
	assert_int_equal(snapshot_parse_scripts(cut, 3, &s, &err, &which), -EINVAL);
	assert_int_equal(which, 2);
	assert_int_equal(err.line, 2);
	/* Only snapshot.sh's output holds the header and the closing 'end'. */
	cut[2] = (struct snapshot_text){ "inventory\t1\nend\n", 16 };
	assert_int_equal(snapshot_parse_scripts(cut, 3, &s, &err, &which), -EINVAL);
	assert_int_equal(which, 2);
	assert_int_equal(err.line, 2);
	cut[2] = texts[2];
	cut[1] = (struct snapshot_text){ HEAD, sizeof(HEAD) - 1 };
	assert_int_equal(snapshot_parse_scripts(cut, 3, &s, &err, &which), -EINVAL);
	assert_int_equal(which, 1);
	assert_int_equal(err.line, 1);
	/* snapshot.sh's output cut off: refused as a whole output is. */
	cut[1] = texts[1];
	cut[0] = (struct snapshot_text){ HEAD BOOT, sizeof(HEAD BOOT) - 1 };
	assert_int_equal(snapshot_parse_scripts(cut, 3, &s, &err, &which), -EINVAL);
	assert_int_equal(which, 0);
	assert_non_null(strstr(err.message, "no 'end' record"));
	parse_error_release(&err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_fixture_dash_and_busybox),
		cmocka_unit_test(test_parse_off_box),
		cmocka_unit_test(test_parse_inventory),
		cmocka_unit_test(test_scripts_fit_a_command_line),
		cmocka_unit_test(test_snapshot_in_one_session),
		cmocka_unit_test(test_batch_runs_like_alone),
		cmocka_unit_test(test_scripts_together_like_alone),
		cmocka_unit_test(test_batch_bg_runs_at_once),
		cmocka_unit_test(test_parse_rejects),
		cmocka_unit_test(test_parse_bounds),
		cmocka_unit_test(test_parse_minimal_and_log_sanitised),
		cmocka_unit_test(test_parse_kernel_given_names_escaped),
		cmocka_unit_test(test_parse_machine_id),
		cmocka_unit_test(test_script_machine_id_sources),
		cmocka_unit_test(test_notes_build_id),
		cmocka_unit_test(test_script_kernel_identity),
		cmocka_unit_test(test_script_kernel_config_reused),
		cmocka_unit_test(test_parse_scripts),
		cmocka_unit_test(test_json_and_text),
		cmocka_unit_test(test_time_format),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
