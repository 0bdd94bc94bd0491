/* bootab report: the report of a finished or partial campaign, written again. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "campaign/campaign.h"
#include "campaign/fleet.h"
#include "commands.h"
#include "lib/alloc.h"
#include "lib/escape.h"
#include "lib/file.h"
#include "lib/strlist.h"
#include "log.h"

static void say_line(void *ctx, enum campaign_level level, const char *line)
{
	log_campaign_line(ctx, (int)level, line);
}

const char cmd_report_usage[] =
	"usage: bootab report [--format txt|md|json|html|mail] [--stat [ROW=]STAT] CAMPAIGN_DIR\n"
	"       bootab report --fleet CAMPAIGN_DIR CAMPAIGN_DIR...\n"
	"\n"
	"Writes report.txt, report.md, report.json and report.html of a finished\n"
	"(or partial) campaign from its side directories again, and prints one of\n"
	"them. report.html is one self-contained page with a chart per metric;\n"
	"mail, printed and not written, is 72 columns of ASCII to paste into a\n"
	"mailing-list reply.\n"
	"The machine's calibration history judges it when there is one; nothing\n"
	"is recorded into it. Each report is replaced whole or not at all: on a\n"
	"full disk the old reports stay.\n"
	"\n"
	"With --fleet, the campaigns of two or more machines (one directory each,\n"
	"the same plan on every machine) are pooled, and the text is printed and\n"
	"not written: per metric and mode each machine's own estimate and verdict,\n"
	"the pooled effect with a CI whose df come from the number of machines,\n"
	"the spread between machines and whether the effect differs between them\n"
	"(docs/fleet.md).\n"
	"\n"
	"options:\n"
	"  --fleet              pool the campaigns of several machines\n"
	"  --format FMT         txt (default), md, json, html or mail\n"
	"  --stat [ROW=]STAT    compare every row (or ROW) by this statistic instead\n"
	"                       of the plan's: mean, median, min or max, or a list\n"
	"                       such as mean,min (each with its own delta and verdict)\n"
	"\n"
	"exit status: 0 written (--fleet: printed), 2 usage error, not a campaign\n"
	"directory, or a report could not be written\n";

int cmd_report(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "format", required_argument, NULL, 'f' },
		{ "stat", required_argument, NULL, 's' },
		{ "fleet", no_argument, NULL, 'F' },
		{ NULL, 0, NULL, 0 },
	};
	struct campaign_options o = { .say = say_line };
	struct strlist stats = STRLIST_INIT;
	struct campaign_report_request rq = { .stats = &stats };
	const char *format = "txt";
	char *name, *path, *data, *mail = NULL;
	size_t len;
	bool fleet = false;
	int c, r;

	optind = 1;
	while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		if (c == 'F') {
			fleet = true;
			continue;
		}
		if (c == 's') {
			strlist_add(&stats, optarg);
			continue;
		}
		if (c != 'f') {
			fputs(cmd_report_usage, stderr);
			strlist_release(&stats);
			return EXIT_USAGE;
		}
		format = optarg;
	}
	if (fleet) {
		if (argc - optind < 2 || stats.n || strcmp(format, "txt")) {
			fputs(cmd_report_usage, stderr);
			strlist_release(&stats);
			return EXIT_USAGE;
		}
		r = campaign_fleet_report((const char *const *)argv + optind, (size_t)(argc - optind), &o, stdout);
		strlist_release(&stats);
		return r < 0 ? EXIT_USAGE : EXIT_OK;
	}
	if (optind != argc - 1 || (strcmp(format, "txt") && strcmp(format, "md") && strcmp(format, "json") &&
				    strcmp(format, "html") && strcmp(format, "mail"))) {
		fputs(cmd_report_usage, stderr);
		strlist_release(&stats);
		return EXIT_USAGE;
	}
	rq.mail = !strcmp(format, "mail");
	r = campaign_report_request(argv[optind], &o, &rq, &mail);
	strlist_release(&stats);
	if (r < 0)
		return EXIT_USAGE;
	if (rq.mail) {
		if (!mail) {
			log_error("%s: fewer than two boots recorded, nothing to compare", argv[optind]);
			return EXIT_USAGE;
		}
		fputs(mail, stdout);
		free(mail);
		return EXIT_OK;
	}
	name = xasprintf("report.%s", format);
	path = path_join(argv[optind], name);
	r = file_read(path, FILE_READ_MAX, &data, &len);
	if (r < 0) {
		log_error("cannot read %s: %s", path, errno_string(r));
		free(path);
		free(name);
		return EXIT_USAGE;
	}
	/* Escaped when written; escaped again, in case the file was not (idempotent). */
	text_escape_write(stdout, data, len, 0, NULL);
	free(data);
	free(path);
	free(name);
	return EXIT_OK;
}
