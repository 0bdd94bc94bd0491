/*
 * /etc/default/grub and its grub.d drop-ins (boot/grub.c), and grub.cfg's
 * menu entries.
 *
 * Properties:
 *  - an edit with nothing managed and nothing added is the identity;
 *  - after an edit that appends to the last GRUB_CMDLINE_LINUX assignment
 *    (or adds one), the value sh would compute for GRUB_CMDLINE_LINUX and
 *    GRUB_CMDLINE_LINUX_DEFAULT keeps every token it does not manage, the
 *    first carries the mode's args and the second none of the managed
 *    ones (cmdline_check()), and editing again changes nothing.
 */
#include "fuzz-common.h"

#include "boot/grub.h"

static char *effective(const char *text, const char *var)
{
	const char *texts[] = { text }, *names[] = { "grub" };
	char *value = NULL;

	FUZZ_ASSERT(grub_effective(texts, names, 1, var, &value, NULL) == 0,
		    "an editable file has no %s value", var);
	return value;
}

static void check_kept(const char *before, const char *after, char *const *managed, char *const *args)
{
	char **kb = cmdline_unmanaged_tokens(before, managed, args);
	char **ka = cmdline_unmanaged_tokens(after, managed, args);

	FUZZ_ASSERT(fuzz_strv_equal(kb, ka), "unmanaged args changed: '%s' -> '%s'", before, after);
	strv_free(kb);
	strv_free(ka);
}

static void check_in_effect(const char *value, char *const *managed, char *const *args)
{
	struct cmdline_check_result res = CMDLINE_CHECK_RESULT_INIT;

	FUZZ_ASSERT(cmdline_check(value, managed, args, &res) == 0 && cmdline_check_ok(&res),
		    "'%s' is not what the mode asks", value);
	cmdline_check_result_release(&res);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *input = fuzz_text(data, size), *same = NULL, *out = NULL, *twice = NULL;
	char **titles = NULL, **ids = NULL, **entry_args = NULL;
	struct fuzz_edit_input in;
	int count;

	if (!input)
		return 0;
	fuzz_edit_input_split(input, &in);

	if (grub_cfg_entries(in.text, &titles, &ids, &entry_args) == 0) {
		strv_free(titles);
		strv_free(ids);
		strv_free(entry_args);
	}
	if (grub_edit(in.text, NULL, NULL, -1, &same, NULL) == 0) {
		FUZZ_ASSERT(!strcmp(same, in.text), "edit without args changed the file");
		free(same);
	}
	count = grub_count_assignments(in.text, GRUB_CMDLINE, NULL);
	if (count >= 0 && grub_count_assignments(in.text, GRUB_CMDLINE_DEFAULT, NULL) >= 0 &&
	    grub_edit(in.text, in.managed, in.args, count ? count - 1 : -2, &out, NULL) == 0) {
		char *linux_before = effective(in.text, GRUB_CMDLINE);
		char *default_before = effective(in.text, GRUB_CMDLINE_DEFAULT);
		char *linux_after = effective(out, GRUB_CMDLINE);
		char *default_after = effective(out, GRUB_CMDLINE_DEFAULT);
		int count_after = grub_count_assignments(out, GRUB_CMDLINE, NULL);

		check_kept(linux_before, linux_after, in.managed, in.args);
		check_kept(default_before, default_after, in.managed, in.args);
		check_in_effect(linux_after, in.managed, in.args);
		check_in_effect(default_after, in.managed, NULL);
		FUZZ_ASSERT(count_after >= 1 || !in.args[0], "args added, but no assignment after the edit");
		FUZZ_ASSERT(grub_edit(out, in.managed, in.args, count_after ? count_after - 1 : -2,
				      &twice, NULL) == 0,
			    "the edited file cannot be edited");
		FUZZ_ASSERT(!strcmp(out, twice), "edit is not idempotent:\n%s\n---\n%s", out, twice);
		free(linux_before);
		free(default_before);
		free(linux_after);
		free(default_after);
		free(twice);
		free(out);
	}
	fuzz_edit_input_release(&in);
	free(input);
	return 0;
}
