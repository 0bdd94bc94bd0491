#include "kernel/iommu.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/pci-names.h"
#include "lib/alloc.h"
#include "lib/parse-number.h"
#include "lib/strbuf.h"

static bool all_chars_in(const char *s, size_t max, const char *extra)
{
	size_t n = 0;

	for (const char *p = s; *p; p++, n++) {
		unsigned char c = (unsigned char)*p;

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		      (c >= '0' && c <= '9') || strchr(extra, c)))
			return false;
	}
	return n > 0 && n <= max;
}

bool iommu_type_valid(const char *s)
{
	return all_chars_in(s, 32, "_-");
}

bool iommu_driver_name_valid(const char *s)
{
	return all_chars_in(s, 64, "_.:-");
}

bool iommu_device_name_valid(const char *s)
{
	size_t n = 0;

	for (const unsigned char *p = (const unsigned char *)s; *p; p++, n++)
		if (*p <= ' ' || *p == 0x7f || *p == '/')
			return false;
	return n > 0 && n <= 128 && strcmp(s, ".") && strcmp(s, "..");
}

/*
 * The lookups are hash tables (linear probing, at most half full), so
 * reading a map of n groups and diffing two is n log n (the sort), not n^2:
 * a box with 50,000 groups is read in well under a second.
 */
static size_t group_hash(unsigned number)
{
	return (size_t)(number * 2654435761u);
}

static size_t device_hash(const char *name)
{
	uint64_t h = 14695981039346656037u;

	for (const unsigned char *p = (const unsigned char *)name; *p; p++)
		h = (h ^ *p) * 1099511628211u;
	return (size_t)h;
}

static void index_put(size_t *index, size_t size, size_t hash, size_t i)
{
	size_t slot = hash & (size - 1);

	while (index[slot])
		slot = (slot + 1) & (size - 1);
	index[slot] = i + 1;
}

static void groups_reindex(struct iommu_map *map)
{
	free(map->group_index);
	map->group_index_size = 64;
	while (map->group_index_size < 2 * (map->n_groups + 1))
		map->group_index_size *= 2;
	map->group_index = xcalloc(map->group_index_size, sizeof(*map->group_index));
	for (size_t i = 0; i < map->n_groups; i++)
		index_put(map->group_index, map->group_index_size, group_hash(map->groups[i].number), i);
}

static void devices_reindex(struct iommu_map *map)
{
	free(map->device_index);
	map->device_index_size = 64;
	while (map->device_index_size < 2 * (map->n_devices + 1))
		map->device_index_size *= 2;
	map->device_index = xcalloc(map->device_index_size, sizeof(*map->device_index));
	for (size_t i = 0; i < map->n_devices; i++)
		index_put(map->device_index, map->device_index_size, device_hash(map->devices[i].name), i);
}

int iommu_map_add_group(struct iommu_map *map, unsigned number, const char *type)
{
	if (!iommu_type_valid(type))
		return -EINVAL;
	if (iommu_map_group(map, number))
		return -EEXIST;
	GROW(map->groups, map->alloc_groups, map->n_groups + 1);
	map->groups[map->n_groups++] = (struct iommu_group){ number, xstrdup(type) };
	if (2 * map->n_groups > map->group_index_size)
		groups_reindex(map);
	else
		index_put(map->group_index, map->group_index_size, group_hash(number), map->n_groups - 1);
	return 0;
}

int iommu_map_add_device(struct iommu_map *map, unsigned group, const char *name,
			 const char *bus, unsigned vendor, unsigned device,
			 unsigned class_code, const char *driver)
{
	if (!iommu_device_name_valid(name) ||
	    (bus && !iommu_driver_name_valid(bus)) ||
	    (driver && !iommu_driver_name_valid(driver)))
		return -EINVAL;
	if (!iommu_map_group(map, group))
		return -ENOENT;
	if (iommu_map_device(map, name))
		return -EEXIST;
	GROW(map->devices, map->alloc_devices, map->n_devices + 1);
	map->devices[map->n_devices++] = (struct iommu_device){
		.name = xstrdup(name),
		.bus = bus ? xstrdup(bus) : NULL,
		.group = group,
		.vendor = vendor,
		.device = device,
		.class_code = class_code,
		.driver = driver ? xstrdup(driver) : NULL,
	};
	if (2 * map->n_devices > map->device_index_size)
		devices_reindex(map);
	else
		index_put(map->device_index, map->device_index_size, device_hash(name), map->n_devices - 1);
	return 0;
}

