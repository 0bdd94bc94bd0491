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
#include "lib/strbuf.h"
#include "lib/file.h"
#include "lib/strlist.h"
#include "lib/tty.h"
#include "cli/log.h"
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
	"and v6.8 are two modes, and a numbered series (run1 ... run12) is a series\n"
	"of modes. Say the modes with --mode and nothing is inferred.\n"
	"\n"
	"options:\n"
	"  --side LABEL=DIR     a side directory with its own label (a/x b/x can be\n"
	"                       --side ax=a/x --side bx=b/x)\n"
	"  --baseline LABEL     compare every side with the side labelled LABEL (its\n"
	"                       mode is the first mode), whatever the order given\n"
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
	"  --fdr Q              Benjamini-Hochberg level over the report's tests (0.05)\n"
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
	"The report opens with the answer, a line per mode against the first side's\n"
	"mode. A claim there (\"+4.1 % [+3.0, +5.2] faster (boot t, 3 + 4 boots)\",\n"
	"\"12.0x slower [11.4x, 12.7x]\" past 2x) comes only from a test whose\n"
	"false-claim rate is known: the t-test on boot means (two or more boots of\n"
	"both modes) or on the machine's history; its CI excludes 0 and it survives\n"
	"the Benjamini-Hochberg correction over the report's tests (a claim that does\n"
	"not is said so). \"not tested\": one boot of a mode and no history, so no\n"
	"test could run; the line says what would test it. The screen column (the\n"
	"seed rule: each boot's delta next to twice the drift) is no verdict.\n"
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

/* What compare's options say, and the lists the comparison reads them from. */
struct compare_args {
	struct strlist by_run, row_stats, ignore, row_margins, modes;
	/* The sides in the order given: dirs[i], with labels[i] ("" for the directory's name). */
	struct strlist dirs, labels;
	enum stat_kind stats[STAT_KINDS];
	struct compare_options copt;
	struct report_options ropt;
	const char *history_arg;
	const char *baseline;   /* --baseline LABEL, or NULL */
	bool no_history, record;
	const char *color;
};

static void compare_args_init(struct compare_args *a)
{
	*a = (struct compare_args){ .by_run = STRLIST_INIT, .row_stats = STRLIST_INIT, .ignore = STRLIST_INIT,
				    .row_margins = STRLIST_INIT, .modes = STRLIST_INIT, .dirs = STRLIST_INIT,
				    .labels = STRLIST_INIT, .ropt = { .format = REPORT_TEXT }, .color = "auto" };
	a->copt = (struct compare_options){ .stat = STAT_MEAN, .loud_pct = COMPARE_LOUD_PCT_DEFAULT,
					    .by_run = &a->by_run, .row_stats = &a->row_stats, .ignore = &a->ignore,
					    .row_equivalence = &a->row_margins,
					    .alpha = COMPARE_ALPHA_DEFAULT, .fdr_q = COMPARE_FDR_Q_DEFAULT,
					    .boots_needed = true };
}

static void compare_args_release(struct compare_args *a)
{
	strlist_release(&a->by_run);
	strlist_release(&a->row_stats);
	strlist_release(&a->ignore);
	strlist_release(&a->row_margins);
	strlist_release(&a->dirs);
	strlist_release(&a->labels);
	strlist_release(&a->modes);
}

/* --side LABEL=DIR (opt 'S') or --mode LABEL=MODE (opt 'M'). */
static int take_side_or_mode(struct compare_args *a, int opt, const char *arg)
{
	const char *eq = strchr(arg, '=');
	char *label = eq ? xstrndup(arg, (size_t)(eq - arg)) : NULL;
	bool ok = label && side_name_valid(label) && eq[1] && (opt == 'S' || side_name_valid(eq + 1));

	if (!ok) {
		free(label);
		command_usage_error("compare", "--%s: '%s' is not %s (LABEL: printable, at most 200 bytes)",
			  opt == 'S' ? "side" : "mode", arg, opt == 'S' ? "LABEL=DIR" : "LABEL=MODE");
		return -EINVAL;
	}
	if (opt == 'M') {
		strlist_add(&a->modes, arg);
	} else {
		strlist_add(&a->dirs, eq + 1);
		strlist_add(&a->labels, label);
	}
	free(label);
	return 0;
}

