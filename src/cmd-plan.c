#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "lib/file.h"
#include "log.h"
#include "plan.h"

const char cmd_plan_usage[] =
	"usage: bootab plan PLAN.ini\n"
	"\n"
	"Checks a campaign plan and prints what the campaign will do: the boot\n"
	"order, the managed args, the rows on every boot and an estimate of how long\n"
	"it takes. Every error names the file, line and key. bootab-plan(5)\n"
	"describes the file.\n"
	"\n"
	"exit status: 0 valid, 2 invalid or unreadable\n";

/* A reboot on a real box: firmware, bootloader, kernel, services. */
#define REBOOT_ESTIMATE_S 90

static void print_duration(unsigned long s)
{
	if (s >= 3600)
		printf("%luh%02lum", s / 3600, s % 3600 / 60);
	else if (s >= 60)
		printf("%lum%02lus", s / 60, s % 60);
	else
		printf("%lus", s);
}

int cmd_plan(int argc, char **argv)
{
	struct parse_error err = PARSE_ERROR_INIT;
	struct plan plan;
	struct plan_boot *boots;
	unsigned long gates = 0, gate_s, row_bound = 0;
	size_t n, n_checks = 0;
	char **managed;

	if (argc != 2 || argv[1][0] == '-') {
		fputs(cmd_plan_usage, stderr);
		return EXIT_USAGE;
	}
	if (plan_load(argv[1], &plan, &err) < 0) {
		char *msg = parse_error_format(&err);

		log_error("%s", msg);
		free(msg);
		parse_error_release(&err);
		return EXIT_USAGE;
	}
	parse_error_release(&err);

	for (size_t i = 0; i < plan.n_rows; i++) {
		n_checks += plan.rows[i].check;
		row_bound += (unsigned long)plan.rows[i].timeout_s * plan.rows[i].reps;
	}
	printf("plan %s: modes %zu, rows %zu, checks %zu, versions %zu\n", argv[1], plan.n_modes,
	       plan.n_rows - n_checks, n_checks, plan.n_versions);
	printf("target: %s\nbackend: %s\noneshot: %s\n", plan.target ? plan.target : "(not set)",
	       plan.backend,
	       plan.oneshot == ONESHOT_ON ? "on" : plan.oneshot == ONESHOT_OFF ? "off" : "auto");
	if (plan.watch)
		printf("watch: %s\n", plan.watch);
	managed = plan_managed_args(&plan);
	printf("managed args:");
	for (char **a = managed; *a; a++)
		printf(" %s", *a);
	printf("%s\n", managed[0] ? "" : " (none)");
	strv_free(managed);

	n = plan_boots(&plan, &boots);
	printf("\nboot order (%zu boots):\n", n);
	for (size_t i = 0; i < n; i++) {
		const struct plan_mode *m = &plan.modes[boots[i].mode];

		printf("  %2zu  %-16s %s\n", i + 1, boots[i].label,
		       *m->args_text ? m->args_text : "(the standing kernel defaults)");
		for (size_t e = 0; e < m->expects.n; e++)
			printf("      %-16s expect %s\n", "", m->expects.items[e]);
	}

	printf("\non every boot:\n");
	for (size_t i = 0; i < plan.n_versions; i++)
		printf("  version %-14s %s\n", plan.versions[i].name, plan.versions[i].command);
	for (size_t i = 0; i < plan.park.n; i++)
		printf("  park (first boot)      %s\n", plan.park.items[i]);
	for (size_t i = 0; i < plan.n_rows; i++) {
		const struct plan_row *r = &plan.rows[i];

		printf("  %-5s %-16s %s\n", r->check ? "check" : "row", r->name, r->command);
		if (!r->check)
			printf("        %-16s %u reps, parser %s%s%s, %s%s, timeout %us\n", "", r->reps,
			       parser_kind_name(r->parser), r->selector ? " " : "",
			       r->selector ? r->selector : "",
			       stat_kind_name(r->has_stat ? r->stat : STAT_MEAN),
			       r->by_run ? ", run by run" : "", r->timeout_s);
		gates++;
	}
	for (size_t i = 0; i < plan.unpark.n; i++)
		printf("  unpark (last boot)     %s\n", plan.unpark.items[i]);

	gate_s = (unsigned long)plan.idle.checks * plan.idle.interval_s;
	printf("\nestimated duration: at least ");
	print_duration(n * (REBOOT_ESTIMATE_S + gates * gate_s));
	printf(" (%zu reboots at about %ds, %lu idle gates of at least %lus each)\n", n,
	       REBOOT_ESTIMATE_S, n * gates, gate_s);
	printf("  plus the rows' own time, at most ");
	print_duration(n * row_bound);
	printf(" by their timeouts\n");
	plan_boots_free(boots, n);
	plan_release(&plan);
	return EXIT_OK;
}
