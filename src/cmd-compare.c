#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"
#include "judge/compare.h"
#include "judge/history.h"
#include "lib/alloc.h"
#include "lib/parse-number.h"
#include "lib/file.h"
#include "lib/strlist.h"
#include "lib/tty.h"
#include "log.h"
#include "report/compare-report.h"
#include "results/side.h"

static const char cmd_compare_usage[] =
	"usage: bootab compare [OPTIONS] SIDE_DIR...\n"
	"\n"
	"Prints every side against the first. A side is a directory of one boot's\n"
	"results: bootab's own (meta.json) or plain benchmark output files, one file\n"
	"per row (llama-bench JSON/JSONL, fio JSON, hyperfine JSON, the kernel's\n"
	"dma_map_benchmark, KTAP/KUnit results, a new,old table, one number per\n"
	"line; NAME.rc holds a check row's exit code). Put the repeat of the first\n"
	"side last (A B C A2): its delta is the drift every other delta is judged by.\n"
	"A side's label is its directory's name, or LABEL of --side LABEL=DIR (in\n"
	"the order given among the SIDE_DIRs). Its mode is --mode's, else its\n"
	"meta.json mode, else its label; a label is a repeat of another side's only\n"
	"when it is that label and digits (pt2, pt-3) or -again (v6.1-again): v6.1\n"
	"and v6.8 are two modes. Say the modes with --mode and nothing is inferred.\n"
	"\n"
	"options:\n"
	"  --side LABEL=DIR     a side directory with its own label (a/x b/x can be\n"
	"                       --side ax=a/x --side bx=b/x)\n"
	"  --mode LABEL=MODE    the side labelled LABEL is of mode MODE, whatever its\n"
	"                       label or meta.json says (repeatable; a directory name\n"
	"                       may hold ':' or '=', so there is no DIR:MODE form)\n"
	"  --stat [ROW=]STAT    mean (default), median, min or max; a list (mean,min)\n"
	"                       compares each, with its own delta and verdict, instead\n"
	"                       of the statistics the rows name (meta.json); ROW=STAT\n"
	"                       sets one row's statistic only (repeatable)\n"
	"  --by-run ROW         compare run i with run i (rows with a cold first run)\n"
	"  --loud PCT           spread above PCT % of the mean is too loud to judge (5)\n"
	"  --format FMT         txt (default), md, csv, json, html or mail; html is one\n"
	"                       self-contained page, mail 72 columns of ASCII to paste\n"
	"                       into a mailing-list reply\n"
	"  --json               the same as --format json\n"
	"  --color WHEN         auto (default), always or never; NO_COLOR is honoured\n"
	"  --alpha A            level of the boot-level tests (0.05): their CI is 1 - A\n"
	"  --fdr Q              Benjamini-Hochberg level over the report's tests (0.10)\n"
	"  --equivalence [ROW=]PCT  a mode is the same within the margin when its\n"
	"                       1 - 2 alpha CI lies inside -PCT to +PCT % (two one-sided\n"
	"                       tests), else undecided, with the boots that would decide\n"
	"                       it; ROW=PCT sets one row's margin only (repeatable)\n"
	"  --history FILE|DIR   the machine's calibration history (a directory holds\n"
	"                       MACHINE-ID.json); default: $XDG_DATA_HOME/bootab/history/\n"
	"                       when meta.json names the machine\n"
	"  --no-history         use no history\n"
	"  --record-history     add this campaign's boots of the first mode to the history\n"
	"  --legend             end txt and md with the long legend, every column explained\n"
	"  --ignore REGEX       do not report a cost found by bootab whose subject (the\n"
	"                       device, node, interface, kernel message or unit) matches\n"
	"                       this extended regular expression (repeatable)\n"
	"\n"
	"Every side of another mode is also compared with every boot of the first\n"
	"mode for what it broke: PCI devices that lost their driver, device nodes and\n"
	"network interfaces gone or down, kernel error and warning lines no boot of\n"
	"the first mode printed (and the reverse), failed units; these costs found by\n"
	"bootab are printed apart from failed check rows.\n"
	"\n"
	"Text fits 100 columns, or COLUMNS on a terminal.\n"
	"\n"
	"exit status: 0 compared, 1 nothing could be compared, 2 usage or I/O error\n";

