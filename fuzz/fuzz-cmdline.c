/*
 * Kernel command lines (cmdline.c): /proc/cmdline, /etc/kernel/cmdline, a
 * BLS options value, a plan's args.
 *
 * Properties:
 *  - a line that parses strictly parses tolerantly to the same tokens;
 *  - tokens -> text (one space between) -> tokens gives the same tokens;
 *  - an edit with nothing managed and nothing added is the identity;
 *  - cmdline_apply() keeps every token it does not manage, byte for byte
 *    and in order (cmdline_unmanaged_tokens()), puts the mode's args in
 *    effect (cmdline_check()), and applying it again changes nothing;
 *  - every arg cmdline_args_parse() accepts is one token on a line, with
 *    the same name and value.
 */
#include "fuzz-common.h"

#include "lib/strbuf.h"

static bool tokens_equal(const struct cmdline *a, const struct cmdline *b)
{
	if (a->n_tokens != b->n_tokens)
		return false;
	for (size_t i = 0; i < a->n_tokens; i++) {
		const struct cmdline_token *x = &a->tokens[i], *y = &b->tokens[i];

		if (strcmp(x->name, y->name) || !fuzz_str_equal(x->value, y->value) ||
		    x->init_arg != y->init_arg || x->separator != y->separator)
			return false;
	}
	return true;
}

static void check_round_trip(const char *text, unsigned flags)
{
	struct cmdline c, again;
	struct strbuf joined = STRBUF_INIT;
	char *same;

	if (cmdline_parse(text, flags, &c, NULL) < 0)
		return;
	same = cmdline_format_edit(&c, NULL, NULL);
	FUZZ_ASSERT(!strcmp(same, text), "edit without args changed '%s' into '%s'", text, same);
	free(same);

	for (size_t i = 0; i < c.n_tokens; i++) {
		if (i)
			strbuf_addch(&joined, ' ');
		strbuf_add(&joined, c.text + c.tokens[i].start, c.tokens[i].end - c.tokens[i].start);
	}
	FUZZ_ASSERT(cmdline_parse(strbuf_str(&joined), flags, &again, NULL) == 0,
		    "joined tokens '%s' do not parse", strbuf_str(&joined));
	FUZZ_ASSERT(tokens_equal(&c, &again), "'%s' -> '%s' changes the tokens", text, strbuf_str(&joined));
	cmdline_release(&again);
	strbuf_release(&joined);
	cmdline_release(&c);
}

static void check_apply(const char *text, char *const *managed, char *const *args)
{
	struct cmdline_check_result res = CMDLINE_CHECK_RESULT_INIT;
	char *out = NULL, *twice = NULL;
	char **before, **after;

	if (cmdline_apply(text, managed, args, &out, NULL) < 0)
		return;
	before = cmdline_unmanaged_tokens(text, managed, args);
	after = cmdline_unmanaged_tokens(out, managed, args);
	FUZZ_ASSERT(before && after, "unmanaged tokens unavailable");
	FUZZ_ASSERT(fuzz_strv_equal(before, after), "apply changed unmanaged tokens: '%s' -> '%s'", text, out);
	strv_free(before);
	strv_free(after);

	FUZZ_ASSERT(cmdline_check(out, managed, args, &res) == 0, "check failed on '%s'", out);
	FUZZ_ASSERT(cmdline_check_ok(&res), "after apply, '%s' does not carry the mode (missing %s, unexpected %s)",
		    out, res.missing[0] ? res.missing[0] : "-", res.unexpected[0] ? res.unexpected[0] : "-");
	cmdline_check_result_release(&res);

	FUZZ_ASSERT(cmdline_apply(out, managed, args, &twice, NULL) == 0, "'%s' does not parse again", out);
	FUZZ_ASSERT(!strcmp(out, twice), "apply is not idempotent: '%s' -> '%s'", out, twice);
	free(twice);
	free(out);
}

static void check_args(char *const *args)
{
	for (size_t i = 0; args[i]; i++) {
		char *line = xasprintf("root=/dev/sda1 %s quiet", args[i]);
		const char *eq = strchr(args[i], '=');
		struct cmdline c;

		FUZZ_ASSERT(cmdline_parse(line, 0, &c, NULL) == 0, "'%s' does not parse", line);
		FUZZ_ASSERT(c.n_tokens == 3, "valid arg '%s' is %zu tokens", args[i], c.n_tokens - 2);
		FUZZ_ASSERT(eq ? !strncmp(c.tokens[1].name, args[i], (size_t)(eq - args[i])) &&
				 c.tokens[1].name[eq - args[i]] == '\0' && c.tokens[1].value &&
				 !strcmp(c.tokens[1].value, eq + 1)
			       : !strcmp(c.tokens[1].name, args[i]) && !c.tokens[1].value,
			    "valid arg '%s' reads back differently", args[i]);
		cmdline_release(&c);
		free(line);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *input = fuzz_text(data, size);
	struct fuzz_edit_input in;
	struct cmdline strict, tolerant;
	int r;

	if (!input)
		return 0;
	fuzz_edit_input_split(input, &in);
	check_args(in.args);

	r = cmdline_parse(in.text, 0, &strict, NULL);
	FUZZ_ASSERT(cmdline_parse(in.text, CMDLINE_TOLERANT, &tolerant, NULL) == 0,
		    "tolerant parse failed");
	if (r == 0) {
		FUZZ_ASSERT(tokens_equal(&strict, &tolerant), "strict and tolerant parses differ");
		cmdline_release(&strict);
	}
	cmdline_release(&tolerant);

	check_round_trip(in.text, 0);
	check_round_trip(in.text, CMDLINE_TOLERANT);
	check_round_trip(in.text, CMDLINE_TOLERANT | CMDLINE_AFTER_SEPARATOR);
	check_apply(in.text, in.managed, in.args);
	check_apply(in.text, in.managed, NULL);

	fuzz_edit_input_release(&in);
	free(input);
	return 0;
}
