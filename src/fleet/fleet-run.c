#include "fleet/fleet-run.h"

#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fleet/fleet.h"
#include "campaign/campaign.h"
#include "campaign/journal.h"
#include "plan/plan.h"
#include "lib/alloc.h"
#include "lib/clock.h"
#include "lib/file.h"
#include "lib/lockfile.h"
#include "lib/strbuf.h"

/*
 * Format 2 keeps the boxes' directories under box/, where no name of a box
 * can be one of the fleet's own files (boxes, plan.ini, report.txt ...);
 * format 1 kept them beside those files, and is still resumed.
 */
#define BOXES_HEADER "bootab-fleet 2"
#define BOXES_HEADER_1 "bootab-fleet 1"
#define BOXES_SUBDIR "box"
#define BOXES_MAX_BYTES (1 << 20)

/* A box's exit status from its process. */
enum { BOX_EXIT_FINISHED = 0, BOX_EXIT_STOPPED = 1, BOX_EXIT_FAILED = 2 };

struct fleet_state {
	const struct fleet_run_options *o;
	struct fleet_run_result *res;
	/*
	 * Each box's process, 0 when none runs. Held here, in memory, so that
	 * a box's process, which exits deep in a campaign, still reaches it
	 * (the leak checkers of ASan and valgrind look for such a pointer).
	 */
	pid_t *pids;
	bool boxes_at_top;      /* a format 1 fleet: FLEET/NAME, not FLEET/box/NAME */
};

/* The directory of box name in the fleet. */
static char *box_dir_of(const struct fleet_state *s, const char *name)
{
	if (s->boxes_at_top)
		return path_join(s->res->dir, name);
	return xasprintf("%s/" BOXES_SUBDIR "/%s", s->res->dir, name);
}

