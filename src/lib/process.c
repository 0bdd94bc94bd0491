#include "lib/process.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "lib/alloc.h"
#include "lib/file.h"
#include "lib/strbuf.h"

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void close_pair(int p[2])
{
	if (p[0] >= 0)
		close(p[0]);
	if (p[1] >= 0)
		close(p[1]);
	p[0] = p[1] = -1;
}

/*
 * In the child between fork and exec only async-signal-safe calls are
 * allowed; errors are reported to the parent through err_pipe.
 */
static void child_exec(const char *const *argv, const struct process_options *o,
		       int in[2], int out[2], int err[2], int err_pipe[2])
{
	int devnull, e;

	setpgid(0, 0);
	signal(SIGPIPE, SIG_DFL);
	devnull = open("/dev/null", O_RDWR);
	if (in[0] >= 0)
		dup2(in[0], 0);
	else if (devnull >= 0)
		dup2(devnull, 0);
	if (o->stdout_to_fd)
		dup2(o->stdout_fd, 1);
	else if (out[1] >= 0)
		dup2(out[1], 1);
	if (err[1] >= 0)
		dup2(err[1], 2);
	if (o->cwd && chdir(o->cwd) < 0)
		goto fail;
	execvp(argv[0], (char *const *)argv);
fail:
	e = errno;
	if (write(err_pipe[1], &e, sizeof(e)) < 0)
		_exit(127);
	_exit(127);
}

/* The parent's ends of the child's pipes and what came out of them. */
struct child_io {
	int in[2], out[2], err[2];
	struct strbuf out_buf, err_buf;
	size_t max, written;
	bool out_truncated, err_truncated;
};

/* Appends n bytes of buf to sb, keeping at most max bytes in all. */
static void keep_output(struct strbuf *sb, const char *buf, size_t n, size_t max, bool *truncated)
{
	size_t keep = sb->len >= max ? 0 : max - sb->len;

	if (n > keep)
		*truncated = true;
	strbuf_add(sb, buf, n < keep ? n : keep);
}

/* Handles one ready descriptor of io: feeds stdin, or reads stdout or stderr. */
static void child_io_ready(struct child_io *io, const struct process_options *o, int fd)
{
	char buf[65536];
	ssize_t n;

	if (fd == io->in[1]) {
		n = write(fd, (const char *)o->stdin_data + io->written, o->stdin_len - io->written);
		if (n > 0)
			io->written += (size_t)n;
		if ((n < 0 && errno != EAGAIN && errno != EINTR) || io->written == o->stdin_len)
			close_pair(io->in);
		return;
	}
	n = read(fd, buf, sizeof(buf));
	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		return;
	if (n <= 0)
		close_pair(fd == io->out[0] ? io->out : io->err);
	else if (fd == io->out[0])
		keep_output(&io->out_buf, buf, (size_t)n, io->max, &io->out_truncated);
	else
		keep_output(&io->err_buf, buf, (size_t)n, io->max, &io->err_truncated);
}

/*
 * Feeds the child's stdin and collects its stdout and stderr until all
 * three are closed. Returns true when the deadline (0: none) passed first.
 */
