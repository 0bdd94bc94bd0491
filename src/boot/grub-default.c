/*
 * The shell assignments of /etc/default/grub and its grub.d drop-ins that
 * bootab reads and edits: parsed (only the simple forms grub.h names),
 * counted, edited, set, and evaluated as sh would.
 */

#include "boot/grub-internal.h"

#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/cmdline.h"
#include "lib/alloc.h"
#include "lib/file.h"
#include "lib/strbuf.h"

struct assignment {
	size_t value_start;    /* raw value, quotes included */
	size_t value_end;
	char quote;            /* '"', '\'' or 0 for a bare word */
	char *ref;             /* "$VAR" or "${VAR}" opening the value, or NULL */
	char *literal;         /* the value after ref, unquoted */
	size_t next;           /* start of the following line */
};

static void assignment_release(struct assignment *a)
{
	free(a->ref);
	free(a->literal);
}

static bool bare_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       (c && strchr("_-.,:/=+@%^~!", c));
}

static int fail(struct parse_error *err, const char *text, size_t at, const char *what)
{
	unsigned line, column;

	text_position(text, at, &line, &column);
	parse_error_set(err, line, column, "%s", what);
	return -EINVAL;
}

/* Where the statement at i begins: past blanks and an "export" before it. */
static size_t statement_start(const char *text, size_t i)
{
	while (blank(text[i]))
		i++;
	if (!strncmp(text + i, "export", 6) && blank(text[i + 6])) {
		i += 6;
		while (blank(text[i]))
			i++;
	}
	return i;
}

/* 1 and *a when the line at pos assigns var; 0 when it does not. */
static int assignment_parse(const char *text, size_t pos, const char *var, struct assignment *a,
			    struct parse_error *err)
{
	size_t i = pos, n = strlen(var);
	struct strbuf lit = STRBUF_INIT;
	char *dollar = xasprintf("$%s", var), *braced = xasprintf("${%s}", var);
	int r = 0;

	memset(a, 0, sizeof(*a));
	a->next = line_end(text, pos);
	a->next += text[a->next] == '\n';
	i = statement_start(text, i);
	if (strncmp(text + i, var, n) || text[i + n] != '=')
		goto out;
	i += n + 1;
	a->value_start = i;
	a->quote = text[i] == '"' || text[i] == '\'' ? text[i] : 0;
	if (a->quote == '"') {
		i++;
		for (const char *ref_form[] = { braced, dollar, NULL }, **f = ref_form; *f; f++) {
			size_t len = strlen(*f);

			if (strncmp(text + i, *f, len))
				continue;
			if (blank(text[i + len]) || text[i + len] == '"' || text[i + len] == '\n') {
				a->ref = xstrdup(*f);
				i += len;
				break;
			}
		}
		for (;;) {
			char c = text[i];

			if (!c) {
				r = fail(err, text, a->value_start, "unterminated double quote");
				goto out;
			}
			if (c == '"') {
				i++;
				break;
			}
			if (c == '\\' && text[i + 1] && strchr("$`\"\\\n", text[i + 1])) {
				if (text[i + 1] != '\n')
					strbuf_addch(&lit, text[i + 1]);
				i += 2;
				continue;
			}
			if (c == '$' || c == '`') {
				r = fail(err, text, i, "value uses shell expansion, which bootab does not edit");
				goto out;
			}
			strbuf_addch(&lit, c);
			i++;
		}
	} else if (a->quote == '\'') {
		const char *end = strchr(text + i + 1, '\'');

		if (!end) {
			r = fail(err, text, a->value_start, "unterminated single quote");
			goto out;
		}
		strbuf_add(&lit, text + i + 1, (size_t)(end - text - i - 1));
		i = (size_t)(end - text) + 1;
	} else {
		while (text[i] && !blank(text[i]) && text[i] != '\n' && text[i] != ';') {
			if (!bare_char(text[i])) {
				r = fail(err, text, i, "unquoted value uses shell syntax bootab does not edit");
				goto out;
			}
			strbuf_addch(&lit, text[i++]);
		}
	}
	a->value_end = i;
	while (blank(text[i]))
		i++;
	if (text[i] == '#')
		i = line_end(text, i);
	if (text[i] && text[i] != '\n') {
		r = fail(err, text, i, "unsupported shell syntax after the value");
		goto out;
	}
	a->next = text[i] ? i + 1 : i;
	a->literal = strbuf_detach(&lit, NULL);
	r = 1;
out:
	if (r <= 0) {
		free(a->ref);
		a->ref = NULL;
	}
	strbuf_release(&lit);
	free(dollar);
	free(braced);
	return r;
}