static void say(const struct fleet_state *s, enum campaign_level level, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void say(const struct fleet_state *s, enum campaign_level level, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	if (!s->o->say)
		return;
	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	s->o->say(s->o->say_ctx, NULL, level, strbuf_str(&sb));
	strbuf_release(&sb);
}

bool fleet_dir_is(const char *dir)
{
	char *path = path_join(dir, "boxes");
	bool is = path_exists(path);

	free(path);
	return is;
}

/* The boxes file: the header, then "NAME DESTINATION" a line. */
static int boxes_write(const char *dir, const struct fleet *fleet)
{
	struct strbuf sb = STRBUF_INIT;
	char *path = path_join(dir, "boxes");
	int r;

	strbuf_addstr(&sb, BOXES_HEADER "\n");
	for (size_t i = 0; i < fleet->n; i++)
		strbuf_addf(&sb, "%s %s\n", fleet->boxes[i].name, fleet->boxes[i].destination);
	r = file_write_atomic(path, sb.buf, sb.len, 0644);
	strbuf_release(&sb);
	free(path);
	return r;
}

static int boxes_read(struct fleet_state *s, const char *dir, struct fleet *ret)
{
	char *path = path_join(dir, "boxes"), *data;
	struct fleet fleet = { 0 };
	unsigned line = 0;
	size_t len, alloc = 0;
	int r = file_read(path, BOXES_MAX_BYTES, &data, &len);

	if (r < 0) {
		say(s, CAMPAIGN_ERROR, "cannot read %s: %s", path, strerror(-r));
		free(path);
		return r;
	}
	for (char *p = data, *nl; *p; p = nl + 1) {
		char *space;

		nl = strchr(p, '\n');
		line++;
		if (!nl) {
			r = -EINVAL;
			break;
		}
		*nl = '\0';
		if (line == 1) {
			if (strcmp(p, BOXES_HEADER) && strcmp(p, BOXES_HEADER_1)) {
				r = -EINVAL;
				break;
			}
			s->boxes_at_top = !strcmp(p, BOXES_HEADER_1);
			continue;
		}
		space = strchr(p, ' ');
		if (!space) {
			r = -EINVAL;
			break;
		}
		*space = '\0';
		if (!plan_group_name_valid(p) || !space[1]) {
			r = -EINVAL;
			break;
		}
		GROW(fleet.boxes, alloc, fleet.n + 1);
		fleet.boxes[fleet.n].name = xstrdup(p);
		fleet.boxes[fleet.n].destination = xstrdup(space + 1);
		fleet.boxes[fleet.n].line = line;
		fleet.n++;
	}
	if (r == 0 && fleet.n < 2)
		r = -EINVAL;
	if (r < 0) {
		say(s, CAMPAIGN_ERROR, "%s:%u: not a fleet's list of boxes (%s, then NAME DESTINATION a line)", path, line,
		    BOXES_HEADER);
		fleet_release(&fleet);
	} else {
		*ret = fleet;
	}
	free(data);
	free(path);
	return r;
}

/*
 * The campaign directory of a box: the one directory in NAME/ that holds a
 * journal. Returns 0 and *ret_dir (NULL when the box's campaign never
 * started), -EINVAL when there are several.
 */
static int box_campaign_dir(const struct fleet_state *s, const char *box_dir, char **ret_dir)
{
	char **names = NULL, *found = NULL;
	size_t n = 0;
	int r = dir_list(box_dir, &names, &n);

	*ret_dir = NULL;
	if (r == -ENOENT)
		return 0;
	if (r < 0)
		return r;
	for (size_t i = 0; i < n && r == 0; i++) {
		char *dir = path_join(box_dir, names[i]), *journal = path_join(dir, "journal");

		if (path_is_dir(dir) && path_exists(journal)) {
			if (found) {
				say(s, CAMPAIGN_ERROR, "%s holds two campaigns (%s and %s): a box has one in a fleet", box_dir,
				    found, dir);
				r = -EINVAL;
			} else {
				found = dir;
				dir = NULL;
			}
		}
		free(dir);
		free(journal);
	}
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
	if (r < 0) {
		free(found);
		return r;
	}
	*ret_dir = found;
	return 0;
}

static bool campaign_finished(const char *dir)
{
	struct parse_error err = PARSE_ERROR_INIT;
	struct journal j;
	char *path = path_join(dir, "journal");
	bool finished = false;

	if (journal_read(path, &j, &err) == 0) {
		finished = j.n_lines && !strcmp(j.lines[j.n_lines - 1], "finished");
		journal_release(&j);
	}
	parse_error_release(&err);
	free(path);
	return finished;
}

/* In the box's process: its campaign's lines carry its name. */
struct box_say {
	const struct fleet_run_options *o;
	const char *box;
};

static void box_say_line(void *ctx, enum campaign_level level, const char *line)
{
	const struct box_say *b = ctx;

	if (b->o->say)
		b->o->say(b->o->say_ctx, b->box, level, line);
}

/* The box's process: its campaign, new or resumed; never returns. It frees the three paths. */
static void __attribute__((noreturn)) box_process(const struct fleet_state *s, const struct fleet_box *box,
						  struct campaign_options *co, char *box_dir, char *plan_path,
						  char *campaign_dir)
{
	struct box_say bs = { .o = s->o, .box = box->name };
	struct campaign_result res;
	char *dir = NULL;
	int r, code;

	co->say = box_say_line;
	co->say_ctx = &bs;
	co->plan_path = campaign_dir ? NULL : plan_path;
	co->resume_dir = campaign_dir;
	co->data_dir = campaign_dir ? NULL : box_dir;
	co->dry_run = false;
	r = campaign_run(co, &res);
	/*
	 * A box that is its own controller (target = local, in tests a tree)
	 * ends the run at each reboot; continue it after the boot, as its
	 * resume unit would.
	 */
	for (unsigned k = 0; res.rebooting && k < 1000; k++) {
		free(dir);
		dir = xstrdup(res.dir);
		campaign_result_release(&res);
		if (co->interrupted)
			*co->interrupted = 0;
		co->plan_path = NULL;
		co->resume_dir = dir;
		co->data_dir = NULL;
		r = campaign_run(co, &res);
	}
	code = res.finished ? BOX_EXIT_FINISHED : res.resumable || r == -EINTR ? BOX_EXIT_STOPPED : BOX_EXIT_FAILED;
	campaign_result_release(&res);
	free(dir);
	free(box_dir);
	free(plan_path);
	free(campaign_dir);
	fflush(NULL);
	exit(code);
}

/* The box's plan: the fleet plan with the box as its one target. */
static int write_box_plan(const char *fleet_plan_path, const char *destination,
			  const char *path)
{
	struct parse_error err = PARSE_ERROR_INIT;
	struct plan p;
	char *text;
	int r = plan_load(fleet_plan_path, &p, &err);

	parse_error_release(&err);
	if (r < 0)
		return r;
	strlist_release(&p.targets);
	free(p.inventory);
	p.inventory = NULL;
	free(p.group);
	p.group = NULL;
	p.box_timeout_s = 0;
	free(p.target);
	p.target = xstrdup(destination);
	text = plan_format(&p);
	r = file_write_atomic(path, text, strlen(text), 0644);
	free(text);
	plan_release(&p);
	return r;
}

static void result_init(struct fleet_run_result *res, const struct fleet *fleet)
{
	res->n_boxes = fleet->n;
	res->box_names = xcalloc(fleet->n, sizeof(*res->box_names));
	res->outcomes = xcalloc(fleet->n, sizeof(*res->outcomes));
	for (size_t i = 0; i < fleet->n; i++) {
		res->box_names[i] = xstrdup(fleet->boxes[i].name);
		res->outcomes[i] = FLEET_BOX_FAILED;
	}
}

/* The pooled report's three files, each replaced whole (report.txt is the one printed). */
static const char *const report_files[3] = { "report.txt", "report.md", "report.json" };

static int write_report_files(struct fleet_state *s, char *const text[3], const size_t len[3])
{
	int r = 0;

	for (size_t k = 0; k < 3 && r == 0; k++) {
		char *path = path_join(s->res->dir, report_files[k]);

		r = file_write_atomic(path, text[k], len[k], 0644);
		if (r < 0)
			say(s, CAMPAIGN_ERROR, "cannot write %s: %s", path, strerror(-r));
		else if (k == 0)
			s->res->report_path = xstrdup(path);
		free(path);
	}
	return r;
}

/* The pooled report of the finished boxes, into report.txt, report.md and report.json. */
static int write_pooled_report(struct fleet_state *s, const struct fleet *fleet)
{
	const char **dirs = xcalloc(fleet->n, sizeof(*dirs)), **names = xcalloc(fleet->n, sizeof(*names));
	char **owned = xcalloc(fleet->n, sizeof(*owned));
	struct campaign_options co = *s->o->box_options;
	struct box_say bs = { .o = s->o, .box = NULL };
	char *text[3] = { NULL, NULL, NULL };
	size_t n = 0, len[3] = { 0, 0, 0 };
	FILE *streams[3] = { NULL, NULL, NULL };
	int r = 0;

	for (size_t i = 0; i < fleet->n; i++) {
		char *box_dir = box_dir_of(s, fleet->boxes[i].name);

		if (s->res->outcomes[i] == FLEET_BOX_FINISHED && box_campaign_dir(s, box_dir, &owned[i]) == 0 && owned[i]) {
			names[n] = fleet->boxes[i].name;
			dirs[n++] = owned[i];
		}
		free(box_dir);
	}
	if (n < 2) {
		say(s, CAMPAIGN_WARNING, "no pooled report: %zu of %zu boxes finished, and pooling takes two", n, fleet->n);
		goto out;
	}
	co.say = box_say_line;
	co.say_ctx = &bs;
	for (size_t k = 0; k < 3; k++) {
		streams[k] = open_memstream(&text[k], &len[k]);
		if (!streams[k])
			r = -errno;
	}
	if (r == 0) {
		struct fleet_report_out out = { .txt = streams[0], .md = streams[1], .json = streams[2] };

		r = campaign_fleet_report(dirs, names, n, &co, &out);
	}
	for (size_t k = 0; k < 3; k++)
		if (streams[k] && fclose(streams[k]) != 0 && r == 0)
			r = -EIO;
	if (r == 0)
		r = write_report_files(s, text, len);
out:
	for (size_t i = 0; i < fleet->n; i++)
		free(owned[i]);
	for (size_t k = 0; k < 3; k++)
		free(text[k]);
	free(owned);
	free(dirs);
	free(names);
	return r;
}

static const char *outcome_words(enum fleet_box_outcome o)
{
	return o == FLEET_BOX_FINISHED ? "campaign finished" : o == FLEET_BOX_STOPPED ? "campaign stopped (resumable)"
									   : "campaign stopped on a problem";
}

/* A new fleet: its boxes resolved from the plan, its directory with a copy of the plan and the boxes. */
static int fleet_create(struct fleet_state *s, const char *plan_path, const struct plan *plan, struct fleet *fleet)
{
	const char *data = s->o->data_dir ? s->o->data_dir : plan->data_dir ? plan->data_dir : "runs";
	struct parse_error err = PARSE_ERROR_INIT;
	char *name, *text;
	size_t len;
	int r;

	r = fleet_from_plan(plan, fleet, &err);
	if (r < 0) {
		char *msg = parse_error_format(&err);

		say(s, CAMPAIGN_ERROR, "%s", msg);
		free(msg);
		parse_error_release(&err);
		return -EINVAL;
	}
	/* Taken before anything is written: a fleet started in the same second from a plan of this name gets another. */
	name = campaign_name_for(plan_path);
	r = dir_create_new(data, name, 0755, &s->res->dir, NULL);
	if (r < 0) {
		say(s, CAMPAIGN_ERROR, "cannot create a fleet directory %s/%s: %s", data, name, strerror(-r));
		free(name);
		parse_error_release(&err);
		return r;
	}
	free(name);
	r = file_read(plan_path, 1 << 20, &text, &len);
	if (r == 0) {
		char *copy = path_join(s->res->dir, "plan.ini");

		r = file_write_atomic(copy, text, len, 0644);
		free(copy);
		free(text);
	}
	if (r == 0)
		r = boxes_write(s->res->dir, fleet);
	if (r < 0)
		say(s, CAMPAIGN_ERROR, "cannot create the fleet directory %s: %s", s->res->dir, strerror(-r));
	parse_error_release(&err);
	return r;
}

/*
 * Box i's campaign: none when it finished before, else its plan written
 * (once) and its campaign started in a process of its own (*pid, counted
 * in *running). What fails is said; the other boxes go on.
 */
static void start_box(struct fleet_state *s, const struct fleet *fleet, size_t i, const char *plan_path,
		      int lock_fd, pid_t *pids, size_t *running)
{
	const struct fleet_box *box = &fleet->boxes[i];
	struct campaign_options co = *s->o->box_options;
	char *box_dir = box_dir_of(s, box->name), *box_plan = xasprintf("%s/%s.ini", box_dir, box->name);
	char *campaign_dir = NULL;
	bool local = false;
	int r;

	if (s->o->box_setup)
		s->o->box_setup(s->o->box_setup_ctx, box->name, &co, &local);
	r = box_campaign_dir(s, box_dir, &campaign_dir);
	if (r == 0 && campaign_dir && campaign_finished(campaign_dir)) {
		say(s, CAMPAIGN_INFO, "%s: campaign finished before, in %s", box->name, campaign_dir);
		s->res->outcomes[i] = FLEET_BOX_FINISHED;
		pids[i] = 0;
	} else if (r == 0) {
		if (!path_exists(box_plan)) {
			r = dir_create_all(box_dir, 0755);
			if (r == 0)
				r = write_box_plan(plan_path, local ? "local" : box->destination, box_plan);
			if (r < 0)
				say(s, CAMPAIGN_ERROR, "%s: cannot write %s: %s", box->name, box_plan, strerror(-r));
		}
		if (r == 0) {
			pid_t pid;

			fflush(NULL);
			pid = fork();
			if (pid == 0) {
				if (lock_fd >= 0)
					close(lock_fd);
				box_process(s, box, &co, box_dir, box_plan, campaign_dir);
			}
			if (pid < 0) {
				r = -errno;
				say(s, CAMPAIGN_ERROR, "%s: cannot start its campaign: %s", box->name, strerror(-r));
			} else {
				pids[i] = pid;
				(*running)++;
			}
		}
	}
	free(campaign_dir);
	free(box_plan);
	free(box_dir);
}

/* How long a box stopped for its box_timeout has to end at its next safe point before it is killed. */
#define BOX_KILL_GRACE_S 60

/* Records how box i's process ended, and says so. */
static void box_ended(struct fleet_state *s, const struct fleet *fleet, size_t i, int status)
{
	if (WIFEXITED(status) && WEXITSTATUS(status) == BOX_EXIT_FINISHED)
		s->res->outcomes[i] = FLEET_BOX_FINISHED;
	else if (WIFEXITED(status) && WEXITSTATUS(status) == BOX_EXIT_STOPPED)
		s->res->outcomes[i] = FLEET_BOX_STOPPED;
	else
		s->res->outcomes[i] = FLEET_BOX_FAILED;
	if (WIFSIGNALED(status))
		say(s, CAMPAIGN_ERROR, "%s: its campaign ended on signal %d", fleet->boxes[i].name, WTERMSIG(status));
	else
		say(s, s->res->outcomes[i] == FLEET_BOX_FINISHED ? CAMPAIGN_INFO : CAMPAIGN_ERROR, "%s: %s",
		    fleet->boxes[i].name, outcome_words(s->res->outcomes[i]));
}

/*
 * box_timeout: a box still running timeout_s after the boxes started is
 * told to stop (SIGTERM: it stops at its next safe point, resumable), and
 * one that has not ended BOX_KILL_GRACE_S later is killed. *stage: 0
 * before, 1 once told, 2 once killed.
 */
static void bound_boxes(struct fleet_state *s, const struct fleet *fleet, const pid_t *pids, unsigned timeout_s,
			double started, int *stage, double *told_at)
{
	double now = clock_now_s();

	if (*stage == 0 && now >= started + timeout_s) {
		*stage = 1;
		*told_at = now;
		for (size_t i = 0; i < fleet->n; i++)
			if (pids[i] > 0) {
				say(s, CAMPAIGN_ERROR, "%s: its campaign has not ended within box_timeout (%u s): stopping it",
				    fleet->boxes[i].name, timeout_s);
				kill(pids[i], SIGTERM);
			}
	} else if (*stage == 1 && now >= *told_at + BOX_KILL_GRACE_S) {
		*stage = 2;
		for (size_t i = 0; i < fleet->n; i++)
			if (pids[i] > 0) {
				say(s, CAMPAIGN_ERROR, "%s: its campaign did not stop within %d s of being told: killing it",
				    fleet->boxes[i].name, BOX_KILL_GRACE_S);
				kill(pids[i], SIGKILL);
			}
	}
}

/*
 * Waits for every box's campaign, passing a SIGTERM on once, bounding the
 * boxes by timeout_s (0: no bound), and records how each ended.
 */
static void wait_boxes(struct fleet_state *s, const struct fleet *fleet, pid_t *pids, size_t running,
		       unsigned timeout_s)
{
	double started = clock_now_s(), told_at = 0;
	bool forwarded = false;
	int stage = 0;

	while (running) {
		int status;
		pid_t pid = waitpid(-1, &status, timeout_s ? WNOHANG : 0);

		/*
		 * Ctrl-C reaches every box through the terminal; a SIGTERM to
		 * bootab alone is passed on, so each box stops at its next safe
		 * point.
		 */
		if (s->o->box_options->interrupted && *s->o->box_options->interrupted && !forwarded) {
			forwarded = true;
			for (size_t i = 0; i < fleet->n; i++)
				if (pids[i] > 0)
					kill(pids[i], SIGTERM);
		}
		if (pid < 0) {
			if (errno != EINTR)
				break;
			continue;
		}
		if (pid == 0) {
			bound_boxes(s, fleet, pids, timeout_s, started, &stage, &told_at);
			clock_sleep_s(0.2);
			continue;
		}
		for (size_t i = 0; i < fleet->n; i++) {
			if (pids[i] != pid)
				continue;
			pids[i] = 0;
			running--;
			box_ended(s, fleet, i, status);
		}
	}
}

int fleet_run(const struct fleet_run_options *o, struct fleet_run_result *ret)
{
	struct fleet_state s = { .o = o, .res = ret };
	struct parse_error err = PARSE_ERROR_INIT;
	struct fleet fleet = { 0 };
	struct plan plan = { 0 };
	const char *plan_path = o->plan_path;
	char *resume_plan = NULL, *held = NULL;
	pid_t *pids = NULL;
	size_t running = 0;
	int r, lock_fd = -1;

	memset(ret, 0, sizeof(*ret));
	if (o->resume_dir) {
		ret->dir = xstrdup(o->resume_dir);
		resume_plan = path_join(ret->dir, "plan.ini");
		plan_path = resume_plan;
	}
	r = plan_load(plan_path, &plan, &err);
	if (r < 0) {
		char *msg = parse_error_format(&err);

		say(&s, CAMPAIGN_ERROR, "%s", msg);
		free(msg);
		r = -EINVAL;
		goto out;
	}
	if (!plan_is_fleet(&plan)) {
		say(&s, CAMPAIGN_ERROR, "%s: [campaign] names no fleet (targets or inventory)", plan_path);
		r = -EINVAL;
		goto out;
	}
	if (o->resume_dir) {
		/* The boxes as they were resolved when the fleet started: the inventory may have changed since. */
		r = boxes_read(&s, ret->dir, &fleet);
		if (r < 0)
			goto out;
	} else {
		r = fleet_create(&s, plan_path, &plan, &fleet);
		if (r < 0)
			goto out;
	}
	r = lockfile_take(ret->dir, &lock_fd, &held);
	if (r < 0) {
		if (r == -EBUSY)
			say(&s, CAMPAIGN_ERROR, "the fleet %s is in use by %s: one run at a time", ret->dir, held);
		else
			say(&s, CAMPAIGN_ERROR, "cannot lock the fleet directory %s: %s", ret->dir, strerror(-r));
		free(held);
		goto out;
	}
	result_init(ret, &fleet);
	say(&s, CAMPAIGN_INFO, "fleet %s: %zu boxes side by side, data in %s", plan.file, fleet.n, ret->dir);

	pids = s.pids = xcalloc(fleet.n, sizeof(*pids));
	for (size_t i = 0; i < fleet.n; i++)
		start_box(&s, &fleet, i, plan_path, lock_fd, pids, &running);
	wait_boxes(&s, &fleet, pids, running, plan.box_timeout_s);
	for (size_t i = 0; i < fleet.n; i++)
		ret->n_finished += ret->outcomes[i] == FLEET_BOX_FINISHED;
	r = write_pooled_report(&s, &fleet);
	if (r == 0 && ret->n_finished < fleet.n)
		r = -EAGAIN;
out:
	if (lock_fd >= 0)
		close(lock_fd);
	free(pids);
	free(resume_plan);
	fleet_release(&fleet);
	plan_release(&plan);
	parse_error_release(&err);
	return r;
}

void fleet_run_result_release(struct fleet_run_result *res)
{
	for (size_t i = 0; i < res->n_boxes; i++)
		free(res->box_names[i]);
	free(res->box_names);
	free(res->outcomes);
	free(res->dir);
	free(res->report_path);
	memset(res, 0, sizeof(*res));
}
