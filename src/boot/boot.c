#include "boot/boot.h"

#include <errno.h>
#include <stdio.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/alloc.h"
#include "lib/file.h"
#include "lib/strbuf.h"

/* ---- the local io ---- */

struct local_io {
	char *root;            /* NULL: the real root */
};

/* Symlinks followed while resolving one path, as the kernel's MAXSYMLINKS. */
#define ROOT_MAX_SYMLINKS 40

static void pop_component(struct strbuf *sb)
{
	char *slash = strrchr(sb->buf ? sb->buf : "", '/');

	strbuf_truncate(sb, slash ? (size_t)(slash - sb->buf) : 0);
}

/*
 * path resolved inside root as if root were "/" (chroot semantics, like
 * openat2()'s RESOLVE_IN_ROOT): ".." stops at root, and a symlink is
 * followed inside root, an absolute target taken from root. So a tree
 * whose /boot/grub2/grubenv links to /boot/efi/EFI/fedora/grubenv reads
 * the tree's own file, and no link reaches the controller's /etc.
 * follow_last: also follow a symlink in the last component (reads);
 * without it, the link itself is what is replaced or removed.
 * Returns 0 and *ret (root + resolved path), or -ELOOP / -errno.
 */
static int root_resolve(const char *root, const char *path, bool follow_last, char **ret)
{
	struct strbuf resolved = STRBUF_INIT, rest = STRBUF_INIT;
	unsigned links = 0;
	int r = 0;

	strbuf_addstr(&rest, path);
	while (rest.len) {
		size_t n = strcspn(rest.buf, "/");
		char *name = xstrndup(rest.buf, n), *next = xstrdup(rest.buf + n + (rest.buf[n] == '/'));
		bool last = !*next;

		strbuf_release(&rest);
		strbuf_addstr(&rest, next);
		free(next);
		if (!*name || !strcmp(name, ".")) {
			free(name);
			continue;
		}
		if (!strcmp(name, "..")) {
			pop_component(&resolved);
			free(name);
			continue;
		}
		strbuf_addch(&resolved, '/');
		strbuf_addstr(&resolved, name);
		free(name);
		if (!last || follow_last) {
			char *full = path_join(root, strbuf_str(&resolved));
			char target[4096];
			ssize_t len = readlink(full, target, sizeof(target));

			free(full);
			if (len < 0)
				continue;   /* not a link, or not there: the operation says which */
			if ((size_t)len >= sizeof(target)) {
				r = -ENAMETOOLONG;
				goto out;
			}
			if (++links > ROOT_MAX_SYMLINKS) {
				r = -ELOOP;
				goto out;
			}
			target[len] = '\0';
			pop_component(&resolved);
			if (target[0] == '/')
				strbuf_truncate(&resolved, 0);
			next = xasprintf("%s/%s", target, strbuf_str(&rest));
			strbuf_release(&rest);
			strbuf_addstr(&rest, next);
			free(next);
		}
	}
	*ret = path_join(root, resolved.len ? resolved.buf : "/");
out:
	strbuf_release(&resolved);
	strbuf_release(&rest);
	return r;
}

static int local_path(struct boot_io *io, const char *path, bool follow_last, char **ret)
{
	struct local_io *l = io->data;

	if (!l->root) {
		*ret = xstrdup(path);
		return 0;
	}
	return root_resolve(l->root, path, follow_last, ret);
}

static int local_read_file(struct boot_io *io, const char *path, char **ret_data, size_t *ret_len)
{
	char *p;
	int r = local_path(io, path, true, &p);

	if (r < 0)
		return r;
	r = file_read(p, FILE_READ_MAX, ret_data, ret_len);
	free(p);
	return r;
}

static int local_write_file(struct boot_io *io, const char *path, const void *data, size_t len,
			    mode_t mode)
{
	char *p, *target;
	struct stat st;
	int r;

	r = local_path(io, path, false, &p);
	if (r < 0)
		return r;
	if (local_path(io, path, true, &target) == 0) {
		if (stat(target, &st) == 0)
			mode = st.st_mode & 07777;
		free(target);
	}
	r = file_write_atomic(p, data, len, mode);
	free(p);
	return r;
}

static int local_is_link(struct boot_io *io, const char *path)
{
	struct stat st;
	char *p;
	int r = local_path(io, path, false, &p);

	if (r < 0)
		return r == -ENOENT ? 0 : r;
	r = lstat(p, &st) == 0 ? S_ISLNK(st.st_mode) : errno == ENOENT ? 0 : -errno;
	free(p);
	return r;
}

