#ifndef BOOTAB_BOOT_IO_TARGET_H
#define BOOTAB_BOOT_IO_TARGET_H

#include "boot/boot.h"
#include "target/target.h"

/*
 * The bootloader backends' file and command access (struct boot_io) on a
 * target, through the embedded script io.sh run as root. t is borrowed and
 * must outlive the io. Free with boot_io_free().
 */
struct boot_io *boot_io_target_new(struct target *t);

#endif
