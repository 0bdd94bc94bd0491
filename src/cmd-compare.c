#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"
#include "compare.h"
#include "lib/alloc.h"
#include "lib/strlist.h"
#include "log.h"
#include "report/compare-report.h"
#include "side.h"

const char cmd_compare_usage[] =
	"usage: bootab compare [OPTIONS] SIDE_DIR...\n"
	"\n"
	"Prints every side against the first. A side is a directory of one boot's\n"
	"results: bootab's own (meta.json) or plain benchmark output files, one file\n"
	"per row (llama-bench JSON/JSONL, fio JSON, hyperfine JSON, one number per\n"
	"line; NAME.rc holds a check row's exit code). Put the repeat of the first\n"
	"side last (A B C A2): its delta is the drift every other delta is judged by.\n"
	"\n"
	"options:\n"
	"  --stat [ROW=]STAT    mean (default), median, min or max; ROW= sets one row's\n"
	"  --by-run ROW         compare run i with run i (rows with a cold first run)\n"
	"  --loud PCT           spread above PCT % of the mean is too loud to judge (5)\n"
	"  --format FMT         txt (default), md, csv, json or html (one self-contained page)\n"
	"  --json               the same as --format json\n"
	"  --color WHEN         auto (default), always or never; NO_COLOR is honoured\n"
	"\n"
	"exit status: 0 compared, 1 nothing could be compared, 2 usage or I/O error\n";

int cmd_compare(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "stat", required_argument, NULL, 's' },
		{ "by-run", required_argument, NULL, 'b' },
		{ "loud", required_argument, NULL, 'l' },
		{ "format", required_argument, NULL, 'f' },
		{ "json", no_argument, NULL, 'j' },
		{ "color", required_argument, NULL, 'c' },
		{ NULL, 0, NULL, 0 },
	};
	struct strlist by_run = STRLIST_INIT, row_stats = STRLIST_INIT, warnings = STRLIST_INIT;
	struct compare_options copt = { .stat = STAT_MEAN, .loud_pct = COMPARE_LOUD_PCT_DEFAULT,
					.by_run = &by_run, .row_stats = &row_stats };
	struct report_options ropt = { .format = REPORT_TEXT };
	struct compare_result res;
	struct side *sides = NULL;
	size_t n_sides = 0;
	const char *color = "auto";
	bool io_error = false;
	int opt, r, ret = EXIT_USAGE;

	optind = 1;
	while ((opt = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		switch (opt) {
		case 's': {
			const char *eq = strchr(optarg, '=');
			enum stat_kind k;

			if (stat_kind_from_name(eq ? eq + 1 : optarg, &k) < 0 || eq == optarg) {
				log_error("--stat: '%s' is not mean, median, min or max (or ROW=STAT)", optarg);
				goto out;
			}
			if (eq)
				strlist_add(&row_stats, optarg);
			else
				copt.stat = k;
			break;
		}
		case 'b':
			strlist_add(&by_run, optarg);
			break;
		case 'l': {
			char *end;

			errno = 0;
			copt.loud_pct = strtod(optarg, &end);
			if (errno || end == optarg || *end || !(copt.loud_pct >= 0) || isinf(copt.loud_pct)) {
				log_error("--loud: '%s' is not a percentage", optarg);
				goto out;
			}
			break;
		}
		case 'f':
			if (report_format_from_name(optarg, &ropt.format) < 0) {
				log_error("--format: '%s' is not txt, md, csv, json or html", optarg);
				goto out;
			}
			break;
		case 'j':
			ropt.format = REPORT_JSON;
			break;
		case 'c':
			if (strcmp(optarg, "auto") && strcmp(optarg, "always") && strcmp(optarg, "never")) {
				log_error("--color: '%s' is not auto, always or never", optarg);
				goto out;
			}
			color = optarg;
			break;
		default:
			fputs(cmd_compare_usage, stderr);
			goto out;
		}
	}
	if (argc - optind < 2) {
		log_error("compare needs at least two side directories");
		fputs(cmd_compare_usage, stderr);
		goto out;
	}
	if (!strcmp(color, "always"))
		ropt.color = true;
	else if (!strcmp(color, "auto"))
		ropt.color = isatty(STDOUT_FILENO) && !getenv("NO_COLOR") && ropt.format == REPORT_TEXT;
	ropt.loud_pct = copt.loud_pct;
	ropt.warnings = &warnings;

	sides = xcalloc((size_t)(argc - optind), sizeof(*sides));
	for (int i = optind; i < argc; i++) {
		r = side_load(argv[i], &sides[n_sides], &warnings);
		if (r < 0) {
			log_error("cannot read side directory '%s': %s", argv[i], errno_string(r));
			io_error = true;
			continue;
		}
		n_sides++;
	}
	if (n_sides < 2) {
		for (size_t i = 0; i < warnings.n; i++)
			log_warning("%s", warnings.items[i]);
		log_error("fewer than two side directories could be read: nothing to compare");
		ret = io_error ? EXIT_USAGE : EXIT_NOTHING;
		goto out;
	}
	r = compare_sides(sides, n_sides, &copt, &res, &warnings);
	if (r < 0) {
		log_error("cannot compare: %s", errno_string(r));
		goto out;
	}
	if (ropt.format != REPORT_JSON)
		for (size_t i = 0; i < warnings.n; i++)
			log_warning("%s", warnings.items[i]);
	if (compare_result_compared(&res) == 0) {
		if (ropt.format == REPORT_JSON)
			report_compare(stdout, &res, &ropt);
		log_error("no metric is present on the first side and another: nothing could be compared");
		ret = io_error ? EXIT_USAGE : EXIT_NOTHING;
		compare_result_release(&res);
		goto out;
	}
	r = report_compare(stdout, &res, &ropt);
	compare_result_release(&res);
	if (r < 0) {
		log_error("failed to write the report: %s", errno_string(r));
		goto out;
	}
	ret = io_error ? EXIT_USAGE : EXIT_OK;
out:
	for (size_t i = 0; i < n_sides; i++)
		side_release(&sides[i]);
	free(sides);
	strlist_release(&by_run);
	strlist_release(&row_stats);
	strlist_release(&warnings);
	return ret;
}