static int local_rename_file(struct boot_io *io, const char *from, const char *to)
{
	char *f = NULL, *t = NULL;
	int r = local_path(io, from, false, &f);

	if (r == 0)
		r = local_path(io, to, false, &t);
	if (r == 0)
		r = file_rename(f, t);
	free(f);
	free(t);
	return r;
}

static int local_remove_file(struct boot_io *io, const char *path)
{
	char *p;
	int r = local_path(io, path, false, &p);

	if (r < 0)
		return r;
	r = unlink(p) < 0 ? -errno : 0;
	free(p);
	return r;
}

static int local_list_dir(struct boot_io *io, const char *path, char ***ret_names, size_t *ret_count)
{
	char *p;
	int r = local_path(io, path, true, &p);

	if (r < 0)
		return r;
	r = dir_list(p, ret_names, ret_count);
	free(p);
	return r;
}

static int local_exists(struct boot_io *io, const char *path)
{
	char *p;
	struct stat st;
	int r = local_path(io, path, true, &p);

	if (r < 0)
		return r == -ELOOP ? 0 : r;
	if (stat(p, &st) == 0)
		r = 1;
	else
		r = errno == ENOENT || errno == ENOTDIR ? 0 : -errno;
	free(p);
	return r;
}

/* A tree's tools are code from the tree: only a test that asks for them runs them. */
static int local_may_run(struct boot_io *io, const char *program, const char **ret_why)
{
	struct local_io *l = io->data;
	const char *opt = getenv("BOOTAB_TEST_ROOT_TOOLS");

	(void)program;
	if (!l->root || (opt && !strcmp(opt, "1")))
		return 0;
	*ret_why = "a --root tree's own tools run only with the test option BOOTAB_TEST_ROOT_TOOLS=1";
	return -EPERM;
}

static int local_run(struct boot_io *io, const char *const *argv, struct process_result *ret)
{
	static const char *const bin_dirs[] = { "usr/sbin", "usr/bin", "sbin", "bin" };
	struct local_io *l = io->data;
	struct process_options options = { .timeout_ms = 10 * 60 * 1000 };
	const char **full;
	char *program = NULL, *env_root;
	size_t n = 0;
	int r;

	if (!l->root)
		return process_run(argv, &options, ret);
	{
		const char *why;

		if (local_may_run(io, argv[0], &why) < 0)
			return -EPERM;
	}

	/* A fixture root carries its own tools: never fall back to the host's
	 * update-grub or kernel-install, which would change the real /boot. */
	if (!strchr(argv[0], '/'))
		for (size_t i = 0; i < sizeof(bin_dirs) / sizeof(bin_dirs[0]) && !program; i++) {
			char *in_root = xasprintf("/%s/%s", bin_dirs[i], argv[0]), *candidate;

			/* Resolved in the root: a link to the host's tool is not the tree's tool. */
			if (root_resolve(l->root, in_root, true, &candidate) == 0) {
				if (access(candidate, X_OK) == 0)
					program = candidate;
				else
					free(candidate);
			}
			free(in_root);
		}
	if (!program)
		return -ENOENT;
	while (argv[n])
		n++;
	full = xcalloc(n + 3, sizeof(char *));
	env_root = xasprintf("BOOTAB_ROOT=%s", l->root);
	full[0] = "env";
	full[1] = env_root;
	full[2] = program;
	for (size_t i = 1; i < n; i++)
		full[i + 2] = argv[i];
	r = process_run(full, &options, ret);
	free(full);
	free(env_root);
	free(program);
	return r;
}

static void local_release(void *data)
{
	struct local_io *l = data;

	if (l)
		free(l->root);
	free(l);
}

struct boot_io *boot_io_local_new(const char *root)
{
	struct boot_io *io;
	struct local_io *l;

	if (root && strcmp(root, "/") && !path_is_dir(root))
		return NULL;
	io = xcalloc(1, sizeof(*io));
	l = xcalloc(1, sizeof(*l));
	l->root = root && strcmp(root, "/") ? xstrdup(root) : NULL;
	io->read_file = local_read_file;
	io->write_file = local_write_file;
	io->rename_file = local_rename_file;
	io->remove_file = local_remove_file;
	io->list_dir = local_list_dir;
	io->exists = local_exists;
	io->run = local_run;
	io->may_run = local_may_run;
	io->is_link = local_is_link;
	io->description = l->root ? xasprintf("local root %s", l->root) : xstrdup("local");
	io->data = l;
	io->release_data = local_release;
	return io;
}

