#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "campaign/internal.h"
#include "campaign/progress.h"
#include "campaign/runner.h"
#include "lib/alloc.h"
#include "lib/clock.h"
#include "lib/escape.h"
#include "lib/file.h"
#include "lib/parse-number.h"
#include "lib/process.h"
#include "lib/strbuf.h"
#include "parsers/parser.h"
#include "results/fetch.h"
#include "report/rep-line.h"
#include "target/target.h"
#include "target/exit-codes.h"

int campaign_start_rows(struct campaign *c, size_t k)
{
	struct runner_options so = {
		.campaign = c->name, .boot_index = k, .n_boots = c->n_boots,
		.label = c->boots[k].label, .mode = c->plan.modes[c->boots[k].mode].name,
		.park = k == 0, .unpark = k + 1 == c->n_boots, .default_user = c->rows_user,
		.root = c->o->root,
	};
	char *script = runner_generate(&c->plan, &so);
	char *dir = campaign_remote_dir(c, k), *unit = xasprintf("bootab-%s-%s", c->name, c->boots[k].label);
	const char *args[] = { dir, unit, NULL };
	struct process_result res;
	int r;

	r = target_run_script(c->target, "run-start", args, script, strlen(script), false, 60000, &res);
	if (r < 0) {
		campaign_say(c, CAMPAIGN_ERROR, "boot %zu %s: cannot start the rows: %s", k + 1, c->boots[k].label,
		    target_error(c->target));
	} else if (res.exit_code == TARGET_EXIT_STARTED) {
		/* Already started on this boot (a resume after the start was lost): go on polling. */
		process_result_release(&res);
		r = 0;
	} else if (res.exit_code != 0) {
		campaign_say(c, CAMPAIGN_ERROR, "boot %zu %s: cannot start the rows (exit %d): %.*s", k + 1,
		    c->boots[k].label, res.exit_code, (int)strcspn(res.err, "\n"), res.err);
		process_result_release(&res);
		r = -EIO;
	} else {
		process_result_release(&res);
	}
	if (r == 0) {
		campaign_progress(c, k, "rows started in %s", dir);
		r = campaign_journal_step(c, k, STEP_STARTED, dir);
	}
	free(unit);
	free(dir);
	free(script);
	return r;
}

/* The most of a prepare command's output kept. */
#define PREPARE_OUTPUT_MAX ((size_t)64 << 10)

int campaign_prepare(struct campaign *c, size_t k)
{
	char *side = path_join(c->dir, c->boots[k].label), *path = path_join(side, "prepare.json"), *text;
	json_t *all = json_array();
	int r = 0;

	campaign_progress(c, k, "prepare: %zu command%s as root", c->plan.prepare.n, c->plan.prepare.n == 1 ? "" : "s");
	for (size_t i = 0; i < c->plan.prepare.n && r == 0; i++) {
		const char *args[] = { c->plan.prepare.items[i], NULL };
		struct process_result res;
		size_t n;
		json_t *out;

		r = target_run_script(c->target, "prepare", args, NULL, 0, true, 600000, &res);
		if (r < 0) {
			campaign_say(c, CAMPAIGN_ERROR, "boot %zu %s: cannot run prepare %zu: %s", k + 1, c->boots[k].label,
				     i + 1, target_error(c->target));
			break;
		}
		n = strlen(res.out) < PREPARE_OUTPUT_MAX ? strlen(res.out) : PREPARE_OUTPUT_MAX;
		/* Output that is not UTF-8 is kept as far as json takes it: none, then. */
		out = json_stringn(res.out, n);
		json_array_append_new(all, json_pack("{s:s, s:i, s:o}", "command", c->plan.prepare.items[i], "rc",
						     res.exit_code, "output", out ? out : json_string("")));
		if (res.exit_code != 0) {
			char *line = xstrndup(res.out, strcspn(res.out, "\n")), *safe = text_escape(line);

			campaign_say(c, CAMPAIGN_ERROR, "boot %zu %s: prepare %zu failed (rc=%d)%s%s: nothing is benchmarked on this boot",
				     k + 1, c->boots[k].label, i + 1, res.exit_code, *safe ? ": " : "", safe);
			free(safe);
			free(line);
			r = -EPROTO;
		}
		process_result_release(&res);
	}
	/* What ran, whole or up to the failure: the side's record of this boot's prepare. */
	if (r == 0 || r == -EPROTO) {
		int w = dir_create_all(side, 0755);

		text = json_dumps(all, JSON_INDENT(2));
		if (w == 0)
			w = file_write_atomic(path, text, strlen(text), 0644);
		if (w < 0) {
			campaign_say(c, CAMPAIGN_ERROR, "boot %zu %s: cannot write %s: %s", k + 1, c->boots[k].label, path,
				     strerror(-w));
			r = r ? r : w;
		}
		free(text);
	}
	json_decref(all);
	free(path);
	free(side);
	return r;
}