/* --stat STATS or --stat ROW=STATS. */
static int take_stat(struct compare_args *a, const char *arg)
{
	const char *eq = strchr(arg, '=');
	enum stat_kind row[STAT_KINDS];
	/* A ROW= list is checked here and kept as text: it must not replace the default list. */
	int k = stat_list_parse(eq ? eq + 1 : arg, eq ? row : a->stats);

	if (k < 0 || eq == arg) {
		command_usage_error("compare", "--stat: '%s' is not mean, median, min or max, a list of them such as mean,min, "
			  "or ROW=STAT", arg);
		return -EINVAL;
	}
	if (eq) {
		strlist_add(&a->row_stats, arg);
	} else {
		a->copt.stat = a->stats[0];
		a->copt.stats = a->stats;
		a->copt.n_stats = (size_t)k;
		a->copt.stat_given = true;
	}
	return 0;
}

/* --alpha (opt 'a'), --fdr ('q') and --equivalence ('e'): the levels and margins of the tests. */
static int take_level(struct compare_args *a, int opt, const char *arg)
{
	const char *eq = strchr(arg, '=');
	double v;

	if (opt == 'e') {
		if (eq == arg || compare_parse_margin(eq ? eq + 1 : arg, &v) < 0) {
			command_usage_error("compare", "--equivalence: '%s' is not a margin in %% above 0 and at most %g (or ROW=PCT)",
				  arg, COMPARE_MARGIN_MAX);
			return -EINVAL;
		}
		if (eq)
			strlist_add(&a->row_margins, arg);
		else
			a->copt.equivalence_pct = v;
		return 0;
	}
	if (parse_fraction(arg, opt == 'a' ? 0.5 : 1, &v) < 0) {
		command_usage_error("compare", "--%s: '%s' is not a level between 0 and %s", opt == 'a' ? "alpha" : "fdr",
			  arg, opt == 'a' ? "0.5" : "1");
		return -EINVAL;
	}
	*(opt == 'a' ? &a->copt.alpha : &a->copt.fdr_q) = v;
	return 0;
}

/* Every --equivalence ROW=PCT names a row of the results; else a usage error naming it. */
static int margins_name_rows(const struct strlist *margins, const struct compare_result *res)
{
	for (size_t i = 0; i < margins->n; i++) {
		const char *s = margins->items[i];
		size_t len = strcspn(s, "=");
		bool found = false;

		for (size_t m = 0; m < res->n_metrics && !found; m++)
			found = strlen(res->metrics[m].row) == len && !strncmp(res->metrics[m].row, s, len);
		if (!found) {
			command_usage_error("compare", "--equivalence '%s': no row '%.*s' in the results", s, (int)len, s);
			return -EINVAL;
		}
	}
	return 0;
}

/* One option of compare (getopt's opt, with its argument). */
static int take_option(struct compare_args *a, int opt, const char *arg)
{
	char *error = NULL;

	switch (opt) {
	case 1:
		strlist_add(&a->dirs, arg);
		strlist_add(&a->labels, "");
		return 0;
	case 'S':
	case 'M':
		return take_side_or_mode(a, opt, arg);
	case 's':
		return take_stat(a, arg);
	case 'b':
		strlist_add(&a->by_run, arg);
		return 0;
	case 'l':
		if (number_parse_double(arg, 0, HUGE_VAL, &a->copt.loud_pct) < 0) {
			command_usage_error("compare", "--loud: '%s' is not a percentage", arg);
			return -EINVAL;
		}
		return 0;
	case 'f':
		if (report_format_from_name(arg, &a->ropt.format) < 0) {
			command_usage_error("compare", "--format: '%s' is not txt, md, csv, json, html or mail", arg);
			return -EINVAL;
		}
		return 0;
	case 'j':
		a->ropt.format = REPORT_JSON;
		return 0;
	case 'a':
	case 'q':
	case 'e':
		return take_level(a, opt, arg);
	case 'H':
		a->history_arg = arg;
		return 0;
	case 'B':
		if (!side_name_valid(arg)) {
			command_usage_error("compare", "--baseline: '%s' is not a label (printable, at most 200 bytes)", arg);
			return -EINVAL;
		}
		a->baseline = arg;
		return 0;
	case 'N':
		a->no_history = true;
		return 0;
	case 'R':
		a->record = true;
		return 0;
	case 'i':
		if (costs_pattern_check(arg, &error) < 0) {
			command_usage_error("compare", "--ignore: %s", error);
			free(error);
			return -EINVAL;
		}
		strlist_add(&a->ignore, arg);
		return 0;
	case 'L':
		a->ropt.legend_long = true;
		return 0;
	case 'c':
		if (strcmp(arg, "auto") && strcmp(arg, "always") && strcmp(arg, "never")) {
			command_usage_error("compare", "--color: '%s' is not auto, always or never", arg);
			return -EINVAL;
		}
		a->color = arg;
		return 0;
	default:
		/* getopt's '?' and ':' are said by parse_compare_args(), which has argv. */
		return -EINVAL;
	}
}

