#ifndef BOOTAB_LIB_PROCESS_H
#define BOOTAB_LIB_PROCESS_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/*
 * Running local programs from argv vectors: never through a shell.
 */

struct process_options {
	const void *stdin_data;   /* fed to the child's stdin, then closed; NULL: /dev/null */
	size_t stdin_len;
	int timeout_ms;           /* <= 0: no timeout */
	size_t max_output;        /* per stream; 0: PROCESS_OUTPUT_MAX. Excess is dropped. */
	bool inherit_stdout;      /* child writes to our stdout instead of a capture */
	bool inherit_stderr;      /* child writes to our stderr instead of a capture */
	bool stdout_to_fd;        /* child writes its stdout to stdout_fd, uncaptured and unbounded */
	int stdout_fd;
	const char *cwd;          /* NULL: ours */
};

#define PROCESS_OUTPUT_MAX ((size_t)16 << 20)

struct process_result {
	int exit_code;            /* exit status, or 128 + signal number */
	bool timed_out;           /* killed (whole process group) after timeout_ms */
	bool out_truncated;
	bool err_truncated;
	char *out;                /* captured stdout, NUL-terminated, never NULL */
	size_t out_len;
	char *err;                /* captured stderr, NUL-terminated, never NULL */
	size_t err_len;
};

/*
 * Runs argv[0] (looked up in PATH) with argv, waits for it and fills
 * *ret. The child runs in its own process group so a timeout ends all of
 * it. Returns 0 when the program ran (whatever its exit code), -errno when
 * it could not be started (-ENOENT: not found). *ret is written only on 0
 * and is released with process_result_release().
 */
int process_run(const char *const *argv, const struct process_options *options,
		struct process_result *ret);

void process_result_release(struct process_result *result);

/*
 * A program whose stdout is read as it comes (a watch that lasts as long
 * as a boot's rows): stdin on /dev/null, stderr kept (bounded) for the
 * error message, its own process group, ended with SIGTERM should this
 * process die (PR_SET_PDEATHSIG), so no reader is left behind.
 */
struct process_stream {
	pid_t pid;
	int out_fd;
	int err_fd;
	int in_fd;                /* its stdin (process_stream_start_piped), else -1 */
	char *buf;                /* read, not yet consumed */
	size_t len, alloc;
	char *err;                /* stderr so far, NUL-terminated, at most 64 KiB */
	size_t err_len, err_alloc;
	bool eof;
};

/* Starts argv. Returns 0 and *ret (process_stream_finish() it), or -errno (-ENOENT: not found). */
int process_stream_start(const char *const *argv, struct process_stream *ret);

/*
 * The same with the program's stdin a pipe: process_stream_write() feeds
 * it, process_stream_close_stdin() ends it.
 */
int process_stream_start_piped(const char *const *argv, struct process_stream *ret);

/*
 * Writes len bytes to the program's stdin, reading its output meanwhile
 * (into the stream, for the calls below), within timeout_ms (< 0: no
 * limit). Returns 0, -EPIPE when the program closed its stdin (or has
 * none), -ETIMEDOUT, -EINTR or another -errno.
 */
int process_stream_write(struct process_stream *s, const void *data, size_t len, int timeout_ms);

void process_stream_close_stdin(struct process_stream *s);

/*
 * The next line of stdout, without its newline, in *ret_line (the
 * caller's; NUL-terminated; a line longer than max is an error). Waits at
 * most timeout_ms (< 0: no limit). Returns 1 with a line, 0 at the end of
 * the output (an unterminated last line is dropped), -ETIMEDOUT when
 * nothing whole came in time, -EINTR when a signal came, -EMSGSIZE for a
 * line longer than max.
 */
int process_stream_line(struct process_stream *s, size_t max, int timeout_ms, char **ret_line);

/*
 * Exactly n bytes of stdout in *ret_data (the caller's, NUL-terminated
 * after them). Returns 1, 0 when the output ended first, -ETIMEDOUT or
 * -EINTR as process_stream_line().
 */
int process_stream_bytes(struct process_stream *s, size_t n, int timeout_ms, char **ret_data);

/*
 * Writes the rest of stdout to fd as it comes, up to its end. Returns 0 at
 * the end, -ETIMEDOUT when it has not ended within timeout_ms (what came
 * is written; call again to go on), -EINTR as process_stream_line(), or
 * -errno of the write.
 */
int process_stream_copy_rest(struct process_stream *s, int fd, int timeout_ms);

/*
 * Ends the stream: with stop, SIGTERM to its process group first; waits
 * for the program and frees everything. Returns its exit status (128 +
 * signal for a signal) and, when ret_err is not NULL, its stderr (the
 * caller's). A stream never started (pid 0) returns -1.
 */
int process_stream_finish(struct process_stream *s, bool stop, char **ret_err);

#endif
