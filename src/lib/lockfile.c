#include "lib/lockfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "lib/alloc.h"
#include "lib/file.h"
#include "lib/strbuf.h"

/*
 * Who holds a flock on the file st describes: /proc/locks lists each lock
 * as "N: FLOCK ADVISORY WRITE PID MAJ:MIN:INODE START END", the device
 * numbers in hex (proc(5)). 0 when none is found.
 */
static long lock_holder_pid(const struct stat *st)
{
	char *data = NULL, *line, *save = NULL;
	size_t len;
	long pid = 0;

	if (file_read("/proc/locks", 1 << 20, &data, &len) < 0)
		return 0;
	for (line = strtok_r(data, "\n", &save); line && !pid; line = strtok_r(NULL, "\n", &save)) {
		char kind[16], mode[16], access[16];
		unsigned maj, min;
		unsigned long long ino;
		long p;

		if (sscanf(line, "%*[^:]: %15s %15s %15s %ld %x:%x:%llu", kind, mode, access, &p, &maj, &min, &ino) == 7 &&
		    !strcmp(kind, "FLOCK") && maj == major(st->st_dev) && min == minor(st->st_dev) &&
		    ino == (unsigned long long)st->st_ino)
			pid = p;
	}
	free(data);
	return pid;
}

/* "pid N (its command line)", the line's arguments joined by spaces. */
static char *describe_pid(long pid)
{
	char *path = xasprintf("/proc/%ld/cmdline", pid), *data = NULL, *out;
	size_t len;

	if (file_read(path, 4096, &data, &len) == 0 && len > 0) {
		for (size_t i = 0; i + 1 < len; i++)
			if (data[i] == '\0')
				data[i] = ' ';
		out = xasprintf("pid %ld (%s)", pid, data);
	} else {
		out = xasprintf("pid %ld", pid);
	}
	free(data);
	free(path);
	return out;
}

int lockfile_take(const char *dir, int *ret_fd, char **ret_holder)
{
	struct stat st;
	int fd, r;

	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (flock(fd, LOCK_EX | LOCK_NB) == 0) {
		*ret_fd = fd;
		return 0;
	}
	r = errno == EWOULDBLOCK ? -EBUSY : -errno;
	if (r == -EBUSY) {
		long pid = fstat(fd, &st) == 0 ? lock_holder_pid(&st) : 0;

		*ret_holder = pid > 0 ? describe_pid(pid) : xstrdup("another process");
	}
	close(fd);
	return r;
}

int lockfile_wait(const char *path, int *ret_fd)
{
	struct stat st;
	int fd = open(path, O_RDONLY | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0644);

	if (fd < 0)
		return errno == ELOOP ? -EINVAL : -errno;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		int r = S_ISREG(st.st_mode) ? -errno : -EINVAL;

		close(fd);
		return r;
	}
	while (flock(fd, LOCK_EX) < 0)
		if (errno != EINTR) {
			int r = -errno;

			close(fd);
			return r;
		}
	*ret_fd = fd;
	return 0;
}
