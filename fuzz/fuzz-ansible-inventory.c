/*
 * Ansible INI inventories (fleet/ansible-inventory.c).
 *
 * Property: an inventory that parses gives boxes whose names are
 * directory names (no '/', not . or ..), unique, and whose destinations
 * ssh can be given as one argument (no leading '-', no space or control
 * character); one that does not parse says why and touches no output.
 */
#include "fuzz-common.h"

#include "fleet/ansible-inventory.h"
#include "plan/plan.h"
#include "target/target.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const groups[] = { NULL, "all", "ungrouped", "web" };
	char *input = fuzz_text(data, size);

	if (!input)
		return 0;
	for (size_t g = 0; g < sizeof(groups) / sizeof(groups[0]); g++) {
		struct parse_error err = PARSE_ERROR_INIT;
		struct fleet fleet = { .n = 7 };

		if (ansible_inventory_parse("fuzz.ini", input, groups[g], &fleet, &err) < 0) {
			FUZZ_ASSERT(err.message && err.file, "a refused inventory has no message");
			FUZZ_ASSERT(fleet.n == 7, "a refused inventory changed the output");
			parse_error_release(&err);
			continue;
		}
		for (size_t i = 0; i < fleet.n; i++) {
			FUZZ_ASSERT(plan_group_name_valid(fleet.boxes[i].name), "box %zu: name '%s'", i, fleet.boxes[i].name);
			FUZZ_ASSERT(target_destination_acceptable(fleet.boxes[i].destination), "box %zu: destination '%s'", i,
				    fleet.boxes[i].destination);
			for (size_t j = 0; j < i; j++)
				FUZZ_ASSERT(strcmp(fleet.boxes[i].name, fleet.boxes[j].name), "boxes %zu and %zu: '%s'", j, i,
					    fleet.boxes[i].name);
		}
		fleet_release(&fleet);
		parse_error_release(&err);
	}
	free(input);
	return 0;
}