/* The longest a boot's rows may take: every rep's timeout, every gate's. */
static double rows_deadline_s(const struct plan *p)
{
	double s = 120;

	for (size_t i = 0; i < p->n_rows; i++) {
		s += (double)p->rows[i].reps * p->rows[i].timeout_s;
		s += p->idle.timeout_s ? p->idle.timeout_s : 86400.0;
	}
	return s;
}

/* A rep's stdout as the watch sends it: at most this much (larger: the value waits for the fetch). */
#define WATCH_REP_MAX ((size_t)4 << 20)

static const struct plan_row *find_row(const struct plan *p, const char *name)
{
	for (size_t i = 0; i < p->n_rows; i++)
		if (!strcmp(p->rows[i].name, name))
			return &p->rows[i];
	return NULL;
}

/* "rep ROW REP RC SECONDS" and that rep's output (NULL: not sent) -> "row ROW 2/3: 5.41 k IOPS". */
static void show_rep(struct campaign *c, size_t k, const char *line, const char *out, size_t out_len)
{
	char row[256], *text = NULL;
	unsigned rep = 0, secs = 0;
	int rc = 0;
	const struct plan_row *r;

	if (sscanf(line, "rep %255s %u %d %u", row, &rep, &rc, &secs) != 4 || !(r = find_row(&c->plan, row))) {
		char *safe = text_escape(line);

		campaign_progress(c, k, "%s", safe);
		free(safe);
		return;
	}
	if (!r->check && rc == 0 && out) {
		struct metric_set set = { 0 };
		struct parse_error perr = PARSE_ERROR_INIT, pwarn = PARSE_ERROR_INIT;
		struct parser_regex regex = { r->metric, r->pattern, r->unit,
					      r->better_lower ? BETTER_LOWER : BETTER_HIGHER };
		int q = r->parser == PARSER_REGEX ? parser_parse_regex(&regex, out, out_len, &set, &perr, &pwarn)
						  : parser_parse(r->parser, r->selector, out, out_len, &set, &perr, &pwarn);

		text = report_rep_line(r->name, rep, r->reps, false, 0, q == 0 ? &set : NULL);
		parse_error_release(&perr);
		parse_error_release(&pwarn);
		metric_set_release(&set);
	} else {
		text = report_rep_line(r->name, rep, r->reps, r->check, rc, NULL);
	}
	campaign_progress(c, k, "%s (%u s)", text, secs);
	free(text);
}

enum watch_end {
	WATCH_DONE,       /* the run said "done" */
	WATCH_DROPPED,    /* the connection ended first */
	WATCH_NO_PROGRESS, /* the run has no progress file (TARGET_EXIT_NOT_FOUND) */
};

/* What the watch says next: a line, or an error when it ended or the campaign stops. */
static int watch_line(struct campaign *c, struct process_stream *s, double deadline_at, char **ret)
{
	for (;;) {
		int r = process_stream_line(s, 4096, 500, ret);

		if (r == 1 || r == 0 || r == -EMSGSIZE)
			return r;
		if (campaign_interrupted(c))
			return -EINTR;
		if (clock_now_s() > deadline_at)
			return -ETIMEDOUT;
	}
}

/*
 * The results the watch sends after its "end" (run-watch.sh's FETCH_LIMIT),
 * into fd from its start. Whether they all came; the watch's exit status
 * says whether they are whole.
 */
