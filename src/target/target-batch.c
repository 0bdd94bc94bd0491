/* batch.sh: the scripts of one session sent as requests on its stdin, each answer read back. */
#include "target/target.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/alloc.h"
#include "lib/clock.h"
#include "lib/strbuf.h"
#include "target/target-internal.h"

/*
 * Batches: the scripts between target_batch_begin() and _end() go to one
 * batch.sh (one session) as requests on its stdin; each is answered
 * before the next is sent, so the caller decides on one's output first.
 */
void target_batch_begin(struct target *t)
{
	t->batch_depth++;
}

/* Ends batch.sh: the end of its stdin ends it; one that does not go within 5 s is stopped. */
void target_batch_stop(struct target *t)
{
	char *line = NULL;
	int r;

	if (t->batch.pid <= 0)
		return;
	process_stream_close_stdin(&t->batch);
	r = process_stream_line(&t->batch, 4096, 5000, &line);
	free(line);
	process_stream_finish(&t->batch, r != 0, NULL);
}

void target_batch_end(struct target *t)
{
	if (t->batch_depth && --t->batch_depth == 0)
		target_batch_stop(t);
}

/* Whether a run can go through the batch: one word per line of the request, text without NUL. */
bool target_batch_fits(const struct target *t, const char *const *args, const char *stdin_data,
		       size_t stdin_len, enum root_method how, bool fresh, int out_fd)
{
	if (!t->batch_depth || t->no_batch || fresh || out_fd >= 0 || how == ROOT_SUDO_PASSWORD)
		return false;
	for (size_t i = 0; args && args[i]; i++)
		if (strchr(args[i], '\n'))
			return false;
	return !stdin_data || !memchr(stdin_data, '\0', stdin_len);
}

/* The batch's session gone or stuck: why, and the batch ended (the next run starts another). */
static int batch_fail(struct target *t, const char *name, int r, int timeout_ms)
{
	char *err = NULL, *why;

	process_stream_finish(&t->batch, true, &err);
	why = target_last_line(err);
	if (r == -ETIMEDOUT) {
		target_set_error(t, "%s on '%s' did not finish within %d s", name, t->spec, timeout_ms / 1000);
	} else if (t->kind == TARGET_SSH) {
		target_set_error(t, "ssh to '%s' failed: %s", t->spec, *why ? why : "connection lost");
		r = -EHOSTUNREACH;
	} else {
		target_set_error(t, "the batch of scripts on '%s' ended: %s", t->spec, *why ? why : "no message");
		r = -EIO;
	}
	free(why);
	free(err);
	return r;
}

static int batch_start(struct target *t)
{
	const char *args[] = { t->shell, NULL };
	char *text = target_script_for(t, "batch", ROOT_UNKNOWN), **argv, *line = NULL;
	int r;

	target_count_session(t, false);
	argv = target_full_argv(t, text, "batch", args, ROOT_UNKNOWN, t->no_master);
	r = process_stream_start_piped((const char *const *)argv, &t->batch);
	strv_free(argv);
	free(text);
	if (r < 0) {
		target_set_error(t, "cannot run %s: %s", t->kind == TARGET_SSH ? "ssh" : t->shell, strerror(-r));
		t->batch.pid = 0;
		return r;
	}
	r = process_stream_line(&t->batch, 4096, (t->connect_timeout_s + 30) * 1000, &line);
	/* 0: no batch on this box (no dd): each script runs in a session of its own from now on. */
	if (r == 1 && !strcmp(line, "bootab-batch 0")) {
		free(line);
		process_stream_finish(&t->batch, false, NULL);
		t->batch.pid = 0;
		t->no_batch = true;
		return -EOPNOTSUPP;
	}
	if (r == 1 && strcmp(line, "bootab-batch 2"))
		r = 0;
	free(line);
	return r == 1 ? 0 : batch_fail(t, "batch", r == -ETIMEDOUT ? -ETIMEDOUT : -EIO,
				       (t->connect_timeout_s + 30) * 1000);
}

/* What is left of timeout_ms (<= 0: no limit, -1) since start. */
static int ms_left(int timeout_ms, double start)
{
	double left = timeout_ms - (clock_now_s() - start) * 1000;

	if (timeout_ms <= 0)
		return -1;
	return left > 0 ? (int)left : 0;
}

/* n bytes of the batch's output, the first PROCESS_OUTPUT_MAX of them kept in *ret. 1 or as process_stream_bytes(). */
static int batch_take(struct target *t, unsigned long long n, int timeout_ms, double start, struct strbuf *ret,
		      bool *ret_truncated)
{
	while (n) {
		size_t chunk = n > ((size_t)1 << 20) ? (size_t)1 << 20 : (size_t)n;
		char *data = NULL;
		int r = process_stream_bytes(&t->batch, chunk, ms_left(timeout_ms, start), &data);

		if (r != 1)
			return r;
		if (ret->len + chunk > PROCESS_OUTPUT_MAX)
			*ret_truncated = true;
		strbuf_add(ret, data, ret->len >= PROCESS_OUTPUT_MAX ? 0 :
				      ret->len + chunk > PROCESS_OUTPUT_MAX ? PROCESS_OUTPUT_MAX - ret->len : chunk);
		free(data);
		n -= chunk;
	}
	return 1;
}

