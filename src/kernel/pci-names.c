#include "kernel/pci-names.h"

#include <errno.h>
#include <setjmp.h>

#include <pci/pci.h>

#include "lib/alloc.h"

struct pci_names {
	struct pci_access *pacc;
};

/*
 * libpci reports a malformed pci.ids through its error callback, which
 * must not return; it jumps back here instead of ending the process.
 */
static jmp_buf pci_error_jump;

static void PCI_NONRET pci_error_handler(char *msg, ...)
{
	(void)msg;
	longjmp(pci_error_jump, 1);
}

static void pci_quiet(char *msg, ...)
{
	(void)msg;
}

int pci_names_with(const char *ids_path, bool numeric_fallback, pci_names_fn *fn, void *ctx)
{
	struct pci_names names = { pci_alloc() };
	/* Kept across longjmp: */
	volatile int r = 0;

	names.pacc->error = pci_error_handler;
	names.pacc->warning = pci_quiet;
	names.pacc->debug = pci_quiet;
	if (ids_path)
		pci_set_name_list_path(names.pacc, xstrdup(ids_path), 1);
	if (setjmp(pci_error_jump)) {
		r = -EINVAL;
		goto out;
	}
	if (!pci_load_name_list(names.pacc)) {
		r = -ENOENT;
		if (!numeric_fallback)
			goto out;
		names.pacc->numeric_ids = 1;
	}
	fn(&names, ctx);
out:
	pci_cleanup(names.pacc);
	return r;
}

static int lookup_flags(int how)
{
	/* Never ask DNS or udev: names come from pci.ids alone. */
	return PCI_LOOKUP_NO_HWDB | (how & PCI_NAMES_NUMBERS ? 0 : PCI_LOOKUP_NO_NUMBERS);
}

bool pci_names_device(struct pci_names *names, unsigned vendor, unsigned device, int how, char *buf,
		      size_t size)
{
	int flags = lookup_flags(how) | PCI_LOOKUP_DEVICE | (how & PCI_NAMES_VENDOR ? PCI_LOOKUP_VENDOR : 0);

	return pci_lookup_name(names->pacc, buf, (int)size, flags, (int)vendor, (int)device) != NULL;
}

bool pci_names_class(struct pci_names *names, unsigned class_code, int how, char *buf, size_t size)
{
	return pci_lookup_name(names->pacc, buf, (int)size, lookup_flags(how) | PCI_LOOKUP_CLASS,
			       (int)(class_code >> 8)) != NULL;
}