static bool carry_fetch(struct campaign *c, struct process_stream *s, int fd)
{
	double deadline_at = clock_now_s() + 3600;

	if (ftruncate(fd, 0) < 0 || lseek(fd, 0, SEEK_SET) < 0)
		return false;
	for (;;) {
		int r = process_stream_copy_rest(s, fd, 500);

		if (r == 0)
			return true;
		if ((r != -ETIMEDOUT && r != -EINTR) || campaign_interrupted(c) || clock_now_s() > deadline_at)
			return false;
	}
}

/*
 * One watch of boot k's run, from the progress lines already shown on:
 * each line said as it comes and journaled as shown, a rep's value with
 * it. A rep line counts as shown only once its output came too, so a
 * connection that drops between the two sends both again. With fetch_fd
 * (>= 0) the watch carries the results on after the run's end: *ret_carried
 * says whether they came whole.
 */
static int watch_once(struct campaign *c, size_t k, const char *dir, double deadline_at, int fetch_fd,
		      enum watch_end *ret_end, bool *ret_carried)
{
	struct boot_progress *bp = &c->progress[k];
	char from[32], limit[32], fetch_limit[32], *line = NULL, *pending = NULL, *err = NULL;
	const char *args[] = { dir, from, limit, fetch_fd >= 0 ? fetch_limit : NULL, NULL };
	struct process_stream s;
	bool header = false, done = false, carried = false;
	int r, code;

	snprintf(from, sizeof(from), "%zu", bp->seen);
	snprintf(limit, sizeof(limit), "%zu", WATCH_REP_MAX);
	snprintf(fetch_limit, sizeof(fetch_limit), "%llu", FETCH_FILE_LIMIT);
	r = target_stream_script(c->target, "run-watch", args, &s);
	if (r < 0)
		return r;
	while ((r = watch_line(c, &s, deadline_at, &line)) == 1) {
		if (!header) {
			header = !strcmp(line, "bootab-watch 1");
			if (!header) {
				r = -EPROTO;
				break;
			}
		} else if (!strncmp(line, "line ", 5) && !pending) {
			if (!strncmp(line + 5, "rep ", 4)) {
				pending = xstrdup(line + 5);
			} else {
				char *safe;

				/* Journaled before it is shown: a kill in between loses the line, never shows it twice. */
				if ((r = campaign_journal_seen(c, k, bp->seen + 1)) < 0)
					break;
				safe = text_escape(line + 5);
				campaign_progress(c, k, "%s", safe);
				free(safe);
				done = !strcmp(line + 5, "done");
			}
		} else if (pending && (!strncmp(line, "file ", 5) || !strncmp(line, "skip ", 5))) {
			const char *size_text = strrchr(line, ' ') + 1;
			long size = 0;
			char *data = NULL;

			/* A skipped output may be of any size; one sent is at most the limit. */
			if (number_parse_long(size_text, 0, line[0] == 'f' ? (long)WATCH_REP_MAX : LONG_MAX, &size) < 0) {
				r = -EPROTO;
				break;
			}
			if (line[0] == 'f') {
				r = process_stream_bytes(&s, (size_t)size + 1, 30000, &data);
				if (r != 1)
					break;
				if (data[size] != '\n') {
					free(data);
					r = -EPROTO;
					break;
				}
			}
			r = campaign_journal_seen(c, k, bp->seen + 1);
			if (r == 0)
				show_rep(c, k, pending, data, (size_t)size);
			free(data);
			free(pending);
			pending = NULL;
			if (r < 0)
				break;
		} else if (!strcmp(line, "end") && !pending) {
			/* After "done", or a run found finished: its "done" was shown before. */
			done = true;
			if (fetch_fd >= 0) {
				campaign_progress(c, k, "fetching results (on the watch's connection)");
				carried = carry_fetch(c, &s, fetch_fd);
			}
			break;
		} else {
			r = -EPROTO;
			break;
		}
		free(line);
		line = NULL;
	}
	free(line);
	free(pending);
	code = process_stream_finish(&s, !(r == 1 && done) || (fetch_fd >= 0 && !carried), &err);
	if (r == 1 && done) {
		*ret_end = WATCH_DONE;
		*ret_carried = carried && code == 0;
		r = 0;
	} else if (r == 0 && code == TARGET_EXIT_NOT_FOUND) {
		*ret_end = WATCH_NO_PROGRESS;
	} else if (r == 0 || r == 1 || r == -EPROTO || r == -EMSGSIZE) {
		size_t n = strlen(err);

		while (n && (err[n - 1] == '\n' || err[n - 1] == '\r'))
			err[--n] = '\0';
		*ret_end = WATCH_DROPPED;
		r = 0;
		campaign_say(c, CAMPAIGN_WARNING, "boot %zu %s: the watch of the rows ended (%s), reconnecting",
			     k + 1, c->boots[k].label,
			     code == 255 ? (*err ? strrchr(err, '\n') ? strrchr(err, '\n') + 1 : err : "connection lost")
			     : r == -EPROTO ? "not what run-watch sends" : "connection lost");
	}
	free(err);
	return r;
}

