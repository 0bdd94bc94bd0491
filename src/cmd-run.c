/* bootab run: a whole campaign from one plan file, unattended and resumable. */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fleet/ansible-inventory.h"
#include "campaign/campaign.h"
#include "fleet/fleet-run.h"
#include "plan/plan.h"
#include "commands.h"
#include "lib/escape.h"
#include "lib/file.h"
#include "lib/strlist.h"
#include "cli/log.h"

static void say_line(void *ctx, enum campaign_level level, const char *line)
{
	log_campaign_line(ctx, (int)level, line);
}

static const char cmd_run_usage[] =
	"usage: bootab run [--data DIR] [--dry-run] [--root DIR] PLAN.ini\n"
	"       bootab run [--root DIR] --resume CAMPAIGN_DIR|FLEET_DIR\n"
	"\n"
	"Runs the campaign PLAN.ini describes (bootab-plan(5)): for every boot, sets\n"
	"the mode's kernel args (and its kernel, when the mode names one: a kernel\n"
	"the boot loader cannot boot stops the campaign before anything changes),\n"
	"reboots, proves from uname -r and sysfs that the boot is the one asked\n"
	"for, runs the rows behind the idle gate on the target, and fetches the\n"
	"results into DIR/<plan>-<time>/<label>/. At the end the standing config\n"
	"(the first mode) is back, report.txt, report.md, report.json and\n"
	"report.html are written, and report.txt is printed. Progress goes to\n"
	"stderr. The boots of the first mode then go into the machine's calibration\n"
	"history (meta.json machine_id; the plan's [campaign] history, or off).\n"
	"\n"
	"Every step is journalled: after the controller dies, the laptop sleeps or\n"
	"the network drops, --resume continues where it stopped, never repeats a\n"
	"finished boot and never mixes two boots' data. Ctrl-C stops at the next\n"
	"safe point and says how to resume.\n"
	"\n"
	"  --data DIR     where campaigns are written (default: the plan's data, else runs)\n"
	"  --dry-run      print every command and per-boot script; change nothing\n"
	"  --resume DIR   continue the campaign in DIR\n"
	"  --root DIR     target = local in a tree: every /proc, /sys, /boot and /etc\n"
	"                 path inside DIR (for tests and images; a tree cannot reboot)\n"
	"\n"
	"A plan that names a fleet ([campaign] targets, or an Ansible inventory)\n"
	"runs every box's campaign side by side, one process each (its own SSH\n"
	"control master, journal and lock), in DIR/<plan>-<time>/BOX/; each line of\n"
	"progress starts with its box. A box that fails or hangs stops no other;\n"
	"[campaign] box_timeout bounds every box. At the end the pooled report of\n"
	"the boxes that finished (bootab report --fleet) is written to the fleet\n"
	"directory's report.txt, report.md and report.json, and printed.\n"
	"--resume on the fleet directory continues every box that did not finish\n"
	"where it stopped. Boxes need root login or sudo -n (no password prompt).\n"
	"\n"
	"With target = local bootab runs on the box it reboots, as root: before each\n"
	"reboot it installs the systemd unit bootab-resume.service, which runs\n"
	"bootab run --resume after the boot (progress: journalctl -u bootab-resume);\n"
	"the unit is removed when the campaign ends or stops. Rows run as the user\n"
	"who started it with sudo unless the plan names one.\n"
	"\n"
	"With target = lava ([lava] in the plan) every boot is one job of a LAVA\n"
	"instance: bootab writes it (the mode's args on the kernel command line,\n"
	"its snapshot scripts and per-boot script as the test), submits it through\n"
	"LAVA's REST API with curl (the token on curl's stdin), journals its id,\n"
	"waits for it, and reads the snapshot and the rows' results back from the\n"
	"job's log into the usual side directory. A job that does not complete is\n"
	"a failed boot, with LAVA's reason; --resume waits for a job already\n"
	"submitted rather than submitting it again. --dry-run prints every job.\n"
	"\n"
	"exit status: 0 finished (every box of a fleet), 1 stopped (resumable),\n"
	"2 usage or plan error, or the data directory cannot be written (full,\n"
	"read-only; checked before every reboot, and nothing already recorded is\n"
	"lost)\n";

static volatile sig_atomic_t stop_requested;

