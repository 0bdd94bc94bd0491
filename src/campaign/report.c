#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "campaign/screen-report.h"
#include "campaign/internal.h"
#include "campaign/progress.h"
#include "campaign/touch.h"
#include "judge/compare.h"
#include "judge/history.h"
#include "kernel/iommu.h"
#include "kernel/snapshot.h"
#include "lib/alloc.h"
#include "lib/file.h"
#include "lib/strbuf.h"
#include "lib/strlist.h"
#include "report/compare-report.h"
#include "report/factors.h"
#include "results/side.h"

/* The IOMMU facts of one side, from its meta.json as side_load() read it. */
static void side_iommu(const struct side *side, const char *watch, char **ret_summary, char **ret_watch)
{
	struct snapshot snap;
	struct parse_error err = PARSE_ERROR_INIT;

	*ret_summary = NULL;
	*ret_watch = NULL;
	if (side->meta && snapshot_from_json(side->meta, &snap, &err) == 0) {
		*ret_summary = iommu_map_summary(&snap.iommu);
		if (watch) {
			const char *type = iommu_map_device_type(&snap.iommu, watch);

			*ret_watch = xstrdup(type ? type : snap.iommu.n_groups ? "in no group" : "no IOMMU groups");
		}
		snapshot_release(&snap);
	}
	parse_error_release(&err);
}

/* One report in format into *ret (the caller's): txt and md open with the headline, then extra (the campaign's head). */
static int render_report(const char *dir, const struct compare_result *res, enum report_format format,
			 const struct strlist *warnings, const char *extra, const struct plan *plan,
			 const struct campaign_report_request *request, char **ret, size_t *ret_len)
{
	char *title = path_basename(dir);
	struct report_options ro = { .format = format, .loud_pct = COMPARE_LOUD_PCT_DEFAULT, .warnings = warnings,
				     .title = title, .watch = plan->watch };
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	int r;

	if (!f) {
		free(title);
		return -errno;
	}
	if (request) {
		ro.legend_long = request->legend_long;
		ro.width = request->width;
	}
	/* The headline opens txt and md; the campaign's lines follow it. */
	if (format == REPORT_TEXT || format == REPORT_MD)
		ro.preamble = extra;
	r = report_compare(f, res, &ro);
	fclose(f);
	free(title);
	if (r < 0) {
		free(buf);
		return r;
	}
	*ret = buf;
	*ret_len = len;
	return 0;
}

static int write_report(const char *dir, const char *name, const struct compare_result *res,
			enum report_format format, const struct strlist *warnings, const char *extra,
			const struct plan *plan)
{
	char *buf, *path;
	size_t len;
	int r = render_report(dir, res, format, warnings, extra, plan, NULL, &buf, &len);

	if (r < 0)
		return r;
	path = path_join(dir, name);
	r = file_write_atomic(path, buf, len, 0644);
	free(buf);
	free(path);
	return r;
}

/*
 * The machine's calibration history for the report: the plan's history
 * (a file or a directory), else the sides' machine's default file. A
 * history that cannot be used is a warning: it never stops the report.
 * Returns 1 with *ret and *ret_path, else 0.
 */
static int report_history_open(const struct plan *plan, const struct side *sides, size_t n_sides,
			       char **ret_path, struct history *ret, struct strlist *warnings)
{
	char *error = NULL;
	int r;

	if (plan->history_off)
		return 0;
	r = history_open(sides, n_sides, plan->history, false, ret_path, ret, &error, warnings);
	if (r < 0) {
		strlist_addf(warnings, "%s: [campaign] history %s: %s, ignoring the history", plan->file,
			     plan->history ? plan->history : "(default)", error);
		free(error);
		return 0;
	}
	return r;
}

/*
 * Adds the campaign's boots of its first mode (A and its repeats, or
 * every boot of an A/A campaign) to the machine's history, when every side
 * names the same machine. Every problem is a warning: the campaign is done.
 */
