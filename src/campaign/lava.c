#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "campaign/internal.h"
#include "campaign/progress.h"
#include "campaign/runner.h"
#include "lava/lava.h"
#include "kernel/snapshot.h"
#include "lib/alloc.h"
#include "lib/clock.h"
#include "lib/escape.h"
#include "lib/file.h"
#include "lib/process.h"
#include "lib/strbuf.h"
#include "lib/strvec.h"
#include "results/fetch.h"
#include "target/target.h"
#include "target/verify-boot.h"

/* A LAVA API token: letters and digits (lava-server's tokens are). */
static bool token_valid(const char *t)
{
	size_t n = strlen(t);

	if (n < 8 || n > 256)
		return false;
	for (; *t; t++)
		if (!isalnum((unsigned char)*t))
			return false;
	return true;
}

/* The token from token_file (a regular file of ours, mode 0600 or stricter) or token_env. */
static int read_token(struct campaign *c)
{
	const struct plan_lava *l = &c->plan.lava;
	char *data = NULL;
	size_t len;
	struct stat st;
	int fd, r;

	if (l->token_env) {
		const char *v = getenv(l->token_env);

		if (!v || !token_valid(v)) {
			campaign_say(c, CAMPAIGN_ERROR, "[lava] token_env: $%s %s", l->token_env,
				     v ? "is not a LAVA API token (8-256 letters and digits)" : "is not set");
			return -EINVAL;
		}
		c->lava_token = xstrdup(v);
		return 0;
	}
	/*
	 * A FIFO or a device would block open() itself (a FIFO waits for a
	 * writer): refused before it is opened, and opened without waiting
	 * should it be swapped in between.
	 */
	if (lstat(l->token_file, &st) == 0 && !S_ISREG(st.st_mode)) {
		campaign_say(c, CAMPAIGN_ERROR, "[lava] token_file: %s is not a regular file (a FIFO, a device, a link or a directory)",
			     l->token_file);
		return -EINVAL;
	}
	fd = open(l->token_file, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
	if (fd < 0 || fstat(fd, &st) < 0) {
		r = -errno;
		campaign_say(c, CAMPAIGN_ERROR, "[lava] token_file: cannot open %s: %s", l->token_file, strerror(-r));
		if (fd >= 0)
			close(fd);
		return r;
	}
	close(fd);
	if (!S_ISREG(st.st_mode) || st.st_uid != geteuid() || (st.st_mode & 077)) {
		campaign_say(c, CAMPAIGN_ERROR, "[lava] token_file: %s must be a regular file of yours that only you can read (mode 0600), not mode %04o of uid %u",
			     l->token_file, (unsigned)(st.st_mode & 07777), (unsigned)st.st_uid);
		return -EPERM;
	}
	r = file_read(l->token_file, 4096, &data, &len);
	if (r < 0) {
		campaign_say(c, CAMPAIGN_ERROR, "[lava] token_file: cannot read %s: %s", l->token_file, strerror(-r));
		return r;
	}
	while (len > 0 && (data[len - 1] == '\n' || data[len - 1] == '\r' || data[len - 1] == ' '))
		data[--len] = '\0';
	if (!token_valid(data)) {
		campaign_say(c, CAMPAIGN_ERROR, "[lava] token_file: %s does not hold a LAVA API token (8-256 letters and digits)",
			     l->token_file);
		free(data);
		return -EINVAL;
	}
	c->lava_token = data;
	return 0;
}

int lava_setup(struct campaign *c)
{
	char *dir = path_join(c->dir, "lava");
	int r = read_token(c);

	if (r == 0 && (r = dir_create_all(dir, 0700)) < 0) {
		campaign_say(c, CAMPAIGN_ERROR, "cannot create %s: %s", dir, strerror(-r));
		c->res->data_error = true;
	}
	free(dir);
	if (r == 0)
		campaign_say(c, CAMPAIGN_INFO, "campaign %s: %zu boots as LAVA jobs on %s (device %s%s%s), data in %s", c->name,
			     c->n_boots, c->plan.lava.url, c->plan.lava.device ? c->plan.lava.device : "any",
			     c->plan.lava.tags.n ? ", tags " : "", c->plan.lava.tags.n ? c->plan.lava.tags.items[0] : "",
			     c->dir);
	return r;
}

/* The boot's files of LAVA: the campaign's lava/LABEL/NAME; the caller's. */
static char *boot_file(const struct campaign *c, size_t k, const char *name)
{
	return xasprintf("%s/lava/%s/%s", c->dir, c->boots[k].label, name);
}

/*
 * One request to the API through curl (a child with an argv, no shell):
 * the token goes in the Authorization header of a config curl reads from
 * its stdin (-K -), never in argv or a file. The answer's body is written
 * to out (temp file + rename). Returns 0 with the HTTP status in
 * *ret_status, or -errno (said, with curl's message).
 */
static int api_request(struct campaign *c, size_t k, const char *path, const char *post_file, const char *out,
		       long *ret_status)
{
	char *url = xasprintf("%s/api/v0.2/%s", c->plan.lava.url, path);
	char *config = xasprintf("header = \"Authorization: Token %s\"\n", c->lava_token);
	char *tmp = xasprintf("%s.tmp-XXXXXX", out), *end;
	struct strvec argv = STRVEC_INIT;
	struct process_result res;
	int fd, r;

	fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0) {
		r = -errno;
		campaign_say(c, CAMPAIGN_ERROR, "boot %zu %s: cannot create %s: %s", k + 1, c->boots[k].label, tmp,
			     strerror(-r));
		goto out;
	}
	close(fd);
	strvec_push_all(&argv, (const char *const[]){ "curl", "-q", "-sS", "-K", "-", "--connect-timeout", "20",
						       "--max-time", "600", "-o", tmp, "-w", "%{http_code}", NULL });
	if (post_file) {
		char *at = xasprintf("@%s", post_file);

		strvec_push_all(&argv, (const char *const[]){ "-H", "Content-Type: application/json", "--data-binary", at, NULL });
		free(at);
	}
	strvec_push(&argv, url);
	r = process_run(strvec_argv(&argv), &(struct process_options){ .stdin_data = config, .stdin_len = strlen(config),
									.timeout_ms = 660000 }, &res);
	if (r < 0) {
		campaign_say(c, CAMPAIGN_ERROR, "boot %zu %s: cannot run curl: %s", k + 1, c->boots[k].label, strerror(-r));
		goto out;
	}
	if (res.exit_code != 0) {
		char *why = text_escape(res.err);

		campaign_say(c, CAMPAIGN_ERROR, "boot %zu %s: %s %s failed (curl exit %d): %.*s", k + 1, c->boots[k].label,
			     post_file ? "POST" : "GET", url, res.exit_code, (int)strcspn(why, "\n"), why);
		free(why);
		process_result_release(&res);
		r = -EHOSTUNREACH;
		goto out;
	}
	*ret_status = strtol(res.out, &end, 10);
	process_result_release(&res);
	r = file_rename(tmp, out);
	if (r < 0)
		campaign_say(c, CAMPAIGN_ERROR, "boot %zu %s: cannot write %s: %s", k + 1, c->boots[k].label, out,
			     strerror(-r));
out:
	if (fd >= 0 && r < 0)
		unlink(tmp);
	strvec_release(&argv);
	free(tmp);
	/* The token is not left in freed memory. */
	explicit_bzero(config, strlen(config));
	free(config);
	free(url);
	return r;
}

