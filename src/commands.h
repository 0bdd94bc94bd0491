#ifndef BOOTAB_COMMANDS_H
#define BOOTAB_COMMANDS_H

/*
 * One subcommand, one file: src/cmd-NAME.c exports one struct command,
 * cmd_NAME_entry (its name, function, summary and usage text); main.c
 * keeps the table of them, sorted by name.
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

/* Each command file's one export. */
extern const struct command cmd_compare_entry;
extern const struct command cmd_iommu_map_entry;
extern const struct command cmd_lab_entry;
extern const struct command cmd_plan_entry;
extern const struct command cmd_reboot_entry;
extern const struct command cmd_report_entry;
extern const struct command cmd_run_entry;
extern const struct command cmd_set_entry;
extern const struct command cmd_snapshot_entry;
extern const struct command cmd_verify_entry;


/*
 * A usage error of the command called name: one line on stderr,
 * "bootab: MESSAGE; see 'bootab help NAME'". Returns EXIT_USAGE.
 */
int command_usage_error(const char *name, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/*
 * The usage error getopt_long() returned as c for argv ('?': an unknown
 * option, ':': an option without its value; the command's optstring
 * starts with ':' and opterr is 0), said by command_usage_error().
 * Returns EXIT_USAGE.
 */
int command_option_error(const char *name, int c, char *const *argv);

/* Exit codes shared by every command. */
enum {
	EXIT_OK = 0,
	EXIT_NOTHING = 1,     /* ran, but found nothing to report / a check failed */
	EXIT_USAGE = 2,       /* usage or I/O error */
};

#endif