static int parse_compare_args(int argc, char **argv, struct compare_args *a)
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
		{ "baseline", required_argument, NULL, 'B' },
		{ NULL, 0, NULL, 0 },
	};
	int opt;

	optind = 1;
	opterr = 0;
	/* "-": side directories come back in order among --side options; ":": usage errors are ours. */
	while ((opt = getopt_long(argc, argv, "-:", longopts, NULL)) != -1) {
		if (opt == '?' || opt == ':') {
			command_option_error("compare", opt, argv);
			return -EINVAL;
		}
		if (take_option(a, opt, optarg) < 0)
			return -EINVAL;
	}
	for (int i = optind; i < argc; i++) {
		/* What follows "--" is side directories too. */
		strlist_add(&a->dirs, argv[i]);
		strlist_add(&a->labels, "");
	}
	if (a->dirs.n < 2) {
		command_usage_error("compare", "compare needs at least two side directories");
		return -EINVAL;
	}
	if (!strcmp(a->color, "always"))
		a->ropt.color = true;
	else if (!strcmp(a->color, "auto"))
		a->ropt.color = isatty(STDOUT_FILENO) && !getenv("NO_COLOR") && a->ropt.format == REPORT_TEXT;
	a->ropt.loud_pct = a->copt.loud_pct;
	/* 100 columns, or the terminal's (COLUMNS) when printing to one. */
	a->ropt.width = tty_columns(STDOUT_FILENO);
	return 0;
}

/* --baseline LABEL: that side first, the others in the order given. Returns -EINVAL, said, when no side or two have the label. */
static int compare_move_baseline(struct side *sides, size_t n, const char *label)
{
	size_t found = n;
	struct side first;

	for (size_t k = 0; k < n; k++) {
		if (strcmp(sides[k].label, label))
			continue;
		if (found < n) {
			command_usage_error("compare", "--baseline %s: two sides are labelled '%s' (%s and %s): "
					    "label them apart with --side LABEL=DIR", label, label, sides[found].dir, sides[k].dir);
			return -EINVAL;
		}
		found = k;
	}
	if (found == n) {
		command_usage_error("compare", "--baseline %s: no side is labelled '%s'", label, label);
		return -EINVAL;
	}
	first = sides[found];
	memmove(&sides[1], &sides[0], found * sizeof(*sides));
	sides[0] = first;
	return 0;
}

/*
 * When the first side has no repeat and another side has (a glob sorts
 * off before pt and pt2), nothing can be judged: name the side that could
 * be the baseline.
 */
static void compare_baseline_hint(const struct side *sides, size_t n, struct strlist *warnings)
{
	struct strbuf candidates = STRBUF_INIT;
	struct side_modes modes;

	side_modes_index(sides, n, &modes);
	/* Modes in first-seen order: each one's first side, in side order. */
	for (size_t g = 1; side_modes_count(&modes, 0) == 1 && g < modes.n; g++)
		if (side_modes_count(&modes, g) >= 2)
			strbuf_addf(&candidates, "%s%s", candidates.len ? " or " : "",
				    sides[side_modes_first(&modes, g)].label);
	side_modes_release(&modes);
	if (candidates.len)
		strlist_addf(warnings, "%s, the first side, has no repeat, so nothing can be judged against it; "
			     "%s has one: --baseline %s compares every side with it", sides[0].label,
			     candidates.buf, strchr(candidates.buf, ' ') ? "LABEL" : candidates.buf);
	strbuf_release(&candidates);
}

/*
 * Reads the sides given into sides (*n_sides of them; *io_error when one
 * cannot be read) with their labels and modes. Returns -EINVAL, said, when
 * no report can be made of them: a --mode that names no side, a recorded
 * row that cannot be read, a --by-run row that no side has.
 */
static int load_compare_sides(const struct compare_args *a, struct side *sides, size_t *n_sides,
			      struct strlist *warnings, bool *io_error)
{
	char *error = NULL;
	int r;

