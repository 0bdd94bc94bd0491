#ifndef BOOTAB_TARGET_H
#define BOOTAB_TARGET_H

#include <stdbool.h>
#include <stddef.h>

#include "lib/process.h"

/*
 * The box bootab works on: this machine ("local"), an SSH destination as
 * OpenSSH understands it (a Host alias, user@host, ssh://user@host:port),
 * or "lab" (the QEMU lab: ssh -F $BOOTAB_LAB_DIR/run/ssh_config bootab-lab),
 * "lab:BOX" (a named lab box: ssh -F $BOOTAB_LAB_DIR/boxes/BOX/run/ssh_config
 * bootab-lab-BOX), and "USER@lab", "USER@lab:BOX" with another login user.
 *
 * Everything bootab does there is an embedded POSIX sh script
 * (src/target/NAME.sh) run as `sh -c SCRIPT NAME ARGS...`: directly for the
 * local target, as one remote command line with every word shell-quoted
 * for SSH. SSH is the system's ssh with the user's config and keys,
 * BatchMode, a short ConnectTimeout and one control master per target_open
 * (its socket in a private 0700 directory). Host-key checking is left as
 * the user configured it.
 *
 * Root: a script run as_root runs directly when the login user is root,
 * else under `sudo -n`; when sudo wants a password, options->ask_password
 * is called once and the password is sent only on sudo's stdin (never in
 * argv, the environment or a file), and wiped from memory at target_close.
 */

enum target_kind {
	TARGET_LOCAL,
	TARGET_SSH,
};

/*
 * Asks the user for the sudo password of target (without echo). Returns 0
 * and a NUL-terminated password the caller wipes and frees, or -errno
 * (-ENOTTY: nobody to ask).
 */
typedef int (*target_ask_password_fn)(const char *target, char **ret_password);

struct target_options {
	const char *root;           /* --root DIR: local target only; scripts read DIR/sys, DIR/proc ... */
	int connect_timeout_s;      /* ssh ConnectTimeout; <= 0: 5 */
	const char *shell;          /* the program that runs scripts; NULL: "sh" */
	const char *lab_dir;        /* NULL: $BOOTAB_LAB_DIR, else ${XDG_CACHE_HOME:-$HOME/.cache}/bootab/lab */
	target_ask_password_fn ask_password; /* NULL: never ask; sudo must work with -n */
	bool no_master;             /* do not start a control master (each run connects anew) */
	bool no_batch;              /* every script a session of its own, batches or not */
};

struct target;

/*
 * Whether spec can be handed to ssh as a destination: not empty, no
 * leading '-' (ssh would read an option such as -oProxyCommand=...), no
 * whitespace or control characters. "local" and "lab" pass too.
 */
bool target_destination_acceptable(const char *spec);

/*
 * Parses spec and, for SSH, starts the control master (one connection,
 * which proves the destination answers). Returns 0 and *ret_target, or
 * -errno with *ret_error set to one line saying why (caller frees):
 * -EINVAL for a spec that is refused (starts with '-', holds a control
 * character or whitespace, --root with a remote target), -ENOENT when the
 * lab has no ssh_config, -EHOSTUNREACH when ssh could not connect.
 */
int target_open(const char *spec, const struct target_options *options,
		struct target **ret_target, char **ret_error);

/* Stops the control master (ssh -O exit), removes its directory, wipes the password. NULL is a no-op. */
void target_close(struct target *t);

enum target_kind target_kind(const struct target *t);
/* The spec as given ("lab", "local", "user@host"). Borrowed. */
const char *target_name(const struct target *t);
/* One line describing the last failure of a call on t ("" if none). Borrowed. */
const char *target_error(const struct target *t);

/* The text of embedded script name ("snapshot"), or NULL. Borrowed. */
const char *target_script_text(const char *name);

/*
 * The script as it runs on t: "ROOT=..." then the embedded text without its
 * comment-only lines and indentation (the ssh command line carries it;
 * dropbear takes at most 9000 bytes), so it can
 * be stored with the results and rerun by hand. NULL for an unknown name.
 * t may be NULL: the script as it runs on a box reached otherwise (a LAVA
 * job's test shell), with the root "".
 * The result is the caller's.
 */
char *target_script_render(const struct target *t, const char *name);

/*
 * Runs embedded script name with args (NULL-terminated; each one word) on
 * t, feeding stdin_data (may be NULL), as root when as_root, killing it
 * after timeout_ms (<= 0: none). Returns 0 when the script ran, whatever
 * its exit code (in ret->exit_code), with its output in *ret; -errno when
 * it could not run: -ENOENT unknown script, -EHOSTUNREACH (ssh exit 255:
 * no connection), -ETIMEDOUT, -EACCES (root needed, not available). On
 * error target_error() says why and *ret is untouched.
 */
int target_run_script(struct target *t, const char *name, const char *const *args,
		      const char *stdin_data, size_t stdin_len, bool as_root, int timeout_ms,
		      struct process_result *ret);

/*
 * target_run_script() without stdin, with the script's stdout written to
 * out_fd as it comes (never held in memory, never cut): for output of any
 * size, such as a boot's results. ret->out stays empty.
 */
int target_run_script_to_fd(struct target *t, const char *name, const char *const *args, bool as_root,
			    int timeout_ms, int out_fd, struct process_result *ret);

/*
 * Reads path on t (sysfs, procfs, /boot, /etc: relative to --root for the
 * local target), at most max bytes. Returns 0 and the data (caller's,
 * NUL-terminated), -ENOENT when it does not exist, -EFBIG when longer than
 * max, other -errno as target_run_script.
 */
int target_read_file(struct target *t, const char *path, size_t max, bool as_root,
		     char **ret_data, size_t *ret_len);

