/*
 * Boot Loader Specification entries (boot/bls.c): loader/entries/NAME.conf.
 *
 * Properties:
 *  - an edit with nothing managed and nothing added is the identity;
 *  - an edit keeps every line that is not an `options` line, in order,
 *    and every token of the combined options it does not manage;
 *  - after the edit the combined options carry the mode's args
 *    (cmdline_check()), and editing again changes nothing;
 *  - the title reads the same before and after.
 */
#include "fuzz-common.h"

#include "boot/bls.h"
#include "lib/strbuf.h"

/* The lines that are not `options` lines, blank-trimmed keys compared as bls.c does. */
static char *other_lines(const char *text)
{
	struct strbuf sb = STRBUF_INIT;
	const char *p = text;

	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		size_t i = 0;

		while (i < len && (p[i] == ' ' || p[i] == '\t'))
			i++;
		if (!(len - i >= 7 && !strncmp(p + i, "options", 7) &&
		      (len - i == 7 || p[i + 7] == ' ' || p[i + 7] == '\t'))) {
			strbuf_add(&sb, p, len);
			strbuf_addch(&sb, '\n');
		}
		p += len + (nl != NULL);
	}
	return strbuf_detach(&sb, NULL);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *input = fuzz_text(data, size), *same = NULL, *out = NULL, *twice = NULL;
	struct fuzz_edit_input in;
	struct cmdline_check_result res = CMDLINE_CHECK_RESULT_INIT;

	if (!input)
		return 0;
	fuzz_edit_input_split(input, &in);

	if (bls_entry_edit(in.text, NULL, NULL, &same, NULL) == 0) {
		FUZZ_ASSERT(!strcmp(same, in.text), "edit without args changed the entry");
		free(same);
	}
	if (bls_entry_edit(in.text, in.managed, in.args, &out, NULL) == 0) {
		char *before = bls_entry_options(in.text), *after = bls_entry_options(out);
		char **kept_before = cmdline_unmanaged_tokens(before, in.managed, in.args);
		char **kept_after = cmdline_unmanaged_tokens(after, in.managed, in.args);
		char *lines_before = other_lines(in.text), *lines_after = other_lines(out);
		char *title_before = bls_entry_value(in.text, "title"), *title_after = bls_entry_value(out, "title");

		FUZZ_ASSERT(fuzz_strv_equal(kept_before, kept_after),
			    "unmanaged options changed: '%s' -> '%s'", before, after);
		FUZZ_ASSERT(!strcmp(lines_before, lines_after), "lines other than options changed");
		FUZZ_ASSERT(fuzz_str_equal(title_before, title_after), "the title changed");
		FUZZ_ASSERT(cmdline_check(after, in.managed, in.args, &res) == 0 && cmdline_check_ok(&res),
			    "edited options '%s' do not carry the mode", after);
		FUZZ_ASSERT(bls_entry_edit(out, in.managed, in.args, &twice, NULL) == 0,
			    "the edited entry cannot be edited");
		FUZZ_ASSERT(!strcmp(out, twice), "edit is not idempotent:\n%s\n---\n%s", out, twice);
		cmdline_check_result_release(&res);
		strv_free(kept_before);
		strv_free(kept_after);
		free(before);
		free(after);
		free(lines_before);
		free(lines_after);
		free(title_before);
		free(title_after);
		free(twice);
		free(out);
	}
	fuzz_edit_input_release(&in);
	free(input);
	return 0;
}
