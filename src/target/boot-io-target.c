#include "target/boot-io-target.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/alloc.h"
#include "lib/strvec.h"
#include "lib/file.h"
#include "target/exit-codes.h"

#define IO_TIMEOUT_MS 120000
/* A boot loader's own tool (update-grub on a slow box with several kernels) gets longer. */
#define RUN_TIMEOUT_MS 600000

/*
 * What one `io.sh dump` said of a path: a read of the boot loader's files
 * is answered from it until anything on the box changes, so that reading
 * a whole configuration costs one SSH session instead of one per file.
 */
struct cached_path {
	char *path;
	bool exists, link, file, dir;
	bool live;                  /* ask the box itself (the path leads out of the root) */
	bool have_bytes;            /* a file's bytes or a directory's names */
	char *bytes;
	size_t len;
};

struct io_state {
	struct target *t;
	bool cache_valid;           /* a dump answered since the last change */
	struct cached_path *paths;
	size_t n_paths, n_alloc;
};

/*
 * The files and directories the backends read to plan and to read back a
 * change (bls, grub, grubby, kernel-cmdline; see src/boot/). A path not
 * listed is read from the box as it is asked for, so this list only
 * decides how many sessions a step costs, never what it reads.
 */
/* io.sh's arguments for the dump: "dump", then the specs. */
static const char *const dump_args[] = {
	"dump",
	"d:/boot/loader/entries", "d:/efi/loader/entries", "d:/boot/efi/loader/entries",
	"f:/boot/loader/loader.conf", "f:/efi/loader/loader.conf", "f:/boot/efi/loader/loader.conf",
	"f:/sys/firmware/efi/efivars/LoaderEntryDefault-4a67b082-0a4c-41cf-b6c7-440b29bb8c4f",
	"e:/sys/firmware/efi/efivars",
	"f:/etc/kernel/cmdline", "f:/usr/lib/kernel/cmdline",
	"f:/etc/default/grub", "d:/etc/default/grub.d",
	"f:/boot/grub/grub.cfg", "f:/boot/grub/grubenv", "f:/boot/grub/custom.cfg",
	"f:/boot/grub2/grub.cfg", "f:/boot/grub2/grubenv",
	"e:/usr/sbin/grubby", "e:/usr/bin/grubby", "e:/sbin/grubby",
	/* Where unified kernel images are, and the releases their names end in: names only (boot/kernels.c). */
	"n:/boot/EFI/Linux", "n:/efi/EFI/Linux", "n:/boot/efi/EFI/Linux", "n:/lib/modules", "n:/usr/lib/modules",
	NULL,
};
static const char *const *const dump_specs = dump_args + 1;

static struct io_state *io_state(struct boot_io *io)
{
	return io->data;
}

static struct target *io_target(struct boot_io *io)
{
	return io_state(io)->t;
}

static void cache_clear(struct io_state *st)
{
	for (size_t i = 0; i < st->n_paths; i++) {
		free(st->paths[i].path);
		free(st->paths[i].bytes);
	}
	st->n_paths = 0;
	st->cache_valid = false;
}

static void io_state_free(void *data)
{
	struct io_state *st = data;

	cache_clear(st);
	free(st->paths);
	free(st);
}

