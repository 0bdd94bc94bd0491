/*
 * What snapshot.sh prints on the target (snapshot.c snapshot_parse()),
 * written to meta.json and meta.txt.
 *
 * Property: a snapshot that parses, written as meta.json
 * (snapshot_to_json(), through jansson's text) and read back with
 * snapshot_from_json(), has the same IOMMU map, boot_id, kernel, command
 * line, hostname and interface names; every interface name is printable
 * UTF-8 (kept escaped), and every config value is kept again unchanged
 * (snapshot_config_value(): a later boot's memo records carry it).
 */
#include "fuzz-common.h"

#include <jansson.h>

#include "kernel/snapshot.h"

static void same_map(const struct iommu_map *a, const struct iommu_map *b)
{
	FUZZ_ASSERT(a->n_groups == b->n_groups, "%zu groups, then %zu", a->n_groups, b->n_groups);
	for (size_t i = 0; i < a->n_groups; i++)
		FUZZ_ASSERT(a->groups[i].number == b->groups[i].number &&
			    !strcmp(a->groups[i].type, b->groups[i].type), "group %zu differs", i);
	FUZZ_ASSERT(a->n_devices == b->n_devices, "%zu devices, then %zu", a->n_devices, b->n_devices);
	for (size_t i = 0; i < a->n_devices; i++) {
		const struct iommu_device *x = &a->devices[i], *y = &b->devices[i];

		FUZZ_ASSERT(!strcmp(x->name, y->name) && fuzz_str_equal(x->bus, y->bus) &&
			    x->group == y->group && x->vendor == y->vendor && x->device == y->device &&
			    x->class_code == y->class_code && fuzz_str_equal(x->driver, y->driver),
			    "device %s differs", x->name);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct snapshot s = { 0 }, back = { 0 };
	struct inventory inv = { 0 };
	struct snapshot_context ctx = { "2026-10-14T20:34:09+03:00", "lab" };
	struct parse_error err = PARSE_ERROR_INIT;
	json_t *json, *reread;
	char *text, *dumped;

	if (snapshot_parse((const char *)data, size, &s, &err) < 0) {
		FUZZ_ASSERT(err.message, "a refused snapshot without a message");
		parse_error_release(&err);
		return 0;
	}
	FUZZ_ASSERT(boot_id_valid(s.boot_id), "boot_id '%s' accepted", s.boot_id);
	text = snapshot_to_text(&s, &ctx);
	json = snapshot_to_json(&s, &ctx);
	dumped = json_dumps(json, JSON_COMPACT);
	FUZZ_ASSERT(dumped, "the snapshot cannot be written as JSON");
	reread = json_loads(dumped, 0, NULL);
	FUZZ_ASSERT(reread, "meta.json written for the snapshot does not parse");
	FUZZ_ASSERT(snapshot_from_json(reread, &back, &err) == 0, "meta.json does not read back: %s", err.message);
	same_map(&s.iommu, &back.iommu);
	FUZZ_ASSERT(fuzz_str_equal(s.boot_id, back.boot_id) && fuzz_str_equal(s.kernel, back.kernel) &&
		    fuzz_str_equal(s.cmdline, back.cmdline) && fuzz_str_equal(s.hostname, back.hostname),
		    "boot facts differ after meta.json");

	/* The inventory is read back apart, as a side reads it (side-meta.c). */
	FUZZ_ASSERT(inventory_from_json(reread, &inv, &err) == 0, "the inventory does not read back: %s", err.message);
	FUZZ_ASSERT(s.inventory.n_netifs == inv.n_netifs, "%zu interfaces, then %zu", s.inventory.n_netifs, inv.n_netifs);
	for (size_t i = 0; i < s.inventory.n_netifs; i++) {
		FUZZ_ASSERT(inventory_netif_name_valid(s.inventory.netifs[i].name), "interface name kept unescaped");
		FUZZ_ASSERT(!strcmp(s.inventory.netifs[i].name, inv.netifs[i].name), "interface %zu differs", i);
	}
	inventory_release(&inv);
	for (size_t i = 0; i < s.config.n; i++) {
		char *again = snapshot_config_value(s.config.v[i].value);

		FUZZ_ASSERT(!strcmp(again, s.config.v[i].value), "config value %s changes when kept again",
			    s.config.v[i].name);
		free(again);
	}

	snapshot_release(&back);
	json_decref(reread);
	json_decref(json);
	free(dumped);
	free(text);
	snapshot_release(&s);
	parse_error_release(&err);
	return 0;
}
