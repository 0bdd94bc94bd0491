#include "lib/file.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "lib/alloc.h"
#include "lib/strbuf.h"

int file_read(const char *path, size_t max, char **ret_data, size_t *ret_len)
{
	struct strbuf sb = STRBUF_INIT;
	struct stat st;
	int fd, r = 0;

	/* O_NONBLOCK: opening a FIFO for reading must not wait for a writer. */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0) {
		r = -errno;
		goto out;
	}
	if (S_ISDIR(st.st_mode)) {
		r = -EISDIR;
		goto out;
	}
	if (!S_ISREG(st.st_mode)) {
		r = -EINVAL;
		goto out;
	}
	for (;;) {
		char chunk[65536];
		ssize_t n = read(fd, chunk, sizeof(chunk));

		if (n < 0) {
			if (errno == EINTR)
				continue;
			r = -errno;
			goto out;
		}
		if (n == 0)
			break;
		if (sb.len + (size_t)n > max) {
			r = -EFBIG;
			goto out;
		}
		strbuf_add(&sb, chunk, (size_t)n);
	}
	*ret_data = strbuf_detach(&sb, ret_len);
out:
	strbuf_release(&sb);
	close(fd);
	return r;
}

static int fsync_dir_of(const char *path)
{
	char *dir = xstrdup(path), *slash = strrchr(dir, '/');
	int fd, r = 0;

	if (!slash) {
		free(dir);
		dir = xstrdup(".");
	} else if (slash == dir)
		slash[1] = '\0';
	else
		*slash = '\0';
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		r = -errno;
	else if (fsync(fd) < 0 && errno != EINVAL)
		r = -errno;
	if (fd >= 0)
		close(fd);
	free(dir);
	return r;
}

/* Set by the command layer or a test (file_set_test_write_delay()); 0 in normal use. */
static long test_write_delay_us;

void file_set_test_write_delay(long us)
{
	test_write_delay_us = us > 0 && us <= 10000000 ? us : 0;
}

bool file_test_write_delay_on(void)
{
	return test_write_delay_us > 0;
}

void file_test_write_delay(void)
{
	long us = test_write_delay_us;
	struct timespec ts = { us / 1000000, (us % 1000000) * 1000 };

	if (us > 0)
		while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
			;
}

