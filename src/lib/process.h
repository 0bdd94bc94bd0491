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
 * Starts argv in the background with stdin, stdout and stderr on
 * /dev/null (or stdout+stderr appended to log_path if given), in a new
 * session so it outlives the controlling terminal. Returns the pid (> 0)
 * or -errno.
 */
pid_t process_spawn_detached(const char *const *argv, const char *log_path);

#endif
