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

/*
 * The dump a target io reads the boot loader's files from, as a job to
 * run beside other scripts (target_run_scripts(), a snapshot's beside),
 * and its answer taken into io: what io is asked next is answered from
 * it, as from a dump io ran itself. An answer without output (the job
 * did not run) leaves io to dump when it is first asked.
 */
void boot_io_target_dump_job(struct target_job *job);
void boot_io_target_dump_take(struct boot_io *io, const struct process_result *res);

#endif