/* api_request() into the boot's file name, read back; an HTTP status other than 2xx is an error, said. */
static int api_get(struct campaign *c, size_t k, const char *path, const char *post_file, const char *name,
		   char **ret_data, size_t *ret_len)
{
	char *file = boot_file(c, k, name), *data;
	long status = 0;
	size_t len;
	int r = api_request(c, k, path, post_file, file, &status);

	if (r == 0 && (r = file_read(file, (size_t)1 << 30, &data, &len)) < 0)
		campaign_say(c, CAMPAIGN_ERROR, "boot %zu %s: cannot read %s: %s", k + 1, c->boots[k].label, file,
			     strerror(-r));
	if (r == 0 && (status < 200 || status > 299)) {
		char *why = text_escape(data);

		campaign_say(c, CAMPAIGN_ERROR, "boot %zu %s: LAVA answered %s with HTTP %ld: %.200s (in %s)", k + 1,
			     c->boots[k].label, path, status, why, file);
		free(why);
		free(data);
		r = -EPROTO;
	}
	if (r == 0) {
		*ret_data = data;
		*ret_len = len;
	}
	free(file);
	return r;
}

/* The boot's job name, as its definition gives it and the resume looks it up by. */
static char *job_name(const struct campaign *c, size_t k)
{
	return xasprintf("bootab %s boot %zu/%zu %s", c->name, k + 1, c->n_boots, c->boots[k].label);
}