static void on_signal(int sig)
{
	(void)sig;
	/* The first Ctrl-C stops at the next safe point; a second one ends bootab. */
	if (stop_requested)
		signal(SIGINT, SIG_DFL);
	stop_requested = 1;
}

/*
 * A tree (--root) cannot reboot. The local-target tests stand in for the
 * firmware, boot loader and kernel with the command in
 * BOOTAB_TEST_LOCAL_REBOOT (tests/cli/helpers/fake-boot.sh); nothing else
 * sets it.
 */
static int reboot_tree_by_test_command(void *ctx, struct process_result *ret)
{
	const char *argv[] = { "sh", "-c", ctx, NULL };
	struct process_options po = { .timeout_ms = 60000 };

	return process_run(argv, &po, ret);
}

/* The report is the result: it goes to stdout. */
static void print_report(const char *dir)
{
	char *path = path_join(dir, "report.txt"), *data;
	size_t len;

	if (file_read(path, FILE_READ_MAX, &data, &len) == 0) {
		/* Escaped when written; escaped again, in case the file was not (idempotent). */
		text_escape_write(stdout, data, len, 0, NULL);
		free(data);
	}
	/* The report first, whole, when stdout and stderr share a file. */
	fflush(stdout);
	log_info("report: %s (also report.md, report.json, report.html)", path);
	free(path);
}

static void say_box_line(void *ctx, const char *box, enum campaign_level level, const char *line)
{
	(void)ctx;
	if (!box)
		log_campaign_line(NULL, (int)level, line);
	else if (level == CAMPAIGN_ERROR)
		log_error("%s: %s", box, line);
	else if (level == CAMPAIGN_WARNING)
		log_warning("%s: %s", box, line);
	else
		log_info("%s: %s", box, line);
}

/* The trees of BOOTAB_TEST_FLEET_ROOTS, one a box, kept until bootab ends. */
static struct strlist test_fleet_roots;

/*
 * Tests only: with BOOTAB_TEST_FLEET_ROOTS=DIR, box NAME is target = local
 * in the tree DIR/NAME, each reboot played by BOOTAB_TEST_LOCAL_REBOOT
 * with the tree in $BOOTAB_TEST_ROOT (tests/cli/fleet-run.bats); nothing
 * else sets it.
 */
static void setup_test_box(void *ctx, const char *box, struct campaign_options *options, bool *ret_local)
{
	const char *roots = getenv("BOOTAB_TEST_FLEET_ROOTS"), *reboot = getenv("BOOTAB_TEST_LOCAL_REBOOT");
	char *root;

	(void)ctx;
	if (!roots || !*roots)
		return;
	root = path_join(roots, box);
	strlist_add(&test_fleet_roots, root);
	free(root);
	options->root = test_fleet_roots.items[test_fleet_roots.n - 1];
	setenv("BOOTAB_TEST_ROOT", options->root, 1);
	if (reboot && *reboot) {
		options->reboot_tree = reboot_tree_by_test_command;
		options->reboot_tree_ctx = (void *)reboot;
	}
	*ret_local = true;
}

static bool plan_names_fleet(const char *path)
{
	struct parse_error err = PARSE_ERROR_INIT;
	struct plan plan;
	bool fleet = false;

	if (plan_load(path, &plan, &err) == 0) {
		fleet = plan_is_fleet(&plan);
		plan_release(&plan);
	}
	parse_error_release(&err);
	return fleet;
}

static int run_fleet(struct campaign_options *o)
{
	struct fleet_run_options fo = {
		.plan_path = o->plan_path, .resume_dir = o->resume_dir, .data_dir = o->data_dir,
		.box_options = o, .box_setup = setup_test_box, .say = say_box_line,
	};
	struct fleet_run_result res;
	int r, rc;

	if (o->dry_run || o->root) {
		log_error("%s: a fleet runs on its targets: no %s (bootab plan lists its boxes)",
			  o->plan_path ? o->plan_path : o->resume_dir, o->dry_run ? "--dry-run" : "--root");
		return EXIT_USAGE;
	}
	/* Each box's own sudo password prompt would fight for one terminal: boxes need sudo -n or root. */
	o->ask_password = NULL;
	r = fleet_run(&fo, &res);
	if (res.report_path) {
		char *data;
		size_t len;

		if (file_read(res.report_path, FILE_READ_MAX, &data, &len) == 0) {
			text_escape_write(stdout, data, len, 0, NULL);
			free(data);
		}
		fflush(stdout);
		log_info("pooled report of %zu boxes: %s", res.n_finished, res.report_path);
	}
	if (r == 0) {
		log_info("fleet finished: %zu boxes, data in %s", res.n_boxes, res.dir);
		rc = EXIT_OK;
	} else if (r == -EAGAIN || r == -EINTR) {
		log_error("the fleet stopped with %zu of %zu boxes finished; continue the boxes that did not finish with: bootab run --resume %s",
			  res.n_finished, res.n_boxes, res.dir);
		rc = EXIT_NOTHING;
	} else {
		rc = r == -EINVAL || r == -EBUSY ? EXIT_USAGE : EXIT_NOTHING;
	}
	fleet_run_result_release(&res);
	strlist_release(&test_fleet_roots);
	return rc;
}

