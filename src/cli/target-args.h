#ifndef BOOTAB_CLI_TARGET_ARGS_H
#define BOOTAB_CLI_TARGET_ARGS_H

#include <getopt.h>

struct target;

/*
 * The options every command that talks to a box shares, parsed and
 * checked in one place: --target T, --root DIR, --connect-timeout S.
 * A command lists the ones it takes in its getopt_long() table with the
 * TARGET_LONGOPT_* rows and hands each option to target_args_take().
 */
struct target_args {
	const char *spec;          /* --target: local, an SSH destination, or lab */
	const char *root;          /* --root: sysfs and procfs under DIR (local target) */
	int connect_timeout_s;     /* --connect-timeout: 1 to 600; 0 when not given */
	const char *command;       /* the command's name, for the hint of a usage error */
};

#define TARGET_ARGS_INIT(command, default_spec) { (default_spec), NULL, 0, (command) }

/* getopt_long() values; a command's own options stay below 0x1000. */
#define TARGET_OPT_TARGET 't'
#define TARGET_OPT_ROOT 'r'
#define TARGET_OPT_CONNECT_TIMEOUT 0x1000

#define TARGET_LONGOPT_TARGET { "target", required_argument, NULL, TARGET_OPT_TARGET }
#define TARGET_LONGOPT_ROOT { "root", required_argument, NULL, TARGET_OPT_ROOT }
#define TARGET_LONGOPT_CONNECT_TIMEOUT \
	{ "connect-timeout", required_argument, NULL, TARGET_OPT_CONNECT_TIMEOUT }

/*
 * Takes option c with its argument into o. Returns 1 when c is one of the
 * target options, 0 when it is not, -EINVAL when its value is bad (said
 * on stderr, naming the option and what it takes).
 */
int target_args_take(struct target_args *o, int c, const char *arg);

/*
 * target_open() as every command opens a box: scripts run by the program
 * $BOOTAB_TARGET_SH names (default sh; the tests run them under dash and
 * busybox), a sudo password asked on the terminal when stdin is one.
 */
int target_open_default(const char *spec, const char *root, int connect_timeout_s,
			struct target **ret_target, char **ret_error);

/* target_open_default() with o; says why on stderr when it fails. Returns 0 or -errno. */
int target_args_open(const struct target_args *o, struct target **ret);

#endif