static struct lava_boot boot_of(const struct campaign *c, size_t k, struct strvec *words)
{
	const struct plan_mode *m = &c->plan.modes[c->boots[k].mode];

	verify_boot_snapshot_args(&(struct verify_boot_request){ .managed = c->managed, .asked = m->args }, words);
	return (struct lava_boot){
		.campaign = c->name, .boot_index = k, .n_boots = c->n_boots, .label = c->boots[k].label,
		.mode = m->name, .args = m->args, .snapshot_args = strvec_argv(words),
		.fetch_limit = FETCH_FILE_LIMIT,
	};
}

/*
 * A job of this boot that an earlier run submitted and did not journal
 * (it stopped between the answer and the journal line): looked up by the
 * job's name. Returns 0 and *ret_id (0: none), or -errno (said).
 */
static int find_submitted(struct campaign *c, size_t k, long *ret_id)
{
	char *name = job_name(c, k), *path, *data = NULL;
	struct strbuf q = STRBUF_INIT;
	size_t len;
	json_t *root = NULL, *results;
	int r;

	for (const char *p = name; *p; p++) {
		if (isalnum((unsigned char)*p) || strchr("-._", *p))
			strbuf_addch(&q, *p);
		else
			strbuf_addf(&q, "%%%02X", (unsigned char)*p);
	}
	path = xasprintf("jobs/?description=%s&ordering=-id", strbuf_str(&q));
	r = api_get(c, k, path, NULL, "lookup.json", &data, &len);
	*ret_id = 0;
	if (r == 0) {
		root = json_loadb(data, len, 0, NULL);
		results = json_object_get(root, "results");
		for (size_t i = 0; i < json_array_size(results); i++) {
			json_int_t id = json_integer_value(json_object_get(json_array_get(results, i), "id"));

			if (id > *ret_id)
				*ret_id = (long)id;
		}
		if (!json_is_array(results)) {
			campaign_say(c, CAMPAIGN_ERROR, "boot %zu %s: LAVA's job list is not one (no results)", k + 1,
				     c->boots[k].label);
			r = -EPROTO;
		}
	}
	json_decref(root);
	free(data);
	free(path);
	strbuf_release(&q);
	free(name);
	return r;
}

char *lava_campaign_job(struct campaign *c, size_t k)
{
	struct strvec words = STRVEC_INIT;
	struct lava_boot b = boot_of(c, k, &words);
	struct runner_options ro = {
		.campaign = b.campaign, .boot_index = k, .n_boots = b.n_boots, .label = b.label,
		.mode = b.mode, .park = k == 0, .unpark = k + 1 == c->n_boots,
	};
	char *runner = runner_generate(&c->plan, &ro), *def;

	b.runner = runner;
	def = lava_job_definition(&c->plan, &b);
	free(runner);
	strvec_release(&words);
	return def;
}

/* Writes the boot's job definition and submits it; the job id is journalled before anything waits on it. */
static int submit(struct campaign *c, size_t k)
{
	char *def = lava_campaign_job(c, k), *dir = xasprintf("%s/lava/%s", c->dir, c->boots[k].label);
	char *yaml = boot_file(c, k, "job.yaml"), *body_file = boot_file(c, k, "submit.json"), *answer = NULL;
	json_t *body = json_pack("{s:s}", "definition", def);
	char *body_text = json_dumps(body, JSON_COMPACT), *extra;
	struct parse_error err = PARSE_ERROR_INIT;
	size_t len;
	long id = 0;
	int r;

	r = dir_create_all(dir, 0700);
	if (r == 0)
		r = file_write_atomic(yaml, def, strlen(def), 0600);
	if (r == 0)
		r = file_write_atomic(body_file, body_text, strlen(body_text), 0600);
	if (r < 0) {
		campaign_say(c, CAMPAIGN_ERROR, "boot %zu %s: cannot write the job in %s: %s", k + 1, c->boots[k].label,
			     dir, strerror(-r));
		c->res->data_error = true;
		goto out;
	}
	/* "set": a submission may go out from here on; a resume looks for it before submitting again. */
	if (c->progress[k].step < STEP_SET && (r = campaign_journal_step(c, k, STEP_SET, NULL)) < 0)
		goto out;
	r = api_get(c, k, "jobs/", body_file, "submitted.json", &answer, &len);
	if (r < 0)
		goto out;
	r = lava_submit_parse(answer, len, &id, &err);
	if (r < 0) {
		char *why = text_escape(err.message);

		campaign_say(c, CAMPAIGN_ERROR, "boot %zu %s: LAVA did not take the job: %s", k + 1, c->boots[k].label, why);
		free(why);
		goto out;
	}
	extra = xasprintf("lava-job:%ld", id);
	r = campaign_journal_step(c, k, STEP_STARTED, extra);
	free(extra);
	c->progress[k].lava_job = id;
	if (r == 0)
		campaign_progress(c, k, "LAVA job %ld submitted (%s/scheduler/job/%ld), its definition in %s", id,
				  c->plan.lava.url, id, yaml);
out:
	parse_error_release(&err);
	free(answer);
	free(body_text);
	json_decref(body);
	free(body_file);
	free(yaml);
	free(dir);
	free(def);
	return r;
}

