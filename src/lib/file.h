#ifndef BOOTAB_LIB_FILE_H
#define BOOTAB_LIB_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

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

/*
 * Writes data to path atomically: to a temporary file in the same
 * directory, fsync, rename over path, fsync the directory. A reader, or a
 * crash at any point, sees the old file or the new one, never a mix.
 * Returns 0 or -errno; on error path is untouched and no temporary is left.
 */
int file_write_atomic(const char *path, const void *data, size_t len, mode_t mode);

/* mkdir -p with the given mode for new directories. Returns 0 or -errno. */
int dir_create_all(const char *path, mode_t mode);

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

void strv_free(char **v);

#endif