static void report_history_record(const struct campaign_options *o, const struct plan *plan, const struct compare_result *res,
				  bool have_history, const char *path, struct history *history)
{
	const char *machine = history_sides_machine(res->sides, res->n_sides, NULL);
	size_t boots;
	int r;

	if (plan->history_off)
		return;
	if (!machine) {
		campaign_tell(o, CAMPAIGN_WARNING, "calibration history not recorded: the sides do not all name one machine (meta.json machine_id)");
		return;
	}
	if (!have_history) {
		char *default_path = plan->history ? NULL : history_default_path(machine);

		if (plan->history || default_path)
			campaign_tell(o, CAMPAIGN_WARNING, "calibration history of machine %s not recorded: %s cannot be used",
			    machine, plan->history ? plan->history : default_path);
		else
			campaign_tell(o, CAMPAIGN_WARNING, "calibration history of machine %s not recorded: neither XDG_DATA_HOME nor HOME is an absolute path",
			    machine);
		free(default_path);
		return;
	}
	r = compare_history_record(res, history, path, &boots);
	if (r == -ENODATA) {
		campaign_tell(o, CAMPAIGN_INFO, "calibration history: no metric has two boots of %s, nothing recorded in %s",
		    res->sides[0].mode, path);
		return;
	}
	if (r < 0) {
		campaign_tell(o, CAMPAIGN_WARNING, "cannot write the calibration history '%s': %s, ignoring", path, strerror(-r));
		return;
	}
	campaign_tell(o, CAMPAIGN_INFO, "calibration history: recorded %zu boots of %s in %s (%zu entries)", boots,
	    res->sides[0].mode, path, history->n_entries);
}

/*
 * The request's statistics as compare_sides() takes them: "LIST" becomes
 * "ROW=LIST" for every row of the plan, "ROW=LIST" stays. -EINVAL for a
 * list that is not one.
 */
static int request_stats(const struct campaign_options *o, const struct plan *plan, const struct campaign_report_request *rq,
			 struct strlist *ret)
{
	for (size_t i = 0; rq && rq->stats && i < rq->stats->n; i++) {
		const char *s = rq->stats->items[i], *eq = strchr(s, '=');
		enum stat_kind k[STAT_KINDS];

		if (eq == s || stat_list_parse(eq ? eq + 1 : s, k) < 0) {
			campaign_tell(o, CAMPAIGN_ERROR, "--stat: '%s' is not mean, median, min or max, a list of them such as mean,min, or ROW=STAT",
				     s);
			return -EINVAL;
		}
		if (eq) {
			strlist_add(ret, s);
			continue;
		}
		for (size_t r = 0; r < plan->n_rows; r++)
			if (!plan->rows[r].check)
				strlist_addf(ret, "%s=%s", plan->rows[r].name, s);
	}
	return 0;
}

/*
 * rounds = auto: the round the recorded sides complete (the fewest boots of
 * a mode other than the first, at most max_rounds), 0 with none.
 */
static unsigned rounds_done(const struct plan *plan, const struct side *sides, size_t n_sides)
{
	unsigned fewest = 0;

	for (size_t m = 1; m < plan->n_modes; m++) {
		unsigned n = 0;

		for (size_t k = 0; k < n_sides; k++)
			n += !strcmp(sides[k].mode, plan->modes[m].name);
		if (m == 1 || n < fewest)
			fewest = n;
	}
	return fewest < plan->max_rounds ? fewest : plan->max_rounds;
}

double campaign_alpha(const struct plan *plan, const struct side *sides, size_t n_sides, unsigned *ret_done)
{
	unsigned done = plan->rounds_auto ? rounds_done(plan, sides, n_sides) : 0;

	if (ret_done)
		*ret_done = done;
	return done >= 1 ? compare_sequential_alpha(done, plan->max_rounds, COMPARE_ALPHA_DEFAULT) : COMPARE_ALPHA_DEFAULT;
}

/*
 * The report, or with look a look of a rounds = auto campaign: the same
 * comparison at the same boundary, nothing written; look->decided and
 * look->line (what decided it or did not) are filled.
 */
