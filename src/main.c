#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdbool.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "lib/file.h"
#include "lib/parse-number.h"
#include "lib/strbuf.h"
#include "cli/log.h"
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
	"       bootab -V|--version\n"
	"\n"
	"Prints bootab's version.\n";

static const struct command help_entry = {
	.name = "help", .run = cmd_help, .summary = "show help for a command", .usage = cmd_help_usage,
};
static const struct command version_entry = {
	.name = "version", .run = cmd_version, .summary = "print the version", .usage = cmd_version_usage,
};

/* Sorted by name: command_find searches it by halves (basics.bats checks the order). */
static const struct command *const commands[] = {
	&cmd_compare_entry,
	&help_entry,
	&cmd_iommu_map_entry,
	&cmd_lab_entry,
	&cmd_plan_entry,
	&cmd_reboot_entry,
	&cmd_report_entry,
	&cmd_run_entry,
	&cmd_set_entry,
	&cmd_snapshot_entry,
	&cmd_verify_entry,
	&version_entry,
};
#define N_COMMANDS (sizeof(commands) / sizeof(commands[0]))

static int command_cmp(const void *key, const void *elem)
{
	const struct command *const *c = elem;

	return strcmp(key, (*c)->name);
}

/* main.c's table, sorted by name: the command called NAME, or NULL. */
static const struct command *command_find(const char *name)
{
	/* Exact names only: a prefix never selects a command. */
	const struct command *const *c = bsearch(name, commands, N_COMMANDS, sizeof(commands[0]), command_cmp);

	return c ? *c : NULL;
}

int command_usage_error(const char *name, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	log_error("%s; see 'bootab help %s'", strbuf_str(&sb), name);
	strbuf_release(&sb);
	return EXIT_USAGE;
}

int command_option_error(const char *name, int c, char *const *argv)
{
	/* The word getopt just passed; a long option's own, a short one's letter is optopt. */
	const char *word = optind > 0 ? argv[optind - 1] : "";
	bool is_long = !strncmp(word, "--", 2);

	if (c == ':')
		return is_long ? command_usage_error(name, "%s needs a value", word)
			       : command_usage_error(name, "-%c needs a value", optopt);
	if (is_long && strchr(word, '='))
		return command_usage_error(name, "'%s': unknown option, or one that takes no value", word);
	if (is_long || !optopt)
		return command_usage_error(name, "unknown option '%s'", word);
	return command_usage_error(name, "unknown option '-%c'", optopt);
}

static void print_overview(FILE *out)
{
	fputs("usage: bootab COMMAND [ARGS...]\n\n"
	      "bootab measures changes that need a reboot (kernel command-line\n"
	      "parameters, kernels): boots A -> B -> C -> A2, proves each boot from\n"
	      "sysfs, and judges every delta against the measured boot-to-boot drift.\n\n"
	      "commands:\n", out);
	for (size_t i = 0; i < N_COMMANDS; i++)
		fprintf(out, "  %-14s %s\n", commands[i]->name, commands[i]->summary);
	fputs("\nRun 'bootab help COMMAND' (or 'bootab COMMAND -h') for a command's options;\n"
	      "'bootab -V' prints the version.\n", out);
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
		for (size_t i = 0; i < N_COMMANDS; i++)
			puts(commands[i]->name);
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

/*
 * SIGTERM, SIGINT or SIGHUP in the middle of a file's replacement: its
 * temporary file goes, then the signal takes its default course. Commands
 * that stop at a safe point instead (run, lab) install their own.
 */
static void on_ending_signal(int sig)
{
	file_remove_pending_temp();
	signal(sig, SIG_DFL);
	raise(sig);
}

static void take_ending_signals(void)
{
	static const int sigs[] = { SIGTERM, SIGINT, SIGHUP };
	struct sigaction sa = { .sa_handler = on_ending_signal, .sa_flags = SA_RESTART }, old;

	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++) {
		/* A signal ignored by whoever started bootab stays ignored. */
		if (sigaction(sigs[i], NULL, &old) == 0 && old.sa_handler != SIG_IGN)
			sigaction(sigs[i], &sa, NULL);
	}
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
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V"))
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
	take_ending_signals();
	rc = c->run(argc - 1, argv + 1);
	/* Results go to stdout: a full disk under them is an I/O error (said once). */
	errno = 0;
	if ((fflush(stdout) != 0 || ferror(stdout)) && rc != EXIT_USAGE) {
		log_error("cannot write the output: %s", strerror(errno ? errno : EIO));
		return EXIT_USAGE;
	}
	return rc;
}
