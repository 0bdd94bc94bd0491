#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "lib/file.h"
#include "lib/parse-number.h"
#include "log.h"
#include "lib/version.h"

static int cmd_help(int argc, char **argv);
static int cmd_version(int argc, char **argv);

static const char cmd_help_usage[] =
	"usage: bootab help [COMMAND]\n"
	"       bootab help --commands\n"
	"\n"
	"Without COMMAND, lists the commands. With one, prints its usage: the same\n"
	"text as its section in bootab(1). --commands prints the command names, one\n"
	"a line (for shell completion and the man page).\n";

static const char cmd_version_usage[] =
	"usage: bootab version\n"
	"       bootab --version\n"
	"\n"
	"Prints bootab's version.\n";

const struct command commands[] = {
	{ "compare", cmd_compare, "compare benchmark results of several boots", cmd_compare_usage },
	{ "run", cmd_run, "run a whole campaign from a plan file (resumable)", cmd_run_usage },
	{ "report", cmd_report, "write the report of a campaign again", cmd_report_usage },
	{ "plan", cmd_plan, "check a campaign plan and print what it will do", cmd_plan_usage },
	{ "iommu-map", cmd_iommu_map, "list devices by IOMMU group and type; diff two boots", cmd_iommu_map_usage },
	{ "snapshot", cmd_snapshot, "record what this boot is: meta.json and meta.txt", cmd_snapshot_usage },
	{ "verify", cmd_verify, "prove from sysfs that the boot is the one asked for", cmd_verify_usage },
	{ "reboot", cmd_reboot, "reboot the target and wait for a new boot_id", cmd_reboot_usage },
	{ "help", cmd_help, "show help for a command", cmd_help_usage },
	{ "lab", cmd_lab, "build, start, stop and reach the QEMU lab target", cmd_lab_usage },
	{ "set", cmd_set, "strip the managed kernel args from every boot entry, add a mode's", cmd_set_usage },
	{ "version", cmd_version, "print the version", cmd_version_usage },
	{ NULL, NULL, NULL, NULL },
};

const struct command *command_find(const char *name)
{
	/* Exact names only: a prefix never selects a command. */
	for (const struct command *c = commands; c->name; c++)
		if (!strcmp(c->name, name))
			return c;
	return NULL;
}

static void print_overview(FILE *out)
{
	fputs("usage: bootab COMMAND [ARGS...]\n\n"
	      "bootab measures changes that need a reboot (kernel command-line\n"
	      "parameters, kernels): boots A -> B -> C -> A2, proves each boot from\n"
	      "sysfs, and judges every delta against the measured boot-to-boot drift.\n\n"
	      "commands:\n", out);
	for (const struct command *c = commands; c->name; c++)
		fprintf(out, "  %-14s %s\n", c->name, c->summary);
	fputs("\nRun 'bootab help COMMAND' for a command's options.\n", out);
}

static int cmd_help(int argc, char **argv)
{
	const struct command *c;

	if (argc < 2) {
		print_overview(stdout);
		return EXIT_OK;
	}
	if (argc > 2) {
		fputs(cmd_help_usage, stderr);
		return EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--commands")) {
		for (c = commands; c->name; c++)
			puts(c->name);
		return EXIT_OK;
	}
	c = command_find(argv[1]);
	if (!c) {
		log_error("unknown command '%s'; 'bootab help' lists them", argv[1]);
		return EXIT_USAGE;
	}
	fputs(c->usage, stdout);
	return EXIT_OK;
}

static int cmd_version(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	printf("bootab %s\n", BOOTAB_VERSION);
	return EXIT_OK;
}

/*
 * The crash tests (tests/cli/lab-run.bats) slow every write of the bootab
 * they kill with BOOTAB_TEST_WRITE_DELAY_US, so that a SIGKILL lands
 * inside one.
 */
static void take_test_write_delay(void)
{
	const char *v = getenv("BOOTAB_TEST_WRITE_DELAY_US");
	long us;

	if (v && number_parse_long(v, 1, 10000000, &us) == 0)
		file_set_test_write_delay(us);
}

int main(int argc, char **argv)
{
	const struct command *c;
	int rc;

	take_test_write_delay();

	if (argc < 2) {
		print_overview(stderr);
		return EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		print_overview(stdout);
		return EXIT_OK;
	}
	if (!strcmp(argv[1], "--version"))
		return cmd_version(argc - 1, argv + 1);
	c = command_find(argv[1]);
	if (!c) {
		log_error("unknown command '%s'; 'bootab help' lists them", argv[1]);
		return EXIT_USAGE;
	}
	if (argc > 2 && (!strcmp(argv[2], "--help") || !strcmp(argv[2], "-h"))) {
		fputs(c->usage, stdout);
		return EXIT_OK;
	}
	rc = c->run(argc - 1, argv + 1);
	/* Results go to stdout: a full disk under them is an I/O error (said once). */
	errno = 0;
	if ((fflush(stdout) != 0 || ferror(stdout)) && rc != EXIT_USAGE) {
		log_error("cannot write the output: %s", strerror(errno ? errno : EIO));
		return EXIT_USAGE;
	}
	return rc;
}
