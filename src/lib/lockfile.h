#ifndef BOOTAB_LIB_LOCKFILE_H
#define BOOTAB_LIB_LOCKFILE_H

/*
 * An exclusive lock on a directory (flock(2) on the directory itself, so
 * taking it writes nothing, even on a full disk), held as long as the
 * descriptor is open: the kernel drops it when the process ends, however
 * it ends, so a crash never leaves a stale lock behind.
 */

/*
 * Takes the lock on directory dir without waiting. Returns 0 and *ret_fd
 * (close it to let go); -EBUSY when another process holds it, with
 * *ret_holder saying which ("pid 4242 (bootab run --resume runs/x)", from
 * /proc/locks and the holder's command line; "another process" where
 * those cannot be read; the caller's); other -errno for I/O errors.
 */
int lockfile_take(const char *dir, int *ret_fd, char **ret_holder);

/*
 * Takes an exclusive flock(2) on path, waiting for another holder to let
 * go (a read-modify-write of a file that is replaced by rename: the lock
 * is on a file beside it, which outlives every replacement). path is
 * created empty when missing (mode 0644) and never written or removed; a
 * path that is not a regular file (a link, a FIFO) is refused. Returns 0
 * and *ret_fd (close it to let go), or -errno.
 */
int lockfile_wait(const char *path, int *ret_fd);

#endif
