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
#include "log.h"
#include "target.h"

const char cmd_reboot_usage[] =
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
	"  --oneshot ENTRY    systemd-boot: boot loader entry ENTRY for the next boot\n"
	"                     only (bootctl set-oneshot, else the LoaderEntryOneShot\n"
	"                     EFI variable); after a power cycle the box returns to\n"
	"                     its default entry\n"
	"\n"
	"Exit: 0 a new boot answered, 1 none did, 2 usage or I/O error.\n";

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void sleep_s(double s)
{
	struct timespec ts = { (time_t)s, (long)((s - (double)(time_t)s) * 1e9) };

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

/*
 * Polls until a boot_id other than before answers or timeout_s passes.
 * Each attempt is a fresh connection bounded as a whole: QEMU's port
 * forward, and some firewalls, accept TCP while the box is down.
 */
static int wait_new_boot(struct target *t, const char *before, double timeout_s,
			 int attempt_ms, char **ret_boot_id)
{
	double start = now_s();

	for (;;) {
		double attempt_start = now_s(), left;
		char *id = NULL;

		if (target_boot_id(t, true, attempt_ms, &id) == 0) {
			if (strcmp(id, before)) {
				*ret_boot_id = id;
				return 0;
			}
			free(id);
		}
		left = timeout_s - (now_s() - start);
		if (left <= 0)
			return -ETIMEDOUT;
		/* About every 2 s: a short attempt waits out the rest. */
		if (now_s() - attempt_start < 2.0)
			sleep_s(2.0 - (now_s() - attempt_start));
	}
}

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

int cmd_reboot(int argc, char **argv)
{
	enum { OPT_CONNECT_TIMEOUT = 256, OPT_POWER_CYCLE, OPT_ONESHOT, OPT_TIMEOUT };
	static const struct option longopts[] = {
		{ "target", required_argument, NULL, 't' },
		{ "timeout", required_argument, NULL, OPT_TIMEOUT },
		{ "connect-timeout", required_argument, NULL, OPT_CONNECT_TIMEOUT },
		{ "power-cycle", required_argument, NULL, OPT_POWER_CYCLE },
		{ "oneshot", required_argument, NULL, OPT_ONESHOT },
		{ NULL, 0, NULL, 0 },
	};
	const char *spec = NULL, *power_cycle = NULL, *oneshot = NULL;
	long timeout = 300, connect_timeout = 5;
	struct target *t = NULL;
	struct process_result res;
	char *error = NULL, *before = NULL, *after = NULL;
	double start;
	int c, r, rc = EXIT_USAGE;

	optind = 1;
	while ((c = getopt_long(argc, argv, "t:", longopts, NULL)) != -1) {
		char *end;

		switch (c) {
		case 't':
			spec = optarg;
			break;
		case OPT_TIMEOUT:
			timeout = strtol(optarg, &end, 10);
			if (*end || timeout < 1 || timeout > 86400) {
				log_error("--timeout '%s': give whole seconds, 1 to 86400", optarg);
				return EXIT_USAGE;
			}
			break;
		case OPT_CONNECT_TIMEOUT:
			connect_timeout = strtol(optarg, &end, 10);
			if (*end || connect_timeout < 1 || connect_timeout > 600) {
				log_error("--connect-timeout '%s': give whole seconds, 1 to 600", optarg);
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
			fputs(cmd_reboot_usage, stderr);
			return EXIT_USAGE;
		}
	}
	if (optind != argc) {
		log_error("unexpected argument '%s'", argv[optind]);
		return EXIT_USAGE;
	}
	if (!spec) {
		log_error("--target is required: the box to reboot (an SSH destination, or lab)");
		return EXIT_USAGE;
	}
	if (!strcmp(spec, "local")) {
		log_error("bootab does not reboot the machine it runs on; give an SSH target");
		return EXIT_USAGE;
	}
	r = target_open_default(spec, NULL, (int)connect_timeout, &t, &error);
	if (r < 0) {
		log_error("%s", error);
		free(error);
		return EXIT_USAGE;
	}
	r = target_boot_id(t, false, 30000, &before);
	if (r < 0) {
		log_error("%s", target_error(t));
		goto out;
	}
	r = target_probe_root(t);
	if (r < 0) {
		log_error("%s", target_error(t));
		goto out;
	}
	if (oneshot) {
		const char *args[] = { oneshot, NULL };

		r = target_run_script(t, "oneshot", args, NULL, 0, true, 60000, &res);
		if (r < 0) {
			log_error("%s", target_error(t));
			goto out;
		}
		if (res.exit_code != 0) {
			res.err[strcspn(res.err, "\n")] = '\0';
			log_error("one-shot boot of '%s' on %s failed: %s", oneshot, spec,
				  *res.err ? res.err : "no message");
			process_result_release(&res);
			goto out;
		}
		log_info("next boot only: %s", oneshot);
		process_result_release(&res);
	}
	start = now_s();
	r = target_run_script(t, "reboot", NULL, NULL, 0, true, 30000, &res);
	if (r == -EHOSTUNREACH || r == -ETIMEDOUT) {
		/* The connection may drop as the box goes down; the boot_id decides. */
		log_warning("%s; waiting for a new boot anyway", target_error(t));
	} else if (r < 0) {
		log_error("%s", target_error(t));
		goto out;
	} else {
		if (res.exit_code != 0) {
			res.err[strcspn(res.err, "\n")] = '\0';
			log_error("reboot on %s failed (exit %d): %s", spec, res.exit_code, res.err);
			process_result_release(&res);
			goto out;
		}
		process_result_release(&res);
	}
	/* The master's connection dies with the box. */
	target_drop_connection(t);
	log_info("waiting for %s to come back with a new boot_id (was %s)", spec, before);
	r = wait_new_boot(t, before, (double)timeout, (int)(connect_timeout + 5) * 1000, &after);
	if (r == 0) {
		report_boot(t, before, after, now_s() - start, "");
		rc = EXIT_OK;
		goto out;
	}
	if (!power_cycle) {
		log_error("%s did not come back within %ld s (boot_id still %s or no answer); no --power-cycle command given",
			  spec, timeout, before);
		rc = EXIT_NOTHING;
		goto out;
	}
	{
		/* The user's own command from their plan: it is theirs to quote. */
		const char *pc[] = { "sh", "-c", power_cycle, NULL };
		struct process_options po = { .timeout_ms = 120000, .inherit_stdout = true,
					      .inherit_stderr = true };

		log_warning("%s did not come back within %ld s: running the power-cycle command", spec,
			    timeout);
		r = process_run(pc, &po, &res);
		if (r < 0 || res.exit_code != 0) {
			log_error("power-cycle command failed (%s)",
				  r < 0 ? errno_string(r) : res.timed_out ? "timed out" : "non-zero exit");
			if (r == 0)
				process_result_release(&res);
			rc = EXIT_NOTHING;
			goto out;
		}
		process_result_release(&res);
	}
	r = wait_new_boot(t, before, (double)timeout, (int)(connect_timeout + 5) * 1000, &after);
	if (r < 0) {
		log_error("%s did not come back within %ld s after the power cycle", spec, timeout);
		rc = EXIT_NOTHING;
		goto out;
	}
	report_boot(t, before, after, now_s() - start, " (after a power cycle)");
	rc = EXIT_OK;
out:
	free(before);
	free(after);
	target_close(t);
	return rc;
}