struct look {
	bool decided;
	char *line;
};

/*
 * The sides of the campaign in dir that are recorded, in boot order,
 * into sides (*n_sides). Returns -EINVAL, said, when a recorded row cannot
 * be read: a report without it would look complete and be wrong.
 */
static int load_recorded_sides(const struct campaign_options *o, const char *dir, const struct plan_boot *boots, size_t n,
			       struct side *sides, size_t *n_sides, struct strlist *warnings)
{
	for (size_t k = 0; k < n; k++) {
		char *side_dir = path_join(dir, boots[k].label);

		if (side_recorded(side_dir) && side_load(side_dir, &sides[*n_sides], warnings) == 0)
			(*n_sides)++;
		free(side_dir);
	}
	for (size_t k = 0; k < *n_sides; k++)
		if (sides[k].unreadable_rows) {
			for (size_t i = 0; i < warnings->n; i++)
				campaign_tell(o, CAMPAIGN_WARNING, "%s", warnings->items[i]);
			campaign_tell(o, CAMPAIGN_ERROR, "%zu recorded row%s of %s cannot be read: no report without %s",
				     sides[k].unreadable_rows, sides[k].unreadable_rows == 1 ? "" : "s", sides[k].dir,
				     sides[k].unreadable_rows == 1 ? "it" : "them");
			return -EINVAL;
		}
	return 0;
}

/* The report's IOMMU lines: each side's group types and the watched device's; a watch that never changed. */
static void report_head_iommu(struct strbuf *head, const struct plan *plan, const struct side *sides, size_t n_sides)
{
	char *first_watch = NULL;
	bool watch_differs = false;

	strbuf_addstr(head, "verified IOMMU group types per side:\n");
	for (size_t k = 0; k < n_sides; k++) {
		char *summary, *watch;

		side_iommu(&sides[k], plan->watch, &summary, &watch);
		strbuf_addf(head, "  %-14s %s", sides[k].label, summary ? summary : "(not recorded)");
		if (plan->watch)
			strbuf_addf(head, "; %s: %s", plan->watch, watch ? watch : "(not recorded)");
		strbuf_addch(head, '\n');
		if (watch) {
			if (!first_watch)
				first_watch = xstrdup(watch);
			else if (strcmp(first_watch, watch))
				watch_differs = true;
		}
		free(summary);
		free(watch);
	}
	if (plan->watch && first_watch && !watch_differs && n_sides > 1)
		strbuf_addf(head, "warning: %s is %s in every mode: the setting did not change this device's DMA path; a gain needs another explanation\n",
			    plan->watch, first_watch);
	free(first_watch);
}

/* Fewer than two boots recorded: report.txt holds the head only. */
static int report_too_few(const struct campaign_options *o, const char *dir, bool files,
			  const struct campaign_report_request *request, const struct strbuf *head, char **ret_text)
{
	char *txt = path_join(dir, "report.txt");
	int r;

	campaign_tell(o, CAMPAIGN_WARNING, "%s: fewer than two boots recorded, no comparison", dir);
	r = files ? file_write_atomic(txt, head->buf, head->len, 0644) : 0;
	if (r < 0)
		campaign_tell(o, CAMPAIGN_ERROR, "cannot write %s: %s", txt, strerror(-r));
	else if (request && request->text && ret_text &&
		 (request->text_format == REPORT_TEXT || request->text_format == REPORT_MD))
		*ret_text = xstrdup(strbuf_str(head));
	free(txt);
	return r;
}

/*
 * The plan's say in the comparison: its ignored costs, equivalence
 * margins (the campaign's and each row's, into row_margins) and, with
 * rounds = auto, this look's level (said in head).
 */
