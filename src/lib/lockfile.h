#ifndef BOOTAB_LIB_LOCKFILE_H
#define BOOTAB_LIB_LOCKFILE_H

/*
 * An exclusive lock on a file (flock(2)), held as long as the descriptor
 * is open: the kernel drops it when the process ends, however it ends, so
 * a crash never leaves a stale lock behind.
 */

/*
 * Takes the lock on path (created 0644 when missing, never through a
 * symlink) without waiting, and writes holder (one line saying who holds
 * it) into the file. Returns 0 and *ret_fd (close it to let go), -EBUSY
 * when another process holds it, with *ret_holder its holder line (the
 * caller's; "" when none was written), other -errno for I/O errors.
 */
int lockfile_take(const char *path, const char *holder, int *ret_fd, char **ret_holder);

#endif
