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

#endif
