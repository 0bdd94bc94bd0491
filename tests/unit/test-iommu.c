/* Unit tests for src/iommu: building the map, summary, names, JSON, diff. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "kernel/iommu.h"
#include "lib/alloc.h"

#define ABSENT IOMMU_ID_ABSENT

/* Builds a map from "N:TYPE" group words. */
static void add_groups(struct iommu_map *map, const char *const *groups)
{
	for (size_t i = 0; groups[i]; i++) {
		char *colon = strchr(groups[i], ':');

		assert_non_null(colon);
		assert_int_equal(iommu_map_add_group(map, (unsigned)strtoul(groups[i], NULL, 10),
						     colon + 1), 0);
	}
}

static void test_summary(void **state)
{
	static const struct {
		const char *groups[8];
		const char *summary;
	} cases[] = {
		{ { NULL }, "no IOMMU groups" },
		{ { "0:DMA-FQ", NULL }, "1 DMA-FQ" },
		{ { "0:identity", "1:DMA-FQ", "2:DMA", "3:DMA-FQ", NULL }, "1 DMA, 2 DMA-FQ, 1 identity" },
		/* Unknown types come after the known ones, in name order. */
		{ { "0:unmanaged", "1:blocked", "2:identity", "3:auto", NULL },
		  "1 identity, 1 auto, 1 blocked, 1 unmanaged" },
		{ { "5:identity", "7:identity", NULL }, "2 identity" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct iommu_map map = IOMMU_MAP_INIT;
		char *s;

		add_groups(&map, cases[i].groups);
		s = iommu_map_summary(&map);
		assert_string_equal(s, cases[i].summary);
		free(s);
		iommu_map_release(&map);
	}
}

/* The case study's box: 1 DMA, 32 DMA-FQ, 2 identity over 35 groups. */
static void test_summary_seed_box(void **state)
{
	struct iommu_map map = IOMMU_MAP_INIT;
	char *s;

	(void)state;
	for (unsigned g = 0; g < 35; g++)
		assert_int_equal(iommu_map_add_group(&map, g, g == 18 ? "DMA" :
						     g == 22 || g == 29 ? "identity" : "DMA-FQ"), 0);
	s = iommu_map_summary(&map);
	assert_string_equal(s, "1 DMA, 32 DMA-FQ, 2 identity");
	free(s);
	iommu_map_release(&map);
}

static void test_add_errors_leave_map_unchanged(void **state)
{
	struct iommu_map map = IOMMU_MAP_INIT;
	static const char *const bad_types[] = { "", "DMA FQ", "DMA\n", "../x",
		"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa" };
	static const char *const bad_names[] = { "", ".", "..", "a/b", "a b", "x\ty", "\x1b[2J" };

	(void)state;
	assert_int_equal(iommu_map_add_group(&map, 3, "DMA"), 0);
	assert_int_equal(iommu_map_add_group(&map, 3, "identity"), -EEXIST);
	for (size_t i = 0; i < sizeof(bad_types) / sizeof(bad_types[0]); i++)
		assert_int_equal(iommu_map_add_group(&map, 4, bad_types[i]), -EINVAL);
	assert_int_equal(map.n_groups, 1);
	assert_string_equal(map.groups[0].type, "DMA");

	assert_int_equal(iommu_map_add_device(&map, 3, "0000:00:01.0", "pci", 0x8086, 0x29c0,
					      0x060000, NULL), 0);
	assert_int_equal(iommu_map_add_device(&map, 9, "0000:00:02.0", "pci", 1, 2, 3, NULL), -ENOENT);
	assert_int_equal(iommu_map_add_device(&map, 3, "0000:00:01.0", NULL, 1, 2, 3, NULL), -EEXIST);
	for (size_t i = 0; i < sizeof(bad_names) / sizeof(bad_names[0]); i++)
		assert_int_equal(iommu_map_add_device(&map, 3, bad_names[i], NULL, ABSENT, ABSENT,
						      ABSENT, NULL), -EINVAL);
	assert_int_equal(iommu_map_add_device(&map, 3, "MSFT0201:00", "platform", ABSENT, ABSENT,
					      ABSENT, "bad driver"), -EINVAL);
	assert_int_equal(map.n_devices, 1);
	assert_string_equal(iommu_map_device_type(&map, "0000:00:01.0"), "DMA");
	assert_null(iommu_map_device_type(&map, "0000:00:02.0"));
	iommu_map_release(&map);
	/* release leaves a valid empty map; releasing again is harmless */
	iommu_map_release(&map);
	iommu_map_release(NULL);
}

static void build_seed_like(struct iommu_map *map, bool passthrough)
{
	static const char *const groups[] = { "0:DMA-FQ", "18:DMA", "22:identity", "29:identity",
		"17:DMA-FQ", NULL };

	add_groups(map, groups);
	if (passthrough) {
		/* iommu=pt: every default-translated group becomes identity. */
		free(map->groups[0].type);
		map->groups[0].type = xstrdup("identity");
		free(map->groups[4].type);
		map->groups[4].type = xstrdup("identity");
	}
	assert_int_equal(iommu_map_add_device(map, 22, "0000:c6:00.0", "pci", 0x1002, 0x1586,
					      0x038000, "amdgpu"), 0);
	assert_int_equal(iommu_map_add_device(map, 0, "MSFT0201:00", "platform", ABSENT, ABSENT,
					      ABSENT, NULL), 0);
	assert_int_equal(iommu_map_add_device(map, 0, "0000:00:01.0", "pci", 0x1022, 0x1507,
					      0x060000, NULL), 0);
	assert_int_equal(iommu_map_add_device(map, 18, "0000:c2:00.0", "pci", 0x10ec, 0x525a,
					      0xff0000, "rtsx_pci"), 0);
	assert_int_equal(iommu_map_add_device(map, 29, "0000:c7:00.1", "pci", 0x1022, 0x17f0,
					      0x118000, "amdxdna"), 0);
	if (!passthrough)
		assert_int_equal(iommu_map_add_device(map, 17, "0000:c1:00.0", "pci", 0x144d,
						      0xa80c, 0x010802, "nvme"), 0);
	else
		assert_int_equal(iommu_map_add_device(map, 17, "0000:c3:00.0", "pci", 0x10ec,
						      0x8125, 0x020000, "r8169"), 0);
	iommu_map_sort(map);
}

static void test_sort_and_lookup(void **state)
{
	struct iommu_map map = IOMMU_MAP_INIT;

	(void)state;
	build_seed_like(&map, false);
	assert_int_equal(map.groups[0].number, 0);
	assert_int_equal(map.groups[1].number, 17);
	assert_int_equal(map.groups[4].number, 29);
	assert_string_equal(map.devices[0].name, "0000:00:01.0");
	assert_string_equal(map.devices[1].name, "MSFT0201:00");
	assert_string_equal(map.devices[2].name, "0000:c1:00.0");
	assert_string_equal(iommu_map_device_type(&map, "0000:c6:00.0"), "identity");
	assert_int_equal(iommu_map_count_type(&map, "identity"), 2);
	iommu_map_release(&map);
}

static void test_describe(void **state)
{
	struct iommu_map map = IOMMU_MAP_INIT;

	(void)state;
	build_seed_like(&map, false);
	assert_int_equal(iommu_map_describe(&map, FIXTURES "/pci.ids"), 0);
	assert_string_equal(iommu_map_device(&map, "0000:c2:00.0")->description,
			    "Unassigned class [ff00]: Realtek Semiconductor Co., Ltd. RTS525A PCI Express Card Reader");
	/* pci.ids 2023.04 predates the device: libpci names the vendor and the number. */
	assert_string_equal(iommu_map_device(&map, "0000:c6:00.0")->description,
			    "Display controller: Advanced Micro Devices, Inc. [AMD/ATI] Device 1586");
	assert_string_equal(iommu_map_device(&map, "0000:c7:00.1")->description,
			    "Signal processing controller: Advanced Micro Devices, Inc. [AMD] Device 17f0");
	/* Platform devices have no PCI ids and no description; they stay in the map. */
	assert_null(iommu_map_device(&map, "MSFT0201:00")->description);
	iommu_map_release(&map);

	build_seed_like(&map, false);
	assert_int_equal(iommu_map_describe(&map, "/nonexistent/pci.ids"), -ENOENT);
	assert_non_null(iommu_map_device(&map, "0000:c6:00.0")->description);
	assert_non_null(strstr(iommu_map_device(&map, "0000:c6:00.0")->description, "1586"));
	iommu_map_release(&map);
}

static void test_json_roundtrip(void **state)
{
	struct iommu_map map = IOMMU_MAP_INIT, back = IOMMU_MAP_INIT;
	struct parse_error err = PARSE_ERROR_INIT;
	json_t *j;
	char *a, *b;

	(void)state;
	build_seed_like(&map, false);
	assert_int_equal(iommu_map_describe(&map, FIXTURES "/pci.ids"), 0);
	j = iommu_map_to_json(&map);
	assert_int_equal(iommu_map_from_json(j, &back, &err), 0);
	a = json_dumps(j, JSON_SORT_KEYS);
	json_decref(j);
	j = iommu_map_to_json(&back);
	b = json_dumps(j, JSON_SORT_KEYS);
	assert_string_equal(a, b);
	assert_non_null(strstr(a, "\"vendor\": \"0x1002\""));
	assert_non_null(strstr(a, "\"class\": \"0x038000\""));
	free(a);
	free(b);
	json_decref(j);
	iommu_map_release(&back);
	iommu_map_release(&map);
}

static void test_json_rejects(void **state)
{
	static const char *const bad[] = {
		"{}",
		"[{\"group\": -1, \"type\": \"DMA\", \"devices\": []}]",
		"[{\"group\": 1, \"type\": \"D MA\", \"devices\": []}]",
		"[{\"group\": 1, \"type\": \"DMA\"}]",
		"[{\"group\": 1, \"type\": \"DMA\", \"devices\": [{\"name\": \"a/b\"}]}]",
		"[{\"group\": 1, \"type\": \"DMA\", \"devices\": [{\"name\": \"x\", \"vendor\": \"1002\"}]}]",
		"[{\"group\": 1, \"type\": \"DMA\", \"devices\": [{\"name\": \"x\", \"vendor\": \"0x10000\"}]}]",
		"[{\"group\": 1, \"type\": \"DMA\", \"devices\": [{\"name\": \"x\", \"driver\": 5}]}]",
		"[{\"group\": 1, \"type\": \"DMA\", \"devices\": []}, {\"group\": 1, \"type\": \"DMA\", \"devices\": []}]",
	};

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct iommu_map back = { (void *)0x1, 7, 7, NULL, 0, 0 };
		struct parse_error err = PARSE_ERROR_INIT;
		json_t *j = json_loads(bad[i], 0, NULL);

		assert_non_null(j);
		assert_int_equal(iommu_map_from_json(j, &back, &err), -EINVAL);
		assert_non_null(err.message);
		/* untouched on error */
		assert_ptr_equal(back.groups, (void *)0x1);
		assert_int_equal(back.n_groups, 7);
		parse_error_release(&err);
		json_decref(j);
	}
}

