/* Unit tests for kernel/inventory (matching kernel messages across boots) and judge/costs. */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "judge/costs.h"
#include "kernel/inventory.h"
#include "lib/alloc.h"

static void test_normalize(void **state)
{
	static const struct {
		const char *in, *out;
	} cases[] = {
		/* the device and the errno say what failed: kept */
		{ "amdxdna 0000:c7:00.1: probe with driver amdxdna failed with error -22",
		  "amdxdna 0000:c7:00.1: probe with driver amdxdna failed with error -22" },
		{ "amdxdna 0000:c7:00.1: [drm] *ERROR* amdxdna_probe: Hardware init failed, ret -22",
		  "amdxdna 0000:c7:00.1: [drm] *ERROR* amdxdna_probe: Hardware init failed, ret -22" },
		{ "nvme nvme0: I/O tag 12 (0c0a) opcode 0x2 QID 3 timeout, aborting req_op:READ(0) size:4096",
		  "nvme nvme0: I/O tag N (0c0a) opcode 0xN QID N timeout, aborting req_op:READ(N) size:N" },
		/* counters, times and addresses vary from boot to boot */
		{ "perf: interrupt took too long (2513 > 2500), lowering kernel.perf_event_max_sample_rate to 79500",
		  "perf: interrupt took too long (N > N), lowering kernel.perf_event_max_sample_rate to N" },
		{ "perf: interrupt took too long (3141 > 3140), lowering kernel.perf_event_max_sample_rate to 63500",
		  "perf: interrupt took too long (N > N), lowering kernel.perf_event_max_sample_rate to N" },
		{ "BUG: unable to handle page fault for address: ffff9a3b4c5d6e7f",
		  "BUG: unable to handle page fault for address: H" },
		{ "kworker/3:1[1234]: segfault at 7f12ab34 ip 0000563412ab9c10 sp 00007ffd1b2c error 4",
		  "kworker/N:N[N]: segfault at H ip H sp H error N" },
		{ "hrtimer: interrupt took 12345 ns", "hrtimer: interrupt took N ns" },
		/* a number with its unit is a number; a word that mixes them is a name */
		{ "APIC calibration not consistent with PM-Timer: 91ms instead of 100ms",
		  "APIC calibration not consistent with PM-Timer: Nms instead of Nms" },
		{ "virtio_net virtio2 eth0: 64bit 1af4 0c0a 3rd", "virtio_net virtio2 eth0: Nbit 1af4 0c0a Nrd" },
		{ "err=-110  (timed out)", "err=-110 (timed out)" },
		{ "  leading and   inner blanks  ", "leading and inner blanks" },
		/* names with digits stay names */
		{ "e1000e 0000:00:1f.6 eth0: NIC Link is Down", "e1000e 0000:00:1f.6 eth0: NIC Link is Down" },
		{ "ata1.00: failed command: READ FPDMA QUEUED", "ata1.N: failed command: READ FPDMA QUEUED" },
		{ "DMAR: [DMA Read NO_PASID] Request device [00:02.0] fault addr 0xfffff000",
		  "DMAR: [DMA Read NO_PASID] Request device [N:N.N] fault addr 0xN" },
		{ "", "" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *got = klog_normalize(cases[i].in);

		if (strcmp(got, cases[i].out))
			fail_msg("case %zu: '%s' -> '%s', want '%s'", i, cases[i].in, got, cases[i].out);
		free(got);
	}
}

static void test_names_and_sources(void **state)
{
	enum inventory_source src;
	struct inventory inv = { 0 };

	(void)state;
	assert_true(inventory_name_valid("fwupd-refresh.service"));
	assert_false(inventory_name_valid("a b"));
	assert_false(inventory_name_valid("a/b"));
	assert_false(inventory_name_valid(".."));
	assert_false(inventory_name_valid(""));
	assert_int_equal(inventory_source_from_name("journalctl", &src), 0);
	assert_int_equal(src, INVENTORY_SOURCE_JOURNALCTL);
	assert_int_equal(inventory_source_from_name("syslog", &src), -EINVAL);
	assert_string_equal(klog_level_name(3), "err");
	assert_string_equal(klog_level_name(4), "warning");
	/* a C1 control (U+009B, a CSI) never reaches a terminal */
	assert_int_equal(inventory_add_klog(&inv, 3, 1.0, "x \xc2\x9b" "2J y"), 0);
	assert_string_equal(inv.klog[0].text, "x ??2J y");
	assert_int_equal(inventory_add_klog(&inv, 3, 1.0, "a\x1b[2J"), -EINVAL);
	assert_int_equal(inventory_add_klog(&inv, 5, 1.0, "notice"), -EINVAL);
	assert_int_equal(inventory_add_node(&inv, "accel", "accel0", "/dev/../etc/shadow", NULL), -EINVAL);
	assert_int_equal(inventory_add_netif(&inv, "eth0", "sideways", 1, NULL), -EINVAL);
	assert_int_equal(inventory_add_unit(&inv, "a.service"), 0);
	assert_int_equal(inventory_add_unit(&inv, "a.service"), -EEXIST);
	inventory_release(&inv);
	inventory_release(NULL);
}

/* A side with label and mode, its inventory recorded. */
static void side_init(struct side *s, const char *label, const char *mode)
{
	memset(s, 0, sizeof(*s));
	s->label = xstrdup(label);
	s->mode = xstrdup(mode);
	s->inventory.has_devices = s->inventory.has_klog = s->inventory.has_units = true;
	s->inventory.klog_source = INVENTORY_SOURCE_DMESG;
	s->inventory.units_source = INVENTORY_SOURCE_SYSTEMCTL;
}

static void klog(struct side *s, int level, const char *text)
{
	assert_int_equal(inventory_add_klog(&s->inventory, level, 1.5, text), 0);
	s->inventory.klog_count = s->inventory.n_klog;
}

/* The box as in the case study: the GPU, the NPU and a NIC on every boot. */
static void box(struct side *s, bool npu_bound)
{
	assert_int_equal(inventory_add_pci(&s->inventory, "0000:c6:00.0", 0x1002, 0x1586, 0x038000, "amdgpu", 22), 0);
	assert_int_equal(inventory_add_pci(&s->inventory, "0000:c7:00.1", 0x1022, 0x17f0, 0x118000,
					   npu_bound ? "amdxdna" : NULL, npu_bound ? 29 : -1), 0);
	assert_int_equal(inventory_add_pci(&s->inventory, "0000:c3:00.0", 0x10ec, 0x8125, 0x020000, "r8169", 19), 0);
	if (npu_bound)
		assert_int_equal(inventory_add_node(&s->inventory, "accel", "accel0", "/dev/accel/accel0", "0000:c7:00.1"), 0);
	assert_int_equal(inventory_add_node(&s->inventory, "drm", "renderD128", "/dev/dri/renderD128", "0000:c6:00.0"), 0);
	assert_int_equal(inventory_add_netif(&s->inventory, "enp195s0", "up", 1, "0000:c3:00.0"), 0);
	assert_int_equal(inventory_add_netif(&s->inventory, "lo", "unknown", 1, NULL), 0);
	klog(s, 3, "ACPI Error: AE_NOT_FOUND, While resolving a named reference package element");
}

static void sides_release(struct side *sides, size_t n)
{
	for (size_t k = 0; k < n; k++)
		side_release(&sides[k]);
}

/* The texts found for side k, joined by newlines. */
static char *found_of(const struct costs_result *r, size_t k)
{
	char *all = xstrdup("");

	for (size_t i = 0; i < r->n_found; i++) {
		char *next;

		if (r->found[i].side != k)
			continue;
		next = xasprintf("%s%s%s: %s\n", all, r->found[i].gain ? "gain" : "cost",
				 "", r->found[i].text);
		free(all);
		all = next;
	}
	return all;
}

static void test_case_study(void **state)
{
	struct side s[4];
	struct costs_result r;
	char *got;

	(void)state;
	side_init(&s[0], "pt", "pt");
	side_init(&s[1], "translated", "translated");
	side_init(&s[2], "off", "off");
	side_init(&s[3], "pt2", "pt");
	box(&s[0], true);
	box(&s[1], true);
	box(&s[2], false);
	box(&s[3], true);
	klog(&s[2], 3, "amdxdna 0000:c7:00.1: probe with driver amdxdna failed with error -22");
	klog(&s[2], 3, "amdxdna 0000:c7:00.1: probe with driver amdxdna failed with error -22");
	/* the same message with other numbers: one line */
	klog(&s[0], 4, "perf: interrupt took too long (2513 > 2500), lowering kernel.perf_event_max_sample_rate to 79500");
	klog(&s[3], 4, "perf: interrupt took too long (3141 > 3140), lowering kernel.perf_event_max_sample_rate to 63500");
	klog(&s[2], 4, "perf: interrupt took too long (2600 > 2500), lowering kernel.perf_event_max_sample_rate to 76000");
	klog(&s[1], 4, "perf: interrupt took too long (2514 > 2500), lowering kernel.perf_event_max_sample_rate to 79000");
	/* a warning every boot of pt prints and off does not: the mode made it go away */
	klog(&s[0], 4, "AMD-Vi: Unable to read/write to IOMMU perf counter.");
	klog(&s[3], 4, "AMD-Vi: Unable to read/write to IOMMU perf counter.");
	klog(&s[1], 4, "AMD-Vi: Unable to read/write to IOMMU perf counter.");
	/* the box's own noise: on pt2 and off, not on pt */
	klog(&s[3], 4, "usb 5-1: device descriptor read/64, error -71");
	klog(&s[2], 4, "usb 5-1: device descriptor read/64, error -71");
	assert_int_equal(inventory_add_unit(&s[3].inventory, "fwupd-refresh.service"), 0);
	assert_int_equal(inventory_add_unit(&s[2].inventory, "fwupd-refresh.service"), 0);
	assert_int_equal(inventory_add_unit(&s[2].inventory, "npu-runtime.service"), 0);

	/* a unit that fails on every boot of pt and not on translated: a gain of translated */
	assert_int_equal(inventory_add_unit(&s[0].inventory, "npu-firmware-check.service"), 0);
	assert_int_equal(inventory_add_unit(&s[3].inventory, "npu-firmware-check.service"), 0);
	assert_int_equal(inventory_add_unit(&s[2].inventory, "npu-firmware-check.service"), 0);

	assert_int_equal(costs_find(s, 4, NULL, &r), 0);
	assert_string_equal(r.baseline, "pt, pt2");
	assert_int_equal(r.n_baseline, 2);
	assert_false(r.judged[0]);
	assert_true(r.judged[1]);
	assert_true(r.judged[2]);
	assert_false(r.judged[3]);
	got = found_of(&r, 1);
	assert_string_equal(got, "gain: unit npu-firmware-check.service did not fail (failed on pt, pt2)\n");
	free(got);
	assert_int_equal(r.found[0].kind, FOUND_UNIT_RECOVERED);
	assert_string_equal(found_kind_name(r.found[0].kind), "unit-recovered");
	got = found_of(&r, 2);
	assert_string_equal(got,
		"cost: 0000:c7:00.1 [1022:17f0]: no driver (amdxdna bound on pt, pt2)\n"
		"cost: /dev/accel/accel0 gone (present on pt, pt2)\n"
		"cost: new kernel error: amdxdna 0000:c7:00.1: probe with driver amdxdna failed with error -22 (2 times)\n"
		"cost: unit npu-runtime.service failed\n"
		"gain: kernel warning gone: AMD-Vi: Unable to read/write to IOMMU perf counter. (on pt, pt2)\n");
	free(got);
	assert_int_equal(r.n_costs, 4);
	assert_int_equal(r.found[1].kind, FOUND_DRIVER);
	assert_string_equal(r.found[1].address, "0000:c7:00.1");
	assert_string_equal(r.found[1].baseline_value, "amdxdna");
	assert_null(r.found[1].value);
	assert_int_equal(r.found[3].level, 3);
	assert_int_equal(r.found[3].count, 2);
	/* noise: the usb warning and the failed unit differ between pt and pt2 */
	assert_int_equal(r.noise_klog, 1);
	assert_int_equal(r.noise_units, 1);
	assert_int_equal(r.noise_devices, 0);
	assert_int_equal(r.notes.n, 0);
	costs_result_release(&r);

	/* patterns: by subject */
	{
		struct strlist ignore = STRLIST_INIT;

		strlist_add(&ignore, "^0000:c7:00\\.1 ");
		strlist_add(&ignore, "amdxdna.*error -22");
		assert_int_equal(costs_find(s, 4, &ignore, &r), 0);
		got = found_of(&r, 2);
		assert_string_equal(got,
			"cost: /dev/accel/accel0 gone (present on pt, pt2)\n"
			"cost: unit npu-runtime.service failed\n"
			"gain: kernel warning gone: AMD-Vi: Unable to read/write to IOMMU perf counter. (on pt, pt2)\n");
		free(got);
		assert_int_equal(r.n_ignored, 2);
		costs_result_release(&r);
		strlist_release(&ignore);
		strlist_add(&ignore, "(");
		assert_int_equal(costs_find(s, 4, &ignore, &r), -EINVAL);
		strlist_release(&ignore);
	}
	sides_release(s, 4);
}

static void test_flaky_baseline_blames_nothing(void **state)
{
	struct side s[3];
	struct costs_result r;
	char *got, *error = NULL;

	(void)state;
	side_init(&s[0], "a", "a");
	side_init(&s[1], "b", "b");
	side_init(&s[2], "a2", "a");
	box(&s[0], true);
	box(&s[1], false);
	/* the NPU failed to bind on the repeat boot too: not the mode's doing */
	box(&s[2], false);
	/* the link came up on one baseline boot only: not blamed either */
	free(s[0].inventory.netifs[0].operstate);
	s[0].inventory.netifs[0].operstate = xstrdup("down");
	free(s[1].inventory.netifs[0].operstate);
	s[1].inventory.netifs[0].operstate = xstrdup("down");
	assert_int_equal(costs_find(s, 3, NULL, &r), 0);
	got = found_of(&r, 1);
	assert_string_equal(got, "");
	free(got);
	assert_int_equal(r.noise_devices, 1);
	costs_result_release(&r);

	/* both baseline boots up, the side down; a driver swapped; the GPU gone */
	free(s[0].inventory.netifs[0].operstate);
	s[0].inventory.netifs[0].operstate = xstrdup("up");
	free(s[2].inventory.netifs[0].operstate);
	s[2].inventory.netifs[0].operstate = xstrdup("up");
	free(s[1].inventory.pci[2].driver);
	s[1].inventory.pci[2].driver = xstrdup("vfio-pci");
	free(s[1].inventory.pci[0].address);
	s[1].inventory.pci[0].address = xstrdup("0000:c6:00.7");
	assert_int_equal(costs_find(s, 3, NULL, &r), 0);
	got = found_of(&r, 1);
	assert_string_equal(got,
		"cost: 0000:c6:00.0 [1002:1586]: gone (on a, a2)\n"
		"cost: 0000:c3:00.0 [10ec:8125]: driver vfio-pci (r8169 bound on a, a2)\n"
		"cost: interface enp195s0 down (up on a, a2)\n");
	free(got);
	assert_int_equal(r.found[2].kind, FOUND_LINK_DOWN);
	assert_string_equal(r.found[2].value, "down");
	costs_result_release(&r);
	assert_int_equal(costs_pattern_check("a(", &error), -EINVAL);
	assert_non_null(strstr(error, "not an extended regular expression"));
	free(error);
	/* A few bytes that regcomp() would copy into gigabytes are refused before it runs. */
	assert_int_equal(costs_pattern_check("((a{255}){255}){255}", &error), -EINVAL);
	assert_string_equal(error, "'((a{255}){255}){255}': the pattern's repeats ('+', {m,n}) copy it more than 100000 times over");
	free(error);
	{
		char long_pattern[1100];
		struct strlist ignore = STRLIST_INIT;

		memset(long_pattern, 'a', sizeof(long_pattern) - 1);
		long_pattern[sizeof(long_pattern) - 1] = '\0';
		assert_int_equal(costs_pattern_check(long_pattern, &error), -EINVAL);
		assert_non_null(strstr(error, "the pattern is longer than 1024 bytes"));
		free(error);
		/* A group left open is built, repeats and all, before regcomp() finds it unclosed. */
		assert_int_equal(costs_pattern_check("a (b x+++++++++++++++++++++++++++++++++++", &error), -EINVAL);
		assert_non_null(strstr(error, "copy it more than 100000 times over"));
		free(error);
		strlist_add(&ignore, "x++++++++++++++++++++++++++++++++++++++++");
		assert_int_equal(costs_find(s, 3, &ignore, &r), -EINVAL);
		strlist_release(&ignore);
	}
	sides_release(s, 3);
}

static void test_truncated_and_unrecorded(void **state)
{
	struct side s[3];
	struct costs_result r;
	char *got;

	(void)state;
	side_init(&s[0], "a", "a");
	side_init(&s[1], "b", "b");
	side_init(&s[2], "a2", "a");
	for (size_t k = 0; k < 3; k++)
		box(&s[k], true);
	klog(&s[1], 3, "new on b");
	/* a baseline log cut at its limit may hold any line: nothing is called new */
	s[2].inventory.klog_count = 5000;
	assert_int_equal(costs_find(s, 3, NULL, &r), 0);
	got = found_of(&r, 1);
	assert_string_equal(got, "");
	free(got);
	assert_int_equal(r.notes.n, 1);
	assert_non_null(strstr(r.notes.items[0], "a2: its kernel log held 5000"));
	costs_result_release(&r);

	/* a side without an inventory is not judged, and said so by nothing found */
	s[2].inventory.klog_count = s[2].inventory.n_klog;
	inventory_release(&s[1].inventory);
	assert_int_equal(costs_find(s, 3, NULL, &r), 0);
	assert_false(r.judged[1]);
	assert_int_equal(r.n_found, 0);
	costs_result_release(&r);

	/* no baseline boot recorded anything: the side is not judged, and a note says why */
	inventory_release(&s[0].inventory);
	inventory_release(&s[2].inventory);
	box(&s[1], true);
	s[1].inventory.has_devices = s[1].inventory.has_klog = true;
	assert_int_equal(costs_find(s, 3, NULL, &r), 0);
	assert_false(r.judged[1]);
	assert_string_equal(r.baseline, "");
	assert_int_equal(r.notes.n, 1);
	assert_non_null(strstr(r.notes.items[0], "b: no boot of a recorded"));
	costs_result_release(&r);
	sides_release(s, 3);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_normalize),
		cmocka_unit_test(test_names_and_sources),
		cmocka_unit_test(test_case_study),
		cmocka_unit_test(test_flaky_baseline_blames_nothing),
		cmocka_unit_test(test_truncated_and_unrecorded),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
