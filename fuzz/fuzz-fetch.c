/*
 * The results stream run-fetch.sh prints on the target (results/fetch.c).
 *
 * Property: a stream that parses, written again in the same format and
 * parsed, gives the same files, names and bytes.
 */
#include "fuzz-common.h"

#include "lib/strbuf.h"
#include "results/fetch.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fetch f, again;
	struct parse_error err = PARSE_ERROR_INIT;
	struct strbuf sb = STRBUF_INIT;

	if (fetch_parse((const char *)data, size, &f, &err) < 0) {
		FUZZ_ASSERT(err.message, "a refused stream without a message");
		parse_error_release(&err);
		return 0;
	}
	strbuf_addstr(&sb, "bootab-fetch 1\n");
	for (size_t i = 0; i < f.n_files; i++) {
		FUZZ_ASSERT(fetch_name_valid(f.files[i].name), "name '%s' accepted", f.files[i].name);
		FUZZ_ASSERT(f.files[i].data[f.files[i].len] == '\0', "data not NUL-terminated");
		strbuf_addf(&sb, "file %s %zu\n", f.files[i].name, f.files[i].len);
		strbuf_add(&sb, f.files[i].data, f.files[i].len);
		strbuf_addch(&sb, '\n');
	}
	strbuf_addstr(&sb, "end\n");
	FUZZ_ASSERT(fetch_parse(sb.buf, sb.len, &again, &err) == 0, "written again, it does not parse: %s",
		    err.message);
	FUZZ_ASSERT(again.n_files == f.n_files, "%zu files, then %zu", f.n_files, again.n_files);
	for (size_t i = 0; i < f.n_files; i++)
		FUZZ_ASSERT(!strcmp(f.files[i].name, again.files[i].name) &&
			    f.files[i].len == again.files[i].len &&
			    !memcmp(f.files[i].data, again.files[i].data, f.files[i].len),
			    "file %zu differs", i);
	fetch_release(&f);
	fetch_release(&again);
	strbuf_release(&sb);
	parse_error_release(&err);
	return 0;
}
