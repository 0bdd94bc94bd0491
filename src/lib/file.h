#ifndef BOOTAB_LIB_FILE_H
#define BOOTAB_LIB_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "lib/strvec.h"   /* strv_free() for dir_list() */

/* Default ceiling for files bootab reads whole: 64 MiB. */
#define FILE_READ_MAX ((size_t)64 << 20)

/*
 * Reads a whole regular file, at most max bytes. The data is NUL-terminated
 * (the NUL is not counted in *ret_len) and is the caller's.
 * Returns 0, or -errno: -EFBIG when the file is longer than max, -EINVAL
 * when it is not a regular file (a FIFO, a device, a directory), which
 * keeps a hostile path from blocking or streaming forever. Nothing is
 * written to the outputs on error.
 */
int file_read(const char *path, size_t max, char **ret_data, size_t *ret_len);

/* All of data to fd (a write() cut short or interrupted goes on); 0 or -errno. */
int file_write_all(int fd, const void *data, size_t len);

/*
 * Writes data to path atomically: to a temporary file in the same
 * directory, fsync, rename over path, fsync the directory. A reader, or a
 * crash at any point, sees the old file or the new one, never a mix.
 * Returns 0 or -errno; on error path is untouched and no temporary is left.
 */
int file_write_atomic(const char *path, const void *data, size_t len, mode_t mode);

/*
 * Removes the temporary file of a file_write_atomic() under way, if any;
 * async-signal-safe (unlink(2) only), for a handler of SIGTERM or SIGINT
 * that then ends the process: the target stays old, no .tmp-* is left.
 */
void file_remove_pending_temp(void);

/*
 * Writes data to a path the user named (an -o FILE), never replacing what
 * is there with something of another kind: a new name or a regular file is
 * written as file_write_atomic() does (through a symlink: the file it
 * names, the link kept); a character device or a FIFO (/dev/null,
 * /dev/stdout, a named pipe) is opened and written in place. Returns 0 or
 * -errno: -EISDIR for a directory, -ENOENT for a symlink to nothing,
 * -EINVAL for anything else (a block device, a socket), -EAGAIN when the
 * path changed while it was looked at; nothing is written then. Opening a
 * FIFO waits for its reader, as a shell's redirection does.
 */
int file_write_output(const char *path, const void *data, size_t len, mode_t mode);

/*
 * For tests only: after file_set_test_write_delay(N) (N microseconds, up
 * to 10 s; 0 or anything else turns it off), file_test_write_delay()
 * sleeps N microseconds; otherwise it returns at once. file_write_atomic()
 * and journal_append() call it between the parts of a write (half the
 * data, the rest, the rename) so that a test's SIGKILL lands inside a
 * write. bootab's main() sets it from BOOTAB_TEST_WRITE_DELAY_US; never
 * set it outside tests.
 */
void file_set_test_write_delay(long us);
void file_test_write_delay(void);

/* Whether the test write delay is in effect (writes are then split in two). */
bool file_test_write_delay_on(void);

/*
 * rename(2), then fsync of the directory of to, so the new name survives a
 * power loss. Returns 0 or -errno (-errno of the sync when only that failed:
 * the rename is done then).
 */
int file_rename(const char *from, const char *to);

/* mkdir -p with the given mode for new directories. Returns 0 or -errno. */
int dir_create_all(const char *path, mode_t mode);

/*
 * A directory nobody else has: parent (made as dir_create_all does), then
 * parent/name taken with one mkdir(2), so two runs that pick the same name
 * never share it and nothing is written into a directory another run
 * made. When name is taken, name-2, name-3 ... name-99 are tried.
 * *ret_path gets the directory made, *ret_name (when not NULL) its last
 * component (both the caller's). Returns 0 or -errno (-EEXIST: all taken).
 */
int dir_create_new(const char *parent, const char *name, mode_t mode, char **ret_path, char **ret_name);

/* Whether path is a directory / exists (following symlinks). */
bool path_is_dir(const char *path);
bool path_exists(const char *path);

/* "a" + "/" + "b", without doubling the slash. The result is the caller's. */
char *path_join(const char *a, const char *b);

/* The last component of path ("x" for "/a/b/x/"); the result is the caller's. */
char *path_basename(const char *path);

/*
 * The names in directory path, sorted (strcmp), without "." and "..".
 * *ret_names is a NULL-terminated array, freed with strv_free().
 * Returns 0 or -errno.
 */
int dir_list(const char *path, char ***ret_names, size_t *ret_count);

#endif