static int parse_fraction(const char *s, double max, double *ret)
{
	double v;

	if (number_parse_double(s, 0, max, &v) < 0 || v == 0 || v == max)
		return -EINVAL;
	*ret = v;
	return 0;
}

/*
 * The history to judge with (and record into): --history FILE or
 * DIR/<machine-id>.json, else the default file of the sides' machine.
 * Returns 1 with *history and *ret_path, 0 when there is none, or -EINVAL
 * after logging why not.
 */
static int compare_history_open(const struct side *sides, size_t n, const char *arg, bool record,
				char **ret_path, struct history *history, struct strlist *warnings)
{
	char *error = NULL;
	int r = history_open(sides, n, arg, record, ret_path, history, &error, warnings);

	if (r >= 0)
		return r;
	if (arg && path_is_dir(arg))
		log_error("--history %s: %s", arg, error);
	else if (!arg)
		log_error("--record-history: %s%s", error,
			  history_sides_machine(sides, n, NULL) ? "" : "; give --history FILE");
	else
		log_error("%s", error);
	free(error);
	return r;
}

/* Adds this comparison's first-mode boots to the history file. */
static int compare_history_save(const struct compare_result *res, const char *path, struct history *history)
{
	size_t boots;
	int r = compare_history_record(res, history, path, &boots);

	if (r == -ENODATA) {
		log_warning("--record-history: no metric has two boots of %s, nothing recorded", res->sides[0].mode);
		return 0;
	}
	if (r < 0) {
		log_error("cannot write the history '%s': %s", path, errno_string(r));
		return r;
	}
	log_info("recorded %zu boots of %s in %s (%zu entries)", boots, res->sides[0].mode, path,
		 history->n_entries);
	return 0;
}

