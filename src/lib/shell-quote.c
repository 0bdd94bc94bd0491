#include "lib/shell-quote.h"

#include <string.h>

void shell_quote_append(struct strbuf *sb, const char *s)
{
	strbuf_addch(sb, '\'');
	for (const char *p = s; *p; p++) {
		if (*p == '\'')
			strbuf_addstr(sb, "'\\''");
		else
			strbuf_addch(sb, *p);
	}
	strbuf_addch(sb, '\'');
}

char *shell_quote(const char *s)
{
	struct strbuf sb = STRBUF_INIT;

	shell_quote_append(&sb, s);
	return strbuf_detach(&sb, NULL);
}

void shell_quote_argv_append(struct strbuf *sb, const char *const *argv)
{
	for (size_t i = 0; argv[i]; i++) {
		if (i)
			strbuf_addch(sb, ' ');
		shell_quote_append(sb, argv[i]);
	}
}

static int word_is_plain(const char *s)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') ||
		      strchr("_@%+=:,./-", *s)))
			return 0;
	return 1;
}

void shell_quote_argv_append_readable(struct strbuf *sb, const char *const *argv)
{
	for (size_t i = 0; argv[i]; i++) {
		if (i)
			strbuf_addch(sb, ' ');
		if (word_is_plain(argv[i]))
			strbuf_addstr(sb, argv[i]);
		else
			shell_quote_append(sb, argv[i]);
	}
}