static int cmp_group(const void *a, const void *b)
{
	const struct iommu_group *x = a, *y = b;

	return x->number < y->number ? -1 : x->number > y->number;
}

static int cmp_device(const void *a, const void *b)
{
	const struct iommu_device *x = a, *y = b;

	if (x->group != y->group)
		return x->group < y->group ? -1 : 1;
	return strcmp(x->name, y->name);
}

void iommu_map_sort(struct iommu_map *map)
{
	if (map->n_groups) {
		qsort(map->groups, map->n_groups, sizeof(*map->groups), cmp_group);
		groups_reindex(map);
	}
	if (map->n_devices) {
		qsort(map->devices, map->n_devices, sizeof(*map->devices), cmp_device);
		devices_reindex(map);
	}
}

const struct iommu_group *iommu_map_group(const struct iommu_map *map, unsigned number)
{
	size_t mask = map->group_index_size - 1;

	if (!map->group_index)
		return NULL;
	for (size_t slot = group_hash(number) & mask; map->group_index[slot]; slot = (slot + 1) & mask)
		if (map->groups[map->group_index[slot] - 1].number == number)
			return &map->groups[map->group_index[slot] - 1];
	return NULL;
}

const struct iommu_device *iommu_map_device(const struct iommu_map *map, const char *name)
{
	size_t mask = map->device_index_size - 1;

	if (!map->device_index)
		return NULL;
	for (size_t slot = device_hash(name) & mask; map->device_index[slot]; slot = (slot + 1) & mask)
		if (!strcmp(map->devices[map->device_index[slot] - 1].name, name))
			return &map->devices[map->device_index[slot] - 1];
	return NULL;
}

const char *iommu_map_device_type(const struct iommu_map *map, const char *name)
{
	const struct iommu_device *d = iommu_map_device(map, name);
	const struct iommu_group *g = d ? iommu_map_group(map, d->group) : NULL;

	return g ? g->type : NULL;
}

size_t iommu_map_count_type(const struct iommu_map *map, const char *type)
{
	size_t n = 0;

	for (size_t i = 0; i < map->n_groups; i++)
		n += !strcmp(map->groups[i].type, type);
	return n;
}

/* Known types first, in the order a reader expects; others by name. */
static int type_rank(const char *type)
{
	static const char *const order[] = { "DMA", "DMA-FQ", "identity" };

	for (int i = 0; i < 3; i++)
		if (!strcmp(type, order[i]))
			return i;
	return 3;
}

static int cmp_type(const void *a, const void *b)
{
	const char *x = *(const char *const *)a, *y = *(const char *const *)b;
	int rx = type_rank(x), ry = type_rank(y);

	return rx != ry ? rx - ry : strcmp(x, y);
}

char *iommu_map_summary(const struct iommu_map *map)
{
	struct strbuf sb = STRBUF_INIT;
	const char **types;
	size_t n = 0;

	if (map->n_groups == 0)
		return xstrdup("no IOMMU groups");
	types = xcalloc(map->n_groups, sizeof(*types));
	for (size_t i = 0; i < map->n_groups; i++) {
		size_t j;

		for (j = 0; j < n; j++)
			if (!strcmp(types[j], map->groups[i].type))
				break;
		if (j == n)
			types[n++] = map->groups[i].type;
	}
	qsort(types, n, sizeof(*types), cmp_type);
	for (size_t j = 0; j < n; j++)
		strbuf_addf(&sb, "%s%zu %s", j ? ", " : "", iommu_map_count_type(map, types[j]),
			    types[j]);
	free(types);
	return strbuf_detach(&sb, NULL);
}

