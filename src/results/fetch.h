#ifndef BOOTAB_FETCH_H
#define BOOTAB_FETCH_H

#include <stddef.h>

#include "lib/parse-error.h"

/*
 * The stream src/target/run-fetch.sh prints: a boot's run directory on the
 * target, file by file. It comes from the target, so nothing in it is
 * trusted: names are checked, sizes bounded, and the stream must end
 * where it says it does.
 */

struct fetched_file {
	char *name;      /* letters, digits, '.', '_', '-'; not starting with '.' */
	char *data;      /* NUL-terminated (not counted in len) */
	size_t len;
};

/* A file run-fetch.sh did not send: larger than the limit it was given. */
struct skipped_file {
	char *name;
	unsigned long long size;
};

struct fetch {
	struct fetched_file *files;
	size_t n_files;
	size_t alloc_files;
	struct skipped_file *skipped;
	size_t n_skipped;
	size_t alloc_skipped;
};

#define FETCH_MAX_FILES 100000

/*
 * The largest file a fetch brings back whole (run-fetch.sh's LIMIT): a
 * larger one is listed as skipped, loudly, and left on the target; it
 * never cuts a file or stops a campaign. docs/target.md documents it.
 */
#define FETCH_FILE_LIMIT ((unsigned long long)1 << 30)

/*
 * Parses the stream. Returns 0 and *ret (fetch_release()), or -EINVAL with
 * err (line and message) and *ret untouched.
 */
int fetch_parse(const char *data, size_t len, struct fetch *ret, struct parse_error *err);

/* The file called name, or NULL (borrowed). */
const struct fetched_file *fetch_find(const struct fetch *fetch, const char *name);

/* Whether name is a file name run-fetch.sh may send. */
int fetch_name_valid(const char *name);

void fetch_release(struct fetch *fetch);

#endif
