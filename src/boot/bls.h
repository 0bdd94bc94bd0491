#ifndef BOOTAB_BOOT_BLS_H
#define BOOTAB_BOOT_BLS_H

#include <stdbool.h>
#include <stddef.h>

#include "boot/boot.h"
#include "lib/parse-error.h"

/*
 * Boot Loader Specification (UAPI.1) Type #1 entries: loader/entries/NAME.conf files,
 * one "key value" per line, '#' comments; `options` may appear more than
 * once and the lines are combined in order. Fedora adds id, grub_users,
 * grub_arg and grub_class; kernel-install writes machine-id and sort-key.
 * Only `options` values are edited; every other byte of the file is kept.
 */

/* The directories searched, in order. */
extern const char *const bls_entry_dirs[];

/*
 * Strips every arg named in managed from every `options` line, then adds
 * args before the first `--` (in the line holding it) or at the end of the
 * last `options` line; an entry without one gets "options ARGS" at the end.
 * *ret is the new file text (the caller's). Returns 0, or -EINVAL with err
 * (line, column) for a line that cannot be edited: an unterminated quote,
 * or `$kernelopts` (the args live in grubenv, not in the file).
 */
int bls_entry_edit(const char *text, char *const *managed, char *const *args, char **ret,
		   struct parse_error *err);

/* The combined `options` values of an entry, joined by one space; "" without any. */
char *bls_entry_options(const char *text);

/* The value of the first line with key (e.g. "title"), or NULL; the caller's. */
char *bls_entry_value(const char *text, const char *key);

/* One entry file as read. */
struct bls_entry {
	char *dir;             /* "/boot/loader/entries" */
	char *name;            /* "abc-6.1.0-18-amd64.conf" */
	char *path;
	char *text;
	size_t len;
};

struct bls_entries {
	struct bls_entry *entries;
	size_t n;
	size_t alloc;
};

/* Every *.conf in every existing bls_entry_dirs[], in directory then name order. */
int bls_entries_read(struct boot_io *io, struct bls_entries *ret, struct parse_error *err);
void bls_entries_release(struct bls_entries *entries);

/*
 * Which entry boots by default, as systemd-boot and Fedora's GRUB decide:
 * the LoaderEntryDefault EFI variable, else loader.conf `default` (a glob),
 * else GRUB's grubenv saved_entry (an entry id is its file name without
 * .conf), else the entry with the highest version in its file name.
 * Returns the index and *ret_rule (the caller's) saying which rule chose it;
 * -ENOENT when there are no entries.
 */
int bls_default_entry(struct boot_io *io, const struct bls_entries *entries, size_t *ret_index,
		      char **ret_rule);

/* The entry a one-shot boot is made from and booted through (LoaderEntryOneShot). */
#define BLS_ONESHOT_ENTRY "bootab-oneshot.conf"

/*
 * The kernel an entry boots: its release (the image's vmlinuz-RELEASE name,
 * else the `version` line, else kernel-install's /TOKEN/RELEASE/linux; NULL
 * when none says), and its image and initrd as absolute paths on the
 * target. -ENOENT for an entry without a `linux` line (outputs untouched).
 */
int bls_entry_kernel(struct boot_io *io, const struct bls_entry *entry, char **ret_release,
		     char **ret_image, char **ret_initrd);

/*
 * The kernels the entries boot (bootab's one-shot entry left out), then the
 * unified kernel images in EFI/Linux/ (release: the /lib/modules name their
 * file name ends in, as kernel-install names them). *ret: boot_kernels_release().
 */
int bls_kernels(struct boot_io *io, const struct bls_entries *entries, struct boot_kernels *ret,
		struct parse_error *err);

/*
 * Plans making entry id (a file name in loader/entries, or a UKI's) the
 * default: loader.conf's `default` line (replaced or added; the file is
 * created when neither it nor grubenv exists), or, without loader.conf,
 * Fedora GRUB's /boot/grub2/grubenv saved_entry (the id without .conf, the
 * block kept at its size). -EBUSY when the EFI variable LoaderEntryDefault
 * is set (it overrides both), -EINVAL for a grubenv that is not a block.
 */
int bls_plan_default(struct boot_io *io, const struct bls_entries *entries, const char *id,
		     struct boot_plan *plan, struct parse_error *err);

/* bls_kernels() of the entries read through io. */
int bls_list_kernels(struct boot_io *io, struct boot_kernels *ret, struct parse_error *err);

/* bls_plan_default() for kernel's entry; nothing for kernel NULL. */
int bls_plan_kernel_default(struct boot_io *io, const struct boot_kernel *kernel,
			    struct boot_plan *plan, struct parse_error *err);

/* Fills state->entries from entries (name, combined options) and the default. */
void bls_state_fill(struct boot_io *io, const struct bls_entries *entries, struct boot_state *state);

/*
 * /etc/kernel/cmdline, shared by the backends that maintain it: plans its
 * edit when it exists (or creates it from base when create is set and it
 * does not). Returns 1 when the file is (or will be) there, 0 when absent,
 * or -errno / -EINVAL with err.
 */
int kernel_cmdline_plan(struct boot_io *io, char *const *managed, char *const *args,
			const char *create_base, struct boot_plan *plan, struct parse_error *err);

/* Sets state's inherit fields from /etc/kernel/cmdline, /usr/lib/kernel/cmdline or /proc/cmdline. */
int kernel_cmdline_inherit(struct boot_io *io, struct boot_state *state, struct parse_error *err);

#endif
