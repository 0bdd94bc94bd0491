#include "results/side.h"

#include <stdlib.h>
#include <string.h>

#include "lib/alloc.h"
#include "lib/file.h"
#include "lib/json-text.h"
#include "lib/strbuf.h"

char *side_meta_dump(const json_t *meta)
{
	char *dump = json_text(meta, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	char *text = xasprintf("%s\n", dump ? dump : "{}");

	free(dump);
	return text;
}

/* iommu.txt's text for map; the caller's. */
static char *side_iommu_table(const struct iommu_map *map)
{
	struct strbuf sb = STRBUF_INIT;
	char *summary = iommu_map_summary(map);

	for (size_t i = 0; i < map->n_devices; i++) {
		const struct iommu_device *d = &map->devices[i];

		strbuf_addf(&sb, "%u\t%s\t%s\t%s\t%s\n", d->group,
			    iommu_map_group(map, d->group)->type, d->name,
			    d->description ? d->description : d->bus ? d->bus : "-",
			    d->driver ? d->driver : "-");
	}
	strbuf_addf(&sb, "iommu group types: %s\n", summary);
	free(summary);
	return strbuf_detach(&sb, NULL);
}

static int write_one(const char *dir, const char *name, const char *text, char **ret_failed)
{
	char *path = path_join(dir, name);
	int r = file_write_atomic(path, text, strlen(text), 0644);

	if (r < 0)
		*ret_failed = path;
	else
		free(path);
	return r;
}

int side_write_meta(const char *dir, const json_t *meta, const char *meta_txt,
		    const struct iommu_map *iommu, char **ret_failed)
{
	char *table = iommu ? side_iommu_table(iommu) : NULL, *json = side_meta_dump(meta);
	int r = 0;

	*ret_failed = NULL;
	if (table)
		r = write_one(dir, "iommu.txt", table, ret_failed);
	if (r == 0)
		r = write_one(dir, "meta.txt", meta_txt, ret_failed);
	/* meta.json last: its presence says the side is complete. */
	if (r == 0)
		r = write_one(dir, "meta.json", json, ret_failed);
	free(table);
	free(json);
	return r;
}
