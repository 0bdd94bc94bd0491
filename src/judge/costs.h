#ifndef BOOTAB_COSTS_H
#define BOOTAB_COSTS_H

#include <stdbool.h>
#include <stddef.h>

#include "lib/strlist.h"
#include "results/side.h"

/*
 * What a mode broke, found without a check row: every side of another mode
 * against ALL boots of the first mode (the baseline), from the inventory
 * each boot recorded (kernel/inventory.h). Something is blamed on a side
 * only when every baseline boot agrees on it and the side differs:
 *
 *   a PCI device with driver D on every baseline boot that has no driver,
 *   another driver, or is gone on the side;
 *   a device node (/dev/accel/accel0) on every baseline boot and not on it;
 *   a network interface of a device on every baseline boot that is gone,
 *   or up on every baseline boot and not up on the side;
 *   a kernel error or warning line on the side whose normalised form
 *   (klog_normalize()) is on no baseline boot, at any level;
 *   a systemd unit failed on the side and on no baseline boot.
 *
 * The reverse is a gain: an error or warning line on every baseline boot
 * and not on the side (the mode made it go away), a unit failed on every
 * baseline boot that did not fail on the side. What differs between the
 * baseline boots themselves is noise, counted and blamed on nothing.
 * Patterns to ignore (POSIX extended regular expressions) are matched
 * against each finding's subject (costs_subject docs below).
 */

enum found_kind {
	FOUND_DRIVER,          /* a device lost its driver, or another one bound */
	FOUND_DEVICE_GONE,     /* a PCI device is not there */
	FOUND_NODE_GONE,       /* a device node is not there */
	FOUND_NETIF_GONE,      /* a device's network interface is not there */
	FOUND_LINK_DOWN,       /* an interface up on every baseline boot is not up */
	FOUND_KLOG_NEW,        /* a kernel error or warning line no baseline boot has */
	FOUND_UNIT_FAILED,     /* a unit failed that failed on no baseline boot */
	FOUND_KLOG_GONE,       /* a gain: a line every baseline boot has is gone */
	FOUND_UNIT_RECOVERED,  /* a gain: a unit failed on every baseline boot and not on the side */
};

/* "driver", "device-gone", "node-gone", "netif-gone", "link-down", "kernel-log", "unit-failed",
 * "kernel-log-gone", "unit-recovered". */
const char *found_kind_name(enum found_kind kind);

struct found {
	size_t side;
	enum found_kind kind;
	bool gain;             /* FOUND_KLOG_GONE, FOUND_UNIT_RECOVERED */
	/*
	 * What ignore patterns match: the device's address and name
	 * ("0000:c7:00.1 Strix/Krackan/Strix Halo Neural Processing Unit"),
	 * the node ("/dev/accel/accel0"), the interface, the kernel message as
	 * printed, the unit.
	 */
	char *subject;
	/* The finding in words: "0000:c7:00.1 ...: no driver (amdxdna bound on pt, pt2)". */
	char *text;
	char *address;         /* device kinds: the PCI address; else NULL */
	char *baseline_value;  /* FOUND_DRIVER: the baseline's driver; FOUND_LINK_DOWN: "up" */
	char *value;           /* FOUND_DRIVER: this side's driver (NULL: none); FOUND_LINK_DOWN: its state */
	int level;             /* kernel-log kinds: the printk level (0-4) */
	double time;           /* FOUND_KLOG_NEW: seconds since boot of its first occurrence, or NaN */
	size_t count;          /* kernel-log kinds: occurrences on the side (NEW) or the first baseline boot (GONE) */
};

struct costs_result {
	struct found *found;   /* by side, then kind */
	size_t n_found;
	size_t n_costs;        /* found that are not gains */
	size_t n_baseline;     /* boots of the first mode with an inventory */
	char *baseline;        /* their labels: "pt, pt2" ("" when none) */
	bool *judged;          /* per side: something of it was compared */
	size_t n_ignored;      /* findings a pattern matched */
	/* Differences between the baseline boots themselves: noise, blamed on nothing. */
	size_t noise_klog;     /* distinct lines on some baseline boots but not all */
	size_t noise_devices;  /* PCI devices whose driver differs, or that one boot lacks */
	size_t noise_units;
	struct strlist noise_examples;   /* a few of those lines, as printed */
	struct strlist notes;  /* why something was not compared, one line each */
};

/*
 * Whether pattern is a POSIX extended regular expression. Returns 0, or
 * -EINVAL with *ret_error (the caller's) saying why.
 */
int costs_pattern_check(const char *pattern, char **ret_error);

/*
 * Finds the costs of every side against the boots of sides[0]'s mode.
 * ignore: patterns (costs_pattern_check()), may be NULL. Returns 0, or
 * -EINVAL for a bad pattern; *ret is released with costs_result_release().
 */
int costs_find(const struct side *sides, size_t n_sides, const struct strlist *ignore,
	       struct costs_result *ret);

void costs_result_release(struct costs_result *result);

#endif
