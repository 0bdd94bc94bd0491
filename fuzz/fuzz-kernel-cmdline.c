/*
 * /etc/kernel/cmdline (boot/bls.c kernel_cmdline_plan() and
 * kernel_cmdline_inherit()), read through an in-memory struct boot_io so
 * the file's bytes are exactly the fuzzer's, NUL bytes included.
 *
 * Properties:
 *  - a file with a NUL byte is refused (written back as a C string it
 *    would lose everything after the NUL);
 *  - otherwise the planned file keeps every token it does not manage,
 *    carries the mode's args, and so does what a new kernel inherits
 *    from it; planning again on the new file writes nothing.
 */
#include "fuzz-common.h"

#include <errno.h>

#include "boot/bls.h"
#include "boot/boot.h"

struct memory_file {
	const char *data;
	size_t len;
};

static int memory_read(struct boot_io *io, const char *path, char **ret_data, size_t *ret_len)
{
	struct memory_file *f = io->data;
	char *copy;

	if (strcmp(path, "/etc/kernel/cmdline"))
		return -ENOENT;
	copy = xmalloc(f->len + 1);
	memcpy(copy, f->data, f->len);
	copy[f->len] = '\0';
	*ret_data = copy;
	if (ret_len)
		*ret_len = f->len;
	return 0;
}

static int memory_exists(struct boot_io *io, const char *path)
{
	(void)io;
	return !strcmp(path, "/etc/kernel/cmdline");
}

static void check_in_effect(const char *line, char *const *managed, char *const *args)
{
	struct cmdline_check_result res = CMDLINE_CHECK_RESULT_INIT;

	FUZZ_ASSERT(cmdline_check(line, managed, args, &res) == 0 && cmdline_check_ok(&res),
		    "'%s' does not carry the mode", line);
	cmdline_check_result_release(&res);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *file = (const char *)data;
	size_t file_len = size;
	char *args_line = NULL, **args = NULL;
	char **managed;
	struct memory_file mf;
	struct boot_io io = { .read_file = memory_read, .exists = memory_exists, .data = &mf };
	struct boot_plan plan = BOOT_PLAN_INIT;
	struct parse_error err = PARSE_ERROR_INIT;
	int r;

	if (size >= 3 && !memcmp(data, "@@ ", 3) && memchr(data, '\n', size)) {
		const char *nl = memchr(data, '\n', size);

		args_line = xstrndup(file + 3, (size_t)(nl - file - 3));
		file_len = size - (size_t)(nl + 1 - file);
		file = nl + 1;
		if (strlen(args_line) != (size_t)(nl - (const char *)data - 3) ||
		    cmdline_args_parse(args_line, &args, &err) < 0)
			args = NULL;
		parse_error_release(&err);
	}
	if (!args)
		args = fuzz_strv_copy(fuzz_default_args);
	managed = fuzz_managed_for(args);

	mf.data = file;
	mf.len = file_len;
	r = kernel_cmdline_plan(&io, managed, args, NULL, &plan, &err);
	if (memchr(file, '\0', file_len)) {
		FUZZ_ASSERT(r == -EINVAL && err.message, "a file with a NUL byte was accepted");
	} else if (r == 1) {
		char *before = xstrndup(file, file_len), *after;
		char **kb, **ka;
		struct boot_state state = BOOT_STATE_INIT;
		struct boot_plan again = BOOT_PLAN_INIT;

		FUZZ_ASSERT(plan.n_actions <= 1, "%zu actions", plan.n_actions);
		after = xstrdup(plan.n_actions ? plan.actions[0].new_data : before);
		kb = cmdline_unmanaged_tokens(before, managed, args);
		ka = cmdline_unmanaged_tokens(after, managed, args);
		FUZZ_ASSERT(fuzz_strv_equal(kb, ka), "unmanaged args changed: '%s' -> '%s'", before, after);
		check_in_effect(after, managed, args);

		mf.data = after;
		mf.len = strlen(after);
		FUZZ_ASSERT(kernel_cmdline_plan(&io, managed, args, NULL, &again, NULL) == 1,
			    "the planned file cannot be planned again");
		FUZZ_ASSERT(again.n_actions == 0, "planning again changes '%s'", after);
		FUZZ_ASSERT(kernel_cmdline_inherit(&io, &state, NULL) == 0 && state.inherit_args,
			    "nothing inherited");
		check_in_effect(state.inherit_args, managed, args);

		boot_state_release(&state);
		boot_plan_release(&again);
		strv_free(kb);
		strv_free(ka);
		free(before);
		free(after);
	} else {
		FUZZ_ASSERT(r < 0 && err.message && err.file, "a refusal without a message");
	}
	boot_plan_release(&plan);
	parse_error_release(&err);
	strv_free(args);
	strv_free(managed);
	free(args_line);
	return 0;
}
