#ifndef BOOTAB_BOOT_GRUB_H
#define BOOTAB_BOOT_GRUB_H

#include <stdbool.h>
#include <stddef.h>

#include "boot/boot.h"
#include "lib/parse-error.h"

/*
 * Debian/Ubuntu GRUB: grub-mkconfig sources /etc/default/grub, then every
 * /etc/default/grub.d/NAME.cfg in glob order, and puts
 * "$GRUB_CMDLINE_LINUX $GRUB_CMDLINE_LINUX_DEFAULT" on the default entry of
 * every kernel (GRUB_CMDLINE_LINUX alone on recovery entries).
 *
 * bootab edits only simple assignments, one per line start:
 *   [export ]VAR="..." | VAR='...' | VAR=word   [# comment]
 * where a double-quoted value may begin with "$VAR " (the drop-in idiom
 * that appends to the value so far). Any other expansion ($x, `cmd`,
 * $(cmd)) makes the file one bootab will not edit.
 */

#define GRUB_CMDLINE "GRUB_CMDLINE_LINUX"
#define GRUB_CMDLINE_DEFAULT "GRUB_CMDLINE_LINUX_DEFAULT"

/* How many editable assignments of var the text has (0..), or -EINVAL with err. */
int grub_count_assignments(const char *text, const char *var, struct parse_error *err);

/*
 * Strips every managed arg from every GRUB_CMDLINE_LINUX and
 * GRUB_CMDLINE_LINUX_DEFAULT assignment, and appends args to the
 * GRUB_CMDLINE_LINUX assignment number append_at (0-based); append_at -1
 * appends nowhere, -2 adds a GRUB_CMDLINE_LINUX="ARGS" line at the end.
 * The value keeps its quoting style where the result allows (a value that
 * needs quotes gets double quotes); unchanged assignments keep every byte.
 * Returns 0 and *ret (the caller's), or -EINVAL with err (line, column).
 */
int grub_edit(const char *text, char *const *managed, char *const *args, int append_at,
	      char **ret, struct parse_error *err);

/*
 * The value var has after sourcing texts in order, as sh would compute it
 * for the supported assignments ("" when none). names label the texts in
 * errors. Returns 0 and *ret (the caller's), or -EINVAL with err.
 */
int grub_effective(const char *const *texts, const char *const *names, size_t n, const char *var,
		   char **ret, struct parse_error *err);

/*
 * The kernel args of every `linux` line inside a menuentry of a grub.cfg,
 * with the entry titles, in file order. ret_titles and ret_args are
 * NULL-terminated (strv_free()). ret_ids holds each entry's
 * $menuentry_id_option id, "" when none.
 */
int grub_cfg_entries(const char *text, char ***ret_titles, char ***ret_ids, char ***ret_args);

/*
 * Sets every simple assignment of var in text to value (quoted as the
 * value needs); with none and append set, adds VAR="value" at the end.
 * Returns 0 and *ret (the caller's), or -EINVAL with err.
 */
int grub_set_value(const char *text, const char *var, const char *value, bool append,
		   char **ret, struct parse_error *err);

/*
 * The kernels a grub.cfg boots, one per release, in menu order: the entry
 * of each kernel in the "Advanced options" submenu (entry
 * "SUBMENU-ID>ENTRY-ID"), the top-level entry only for a kernel with no
 * submenu entry; recovery entries left out. Image paths are absolute
 * (/boot/vmlinuz-RELEASE, also for a separate /boot). *ret: boot_kernels_release().
 */
int grub_cfg_kernels(const char *text, struct boot_kernels *ret);

/*
 * The release (else image) of the entry a GRUB default names: "N" or
 * "N>M" (positions), or ids or titles joined by '>'. NULL when it names
 * no entry with a linux line. The caller's.
 */
char *grub_cfg_default_kernel(const char *text, const char *spec);

/*
 * One-shot boots. Debian's grub.cfg (00_header) boots the entry named by
 * grubenv's next_entry once and clears it (save_env) before booting, and
 * its 41_custom part sources /boot/grub/custom.cfg at boot time. bootab's
 * one-shot entry is a menuentry with the id GRUB_ONESHOT_ID in that file,
 * made from a kernel's entry of grub.cfg with the mode's args; grub-reboot
 * GRUB_ONESHOT_ID names it for the next boot only. The file starts with
 * GRUB_ONESHOT_MARK: bootab never overwrites or removes a custom.cfg that
 * does not.
 */
#define GRUB_ONESHOT_ID "bootab-oneshot"
#define GRUB_ONESHOT_FILE "/boot/grub/custom.cfg"
#define GRUB_CUSTOM_CFG "custom.cfg"
#define GRUB_ONESHOT_MARK "# bootab one-shot entry: booted once by next_entry, then removed by bootab"

/*
 * The text of custom.cfg for entry (a menu path of grub.cfg, as
 * grub_cfg_kernels() gives it): that entry's lines, its first linux line's
 * args edited as cmdline_apply() does. *ret_args: the args it ends with.
 * Returns 0, or -ENOENT (no such entry) / -EINVAL with err.
 */
int grub_cfg_oneshot_text(const char *cfg, const char *entry, char *const *managed, char *const *args,
			  char **ret, char **ret_args, struct parse_error *err);

/* 1 when the box's GRUB can boot bootab's one-shot entry; 0 and *ret_why (the caller's) when not. */
int grub_oneshot_usable(struct boot_io *io, char **ret_why);

/*
 * Writes the one-shot entry for kernel (a release or /boot path; NULL: the
 * kernel GRUB boots by default) with args. *ret_entry: the grub.cfg entry
 * it was made from; *ret_args: its kernel args. 0 or -errno with err.
 */
int grub_oneshot_write(struct boot_io *io, const char *kernel, char *const *managed, char *const *args,
		       char **ret_entry, char **ret_args, struct parse_error *err);

/* Removes bootab's custom.cfg: 1 removed, 0 none there, -EEXIST one that is not bootab's, or -errno. */
int grub_oneshot_remove(struct boot_io *io);

#endif
