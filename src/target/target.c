#include "target/target.h"

#include <errno.h>
#include <sys/stat.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/alloc.h"
#include "lib/clock.h"
#include "lib/file.h"
#include "lib/secret.h"
#include "lib/shell-quote.h"
#include "lib/strbuf.h"
#include "lib/strvec.h"
#include "lib/tty.h"
#include "kernel/notes.h"
#include "kernel/snapshot.h"
#include "target-scripts.h"
#include "target/exit-codes.h"

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
	bool batch_bytes;          /* it takes a request's script and stdin as byte counts */
};

/*
 * A script run under a password sudo reads its stdin only after this
 * line: should sudo not consume the password line (cached credentials,
 * NOPASSWD), the password is skipped here and never reaches the script.
 */
#define STDIN_MARKER "bootab:stdin"

static void set_error(struct target *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void set_error(struct target *t, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	free(t->error);
	t->error = strbuf_detach(&sb, NULL);
}

enum target_kind target_kind(const struct target *t)
{
	return t->kind;
}

const char *target_name(const struct target *t)
{
	return t->spec;
}

const char *target_error(const struct target *t)
{
	return t->error ? t->error : "";
}

const char *target_script_text(const char *name)
{
	for (size_t i = 0; target_scripts[i].name; i++)
		if (!strcmp(target_scripts[i].name, name))
			return target_scripts[i].text;
	return NULL;
}

/*
 * Appends text as it travels: lines that hold only a comment left out, and
 * indentation; a line that is only a dot command sourcing NAME.sh from the
 * script's own directory (head and tail below: what a script run from the
 * source tree does) becomes that script's text, so the box needs no file of
 * ours.
 */
static void render_append(struct strbuf *sb, const char *text, unsigned depth)
{
	static const char head[] = ". \"${0%/*}/", tail[] = ".sh\"";

	for (const char *p = text; *p;) {
		const char *nl = strchr(p, '\n'), *q = p;
		size_t len = nl ? (size_t)(nl - p) + 1 : strlen(p), n;

		while (*q == ' ' || *q == '\t')
			q++;
		n = len - (size_t)(q - p) - (nl ? 1 : 0);
		if (depth < 4 && n > strlen(head) + strlen(tail) && !strncmp(q, head, strlen(head)) &&
		    !strncmp(q + n - strlen(tail), tail, strlen(tail))) {
			char *name = xstrndup(q + strlen(head), n - strlen(head) - strlen(tail));
			const char *inner = strchr(name, '/') ? NULL : target_script_text(name);

			free(name);
			if (inner) {
				render_append(sb, inner, depth + 1);
				p += len;
				continue;
			}
		}
		if (*q != '#')
			strbuf_add(sb, q, len - (size_t)(q - p));
		p += len;
	}
}

char *target_script_render(const struct target *t, const char *name)
{
	const char *text = target_script_text(name);
	struct strbuf sb = STRBUF_INIT;

	if (!text)
		return NULL;
	strbuf_addstr(&sb, "ROOT=");
	shell_quote_append(&sb, t && t->root ? t->root : "");
	strbuf_addch(&sb, '\n');
	/*
	 * The script travels as one argument of the ssh command line, and
	 * dropbear refuses a command longer than 9000 bytes (MAX_CMD_LEN).
	 * No script here has a here-document or a quoted string that spans
	 * lines.
	 */
	render_append(&sb, text, 0);
	return strbuf_detach(&sb, NULL);
}

/* The last line of ssh's stderr, trimmed: what a user needs to see. */
static char *last_line(const char *s)
{
	const char *end = s + strlen(s), *start;

	while (end > s && (end[-1] == '\n' || end[-1] == '\r' || end[-1] == ' '))
		end--;
	start = end;
	while (start > s && start[-1] != '\n')
		start--;
	return xstrndup(start, (size_t)(end - start));
}

bool target_destination_acceptable(const char *s)
{
	if (!*s || s[0] == '-')
		return false;
	for (const unsigned char *p = (const unsigned char *)s; *p; p++)
		if (*p <= ' ' || *p == 0x7f)
			return false;
	return true;
}

/*
 * "lab", "USER@lab", "lab:BOX" or "USER@lab:BOX": USER a plain login name
 * ([a-z_][a-z0-9_-]*), BOX a named lab box (bootab lab --name: 1 to 32 of
 * a-z 0-9 -, not starting with -). *ret_user_len is USER's length (0: none),
 * *ret_box the box's name in spec (NULL: the lab itself).
 */
static bool lab_spec(const char *spec, size_t *ret_user_len, const char **ret_box)
{
	const char *at = strchr(spec, '@'), *rest = at ? at + 1 : spec, *box = NULL;
	size_t user = at ? (size_t)(at - spec) : 0;

	if (at) {
		if (!user || !((spec[0] >= 'a' && spec[0] <= 'z') || spec[0] == '_'))
			return false;
		for (size_t i = 1; i < user; i++)
			if (!((spec[i] >= 'a' && spec[i] <= 'z') || (spec[i] >= '0' && spec[i] <= '9') ||
			      spec[i] == '_' || spec[i] == '-'))
				return false;
	}
	if (strncmp(rest, "lab", 3) || (rest[3] && rest[3] != ':'))
		return false;
	if (rest[3] == ':') {
		size_t n;

		box = rest + 4;
		n = strlen(box);
		if (n == 0 || n > 32 || box[0] == '-')
			return false;
		for (size_t i = 0; i < n; i++)
			if (!((box[i] >= 'a' && box[i] <= 'z') || (box[i] >= '0' && box[i] <= '9') || box[i] == '-'))
				return false;
	}
	*ret_user_len = user;
	*ret_box = box;
	return true;
}

/* The lab's, or box's, run/ssh_config (src/lab/lab.h has the layout). */
static char *lab_ssh_config(const char *lab_dir, const char *box)
{
	const char *env = getenv("BOOTAB_LAB_DIR"), *cache = getenv("XDG_CACHE_HOME");
	const char *home = getenv("HOME");
	char *dir, *path;

	if (lab_dir)
		dir = xstrdup(lab_dir);
	else if (env && *env)
		dir = xstrdup(env);
	else if (cache && *cache)
		dir = xasprintf("%s/bootab/lab", cache);
	else
		dir = xasprintf("%s/.cache/bootab/lab", home ? home : "");
	path = box ? xasprintf("%s/boxes/%s/run/ssh_config", dir, box) : xasprintf("%s/run/ssh_config", dir);
	free(dir);
	return path;
}

/* Common ssh argv prefix. ControlPath is added per call. */
static void build_ssh_base(struct target *t, const char *config)
{
	char *timeout = xasprintf("ConnectTimeout=%d", t->connect_timeout_s);

	strvec_push(&t->ssh_base, "ssh");
	if (config) {
		strvec_push(&t->ssh_base, "-F");
		strvec_push(&t->ssh_base, config);
	}
	/*
	 * BatchMode: never stop to ask (a password prompt from ssh would hang
	 * an unattended campaign). ServerAlive: a master whose box went away
	 * notices within 15 s. Nothing here touches host-key checking.
	 */
	static const char *const opts[] = {
		"-o", "BatchMode=yes", "-o", "ServerAliveInterval=5",
		"-o", "ServerAliveCountMax=3", "-o", "LogLevel=ERROR", "-T",
	};
	for (size_t i = 0; i < sizeof(opts) / sizeof(opts[0]); i++)
		strvec_push(&t->ssh_base, opts[i]);
	strvec_push(&t->ssh_base, "-o");
	strvec_push(&t->ssh_base, timeout);
	free(timeout);
}

/* ssh base + control options + "--" + destination; caller appends the command. */
static void ssh_argv(const struct target *t, bool fresh, struct strvec *v)
{
	strvec_push_all(v, strvec_argv(&t->ssh_base));
	if (fresh && t->becoming_master) {
		char *cp = xasprintf("ControlPath=%s", t->control_path);

		/* As start_master()'s, with the command run over it. */
		strvec_push(v, "-o");
		strvec_push(v, cp);
		strvec_push(v, "-o");
		strvec_push(v, "ControlMaster=yes");
		strvec_push(v, "-o");
		strvec_push(v, "ControlPersist=120");
		free(cp);
	} else if (fresh || !t->master) {
		strvec_push(v, "-o");
		strvec_push(v, "ControlPath=none");
	} else {
		char *cp = xasprintf("ControlPath=%s", t->control_path);

		strvec_push(v, "-o");
		strvec_push(v, cp);
		strvec_push(v, "-o");
		strvec_push(v, "ControlMaster=no");
		free(cp);
	}
	strvec_push(v, "--");
	strvec_push(v, t->destination);
}

/* The private directory and path of the master's socket, made once. 0 or -errno (said). */
static int control_path_make(struct target *t)
{
	if (!t->control_dir) {
		const char *tmp = getenv("TMPDIR");
		/* A unix socket path must fit in sun_path (108 bytes). */
		char *tmpl = xasprintf("%s/bootab-ssh-XXXXXX",
				       tmp && *tmp && strlen(tmp) < 60 ? tmp : "/tmp");

		if (!mkdtemp(tmpl)) {
			int r = -errno;

			set_error(t, "cannot create a private directory for the ssh control socket: %s",
				  strerror(errno));
			free(tmpl);
			return r;
		}
		t->control_dir = tmpl;
		t->control_path = path_join(tmpl, "master");
	}
	return 0;
}

static int start_master(struct target *t)
{
	struct strvec argv = STRVEC_INIT;
	char *cp;
	struct process_result res;
	struct process_options po = { .timeout_ms = (t->connect_timeout_s + 30) * 1000 };
	int r = control_path_make(t);

	if (r < 0)
		return r;
	strvec_push_all(&argv, strvec_argv(&t->ssh_base));
	cp = xasprintf("ControlPath=%s", t->control_path);
	/*
	 * -N: no command; ControlPersist makes ssh put the master in the
	 * background once connected, and ends it a while after its last use
	 * should bootab die without stopping it.
	 */
	static const char *const opts[] = { "-o", "ControlMaster=yes", "-o", "ControlPersist=120", "-N" };
	strvec_push(&argv, "-o");
	strvec_push(&argv, cp);
	free(cp);
	for (size_t i = 0; i < sizeof(opts) / sizeof(opts[0]); i++)
		strvec_push(&argv, opts[i]);
	strvec_push(&argv, "--");
	strvec_push(&argv, t->destination);
	t->counts.connections++;
	r = process_run(strvec_argv(&argv), &po, &res);
	strvec_release(&argv);
	if (r < 0) {
		set_error(t, "cannot run ssh: %s", strerror(-r));
		return r;
	}
	if (res.timed_out || res.exit_code != 0) {
		char *why = last_line(res.err);

		set_error(t, "ssh to '%s' failed: %s", t->spec,
			  res.timed_out ? "timed out" : *why ? why : "no reason given");
		free(why);
		process_result_release(&res);
		return -EHOSTUNREACH;
	}
	process_result_release(&res);
	t->master = true;
	return 0;
}

static void stop_master(struct target *t)
{
	struct strvec argv = STRVEC_INIT;
	char *cp;
	struct process_result res;
	struct process_options po = { .timeout_ms = 10000 };

	if (!t->master)
		return;
	strvec_push_all(&argv, strvec_argv(&t->ssh_base));
	cp = xasprintf("ControlPath=%s", t->control_path);
	strvec_push(&argv, "-o");
	strvec_push(&argv, cp);
	strvec_push(&argv, "-O");
	strvec_push(&argv, "exit");
	strvec_push(&argv, "--");
	strvec_push(&argv, t->destination);
	if (process_run(strvec_argv(&argv), &po, &res) == 0)
		process_result_release(&res);
	strvec_release(&argv);
	free(cp);
	t->master = false;
}

static void batch_stop(struct target *t);

void target_drop_connection(struct target *t)
{
	if (t)
		batch_stop(t);
	if (t && t->kind == TARGET_SSH)
		stop_master(t);
}

int target_open(const char *spec, const struct target_options *options,
		struct target **ret_target, char **ret_error)
{
	static const struct target_options defaults = { 0 };
	const struct target_options *o = options ? options : &defaults;
	struct target *t;
	char *config = NULL;
	const char *box = NULL;
	size_t user_len = 0;
	int r;

	if (!spec || !*spec) {
		*ret_error = xstrdup("no target given");
		return -EINVAL;
	}
	t = xcalloc(1, sizeof(*t));
	t->spec = xstrdup(spec);
	t->shell = xstrdup(o->shell && *o->shell ? o->shell : "sh");
	t->connect_timeout_s = o->connect_timeout_s > 0 ? o->connect_timeout_s : 5;
	t->ask_password = o->ask_password;
	t->no_master = o->no_master;
	t->no_batch = o->no_batch;
	t->batch.pid = 0;
	t->batch.in_fd = t->batch.out_fd = t->batch.err_fd = -1;
	if (!strcmp(spec, "local")) {
		t->kind = TARGET_LOCAL;
		if (o->root) {
			if (!path_is_dir(o->root)) {
				*ret_error = xasprintf("--root '%s' is not a directory", o->root);
				r = -ENOTDIR;
				goto fail;
			}
			t->root = xstrdup(o->root);
			t->root_method = ROOT_NOT_NEEDED;
		}
		*ret_target = t;
		return 0;
	}
	t->kind = TARGET_SSH;
	if (o->root) {
		*ret_error = xasprintf("--root works with --target local only, not '%s'", spec);
		r = -EINVAL;
		goto fail;
	}
	if (lab_spec(spec, &user_len, &box)) {
		char *host = box ? xasprintf("bootab-lab-%s", box) : xstrdup("bootab-lab");

		config = lab_ssh_config(o->lab_dir, box);
		if (!path_exists(config)) {
			if (box)
				*ret_error = xasprintf("lab box %s is not running (no '%s'); start it with 'bootab lab --name %s up'",
						       box, config, box);
			else
				*ret_error = xasprintf("the lab is not running (no '%s'); start it with 'bootab lab up'",
						       config);
			free(config);
			free(host);
			r = -ENOENT;
			goto fail;
		}
		/* USER@lab: the lab's ssh_config, another login user. */
		t->destination = user_len ? xasprintf("%.*s@%s", (int)user_len, spec, host) : xstrdup(host);
		free(host);
	} else if (!strncmp(spec, "lab:", 4) || strstr(spec, "@lab:")) {
		*ret_error = xasprintf("'%s' is not a lab box (lab:NAME, NAME 1 to 32 of a-z 0-9 -)", spec);
		r = -EINVAL;
		goto fail;
	} else {
		if (!target_destination_acceptable(spec)) {
			*ret_error = xasprintf("refusing target '%s': an SSH destination may not start with '-' or hold spaces or control characters",
					       spec);
			r = -EINVAL;
			goto fail;
		}
		t->destination = xstrdup(spec);
	}
	build_ssh_base(t, config);
	free(config);
	if (!t->no_master) {
		r = start_master(t);
		if (r < 0) {
			*ret_error = xstrdup(t->error);
			goto fail;
		}
	}
	*ret_target = t;
	return 0;
fail:
	target_close(t);
	return r;
}

/* The password wiped and freed, and core dumps as they were before it was asked. */
static void password_forget(struct target *t)
{
	if (t->password) {
		explicit_bzero(t->password, strlen(t->password));
		free(t->password);
		t->password = NULL;
	}
	if (t->secret_held)
		secret_release();
	t->secret_held = false;
}

void target_close(struct target *t)
{
	if (!t)
		return;
	batch_stop(t);
	stop_master(t);
	if (t->control_dir) {
		unlink(t->control_path);
		rmdir(t->control_dir);
	}
	password_forget(t);
	free(t->control_dir);
	free(t->control_path);
	strvec_release(&t->ssh_base);
	free(t->destination);
	free(t->spec);
	free(t->root);
	free(t->shell);
	free(t->error);
	free(t);
}

/* The words that run the script: [sudo ...] sh -c TEXT NAME ARGS... */
static void command_words(const struct target *t, const char *text, const char *name,
			  const char *const *args, enum root_method how, struct strvec *v)
{
	char *label = xasprintf("bootab-%s", name);

	if (how == ROOT_SUDO) {
		strvec_push(v, "sudo");
		strvec_push(v, "-n");
		strvec_push(v, "--");
	} else if (how == ROOT_SUDO_PASSWORD) {
		/* -k: always read the password, never a cached ticket; -p '': no prompt text. */
		static const char *const sudo[] = { "sudo", "-k", "-S", "-p", "", "--" };

		for (size_t i = 0; i < sizeof(sudo) / sizeof(sudo[0]); i++)
			strvec_push(v, sudo[i]);
	}
	strvec_push(v, t->shell);
	strvec_push(v, "-c");
	strvec_push(v, text);
	strvec_push(v, label);
	strvec_push_all(v, args);
	free(label);
}

/* Full argv for process_run: local words, or ssh ... -- DEST 'quoted line'. */
static char **full_argv(const struct target *t, const char *text, const char *name,
			const char *const *args, enum root_method how, bool fresh)
{
	struct strvec words = STRVEC_INIT, argv = STRVEC_INIT;
	struct strbuf line = STRBUF_INIT;

	command_words(t, text, name, args, how, &words);
	if (t->kind == TARGET_LOCAL)
		return strvec_detach(&words);
	ssh_argv(t, fresh, &argv);
	/* ssh joins its arguments into one line for the remote shell: quote every word. */
	shell_quote_argv_append(&line, strvec_argv(&words));
	strvec_push(&argv, strbuf_str(&line));
	strbuf_release(&line);
	strvec_release(&words);
	return strvec_detach(&argv);
}

static char *script_text(const struct target *t, const char *name, enum root_method how)
{
	char *rendered = target_script_render(t, name), *text;

	if (!rendered || how != ROOT_SUDO_PASSWORD)
		return rendered;
	text = xasprintf("while IFS= read -r bootab_line; do [ \"$bootab_line\" = '%s' ] && break; done\n%s",
			 STDIN_MARKER, rendered);
	free(rendered);
	return text;
}

/*
 * Counts one remote command; after a reboot dropped the master, the first
 * command that may share one starts it again, so the steps that follow
 * (verify, snapshot, start, fetch) cost no new connection each. A master
 * that cannot start leaves the command to connect on its own and say why.
 */
static void count_session(struct target *t, bool fresh)
{
	if (t->kind != TARGET_SSH) {
		t->counts.sessions++;
		return;
	}
	if (!fresh && !t->no_master && !t->master)
		start_master(t);
	t->counts.sessions++;
	if (fresh || t->no_master || !t->master)
		t->counts.connections++;
}

void target_counts(const struct target *t, struct target_counts *ret)
{
	*ret = t->counts;
}

int target_stream_script(struct target *t, const char *name, const char *const *args,
			 struct process_stream *ret)
{
	char *text = script_text(t, name, ROOT_UNKNOWN), **argv;
	int r;

	if (!text) {
		set_error(t, "no embedded script '%s'", name);
		return -ENOENT;
	}
	count_session(t, false);
	t->counts.scripts++;
	argv = full_argv(t, text, name, args, ROOT_UNKNOWN, t->no_master);
	r = process_stream_start((const char *const *)argv, ret);
	strv_free(argv);
	free(text);
	if (r < 0)
		set_error(t, "cannot run %s: %s", t->kind == TARGET_SSH ? "ssh" : t->shell, strerror(-r));
	return r;
}

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
static void batch_stop(struct target *t)
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
		batch_stop(t);
}

