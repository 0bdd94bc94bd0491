#ifndef BOOTAB_INVENTORY_H
#define BOOTAB_INVENTORY_H

#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>

#include "kernel/iommu.h"
#include "lib/parse-error.h"

/*
 * What a boot gives its users, as snapshot.sh reads it: every PCI device
 * with its bound driver and IOMMU group, the device nodes users open
 * (under /dev/accel, /dev/dri, /dev/nvme, /dev/vfio and the disks), the
 * network interfaces with their link state, the kernel's error and warning
 * lines, and the systemd units that failed. Comparing these between boots
 * is how bootab finds what a setting broke (judge/costs.h).
 * docs/results-format.md describes the meta.json form.
 */

struct inventory_pci {
	char *address;       /* "0000:c7:00.1" */
	unsigned vendor;     /* IOMMU_ID_ABSENT when sysfs had none */
	unsigned device;
	unsigned class_code; /* 24 bits */
	char *driver;        /* NULL: no driver bound */
	long iommu_group;    /* -1: none */
	char *name;          /* libpci's device name ("Strix/Krackan/Strix Halo Neural Processing Unit"), or NULL */
	char *class_name;    /* libpci's class name ("Signal processing controller"), or NULL */
};

/* A device node, from its sysfs class entry: /sys/class/accel/accel0 is /dev/accel/accel0. */
struct inventory_node {
	char *class_name;    /* "accel", "drm", "nvme", "block", "vfio" */
	char *name;          /* "accel0" */
	char *dev;           /* "/dev/accel/accel0" (the uevent's DEVNAME) */
	char *device;        /* the parent device ("0000:c7:00.1"), or NULL */
};

struct inventory_netif {
	char *name;          /* "enp3s0" */
	char *operstate;     /* "up", "down", "unknown", ... */
	int carrier;         /* 1, 0, or -1 when unreadable (an interface that is down) */
	char *device;        /* the parent device, NULL for a virtual interface */
};

enum inventory_source {
	INVENTORY_SOURCE_ABSENT,     /* nothing to read it from */
	INVENTORY_SOURCE_DMESG,      /* dmesg -r: the kernel's own priorities */
	INVENTORY_SOURCE_JOURNALCTL, /* journalctl (capture-sysfs.sh's trees: 0-3 as 3, 4) */
	INVENTORY_SOURCE_SYSTEMCTL,
	INVENTORY_SOURCE_FILE,       /* a captured tree's var/log file */
	INVENTORY_SOURCE_SKIPPED,    /* not asked for */
};

/* A kernel log line at error or warning level (printk levels 0-4). */
struct klog_line {
	int level;           /* 0 emerg ... 3 err, 4 warning */
	double time;         /* seconds since boot; NaN when the log had no time */
	char *text;          /* the message as the kernel printed it */
	char *key;           /* klog_normalize(text): what matches across boots */
};

struct inventory {
	bool has_devices;    /* the snapshot read PCI devices, nodes and interfaces */
	struct inventory_pci *pci;
	size_t n_pci, alloc_pci;
	struct inventory_node *nodes;
	size_t n_nodes, alloc_nodes;
	struct inventory_netif *netifs;
	size_t n_netifs, alloc_netifs;
	enum inventory_source klog_source;   /* ABSENT also when not recorded */
	bool has_klog;                       /* klog_source and klog_count were recorded */
	struct klog_line *klog;
	size_t n_klog, alloc_klog;
	unsigned long klog_count;            /* error and warning lines the log held */
	enum inventory_source units_source;
	bool has_units;
	char **failed_units;
	size_t n_failed_units, alloc_failed_units;
};

#define INVENTORY_MAX_KLOG 2000

const char *inventory_source_name(enum inventory_source source);
/* Returns 0 and sets *ret for a name inventory_source_name() gives, else -EINVAL. */
int inventory_source_from_name(const char *name, enum inventory_source *ret);

/* "err", "warning", "crit", ...: the kernel's names of levels 0-7. */
const char *klog_level_name(int level);

/*
 * The form of a kernel message that matches the same message on another
 * boot: every number that is not part of a name is replaced by "N" (also
 * before a unit: "91ms" is "Nms"), hex numbers (0x...) by "0xN", and long
 * hex words (addresses, hashes) by "H";
 * a negative decimal (an errno: "-22") is kept, as are PCI addresses
 * (0000:c7:00.1) and names that hold digits (nvme0n1, eth0, ivhd0). Runs of
 * blanks become one. The result is the caller's.
 */
char *klog_normalize(const char *text);

/*
 * Whether s is a name the inventory keeps: 1-255 printable ASCII bytes
 * without blanks or '/' (a sysfs entry, a driver, a unit).
 */
bool inventory_name_valid(const char *s);

/*
 * An interface name as the inventory keeps it: the kernel's name (any
 * bytes but '/', blanks and NUL) escaped with inventory_netif_name(), so
 * 1-255 bytes of printable UTF-8 without blanks or '/'.
 */
bool inventory_netif_name_valid(const char *s);

/*
 * The kernel's interface name as the inventory keeps it: controls, DEL,
 * bytes that are not UTF-8 and '\\' written as \xNN (text_escape_append()
 * with TEXT_ESCAPE_BACKSLASH), so two names never share an escape. An
 * ASCII name without '\\' ("eth0") is unchanged. The caller's.
 */
char *inventory_netif_name(const char *raw);

/* Adders: copy their strings; return -EINVAL for an invalid field, -EEXIST for a repeat. */
int inventory_add_pci(struct inventory *inv, const char *address, unsigned vendor, unsigned device,
		      unsigned class_code, const char *driver, long iommu_group);
int inventory_add_node(struct inventory *inv, const char *class_name, const char *name, const char *dev,
		       const char *device);
int inventory_add_netif(struct inventory *inv, const char *name, const char *operstate, int carrier,
			const char *device);
/* text must be valid UTF-8 (the snapshot parser replaces other bytes). */
int inventory_add_klog(struct inventory *inv, int level, double time, const char *text);
int inventory_add_unit(struct inventory *inv, const char *unit);

/* The PCI device at address, or NULL. Borrowed. */
const struct inventory_pci *inventory_find_pci(const struct inventory *inv, const char *address);

/*
 * Names every PCI device from pci.ids through libpci (ids_path NULL:
 * libpci's default). Returns 0, or -ENOENT when pci.ids cannot be read
 * (names stay NULL).
 */
int inventory_describe(struct inventory *inv, const char *ids_path);

/*
 * Adds meta.json's "devices", "kernel_log" and "failed_units" keys for inv
 * to obj (each only when recorded). map gives each device's IOMMU group type.
 */
void inventory_to_json(const struct inventory *inv, const struct iommu_map *map, json_t *obj);

/*
 * Reads those keys back from a meta.json object. Keys that are absent leave
 * their part unrecorded (has_devices, has_klog, has_units false). On a bad
 * value returns -EINVAL with err's message naming the JSON path, and *ret
 * untouched. *ret is released with inventory_release().
 */
int inventory_from_json(const json_t *obj, struct inventory *ret, struct parse_error *err);

void inventory_release(struct inventory *inv);

#endif
