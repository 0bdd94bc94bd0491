#ifndef BOOTAB_COMMANDS_H
#define BOOTAB_COMMANDS_H

/*
 * One subcommand, one file: src/cmd-NAME.c defines cmd_NAME() and its
 * usage text; main.c has one row per command in its table.
 * Each returns the process exit code.
 *
 * The usage text is the command's only documentation source: 'bootab help
 * NAME' and '--help' print it, and tools/gen-man.sh turns it into the
 * command's section of bootab(1) (build/man/bootab.1). Its layout, so that
 * both read well:
 *   - first the synopsis: "usage: bootab NAME ..." and any further forms or
 *     wrapped lines indented by 7 spaces, up to the first blank line;
 *   - prose lines start in column 0; consecutive ones form one paragraph;
 *   - a list item is two spaces, a term (an option with its argument, a
 *     subcommand, a variable), two or more spaces, its description;
 *     lines indented by three or more spaces continue the item above;
 *   - a blank line separates paragraphs and lists;
 *   - an option that takes one of a fixed set of values lists them first in
 *     its description, "txt (default), md, csv or json", or in the synopsis,
 *     "[--format txt|md|json]": bash completion offers them.
 * Describe only what the command does now.
 */
struct command {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *summary;
	const char *usage;
};

/* The table, terminated by a row with name NULL. */
extern const struct command commands[];
const struct command *command_find(const char *name);

int cmd_lab(int argc, char **argv);
extern const char cmd_lab_usage[];

int cmd_set(int argc, char **argv);
extern const char cmd_set_usage[];
int cmd_iommu_map(int argc, char **argv);
extern const char cmd_iommu_map_usage[];
int cmd_snapshot(int argc, char **argv);
extern const char cmd_snapshot_usage[];
int cmd_verify(int argc, char **argv);
extern const char cmd_verify_usage[];
int cmd_reboot(int argc, char **argv);
extern const char cmd_reboot_usage[];

/* Exit codes shared by every command. */
enum {
	EXIT_OK = 0,
	EXIT_NOTHING = 1,     /* ran, but found nothing to report / a check failed */
	EXIT_USAGE = 2,       /* usage or I/O error */
};


int cmd_compare(int argc, char **argv);
extern const char cmd_compare_usage[];

int cmd_plan(int argc, char **argv);
extern const char cmd_plan_usage[];

int cmd_run(int argc, char **argv);
extern const char cmd_run_usage[];
int cmd_report(int argc, char **argv);
extern const char cmd_report_usage[];

#endif
