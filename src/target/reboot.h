#ifndef BOOTAB_REBOOT_H
#define BOOTAB_REBOOT_H

#include <stdbool.h>

#include "target/target.h"

/*
 * Rebooting a target and proving a new boot answers: the boot_id
 * (/proc/sys/kernel/random/boot_id) before, the reboot, then polling about
 * every 2 s over fresh, bounded connections until a different boot_id
 * answers. Clocks are never compared: a box's RTC can be hours off.
 */

struct reboot_options {
	double timeout_s;           /* per wait; <= 0: 300 */
	int attempt_ms;             /* bound of one polling attempt; <= 0: 10000 */
	const char *power_cycle;    /* the user's command, run with sh -c on this machine on timeout */
	const char *oneshot_entry;  /* systemd-boot entry for the next boot only; NULL: none */
	bool kexec;                 /* kexec -e instead of a reboot (the kexec backend loaded the kernel) */
};

struct reboot_result {
	char *before;               /* boot_id before */
	char *after;                /* boot_id after; NULL when none answered */
	double seconds;             /* from the reboot command to the new boot_id */
	bool power_cycled;          /* the power-cycle command ran */
	char *error;                /* one line saying what failed; NULL on success */
};

/*
 * Asks the box's boot loader to boot ENTRY once, on the next boot only
 * (oneshot.sh: systemd-boot's LoaderEntryOneShot, or GRUB's next_entry).
 * On failure *ret_error says why (free()).
 */
int target_ask_oneshot(struct target *t, const char *entry, char **ret_error);

/*
 * Reboots t and waits. Returns 0 when a new boot answered (*ret filled),
 * -ETIMEDOUT when none did (even after the power cycle), other -errno when
 * the reboot could not be started; in every case *ret is filled as far as
 * it got (ret->error says why) and is released with reboot_result_release().
 */
int reboot_and_wait(struct target *t, const struct reboot_options *options,
		    struct reboot_result *ret);

void reboot_result_release(struct reboot_result *result);

#endif
