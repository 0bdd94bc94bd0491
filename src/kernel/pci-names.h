#ifndef BOOTAB_KERNEL_PCI_NAMES_H
#define BOOTAB_KERNEL_PCI_NAMES_H

#include <stdbool.h>
#include <stddef.h>

/*
 * PCI vendor, device and class names from pci.ids through libpci, never
 * asking DNS or udev. One place holds libpci's handle and its error
 * callback, for the IOMMU map (iommu.c) and the inventory (inventory.c).
 */
struct pci_names;

/* How a name is looked up. */
enum {
	PCI_NAMES_VENDOR = 1 << 0,  /* device: "VENDOR DEVICE", not DEVICE alone */
	PCI_NAMES_NUMBERS = 1 << 1, /* the numeric ids when pci.ids lacks the name */
};

typedef void pci_names_fn(struct pci_names *names, void *ctx);

/*
 * Loads pci.ids (ids_path NULL: libpci's default) and calls fn(names, ctx)
 * to look names up. Returns 0; -ENOENT when pci.ids cannot be read (fn is
 * then called only when numeric_fallback is true, and every lookup gives
 * the numbers); -EINVAL when libpci calls pci.ids malformed (fn may have
 * looked up some names before).
 */
int pci_names_with(const char *ids_path, bool numeric_fallback, pci_names_fn *fn, void *ctx);

/*
 * The name of vendor:device into buf (how: PCI_NAMES_*). Returns false when
 * there is none (only without PCI_NAMES_NUMBERS); buf holds it otherwise.
 */
bool pci_names_device(struct pci_names *names, unsigned vendor, unsigned device, int how, char *buf,
		      size_t size);

/* The name of class_code's class and subclass (its upper 16 of 24 bits), as pci_names_device(). */
bool pci_names_class(struct pci_names *names, unsigned class_code, int how, char *buf, size_t size);

#endif