/* One record: PATH NUL TYPE NUL SIZE NUL BYTES. Returns false on a malformed one. */
static bool cache_parse_record(struct io_state *st, const char *out, size_t len, size_t *pos)
{
	const char *f[3];
	size_t at = *pos, size = 0;
	struct cached_path c = { 0 };

	for (int i = 0; i < 3; i++) {
		const char *end = memchr(out + at, '\0', len - at);

		if (!end)
			return false;
		f[i] = out + at;
		at = (size_t)(end - out) + 1;
	}
	if (f[0][0] != '/' || strspn(f[1], "ehfdx") != strlen(f[1]))
		return false;
	if (strcmp(f[2], "-")) {
		char *e;
		unsigned long long v;

		if (!*f[2] || strspn(f[2], "0123456789") != strlen(f[2]))
			return false;
		v = strtoull(f[2], &e, 10);
		if (v > len - at)
			return false;
		size = (size_t)v;
		c.have_bytes = true;
	}
	/* x: the path leads out of the root; the live operation says so. */
	c.live = strchr(f[1], 'x');
	{
		c.path = xstrdup(f[0]);
		c.exists = strchr(f[1], 'e');
		c.link = strchr(f[1], 'h');
		c.file = strchr(f[1], 'f');
		c.dir = strchr(f[1], 'd');
		if (c.have_bytes) {
			c.bytes = xmalloc(size + 1);
			memcpy(c.bytes, out + at, size);
			c.bytes[size] = '\0';
			c.len = size;
		}
		if (st->n_paths == st->n_alloc) {
			st->n_alloc = st->n_alloc ? 2 * st->n_alloc : 64;
			st->paths = xrealloc(st->paths, st->n_alloc * sizeof(*st->paths));
		}
		st->paths[st->n_paths++] = c;
	}
	*pos = at + size;
	return true;
}

/* The cache from a dump's answer (NULL: it did not run); on any failure it stays empty. */
static void cache_take(struct io_state *st, const struct process_result *res)
{
	/* Marked valid either way: a box that cannot dump is read path by path. */
	cache_clear(st);
	st->cache_valid = true;
	if (!res || res->exit_code != TARGET_EXIT_OK || res->out_truncated)
		return;
	for (size_t pos = 0; pos < res->out_len;) {
		if (!cache_parse_record(st, res->out, res->out_len, &pos)) {
			cache_clear(st);
			st->cache_valid = true;
			break;
		}
	}
}

/* Asks the box for every path of dump_specs in one script. */
static void cache_fill(struct boot_io *io)
{
	struct io_state *st = io_state(io);
	struct process_result res;
	int r = target_run_script(st->t, "io", dump_args, NULL, 0, true, IO_TIMEOUT_MS, &res);

	cache_take(st, r == 0 ? &res : NULL);
	if (r == 0)
		process_result_release(&res);
}

void boot_io_target_dump_job(struct target_job *job)
{
	*job = (struct target_job){ "io", dump_args, true };
}

void boot_io_target_dump_take(struct boot_io *io, const struct process_result *res)
{
	/* A result that was filled has its output, never NULL. */
	if (res->out)
		cache_take(io_state(io), res);
}

/*
 * Whether a dump tells of path: a spec's path, or an entry of a d: spec's
 * directory; *ret_dir is then that directory (NULL for a spec's path).
 */
static bool dump_covers(const char *path, const char **ret_dir)
{
	for (size_t i = 0; dump_specs[i]; i++) {
		const char *p = dump_specs[i] + 2;
		size_t n = strlen(p);

		*ret_dir = NULL;
		if (!strcmp(path, p))
			return true;
		if (dump_specs[i][0] == 'd' && !strncmp(path, p, n) && path[n] == '/' && path[n + 1] &&
		    !strchr(path + n + 1, '/')) {
			*ret_dir = p;
			return true;
		}
	}
	return false;
}

static struct cached_path *cache_find(struct io_state *st, const char *path)
{
	for (size_t i = 0; i < st->n_paths; i++)
		if (!strcmp(st->paths[i].path, path))
			return &st->paths[i];
	return NULL;
}

/*
 * What the last dump said of path, NULL when it says nothing (ask the box).
 * An entry a directory's listing does not name is absent. A path bootab
 * changed since the dump has no record: the next question about it asks
 * for a new dump, so a read-back always reads the box.
 */
static const struct cached_path *cache_lookup(struct boot_io *io, const char *path)
{
	static const struct cached_path absent = { 0 };
	struct io_state *st = io_state(io);
	const struct cached_path *c, *d;
	const char *dir;

	if (!dump_covers(path, &dir))
		return NULL;
	for (int attempt = 0; attempt < 2; attempt++) {
		if (!st->cache_valid)
			cache_fill(io);
		c = cache_find(st, path);
		if (c)
			return c->live ? NULL : c;
		d = dir ? cache_find(st, dir) : NULL;
		if (d && !d->live && (!d->dir || d->have_bytes))
			return &absent;
		st->cache_valid = false;
	}
	return NULL;
}

