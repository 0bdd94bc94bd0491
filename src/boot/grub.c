/*
 * The grub backend (Debian, Ubuntu): GRUB_CMDLINE_LINUX in /etc/default/grub
 * and the /etc/default/grub.d/NAME.cfg drop-ins, then `update-grub`
 * (grub-mkconfig -o /boot/grub/grub.cfg). GRUB_CMDLINE_LINUX is the part
 * every entry of every kernel gets, recovery entries included; managed args
 * are also stripped from GRUB_CMDLINE_LINUX_DEFAULT, which the default
 * entries add, but the mode's args never go there.
 */
#include "boot/grub.h"

#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "boot/boot.h"
#include "kernel/cmdline.h"
#include "lib/alloc.h"
#include "lib/parse-number.h"
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

static bool blank(char c)
{
	return c == ' ' || c == '\t';
}

static bool bare_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       (c && strchr("_-.,:/=+@%^~!", c));
}

static size_t line_end(const char *text, size_t i)
{
	const char *nl = strchr(text + i, '\n');

	return nl ? (size_t)(nl - text) : strlen(text);
}

static int fail(struct parse_error *err, const char *text, size_t at, const char *what)
{
	unsigned line, column;

	text_position(text, at, &line, &column);
	parse_error_set(err, line, column, "%s", what);
	return -EINVAL;
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
	while (blank(text[i]))
		i++;
	if (!strncmp(text + i, "export", 6) && blank(text[i + 6])) {
		i += 6;
		while (blank(text[i]))
			i++;
	}
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

	while (blank(text[i]))
		i++;
	if (!strncmp(text + i, "export", 6) && blank(text[i + 6])) {
		i += 6;
		while (blank(text[i]))
			i++;
	}
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

static char *quoted_word(const char *p, const char **ret_end)
{
	char q = *p;
	const char *end;

	if (q != '\'' && q != '"')
		return NULL;
	end = strchr(p + 1, q);
	if (!end)
		return NULL;
	*ret_end = end + 1;
	return xstrndup(p + 1, (size_t)(end - p - 1));
}

static void strv_append(char ***v, size_t *n, char *s)
{
	*v = xrealloc(*v, (*n + 2) * sizeof(char *));
	(*v)[(*n)++] = s;
	(*v)[*n] = NULL;
}

int grub_cfg_entries(const char *text, char ***ret_titles, char ***ret_ids, char ***ret_args)
{
	char **titles = xcalloc(1, sizeof(char *)), **ids = xcalloc(1, sizeof(char *));
	char **args = xcalloc(1, sizeof(char *));
	char *title = NULL, *id = NULL;
	size_t n = 0, n_ids = 0, n_args = 0;

	for (size_t pos = 0; text[pos];) {
		size_t end = line_end(text, pos);
		char *line = xstrndup(text + pos, end - pos);
		const char *p = line;

		while (blank(*p))
			p++;
		if (!strncmp(p, "menuentry", 9) && blank(p[9])) {
			const char *q = p + 10, *after = NULL, *o;

			while (blank(*q))
				q++;
			free(title);
			free(id);
			title = quoted_word(q, &after);
			id = NULL;
			o = strstr(p, "$menuentry_id_option");
			if (o) {
				o += strlen("$menuentry_id_option");
				while (blank(*o))
					o++;
				id = quoted_word(o, &after);
			}
		} else if (title && (!strncmp(p, "linux", 5) || !strncmp(p, "linuxefi", 8))) {
			const char *q = p + (strncmp(p, "linuxefi", 8) ? 5 : 8);

			if (blank(*q)) {
				while (blank(*q))
					q++;
				while (*q && !blank(*q))  /* the kernel image */
					q++;
				while (blank(*q))
					q++;
				strv_append(&titles, &n, xstrdup(title));
				strv_append(&ids, &n_ids, xstrdup(id ? id : ""));
				strv_append(&args, &n_args, xstrdup(q));
				free(title);
				title = NULL;
			}
		}
		free(line);
		pos = end + (text[end] == '\n');
	}
	free(title);
	free(id);
	*ret_titles = titles;
	*ret_ids = ids;
	*ret_args = args;
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

/* ---- grub.cfg's menu ---- */

#define GRUB_MENU_DEPTH 8

struct menu_item {
	char *title, *id;
	size_t index;          /* among its siblings */
};

struct menu_entry {
	struct menu_item levels[GRUB_MENU_DEPTH];
	size_t depth;          /* levels used: 1 at top level, 2 inside a submenu */
	char *image, *initrd;
	bool recovery;
	size_t body_start, body_end;   /* the entry's lines between '{' and '}' in the text */
};

static void menu_entry_release(struct menu_entry *e)
{
	for (size_t i = 0; i < e->depth; i++) {
		free(e->levels[i].title);
		free(e->levels[i].id);
	}
	free(e->image);
	free(e->initrd);
}

/* The title and $menuentry_id_option id of a menuentry/submenu line (p after the keyword). */
static void menu_title_id(const char *p, char **ret_title, char **ret_id)
{
	const char *after = NULL, *o;

	while (blank(*p))
		p++;
	*ret_title = quoted_word(p, &after);
	*ret_id = NULL;
	o = strstr(p, "$menuentry_id_option");
	if (o) {
		o += strlen("$menuentry_id_option");
		while (blank(*o))
			o++;
		*ret_id = quoted_word(o, &after);
	}
}

/* The word after a linux/initrd keyword: the image path. */
static char *first_word(const char *q)
{
	const char *start;

	while (blank(*q))
		q++;
	start = q;
	while (*q && !blank(*q))
		q++;
	return q > start ? xstrndup(start, (size_t)(q - start)) : NULL;
}

/* An image path in grub.cfg is relative to the partition GRUB reads: a
 * separate /boot shows as "/vmlinuz-...". */
static char *boot_path(const char *p)
{
	if (!strncmp(p, "/boot/", 6))
		return xstrdup(p);
	return xasprintf("/boot%s%s", p[0] == '/' ? "" : "/", p);
}

/* Every menuentry with a linux line, with the submenus around it. */
static size_t grub_cfg_menu(const char *text, struct menu_entry **ret)
{
	struct menu_entry *v = NULL, cur = { 0 };
	struct menu_item open[GRUB_MENU_DEPTH] = { 0 };
	size_t counts[GRUB_MENU_DEPTH + 1] = { 0 };
	/* What each '{' opened: 's' submenu, 'm' menuentry, 'o' anything else. */
	char stack[64];
	size_t n = 0, alloc = 0, depth = 0, menus = 0;
	bool in_entry = false;

	for (size_t pos = 0; text[pos];) {
		size_t end = line_end(text, pos);
		char *line = xstrndup(text + pos, end - pos);
		const char *p = line;
		size_t len;

		while (blank(*p))
			p++;
		len = strlen(p);
		while (len && blank(p[len - 1]))
			len--;
		if ((!strncmp(p, "submenu", 7) && blank(p[7])) || (!strncmp(p, "menuentry", 9) && blank(p[9]))) {
			bool sub = p[0] == 's';
			char *title, *id;

			menu_title_id(p + (sub ? 8 : 10), &title, &id);
			if (menus < GRUB_MENU_DEPTH) {
				open[menus].title = title ? title : xstrdup("");
				open[menus].id = id ? id : xstrdup("");
				open[menus].index = counts[menus]++;
				counts[menus + 1] = 0;
			} else {
				free(title);
				free(id);
			}
			menus++;
			if (depth < sizeof(stack))
				stack[depth] = sub ? 's' : 'm';
			depth++;
			if (!sub && menus <= GRUB_MENU_DEPTH) {
				memset(&cur, 0, sizeof(cur));
				cur.body_start = end + (text[end] == '\n');
				in_entry = true;
			}
		} else if (len == 1 && p[0] == '}') {
			if (depth) {
				char kind = depth <= sizeof(stack) ? stack[depth - 1] : 'o';

				depth--;
				if (kind == 's' || kind == 'm') {
					menus--;
					if (kind == 'm' && in_entry && cur.image && menus < GRUB_MENU_DEPTH) {
						cur.depth = menus + 1;
						cur.body_end = pos;
						for (size_t i = 0; i < cur.depth; i++) {
							cur.levels[i].title = xstrdup(open[i].title);
							cur.levels[i].id = xstrdup(open[i].id);
							cur.levels[i].index = open[i].index;
						}
						cur.recovery = strstr(open[menus].id, "-recovery-") ||
							       strstr(open[menus].title, "(recovery mode)");
						GROW(v, alloc, n + 1);
						v[n++] = cur;
						memset(&cur, 0, sizeof(cur));
					} else if (kind == 'm') {
						free(cur.image);
						free(cur.initrd);
						memset(&cur, 0, sizeof(cur));
					}
					if (kind == 'm')
						in_entry = false;
					if (menus < GRUB_MENU_DEPTH) {
						free(open[menus].title);
						free(open[menus].id);
						open[menus].title = open[menus].id = NULL;
					}
				}
			}
		} else if (len && p[len - 1] == '{') {
			/* if/function blocks */
			if (depth < sizeof(stack))
				stack[depth] = 'o';
			depth++;
		} else if (in_entry && (!strncmp(p, "linux", 5) || !strncmp(p, "linuxefi", 8))) {
			const char *q = p + (strncmp(p, "linuxefi", 8) ? 5 : 8);

			if (blank(*q) && !cur.image) {
				char *w = first_word(q);

				cur.image = w ? boot_path(w) : NULL;
				free(w);
			}
		} else if (in_entry && (!strncmp(p, "initrd", 6) || !strncmp(p, "initrdefi", 9))) {
			const char *q = p + (strncmp(p, "initrdefi", 9) ? 6 : 9);

			if (blank(*q) && !cur.initrd) {
				char *w = first_word(q);

				cur.initrd = w ? boot_path(w) : NULL;
				free(w);
			}
		}
		free(line);
		pos = end + (text[end] == '\n');
	}
	free(cur.image);
	free(cur.initrd);
	for (size_t i = 0; i < GRUB_MENU_DEPTH; i++) {
		free(open[i].title);
		free(open[i].id);
	}
	*ret = v;
	return n;
}

/* "gnulinux-advanced-UUID>gnulinux-6.1.0-18-amd64-advanced-UUID": ids where
 * every level has one, else titles (as grub-reboot and GRUB_DEFAULT take them). */
static char *menu_path(const struct menu_entry *e)
{
	struct strbuf sb = STRBUF_INIT;

	for (size_t i = 0; i < e->depth; i++) {
		if (i)
			strbuf_addch(&sb, '>');
		strbuf_addstr(&sb, *e->levels[i].id ? e->levels[i].id : e->levels[i].title);
	}
	return strbuf_detach(&sb, NULL);
}

/* Whether a GRUB default ("0", "1>2", an id or title path) names entry e. */
static bool menu_matches(const struct menu_entry *e, const char *spec)
{
	size_t level = 0;

	for (const char *p = spec;; level++) {
		const char *gt = strchr(p, '>');
		size_t len = gt ? (size_t)(gt - p) : strlen(p);
		const struct menu_item *it;
		char *part;
		long num;

		if (level >= e->depth)
			return false;
		it = &e->levels[level];
		part = xstrndup(p, len);
		if (!((number_parse_long(part, 0, LONG_MAX, &num) == 0 && (size_t)num == it->index) ||
		      !strcmp(part, it->id) ||
		      !strcmp(part, it->title))) {
			free(part);
			return false;
		}
		free(part);
		if (!gt)
			return level + 1 == e->depth;
		p = gt + 1;
	}
}

int grub_cfg_kernels(const char *text, struct boot_kernels *ret)
{
	struct menu_entry *menu = NULL;
	size_t n = grub_cfg_menu(text, &menu);
	struct boot_kernels kernels = BOOT_KERNELS_INIT;

	for (size_t i = 0; i < n; i++) {
		const struct menu_entry *e = &menu[i];
		char *release = boot_image_release(e->image), *path;
		bool later = false;

		if (e->recovery) {
			free(release);
			continue;
		}
		/* The top-level entry follows the newest kernel; the submenu entry
		 * of a kernel keeps its id when another kernel is installed. */
		for (size_t k = i + 1; k < n && release && e->depth == 1; k++) {
			char *other = boot_image_release(menu[k].image);

			later = later || (other && !strcmp(other, release) && !menu[k].recovery &&
					  menu[k].depth > 1);
			free(other);
		}
		if (!later) {
			path = menu_path(e);
			boot_kernels_add(&kernels, release, e->image, e->initrd, path,
					 e->levels[e->depth - 1].title);
			free(path);
		}
		free(release);
	}
	for (size_t i = 0; i < n; i++)
		menu_entry_release(&menu[i]);
	free(menu);
	*ret = kernels;
	return 0;
}

char *grub_cfg_default_kernel(const char *text, const char *spec)
{
	struct menu_entry *menu = NULL;
	size_t n = grub_cfg_menu(text, &menu);
	char *found = NULL;

	for (size_t i = 0; i < n && !found; i++)
		if (menu_matches(&menu[i], spec))
			found = menu[i].image ? (boot_image_release(menu[i].image) ?: xstrdup(menu[i].image))
					      : NULL;
	/* "0" when the first item is a submenu: GRUB boots nothing by it; leave it unknown. */
	for (size_t i = 0; i < n; i++)
		menu_entry_release(&menu[i]);
	free(menu);
	return found;
}

/* ---- the backend ---- */

#define DEFAULT_GRUB "/etc/default/grub"
#define DEFAULT_GRUB_D "/etc/default/grub.d"
#define GRUB_CFG "/boot/grub/grub.cfg"

struct grub_files {
	char **paths;          /* DEFAULT_GRUB first, then the drop-ins in glob order */
	char **texts;
	size_t *lens;
	size_t n;
};

static void grub_files_release(struct grub_files *f)
{
	for (size_t i = 0; i < f->n; i++) {
		free(f->paths[i]);
		free(f->texts[i]);
	}
	free(f->paths);
	free(f->texts);
	free(f->lens);
	memset(f, 0, sizeof(*f));
}

static int grub_files_read(struct boot_io *io, struct grub_files *ret, struct parse_error *err)
{
	struct grub_files f = { 0 };
	char **names = NULL;
	size_t count = 0;
	int r;

	r = io->list_dir(io, DEFAULT_GRUB_D, &names, &count);
	if (r == -ENOENT || r == -ENOTDIR) {
		names = NULL;
		count = 0;
	} else if (r < 0) {
		parse_error_set_file(err, DEFAULT_GRUB_D);
		parse_error_set(err, 0, 0, "cannot list: %s", strerror(-r));
		return r;
	}
	f.paths = xcalloc(count + 2, sizeof(char *));
	f.texts = xcalloc(count + 2, sizeof(char *));
	f.lens = xcalloc(count + 2, sizeof(size_t));
	f.paths[f.n++] = xstrdup(DEFAULT_GRUB);
	for (size_t i = 0; i < count; i++) {
		size_t len = strlen(names[i]);

		/* grub-mkconfig sources every grub.d file whose name ends in .cfg. */
		if (len > 4 && !strcmp(names[i] + len - 4, ".cfg") && names[i][0] != '.')
			f.paths[f.n++] = path_join(DEFAULT_GRUB_D, names[i]);
	}
	strv_free(names);
	for (size_t i = 0; i < f.n; i++) {
		r = io->read_file(io, f.paths[i], &f.texts[i], &f.lens[i]);
		if (r < 0 || strlen(f.texts[i]) != f.lens[i]) {
			parse_error_set_file(err, f.paths[i]);
			parse_error_set(err, 0, 0, "%s", r < 0 ? (r == -ENOENT ? "not found" : strerror(-r))
								: "contains a NUL byte");
			grub_files_release(&f);
			return r < 0 ? r : -EINVAL;
		}
	}
	*ret = f;
	return 0;
}

static int grub_detect(struct boot_io *io, char **ret_found)
{
	int r = io->exists(io, DEFAULT_GRUB);

	if (r > 0)
		*ret_found = xstrdup(DEFAULT_GRUB);
	return r;
}

#define GRUBENV "/boot/grub/grubenv"

static int grub_kernels(struct boot_io *io, struct boot_kernels *ret, struct parse_error *err)
{
	char *cfg = NULL;
	int r = boot_io_read_optional(io, GRUB_CFG, &cfg, NULL);

	if (r < 0 || !cfg) {
		parse_error_set_file(err, GRUB_CFG);
		parse_error_set(err, 0, 0, "cannot read: %s", r < 0 ? strerror(-r) : "No such file");
		return r < 0 ? r : -ENOENT;
	}
	r = grub_cfg_kernels(cfg, ret);
	free(cfg);
	return r;
}

/*
 * The kernel becomes the default: with GRUB_DEFAULT=saved, grub-set-default
 * writes saved_entry in grubenv; otherwise GRUB_DEFAULT itself names the
 * kernel's menu entry, and update-grub (which runs anyway) writes it into
 * grub.cfg.
 */
static int grub_plan_default(const struct grub_files *f, char **texts, const char *grub_default,
			     const struct boot_kernel *kernel, struct boot_plan *plan,
			     struct parse_error *err)
{
	bool any = false;

	if (!strcmp(grub_default, "saved")) {
		const char *argv[] = { "grub-set-default", kernel->entry, NULL };

		boot_plan_add_run(plan, argv, false);
		boot_plan_add_protect(plan, GRUBENV);
		boot_plan_add_note(plan, "default entry %s (GRUB_DEFAULT=saved: grub-set-default)", kernel->entry);
		return 0;
	}
	for (size_t i = 0; i < f->n; i++)
		any = any || grub_count_assignments(texts[i], "GRUB_DEFAULT", NULL) > 0;
	for (size_t i = 0; i < f->n; i++) {
		char *edited = NULL;
		int r = grub_set_value(texts[i], "GRUB_DEFAULT", kernel->entry, !any && i == 0, &edited, err);

		if (r < 0) {
			parse_error_set_file(err, f->paths[i]);
			return r;
		}
		free(texts[i]);
		texts[i] = edited;
	}
	boot_plan_add_note(plan, "default entry %s (GRUB_DEFAULT)", kernel->entry);
	return 0;
}

static int grub_plan(struct boot_io *io, char *const *managed, char *const *args,
		     const struct boot_kernel *kernel, struct boot_plan *plan, struct parse_error *err)
{
	struct grub_files f;
	char **texts = NULL;
	size_t last_file = 0;
	int last_index = -1, r;

	r = grub_files_read(io, &f, err);
	if (r < 0)
		return r;
	/* The mode's args go into the assignment sh evaluates last. */
	for (size_t i = 0; i < f.n; i++) {
		r = grub_count_assignments(f.texts[i], GRUB_CMDLINE, err);
		if (r >= 0)
			r = grub_count_assignments(f.texts[i], GRUB_CMDLINE_DEFAULT, err) < 0 ? -EINVAL : r;
		if (r < 0) {
			parse_error_set_file(err, f.paths[i]);
			grub_files_release(&f);
			return r;
		}
		if (r > 0) {
			last_file = i;
			last_index = r - 1;
		}
	}
	texts = xcalloc(f.n + 1, sizeof(char *));
	for (size_t i = 0; i < f.n; i++) {
		int append_at = -1;

		if (last_index >= 0 && i == last_file)
			append_at = last_index;
		else if (last_index < 0 && i == 0)
			append_at = -2;
		r = grub_edit(f.texts[i], managed, args, append_at, &texts[i], err);
		if (r < 0) {
			parse_error_set_file(err, f.paths[i]);
			goto out;
		}
	}
	if (kernel) {
		char *grub_default = NULL;

		r = grub_effective((const char *const *)texts, (const char *const *)f.paths, f.n,
				   "GRUB_DEFAULT", &grub_default, err);
		if (r >= 0)
			r = grub_plan_default(&f, texts, grub_default, kernel, plan, err);
		free(grub_default);
		if (r < 0)
			goto out;
	}
	for (size_t i = 0; i < f.n; i++)
		if (strcmp(texts[i], f.texts[i]))
			boot_plan_add_write(plan, f.paths[i], f.texts[i], f.lens[i], texts[i],
					    strlen(texts[i]), 0644);
	boot_plan_add_note(plan, "%s set last in %s", GRUB_CMDLINE,
			   last_index >= 0 ? f.paths[last_file] : "(nowhere; added to " DEFAULT_GRUB ")");
	{
		const char *argv[] = { "update-grub", NULL };

		boot_plan_add_run(plan, argv, true);
	}
	r = 0;
out:
	for (size_t i = 0; i < f.n; i++)
		free(texts[i]);
	free(texts);
	grub_files_release(&f);
	return r;
}

static char *join_args(const char *a, const char *b)
{
	if (!*a)
		return xstrdup(b);
	if (!*b)
		return xstrdup(a);
	return xasprintf("%s %s", a, b);
}

/* The kernel GRUB boots by default: GRUB_DEFAULT, or grubenv's saved_entry for "saved". */
static char *grub_default_kernel(struct boot_io *io, const char *cfg, const char *grub_default)
{
	char *env = NULL, *saved = NULL, *kernel;

	if (strcmp(grub_default, "saved"))
		return grub_cfg_default_kernel(cfg, *grub_default ? grub_default : "0");
	if (boot_io_read_optional(io, GRUBENV, &env, NULL) == 0 && env) {
		for (const char *p = env; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL)
			if (!strncmp(p, "saved_entry=", 12)) {
				saved = xstrndup(p + 12, strcspn(p + 12, "\n"));
				break;
			}
	}
	kernel = grub_cfg_default_kernel(cfg, saved && *saved ? saved : "0");
	free(saved);
	free(env);
	return kernel;
}

/* ---- one-shot boots: a menu entry in custom.cfg, booted once through next_entry ---- */

/* The linux line of a menu entry with its args edited; NULL when line is none. */
static int oneshot_linux_line(const char *line, char *const *managed, char *const *args, char **ret,
			      char **ret_args, struct parse_error *err)
{
	const char *p = line, *kw, *image, *rest;
	char *edited = NULL;
	int r;

	while (blank(*p))
		p++;
	kw = p;
	if (strncmp(p, "linuxefi", 8) == 0 && blank(p[8]))
		p += 8;
	else if (strncmp(p, "linux", 5) == 0 && blank(p[5]))
		p += 5;
	else
		return 0;
	while (blank(*p))
		p++;
	image = p;
	while (*p && !blank(*p))
		p++;
	if (p == image)
		return 0;
	rest = p;
	r = cmdline_apply(rest, managed, args, &edited, err);
	if (r < 0)
		return r;
	{
		const char *e = edited;

		while (blank(*e))
			e++;
		*ret = xasprintf("%.*s%.*s%.*s%s%s", (int)(kw - line), line, (int)(image - kw), kw,
				 (int)(rest - image), image, *e ? " " : "", e);
		*ret_args = xstrdup(e);
	}
	free(edited);
	return 1;
}

int grub_cfg_oneshot_text(const char *cfg, const char *entry, char *const *managed, char *const *args,
			  char **ret, char **ret_args, struct parse_error *err)
{
	struct menu_entry *menu = NULL;
	size_t n = grub_cfg_menu(cfg, &menu);
	const struct menu_entry *e = NULL;
	struct strbuf sb = STRBUF_INIT;
	char *linux_args = NULL;
	int r = 0;

	for (size_t i = 0; i < n && !e; i++) {
		char *path = menu_path(&menu[i]);

		if (!strcmp(path, entry))
			e = &menu[i];
		free(path);
	}
	if (!e) {
		parse_error_set(err, 0, 0, "no menu entry '%s' with a linux line", entry);
		r = -ENOENT;
		goto out;
	}
	strbuf_addstr(&sb, GRUB_ONESHOT_MARK "\n");
	strbuf_addf(&sb, "# made from the entry %s of " GRUB_CFG "\n", entry);
	strbuf_addstr(&sb, "menuentry 'bootab one-shot' --id " GRUB_ONESHOT_ID " {\n");
	for (size_t pos = e->body_start; pos < e->body_end;) {
		size_t end = line_end(cfg, pos);
		char *line = xstrndup(cfg + pos, end - pos), *edited = NULL, *a = NULL;

		r = linux_args ? 0 : oneshot_linux_line(line, managed, args, &edited, &a, err);
		if (r < 0) {
			free(line);
			goto out;
		}
		if (r > 0) {
			strbuf_addstr(&sb, edited);
			linux_args = a;
			free(edited);
		} else {
			strbuf_addstr(&sb, line);
		}
		strbuf_addch(&sb, '\n');
		free(line);
		pos = end + (cfg[end] == '\n');
	}
	strbuf_addstr(&sb, "}\n");
	*ret = strbuf_detach(&sb, NULL);
	*ret_args = linux_args;
	linux_args = NULL;
	r = 0;
out:
	strbuf_release(&sb);
	free(linux_args);
	for (size_t i = 0; i < n; i++)
		menu_entry_release(&menu[i]);
	free(menu);
	return r;
}

int grub_oneshot_usable(struct boot_io *io, char **ret_why)
{
	char *cfg = NULL, *custom = NULL;
	int r;

	*ret_why = NULL;
	if (io->exists(io, GRUBENV) != 1) {
		*ret_why = xstrdup("no " GRUBENV);
		return 0;
	}
	r = boot_io_read_optional(io, GRUB_CFG, &cfg, NULL);
	if (r < 0 || !cfg) {
		*ret_why = xstrdup("cannot read " GRUB_CFG);
		return 0;
	}
	/* Debian's 00_header: `if [ "${next_entry}" ] ; then set default=...; save_env next_entry` */
	if (!strstr(cfg, "${next_entry}") || !strstr(cfg, "save_env next_entry")) {
		*ret_why = xstrdup(GRUB_CFG " does not use next_entry");
	} else if (!strstr(cfg, GRUB_CUSTOM_CFG)) {
		*ret_why = xstrdup(GRUB_CFG " does not source " GRUB_CUSTOM_CFG);
	} else if (boot_io_read_optional(io, "/boot/grub/custom.cfg", &custom, NULL) == 0 && custom &&
		   strncmp(custom, GRUB_ONESHOT_MARK "\n", strlen(GRUB_ONESHOT_MARK) + 1)) {
		*ret_why = xstrdup("/boot/grub/custom.cfg exists and is not bootab's");
	}
	free(cfg);
	free(custom);
	return *ret_why ? 0 : 1;
}

int grub_oneshot_write(struct boot_io *io, const char *kernel, char *const *managed, char *const *args,
		       char **ret_entry, char **ret_args, struct parse_error *err)
{
	struct grub_files f;
	struct boot_kernels kernels = BOOT_KERNELS_INIT;
	const struct boot_kernel *k;
	char *cfg = NULL, *grub_default = NULL, *release = NULL, *text = NULL, *why = NULL;
	int r;

	r = grub_oneshot_usable(io, &why);
	if (r == 0) {
		parse_error_set(err, 0, 0, "no one-shot boot through GRUB: %s", why);
		free(why);
		return -EOPNOTSUPP;
	}
	r = boot_io_read_optional(io, GRUB_CFG, &cfg, NULL);
	if (r < 0 || !cfg) {
		parse_error_set_file(err, GRUB_CFG);
		parse_error_set(err, 0, 0, "cannot read: %s", r < 0 ? strerror(-r) : "No such file");
		return r < 0 ? r : -ENOENT;
	}
	if (!kernel) {
		/* The kernel GRUB boots by default. */
		r = grub_files_read(io, &f, err);
		if (r < 0)
			goto out;
		r = grub_effective((const char *const *)f.texts, (const char *const *)f.paths, f.n,
				   "GRUB_DEFAULT", &grub_default, err);
		grub_files_release(&f);
		if (r < 0)
			goto out;
		release = grub_default_kernel(io, cfg, grub_default);
		if (!release) {
			parse_error_set_file(err, GRUB_CFG);
			parse_error_set(err, 0, 0, "GRUB_DEFAULT=%s names no entry with a kernel", grub_default);
			r = -ENOENT;
			goto out;
		}
		kernel = release;
	}
	grub_cfg_kernels(cfg, &kernels);
	k = boot_kernels_find(&kernels, kernel);
	if (!k) {
		parse_error_set_file(err, GRUB_CFG);
		parse_error_set(err, 0, 0, "no menu entry boots kernel %s", kernel);
		r = -ENOENT;
		goto out;
	}
	r = grub_cfg_oneshot_text(cfg, k->entry, managed, args, &text, ret_args, err);
	if (r < 0) {
		parse_error_set_file(err, GRUB_CFG);
		goto out;
	}
	r = io->write_file(io, GRUB_ONESHOT_FILE, text, strlen(text), 0644);
	if (r < 0) {
		free(*ret_args);
		*ret_args = NULL;
		parse_error_set_file(err, GRUB_ONESHOT_FILE);
		parse_error_set(err, 0, 0, "cannot write: %s", strerror(-r));
		goto out;
	}
	*ret_entry = xstrdup(k->entry);
	r = 0;
out:
	boot_kernels_release(&kernels);
	free(text);
	free(release);
	free(grub_default);
	free(cfg);
	return r;
}

int grub_oneshot_remove(struct boot_io *io)
{
	char *custom = NULL;
	int r = boot_io_read_optional(io, GRUB_ONESHOT_FILE, &custom, NULL);

	if (r < 0)
		return r;
	if (!custom)
		return 0;
	r = strncmp(custom, GRUB_ONESHOT_MARK "\n", strlen(GRUB_ONESHOT_MARK) + 1) ? -EEXIST : 1;
	free(custom);
	if (r == 1 && (r = io->remove_file(io, GRUB_ONESHOT_FILE)) == 0)
		r = 1;
	return r;
}

static int grub_read_state(struct boot_io *io, const struct boot_plan *applied,
			   struct boot_state *ret, struct parse_error *err)
{
	struct boot_state state = BOOT_STATE_INIT;
	struct grub_files f;
	char *linux_value = NULL, *default_value = NULL, *grub_default = NULL, *cfg = NULL;
	char **titles = NULL, **ids = NULL, **args = NULL;
	int r;

	(void)applied;
	r = grub_files_read(io, &f, err);
	if (r < 0)
		return r;
	r = grub_effective((const char *const *)f.texts, (const char *const *)f.paths, f.n,
			   GRUB_CMDLINE, &linux_value, err);
	if (r >= 0)
		r = grub_effective((const char *const *)f.texts, (const char *const *)f.paths, f.n,
				   GRUB_CMDLINE_DEFAULT, &default_value, err);
	if (r >= 0)
		r = grub_effective((const char *const *)f.texts, (const char *const *)f.paths, f.n,
				   "GRUB_DEFAULT", &grub_default, err);
	grub_files_release(&f);
	if (r < 0)
		goto out;
	state.inherit_source = xstrdup(GRUB_CMDLINE " " GRUB_CMDLINE_DEFAULT);
	state.inherit_args = join_args(linux_value, default_value);
	state.inherit_checked = true;

	r = boot_io_read_optional(io, GRUB_CFG, &cfg, NULL);
	if (r < 0) {
		parse_error_set_file(err, GRUB_CFG);
		parse_error_set(err, 0, 0, "cannot read: %s", strerror(-r));
		goto out;
	}
	if (cfg) {
		grub_cfg_entries(cfg, &titles, &ids, &args);
		for (size_t i = 0; titles[i]; i++)
			boot_state_add_entry(&state, titles[i], args[i]);
		if (state.n_entries) {
			/* GRUB_DEFAULT=0 (Debian's) or unset: the first entry. A title or
			 * id picks that entry; "saved" and submenu paths are not followed. */
			state.has_default = true;
			state.default_index = 0;
			for (size_t i = 0; titles[i]; i++)
				if (*grub_default && (!strcmp(titles[i], grub_default) ||
						      !strcmp(ids[i], grub_default))) {
					state.default_index = i;
					break;
				}
			state.default_rule = xasprintf("GRUB_DEFAULT=%s in " GRUB_CFG,
						       *grub_default ? grub_default : "0");
			state.default_kernel = grub_default_kernel(io, cfg, grub_default);
		}
		strv_free(titles);
		strv_free(ids);
		strv_free(args);
	}
	*ret = state;
	memset(&state, 0, sizeof(state));
	r = 0;
out:
	boot_state_release(&state);
	free(linux_value);
	free(default_value);
	free(grub_default);
	free(cfg);
	return r;
}

const struct boot_backend boot_backend_grub = {
	.name = "grub",
	.summary = "GRUB_CMDLINE_LINUX in /etc/default/grub and grub.d/*.cfg, then update-grub (Debian, Ubuntu)",
	.detect = grub_detect,
	.plan = grub_plan,
	.kernels = grub_kernels,
	.read_state = grub_read_state,
};