/*
 * Polls the job until it is Finished; *ret its last state. -EINTR when the
 * campaign is asked to stop; -ETIMEDOUT when the job has not finished
 * within the plan's job_timeout and boot_timeout together (a job left
 * Submitted for want of a device would be polled forever).
 */
static int wait_job(struct campaign *c, size_t k, struct lava_job_status *ret)
{
	long id = c->progress[k].lava_job;
	char *path = xasprintf("jobs/%ld/", id), *last = NULL;
	unsigned bound_s = c->plan.lava.job_timeout_s + c->plan.boot_timeout_s;
	double deadline = clock_now_s() + bound_s;
	int r;

	for (;;) {
		struct parse_error err = PARSE_ERROR_INIT;
		struct lava_job_status st;
		char *data = NULL, *now;
		size_t len;

		r = api_get(c, k, path, NULL, "job.json", &data, &len);
		if (r == 0 && (r = lava_job_status_parse(data, len, &st, &err)) < 0)
			campaign_say(c, CAMPAIGN_ERROR, "boot %zu %s: LAVA's answer for job %ld does not parse: %s", k + 1,
				     c->boots[k].label, id, err.message);
		free(data);
		parse_error_release(&err);
		if (r < 0)
			break;
		now = xasprintf("%s %s", st.state, st.actual_device ? st.actual_device : "");
		if (!last || strcmp(last, now)) {
			char *dev = st.actual_device ? text_escape(st.actual_device) : NULL, *state = text_escape(st.state);

			campaign_progress(c, k, "LAVA job %ld: %s%s%s", id, state, dev ? " on " : "", dev ? dev : "");
			free(dev);
			free(state);
		}
		free(last);
		last = now;
		if (!strcmp(st.state, "Finished")) {
			*ret = st;
			break;
		}
		if (clock_now_s() >= deadline) {
			char *state = text_escape(st.state);

			campaign_say(c, CAMPAIGN_ERROR,
				     "boot %zu %s: LAVA job %ld is still %s after %u s (job_timeout and boot_timeout): "
				     "stopping; --resume waits for it again (its page: %s/scheduler/job/%ld)",
				     k + 1, c->boots[k].label, id, state, bound_s, c->plan.lava.url, id);
			free(state);
			lava_job_status_release(&st);
			r = -ETIMEDOUT;
			break;
		}
		lava_job_status_release(&st);
		for (unsigned s = 0; s < c->plan.lava.poll_s && !campaign_interrupted(c) && clock_now_s() < deadline; s++)
			sleep(1);
		if (campaign_interrupted(c)) {
			campaign_say(c, CAMPAIGN_WARNING, "boot %zu %s: stopping; LAVA job %ld goes on, and --resume waits for it",
				     k + 1, c->boots[k].label, id);
			r = -EINTR;
			break;
		}
	}
	free(last);
	free(path);
	return r;
}