/* One request (op "run" or "bg") into req: its line, the args, then the script and its stdin as bytes. */
static void batch_request(struct strbuf *req, const char *op, const char *text, const char *name,
			  const char *const *args, const char *stdin_data, size_t stdin_len, enum root_method how)
{
	size_t nargs = 0, text_len = strlen(text);

	while (args && args[nargs])
		nargs++;
	strbuf_addf(req, "%s %s %s %zu %zu %zu\n", op, name, how == ROOT_SUDO ? "sudo" : "user", nargs, text_len,
		    stdin_data ? stdin_len : 0);
	for (size_t i = 0; i < nargs; i++)
		strbuf_addf(req, "%s\n", args[i]);
	strbuf_add(req, text, text_len);
	if (stdin_data)
		strbuf_add(req, stdin_data, stdin_len);
}

/* One answer of the batch ("bootab-batch RC OUTSIZE ERRSIZE", stdout, stderr) into *ret: 0, or as batch_fail(). */
static int batch_answer(struct target *t, const char *name, int timeout_ms, double start, struct process_result *ret)
{
	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;
	unsigned long long out_len = 0, err_len = 0;
	bool out_cut = false, err_cut = false;
	char *line = NULL;
	int rc = 0, n = 0, r;

	r = process_stream_line(&t->batch, 4096, ms_left(timeout_ms, start), &line);
	if (r == 1 && (sscanf(line, "bootab-batch %d %llu %llu%n", &rc, &out_len, &err_len, &n) != 3 || line[n]))
		r = -EPROTO;
	free(line);
	if (r == 1)
		r = batch_take(t, out_len, timeout_ms, start, &out, &out_cut);
	if (r == 1)
		r = batch_take(t, err_len, timeout_ms, start, &err, &err_cut);
	if (r != 1) {
		strbuf_release(&out);
		strbuf_release(&err);
		return batch_fail(t, name, r == -ETIMEDOUT ? -ETIMEDOUT : -EIO, timeout_ms);
	}
	memset(ret, 0, sizeof(*ret));
	ret->exit_code = rc;
	ret->out_truncated = out_cut;
	ret->err_truncated = err_cut;
	ret->out = strbuf_detach(&out, &ret->out_len);
	ret->err = strbuf_detach(&err, &ret->err_len);
	return 0;
}

/* One request to the batch and its answer, as run_raw_to() gives it. */
int target_batch_run(struct target *t, const char *text, const char *name, const char *const *args,
		     const char *stdin_data, size_t stdin_len, enum root_method how, int timeout_ms,
		     struct process_result *ret)
{
	struct strbuf req = STRBUF_INIT;
	double start = clock_now_s();
	int r;

	if (t->batch.pid <= 0 && (r = batch_start(t)) < 0)
		return r;
	t->counts.scripts++;
	batch_request(&req, "run", text, name, args, stdin_data, stdin_len, how);
	r = process_stream_write(&t->batch, req.buf, req.len, ms_left(timeout_ms, start));
	strbuf_release(&req);
	if (r < 0)
		return batch_fail(t, name, r == -ETIMEDOUT ? -ETIMEDOUT : -EIO, timeout_ms);
	return batch_answer(t, name, timeout_ms, start, ret);
}

int target_run_scripts(struct target *t, size_t n, const struct target_job *jobs, int timeout_ms,
		       struct process_result *ret)
{
	struct strbuf req = STRBUF_INIT;
	double start = clock_now_s();
	bool together = n > 1;
	size_t done = 0;
	int r = 0;

	for (size_t i = 0; i < n && r == 0; i++)
		r = target_script_runnable(t, jobs[i].name, jobs[i].as_root);
	if (r < 0)
		return r;
	for (size_t i = 0; i < n && together; i++)
		together = target_batch_fits(t, jobs[i].args, NULL, 0, target_method_for(t, jobs[i].as_root), false, -1);
	if (together && t->batch.pid <= 0 && (r = batch_start(t)) < 0) {
		if (r != -EOPNOTSUPP)
			return r;
		together = false;
		r = 0;
	}
	if (!together) {
		for (; done < n; done++) {
			r = target_run_script(t, jobs[done].name, jobs[done].args, NULL, 0, jobs[done].as_root,
					      timeout_ms, &ret[done]);
			if (r < 0)
				break;
		}
		goto out;
	}
	for (size_t i = 0; i < n; i++) {
		enum root_method how = target_method_for(t, jobs[i].as_root);
		char *text = target_script_for(t, jobs[i].name, how);

		batch_request(&req, "bg", text, jobs[i].name, jobs[i].args, NULL, 0, how);
		free(text);
	}
	strbuf_addstr(&req, "join\n");
	t->counts.scripts += n;
	r = process_stream_write(&t->batch, req.buf, req.len, ms_left(timeout_ms, start));
	strbuf_release(&req);
	if (r < 0)
		return batch_fail(t, jobs[0].name, r == -ETIMEDOUT ? -ETIMEDOUT : -EIO, timeout_ms);
	for (; done < n; done++) {
		r = batch_answer(t, jobs[done].name, timeout_ms, start, &ret[done]);
		if (r < 0)
			break;
	}
out:
	if (r < 0)
		for (size_t i = 0; i < done; i++)
			process_result_release(&ret[i]);
	return r;
}