static void test_diff(void **state)
{
	struct iommu_map a = IOMMU_MAP_INIT, b = IOMMU_MAP_INIT;
	struct iommu_change *c;
	size_t n;

	(void)state;
	build_seed_like(&a, false);
	build_seed_like(&b, true);
	assert_int_equal(iommu_map_diff(&a, &b, &c, &n), 0);
	/* by name: 0000:00:01.0 DMA-FQ->identity, c1 vanished, c3 appeared, MSFT0201:00 -> identity */
	assert_int_equal(n, 4);
	assert_int_equal(c[0].kind, IOMMU_CHANGE_TYPE);
	assert_string_equal(c[0].a->name, "0000:00:01.0");
	assert_string_equal(c[0].type_a, "DMA-FQ");
	assert_string_equal(c[0].type_b, "identity");
	assert_int_equal(c[1].kind, IOMMU_CHANGE_VANISHED);
	assert_string_equal(c[1].a->name, "0000:c1:00.0");
	assert_null(c[1].b);
	assert_int_equal(c[2].kind, IOMMU_CHANGE_APPEARED);
	assert_string_equal(c[2].b->name, "0000:c3:00.0");
	assert_string_equal(c[2].type_b, "identity");
	assert_int_equal(c[3].kind, IOMMU_CHANGE_TYPE);
	assert_string_equal(c[3].b->name, "MSFT0201:00");
	free(c);

	/* a map against itself: nothing changed */
	assert_int_equal(iommu_map_diff(&a, &a, &c, &n), 0);
	assert_int_equal(n, 0);
	free(c);

	/* against no groups at all (an IOMMU-off boot): everything vanished */
	{
		struct iommu_map off = IOMMU_MAP_INIT;

		assert_int_equal(iommu_map_diff(&a, &off, &c, &n), 0);
		assert_int_equal(n, a.n_devices);
		for (size_t i = 0; i < n; i++)
			assert_int_equal(c[i].kind, IOMMU_CHANGE_VANISHED);
		free(c);
	}
	iommu_map_release(&a);
	iommu_map_release(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_summary),
		cmocka_unit_test(test_summary_seed_box),
		cmocka_unit_test(test_add_errors_leave_map_unchanged),
		cmocka_unit_test(test_sort_and_lookup),
		cmocka_unit_test(test_describe),
		cmocka_unit_test(test_json_roundtrip),
		cmocka_unit_test(test_json_rejects),
		cmocka_unit_test(test_diff),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
