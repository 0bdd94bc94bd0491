#ifndef BOOTAB_JOURNAL_H
#define BOOTAB_JOURNAL_H

#include <stddef.h>

#include "lib/parse-error.h"

/*
 * A campaign's journal: what is done, one line per step, appended and
 * synced before the next step starts. A crash can only leave the last
 * line incomplete; readers drop such a line and the next append cuts it
 * off first, so the journal is always a sequence of whole lines.
 */

struct journal {
	char **lines;         /* whole lines, without newlines */
	size_t n_lines;
	size_t alloc_lines;
	int torn;             /* an incomplete last line was dropped */
};

#define JOURNAL_MAX_BYTES ((size_t)16 << 20)

/*
 * Reads the journal at path. Returns 0 and *ret (journal_release()),
 * -ENOENT when there is none, -EINVAL with err for a line holding a
 * control character, other -errno for I/O errors; *ret untouched on error.
 */
int journal_read(const char *path, struct journal *ret, struct parse_error *err);

/*
 * Appends line (printable text, no newline) and fsyncs the file (created
 * with mode 0600 when new). Returns 0 or -errno; -EINVAL for a line that
 * is not one printable line. When the write or the sync fails (-ENOSPC on
 * a full disk) the file is cut back to the whole lines it held before.
 */
int journal_append(const char *path, const char *line);

/* journal_append() of a printf-formatted line. */
int journal_appendf(const char *path, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

void journal_release(struct journal *journal);

#endif
