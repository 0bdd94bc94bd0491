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
#include "target/target-internal.h"

void target_set_error(struct target *t, const char *fmt, ...)
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
char *target_last_line(const char *s)
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

			target_set_error(t, "cannot create a private directory for the ssh control socket: %s",
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
		target_set_error(t, "cannot run ssh: %s", strerror(-r));
		return r;
	}
	if (res.timed_out || res.exit_code != 0) {
		char *why = target_last_line(res.err);

		target_set_error(t, "ssh to '%s' failed: %s", t->spec,
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

void target_drop_connection(struct target *t)
{
	if (t)
		target_batch_stop(t);
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
	target_batch_stop(t);
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
char **target_full_argv(const struct target *t, const char *text, const char *name,
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

char *target_script_for(const struct target *t, const char *name, enum root_method how)
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
void target_count_session(struct target *t, bool fresh)
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
	char *text = target_script_for(t, name, ROOT_UNKNOWN), **argv;
	int r;

	if (!text) {
		target_set_error(t, "no embedded script '%s'", name);
		return -ENOENT;
	}
	target_count_session(t, false);
	t->counts.scripts++;
	argv = target_full_argv(t, text, name, args, ROOT_UNKNOWN, t->no_master);
	r = process_stream_start((const char *const *)argv, ret);
	strv_free(argv);
	free(text);
	if (r < 0)
		target_set_error(t, "cannot run %s: %s", t->kind == TARGET_SSH ? "ssh" : t->shell, strerror(-r));
	return r;
}

/* Runs text as name with how; a low-level step shared by probing and scripts. */
static int run_raw_to(struct target *t, const char *name, const char *const *args,
		      const char *stdin_data, size_t stdin_len, enum root_method how,
		      bool fresh, int timeout_ms, int out_fd, struct process_result *ret)
{
	char *text = target_script_for(t, name, how), **argv;
	struct process_options po = { .timeout_ms = timeout_ms, .stdout_to_fd = out_fd >= 0, .stdout_fd = out_fd };
	struct strbuf in = STRBUF_INIT;
	struct process_result res;
	int r;

	if (!text) {
		target_set_error(t, "no embedded script '%s'", name);
		return -ENOENT;
	}
	if (target_batch_fits(t, args, stdin_data, stdin_len, how, fresh, out_fd)) {
		r = target_batch_run(t, text, name, args, stdin_data, stdin_len, how, timeout_ms, ret);
		if (r != -EOPNOTSUPP) {
			free(text);
			return r;
		}
	}
	if (t->kind == TARGET_SSH && fresh && timeout_ms <= 0)
		po.timeout_ms = (t->connect_timeout_s + 10) * 1000;
	target_count_session(t, fresh);
	t->counts.scripts++;
	argv = target_full_argv(t, text, name, args, how, fresh || t->no_master);
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
		target_set_error(t, "cannot run %s: %s", t->kind == TARGET_SSH ? "ssh" : t->shell,
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
		target_set_error(t, "%s on '%s' did not finish within %d s", name, t->spec,
			  po.timeout_ms / 1000);
		process_result_release(&res);
		return -ETIMEDOUT;
	}
	if (t->kind == TARGET_SSH && res.exit_code == 255) {
		char *why = target_last_line(res.err);

		target_set_error(t, "ssh to '%s' failed: %s", t->spec, *why ? why : "connection lost");
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
			target_set_error(t, "root is needed on '%s': the login user is not root and sudo is not available",
				  t->spec);
			process_result_release(&res);
			return -EACCES;
		}
		r = ask_password(t);
		if (r == -ECANCELED || r == -EINTR || r == -E2BIG) {
			target_set_error(t, "root is needed on '%s': %s", t->spec,
				  r == -ECANCELED ? "no sudo password was given (end of input at the prompt)"
				  : r == -EINTR ? "interrupted at the sudo password prompt"
						: "the sudo password typed is longer than 1023 bytes");
			process_result_release(&res);
			return r == -EINTR ? -EINTR : -EACCES;
		}
		if (r < 0) {
			target_set_error(t, "root is needed on '%s': sudo -n wants a password and there is no terminal to ask (log in as root, or allow sudo without a password)",
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
			target_set_error(t, "sudo on '%s' refused the password", t->spec);
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

enum root_method target_method_for(const struct target *t, bool as_root)
{
	if (!as_root || t->root_method == ROOT_NOT_NEEDED || t->root_method == ROOT_DIRECT)
		return ROOT_UNKNOWN;
	return t->root_method;
}

/* Whether script name exists and, as_root, whether root is available on t. 0 or -errno. */
int target_script_runnable(struct target *t, const char *name, bool as_root)
{
	if (!target_script_text(name)) {
		target_set_error(t, "no embedded script '%s'", name);
		return -ENOENT;
	}
	return as_root ? target_probe_root(t) : 0;
}

int target_run_script(struct target *t, const char *name, const char *const *args,
		      const char *stdin_data, size_t stdin_len, bool as_root, int timeout_ms,
		      struct process_result *ret)
{
	int r = target_script_runnable(t, name, as_root);

	if (r < 0)
		return r;
	return run_raw(t, name, args, stdin_data, stdin_len, target_method_for(t, as_root), false,
		       timeout_ms, ret);
}

int target_run_script_to_fd(struct target *t, const char *name, const char *const *args, bool as_root,
			    int timeout_ms, int out_fd, struct process_result *ret)
{
	int r = target_script_runnable(t, name, as_root);

	if (r < 0)
		return r;
	return run_raw_to(t, name, args, NULL, 0, target_method_for(t, as_root), false, timeout_ms, out_fd, ret);
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
		target_set_error(t, "'%s' does not exist on '%s'", path, t->spec);
		process_result_release(&res);
		return -ENOENT;
	case TARGET_EXIT_NOT_REGULAR:
		target_set_error(t, "'%s' on '%s' is not a regular file", path, t->spec);
		process_result_release(&res);
		return -EINVAL;
	default: {
		char *why = target_last_line(res.err);

		target_set_error(t, "cannot read '%s' on '%s': %s", path, t->spec, *why ? why : "failed");
		free(why);
		process_result_release(&res);
		return -EIO;
	}
	}
	/* Cut by the capture (PROCESS_OUTPUT_MAX) is as long as cut by the script. */
	if (res.out_len > max || res.out_truncated) {
		target_set_error(t, "'%s' on '%s' is longer than %zu bytes", path, t->spec,
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
	id = target_last_line(res.out);
	if (res.exit_code != 0 || !boot_id_valid(id)) {
		target_set_error(t, "'%s' gave no boot id (exit %d): '%.64s'", t->spec, res.exit_code, id);
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