static void describe_devices(struct pci_names *names, void *ctx)
{
	struct iommu_map *map = ctx;

	for (size_t i = 0; i < map->n_devices; i++) {
		struct iommu_device *d = &map->devices[i];
		char cls[256], name[512];

		if (d->vendor == IOMMU_ID_ABSENT || d->device == IOMMU_ID_ABSENT)
			continue;
		if (d->class_code != IOMMU_ID_ABSENT)
			pci_names_class(names, d->class_code, PCI_NAMES_NUMBERS, cls, sizeof(cls));
		pci_names_device(names, d->vendor, d->device, PCI_NAMES_VENDOR | PCI_NAMES_NUMBERS, name,
				 sizeof(name));
		free(d->description);
		if (d->class_code != IOMMU_ID_ABSENT)
			d->description = xasprintf("%s: %s", cls, name);
		else
			d->description = xstrdup(name);
	}
}

int iommu_map_describe(struct iommu_map *map, const char *ids_path)
{
	return pci_names_with(ids_path, true, describe_devices, map);
}

static json_t *id_json(unsigned id, int digits)
{
	char buf[16];

	if (id == IOMMU_ID_ABSENT)
		return json_null();
	snprintf(buf, sizeof(buf), "0x%0*x", digits, id);
	return json_string(buf);
}

static json_t *str_or_null(const char *s)
{
	return s ? json_string(s) : json_null();
}

json_t *iommu_map_to_json(const struct iommu_map *map)
{
	json_t *groups = json_array();

	for (size_t i = 0; i < map->n_groups; i++) {
		const struct iommu_group *g = &map->groups[i];
		json_t *devices = json_array();

		for (size_t j = 0; j < map->n_devices; j++) {
			const struct iommu_device *d = &map->devices[j];

			if (d->group != g->number)
				continue;
			json_array_append_new(devices, json_pack("{s:s, s:o, s:o, s:o, s:o, s:o, s:o}",
				"name", d->name,
				"bus", str_or_null(d->bus),
				"vendor", id_json(d->vendor, 4),
				"device", id_json(d->device, 4),
				"class", id_json(d->class_code, 6),
				"driver", str_or_null(d->driver),
				"description", str_or_null(d->description)));
		}
		json_array_append_new(groups, json_pack("{s:I, s:s, s:o}", "group",
							(json_int_t)g->number, "type", g->type,
							"devices", devices));
	}
	return groups;
}

/* "0x1002" (at most max) or null → id. */
static int id_from_json(const json_t *v, unsigned max, unsigned *ret)
{
	const char *s, *end;
	long x;

	if (!v || json_is_null(v)) {
		*ret = IOMMU_ID_ABSENT;
		return 0;
	}
	if (!json_is_string(v))
		return -EINVAL;
	s = json_string_value(v);
	if (strncmp(s, "0x", 2) || !s[2] || strlen(s) > 10)
		return -EINVAL;
	if (number_scan_long(s + 2, 16, 0, max, &x, &end) < 0 || *end)
		return -EINVAL;
	*ret = (unsigned)x;
	return 0;
}

static const char *optional_string(const json_t *obj, const char *key, bool *ok)
{
	const json_t *v = json_object_get(obj, key);

	if (!v || json_is_null(v))
		return NULL;
	if (!json_is_string(v)) {
		*ok = false;
		return NULL;
	}
	return json_string_value(v);
}