static void report_plan_options(const struct plan *plan, const struct side *sides, size_t n_sides,
				struct compare_options *co, struct strlist *row_margins, struct strbuf *head)
{
	co->ignore = &plan->ignore;
	co->equivalence_pct = plan->equivalence_pct;
	for (size_t i = 0; i < plan->n_rows; i++)
		if (plan->rows[i].equivalence_pct > 0)
			strlist_addf(row_margins, "%s=%.17f", plan->rows[i].name, plan->rows[i].equivalence_pct);
	co->row_equivalence = row_margins;
	if (plan->rounds_auto) {
		unsigned done;
		double alpha = campaign_alpha(plan, sides, n_sides, &done);

		/* The tests of a look, and of the report, claim only at its boundary. */
		if (done >= 1) {
			co->alpha = alpha;
			strbuf_addf(head, "rounds = auto: %u of at most %u rounds; the boot-level tests claim at this look's O'Brien-Fleming boundary, alpha %.4f (%.2f over every look)\n\n",
				    done, plan->max_rounds, co->alpha, COMPARE_ALPHA_DEFAULT);
		}
	}
}

/* report.txt, .md, .json and .html (unless request says no files), and the text request asks for. */
static int report_files(const char *dir, bool files, const struct compare_result *res,
			const struct strlist *warnings, const char *head, const struct plan *plan,
			const struct campaign_report_request *request, char **ret_text)
{
	int r = 0;

	if (files) {
		r = write_report(dir, "report.txt", res, REPORT_TEXT, warnings, head, plan);
		if (r == 0)
			r = write_report(dir, "report.md", res, REPORT_MD, warnings, head, plan);
		if (r == 0)
			r = write_report(dir, "report.json", res, REPORT_JSON, warnings, NULL, plan);
		if (r == 0)
			r = write_report(dir, "report.html", res, REPORT_HTML, warnings, NULL, plan);
	}
	if (r == 0 && request && request->text && ret_text) {
		size_t len;

		r = render_report(dir, res, request->text_format, warnings, head, plan, request, ret_text, &len);
	}
	return r;
}