/*
 * Where the next statement starts, for a line that assigns none of the
 * variables bootab edits: past the closing quote when the line assigns
 * another variable a quoted value, which may span lines
 * (GRUB_FOO="a<newline>GRUB_CMDLINE_LINUX=x" sets only GRUB_FOO), else
 * past the line. Returns 0, or -EINVAL with err when that quote is never
 * closed (sh would refuse the file).
 */
static int statement_next(const char *text, size_t pos, size_t *ret_next, struct parse_error *err)
{
	size_t i = pos, end;

	i = statement_start(text, i);
	if ((text[i] >= 'A' && text[i] <= 'Z') || (text[i] >= 'a' && text[i] <= 'z') || text[i] == '_') {
		while ((text[i] >= 'A' && text[i] <= 'Z') || (text[i] >= 'a' && text[i] <= 'z') ||
		       (text[i] >= '0' && text[i] <= '9') || text[i] == '_')
			i++;
		if (text[i] == '=' && (text[i + 1] == '"' || text[i + 1] == '\'')) {
			size_t open = i + 1;
			char q = text[open];

			for (i += 2; text[i] && text[i] != q; i++)
				if (q == '"' && text[i] == '\\' && text[i + 1])
					i++;
			if (!text[i])
				return fail(err, text, open, q == '"' ? "unterminated double quote"
								       : "unterminated single quote");
		}
	}
	end = line_end(text, i);
	/*
	 * A here-document's lines are data, not statements: a
	 * GRUB_CMDLINE_LINUX= line inside one assigns nothing. bootab does not
	 * follow here-documents; it refuses the file rather than edit one.
	 */
	{
		char q = 0;

		for (size_t j = i; j < end; j++) {
			if (q) {
				if (text[j] == q)
					q = 0;
				else if (q == '"' && text[j] == '\\' && j + 1 < end)
					j++;
			} else if (text[j] == '\'' || text[j] == '"') {
				q = text[j];
			} else if (text[j] == '\\' && j + 1 < end) {
				j++;
			} else if (text[j] == '#' && (j == pos || blank(text[j - 1]))) {
				break;
			} else if (text[j] == '<' && text[j + 1] == '<' && j + 1 < end) {
				return fail(err, text, j, "a here-document (<<), which bootab does not edit");
			}
		}
	}
	*ret_next = end + (text[end] == '\n');
	return 0;
}

int grub_count_assignments(const char *text, const char *var, struct parse_error *err)
{
	int count = 0;

	for (size_t pos = 0; text[pos];) {
		struct assignment a;
		int r = assignment_parse(text, pos, var, &a, err);

		if (r == 0)
			r = statement_next(text, pos, &a.next, err);
		if (r < 0)
			return r;
		count += r;
		pos = a.next;
		assignment_release(&a);
	}
	return count;
}

static void add_escaped(struct strbuf *sb, const char *s)
{
	/* Inside double quotes sh gives \ " $ ` a special meaning; nothing else. */
	for (; *s; s++) {
		if (strchr("\"\\$`", *s))
			strbuf_addch(sb, '\\');
		strbuf_addch(sb, *s);
	}
}

static void add_double_quoted(struct strbuf *sb, const char *s)
{
	strbuf_addch(sb, '"');
	add_escaped(sb, s);
	strbuf_addch(sb, '"');
}

static void add_value(struct strbuf *sb, const struct assignment *a, const char *literal)
{
	bool bare_ok = *literal;

	for (const char *p = literal; *p; p++)
		if (!bare_char(*p))
			bare_ok = false;
	if (a->ref) {
		/* The drop-in idiom: keep "$VAR" first and a space after it. */
		strbuf_addch(sb, '"');
		strbuf_addstr(sb, a->ref);
		if (*literal && !blank(*literal))
			strbuf_addch(sb, ' ');
		add_escaped(sb, literal);
		strbuf_addch(sb, '"');
	} else if (a->quote == '\'' && !strchr(literal, '\'')) {
		strbuf_addch(sb, '\'');
		strbuf_addstr(sb, literal);
		strbuf_addch(sb, '\'');
	} else if (a->quote == 0 && bare_ok) {
		strbuf_addstr(sb, literal);
	} else {
		add_double_quoted(sb, literal);
	}
}