/* A job that did not complete, or ran elsewhere: a failed boot with LAVA's reason in one line. */
static int job_failed(struct campaign *c, size_t k, const struct lava_job_status *st)
{
	const char *want = c->plan.lava.device;
	char *health = text_escape(st->health), *why;

	if (!strcmp(st->health, "Complete") && (!want || (st->actual_device && !strcmp(st->actual_device, want)))) {
		free(health);
		return 0;
	}
	if (!strcmp(st->health, "Complete")) {
		why = xasprintf("it ran on %s, not on the plan's device %s", st->actual_device ? st->actual_device : "no device", want);
	} else {
		char *path = xasprintf("jobs/%ld/logs/", st->id), *log = NULL, *reason = NULL;
		size_t len;

		/* LAVA keeps the reason in the log's lava/job result (failure_comment is often empty). */
		if (api_get(c, k, path, NULL, "log.yaml", &log, &len) == 0 && lava_log_job_error(log, len, &reason) == 0)
			why = text_escape(reason);
		else
			why = st->failure_comment ? text_escape(st->failure_comment) : xstrdup("LAVA gives no reason");
		free(reason);
		free(log);
		free(path);
	}
	for (char *p = why; *p; p++)
		if (*p == '\n')
			*p = ' ';
	campaign_say(c, CAMPAIGN_ERROR, "boot %zu %s: LAVA job %ld ended %s: %s (its log: %s/scheduler/job/%ld)", k + 1,
		     c->boots[k].label, st->id, health, why, c->plan.lava.url, st->id);
	free(why);
	free(health);
	campaign_journal_step(c, k, STEP_FAILED, "lava-job");
	/* A resume boots this boot again: a new job. */
	c->progress[k].lava_job = 0;
	return -EIO;
}

/* The job's log and test results fetched; the files bootab's script printed read out of the log. */
static int fetch_log(struct campaign *c, size_t k, struct lava_files *ret)
{
	long id = c->progress[k].lava_job;
	char *path = xasprintf("jobs/%ld/logs/", id), *log = NULL, *tests = NULL, *file = boot_file(c, k, "log.yaml");
	struct parse_error err = PARSE_ERROR_INIT;
	size_t len;
	int r;

	campaign_progress(c, k, "fetching LAVA job %ld's log and results", id);
	r = api_get(c, k, path, NULL, "log.yaml", &log, &len);
	if (r == 0) {
		free(path);
		path = xasprintf("jobs/%ld/tests/?limit=100000", id);
		/* LAVA's own record of the test cases, kept next to the log. */
		if (api_get(c, k, path, NULL, "tests.json", &tests, &len) < 0)
			campaign_say(c, CAMPAIGN_WARNING, "boot %zu %s: LAVA job %ld's test results not kept, ignoring",
				     k + 1, c->boots[k].label, id);
		r = lava_log_files(log, strlen(log), ret, &err);
		if (r < 0) {
			campaign_say(c, CAMPAIGN_ERROR, "boot %zu %s: %s:%u: %s", k + 1, c->boots[k].label, file, err.line,
				     err.message);
			campaign_journal_step(c, k, STEP_FAILED, "lava-log");
			r = -EIO;
		}
	}
	parse_error_release(&err);
	free(file);
	free(tests);
	free(log);
	free(path);
	return r;
}

/*
 * The snapshot the job's log carries: the snapshot scripts' outputs, each
 * read on its own as target_snapshot() reads them, an error naming the
 * script and its own line; the raw text as snapshot.out keeps it.
 */
static int read_snapshot(struct campaign *c, size_t k, const struct lava_files *files, const char *file,
			 struct snapshot *ret)
{
	struct parse_error err = PARSE_ERROR_INIT;
	struct snapshot_text texts[3];
	size_t n = 0, which = 0, len;
	int r;

	for (; n < 3 && target_snapshot_scripts[n]; n++) {
		const struct lava_file *f = lava_files_find(files, target_snapshot_scripts[n]);

		if (!f) {
			campaign_say(c, CAMPAIGN_ERROR, "boot %zu %s: %s: the job's log carries no %s output", k + 1,
				     c->boots[k].label, file, target_snapshot_scripts[n]);
			return -EIO;
		}
		texts[n] = (struct snapshot_text){ f->data, f->len };
	}
	r = snapshot_parse_scripts(texts, n, ret, &err, &which);
	if (r < 0) {
		campaign_say(c, CAMPAIGN_ERROR, "boot %zu %s: the %s output in %s does not parse: line %u: %s", k + 1,
			     c->boots[k].label, target_snapshot_scripts[which], file, err.line, err.message);
		parse_error_release(&err);
		return -EIO;
	}
	ret->raw = snapshot_join_scripts(texts, n, &len);
	return 0;
}