/* Whether a run can go through the batch: one word per line of the request, text without NUL. */
static bool batch_fits(const struct target *t, const char *const *args, const char *stdin_data,
		       size_t stdin_len, enum root_method how, bool fresh, int out_fd)
{
	if (!t->batch_depth || t->no_batch || fresh || out_fd >= 0 || how == ROOT_SUDO_PASSWORD)
		return false;
	for (size_t i = 0; args && args[i]; i++)
		if (strchr(args[i], '\n'))
			return false;
	return !stdin_data || !memchr(stdin_data, '\0', stdin_len);
}

/* The lines of n bytes of text (a last line without its newline counts). */
static size_t count_lines(const char *s, size_t n)
{
	size_t lines = 0;

	for (size_t i = 0; i < n; i++)
		lines += s[i] == '\n';
	return lines + (n && s[n - 1] != '\n');
}

/* The batch's session gone or stuck: why, and the batch ended (the next run starts another). */
static int batch_fail(struct target *t, const char *name, int r, int timeout_ms)
{
	char *err = NULL, *why;

	process_stream_finish(&t->batch, true, &err);
	why = last_line(err);
	if (r == -ETIMEDOUT) {
		set_error(t, "%s on '%s' did not finish within %d s", name, t->spec, timeout_ms / 1000);
	} else if (t->kind == TARGET_SSH) {
		set_error(t, "ssh to '%s' failed: %s", t->spec, *why ? why : "connection lost");
		r = -EHOSTUNREACH;
	} else {
		set_error(t, "the batch of scripts on '%s' ended: %s", t->spec, *why ? why : "no message");
		r = -EIO;
	}
	free(why);
	free(err);
	return r;
}