int grub_edit(const char *text, char *const *managed, char *const *args, int append_at,
	      char **ret, struct parse_error *err)
{
	static const char *const vars[] = { GRUB_CMDLINE, GRUB_CMDLINE_DEFAULT, NULL };
	struct strbuf out = STRBUF_INIT;
	size_t copied = 0;
	int linux_index = 0;

	for (size_t pos = 0; text[pos];) {
		struct assignment a;
		size_t next;
		int r = 0;

		if (statement_next(text, pos, &next, err) < 0) {
			strbuf_release(&out);
			return -EINVAL;
		}
		for (size_t v = 0; vars[v]; v++) {
			struct cmdline c;
			struct parse_error perr = PARSE_ERROR_INIT;
			char *edited;
			bool append;

			r = assignment_parse(text, pos, vars[v], &a, err);
			if (r < 0) {
				strbuf_release(&out);
				return r;
			}
			if (r == 0)
				continue;
			next = a.next;
			append = v == 0 && linux_index++ == append_at;
			if (cmdline_parse(a.literal, 0, &c, &perr) < 0) {
				fail(err, text, a.value_start, perr.message);
				parse_error_release(&perr);
				assignment_release(&a);
				strbuf_release(&out);
				return -EINVAL;
			}
			/* The kernel sees one line made of every assignment, drop-ins and
			 * GRUB_CMDLINE_LINUX_DEFAULT included: after a `--` in one of them,
			 * the next ones are init's. Editing each alone would get that wrong. */
			if (cmdline_has_separator(&c)) {
				cmdline_release(&c);
				fail(err, text, a.value_start,
				     "'--' (init's arguments) in the value: bootab does not edit such a file");
				assignment_release(&a);
				strbuf_release(&out);
				return -EINVAL;
			}
			edited = cmdline_format_edit(&c, managed, append ? args : NULL);
			cmdline_release(&c);
			if (strcmp(edited, a.literal)) {
				strbuf_add(&out, text + copied, a.value_start - copied);
				add_value(&out, &a, edited);
				copied = a.value_end;
			}
			free(edited);
			assignment_release(&a);
			break;
		}
		pos = next;
	}
	strbuf_addstr(&out, text + copied);
	if (append_at == -2 && args && args[0]) {
		struct strbuf value = STRBUF_INIT;

		for (size_t i = 0; args[i]; i++) {
			if (i)
				strbuf_addch(&value, ' ');
			strbuf_addstr(&value, args[i]);
		}
		if (out.len && out.buf[out.len - 1] != '\n')
			strbuf_addch(&out, '\n');
		strbuf_addstr(&out, GRUB_CMDLINE "=");
		add_double_quoted(&out, value.buf);
		strbuf_addch(&out, '\n');
		strbuf_release(&value);
	}
	*ret = strbuf_detach(&out, NULL);
	return 0;
}

int grub_effective(const char *const *texts, const char *const *names, size_t n, const char *var,
		   char **ret, struct parse_error *err)
{
	char *value = xstrdup("");

	for (size_t t = 0; t < n; t++)
		for (size_t pos = 0; texts[t][pos];) {
			struct assignment a;
			int r = assignment_parse(texts[t], pos, var, &a, err);

			if (r == 0)
				r = statement_next(texts[t], pos, &a.next, err);
			if (r < 0) {
				parse_error_set_file(err, names[t]);
				free(value);
				return r;
			}
			if (r > 0) {
				char *next = a.ref ? xasprintf("%s%s", value, a.literal) : xstrdup(a.literal);

				free(value);
				value = next;
			}
			pos = a.next;
			assignment_release(&a);
		}
	*ret = value;
	return 0;
}

int grub_set_value(const char *text, const char *var, const char *value, bool append,
		   char **ret, struct parse_error *err)
{
	struct strbuf out = STRBUF_INIT;
	size_t copied = 0;
	bool found = false;

	for (size_t pos = 0; text[pos];) {
		struct assignment a;
		size_t next;
		int r;

		if (statement_next(text, pos, &next, err) < 0) {
			strbuf_release(&out);
			return -EINVAL;
		}
		r = assignment_parse(text, pos, var, &a, err);
		if (r < 0) {
			strbuf_release(&out);
			return r;
		}
		if (r > 0) {
			struct assignment plain = a;

			/* The new value stands alone: no "$VAR" reference kept. */
			plain.ref = NULL;
			strbuf_add(&out, text + copied, a.value_start - copied);
			add_value(&out, &plain, value);
			copied = a.value_end;
			next = a.next;
			found = true;
			assignment_release(&a);
		}
		pos = next;
	}
	strbuf_addstr(&out, text + copied);
	if (!found && append) {
		if (out.len && out.buf[out.len - 1] != '\n')
			strbuf_addch(&out, '\n');
		strbuf_addf(&out, "%s=", var);
		add_double_quoted(&out, value);
		strbuf_addch(&out, '\n');
	}
	*ret = strbuf_detach(&out, NULL);
	return 0;
}
