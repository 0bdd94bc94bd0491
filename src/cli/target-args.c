#include "cli/target-args.h"

#include <errno.h>
#include <stdlib.h>

#include "commands.h"
#include "lib/parse-number.h"
#include "cli/log.h"
#include "target/target.h"

int target_args_take(struct target_args *o, int c, const char *arg)
{
	long v;

	switch (c) {
	case TARGET_OPT_TARGET:
		o->spec = arg;
		return 1;
	case TARGET_OPT_ROOT:
		o->root = arg;
		return 1;
	case TARGET_OPT_CONNECT_TIMEOUT:
		if (number_parse_long(arg, 1, 600, &v) < 0) {
			command_usage_error(o->command, "--connect-timeout '%s': give whole seconds, 1 to 600", arg);
			return -EINVAL;
		}
		o->connect_timeout_s = (int)v;
		return 1;
	default:
		return 0;
	}
}

int target_open_default(const char *spec, const char *root, int connect_timeout_s,
			struct target **ret_target, char **ret_error)
{
	struct target_options o = {
		.root = root,
		.connect_timeout_s = connect_timeout_s,
		.shell = getenv("BOOTAB_TARGET_SH"),
		.ask_password = target_ask_password_tty,
	};

	return target_open(spec, &o, ret_target, ret_error);
}

int target_args_open(const struct target_args *o, struct target **ret)
{
	char *error = NULL;
	int r = target_open_default(o->spec, o->root, o->connect_timeout_s, ret, &error);

	if (r < 0) {
		log_error("%s", error);
		free(error);
	}
	return r;
}
