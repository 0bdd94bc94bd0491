/* bootab reboot: reboot the target and wait until a different boot_id answers. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "commands.h"
#include "lib/alloc.h"
#include "lib/process.h"
#include "lib/parse-number.h"
#include "cli/log.h"
#include "target/reboot.h"
#include "cli/target-args.h"
#include "target/target.h"

static const char cmd_reboot_usage[] =
	"usage: bootab reboot [--target T] [--timeout S] [--power-cycle CMD] [--oneshot ENTRY]\n"
	"\n"
	"Reads the target's boot_id, reboots it (systemctl reboot, else reboot),\n"
	"and polls over SSH about every 2 s, each attempt bounded, until a\n"
	"different boot_id answers. Prints how long that took. Clocks are never\n"
	"compared: a box's RTC can be hours off.\n"
	"\n"
	"  --target T         an SSH destination, or lab (not local)\n"
	"  --timeout S        give up waiting after S seconds (default 300)\n"
	"  --connect-timeout S  ssh ConnectTimeout per attempt (default 5)\n"
	"  --power-cycle CMD  on timeout, run CMD on this machine with sh -c (your\n"
	"                     own command, from your plan: a PDU, ipmitool, a QEMU\n"
	"                     monitor) and wait again\n"
	"  --oneshot ENTRY    boot ENTRY for the next boot only; after a power cycle\n"
	"                     the box returns to its default entry. GRUB: a menu\n"
	"                     entry id, title or number, SUBMENU>ENTRY, or a BLS\n"
	"                     entry id where grub.cfg reads them (Fedora); set\n"
	"                     with grub-reboot or grub2-reboot (next_entry in\n"
	"                     grubenv). systemd-boot: a loader entry id (bootctl\n"
	"                     set-oneshot, else the LoaderEntryOneShot variable)\n"
	"\n"
	"Exit: 0 a new boot answered, 1 none did, 2 usage or I/O error.\n";

static void report_boot(struct target *t, const char *before, const char *after, double seconds,
			const char *how)
{
	char *cmdline = NULL;
	size_t len;

	printf("rebooted %s in %.1f s%s: boot_id %s -> %s\n", target_name(t), seconds, how,
	       before, after);
	if (target_read_file(t, "/proc/cmdline", 65536, false, &cmdline, &len) == 0) {
		/* Which config came up: the one-shot entry, or the standing one. */
		if (len && cmdline[len - 1] == '\n')
			cmdline[len - 1] = '\0';
		printf("cmdline: %s\n", cmdline);
		free(cmdline);
	} else {
		log_warning("%s, ignoring", target_error(t));
	}
}

static int cmd_reboot(int argc, char **argv)
{
	enum { OPT_POWER_CYCLE = 256, OPT_ONESHOT, OPT_TIMEOUT };
	static const struct option longopts[] = {
		TARGET_LONGOPT_TARGET,
		{ "timeout", required_argument, NULL, OPT_TIMEOUT },
		TARGET_LONGOPT_CONNECT_TIMEOUT,
		{ "power-cycle", required_argument, NULL, OPT_POWER_CYCLE },
		{ "oneshot", required_argument, NULL, OPT_ONESHOT },
		{ NULL, 0, NULL, 0 },
	};
	struct target_args to = TARGET_ARGS_INIT("reboot", NULL);
	const char *spec, *power_cycle = NULL, *oneshot = NULL;
	long timeout = 300, connect_timeout;
	struct target *t = NULL;
	struct reboot_options opts = { 0 };
	struct reboot_result result;
	int c, r, rc = EXIT_USAGE;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":", longopts, NULL)) != -1) {
		r = target_args_take(&to, c, optarg);
		if (r < 0)
			return EXIT_USAGE;
		if (r > 0)
			continue;
		switch (c) {
		case OPT_TIMEOUT:
			if (number_parse_long(optarg, 1, 86400, &timeout) < 0) {
				command_usage_error("reboot", "--timeout '%s': give whole seconds, 1 to 86400", optarg);
				return EXIT_USAGE;
			}
			break;
		case OPT_POWER_CYCLE:
			power_cycle = optarg;
			break;
		case OPT_ONESHOT:
			oneshot = optarg;
			break;
		default:
			return command_option_error("reboot", c, argv);
		}
	}
	if (optind != argc) {
		command_usage_error("reboot", "unexpected argument '%s'", argv[optind]);
		return EXIT_USAGE;
	}
	spec = to.spec;
	/* The default of target_open_default(), named: it also sets how long each attempt waits. */
	connect_timeout = to.connect_timeout_s ? to.connect_timeout_s : 5;
	to.connect_timeout_s = (int)connect_timeout;
	if (!spec) {
		command_usage_error("reboot", "--target is required: the box to reboot (an SSH destination, or lab)");
		return EXIT_USAGE;
	}
	if (!strcmp(spec, "local")) {
		log_error("bootab does not reboot the machine it runs on; give an SSH target");
		return EXIT_USAGE;
	}
	if (target_args_open(&to, &t) < 0)
		return EXIT_USAGE;
	opts.timeout_s = (double)timeout;
	opts.attempt_ms = (int)(connect_timeout + 5) * 1000;
	opts.power_cycle = power_cycle;
	opts.oneshot_entry = oneshot;
	log_info("rebooting %s%s%s; waiting for a new boot_id", spec, oneshot ? ", next boot only: " : "",
		 oneshot ? oneshot : "");
	r = reboot_and_wait(t, &opts, &result);
	if (result.power_cycled)
		log_warning("%s did not come back within %ld s: the power-cycle command ran", spec, timeout);
	if (r == 0) {
		report_boot(t, result.before, result.after, result.seconds,
			    result.power_cycled ? " (after a power cycle)" : "");
		rc = EXIT_OK;
	} else {
		log_error("%s: %s", spec, result.error ? result.error : errno_string(r));
		rc = r == -ETIMEDOUT ? EXIT_NOTHING : EXIT_USAGE;
	}
	reboot_result_release(&result);
	target_close(t);
	return rc;
}

const struct command cmd_reboot_entry = {
	.name = "reboot",
	.run = cmd_reboot,
	.summary = "reboot the target and wait for a new boot_id",
	.usage = cmd_reboot_usage,
};