	for (size_t i = 0; i < a->dirs.n; i++) {
		r = side_load(a->dirs.items[i], &sides[*n_sides], warnings);
		if (r < 0) {
			log_error("cannot read side directory '%s': %s", a->dirs.items[i], errno_string(r));
			*io_error = true;
			continue;
		}
		if (*a->labels.items[i]) {
			free(sides[*n_sides].label);
			sides[*n_sides].label = xstrdup(a->labels.items[i]);
		}
		(*n_sides)++;
	}
	if (a->baseline && compare_move_baseline(sides, *n_sides, a->baseline) < 0)
		return -EINVAL;
	if (side_assign_modes(sides, *n_sides, &a->modes, warnings, &error) < 0) {
		command_usage_error("compare", "%s", error);
		free(error);
		return -EINVAL;
	}
	side_infer_modes(sides, *n_sides, warnings);
	if (!a->baseline)
		compare_baseline_hint(sides, *n_sides, warnings);
	for (size_t i = 0; i < *n_sides; i++)
		if (sides[i].unreadable_rows) {
			/* A report without a recorded row would look complete and be wrong. */
			for (size_t w = 0; w < warnings->n; w++)
				log_warning("%s", warnings->items[w]);
			log_error("%zu recorded row%s of '%s' cannot be read: no report without %s",
				  sides[i].unreadable_rows, sides[i].unreadable_rows == 1 ? "" : "s",
				  sides[i].dir, sides[i].unreadable_rows == 1 ? "it" : "them");
			return -EINVAL;
		}
	/* --by-run names a row: one that no side has is a typo, not a no-op. */
	for (size_t i = 0; i < a->by_run.n && *n_sides >= 2; i++) {
		bool found = false;

		for (size_t k = 0; k < *n_sides && !found; k++)
			found = side_find_row(&sides[k], a->by_run.items[i]) != NULL;
		if (!found) {
			command_usage_error("compare", "--by-run %s: no side has a row called '%s'", a->by_run.items[i], a->by_run.items[i]);
			return -EINVAL;
		}
	}
	return 0;
}

/* Compares the sides (two or more), prints the report, records the history asked for; the exit code. */
static int compare_and_report(struct compare_args *a, struct side *sides, size_t n_sides,
			      struct strlist *warnings, bool io_error)
{
	struct history history = HISTORY_INIT;
	char *history_path = NULL;
	struct compare_result res;
	int r, ret = EXIT_USAGE;

	if (a->no_history && (a->history_arg || a->record)) {
		command_usage_error("compare", "--no-history cannot go with --history or --record-history");
		return EXIT_USAGE;
	}
	if (!a->no_history) {
		r = compare_history_open(sides, n_sides, a->history_arg, a->record, &history_path, &history,
					 warnings);
		if (r < 0)
			goto out;
		a->copt.history = r > 0 ? &history : NULL;
	}
	r = compare_sides(sides, n_sides, &a->copt, &res, warnings);
	if (r < 0) {
		log_error("cannot compare: %s", errno_string(r));
		goto out;
	}
	if (margins_name_rows(&a->row_margins, &res) < 0) {
		compare_result_release(&res);
		goto out;
	}
	if (a->ropt.format != REPORT_JSON)
		for (size_t i = 0; i < warnings->n; i++)
			log_warning("%s", warnings->items[i]);
	if (compare_result_compared(&res) == 0) {
		if (a->ropt.format == REPORT_JSON)
			report_compare(stdout, &res, &a->ropt);
		log_error("no metric is present on the first side and another: nothing could be compared");
		ret = io_error ? EXIT_USAGE : EXIT_NOTHING;
	} else if ((r = report_compare(stdout, &res, &a->ropt)) < 0) {
		log_error("failed to write the report: %s", errno_string(r));
	} else if (!a->record || compare_history_save(&res, history_path, &history) == 0) {
		ret = io_error ? EXIT_USAGE : EXIT_OK;
	}
	compare_result_release(&res);
out:
	a->copt.history = NULL;
	history_release(&history);
	free(history_path);
	return ret;
}

static int cmd_compare(int argc, char **argv)
{
	struct strlist warnings = STRLIST_INIT;
	struct compare_args a;
	struct side *sides = NULL;
	size_t n_sides = 0;
	bool io_error = false;
	int ret = EXIT_USAGE;

	compare_args_init(&a);
	a.ropt.warnings = &warnings;
	if (parse_compare_args(argc, argv, &a) < 0)
		goto out;
	sides = xcalloc(a.dirs.n, sizeof(*sides));
	if (load_compare_sides(&a, sides, &n_sides, &warnings, &io_error) < 0)
		goto out;
	if (n_sides < 2) {
		for (size_t i = 0; i < warnings.n; i++)
			log_warning("%s", warnings.items[i]);
		log_error("fewer than two side directories could be read: nothing to compare");
		ret = io_error ? EXIT_USAGE : EXIT_NOTHING;
		goto out;
	}
	ret = compare_and_report(&a, sides, n_sides, &warnings, io_error);
out:
	for (size_t i = 0; i < n_sides; i++)
		side_release(&sides[i]);
	free(sides);
	compare_args_release(&a);
	strlist_release(&warnings);
	return ret;
}

const struct command cmd_compare_entry = {
	.name = "compare",
	.run = cmd_compare,
	.summary = "compare benchmark results of several boots",
	.usage = cmd_compare_usage,
};