void boot_io_free(struct boot_io *io)
{
	if (!io)
		return;
	if (io->release_data)
		io->release_data(io->data);
	free(io->description);
	free(io);
}

int boot_io_read_optional(struct boot_io *io, const char *path, char **ret_data, size_t *ret_len)
{
	int r = io->read_file(io, path, ret_data, ret_len);

	if (r == -ENOENT) {
		*ret_data = NULL;
		if (ret_len)
			*ret_len = 0;
		return 0;
	}
	return r;
}

/* ---- plans ---- */

static char **strv_copy(const char *const *v)
{
	size_t n = 0;
	char **copy;

	while (v[n])
		n++;
	copy = xcalloc(n + 1, sizeof(char *));
	for (size_t i = 0; i < n; i++)
		copy[i] = xstrdup(v[i]);
	return copy;
}

static struct boot_action *plan_add(struct boot_plan *plan)
{
	struct boot_action *a;

	GROW(plan->actions, plan->alloc_actions, plan->n_actions + 1);
	a = &plan->actions[plan->n_actions++];
	memset(a, 0, sizeof(*a));
	return a;
}

static char *memdup_nul(const char *data, size_t len)
{
	char *p = xmalloc(len + 1);

	memcpy(p, data, len);
	p[len] = '\0';
	return p;
}

void boot_plan_add_write(struct boot_plan *plan, const char *path, const char *old_data,
			 size_t old_len, const char *new_data, size_t new_len, mode_t mode)
{
	struct boot_action *a = plan_add(plan);

	a->kind = BOOT_ACTION_WRITE;
	a->path = xstrdup(path);
	a->old_data = old_data ? memdup_nul(old_data, old_len) : NULL;
	a->old_len = old_data ? old_len : 0;
	a->new_data = memdup_nul(new_data, new_len);
	a->new_len = new_len;
	a->mode = mode;
}

void boot_plan_add_run(struct boot_plan *plan, const char *const *argv, bool regenerate)
{
	struct boot_action *a = plan_add(plan);

	a->kind = BOOT_ACTION_RUN;
	a->argv = strv_copy(argv);
	a->regenerate = regenerate;
}

void boot_plan_add_protect(struct boot_plan *plan, const char *path)
{
	for (size_t i = 0; i < plan->n_protect; i++)
		if (!strcmp(plan->protect[i], path))
			return;
	GROW(plan->protect, plan->alloc_protect, plan->n_protect + 1);
	plan->protect[plan->n_protect++] = xstrdup(path);
}

void boot_plan_add_note(struct boot_plan *plan, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	GROW(plan->notes, plan->alloc_notes, plan->n_notes + 1);
	plan->notes[plan->n_notes++] = strbuf_detach(&sb, NULL);
}

void boot_plan_release(struct boot_plan *plan)
{
	if (!plan)
		return;
	for (size_t i = 0; i < plan->n_actions; i++) {
		struct boot_action *a = &plan->actions[i];

		free(a->path);
		free(a->old_data);
		free(a->new_data);
		strv_free(a->argv);
	}
	free(plan->actions);
	for (size_t i = 0; i < plan->n_protect; i++)
		free(plan->protect[i]);
	free(plan->protect);
	for (size_t i = 0; i < plan->n_notes; i++)
		free(plan->notes[i]);
	free(plan->notes);
	memset(plan, 0, sizeof(*plan));
}

bool boot_plan_changes(const struct boot_plan *plan)
{
	return plan->n_actions > 0;
}

/* ---- executing a plan ---- */

struct saved_file {
	char *path;
	char *data;            /* NULL: did not exist */
	size_t len;
};

static void put_back(struct boot_io *io, const struct saved_file *s)
{
	/* Best effort: the first failure is the one reported. */
	if (s->data)
		(void)io->write_file(io, s->path, s->data, s->len, 0644);
	else
		(void)io->remove_file(io, s->path);
}

static char *first_line(const char *s)
{
	const char *end;

	while (*s == '\n' || *s == ' ')
		s++;
	end = strchr(s, '\n');
	return end ? xstrndup(s, (size_t)(end - s)) : xstrdup(s);
}

static char *argv_join(char *const *argv)
{
	struct strbuf sb = STRBUF_INIT;

	for (size_t i = 0; argv[i]; i++) {
		if (i)
			strbuf_addch(&sb, ' ');
		strbuf_addstr(&sb, argv[i]);
	}
	return strbuf_detach(&sb, NULL);
}

