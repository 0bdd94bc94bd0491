/* bootab report: the report of a finished or partial campaign, written again. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "campaign/campaign.h"
#include "commands.h"
#include "lib/alloc.h"
#include "lib/escape.h"
#include "lib/file.h"
#include "log.h"

static void say_line(void *ctx, enum campaign_level level, const char *line)
{
	log_campaign_line(ctx, (int)level, line);
}

const char cmd_report_usage[] =
	"usage: bootab report [--format txt|md|json|html] CAMPAIGN_DIR\n"
	"\n"
	"Writes report.txt, report.md, report.json and report.html of a finished\n"
	"(or partial) campaign from its side directories again, and prints one of\n"
	"them. report.html is one self-contained page with a chart per metric.\n"
	"The machine's calibration history judges it when there is one; nothing\n"
	"is recorded into it. Each report is replaced whole or not at all: on a\n"
	"full disk the old reports stay.\n"
	"\n"
	"exit status: 0 written, 2 usage error, not a campaign directory, or a\n"
	"report could not be written\n";

int cmd_report(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "format", required_argument, NULL, 'f' },
		{ NULL, 0, NULL, 0 },
	};
	struct campaign_options o = { .say = say_line };
	const char *format = "txt";
	char *name, *path, *data;
	size_t len;
	int c, r;

	optind = 1;
	while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		if (c != 'f') {
			fputs(cmd_report_usage, stderr);
			return EXIT_USAGE;
		}
		format = optarg;
	}
	if (optind != argc - 1 || (strcmp(format, "txt") && strcmp(format, "md") && strcmp(format, "json") &&
				    strcmp(format, "html"))) {
		fputs(cmd_report_usage, stderr);
		return EXIT_USAGE;
	}
	r = campaign_report(argv[optind], &o);
	if (r < 0)
		return EXIT_USAGE;
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
