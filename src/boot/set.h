#ifndef BOOTAB_BOOT_SET_H
#define BOOTAB_BOOT_SET_H

#include <stdbool.h>

#include "boot/boot.h"
#include "lib/parse-error.h"

/*
 * The toggle as one call: strip every managed arg from every boot entry,
 * add the mode's args, read back what the boot loader will use, and check
 * it before anything reboots.
 */

/*
 * The problems with a read-back state: entries (and what the next kernel
 * install inherits) that lack an asked arg or carry another managed one,
 * and entries whose unmanaged args changed since before (when given).
 * Returns a NULL-terminated list of one-line problems (strv_free()),
 * empty when all is well.
 */
char **boot_set_check(const struct boot_state *before, const struct boot_state *after,
		      char *const *managed, char *const *asked, const struct boot_kernel *kernel);

struct boot_set_result {
	const struct boot_backend *backend;
	char *found;                 /* what auto-detection found; NULL when named */
	struct boot_plan plan;       /* what was (or, dry run, would be) done */
	struct boot_state after;     /* read back after the change */
	struct boot_kernel kernel;   /* the kernel asked for, as the backend lists it; zero: none */
	char **problems;             /* boot_set_check()'s; NULL-terminated */
};

/*
 * Sets the mode's args through io with backend (NULL or "auto": detect).
 * managed must include args' names. Returns 0 with *ret filled (check
 * ret->problems before rebooting), or -errno with err saying why: -ENODEV
 * no backend fits, -EINVAL unknown backend or a plan error; a failed
 * execution has been rolled back. Release *ret with boot_set_result_release().
 */
int boot_set(struct boot_io *io, const char *backend, char *const *managed, char *const *args,
	     struct boot_set_result *ret, struct parse_error *err);

/*
 * boot_set() that also makes the kernel spec names (a release or a /boot
 * path; NULL: leave the default kernel) the one the next boot runs. A spec
 * the backend does not list fails with -ENOENT, err naming the kernels it
 * lists, before anything changed. ret->kernel is the kernel chosen.
 */
int boot_set_kernel(struct boot_io *io, const char *backend, char *const *managed,
		    char *const *args, const char *kernel, struct boot_set_result *ret,
		    struct parse_error *err);

/*
 * The backend called name (NULL or "auto": detected through io). 0 with
 * *ret (and *ret_found when detected, the caller's, else NULL), or -errno
 * with err as boot_set() says.
 */
int boot_backend_resolve(struct boot_io *io, const char *name, const struct boot_backend **ret,
			 char **ret_found, struct parse_error *err);

void boot_set_result_release(struct boot_set_result *result);

#endif