static int run_action(struct boot_io *io, const struct boot_action *a, struct parse_error *err)
{
	struct process_result res;
	char *cmd = argv_join(a->argv);
	int r;

	r = io->run(io, (const char *const *)a->argv, &res);
	if (r < 0) {
		parse_error_set_file(err, a->argv[0]);
		parse_error_set(err, 0, 0, "cannot run '%s': %s", cmd,
				r == -ENOENT ? "program not found" : strerror(-r));
		free(cmd);
		return r;
	}
	if (res.exit_code != 0 || res.timed_out) {
		char *line = first_line(res.err_len ? res.err : res.out);

		parse_error_set_file(err, a->argv[0]);
		if (res.timed_out)
			parse_error_set(err, 0, 0, "'%s' timed out", cmd);
		else
			parse_error_set(err, 0, 0, "'%s' exited %d%s%s", cmd, res.exit_code,
					*line ? ": " : "", line);
		free(line);
		process_result_release(&res);
		free(cmd);
		return -EIO;
	}
	process_result_release(&res);
	free(cmd);
	return 0;
}

static char *temp_name(const char *path)
{
	return xasprintf("%s.bootab-new", path);
}

/*
 * What is refused before anything changes: a file to write that is a
 * symlink (a file is replaced whole, temporary file and rename: over a
 * symlink that would put a copy where the link was and leave the file it
 * pointed to as it was), and a program io may not run. Returns 0 or
 * -ELOOP / -EPERM with err set.
 */
static int plan_refused(struct boot_io *io, const struct boot_plan *plan, const size_t *writes,
			size_t n_writes, struct parse_error *err)
{
	for (size_t i = 0; i < n_writes && io->is_link; i++) {
		const char *path = plan->actions[writes[i]].path;

		if (io->is_link(io, path) > 0) {
			parse_error_set_file(err, path);
			parse_error_set(err, 0, 0, "a symbolic link: bootab replaces files whole and would turn the link into a copy; point the boot loader at the file itself; nothing was changed");
			return -ELOOP;
		}
	}
	for (size_t i = 0; i < plan->n_actions && io->may_run; i++) {
		const char *why = NULL;

		if (plan->actions[i].kind == BOOT_ACTION_RUN &&
		    io->may_run(io, plan->actions[i].argv[0], &why) < 0) {
			parse_error_set_file(err, plan->actions[i].argv[0]);
			parse_error_set(err, 0, 0, "not run: %s; nothing was changed", why);
			return -EPERM;
		}
	}
	return 0;
}

/* Each file to write still holds what the plan read. Returns 0, or -ESTALE / -errno with err set. */
static int plan_files_unchanged(struct boot_io *io, const struct boot_plan *plan, const size_t *writes,
				size_t n_writes, struct parse_error *err)
{
	for (size_t k = 0; k < n_writes; k++) {
		const struct boot_action *a = &plan->actions[writes[k]];
		char *now = NULL;
		size_t len = 0;
		int r = boot_io_read_optional(io, a->path, &now, &len);
		bool same = r == 0 && (now == NULL) == (a->old_data == NULL) &&
			    (!now || (len == a->old_len && !memcmp(now, a->old_data, len)));

		free(now);
		if (!same) {
			parse_error_set_file(err, a->path);
			parse_error_set(err, 0, 0, "%s", r < 0 ? strerror(-r) :
					"changed since it was read; nothing was written");
			return r < 0 ? r : -ESTALE;
		}
	}
	return 0;
}