static bool child_io_pump(struct child_io *io, const struct process_options *o, long long deadline)
{
	while (io->out[0] >= 0 || io->err[0] >= 0 || io->in[1] >= 0) {
		struct pollfd pfd[3];
		int nfd = 0, timeout = -1;

		if (io->out[0] >= 0)
			pfd[nfd++] = (struct pollfd){ .fd = io->out[0], .events = POLLIN };
		if (io->err[0] >= 0)
			pfd[nfd++] = (struct pollfd){ .fd = io->err[0], .events = POLLIN };
		if (io->in[1] >= 0)
			pfd[nfd++] = (struct pollfd){ .fd = io->in[1], .events = POLLOUT };
		if (deadline) {
			long long left = deadline - now_ms();

			if (left <= 0)
				return true;
			timeout = left > 1000 ? 1000 : (int)left;
		}
		if (poll(pfd, (nfds_t)nfd, timeout) < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		for (int i = 0; i < nfd; i++)
			if (pfd[i].revents)
				child_io_ready(io, o, pfd[i].fd);
	}
	return false;
}

/*
 * Waits for pid, killing its process group once the deadline (0: none)
 * passes. Returns 0 with *status, or -errno.
 */
static int child_reap(pid_t pid, long long deadline, bool *timed_out, int *status)
{
	if (*timed_out)
		kill(-pid, SIGKILL);
	for (;;) {
		pid_t w;

		if (deadline && !*timed_out && now_ms() > deadline) {
			*timed_out = true;
			kill(-pid, SIGKILL);
		}
		w = waitpid(pid, status, deadline && !*timed_out ? WNOHANG : 0);
		if (w == pid)
			return 0;
		if (w < 0 && errno != EINTR)
			return -errno;
		if (w == 0) {
			struct timespec ts = { 0, 20 * 1000 * 1000 };

			nanosleep(&ts, NULL);
		}
	}
}

/* Closes the child's ends in the parent; stdin without data is closed at once. */
static void child_io_parent_side(struct child_io *io, const struct process_options *o)
{
	if (io->in[0] >= 0) {
		close(io->in[0]);
		io->in[0] = -1;
		fcntl(io->in[1], F_SETFL, O_NONBLOCK);
		if (o->stdin_len == 0)
			close_pair(io->in);
	}
	if (io->out[1] >= 0) {
		close(io->out[1]);
		io->out[1] = -1;
	}
	if (io->err[1] >= 0) {
		close(io->err[1]);
		io->err[1] = -1;
	}
}

int process_run(const char *const *argv, const struct process_options *options,
		struct process_result *ret)
{
	static const struct process_options defaults = { 0 };
	const struct process_options *o = options ? options : &defaults;
	struct child_io io = {
		.in = { -1, -1 }, .out = { -1, -1 }, .err = { -1, -1 },
		.out_buf = STRBUF_INIT, .err_buf = STRBUF_INIT,
		.max = o->max_output ? o->max_output : PROCESS_OUTPUT_MAX,
	};
	int err_pipe[2] = { -1, -1 };
	bool timed_out;
	long long deadline = o->timeout_ms > 0 ? now_ms() + o->timeout_ms : 0;
	int status = 0, child_errno = 0, r;
	pid_t pid;

	if (pipe2(err_pipe, O_CLOEXEC) < 0 ||
	    (o->stdin_data && pipe2(io.in, O_CLOEXEC) < 0) ||
	    (!o->inherit_stdout && !o->stdout_to_fd && pipe2(io.out, O_CLOEXEC) < 0) ||
	    (!o->inherit_stderr && pipe2(io.err, O_CLOEXEC) < 0)) {
		r = -errno;
		goto out;
	}
	pid = fork();
	if (pid < 0) {
		r = -errno;
		goto out;
	}
	if (pid == 0)
		child_exec(argv, o, io.in, io.out, io.err, err_pipe);

	setpgid(pid, pid);
	close(err_pipe[1]);
	err_pipe[1] = -1;
	child_io_parent_side(&io, o);
	timed_out = child_io_pump(&io, o, deadline);
	r = child_reap(pid, deadline, &timed_out, &status);
	if (r < 0)
		goto out;
	if (read(err_pipe[0], &child_errno, sizeof(child_errno)) == sizeof(child_errno) &&
	    child_errno) {
		r = -child_errno;
		goto out;
	}

	memset(ret, 0, sizeof(*ret));
	if (WIFEXITED(status))
		ret->exit_code = WEXITSTATUS(status);
	else if (WIFSIGNALED(status))
		ret->exit_code = 128 + WTERMSIG(status);
	ret->timed_out = timed_out;
	ret->out_truncated = io.out_truncated;
	ret->err_truncated = io.err_truncated;
	ret->out = strbuf_detach(&io.out_buf, &ret->out_len);
	ret->err = strbuf_detach(&io.err_buf, &ret->err_len);
out:
	close_pair(err_pipe);
	close_pair(io.in);
	close_pair(io.out);
	close_pair(io.err);
	strbuf_release(&io.out_buf);
	strbuf_release(&io.err_buf);
	return r;
}

void process_result_release(struct process_result *result)
{
	if (!result)
		return;
	free(result->out);
	free(result->err);
	result->out = result->err = NULL;
	result->out_len = result->err_len = 0;
}

static int stream_start(const char *const *argv, bool piped, struct process_stream *ret)
{
	int in[2] = { -1, -1 }, out[2] = { -1, -1 }, err[2] = { -1, -1 }, err_pipe[2] = { -1, -1 };
	pid_t parent = getpid(), pid;
	int child_errno = 0, r;

	if (pipe2(err_pipe, O_CLOEXEC) < 0 || pipe2(out, O_CLOEXEC) < 0 || pipe2(err, O_CLOEXEC) < 0 ||
	    (piped && pipe2(in, O_CLOEXEC) < 0)) {
		r = -errno;
		goto fail;
	}
	pid = fork();
	if (pid < 0) {
		r = -errno;
		goto fail;
	}
	if (pid == 0) {
		int devnull = open("/dev/null", O_RDWR), e;

		setpgid(0, 0);
		signal(SIGPIPE, SIG_DFL);
		/* Should the parent die first (SIGKILL), the reader goes too. */
		prctl(PR_SET_PDEATHSIG, SIGTERM);
		if (getppid() != parent)
			_exit(127);
		if (piped)
			dup2(in[0], 0);
		else if (devnull >= 0)
			dup2(devnull, 0);
		dup2(out[1], 1);
		dup2(err[1], 2);
		execvp(argv[0], (char *const *)argv);
		e = errno;
		if (write(err_pipe[1], &e, sizeof(e)) < 0)
			_exit(127);
		_exit(127);
	}
	setpgid(pid, pid);
	close(err_pipe[1]);
	err_pipe[1] = -1;
	close(out[1]);
	close(err[1]);
	if (piped) {
		close(in[0]);
		in[0] = -1;
	}
	if (read(err_pipe[0], &child_errno, sizeof(child_errno)) == sizeof(child_errno) && child_errno) {
		close(err_pipe[0]);
		close(out[0]);
		close(err[0]);
		if (piped)
			close(in[1]);
		while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
			;
		return -child_errno;
	}
	close(err_pipe[0]);
	memset(ret, 0, sizeof(*ret));
	ret->pid = pid;
	ret->out_fd = out[0];
	ret->err_fd = err[0];
	ret->in_fd = in[1];
	if (piped)
		fcntl(in[1], F_SETFL, O_NONBLOCK);
	fcntl(out[0], F_SETFL, O_NONBLOCK);
	fcntl(err[0], F_SETFL, O_NONBLOCK);
	ret->err = xcalloc(1, 1);
	ret->err_alloc = 1;
	return 0;
fail:
	close_pair(err_pipe);
	close_pair(out);
	close_pair(err);
	close_pair(in);
	return r;
}

int process_stream_start(const char *const *argv, struct process_stream *ret)
{
	return stream_start(argv, false, ret);
}

int process_stream_start_piped(const char *const *argv, struct process_stream *ret)
{
	return stream_start(argv, true, ret);
}

#define STREAM_ERR_MAX ((size_t)64 << 10)

/* Reads what fd (the stream's stdout or stderr) has. Returns whether stdout moved (data or its end). */
static bool stream_read_ready(struct process_stream *s, int fd)
{
	char chunk[65536];
	ssize_t n = read(fd, chunk, sizeof(chunk));

	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		return false;
	if (fd == s->out_fd) {
		if (n <= 0) {
			s->eof = true;
		} else {
			GROW(s->buf, s->alloc, s->len + (size_t)n + 1);
			memcpy(s->buf + s->len, chunk, (size_t)n);
			s->len += (size_t)n;
			s->buf[s->len] = '\0';
		}
		return true;
	}
	if (n <= 0) {
		close(s->err_fd);
		s->err_fd = -1;
	} else {
		size_t keep = s->err_len >= STREAM_ERR_MAX ? 0 : STREAM_ERR_MAX - s->err_len;

		if ((size_t)n < keep)
			keep = (size_t)n;
		GROW(s->err, s->err_alloc, s->err_len + keep + 1);
		memcpy(s->err + s->err_len, chunk, keep);
		s->err_len += keep;
		s->err[s->err_len] = '\0';
	}
	return false;
}

/* Reads what is there (waiting at most timeout_ms); 1 when stdout gave bytes or ended. */
static int stream_fill(struct process_stream *s, int timeout_ms)
{
	long long deadline = timeout_ms >= 0 ? now_ms() + timeout_ms : 0;

	for (;;) {
		struct pollfd pfd[2];
		int nfd = 0, wait = -1;
		bool got = false;

		if (s->eof)
			return 1;
		pfd[nfd++] = (struct pollfd){ .fd = s->out_fd, .events = POLLIN };
		if (s->err_fd >= 0)
			pfd[nfd++] = (struct pollfd){ .fd = s->err_fd, .events = POLLIN };
		if (timeout_ms >= 0) {
			long long left = deadline - now_ms();

			wait = left > 0 ? (int)left : 0;
		}
		if (poll(pfd, (nfds_t)nfd, wait) < 0) {
			if (errno == EINTR)
				return -EINTR;
			return -errno;
		}
		for (int i = 0; i < nfd; i++)
			if (pfd[i].revents)
				got |= stream_read_ready(s, pfd[i].fd);
		if (got)
			return 1;
		if (timeout_ms >= 0 && now_ms() >= deadline)
			return -ETIMEDOUT;
	}
}

static char *stream_take(struct process_stream *s, size_t n, size_t skip)
{
	char *data = xmalloc(n + 1);

	memcpy(data, s->buf, n);
	data[n] = '\0';
	memmove(s->buf, s->buf + n + skip, s->len - n - skip);
	s->len -= n + skip;
	return data;
}

int process_stream_line(struct process_stream *s, size_t max, int timeout_ms, char **ret_line)
{
	long long deadline = timeout_ms >= 0 ? now_ms() + timeout_ms : 0;

	for (;;) {
		char *nl = s->len ? memchr(s->buf, '\n', s->len) : NULL;
		int r;

		if (nl) {
			if ((size_t)(nl - s->buf) > max)
				return -EMSGSIZE;
			*ret_line = stream_take(s, (size_t)(nl - s->buf), 1);
			return 1;
		}
		if (s->len > max)
			return -EMSGSIZE;
		if (s->eof)
			return 0;
		r = stream_fill(s, timeout_ms >= 0 ? (int)(deadline - now_ms() > 0 ? deadline - now_ms() : 0) : -1);
		if (r < 0)
			return r;
	}
}

int process_stream_bytes(struct process_stream *s, size_t n, int timeout_ms, char **ret_data)
{
	long long deadline = timeout_ms >= 0 ? now_ms() + timeout_ms : 0;

	for (;;) {
		int r;

		if (s->len >= n) {
			*ret_data = stream_take(s, n, 0);
			return 1;
		}
		if (s->eof)
			return 0;
		r = stream_fill(s, timeout_ms >= 0 ? (int)(deadline - now_ms() > 0 ? deadline - now_ms() : 0) : -1);
		if (r < 0)
			return r;
	}
}

int process_stream_copy_rest(struct process_stream *s, int fd, int timeout_ms)
{
	long long deadline = timeout_ms >= 0 ? now_ms() + timeout_ms : 0;

	for (;;) {
		int r = file_write_all(fd, s->buf, s->len);

		if (r < 0)
			return r;
		s->len = 0;
		if (s->eof)
			return 0;
		r = stream_fill(s, timeout_ms >= 0 ? (int)(deadline - now_ms() > 0 ? deadline - now_ms() : 0) : -1);
		if (r < 0)
			return r;
	}
}

int process_stream_write(struct process_stream *s, const void *data, size_t len, int timeout_ms)
{
	long long deadline = timeout_ms >= 0 ? now_ms() + timeout_ms : 0;
	struct sigaction ignore = { .sa_handler = SIG_IGN }, old;
	size_t done = 0;
	int r = 0;

	if (s->in_fd < 0)
		return -EPIPE;
	/* A program that went away makes write() fail with EPIPE, not kill us. */
	sigaction(SIGPIPE, &ignore, &old);
	while (done < len) {
		struct pollfd pfd[3];
		int nfd = 0, wait = -1;

		pfd[nfd++] = (struct pollfd){ .fd = s->in_fd, .events = POLLOUT };
		/* Its output is read meanwhile: a program that writes while it reads never blocks us both. */
		if (!s->eof)
			pfd[nfd++] = (struct pollfd){ .fd = s->out_fd, .events = POLLIN };
		if (s->err_fd >= 0)
			pfd[nfd++] = (struct pollfd){ .fd = s->err_fd, .events = POLLIN };
		if (timeout_ms >= 0) {
			long long left = deadline - now_ms();

			if (left <= 0) {
				r = -ETIMEDOUT;
				break;
			}
			wait = (int)left;
		}
		if (poll(pfd, (nfds_t)nfd, wait) < 0) {
			if (errno == EINTR) {
				r = -EINTR;
				break;
			}
			r = -errno;
			break;
		}
		if (pfd[0].revents & (POLLERR | POLLHUP)) {
			r = -EPIPE;
			break;
		}
		if (pfd[0].revents & POLLOUT) {
			ssize_t n = write(s->in_fd, (const char *)data + done, len - done);

			if (n < 0 && errno != EAGAIN && errno != EINTR) {
				r = -errno;
				break;
			}
			if (n > 0)
				done += (size_t)n;
		}
		for (int i = 1; i < nfd; i++)
			if (pfd[i].revents)
				stream_read_ready(s, pfd[i].fd);
	}
	sigaction(SIGPIPE, &old, NULL);
	return r;
}

void process_stream_close_stdin(struct process_stream *s)
{
	if (s->in_fd >= 0)
		close(s->in_fd);
	s->in_fd = -1;
}

int process_stream_finish(struct process_stream *s, bool stop, char **ret_err)
{
	int status = 0, code = -1;

	if (s->pid > 0) {
		process_stream_close_stdin(s);
		if (stop)
			kill(-s->pid, SIGTERM);
		if (s->out_fd >= 0)
			close(s->out_fd);
		/* What it said before it went (the reason a connection failed): at most 2 s more. */
		for (long long end = now_ms() + 2000; !stop && s->err_fd >= 0 && now_ms() < end;) {
			struct pollfd pfd = { .fd = s->err_fd, .events = POLLIN };
			char chunk[4096];
			ssize_t n;

			if (poll(&pfd, 1, (int)(end - now_ms())) <= 0)
				break;
			n = read(s->err_fd, chunk, sizeof(chunk));
			if (n < 0 && (errno == EAGAIN || errno == EINTR))
				continue;
			if (n <= 0)
				break;
			if (s->err_len + (size_t)n <= STREAM_ERR_MAX) {
				GROW(s->err, s->err_alloc, s->err_len + (size_t)n + 1);
				memcpy(s->err + s->err_len, chunk, (size_t)n);
				s->err_len += (size_t)n;
				s->err[s->err_len] = '\0';
			}
		}
		if (s->err_fd >= 0)
			close(s->err_fd);
		while (waitpid(s->pid, &status, 0) < 0 && errno == EINTR)
			;
		code = WIFEXITED(status) ? WEXITSTATUS(status) : WIFSIGNALED(status) ? 128 + WTERMSIG(status) : -1;
	}
	if (ret_err)
		*ret_err = s->err ? s->err : xcalloc(1, 1);
	else
		free(s->err);
	free(s->buf);
	memset(s, 0, sizeof(*s));
	s->out_fd = s->err_fd = s->in_fd = -1;
	return code;
}