static int cmd_compare(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "stat", required_argument, NULL, 's' },
		{ "by-run", required_argument, NULL, 'b' },
		{ "loud", required_argument, NULL, 'l' },
		{ "format", required_argument, NULL, 'f' },
		{ "json", no_argument, NULL, 'j' },
		{ "color", required_argument, NULL, 'c' },
		{ "alpha", required_argument, NULL, 'a' },
		{ "fdr", required_argument, NULL, 'q' },
		{ "equivalence", required_argument, NULL, 'e' },
		{ "history", required_argument, NULL, 'H' },
		{ "no-history", no_argument, NULL, 'N' },
		{ "record-history", no_argument, NULL, 'R' },
		{ "ignore", required_argument, NULL, 'i' },
		{ "legend", no_argument, NULL, 'L' },
		{ "side", required_argument, NULL, 'S' },
		{ "mode", required_argument, NULL, 'M' },
		{ NULL, 0, NULL, 0 },
	};
	struct strlist by_run = STRLIST_INIT, row_stats = STRLIST_INIT, warnings = STRLIST_INIT;
	struct strlist ignore = STRLIST_INIT;
	struct strlist row_margins = STRLIST_INIT;
	/* The sides in the order given: dirs[i], with labels[i] ("" for the directory's name). */
	struct strlist dirs = STRLIST_INIT, labels = STRLIST_INIT, modes = STRLIST_INIT;
	struct compare_options copt = { .stat = STAT_MEAN, .loud_pct = COMPARE_LOUD_PCT_DEFAULT,
					.by_run = &by_run, .row_stats = &row_stats, .ignore = &ignore,
					.row_equivalence = &row_margins,
					.alpha = COMPARE_ALPHA_DEFAULT, .fdr_q = COMPARE_FDR_Q_DEFAULT,
					.boots_needed = true };
	enum stat_kind stats[STAT_KINDS];
	struct history history = HISTORY_INIT;
	const char *history_arg = NULL;
	char *history_path = NULL;
	bool no_history = false, record = false, have_history = false;
	struct report_options ropt = { .format = REPORT_TEXT };
	struct compare_result res;
	struct side *sides = NULL;
	size_t n_sides = 0;
	const char *color = "auto";
	bool io_error = false;
	int opt, r, ret = EXIT_USAGE;

	optind = 1;
	opterr = 0;
	/* "-": side directories come back in order among --side options; ":": usage errors are ours. */
	while ((opt = getopt_long(argc, argv, "-:", longopts, NULL)) != -1) {
		switch (opt) {
		case 1:
			strlist_add(&dirs, optarg);
			strlist_add(&labels, "");
			break;
		case 'S':
		case 'M': {
			const char *eq = strchr(optarg, '=');
			char *label = eq ? xstrndup(optarg, (size_t)(eq - optarg)) : NULL;
			bool ok = label && side_name_valid(label) && eq[1] && (opt == 'S' || side_name_valid(eq + 1));

			free(label);
			if (!ok) {
				command_usage_error("compare", "--%s: '%s' is not %s (LABEL: printable, at most 200 bytes)",
					  opt == 'S' ? "side" : "mode", optarg, opt == 'S' ? "LABEL=DIR" : "LABEL=MODE");
				goto out;
			}
			if (opt == 'M') {
				strlist_add(&modes, optarg);
				break;
			}
			strlist_add(&dirs, eq + 1);
			label = xstrndup(optarg, (size_t)(eq - optarg));
			strlist_add(&labels, label);
			free(label);
			break;
		}
		case 's': {
			const char *eq = strchr(optarg, '=');
			enum stat_kind row[STAT_KINDS];
			/* A ROW= list is checked here and kept as text: it must not replace the default list. */
			int k = stat_list_parse(eq ? eq + 1 : optarg, eq ? row : stats);

			if (k < 0 || eq == optarg) {
				command_usage_error("compare", "--stat: '%s' is not mean, median, min or max, a list of them such as mean,min, "
					  "or ROW=STAT", optarg);
				goto out;
			}
			if (eq) {
				strlist_add(&row_stats, optarg);
			} else {
				copt.stat = stats[0];
				copt.stats = stats;
				copt.n_stats = (size_t)k;
				copt.stat_given = true;
			}
			break;
		}
		case 'b':
			strlist_add(&by_run, optarg);
			break;
		case 'l':
			if (number_parse_double(optarg, 0, HUGE_VAL, &copt.loud_pct) < 0) {
				command_usage_error("compare", "--loud: '%s' is not a percentage", optarg);
				goto out;
			}
			break;
		case 'f':
			if (report_format_from_name(optarg, &ropt.format) < 0) {
				command_usage_error("compare", "--format: '%s' is not txt, md, csv, json, html or mail", optarg);
				goto out;
			}
			break;
		case 'j':
			ropt.format = REPORT_JSON;
			break;
		case 'a':
		case 'q': {
			double v;

			if (parse_fraction(optarg, opt == 'a' ? 0.5 : 1, &v) < 0) {
				command_usage_error("compare", "--%s: '%s' is not a level between 0 and %s", opt == 'a' ? "alpha" : "fdr",
					  optarg, opt == 'a' ? "0.5" : "1");
				goto out;
			}
			*(opt == 'a' ? &copt.alpha : &copt.fdr_q) = v;
			break;
		}
		case 'e': {
			const char *eq = strchr(optarg, '=');
			double v;

			if (eq == optarg || compare_parse_margin(eq ? eq + 1 : optarg, &v) < 0) {
				command_usage_error("compare", "--equivalence: '%s' is not a margin in %% above 0 and at most %g (or ROW=PCT)",
					  optarg, COMPARE_MARGIN_MAX);
				goto out;
			}
			if (eq)
				strlist_add(&row_margins, optarg);
			else
				copt.equivalence_pct = v;
			break;
		}
		case 'H':
			history_arg = optarg;
			break;
		case 'N':
			no_history = true;
			break;
		case 'R':
			record = true;
			break;
		case 'i': {
			char *error = NULL;

			if (costs_pattern_check(optarg, &error) < 0) {
				command_usage_error("compare", "--ignore: %s", error);
				free(error);
				goto out;
			}
			strlist_add(&ignore, optarg);
			break;
		}
		case 'L':
			ropt.legend_long = true;
			break;
		case 'c':
			if (strcmp(optarg, "auto") && strcmp(optarg, "always") && strcmp(optarg, "never")) {
				command_usage_error("compare", "--color: '%s' is not auto, always or never", optarg);
				goto out;
			}
			color = optarg;
			break;
		default:
			command_option_error("compare", opt, argv);
			goto out;
		}
	}
	for (int i = optind; i < argc; i++) {
		/* What follows "--" is side directories too. */
		strlist_add(&dirs, argv[i]);
		strlist_add(&labels, "");
	}
	if (dirs.n < 2) {
		command_usage_error("compare", "compare needs at least two side directories");
		goto out;
	}
	if (!strcmp(color, "always"))
		ropt.color = true;
	else if (!strcmp(color, "auto"))
		ropt.color = isatty(STDOUT_FILENO) && !getenv("NO_COLOR") && ropt.format == REPORT_TEXT;
	ropt.loud_pct = copt.loud_pct;
	/* 100 columns, or the terminal's (COLUMNS) when printing to one. */
	ropt.width = tty_columns(STDOUT_FILENO);
	ropt.warnings = &warnings;

	sides = xcalloc(dirs.n, sizeof(*sides));
	for (size_t i = 0; i < dirs.n; i++) {
		r = side_load(dirs.items[i], &sides[n_sides], &warnings);
		if (r < 0) {
			log_error("cannot read side directory '%s': %s", dirs.items[i], errno_string(r));
			io_error = true;
			continue;
		}
		if (*labels.items[i]) {
			free(sides[n_sides].label);
			sides[n_sides].label = xstrdup(labels.items[i]);
		}
		n_sides++;
	}
	{
		char *error = NULL;

		if (side_assign_modes(sides, n_sides, &modes, &warnings, &error) < 0) {
			command_usage_error("compare", "%s", error);
			free(error);
			goto out;
		}
	}
	side_infer_modes(sides, n_sides, &warnings);
	for (size_t i = 0; i < n_sides; i++)
		if (sides[i].unreadable_rows) {
			/* A report without a recorded row would look complete and be wrong. */
			for (size_t w = 0; w < warnings.n; w++)
				log_warning("%s", warnings.items[w]);
			log_error("%zu recorded row%s of '%s' cannot be read: no report without %s",
				  sides[i].unreadable_rows, sides[i].unreadable_rows == 1 ? "" : "s",
				  sides[i].dir, sides[i].unreadable_rows == 1 ? "it" : "them");
			goto out;
		}
	/* --by-run names a row: one that no side has is a typo, not a no-op. */
	for (size_t i = 0; i < by_run.n && n_sides >= 2; i++) {
		bool found = false;

		for (size_t k = 0; k < n_sides && !found; k++)
			found = side_find_row(&sides[k], by_run.items[i]) != NULL;
		if (!found) {
			command_usage_error("compare", "--by-run %s: no side has a row called '%s'", by_run.items[i], by_run.items[i]);
			goto out;
		}
	}
	if (n_sides < 2) {
		for (size_t i = 0; i < warnings.n; i++)
			log_warning("%s", warnings.items[i]);
		log_error("fewer than two side directories could be read: nothing to compare");
		ret = io_error ? EXIT_USAGE : EXIT_NOTHING;
		goto out;
	}
	if (no_history && (history_arg || record)) {
		command_usage_error("compare", "--no-history cannot go with --history or --record-history");
		goto out;
	}
	if (!no_history) {
		r = compare_history_open(sides, n_sides, history_arg, record, &history_path, &history, &warnings);
		if (r < 0)
			goto out;
		have_history = r > 0;
		copt.history = have_history ? &history : NULL;
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
	if (r < 0) {
		compare_result_release(&res);
		log_error("failed to write the report: %s", errno_string(r));
		goto out;
	}
	if (record && compare_history_save(&res, history_path, &history) < 0) {
		compare_result_release(&res);
		goto out;
	}
	compare_result_release(&res);
	ret = io_error ? EXIT_USAGE : EXIT_OK;
out:
	history_release(&history);
	free(history_path);
	for (size_t i = 0; i < n_sides; i++)
		side_release(&sides[i]);
	free(sides);
	strlist_release(&by_run);
	strlist_release(&row_stats);
	strlist_release(&ignore);
	strlist_release(&row_margins);
	strlist_release(&dirs);
	strlist_release(&labels);
	strlist_release(&modes);
	strlist_release(&warnings);
	return ret;
}

const struct command cmd_compare_entry = {
	.name = "compare",
	.run = cmd_compare,
	.summary = "compare benchmark results of several boots",
	.usage = cmd_compare_usage,
};