/*
 * Waits for the per-boot script's "done", told by the run itself: one
 * idle connection follows its progress file (run-watch.sh), so the
 * controller learns of each rep, row and the end as they happen, and
 * nothing wakes the box meanwhile. After a drop the watch resumes where
 * it left off, poll seconds later; a new boot_id then means the box
 * rebooted under the rows, and that boot's data is not used.
 */
int campaign_wait_rows(struct campaign *c, size_t k, int *ret_fetch_fd)
{
	char *dir = campaign_remote_dir(c, k);
	double deadline_at = clock_now_s() + rows_deadline_s(&c->plan);
	unsigned poll = c->plan.poll_s ? c->plan.poll_s : 60;
	/* Where the watch carries the results; without it they are fetched on their own. */
	int r, fetch_fd = campaign_fetch_file(c, k, true);
	bool carried = false;

	*ret_fetch_fd = -1;
	for (;;) {
		enum watch_end end = WATCH_DROPPED;
		char *id = NULL;

		if (campaign_interrupted(c)) {
			r = -EINTR;
			break;
		}
		r = watch_once(c, k, dir, deadline_at, fetch_fd, &end, &carried);
		if (r == -ETIMEDOUT) {
			campaign_say(c, CAMPAIGN_ERROR, "boot %zu %s: the rows did not finish within %.0f s", k + 1,
			    c->boots[k].label, rows_deadline_s(&c->plan));
			break;
		}
		if (r < 0 && r != -EHOSTUNREACH && r != -ENOENT)
			break;
		if (r == 0 && end == WATCH_DONE)
			break;
		if (r == 0 && end == WATCH_NO_PROGRESS) {
			campaign_say(c, CAMPAIGN_ERROR, "boot %zu %s: the run in %s has no progress file to follow (started by an older bootab?)",
			    k + 1, c->boots[k].label, dir);
			r = -ENOENT;
			break;
		}
		if (r < 0)
			campaign_say(c, CAMPAIGN_WARNING, "boot %zu %s: cannot follow the rows (%s), retrying",
			    k + 1, c->boots[k].label, target_error(c->target));
		/* poll is the reconnect interval after a drop, and only that. */
		for (unsigned i = 0; i < poll * 10 && !campaign_interrupted(c); i++)
			clock_sleep_s(0.1);
		target_drop_connection(c->target);
		if (target_boot_id(c->target, true, 15000, &id) == 0) {
			if (c->progress[k].boot_id && strcmp(id, c->progress[k].boot_id)) {
				campaign_say(c, CAMPAIGN_ERROR, "boot %zu %s: the box rebooted under the rows (boot_id %s); this boot's data is not used",
				    k + 1, c->boots[k].label, id);
				free(id);
				r = -ESTALE;
				break;
			}
			free(id);
		}
		if (clock_now_s() > deadline_at) {
			campaign_say(c, CAMPAIGN_ERROR, "boot %zu %s: the rows did not finish within %.0f s", k + 1,
			    c->boots[k].label, rows_deadline_s(&c->plan));
			r = -ETIMEDOUT;
			break;
		}
	}
	if (r == 0 && carried) {
		*ret_fetch_fd = fetch_fd;
		fetch_fd = -1;
	}
	if (fetch_fd >= 0)
		close(fetch_fd);
	free(dir);
	return r;
}