int file_write_all(int fd, const void *data, size_t len)
{
	const char *p = data;

	while (len > 0) {
		ssize_t n = write(fd, p, len);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

/*
 * The temporary file file_write_atomic() is writing, for a signal handler
 * to remove (file_remove_pending_temp()). mkostemp() fills in this very
 * buffer, so the name is here from the moment the file exists.
 */
static char pending_temp[4096];
static volatile sig_atomic_t pending_temp_set;

void file_remove_pending_temp(void)
{
	if (pending_temp_set)
		unlink(pending_temp);
}

/* A temporary file beside path, made with mkostemp(), its name in *ret_tmp (the caller's). */
static int temp_beside(const char *path, char **ret_tmp)
{
	static const char suffix[] = ".tmp-XXXXXX";
	size_t n = strlen(path);
	int fd;

	if (pending_temp_set || n + sizeof(suffix) > sizeof(pending_temp)) {
		/* Nested, or a name too long for the buffer: not removed on a signal. */
		*ret_tmp = xasprintf("%s%s", path, suffix);
		fd = mkostemp(*ret_tmp, O_CLOEXEC);
	} else {
		memcpy(pending_temp, path, n);
		memcpy(pending_temp + n, suffix, sizeof(suffix));
		pending_temp_set = 1;
		fd = mkostemp(pending_temp, O_CLOEXEC);
		if (fd < 0)
			pending_temp_set = 0;
		*ret_tmp = xstrdup(pending_temp);
	}
	if (fd < 0) {
		int r = -errno;

		free(*ret_tmp);
		return r;
	}
	return fd;
}

/* tmp is renamed or removed: a signal has nothing to remove now. */
static void temp_gone(const char *tmp)
{
	if (pending_temp_set && !strcmp(tmp, pending_temp))
		pending_temp_set = 0;
}

int file_write_atomic(const char *path, const void *data, size_t len, mode_t mode)
{
	char *tmp;
	size_t first = file_test_write_delay_on() ? len / 2 : len;
	int fd, r = 0;

	fd = temp_beside(path, &tmp);
	if (fd < 0)
		return fd;
	if (fchmod(fd, mode) < 0) {
		r = -errno;
		goto fail;
	}
	r = file_write_all(fd, data, first);
	if (r < 0)
		goto fail;
	file_test_write_delay();
	r = file_write_all(fd, (const char *)data + first, len - first);
	if (r < 0)
		goto fail;
	if (fsync(fd) < 0) {
		r = -errno;
		goto fail;
	}
	if (close(fd) < 0) {
		fd = -1;
		r = -errno;
		goto fail;
	}
	fd = -1;
	file_test_write_delay();
	if (rename(tmp, path) < 0) {
		r = -errno;
		goto fail;
	}
	temp_gone(tmp);
	free(tmp);
	file_test_write_delay();
	return fsync_dir_of(path);
fail:
	if (fd >= 0)
		close(fd);
	unlink(tmp);
	temp_gone(tmp);
	free(tmp);
	return r;
}

int file_write_output(const char *path, const void *data, size_t len, mode_t mode)
{
	struct stat lst, st;
	char *real;
	int fd, r;

	if (lstat(path, &lst) < 0)
		return errno == ENOENT ? file_write_atomic(path, data, len, mode) : -errno;
	if (stat(path, &st) < 0)
		return -errno;
	if (S_ISDIR(st.st_mode))
		return -EISDIR;
	if (S_ISREG(st.st_mode) && !S_ISLNK(lst.st_mode))
		return file_write_atomic(path, data, len, mode);
	if (S_ISREG(st.st_mode)) {
		/* The temporary file goes beside the file itself, so the rename keeps the link. */
		real = realpath(path, NULL);
		if (!real)
			return -errno;
		r = file_write_atomic(real, data, len, mode);
		free(real);
		return r;
	}
	if (!S_ISCHR(st.st_mode) && !S_ISFIFO(st.st_mode))
		return -EINVAL;
	/* A rename over a device node or a FIFO would replace it (as root: /dev/null itself). */
	fd = open(path, O_WRONLY | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return -errno;
	/* What was opened is what was looked at, not a file put there since. */
	if (fstat(fd, &lst) < 0 || lst.st_dev != st.st_dev || lst.st_ino != st.st_ino) {
		close(fd);
		return -EAGAIN;
	}
	r = file_write_all(fd, data, len);
	if (close(fd) < 0 && r == 0)
		r = -errno;
	return r;
}

int file_rename(const char *from, const char *to)
{
	if (rename(from, to) < 0)
		return -errno;
	file_test_write_delay();
	return fsync_dir_of(to);
}

int dir_create_all(const char *path, mode_t mode)
{
	char *p = xstrdup(path);
	int r = 0;

	for (char *s = p + 1; ; s++) {
		if (*s == '/' || *s == '\0') {
			char saved = *s;

			*s = '\0';
			if (mkdir(p, mode) < 0 && errno != EEXIST) {
				r = -errno;
				break;
			}
			*s = saved;
			if (saved == '\0')
				break;
		}
	}
	if (r == 0 && !path_is_dir(path))
		r = -ENOTDIR;
	free(p);
	return r;
}

int dir_create_new(const char *parent, const char *name, mode_t mode, char **ret_path, char **ret_name)
{
	int r = dir_create_all(parent, 0755);

	if (r < 0)
		return r;
	for (unsigned n = 1; n < 100; n++) {
		char *leaf = n == 1 ? xstrdup(name) : xasprintf("%s-%u", name, n);
		char *path = path_join(parent, leaf);

		if (mkdir(path, mode) == 0) {
			*ret_path = path;
			if (ret_name)
				*ret_name = leaf;
			else
				free(leaf);
			return 0;
		}
		r = -errno;
		free(path);
		free(leaf);
		if (r != -EEXIST)
			return r;
	}
	return -EEXIST;
}

bool path_is_dir(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

bool path_exists(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0;
}

char *path_join(const char *a, const char *b)
{
	size_t la = strlen(a);

	while (*b == '/')
		b++;
	if (la > 0 && a[la - 1] == '/')
		return xasprintf("%s%s", a, b);
	return xasprintf("%s/%s", a, b);
}

char *path_basename(const char *path)
{
	size_t end = strlen(path), start;

	while (end > 1 && path[end - 1] == '/')
		end--;
	start = end;
	while (start > 0 && path[start - 1] != '/')
		start--;
	return xstrndup(path + start, end - start);
}

int dir_list(const char *path, char ***ret_names, size_t *ret_count)
{
	DIR *d = opendir(path);
	struct strvec names = STRVEC_INIT;
	struct dirent *de;
	size_t n;

	if (!d)
		return -errno;
	while ((errno = 0, de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		strvec_push(&names, de->d_name);
	}
	if (errno) {
		int r = -errno;

		strvec_release(&names);
		closedir(d);
		return r;
	}
	closedir(d);
	n = names.n;
	strvec_sort(&names);
	*ret_names = strvec_detach(&names);
	if (ret_count)
		*ret_count = n;
	return 0;
}