/* The snapshot the job's log carries, verified here as a reboot's is; then the side written from its fetch. */
static int record(struct campaign *c, size_t k, struct lava_files *files)
{
	struct parse_error err = PARSE_ERROR_INIT;
	struct snapshot got, snap;
	const struct lava_file *stream = lava_files_find(files, "fetch");
	struct fetch f;
	char *summary = NULL, *file = boot_file(c, k, "log.yaml");
	int r;

	r = read_snapshot(c, k, files, file, &got);
	if (r < 0) {
		campaign_journal_step(c, k, STEP_FAILED, "lava-log");
		goto out;
	}
	/* A job of an earlier try of this boot ran on another boot: this one is checked on its own. */
	free(c->progress[k].boot_id);
	c->progress[k].boot_id = NULL;
	r = campaign_verify_snapshot(c, k, &got, &snap, &summary);
	if (r == -EPROTO) {
		campaign_journal_step(c, k, STEP_FAILED, "verify");
		campaign_say(c, CAMPAIGN_ERROR, "boot %zu %s is not the boot asked for (%s): nothing it ran is kept",
			     k + 1, c->boots[k].label, summary);
		snapshot_release(&snap);
		goto out;
	}
	if (r < 0)
		goto out;
	/* The boot the job ran: a side already written for it is this boot's (collect.c). */
	free(c->progress[k].boot_id);
	c->progress[k].boot_id = snap.boot_id ? xstrdup(snap.boot_id) : NULL;
	if ((r = campaign_journal_step(c, k, STEP_VERIFIED, NULL)) < 0) {
		snapshot_release(&snap);
		goto out;
	}
	if (!stream) {
		campaign_say(c, CAMPAIGN_ERROR, "boot %zu %s: %s carries no results of the rows (the test script stopped before its fetch)",
			     k + 1, c->boots[k].label, file);
		r = -EIO;
	} else if ((r = fetch_parse(stream->data, stream->len, &f, &err)) < 0) {
		campaign_say(c, CAMPAIGN_ERROR, "boot %zu %s: the rows' results in %s do not parse: line %u: %s", k + 1,
			     c->boots[k].label, file, err.line, err.message);
	} else {
		r = campaign_write_side(c, k, &snap, summary, &f);
		fetch_release(&f);
	}
	if (r < 0 && r != -EINTR)
		campaign_journal_step(c, k, STEP_FAILED, "lava-results");
	snapshot_release(&snap);
out:
	parse_error_release(&err);
	free(summary);
	free(file);
	return r;
}

int lava_run_boot(struct campaign *c, size_t k)
{
	struct boot_progress *bp = &c->progress[k];
	struct lava_job_status st = { 0 };
	struct lava_files files = { 0 };
	double waited;
	int r;

	if (bp->step < STEP_BEGIN && (r = campaign_journal_step(c, k, STEP_BEGIN, NULL)) < 0)
		return r;
	if (bp->step == STEP_SET && !bp->lava_job) {
		long id;

		/* The last run may have submitted the job without journalling its id. */
		if ((r = find_submitted(c, k, &id)) < 0)
			return r;
		if (id) {
			char *extra = xasprintf("lava-job:%ld", id);

			campaign_progress(c, k, "LAVA job %ld of this boot was submitted before the campaign stopped: waiting for it", id);
			r = campaign_journal_step(c, k, STEP_STARTED, extra);
			free(extra);
			bp->lava_job = id;
			if (r < 0)
				return r;
		}
	}
	if (!bp->lava_job) {
		if (campaign_interrupted(c))
			return -EINTR;
		/* Room for the boot's results, before LAVA boots anything. */
		if ((r = campaign_check_data_dir(c, "before the job is submitted")) < 0)
			return r;
		campaign_progress(c, k, "mode %s (%s): submitting its LAVA job", c->plan.modes[c->boots[k].mode].name,
				  *c->plan.modes[c->boots[k].mode].args_text ? c->plan.modes[c->boots[k].mode].args_text
									     : "standing kernel defaults");
		if ((r = submit(c, k)) < 0)
			return r;
	} else {
		campaign_progress(c, k, "resuming: waiting for LAVA job %ld", bp->lava_job);
	}
	waited = clock_now_s();
	r = wait_job(c, k, &st);
	if (r < 0)
		return r;
	waited = clock_now_s() - waited;
	r = job_failed(c, k, &st);
	if (r == 0)
		r = fetch_log(c, k, &files);
	if (r == 0) {
		double inside = c->res->rows_s + c->res->gate_s;

		r = record(c, k, &files);
		/* The job's time outside its rows and gates: LAVA's deploy, boot and test shell, counted as the reboot. */
		inside = c->res->rows_s + c->res->gate_s - inside;
		if (r == 0 && waited > inside)
			c->res->reboot_s += waited - inside;
	}
	lava_files_release(&files);
	lava_job_status_release(&st);
	return r;
}
