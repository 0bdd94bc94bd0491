#ifndef BOOTAB_PARAM_VALUES_H
#define BOOTAB_PARAM_VALUES_H

#include <stddef.h>

/*
 * The values the kernel takes for the parameters bootab proves and the
 * common ones beside them, known before the first reboot: one table
 * (src/kernel/param-values.c, listed in docs/proof.md), each entry citing
 * Documentation/admin-guide/kernel-parameters.txt and the function that
 * parses it. The table holds what any kernel from 6.1 on takes: a value
 * only a newer kernel knows passes here, and the boot's own log tells
 * whether the kernel that booted took it (kernel/refusal.h).
 */

/*
 * Checks the value of one kernel arg ("amd_iommu=pt", "nosmt") against
 * the table; names compare as the kernel does ('-' equals '_'). Returns
 * 0 when the value is one the kernel takes or the table does not know the
 * name, -EINVAL with *ret_reason (the caller's) naming the parameter and
 * what it takes: "amd_iommu: the kernel does not take 'pt': it takes a
 * comma-separated list of ... (kernel-parameters.txt ...)".
 */
int param_value_check(const char *arg, char **ret_reason);

/*
 * param_value_check() over a NULL-terminated list: the first refused arg's
 * reason, or 0. args may be NULL.
 */
int param_values_check(char *const *args, char **ret_reason);

/* kstrtobool(): 1 for y/Y/t/T/1/on, 0 for n/N/f/F/0/off (by the first one or two bytes), -1 for anything else. */
int param_kstrtobool(const char *s);

#endif
