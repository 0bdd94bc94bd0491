/*
 * A campaign's journal (journal.c), read from a file holding the fuzzer's
 * bytes.
 *
 * Properties: the lines read, appended one by one to a new journal, read
 * back the same and whole; a torn last line is reported, and an append
 * cuts it off first, so the old journal plus the new line reads as the
 * old lines and the new one.
 */
#include "fuzz-common.h"

#include <errno.h>
#include <unistd.h>

#include "campaign/journal.h"

static char *dir;

static char *journal_path(const char *name)
{
	if (!dir) {
		const char *base = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";

		dir = xasprintf("%s/bootab-fuzz-journal-XXXXXX", base);
		FUZZ_ASSERT(mkdtemp(dir), "cannot make a directory under %s", base);
	}
	return path_join(dir, name);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *path = journal_path("journal"), *copy = journal_path("copy");
	struct journal j, again;
	struct parse_error err = PARSE_ERROR_INIT;
	int r;

	unlink(copy);
	FUZZ_ASSERT(file_write_atomic(path, data, size, 0600) == 0, "cannot write %s", path);
	r = journal_read(path, &j, &err);
	if (r < 0) {
		FUZZ_ASSERT(r == -EINVAL && err.message, "journal_read: %d", r);
		goto out;
	}
	FUZZ_ASSERT(j.torn == (size && data[size - 1] != '\n'), "torn is %d", j.torn);
	for (size_t i = 0; i < j.n_lines; i++)
		FUZZ_ASSERT(journal_append(copy, j.lines[i]) == 0, "line %zu cannot be appended", i);
	if (j.n_lines) {
		FUZZ_ASSERT(journal_read(copy, &again, &err) == 0, "the copy cannot be read");
		FUZZ_ASSERT(!again.torn && again.n_lines == j.n_lines, "the copy has %zu lines", again.n_lines);
		for (size_t i = 0; i < j.n_lines; i++)
			FUZZ_ASSERT(!strcmp(j.lines[i], again.lines[i]), "line %zu differs", i);
		journal_release(&again);
	}
	FUZZ_ASSERT(journal_append(path, "finished") == 0, "cannot append");
	FUZZ_ASSERT(journal_read(path, &again, &err) == 0, "cannot read after the append");
	FUZZ_ASSERT(!again.torn && again.n_lines == j.n_lines + 1 &&
		    !strcmp(again.lines[j.n_lines], "finished"), "the append did not cut the torn line");
	journal_release(&again);
	journal_release(&j);
out:
	parse_error_release(&err);
	unlink(path);
	unlink(copy);
	free(path);
	free(copy);
	return 0;
}
