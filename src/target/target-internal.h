/* What target.c, target-batch.c and target-snapshot.c share: the target itself, and no one else. */
#ifndef BOOTAB_TARGET_INTERNAL_H
#define BOOTAB_TARGET_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>

#include "lib/process.h"
#include "lib/strvec.h"
#include "target/target.h"

/* How scripts get root on the target. */
enum root_method {
	ROOT_UNKNOWN,
	ROOT_NOT_NEEDED,    /* local target on a captured tree */
	ROOT_DIRECT,        /* uid 0 already */
	ROOT_SUDO,          /* sudo -n */
	ROOT_SUDO_PASSWORD, /* sudo -S, password on stdin */
	ROOT_UNAVAILABLE,
};

struct target {
	enum target_kind kind;
	char *spec;
	char *root;                /* local --root, or NULL */
	char *shell;
	struct strvec ssh_base;    /* "ssh" and the options every call shares */
	char *destination;
	char *control_dir;         /* private 0700 directory of the master's socket */
	char *control_path;
	bool master;               /* a master was started and not stopped */
	bool becoming_master;      /* this fresh connection stays as the master */
	bool no_master;
	int connect_timeout_s;
	target_ask_password_fn ask_password;
	enum root_method root_method;
	char *password;            /* sudo's, only with ROOT_SUDO_PASSWORD; wiped at close */
	bool secret_held;          /* secret_hold() taken for the password: no core dump meanwhile */
	char *error;
	struct target_counts counts;
	unsigned batch_depth;      /* target_batch_begin() calls not yet ended */
	bool no_batch;
	struct process_stream batch; /* batch.sh, running while batch.pid > 0 */
};

/*
 * A script run under a password sudo reads its stdin only after this
 * line: should sudo not consume the password line (cached credentials,
 * NOPASSWD), the password is skipped here and never reaches the script.
 */
#define STDIN_MARKER "bootab:stdin"

/* Sets t's error message (target_error()). */
void target_set_error(struct target *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The last line of s (ssh's stderr), trimmed: what a user needs to see. Caller frees. */
char *target_last_line(const char *s);
/* The text that runs script name with how (rendered, the password's marker first under sudo -S), or NULL. */
char *target_script_for(const struct target *t, const char *name, enum root_method how);
/* Full argv for process_run: local words, or ssh ... -- DEST 'quoted line'. */
char **target_full_argv(const struct target *t, const char *text, const char *name, const char *const *args,
			enum root_method how, bool fresh);
/* Counts one remote command, starting the SSH master where one is wanted. */
void target_count_session(struct target *t, bool fresh);
/* How a script runs as root (as_root) or as the login user on t. */
enum root_method target_method_for(const struct target *t, bool as_root);
/* Whether script name exists and, as_root, whether root is available on t. 0 or -errno. */
int target_script_runnable(struct target *t, const char *name, bool as_root);

/* target-batch.c: batch.sh, the scripts of one session. */
void target_batch_stop(struct target *t);
bool target_batch_fits(const struct target *t, const char *const *args, const char *stdin_data, size_t stdin_len,
		       enum root_method how, bool fresh, int out_fd);
/* One script through the batch, as run_raw_to() gives it; -EOPNOTSUPP: no batch on this box (run it alone). */
int target_batch_run(struct target *t, const char *text, const char *name, const char *const *args,
		     const char *stdin_data, size_t stdin_len, enum root_method how, int timeout_ms,
		     struct process_result *ret);

#endif