int iommu_map_from_json(const json_t *json, struct iommu_map *ret, struct parse_error *err)
{
	struct iommu_map map = IOMMU_MAP_INIT;
	size_t gi, di;
	const json_t *g, *d;

	if (!json_is_array(json)) {
		parse_error_set(err, 0, 0, "iommu.groups: not an array");
		return -EINVAL;
	}
	json_array_foreach(json, gi, g) {
		const json_t *num = json_object_get(g, "group"), *devices = json_object_get(g, "devices");
		const char *type = json_string_value(json_object_get(g, "type"));
		json_int_t number = json_is_integer(num) ? json_integer_value(num) : -1;

		if (number < 0 || number > 0xffffff || !type || !json_is_array(devices) ||
		    iommu_map_add_group(&map, (unsigned)number, type) < 0) {
			parse_error_set(err, 0, 0, "iommu.groups[%zu]: bad or repeated group", gi);
			goto fail;
		}
		json_array_foreach(devices, di, d) {
			const char *name = json_string_value(json_object_get(d, "name"));
			bool ok = true;
			const char *bus = optional_string(d, "bus", &ok);
			const char *driver = optional_string(d, "driver", &ok);
			const char *description = optional_string(d, "description", &ok);
			unsigned vendor, device, cls;

			if (!name || !ok ||
			    id_from_json(json_object_get(d, "vendor"), 0xffff, &vendor) < 0 ||
			    id_from_json(json_object_get(d, "device"), 0xffff, &device) < 0 ||
			    id_from_json(json_object_get(d, "class"), 0xffffff, &cls) < 0 ||
			    iommu_map_add_device(&map, (unsigned)number, name, bus, vendor, device,
						 cls, driver) < 0) {
				parse_error_set(err, 0, 0, "iommu.groups[%zu].devices[%zu]: bad or repeated device",
						gi, di);
				goto fail;
			}
			if (description)
				map.devices[map.n_devices - 1].description = xstrdup(description);
		}
	}
	iommu_map_sort(&map);
	*ret = map;
	return 0;
fail:
	iommu_map_release(&map);
	return -EINVAL;
}

void iommu_map_release(struct iommu_map *map)
{
	if (!map)
		return;
	for (size_t i = 0; i < map->n_groups; i++)
		free(map->groups[i].type);
	for (size_t i = 0; i < map->n_devices; i++) {
		free(map->devices[i].name);
		free(map->devices[i].bus);
		free(map->devices[i].driver);
		free(map->devices[i].description);
	}
	free(map->groups);
	free(map->devices);
	free(map->group_index);
	free(map->device_index);
	*map = (struct iommu_map)IOMMU_MAP_INIT;
}

static int cmp_device_ptr_name(const void *a, const void *b)
{
	const struct iommu_device *x = *(const struct iommu_device *const *)a;
	const struct iommu_device *y = *(const struct iommu_device *const *)b;

	return strcmp(x->name, y->name);
}

/* The map's devices as an array of pointers sorted by name; free() it. */
static const struct iommu_device **by_name(const struct iommu_map *map)
{
	const struct iommu_device **v = xcalloc(map->n_devices + 1, sizeof(*v));

	for (size_t i = 0; i < map->n_devices; i++)
		v[i] = &map->devices[i];
	if (map->n_devices)
		qsort(v, map->n_devices, sizeof(*v), cmp_device_ptr_name);
	return v;
}

int iommu_map_diff(const struct iommu_map *a, const struct iommu_map *b,
		   struct iommu_change **ret_changes, size_t *ret_count)
{
	const struct iommu_device **va = by_name(a), **vb = by_name(b);
	struct iommu_change *changes = NULL;
	size_t n = 0, alloc = 0, i = 0, j = 0;

	while (i < a->n_devices || j < b->n_devices) {
		int c;

		if (i == a->n_devices)
			c = 1;
		else if (j == b->n_devices)
			c = -1;
		else
			c = strcmp(va[i]->name, vb[j]->name);
		GROW(changes, alloc, n + 1);
		if (c < 0) {
			changes[n++] = (struct iommu_change){ IOMMU_CHANGE_VANISHED, va[i], NULL,
				iommu_map_group(a, va[i]->group)->type, NULL };
			i++;
		} else if (c > 0) {
			changes[n++] = (struct iommu_change){ IOMMU_CHANGE_APPEARED, NULL, vb[j],
				NULL, iommu_map_group(b, vb[j]->group)->type };
			j++;
		} else {
			const char *ta = iommu_map_group(a, va[i]->group)->type;
			const char *tb = iommu_map_group(b, vb[j]->group)->type;

			if (strcmp(ta, tb))
				changes[n++] = (struct iommu_change){ IOMMU_CHANGE_TYPE, va[i], vb[j], ta, tb };
			else if (va[i]->group != vb[j]->group)
				changes[n++] = (struct iommu_change){ IOMMU_CHANGE_GROUP, va[i], vb[j], ta, tb };
			i++;
			j++;
		}
	}
	free(va);
	free(vb);
	*ret_changes = changes;
	*ret_count = n;
	return 0;
}