static int report_or_look(const char *dir, const struct campaign_options *o, bool record,
			  const struct campaign_report_request *request, char **ret_text, struct look *look)
{
	bool files = !(request && request->no_files);
	struct parse_error err = PARSE_ERROR_INIT;
	struct plan plan;
	struct plan_boot *boots;
	struct side *sides;
	struct strlist warnings = STRLIST_INIT, row_margins = STRLIST_INIT;
	struct strbuf head = STRBUF_INIT;
	struct compare_options co = { .stat = STAT_MEAN, .loud_pct = COMPARE_LOUD_PCT_DEFAULT,
				      .boots_needed = true };
	struct strlist row_stats = STRLIST_INIT;
	struct compare_result res;
	struct screen_result screen = { 0 };
	struct history history = HISTORY_INIT;
	char *plan_path = path_join(dir, "plan.ini"), *history_path = NULL;
	bool have_history = false;
	size_t n, n_sides = 0;
	int r;

	r = plan_load(plan_path, &plan, &err);
	free(plan_path);
	if (r == -ENOENT) {
		/* Side directories without the campaign around them are compare's, not report's. */
		if (!path_is_dir(dir))
			campaign_tell(o, CAMPAIGN_ERROR, "%s: no such directory", dir);
		else
			campaign_tell(o, CAMPAIGN_ERROR, "%s: no plan.ini, so not a campaign directory of bootab run; "
				     "to compare side directories (one per boot), run bootab compare on them "
				     "(bootab compare --baseline LABEL %s/*)", dir, dir);
		parse_error_release(&err);
		return r;
	}
	if (r < 0) {
		campaign_tell(o, CAMPAIGN_ERROR, "%s: %s", dir, err.message ? err.message : strerror(-r));
		parse_error_release(&err);
		return r;
	}
	parse_error_release(&err);
	if (request_stats(o, &plan, request, &row_stats) < 0) {
		plan_release(&plan);
		strlist_release(&row_stats);
		return -EINVAL;
	}
	co.row_stats = &row_stats;
	n = plan_boots(&plan, &boots);
	sides = xcalloc(n, sizeof(*sides));
	strbuf_addf(&head, "campaign %s: ", dir);
	r = load_recorded_sides(o, dir, boots, n, sides, &n_sides, &warnings);
	if (r < 0)
		goto out;
	strbuf_addf(&head, "%zu of %zu boots recorded\n", n_sides, n);
	{
		/* What each mode could change, read before the first boot (touch.txt). */
		char *touch = NULL;

		if (touch_map_load(dir, &touch, &warnings) < 0)
			strlist_addf(&warnings, "%s/%s cannot be read, ignoring it", dir, TOUCH_FILE);
		if (touch)
			strbuf_addstr(&head, touch);
		free(touch);
	}
	report_head_iommu(&head, &plan, sides, n_sides);
	strbuf_addch(&head, '\n');
	if (n_sides < 2) {
		if (!look)
			r = report_too_few(o, dir, files, request, &head, ret_text);
		goto out;
	}
	/* As bootab compare does: the machine's noise floor judges a campaign with few repeats. */
	have_history = report_history_open(&plan, sides, n_sides, &history_path, &history, &warnings) > 0;
	co.history = have_history ? &history : NULL;
	report_plan_options(&plan, sides, n_sides, &co, &row_margins, &head);
	r = compare_sides(sides, n_sides, &co, &res, &warnings);
	if (r < 0) {
		campaign_tell(o, CAMPAIGN_ERROR, "%s: cannot compare the sides: %s", dir, strerror(-r));
		goto out;
	}
	if (look) {
		size_t decided, tests;

		look->decided = compare_decided(&res, &decided, &tests);
		look->line = xasprintf("%zu of %zu boot-level tests decided (a claim that survives FDR, or the same within its margin) at alpha %.4f",
				       decided, tests, co.alpha);
		compare_result_release(&res);
		goto out;
	}
	for (size_t i = 0; i < warnings.n; i++)
		campaign_tell(o, CAMPAIGN_WARNING, "%s", warnings.items[i]);
	if (screen_report_build(&plan, &res, res.alpha > 0 ? res.alpha : COMPARE_ALPHA_DEFAULT, &screen) == 0) {
		res.screen = &screen;
		screen_drop_run_tests(&screen, &res);
		factors_text(&res, &head);
		strbuf_addch(&head, '\n');
	}
	r = report_files(dir, files, &res, &warnings, head.buf, &plan, request, ret_text);
	screen_release(&screen);
	res.screen = NULL;
	if (r == 0 && record)
		report_history_record(o, &plan, &res, have_history, history_path, &history);
	compare_result_release(&res);
	if (r < 0)
		campaign_tell(o, CAMPAIGN_ERROR, "cannot write the report in %s: %s (the reports there before are kept whole)",
		    dir, strerror(-r));
out:
	history_release(&history);
	free(history_path);
	for (size_t k = 0; k < n_sides; k++)
		side_release(&sides[k]);
	free(sides);
	strbuf_release(&head);
	strlist_release(&warnings);
	strlist_release(&row_margins);
	strlist_release(&row_stats);
	plan_boots_free(boots, n);
	plan_release(&plan);
	return r;
}

/* campaign_report_request(); record: also add the first mode's boots to the history. */
int campaign_write_report(const char *dir, const struct campaign_options *o, bool record,
			  const struct campaign_report_request *request, char **ret_text)
{
	return report_or_look(dir, o, record, request, ret_text, NULL);
}

int campaign_look(const char *dir, const struct campaign_options *o, bool *ret_decided, char **ret_line)
{
	struct look look = { 0 };
	int r = report_or_look(dir, o, false, NULL, NULL, &look);

	*ret_decided = r == 0 && look.decided;
	*ret_line = look.line;
	return r;
}

int campaign_report_request(const char *dir, const struct campaign_options *o,
			    const struct campaign_report_request *request, char **ret_text)
{
	if (ret_text)
		*ret_text = NULL;
	return campaign_write_report(dir, o, false, request, ret_text);
}
