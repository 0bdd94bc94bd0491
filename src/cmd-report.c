/* bootab report: the report of a finished or partial campaign, written again. */
#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "campaign/campaign.h"
#include "fleet/fleet.h"
#include "campaign/output.h"
#include "commands.h"
#include "lib/alloc.h"
#include "lib/escape.h"
#include "lib/file.h"
#include "lib/strlist.h"
#include "lib/tty.h"
#include "cli/log.h"
#include "report/compare-report.h"

static void say_line(void *ctx, enum campaign_level level, const char *line)
{
	log_campaign_line(ctx, (int)level, line);
}

static const char cmd_report_usage[] =
	"usage: bootab report [--format txt|md|csv|json|html|mail] [--stat [ROW=]STAT]\n"
	"                     [--legend] [-o FILE] CAMPAIGN_DIR\n"
	"       bootab report --fleet CAMPAIGN_DIR CAMPAIGN_DIR...\n"
	"\n"
	"Writes report.txt, report.md, report.json and report.html of a finished\n"
	"(or partial) campaign from its side directories again, and prints one of\n"
	"them (report.html is not printed to a terminal: its path is said instead).\n"
	"report.html is one self-contained page with a forest plot of every\n"
	"boot-level result and a chart per metric; csv is one table, and mail is\n"
	"72 columns of ASCII to paste into a mailing-list reply: both are printed,\n"
	"not written. report.txt fits 100 columns; txt printed to a terminal fits\n"
	"its width (COLUMNS).\n"
	"With -o FILE, only FILE is written (- prints it) and the campaign\n"
	"directory is left as it is.\n"
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
	"  --fleet              pool the campaigns of several machines (txt, md or\n"
	"                       json)\n"
	"  --format FMT         txt (default), md, csv, json, html or mail; with -o\n"
	"                       and no --format, FILE's extension (.txt, .md, .csv,\n"
	"                       .json, .html) names it\n"
	"  --stat [ROW=]STAT    compare every row (or ROW) by this statistic instead\n"
	"                       of the plan's: mean, median, min or max, or a list\n"
	"                       such as mean,min (each with its own delta and verdict)\n"
	"  -o, --output FILE    write the one report to FILE (replaced whole; a device\n"
	"                       or FIFO written in place), nothing into CAMPAIGN_DIR\n"
	"                       (a campaign's files other than its report.FMT are\n"
	"                       refused); - writes it to stdout\n"
	"  --legend             the txt or md report printed (or written with -o) ends\n"
	"                       with the long legend, every column explained (the\n"
	"                       campaign's report files keep the short legend)\n"
	"\n"
	"exit status: 0 written (--fleet: printed), 2 usage error, not a campaign\n"
	"directory, or a report could not be written\n";

/* The format FILE's extension names, or NULL. */
static const char *format_of_path(const char *path)
{
	static const char *const known[] = { "txt", "md", "csv", "json", "html" };
	const char *dot = strrchr(path, '.');

	if (!dot || strchr(dot, '/'))
		return NULL;
	for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++)
		if (!strcmp(dot + 1, known[i]))
			return known[i];
	return NULL;
}

/* A usage error: one line, with where to read more; takes msg (the caller's). */
static int usage_error(struct strlist *stats, char *msg)
{
	command_usage_error("report", "%s", msg);
	free(msg);
	strlist_release(stats);
	return EXIT_USAGE;
}

/*
 * Writes text to path whole (temp file + rename), or in place to a device
 * or FIFO, or to stdout for "-".
 */
static int output_write(const char *path, const char *text)
{
	int r;

	if (!strcmp(path, "-")) {
		fputs(text, stdout);
		return fflush(stdout) == 0 && !ferror(stdout) ? 0 : -EIO;
	}
	r = file_write_output(path, text, strlen(text), 0644);
	if (r == -EISDIR)
		log_error("cannot write %s: a directory (name a file)", path);
	else if (r == -EINVAL)
		log_error("cannot write %s: not a file, character device or FIFO", path);
	else if (r < 0)
		log_error("cannot write %s: %s", path, errno_string(r));
	return r;
}

/*
 * -o FILE: never onto a campaign's own files (a side's meta.json, the
 * plan, the journal); in a campaign directory only its report file of
 * this format.
 */
static int output_outside_campaigns(const char *output, const char *dir, const char *format)
{
	bool written = !strcmp(format, "txt") || !strcmp(format, "md") || !strcmp(format, "json") ||
		       !strcmp(format, "html");
	char *own = written ? xasprintf("report.%s", format) : NULL, *campaign = NULL;
	const char *const allowed[] = { own, NULL };
	int r = campaign_output_check(output, false, dir, allowed, &campaign);

	if (r == -EPERM)
		log_error("-o %s: inside the campaign directory %s, where bootab writes only report.txt, report.md, report.json and report.html",
			  output, campaign);
	free(campaign);
	free(own);
	return r == -EPERM ? r : 0;
}

/*
 * A campaign directory bootab may not write (read-only, another user's):
 * the report is printed all the same, and the user told where -o goes.
 * Returns -EACCES (the files are not written) or the error of the print.
 */