static int batch_start(struct target *t)
{
	const char *args[] = { t->shell, NULL };
	char *text = script_text(t, "batch", ROOT_UNKNOWN), **argv, *line = NULL;
	int r;

	count_session(t, false);
	argv = full_argv(t, text, "batch", args, ROOT_UNKNOWN, t->no_master);
	r = process_stream_start_piped((const char *const *)argv, &t->batch);
	strv_free(argv);
	free(text);
	if (r < 0) {
		set_error(t, "cannot run %s: %s", t->kind == TARGET_SSH ? "ssh" : t->shell, strerror(-r));
		t->batch.pid = 0;
		return r;
	}
	r = process_stream_line(&t->batch, 4096, (t->connect_timeout_s + 30) * 1000, &line);
	/* 2: the requests' script and stdin go as bytes (dd reads them); 1: as lines. */
	if (r == 1 && strcmp(line, "bootab-batch 1") && strcmp(line, "bootab-batch 2"))
		r = 0;
	if (r == 1)
		t->batch_bytes = !strcmp(line, "bootab-batch 2");
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

/*
 * One request (op "run" or "bg") into req: its line, the args, the script
 * and its stdin; as byte counts where the batch said 2, else as lines.
 */
static void batch_request(const struct target *t, struct strbuf *req, const char *op, const char *text,
			  const char *name, const char *const *args, const char *stdin_data, size_t stdin_len,
			  enum root_method how)
{
	size_t nargs = 0, text_len = strlen(text);

	while (args && args[nargs])
		nargs++;
	if (t->batch_bytes)
		strbuf_addf(req, "%s %s %s %zu %zu %zu\n", op, name, how == ROOT_SUDO ? "sudo" : "user", nargs,
			    text_len, stdin_data ? stdin_len : 0);
	else
		strbuf_addf(req, "%s %s %s %zu %zu %zu %d\n", op, name, how == ROOT_SUDO ? "sudo" : "user", nargs,
			    count_lines(text, text_len), stdin_data ? count_lines(stdin_data, stdin_len) : 0,
			    !stdin_len || stdin_data[stdin_len - 1] == '\n');
	for (size_t i = 0; i < nargs; i++)
		strbuf_addf(req, "%s\n", args[i]);
	if (t->batch_bytes) {
		strbuf_add(req, text, text_len);
		if (stdin_data)
			strbuf_add(req, stdin_data, stdin_len);
		return;
	}
	strbuf_add(req, text, text_len);
	if (text_len && text[text_len - 1] != '\n')
		strbuf_addch(req, '\n');
	if (stdin_data && stdin_len) {
		strbuf_add(req, stdin_data, stdin_len);
		if (stdin_data[stdin_len - 1] != '\n')
			strbuf_addch(req, '\n');
	}
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
static int batch_run(struct target *t, const char *text, const char *name, const char *const *args,
		     const char *stdin_data, size_t stdin_len, enum root_method how, int timeout_ms,
		     struct process_result *ret)
{
	struct strbuf req = STRBUF_INIT;
	double start = clock_now_s();
	int r;

	if (t->batch.pid <= 0 && (r = batch_start(t)) < 0)
		return r;
	t->counts.scripts++;
	batch_request(t, &req, "run", text, name, args, stdin_data, stdin_len, how);
	r = process_stream_write(&t->batch, req.buf, req.len, ms_left(timeout_ms, start));
	strbuf_release(&req);
	if (r < 0)
		return batch_fail(t, name, r == -ETIMEDOUT ? -ETIMEDOUT : -EIO, timeout_ms);
	return batch_answer(t, name, timeout_ms, start, ret);
}

/* Runs text as name with how; a low-level step shared by probing and scripts. */
static int run_raw_to(struct target *t, const char *name, const char *const *args,
		      const char *stdin_data, size_t stdin_len, enum root_method how,
		      bool fresh, int timeout_ms, int out_fd, struct process_result *ret)
{
	char *text = script_text(t, name, how), **argv;
	struct process_options po = { .timeout_ms = timeout_ms, .stdout_to_fd = out_fd >= 0, .stdout_fd = out_fd };
	struct strbuf in = STRBUF_INIT;
	struct process_result res;
	int r;

	if (!text) {
		set_error(t, "no embedded script '%s'", name);
		return -ENOENT;
	}
	if (batch_fits(t, args, stdin_data, stdin_len, how, fresh, out_fd)) {
		r = batch_run(t, text, name, args, stdin_data, stdin_len, how, timeout_ms, ret);
		free(text);
		return r;
	}
	if (t->kind == TARGET_SSH && fresh && timeout_ms <= 0)
		po.timeout_ms = (t->connect_timeout_s + 10) * 1000;
	count_session(t, fresh);
	t->counts.scripts++;
	argv = full_argv(t, text, name, args, how, fresh || t->no_master);
	if (how == ROOT_SUDO_PASSWORD) {
		/* One allocation of the final size: growing would free a copy
		 * of the password without wiping it. */
		GROW(in.buf, in.alloc, strlen(t->password) + sizeof(STDIN_MARKER "\n") + 1 +
		     (stdin_data ? stdin_len : 0));
		in.buf[0] = '\0';
		strbuf_addstr(&in, t->password);
		strbuf_addch(&in, '\n');
		strbuf_addstr(&in, STDIN_MARKER "\n");
		if (stdin_data)
			strbuf_add(&in, stdin_data, stdin_len);
		po.stdin_data = in.buf;
		po.stdin_len = in.len;
	} else if (stdin_data) {
		po.stdin_data = stdin_data;
		po.stdin_len = stdin_len;
	}
	r = process_run((const char *const *)argv, &po, &res);
	if (in.buf)
		explicit_bzero(in.buf, in.len);
	strbuf_release(&in);
	strv_free(argv);
	free(text);
	if (r < 0) {
		set_error(t, "cannot run %s: %s", t->kind == TARGET_SSH ? "ssh" : t->shell,
			  strerror(-r));
		return r;
	}
	if (t->kind == TARGET_SSH && fresh && (res.timed_out || res.exit_code == 255)) {
		/* A poll of a box that is down: nothing ran there. */
		t->counts.sessions--;
		t->counts.scripts--;
		t->counts.unanswered++;
	}
	if (res.timed_out) {
		set_error(t, "%s on '%s' did not finish within %d s", name, t->spec,
			  po.timeout_ms / 1000);
		process_result_release(&res);
		return -ETIMEDOUT;
	}
	if (t->kind == TARGET_SSH && res.exit_code == 255) {
		char *why = last_line(res.err);

		set_error(t, "ssh to '%s' failed: %s", t->spec, *why ? why : "connection lost");
		free(why);
		process_result_release(&res);
		return -EHOSTUNREACH;
	}
	*ret = res;
	return 0;
}

static int run_raw(struct target *t, const char *name, const char *const *args,
		   const char *stdin_data, size_t stdin_len, enum root_method how,
		   bool fresh, int timeout_ms, struct process_result *ret)
{
	return run_raw_to(t, name, args, stdin_data, stdin_len, how, fresh, timeout_ms, -1, ret);
}

static int ask_password(struct target *t)
{
	char *password = NULL;
	int r;

	if (!t->ask_password)
		return -ENOTTY;
	/* No core dump holds the password, from the prompt until it is wiped. */
	t->secret_held = secret_hold() == 0;
	r = t->ask_password(t->spec, &password);
	if (r < 0) {
		password_forget(t);
		return r;
	}
	t->password = password;
	return 0;
}

int target_probe_root(struct target *t)
{
	struct process_result res;
	bool uid_is_0 = false, sudo_ok = false, sudo_password = false;
	int r;

	if (t->root_method != ROOT_UNKNOWN && t->root_method != ROOT_UNAVAILABLE)
		return 0;
	if (t->kind == TARGET_LOCAL && geteuid() == 0) {
		t->root_method = ROOT_DIRECT;
		return 0;
	}
	r = run_raw(t, "probe", NULL, NULL, 0, ROOT_UNKNOWN, false, 60000, &res);
	if (r < 0)
		return r;
	/* Records are read in place: the later checks see the whole output. */
	for (const char *line = res.out; line && *line;) {
		const char *nl = strchr(line, '\n');
		size_t len = nl ? (size_t)(nl - line) : strlen(line);

		if (len > 4 && !strncmp(line, "uid\t", 4))
			uid_is_0 = len == 5 && line[4] == '0';
		else if (len == 7 && !strncmp(line, "sudo\tok", 7))
			sudo_ok = true;
		else if (len == 13 && !strncmp(line, "sudo\tpassword", 13))
			sudo_password = true;
		line = nl ? nl + 1 : NULL;
	}
	if (uid_is_0) {
		t->root_method = ROOT_DIRECT;
	} else if (sudo_ok) {
		t->root_method = ROOT_SUDO;
	} else {
		t->root_method = ROOT_UNAVAILABLE;
		if (!sudo_password) {
			set_error(t, "root is needed on '%s': the login user is not root and sudo is not available",
				  t->spec);
			process_result_release(&res);
			return -EACCES;
		}
		r = ask_password(t);
		if (r == -ECANCELED || r == -EINTR || r == -E2BIG) {
			set_error(t, "root is needed on '%s': %s", t->spec,
				  r == -ECANCELED ? "no sudo password was given (end of input at the prompt)"
				  : r == -EINTR ? "interrupted at the sudo password prompt"
						: "the sudo password typed is longer than 1023 bytes");
			process_result_release(&res);
			return r == -EINTR ? -EINTR : -EACCES;
		}
		if (r < 0) {
			set_error(t, "root is needed on '%s': sudo -n wants a password and there is no terminal to ask (log in as root, or allow sudo without a password)",
				  t->spec);
			process_result_release(&res);
			return -EACCES;
		}
		process_result_release(&res);
		t->root_method = ROOT_SUDO_PASSWORD;
		r = run_raw(t, "probe", NULL, NULL, 0, ROOT_SUDO_PASSWORD, false, 60000, &res);
		if (r < 0)
			return r;
		if (res.exit_code != 0 || !strstr(res.out, "uid\t0\n")) {
			t->root_method = ROOT_UNAVAILABLE;
			password_forget(t);
			set_error(t, "sudo on '%s' refused the password", t->spec);
			process_result_release(&res);
			return -EACCES;
		}
	}
	process_result_release(&res);
	return 0;
}

const char *target_root_method(const struct target *t)
{
	switch (t->root_method) {
	case ROOT_NOT_NEEDED:
		return "none needed (captured tree)";
	case ROOT_DIRECT:
		return "root login";
	case ROOT_SUDO:
		return "sudo -n";
	case ROOT_SUDO_PASSWORD:
		return "sudo with password";
	case ROOT_UNKNOWN:
	case ROOT_UNAVAILABLE:
		break;
	}
	return NULL;
}

static enum root_method method_for(const struct target *t, bool as_root)
{
	if (!as_root || t->root_method == ROOT_NOT_NEEDED || t->root_method == ROOT_DIRECT)
		return ROOT_UNKNOWN;
	return t->root_method;
}

/* Whether script name exists and, as_root, whether root is available on t. 0 or -errno. */
static int script_runnable(struct target *t, const char *name, bool as_root)
{
	if (!target_script_text(name)) {
		set_error(t, "no embedded script '%s'", name);
		return -ENOENT;
	}
	return as_root ? target_probe_root(t) : 0;
}

int target_run_script(struct target *t, const char *name, const char *const *args,
		      const char *stdin_data, size_t stdin_len, bool as_root, int timeout_ms,
		      struct process_result *ret)
{
	int r = script_runnable(t, name, as_root);

	if (r < 0)
		return r;
	return run_raw(t, name, args, stdin_data, stdin_len, method_for(t, as_root), false,
		       timeout_ms, ret);
}

int target_run_script_to_fd(struct target *t, const char *name, const char *const *args, bool as_root,
			    int timeout_ms, int out_fd, struct process_result *ret)
{
	int r = script_runnable(t, name, as_root);

	if (r < 0)
		return r;
	return run_raw_to(t, name, args, NULL, 0, method_for(t, as_root), false, timeout_ms, out_fd, ret);
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
		r = script_runnable(t, jobs[i].name, jobs[i].as_root);
	if (r < 0)
		return r;
	for (size_t i = 0; i < n && together; i++)
		together = batch_fits(t, jobs[i].args, NULL, 0, method_for(t, jobs[i].as_root), false, -1);
	if (!together) {
		for (; done < n; done++) {
			r = target_run_script(t, jobs[done].name, jobs[done].args, NULL, 0, jobs[done].as_root,
					      timeout_ms, &ret[done]);
			if (r < 0)
				break;
		}
		goto out;
	}
	if (t->batch.pid <= 0 && (r = batch_start(t)) < 0)
		return r;
	for (size_t i = 0; i < n; i++) {
		enum root_method how = method_for(t, jobs[i].as_root);
		char *text = script_text(t, jobs[i].name, how);

		batch_request(t, &req, "bg", text, jobs[i].name, jobs[i].args, NULL, 0, how);
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

int target_read_file(struct target *t, const char *path, size_t max, bool as_root,
		     char **ret_data, size_t *ret_len)
{
	struct process_result res;
	char *limit = xasprintf("%zu", max + 1);
	const char *args[] = { path, limit, NULL };
	int r;

	r = target_run_script(t, "read-file", args, NULL, 0, as_root, 60000, &res);
	free(limit);
	if (r < 0)
		return r;
	switch (res.exit_code) {
	case TARGET_EXIT_OK:
		break;
	case TARGET_EXIT_NOT_FOUND:
		set_error(t, "'%s' does not exist on '%s'", path, t->spec);
		process_result_release(&res);
		return -ENOENT;
	case TARGET_EXIT_NOT_REGULAR:
		set_error(t, "'%s' on '%s' is not a regular file", path, t->spec);
		process_result_release(&res);
		return -EINVAL;
	default: {
		char *why = last_line(res.err);

		set_error(t, "cannot read '%s' on '%s': %s", path, t->spec, *why ? why : "failed");
		free(why);
		process_result_release(&res);
		return -EIO;
	}
	}
	/* Cut by the capture (PROCESS_OUTPUT_MAX) is as long as cut by the script. */
	if (res.out_len > max || res.out_truncated) {
		set_error(t, "'%s' on '%s' is longer than %zu bytes", path, t->spec,
			  res.out_truncated && res.out_len < max ? res.out_len : max);
		process_result_release(&res);
		return -EFBIG;
	}
	*ret_data = res.out;
	*ret_len = res.out_len;
	free(res.err);
	return 0;
}

int target_boot_id(struct target *t, bool fresh_connection, int timeout_ms, char **ret_boot_id)
{
	struct process_result res;
	char *id;
	int r;

	r = run_raw(t, "boot-id", NULL, NULL, 0, ROOT_UNKNOWN, fresh_connection, timeout_ms, &res);
	if (r < 0)
		return r;
	id = last_line(res.out);
	if (res.exit_code != 0 || !boot_id_valid(id)) {
		set_error(t, "'%s' gave no boot id (exit %d): '%.64s'", t->spec, res.exit_code, id);
		free(id);
		process_result_release(&res);
		return -EPROTO;
	}
	process_result_release(&res);
	*ret_boot_id = id;
	return 0;
}

int target_poll_boot_id(struct target *t, int timeout_ms, char **ret_boot_id)
{
	bool keep = t->kind == TARGET_SSH && !t->no_master && !t->master && control_path_make(t) == 0;
	struct stat st;
	int r;

	/* A socket left by a master that did not stop would make ssh share nothing. */
	if (keep && lstat(t->control_path, &st) == 0)
		unlink(t->control_path);
	t->becoming_master = keep;
	r = target_boot_id(t, true, timeout_ms, ret_boot_id);
	t->becoming_master = false;
	if (keep && r == 0) {
		t->master = true;
	} else if (keep && lstat(t->control_path, &st) == 0) {
		/* Connected, but no boot id came: that master goes. */
		t->master = true;
		stop_master(t);
	}
	return r;
}

/* Whether a snapshot's output ends in its closing "end" line (a line of its own). */
static bool ends_in_end(const struct process_result *snap)
{
	return snap->out_len >= 4 && !strcmp(snap->out + snap->out_len - 4, "end\n") &&
	       (snap->out_len == 4 || snap->out[snap->out_len - 5] == '\n');
}

/* Records put before the snapshot's closing "end" line, so the parser reads one record. */
static void insert_before_end(struct process_result *snap, const char *text, size_t len)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_add(&sb, snap->out, snap->out_len - 4);
	strbuf_add(&sb, text, len);
	strbuf_addstr(&sb, "end\n");
	free(snap->out);
	snap->out = strbuf_detach(&sb, &snap->out_len);
}

/*
 * A script's output (kernel-id.sh's or inventory.sh's) goes before the
 * snapshot's closing "end" line; a script that failed is an error. res is
 * released; with ret_out, its output is the caller's too.
 */
static int script_take(struct target *t, const char *script, struct process_result *res,
		       struct process_result *snap, char **ret_out)
{
	if (res->exit_code != 0 || res->out_truncated) {
		char *why = last_line(res->err);

		set_error(t, "%s on '%s' failed (exit %d): %s", script, t->spec, res->exit_code,
			  res->out_truncated ? "output too long" : *why ? why : "no message");
		free(why);
		process_result_release(res);
		return -EIO;
	}
	insert_before_end(snap, res->out, res->out_len);
	if (ret_out) {
		*ret_out = res->out;
		res->out = NULL;
	}
	process_result_release(res);
	return 0;
}

/* script run alone, its records put into snap as script_take() does. */
static int script_append(struct target *t, const char *script, const char *const *args, bool as_root,
			 struct process_result *snap)
{
	struct process_result res;
	int r = target_run_script(t, script, args, NULL, 0, as_root, 120000, &res);

	return r < 0 ? r : script_take(t, script, &res, snap, NULL);
}

/* The value of the first record KEY<TAB>VALUE in out (the caller's), or NULL. */
static char *record_value(const char *out, const char *key)
{
	size_t n = strlen(key);

	for (const char *p = out; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
		if (!strncmp(p, key, n) && p[n] == '\t')
			return xstrndup(p + n + 1, strcspn(p + n + 1, "\n"));
	return NULL;
}

/* The GNU build id kernel-id.sh's kernel_notes record holds, or NULL. */
static char *notes_build_id(const char *out)
{
	char *hex = record_value(out, "kernel_notes"), *id = NULL;
	unsigned char *notes;
	size_t len;

	if (hex && hex_decode(hex, &notes, &len) == 0) {
		if (kernel_notes_build_id(notes, len, &id) < 0)
			id = NULL;
		free(notes);
	}
	free(hex);
	return id;
}

/*
 * kernel-id.sh's records, from its run in res: with memos that run was its
 * part before the config. When a memo is of this very kernel (the release
 * snapshot.sh read, the build id in the notes), the memo's config records,
 * marked as read on that boot, stand for the config part; otherwise that
 * part runs now. Both ways the records come in the order of one whole run.
 */
static int kernel_id_take(struct target *t, bool as_root, const struct target_snapshot_options *o,
			  struct process_result *res, struct process_result *snap)
{
	static const char *const config[] = { "config", NULL };
	const struct snapshot_config_memo *memo = NULL;
	struct strbuf sb = STRBUF_INIT;
	char *out = NULL, *release, *id;
	int r;

	if (!o || !o->n_memos)
		return script_take(t, target_snapshot_scripts[1], res, snap, NULL);
	r = script_take(t, target_snapshot_scripts[1], res, snap, &out);
	if (r < 0 || !out)
		return r;
	release = record_value(snap->out, "kernel");
	id = notes_build_id(out);
	for (size_t i = 0; release && id && i < o->n_memos && !memo; i++)
		if (!strcmp(o->memos[i].build_id, id) && !strcmp(o->memos[i].kernel, release))
			memo = &o->memos[i];
	free(release);
	free(id);
	free(out);
	if (!memo)
		return script_append(t, target_snapshot_scripts[1], config, as_root, snap);
	snapshot_config_memo_records(memo, &sb);
	insert_before_end(snap, sb.buf, sb.len);
	strbuf_release(&sb);
	return 0;
}

const char *const target_snapshot_scripts[] = { "snapshot", "kernel-id", "inventory", NULL };

static int snapshot_run(struct target *t, const char *const *args, bool as_root,
			const struct target_snapshot_options *o, struct snapshot *ret, char **ret_raw,
			struct parse_error *err);

int target_snapshot(struct target *t, const char *const *args, bool as_root,
		    struct snapshot *ret, char **ret_raw, struct parse_error *err)
{
	return target_snapshot_with(t, args, as_root, NULL, ret, ret_raw, err);
}

int target_snapshot_with(struct target *t, const char *const *args, bool as_root,
			 const struct target_snapshot_options *o, struct snapshot *ret, char **ret_raw,
			 struct parse_error *err)
{
	int r;

	/* The scripts in one session. */
	target_batch_begin(t);
	r = snapshot_run(t, args, as_root, o, ret, ret_raw, err);
	target_batch_end(t);
	return r;
}

static int snapshot_run(struct target *t, const char *const *args, bool as_root,
			const struct target_snapshot_options *o, struct snapshot *ret, char **ret_raw,
			struct parse_error *err)
{
	static const char *const first[] = { "noconfig", NULL }, *const nolog_args[] = { "nolog", NULL };
	bool whole = !o || !o->sysfs_only, nolog = false, devices = whole && !(o && o->no_devices);
	struct process_result runs[4], res;
	struct target_job jobs[4];
	size_t n = devices ? 3 : whole ? 2 : 1;
	bool beside = o && o->beside && o->beside_ret;
	int r = 0;

	/* The kernel's records and the devices come from scripts of their own
	 * (one SSH command line has room for one script: dropbear takes at
	 * most 9000 bytes), run beside snapshot.sh; nolog leaves the device
	 * inventory's kernel log out as well. */
	for (size_t i = 0; args && args[i]; i++)
		nolog |= !strcmp(args[i], "nolog");
	jobs[0] = (struct target_job){ target_snapshot_scripts[0], args, as_root };
	jobs[1] = (struct target_job){ target_snapshot_scripts[1], o && o->n_memos ? first : NULL, as_root };
	jobs[2] = (struct target_job){ target_snapshot_scripts[2], nolog ? nolog_args : NULL, as_root };
	if (beside)
		jobs[n] = *o->beside;
	r = target_run_scripts(t, n + beside, jobs, 120000, runs);
	if (r < 0)
		return r;
	if (beside) {
		process_result_release(o->beside_ret);
		*o->beside_ret = runs[n];
	}
	res = runs[0];
	if (res.exit_code != 0) {
		char *why = last_line(res.err);

		set_error(t, "snapshot on '%s' failed (exit %d): %s", t->spec, res.exit_code,
			  *why ? why : "no message");
		free(why);
		r = -EIO;
	} else if (res.out_truncated) {
		set_error(t, "snapshot output from '%s' is too long", t->spec);
		r = -EFBIG;
	} else if (whole && ends_in_end(&res)) {
		/* A snapshot without its last line is left as it is, for the parser to refuse. */
		r = kernel_id_take(t, as_root, o, &runs[1], &res);
		if (r == 0 && devices)
			r = script_take(t, target_snapshot_scripts[2], &runs[2], &res, NULL);
	}
	for (size_t i = 1; i < n; i++)
		process_result_release(&runs[i]);
	if (r < 0) {
		process_result_release(&res);
		return r;
	}
	r = snapshot_parse(res.out, res.out_len, ret, err);
	if (r < 0) {
		char *name = xasprintf("snapshot output from '%s'", t->spec);

		parse_error_set_file(err, name);
		free(name);
		process_result_release(&res);
		return r;
	}
	/* The raw output is kept with the boot's results (snapshot.out). */
	ret->raw = xstrndup(res.out, res.out_len);
	if (ret_raw) {
		*ret_raw = res.out;
		res.out = NULL;
	}
	process_result_release(&res);
	return 0;
}

int target_ask_password_tty(const char *target, char **ret_password)
{
	char *prompt = xasprintf("bootab: sudo password on %s: ", target);
	int r;

	if (!isatty(STDIN_FILENO)) {
		free(prompt);
		return -ENOTTY;
	}
	r = tty_read_secret(prompt, ret_password);
	free(prompt);
	return r;
}