static int cmd_run(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "data", required_argument, NULL, 'd' },
		{ "dry-run", no_argument, NULL, 'n' },
		{ "resume", required_argument, NULL, 'r' },
		{ "root", required_argument, NULL, 'R' },
		{ NULL, 0, NULL, 0 },
	};
	struct campaign_options o = { .say = say_line, .interrupted = &stop_requested };
	struct campaign_result res;
	struct sigaction sa = { .sa_handler = on_signal };
	int c, r, rc;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":", longopts, NULL)) != -1) {
		switch (c) {
		case 'd':
			o.data_dir = optarg;
			break;
		case 'n':
			o.dry_run = true;
			break;
		case 'r':
			o.resume_dir = optarg;
			break;
		case 'R':
			o.root = optarg;
			break;
		default:
			return command_option_error("run", c, argv);
		}
	}
	if (o.resume_dir ? optind != argc : optind != argc - 1)
		return command_usage_error("run", o.resume_dir ? "--resume CAMPAIGN_DIR takes no other argument"
					   : optind == argc ? "no plan file given" : "one plan file only");
	if (o.resume_dir && (o.dry_run || o.data_dir)) {
		command_usage_error("run", "--resume takes no --dry-run or --data: the campaign directory has its plan");
		return EXIT_USAGE;
	}
	if (o.root && !path_is_dir(o.root)) {
		log_error("--root: '%s' is not a directory", o.root);
		return EXIT_USAGE;
	}
	if (o.resume_dir && !path_is_dir(o.resume_dir)) {
		log_error("--resume: '%s' is not a campaign directory", o.resume_dir);
		return EXIT_USAGE;
	}
	o.plan_path = o.resume_dir ? NULL : argv[optind];
	if (o.root && getenv("BOOTAB_TEST_LOCAL_REBOOT") && *getenv("BOOTAB_TEST_LOCAL_REBOOT")) {
		o.reboot_tree = reboot_tree_by_test_command;
		o.reboot_tree_ctx = getenv("BOOTAB_TEST_LOCAL_REBOOT");
	}
	/* Tests stop a campaign at a chosen journal step, as a crash would. */
	o.stop_after = getenv("BOOTAB_TEST_STOP_AFTER");
	o.target_shell = getenv("BOOTAB_TARGET_SH");
	o.ask_password = target_ask_password_tty;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);

	if (o.resume_dir ? fleet_dir_is(o.resume_dir) : plan_names_fleet(o.plan_path))
		return run_fleet(&o);
	r = campaign_run(&o, &res);
	if (r == 0) {
		if (!o.dry_run) {
			char *summary = campaign_result_summary(&res);

			log_info("%s", summary);
			free(summary);
			print_report(res.dir);
		}
		rc = EXIT_OK;
	} else if (res.rebooting) {
		log_info("the box is rebooting; bootab continues the campaign in %s after the boot", res.dir);
		rc = EXIT_OK;
	} else if (res.resumable) {
		log_error("the campaign stopped%s; continue it with: bootab run --resume %s",
			  r == -EINTR ? " as asked" : res.data_error ? " (make room in its data directory first)" : "",
			  res.dir);
		rc = res.data_error ? EXIT_USAGE : EXIT_NOTHING;
	} else {
		rc = r == -EINVAL || r == -ENOENT || r == -EBUSY || res.data_error ? EXIT_USAGE : EXIT_NOTHING;
	}
	campaign_result_release(&res);
	return rc;
}

const struct command cmd_run_entry = {
	.name = "run",
	.run = cmd_run,
	.summary = "run a whole campaign from a plan file (resumable)",
	.usage = cmd_run_usage,
};