static int print_unwritable(const char *dir, const struct campaign_options *o,
			    struct campaign_report_request *rq, enum report_format fmt)
{
	char *text = NULL;
	int r;

	rq->no_files = true;
	rq->text = true;
	rq->text_format = fmt;
	r = campaign_report_request(dir, o, rq, &text);
	if (r < 0 || !text)
		return r < 0 ? r : -EACCES;
	text_escape_write(stdout, text, strlen(text), 0, NULL);
	free(text);
	log_error("%s cannot be written: the report is printed, not saved (-o FILE saves it elsewhere)", dir);
	return -EACCES;
}

static int cmd_report(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "format", required_argument, NULL, 'f' },
		{ "stat", required_argument, NULL, 's' },
		{ "output", required_argument, NULL, 'o' },
		{ "fleet", no_argument, NULL, 'F' },
		{ "legend", no_argument, NULL, 'L' },
		{ NULL, 0, NULL, 0 },
	};
	struct campaign_options o = { .say = say_line };
	struct strlist stats = STRLIST_INIT;
	struct campaign_report_request rq = { .stats = &stats };
	const char *format = NULL, *output = NULL;
	enum report_format fmt;
	char *name, *path, *data, *text = NULL;
	size_t len;
	bool fleet = false;
	int c, r;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":o:", longopts, NULL)) != -1) {
		switch (c) {
		case 's':
			strlist_add(&stats, optarg);
			break;
		case 'f':
			format = optarg;
			break;
		case 'o':
			output = optarg;
			break;
		case 'F':
			fleet = true;
			break;
		case 'L':
			rq.legend_long = true;
			break;
		default:
			strlist_release(&stats);
			return command_option_error("report", c, argv);
		}
	}
	if (fleet) {
		struct fleet_report_out out = { 0 };

		if (argc - optind < 2)
			return usage_error(&stats, xstrdup("--fleet: the campaign directories of two or more machines"));
		if (!format || !strcmp(format, "txt"))
			out.txt = stdout;
		else if (!strcmp(format, "md"))
			out.md = stdout;
		else if (!strcmp(format, "json"))
			out.json = stdout;
		if (stats.n || output || rq.legend_long || !(out.txt || out.md || out.json))
			return usage_error(&stats, xstrdup("--fleet prints txt, md or json, with no --stat, --legend or -o"));
		r = campaign_fleet_report((const char *const *)argv + optind, NULL, (size_t)(argc - optind), &o, &out);
		strlist_release(&stats);
		return r < 0 ? EXIT_USAGE : EXIT_OK;
	}
	if (optind != argc - 1)
		return usage_error(&stats, xstrdup(optind >= argc ? "no campaign directory given"
								  : "one campaign directory only"));
	if (!format)
		format = output && format_of_path(output) ? format_of_path(output) : "txt";
	if (report_format_from_name(format, &fmt) < 0 || !strcmp(format, "text"))
		return usage_error(&stats, xasprintf("--format: '%s' is not txt, md, csv, json, html or mail", format));
	if (rq.legend_long && fmt != REPORT_TEXT && fmt != REPORT_MD)
		return usage_error(&stats, xasprintf("--legend: only txt and md have a legend, not %s", format));
	/* csv and mail are printed, never files of the campaign; -o writes only its file. The long legend is printed, not a file's. */
	rq.text = output || fmt == REPORT_CSV || fmt == REPORT_MAIL || rq.legend_long;
	/* A terminal gets the text at its width; report.txt keeps the 100 columns of a file. */
	if (!output && fmt == REPORT_TEXT) {
		rq.width = tty_columns(STDOUT_FILENO);
		rq.text = rq.text || rq.width;
	}
	rq.text_format = fmt;
	rq.no_files = output != NULL;
	if (output && strcmp(output, "-") && output_outside_campaigns(output, argv[optind], format) < 0) {
		strlist_release(&stats);
		return EXIT_USAGE;
	}
	r = campaign_report_request(argv[optind], &o, &rq, &text);
	if ((r == -EACCES || r == -EROFS || r == -EPERM) && !rq.text && fmt != REPORT_HTML)
		r = print_unwritable(argv[optind], &o, &rq, fmt);
	strlist_release(&stats);
	if (r < 0)
		return EXIT_USAGE;
	if (rq.text) {
		if (!text) {
			log_error("%s: fewer than two boots recorded, nothing to compare", argv[optind]);
			return EXIT_USAGE;
		}
		r = output ? output_write(output, text) : (fputs(text, stdout), 0);
		free(text);
		return r < 0 ? EXIT_USAGE : EXIT_OK;
	}
	name = xasprintf("report.%s", format);
	path = path_join(argv[optind], name);
	if (fmt == REPORT_HTML && isatty(STDOUT_FILENO)) {
		/* A page is for a browser: a terminal gets where it is. */
		log_info("wrote %s (open it in a browser; -o FILE writes it elsewhere)", path);
		free(path);
		free(name);
		return EXIT_OK;
	}
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

const struct command cmd_report_entry = {
	.name = "report",
	.run = cmd_report,
	.summary = "write the report of a campaign again",
	.usage = cmd_report_usage,
};