int boot_plan_execute(struct boot_io *io, const struct boot_plan *plan, struct parse_error *err)
{
	struct saved_file *saved = xcalloc(plan->n_actions + plan->n_protect + 1, sizeof(*saved));
	size_t n_saved = 0, n_temps = 0, n_renamed = 0, n_ran = 0;
	size_t *writes = xcalloc(plan->n_actions + 1, sizeof(size_t));
	size_t n_writes = 0;
	int r = 0;

	for (size_t i = 0; i < plan->n_actions; i++)
		if (plan->actions[i].kind == BOOT_ACTION_WRITE)
			writes[n_writes++] = i;
	r = plan_refused(io, plan, writes, n_writes, err);
	if (r < 0) {
		free(saved);
		free(writes);
		return r;
	}

	/* 1. Every new file under a temporary name. */
	for (; n_temps < n_writes; n_temps++) {
		const struct boot_action *a = &plan->actions[writes[n_temps]];
		char *tmp = temp_name(a->path);

		r = io->write_file(io, tmp, a->new_data, a->new_len, a->mode);
		free(tmp);
		if (r < 0) {
			parse_error_set_file(err, a->path);
			parse_error_set(err, 0, 0, "cannot write a temporary copy: %s", strerror(-r));
			goto undo_temps;
		}
	}

	/* 2. Nothing changed under us since the plan read the files. */
	r = plan_files_unchanged(io, plan, writes, n_writes, err);
	if (r < 0)
		goto undo_temps;

	/* 3. The files the commands may rewrite, as they are now. */
	for (size_t k = 0; k < plan->n_protect; k++) {
		struct saved_file *s = &saved[n_saved];

		s->path = xstrdup(plan->protect[k]);
		r = boot_io_read_optional(io, s->path, &s->data, &s->len);
		n_saved++;
		if (r < 0) {
			parse_error_set_file(err, s->path);
			parse_error_set(err, 0, 0, "cannot read: %s", strerror(-r));
			goto undo_temps;
		}
	}

	/* 4. Rename every temporary over its file. */
	for (; n_renamed < n_writes; n_renamed++) {
		const struct boot_action *a = &plan->actions[writes[n_renamed]];
		char *tmp = temp_name(a->path);

		r = io->rename_file(io, tmp, a->path);
		free(tmp);
		if (r < 0) {
			parse_error_set_file(err, a->path);
			parse_error_set(err, 0, 0, "cannot replace: %s", strerror(-r));
			goto undo_renames;
		}
	}

	/* 5. The commands, in order. */
	for (size_t i = 0; i < plan->n_actions; i++) {
		const struct boot_action *a = &plan->actions[i];

		if (a->kind != BOOT_ACTION_RUN)
			continue;
		r = run_action(io, a, err);
		if (r < 0)
			goto undo_renames;
		n_ran = i + 1;
	}
	goto out;

undo_renames:
	for (size_t k = 0; k < n_renamed; k++) {
		const struct boot_action *a = &plan->actions[writes[k]];
		struct saved_file s = { a->path, a->old_data, a->old_len };

		put_back(io, &s);
	}
	/* Regenerate what the commands that did run built from the new files,
	 * then put the protected files back byte for byte. */
	for (size_t i = 0; i < n_ran; i++) {
		const struct boot_action *a = &plan->actions[i];

		if (a->kind == BOOT_ACTION_RUN && a->regenerate)
			(void)run_action(io, a, NULL);
	}
	for (size_t k = 0; k < n_saved; k++)
		put_back(io, &saved[k]);
	if (err && err->message) {
		char *m = xasprintf("%s; files restored", err->message);

		free(err->message);
		err->message = m;
	}
undo_temps:
	for (size_t k = n_renamed; k < n_temps; k++) {
		char *tmp = temp_name(plan->actions[writes[k]].path);

		(void)io->remove_file(io, tmp);
		free(tmp);
	}
out:
	for (size_t k = 0; k < n_saved; k++) {
		free(saved[k].path);
		free(saved[k].data);
	}
	free(saved);
	free(writes);
	return r;
}

/* ---- state ---- */

void boot_state_add_entry(struct boot_state *state, const char *name, const char *args)
{
	struct boot_entry_args *e;

	GROW(state->entries, state->alloc_entries, state->n_entries + 1);
	e = &state->entries[state->n_entries++];
	e->name = xstrdup(name);
	e->args = xstrdup(args);
}

void boot_state_release(struct boot_state *state)
{
	if (!state)
		return;
	for (size_t i = 0; i < state->n_entries; i++) {
		free(state->entries[i].name);
		free(state->entries[i].args);
	}
	free(state->entries);
	free(state->default_rule);
	free(state->default_kernel);
	free(state->inherit_source);
	free(state->inherit_args);
	free(state->inherit_note);
	memset(state, 0, sizeof(*state));
}

/* ---- backends ---- */

const struct boot_backend *const boot_backends[] = {
	&boot_backend_grubby,
	&boot_backend_bls,
	&boot_backend_kernel_cmdline,
	&boot_backend_grub,
	&boot_backend_kexec,
	NULL,
};

const struct boot_backend *boot_backend_find(const char *name)
{
	for (size_t i = 0; boot_backends[i]; i++)
		if (!strcmp(boot_backends[i]->name, name))
			return boot_backends[i];
	return NULL;
}

int boot_backend_detect(struct boot_io *io, const struct boot_backend **ret, char **ret_found)
{
	for (size_t i = 0; boot_backends[i]; i++) {
		const struct boot_backend *b = boot_backends[i];
		char *found = NULL;
		int r;

		if (b == &boot_backend_kexec)
			continue;
		r = b->detect(io, &found);
		if (r < 0)
			return r;
		if (r > 0) {
			*ret = b;
			*ret_found = found;
			return 0;
		}
	}
	return -ENODEV;
}
