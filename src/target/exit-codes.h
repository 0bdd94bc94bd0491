#ifndef BOOTAB_TARGET_EXIT_CODES_H
#define BOOTAB_TARGET_EXIT_CODES_H

/*
 * The exit codes of the scripts bootab runs on a target (the .sh files of src/target),
 * one meaning each across every script. The scripts write them as numbers
 * (they run on boxes without bootab); target-scripts.bats checks that
 * every 'exit N' in them is a code of this table, and the C code that
 * reads an exit code uses these names.
 */
enum target_exit {
	TARGET_EXIT_OK = 0,
	TARGET_EXIT_NO = 1,             /* a yes/no question (io.sh exists, islink): no */
	TARGET_EXIT_USAGE = 2,          /* bad arguments, or ROOT cannot be resolved */
	TARGET_EXIT_NOT_FOUND = 3,      /* the path, directory, efivarfs or run does not exist */
	TARGET_EXIT_CANNOT_WRITE = 4,   /* a file or directory could not be written */
	TARGET_EXIT_OUTSIDE_ROOT = 5,   /* a symlink leads out of ROOT */
	TARGET_EXIT_NOT_REGULAR = 6,    /* read-file.sh: the path is not a regular file */
	TARGET_EXIT_STARTED = 7,        /* run-start.sh: this boot's run was already started */
	TARGET_EXIT_TOOL_FAILED = 8,    /* oneshot.sh: grub-reboot, grub-editenv or bootctl failed */
	TARGET_EXIT_NO_PROGRAM = 127,   /* a program needed (io.sh run, oneshot.sh) is not installed */
};

#endif