/*
 * Forgets what the dump said of path's directory: its listing and every
 * entry in it (and below path). A check that a file is still as planned,
 * made after a temporary was written next to it, reads the box again.
 */
static void cache_forget(struct io_state *st, const char *path)
{
	char *parent = xstrdup(path), *slash = strrchr(parent, '/');
	size_t n = strlen(path), pn;

	if (slash)
		*slash = '\0';
	pn = strlen(parent);
	for (size_t i = 0; i < st->n_paths;) {
		struct cached_path *c = &st->paths[i];

		if (!strcmp(c->path, path) || !strcmp(c->path, parent) ||
		    (!strncmp(c->path, path, n) && c->path[n] == '/') ||
		    (!strncmp(c->path, parent, pn) && c->path[pn] == '/')) {
			free(c->path);
			free(c->bytes);
			*c = st->paths[--st->n_paths];
		} else {
			i++;
		}
	}
	free(parent);
}

/* Runs io.sh OP ARGS as root; the exit code is returned in *ret_exit. */
static int io_script(struct boot_io *io, const char *const *args, const void *in, size_t in_len,
		     struct process_result *ret)
{
	int timeout = !strcmp(args[0], "run") ? RUN_TIMEOUT_MS : IO_TIMEOUT_MS;

	return target_run_script(io_target(io), "io", args, in, in_len, true, timeout, ret);
}

static int exit_to_errno(int code)
{
	switch (code) {
	case TARGET_EXIT_OK:
		return 0;
	case TARGET_EXIT_NOT_FOUND:
		return -ENOENT;
	case TARGET_EXIT_USAGE:
		return -EINVAL;
	default:
		return -EIO;
	}
}

static int t_read_file(struct boot_io *io, const char *path, char **ret_data, size_t *ret_len)
{
	const struct cached_path *c = cache_lookup(io, path);
	size_t len;
	int r;

	if (c && !c->exists)
		return -ENOENT;
	if (c && c->file && c->have_bytes) {
		*ret_data = xmalloc(c->len + 1);
		memcpy(*ret_data, c->bytes, c->len + 1);
		if (ret_len)
			*ret_len = c->len;
		return 0;
	}
	r = target_read_file(io_target(io), path, FILE_READ_MAX, true, ret_data, &len);

	if (r == 0 && ret_len)
		*ret_len = len;
	return r;
}

static int t_write_file(struct boot_io *io, const char *path, const void *data, size_t len, mode_t mode)
{
	char m[16];
	const char *args[] = { "write", path, m, NULL };
	struct process_result res;
	int r;

	cache_forget(io_state(io), path);
	snprintf(m, sizeof(m), "%o", (unsigned)(mode & 07777));
	/* An empty file still needs stdin closed at once: pass "" with length 0. */
	r = io_script(io, args, len ? data : "", len, &res);
	if (r < 0)
		return r;
	r = exit_to_errno(res.exit_code);
	process_result_release(&res);
	return r;
}

/* Runs io.sh OP PATH [PATH]: what the dump said of each PATH is forgotten first. */
static int t_simple(struct boot_io *io, const char *const *args)
{
	struct process_result res;
	int r;

	for (size_t i = 1; args[i]; i++)
		cache_forget(io_state(io), args[i]);
	r = io_script(io, args, NULL, 0, &res);

	if (r < 0)
		return r;
	r = exit_to_errno(res.exit_code);
	process_result_release(&res);
	return r;
}

static int t_rename_file(struct boot_io *io, const char *from, const char *to)
{
	const char *args[] = { "rename", from, to, NULL };

	return t_simple(io, args);
}

