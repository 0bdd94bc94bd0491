#include "lib/lockfile.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include "lib/alloc.h"

int lockfile_take(const char *path, const char *holder, int *ret_fd, char **ret_holder)
{
	size_t len = strlen(holder);
	int fd, r;

	fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
	if (fd < 0)
		return -errno;
	if (flock(fd, LOCK_EX | LOCK_NB) < 0) {
		char buf[512];
		ssize_t n;

		r = errno == EWOULDBLOCK ? -EBUSY : -errno;
		if (r == -EBUSY) {
			n = pread(fd, buf, sizeof(buf) - 1, 0);
			if (n < 0)
				n = 0;
			buf[n] = '\0';
			buf[strcspn(buf, "\n")] = '\0';
			*ret_holder = xstrdup(buf);
		}
		close(fd);
		return r;
	}
	/* Only the holder writes: the line is whole once the lock is ours. */
	if (ftruncate(fd, 0) < 0 || pwrite(fd, holder, len, 0) != (ssize_t)len ||
	    pwrite(fd, "\n", 1, (off_t)len) != 1) {
		r = -errno;
		close(fd);
		return r ? r : -EIO;
	}
	*ret_fd = fd;
	return 0;
}
