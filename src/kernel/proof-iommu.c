/*
 * The IOMMU family of the proof table: iommu=pt and iommu.passthrough=,
 * iommu.strict=, amd_iommu=off and intel_iommu=off, proven from the IOMMU
 * groups' types and /sys/class/iommu.
 */

#include "kernel/proof-internal.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "lib/alloc.h"
#include "lib/strbuf.h"

/* ---------------------------------------------------------------- IOMMU */

/* "group 18 DMA: 0000:c2:00.0" for every group of the map whose type is not skip_type. */
static char *groups_not_of(const struct iommu_map *map, const char *skip_type)
{
	struct strbuf sb = STRBUF_INIT;

	for (size_t i = 0; i < map->n_groups; i++) {
		const struct iommu_group *g = &map->groups[i];
		bool first = true;

		if (!strcmp(g->type, skip_type))
			continue;
		strbuf_addf(&sb, "%sgroup %u %s:", sb.len ? "; " : "", g->number, g->type);
		for (size_t k = 0; k < map->n_devices; k++) {
			if (map->devices[k].group != g->number)
				continue;
			strbuf_addf(&sb, "%s%s", first ? " " : ", ", map->devices[k].name);
			first = false;
		}
	}
	return strbuf_detach(&sb, NULL);
}

#define GROUPS_PATH "/sys/kernel/iommu_groups/*/type"

bool proof_passthrough_match(const char *key, const struct verify_arg *a)
{
	return (!strcmp(key, "iommu") && proof_value_is(a, "pt")) ||
	       (!strcmp(key, "iommu.passthrough") && proof_boolean_value(a->value) == 1);
}

/* Documentation/ABI/testing/sysfs-kernel-iommu_groups: the group's default domain type. */
void proof_passthrough_judge(struct judge *j)
{
	const struct iommu_map *map = &j->snap->iommu;
	static const char expected[] = "IOMMU groups exist and are identity";
	size_t identity = iommu_map_count_type(map, "identity");
	size_t lazy = iommu_map_count_type(map, "DMA-FQ");
	char *summary = iommu_map_summary(map), *others;

	if (j->watch) {
		const char *type = iommu_map_device_type(map, j->watch);

		if (type && !strcmp(type, "identity"))
			j->inert = "the watched device is already identity";
	}
	if (map->n_groups == 0) {
		PROVE(j, false, expected, GROUPS_PATH, "no IOMMU groups (the IOMMU is off or absent)");
		free(summary);
		return;
	}
	others = groups_not_of(map, "identity");
	if (identity == 0 || lazy > 0)
		PROVE(j, false, expected, GROUPS_PATH, "%s; translated: %s", summary, others);
	else if (*others)
		/* The kernel keeps some devices strict whatever the default (untrusted, quirks). */
		PROVE(j, true, expected, GROUPS_PATH, "%s; kept translated by the kernel: %s", summary,
		      others);
	else
		PROVE(j, true, expected, GROUPS_PATH, "%s", summary);
	free(others);
	free(summary);
}

bool proof_strict_match(const char *key, const struct verify_arg *a)
{
	return !strcmp(key, "iommu.strict") && proof_boolean_value(a->value) == 1;
}

void proof_strict_judge(struct judge *j)
{
	const struct iommu_map *map = &j->snap->iommu;
	static const char expected[] = "translated groups are DMA (strict), none DMA-FQ";
	char *summary = iommu_map_summary(map);

	if (map->n_groups == 0)
		PROVE(j, false, expected, GROUPS_PATH, "no IOMMU groups (the IOMMU is off or absent)");
	else
		PROVE(j, iommu_map_count_type(map, "DMA-FQ") == 0 && iommu_map_count_type(map, "DMA") > 0,
		      expected, GROUPS_PATH, "%s", summary);
	free(summary);
}

bool proof_iommu_off_match(const char *key, const struct verify_arg *a)
{
	return (!strcmp(key, "amd_iommu") || !strcmp(key, "intel_iommu")) && a->value &&
	       proof_has_option(a->value, "off");
}

void proof_iommu_off_judge(struct judge *j)
{
	static const char expected[] = "no IOMMU groups and /sys/class/iommu empty";
	static const char where[] = "/sys/kernel/iommu_groups, /sys/class/iommu";
	struct strbuf units = STRBUF_INIT;
	char *summary = iommu_map_summary(&j->snap->iommu);

	for (size_t i = 0; i < j->snap->n_iommu_classes; i++)
		strbuf_addf(&units, "%s%s", i ? " " : "", j->snap->iommu_classes[i]);
	if (j->snap->iommu.n_groups == 0 && j->snap->n_iommu_classes == 0)
		PROVE(j, true, expected, where, "no IOMMU groups, no IOMMU units");
	else
		PROVE(j, false, expected, where, "%s; IOMMU units: %s", summary,
		      units.len ? units.buf : "none");
	strbuf_release(&units);
	free(summary);
}
