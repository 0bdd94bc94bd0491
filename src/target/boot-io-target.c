#include "target/boot-io-target.h"

#include <errno.h>
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

static struct target *io_target(struct boot_io *io)
{
	return io->data;
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
	size_t len;
	int r = target_read_file(io_target(io), path, FILE_READ_MAX, true, ret_data, &len);

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

	snprintf(m, sizeof(m), "%o", (unsigned)(mode & 07777));
	/* An empty file still needs stdin closed at once: pass "" with length 0. */
	r = io_script(io, args, len ? data : "", len, &res);
	if (r < 0)
		return r;
	r = exit_to_errno(res.exit_code);
	process_result_release(&res);
	return r;
}

static int t_simple(struct boot_io *io, const char *const *args)
{
	struct process_result res;
	int r = io_script(io, args, NULL, 0, &res);

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

static int t_list_dir(struct boot_io *io, const char *path, char ***ret_names, size_t *ret_count)
{
	const char *args[] = { "list", path, NULL };
	struct process_result res;
	struct strvec names = STRVEC_INIT;
	int r = io_script(io, args, NULL, 0, &res);

	if (r < 0)
		return r;
	r = exit_to_errno(res.exit_code);
	if (r == 0 && res.out_truncated)
		r = -EFBIG;   /* a listing cut short would hide entries */
	if (r < 0) {
		process_result_release(&res);
		return r;
	}
	for (size_t pos = 0; pos < res.out_len;) {
		size_t l = strnlen(res.out + pos, res.out_len - pos);

		/* Names end in NUL; a last one without is cut output. */
		if (pos + l == res.out_len)
			break;
		if (l > 0 && l <= 255 && !memchr(res.out + pos, '/', l))
			strvec_push_owned(&names, xstrndup(res.out + pos, l));
		pos += l + 1;
	}
	strvec_sort(&names);
	process_result_release(&res);
	if (ret_count)
		*ret_count = names.n;
	*ret_names = strvec_detach(&names);
	return 0;
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
	return io_ask(io, "exists", path);
}

static int t_is_link(struct boot_io *io, const char *path)
{
	return io_ask(io, "islink", path);
}

static int t_run(struct boot_io *io, const char *const *argv, struct process_result *ret)
{
	const char **args;
	size_t n = 0;
	int r;

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

	io->read_file = t_read_file;
	io->write_file = t_write_file;
	io->rename_file = t_rename_file;
	io->remove_file = t_remove_file;
	io->list_dir = t_list_dir;
	io->exists = t_exists;
	io->is_link = t_is_link;
	io->run = t_run;
	io->description = xasprintf("target %s", target_name(t));
	io->data = t;
	return io;
}
