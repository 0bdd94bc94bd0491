#ifndef BOOTAB_BOOT_GRUBBY_H
#define BOOTAB_BOOT_GRUBBY_H

#include "boot/boot.h"

/*
 * One-shot boots on a grubby box (Fedora, RHEL: GRUB with its blscfg
 * command reading /boot/loader/entries). blscfg makes each entry file a
 * menu entry whose id is the file name without .conf, so bootab's one-shot
 * entry (BLS_ONESHOT_ENTRY, made from a kernel's entry with the mode's
 * args) is the menu entry GRUBBY_ONESHOT_ID. grub2-reboot writes
 * next_entry=ID into /boot/grub2/grubenv; the next_entry part of grub.cfg
 * (grub-mkconfig's 00_header) boots that entry once and clears the
 * variable with save_env before it boots, so the boot after it, or a power
 * cycle of a boot that hung, comes back on saved_entry.
 */
#define GRUBBY_ONESHOT_ID "bootab-oneshot"
#define GRUB2_ENV "/boot/grub2/grubenv"

/*
 * 1 when the box can boot an entry once this way: grub2-reboot installed,
 * GRUB2_ENV there, and a grub.cfg that runs blscfg and honours next_entry.
 * 0 and *ret_why (the caller's) when not; never -errno.
 */
int grubby_oneshot_usable(struct boot_io *io, char **ret_why);

/*
 * Runs `grub2-reboot id` on the box and reads GRUB2_ENV back: 0 when it
 * holds next_entry=id, -EIO with err when grub2-reboot failed or left the
 * block without it (a grubenv GRUB cannot write, on LVM or MD RAID, makes
 * grub2-reboot refuse), -EPERM / -ENOENT when it cannot run.
 */
int grubby_oneshot_next(struct boot_io *io, const char *id, struct parse_error *err);

/*
 * Unsets next_entry (grub2-editenv) when it still names id: a one-shot
 * reboot that never happened must not boot the entry later. 1 cleared, 0
 * nothing to clear, -errno.
 */
int grubby_oneshot_clear(struct boot_io *io, const char *id);

#endif