/*
 * The current boot's /proc/sys/kernel/random/boot_id (validated). With
 * fresh_connection, bypasses the control master and bounds the whole
 * attempt by timeout_ms: a box that is rebooting may accept TCP and never
 * answer. Returns 0 or -errno as target_run_script.
 */
int target_boot_id(struct target *t, bool fresh_connection, int timeout_ms, char **ret_boot_id);

/*
 * target_boot_id() on a fresh connection, for a wait on a reboot: on an
 * SSH target the connection that answers stays as the control master,
 * so the steps that follow connect no more. A caller that finds the
 * old boot's id drops it (target_drop_connection()): it dies with that
 * boot.
 */
int target_poll_boot_id(struct target *t, int timeout_ms, char **ret_boot_id);

/*
 * Starts embedded script name with args on t (not as root), its stdout
 * read as it comes through *ret (lib/process.h): for a script that waits
 * on the box, such as run-watch. Over the control master when there is
 * one. Returns 0 or -errno (target_error() says why). The stream's exit
 * status is the script's, 255 when the SSH connection failed.
 */
int target_stream_script(struct target *t, const char *name, const char *const *args,
			 struct process_stream *ret);

/*
 * The scripts run on t from here to target_batch_end() (target_run_script,
 * target_read_file, target_snapshot ...) share one session: one
 * batch.sh, started by the first of them, that takes each script with its
 * args and stdin as a request on its stdin and answers with its exit code,
 * stdout and stderr, before the next is sent. Results, exit codes and
 * errors are those of runs of their own. A run the batch cannot carry goes
 * on its own as before: a fresh connection, output to a file descriptor,
 * sudo with a password (its stdin is sudo's), an argument with a newline,
 * stdin with a NUL byte. Batches nest; the outermost end ends batch.sh. A
 * dropped connection (target_drop_connection) ends it too.
 */
void target_batch_begin(struct target *t);
void target_batch_end(struct target *t);

/* One script of target_run_scripts(): its name, args (NULL-terminated, each one word) and whether as root. */
struct target_job {
	const char *name;
	const char *const *args;
	bool as_root;
};

/*
 * Runs n scripts without stdin on t, each as target_run_script() would,
 * their results into ret[0..n-1] (the caller's). Inside a batch that can
 * carry them all they run at the same time in its session ("bg" requests,
 * then one "join"), which a box with more than one CPU answers sooner;
 * otherwise one after the other. timeout_ms bounds them all. Returns 0 when
 * every one ran (whatever its exit code), else the -errno of the first that
 * could not, with nothing in ret.
 */
int target_run_scripts(struct target *t, size_t n, const struct target_job *jobs, int timeout_ms,
		       struct process_result *ret);

/* What bootab asked of an SSH target so far (all 0 for the local target). */
struct target_counts {
	unsigned long sessions;     /* commands run on the box (scripts, streams, batches: one each); local targets too */
	unsigned long scripts;      /* scripts run on the box, each request of a batch one */
	unsigned long connections;  /* SSH connections opened: masters, and commands run without one */
	unsigned long unanswered;   /* fresh connections (the reboot wait's polls) no box answered
				       (ssh failed or timed out): connections, not sessions */
};

void target_counts(const struct target *t, struct target_counts *ret);

/*
 * Stops and forgets the control master: after a reboot it holds a dead
 * connection. The next run connects anew (and starts a new master).
 */
void target_drop_connection(struct target *t);

/*
 * Whether t runs scripts as root and how: "root login", "sudo -n",
 * "sudo with password", or NULL when root is not available (*ret_error
 * says why). Probes once, asking for a password if sudo needs one.
 */
int target_probe_root(struct target *t);
const char *target_root_method(const struct target *t);

struct snapshot;
struct snapshot_config_memo;
struct parse_error;

/*
 * Runs snapshot.sh, then kernel-id.sh and inventory.sh, in one batch (one session), on t with args ("nolog", "param:MOD.PARAM",
 * "file:/sys/..."; as_root for the kernel log) and parses its output.
 * On success fills *ret (snapshot_release()) and, when ret_raw is not
 * NULL, the raw output (caller's). Returns -errno: target failures as
 * target_run_script (target_error() says why), -EIO when the script
 * failed (target_error() has its stderr), -EINVAL for output that does
 * not parse (err says where).
 */
int target_snapshot(struct target *t, const char *const *args, bool as_root,
		    struct snapshot *ret, char **ret_raw, struct parse_error *err);

/* What a snapshot may leave out, and what it may take from earlier ones. */
struct target_snapshot_options {
	/* Configs earlier boots' snapshots read: a kernel of one's release and
	 * build id is not read again; its records say whose they are. */
	const struct snapshot_config_memo *memos;
	size_t n_memos;
	bool sysfs_only;  /* snapshot.sh alone: no kernel-id.sh, no inventory.sh */
	bool no_devices;  /* snapshot.sh and kernel-id.sh: no inventory.sh */
	/* One more script of the caller's, run at the same time as the
	 * snapshot's: its answer goes to beside_ret (which the caller
	 * releases; left empty when the scripts could not be run). */
	const struct target_job *beside;
	struct process_result *beside_ret;
};

/* target_snapshot() with options (NULL: none). */
int target_snapshot_with(struct target *t, const char *const *args, bool as_root,
			 const struct target_snapshot_options *options, struct snapshot *ret, char **ret_raw,
			 struct parse_error *err);

/*
 * The scripts target_snapshot() runs, in order (NULL-terminated): the raw
 * output is their records, snapshot.sh's closing "end" line moved last.
 */
extern const char *const target_snapshot_scripts[];

/* Asks for a sudo password on the terminal: a target_ask_password_fn. */
int target_ask_password_tty(const char *target, char **ret_password);

#endif
