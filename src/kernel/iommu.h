#ifndef BOOTAB_IOMMU_H
#define BOOTAB_IOMMU_H

#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>

#include "lib/parse-error.h"

/*
 * The IOMMU map of one boot: /sys/kernel/iommu_groups/N/type and the
 * devices of each group, as a snapshot read them. A group's type is the
 * kernel's default domain type for it (Documentation/ABI/testing/
 * sysfs-kernel-iommu_groups): "DMA" and "DMA-FQ" translate DMA (strict and
 * lazy invalidation), "identity" does not translate; "auto", "blocked" and
 * "unmanaged" also occur.
 */

#define IOMMU_ID_ABSENT 0xffffffffu

struct iommu_device {
	char *name;          /* sysfs name: "0000:c6:00.0", or "MSFT0201:00" for a platform device */
	char *bus;           /* "pci", "platform", ...; NULL when unknown */
	unsigned group;
	unsigned vendor;     /* PCI ids; IOMMU_ID_ABSENT for non-PCI devices */
	unsigned device;
	unsigned class_code; /* 24 bits: class, subclass, prog-if */
	char *driver;        /* NULL: no driver bound */
	char *description;   /* "Display controller: ..." (iommu_map_describe), or NULL */
};

struct iommu_group {
	unsigned number;
	char *type;
};

struct iommu_map {
	struct iommu_group *groups;    /* sorted by number after iommu_map_sort() */
	size_t n_groups, alloc_groups;
	struct iommu_device *devices;  /* sorted by group, then name */
	size_t n_devices, alloc_devices;
	/* Lookups by group number and by device name: hash tables of indices + 1 (0: empty). */
	size_t *group_index, group_index_size;
	size_t *device_index, device_index_size;
};

#define IOMMU_MAP_INIT { NULL, 0, 0, NULL, 0, 0, NULL, 0, NULL, 0 }

/*
 * Validity of the words the map holds (names come from an untrusted
 * target): a group type is 1-32 of [A-Za-z0-9_-]; a device name 1-128
 * printable bytes without '/', space or control characters; a driver or
 * bus name 1-64 of [A-Za-z0-9_.:-].
 */
bool iommu_type_valid(const char *s);
bool iommu_device_name_valid(const char *s);
bool iommu_driver_name_valid(const char *s);

/*
 * Adds group number with type (copied). Returns 0, -EEXIST when the group
 * is already there, -EINVAL for an invalid type. The map is unchanged on
 * error.
 */
int iommu_map_add_group(struct iommu_map *map, unsigned number, const char *type);

/*
 * Adds a device (name, bus and driver copied; bus and driver may be NULL)
 * to group, which must have been added. Returns 0, -ENOENT (no such
 * group), -EEXIST (a device of that name is already in the map) or
 * -EINVAL (invalid name). The map is unchanged on error.
 */
int iommu_map_add_device(struct iommu_map *map, unsigned group, const char *name,
			 const char *bus, unsigned vendor, unsigned device,
			 unsigned class_code, const char *driver);

/* Sorts groups by number and devices by group, then name. */
void iommu_map_sort(struct iommu_map *map);

/* The group numbered number, or NULL. Borrowed. */
const struct iommu_group *iommu_map_group(const struct iommu_map *map, unsigned number);
/* The device called name, or NULL. Borrowed. */
const struct iommu_device *iommu_map_device(const struct iommu_map *map, const char *name);
/* Type of the device's group ("DMA-FQ"), or NULL when the device is unknown. Borrowed. */
const char *iommu_map_device_type(const struct iommu_map *map, const char *name);
/* How many groups have type. */
size_t iommu_map_count_type(const struct iommu_map *map, const char *type);

/*
 * The summary in the form "1 DMA, 32 DMA-FQ, 2 identity": group counts by
 * type, DMA then DMA-FQ then identity then any other type in name order;
 * "no IOMMU groups" for an empty map. The result is the caller's.
 */
char *iommu_map_summary(const struct iommu_map *map);

/*
 * Names every PCI device of the map from pci.ids through libpci, like
 * lspci: "CLASS: VENDOR DEVICE" ("Display controller: Advanced Micro
 * Devices, Inc. [AMD/ATI] Device 1586" when pci.ids lacks the device).
 * ids_path NULL: libpci's default pci.ids. Devices without PCI ids keep a
 * NULL description. Returns 0, or -ENOENT when pci.ids cannot be read (the
 * descriptions then hold the numeric ids).
 */
int iommu_map_describe(struct iommu_map *map, const char *ids_path);

/* The map as JSON: an array of groups, each with its devices. New reference. */
json_t *iommu_map_to_json(const struct iommu_map *map);

/*
 * Reads a map back from iommu_map_to_json()'s form. On error returns
 * -EINVAL with err's message set (naming the JSON path) and *ret untouched.
 */
int iommu_map_from_json(const json_t *json, struct iommu_map *ret, struct parse_error *err);

void iommu_map_release(struct iommu_map *map);

/* One device whose IOMMU domain differs between two boots. */
enum iommu_change_kind {
	IOMMU_CHANGE_TYPE,      /* in both maps, group type differs */
	IOMMU_CHANGE_GROUP,     /* same type, moved to another group number */
	IOMMU_CHANGE_APPEARED,  /* only in the second map */
	IOMMU_CHANGE_VANISHED,  /* only in the first map */
};

struct iommu_change {
	enum iommu_change_kind kind;
	const struct iommu_device *a;  /* borrowed from map a; NULL when appeared */
	const struct iommu_device *b;  /* borrowed from map b; NULL when vanished */
	const char *type_a;            /* borrowed; NULL when absent */
	const char *type_b;
};

/*
 * The devices whose domain changed from a to b, in device-name order.
 * *ret_changes (free() it; the entries borrow from both maps) is written
 * on success; *ret_count may be 0. Both maps must be sorted. Returns 0.
 */
int iommu_map_diff(const struct iommu_map *a, const struct iommu_map *b,
		   struct iommu_change **ret_changes, size_t *ret_count);

#endif