static int t_remove_file(struct boot_io *io, const char *path)
{
	const char *args[] = { "remove", path, NULL };

	return t_simple(io, args);
}

/* Names each followed by a NUL, as io.sh list prints them; sorted with strcmp. */
static void names_from(const char *out, size_t len, char ***ret_names, size_t *ret_count)
{
	struct strvec names = STRVEC_INIT;

	for (size_t pos = 0; pos < len;) {
		size_t l = strnlen(out + pos, len - pos);

		/* Names end in NUL; a last one without is cut output. */
		if (pos + l == len)
			break;
		if (l > 0 && l <= 255 && !memchr(out + pos, '/', l))
			strvec_push_owned(&names, xstrndup(out + pos, l));
		pos += l + 1;
	}
	strvec_sort(&names);
	if (ret_count)
		*ret_count = names.n;
	*ret_names = strvec_detach(&names);
}

static int t_list_dir(struct boot_io *io, const char *path, char ***ret_names, size_t *ret_count)
{
	const struct cached_path *c = cache_lookup(io, path);
	const char *args[] = { "list", path, NULL };
	struct process_result res;
	int r;

	/* io.sh list: anything but a directory is "not found". */
	if (c && !c->dir)
		return -ENOENT;
	if (c && c->have_bytes) {
		names_from(c->bytes, c->len, ret_names, ret_count);
		return 0;
	}
	r = io_script(io, args, NULL, 0, &res);
	if (r < 0)
		return r;
	r = exit_to_errno(res.exit_code);
	if (r == 0 && res.out_truncated)
		r = -EFBIG;   /* a listing cut short would hide entries */
	if (r == 0)
		names_from(res.out, res.out_len, ret_names, ret_count);
	process_result_release(&res);
	return r;
}

/* A yes/no question to io.sh: exit 0 is yes, 1 is no, anything else an error. */
static int io_ask(struct boot_io *io, const char *verb, const char *path)
{
	const char *args[] = { verb, path, NULL };
	struct process_result res;
	int r = io_script(io, args, NULL, 0, &res);

	if (r < 0)
		return r;
	r = res.exit_code == TARGET_EXIT_OK ? 1 : res.exit_code == TARGET_EXIT_NO ? 0 : -EIO;
	process_result_release(&res);
	return r;
}

static int t_exists(struct boot_io *io, const char *path)
{
	const struct cached_path *c = cache_lookup(io, path);

	return c ? c->exists : io_ask(io, "exists", path);
}

static int t_is_link(struct boot_io *io, const char *path)
{
	const struct cached_path *c = cache_lookup(io, path);

	return c ? c->link : io_ask(io, "islink", path);
}

static int t_run(struct boot_io *io, const char *const *argv, struct process_result *ret)
{
	const char **args;
	size_t n = 0;
	int r;

	/* A boot loader's tool may rewrite any of its files. */
	cache_clear(io_state(io));
	while (argv[n])
		n++;
	args = xcalloc(n + 2, sizeof(*args));
	args[0] = "run";
	memcpy(args + 1, argv, n * sizeof(*args));
	r = io_script(io, args, NULL, 0, ret);
	free(args);
	if (r < 0)
		return r;
	if (ret->exit_code == TARGET_EXIT_NO_PROGRAM && strstr(ret->err, "io.sh: not found")) {
		process_result_release(ret);
		return -ENOENT;
	}
	return 0;
}

struct boot_io *boot_io_target_new(struct target *t)
{
	struct boot_io *io = xcalloc(1, sizeof(*io));
	struct io_state *st = xcalloc(1, sizeof(*st));

	io->read_file = t_read_file;
	io->write_file = t_write_file;
	io->rename_file = t_rename_file;
	io->remove_file = t_remove_file;
	io->list_dir = t_list_dir;
	io->exists = t_exists;
	io->is_link = t_is_link;
	io->run = t_run;
	st->t = t;
	io->description = xasprintf("target %s", target_name(t));
	io->data = st;
	io->release_data = io_state_free;
	return io;
}
