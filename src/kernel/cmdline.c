#include "kernel/cmdline.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/alloc.h"
#include "lib/strvec.h"
#include "lib/file.h"
#include "lib/strbuf.h"

/*
 * The kernel's isspace() (lib/ctype.c): space, \t \n \v \f \r, and 0xa0,
 * which the kernel's Latin-1 table also marks as space.
 */
static bool kernel_isspace(unsigned char c)
{
	return c == ' ' || (c >= '\t' && c <= '\r') || c == 0xa0;
}

static void add_token(struct cmdline *c, size_t start, size_t end, bool *after_separator)
{
	const char *p = c->text + start;
	size_t len = end - start;
	bool quoted = false;
	const char *eq;
	struct cmdline_token *tok;

	GROW(c->tokens, c->alloc_tokens, c->n_tokens + 1);
	tok = &c->tokens[c->n_tokens++];
	memset(tok, 0, sizeof(*tok));
	tok->start = start;
	tok->end = end;

	/* lib/cmdline.c next_arg(): a quote opening the token is skipped; the
	 * name runs to the first '='; a quote opening the value is skipped
	 * together with a quote ending the token; a token that opened with a
	 * quote loses the quote that ends it. Other quotes stay. */
	if (len && *p == '"') {
		p++;
		len--;
		quoted = true;
	}
	eq = memchr(p, '=', len);
	if (eq) {
		const char *v = eq + 1;
		size_t vlen = len - (size_t)(v - p);

		tok->name = xstrndup(p, (size_t)(eq - p));
		if (vlen && *v == '"') {
			v++;
			vlen--;
			if (vlen && v[vlen - 1] == '"')
				vlen--;
		} else if (quoted && vlen && v[vlen - 1] == '"') {
			vlen--;
		}
		tok->value = xstrndup(v, vlen);
	} else {
		if (quoted && len && p[len - 1] == '"')
			len--;
		tok->name = xstrndup(p, len);
	}
	tok->init_arg = *after_separator;
	/* kernel/params.c parse_args(): a parameter "--" without a value ends
	 * the kernel's part; the rest is passed to init. */
	if (!*after_separator && !tok->value && !strcmp(tok->name, "--")) {
		tok->separator = true;
		tok->init_arg = false;
		*after_separator = true;
	}
}

int cmdline_parse(const char *text, unsigned flags, struct cmdline *ret, struct parse_error *err)
{
	struct cmdline c = CMDLINE_INIT;
	bool after_separator = flags & CMDLINE_AFTER_SEPARATOR;
	size_t i = 0, n = strlen(text);

	c.text = xstrdup(text);
	while (i < n) {
		size_t start, quote_at = 0;
		bool in_quote = false;

		while (i < n && kernel_isspace((unsigned char)text[i]))
			i++;
		if (i >= n)
			break;
		start = i;
		for (; i < n; i++) {
			if (kernel_isspace((unsigned char)text[i]) && !in_quote)
				break;
			if (text[i] == '"') {
				in_quote = !in_quote;
				if (in_quote)
					quote_at = i;
			}
		}
		if (in_quote && !(flags & CMDLINE_TOLERANT)) {
			parse_error_set(err, 0, (unsigned)quote_at + 1, "unterminated quote in kernel command line");
			cmdline_release(&c);
			return -EINVAL;
		}
		add_token(&c, start, i, &after_separator);
	}
	*ret = c;
	return 0;
}

void cmdline_release(struct cmdline *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < c->n_tokens; i++) {
		free(c->tokens[i].name);
		free(c->tokens[i].value);
	}
	free(c->tokens);
	free(c->text);
	memset(c, 0, sizeof(*c));
}

bool cmdline_has_separator(const struct cmdline *c)
{
	for (size_t i = 0; i < c->n_tokens; i++)
		if (c->tokens[i].separator)
			return true;
	return false;
}

bool cmdline_name_equal(const char *a, const char *b)
{
	/* kernel/params.c parameqn(): dash2underscore() on both sides. */
	for (;; a++, b++) {
		char x = *a == '-' ? '_' : *a;
		char y = *b == '-' ? '_' : *b;

		if (x != y)
			return false;
		if (!x)
			return true;
	}
}

bool cmdline_name_listed(const char *name, const char *names)
{
	for (const char *n = names;; n++) {
		const char *a = name;

		for (; *n && *n != '|'; a++, n++)
			if ((*a == '-' ? '_' : *a) != (*n == '-' ? '_' : *n))
				break;
		if (!*a && (!*n || *n == '|'))
			return true;
		n += strcspn(n, "|");
		if (!*n)
			return false;
	}
}

const struct cmdline_token *cmdline_find_last(const struct cmdline *c, const char *name)
{
	const struct cmdline_token *found = NULL;

	for (size_t i = 0; i < c->n_tokens; i++) {
		const struct cmdline_token *t = &c->tokens[i];

		if (t->init_arg || t->separator)
			continue;
		if (cmdline_name_equal(t->name, name))
			found = t;
	}
	return found;
}

bool cmdline_is_loader_name(const char *name)
{
	/* GRUB adds BOOT_IMAGE=, systemd-boot and the EFI stub initrd=. */
	return !strcmp(name, "BOOT_IMAGE") || !strcmp(name, "initrd");
}

static bool name_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_' || c == '-' || c == '.';
}

static bool value_char(char c)
{
	return name_char(c) || (c && strchr("=,:/+@%^~!", c));
}

static const char *char_name(char c, char *buf, size_t size)
{
	unsigned char u = (unsigned char)c;

	if (u < 0x20 || u >= 0x7f)
		snprintf(buf, size, "byte 0x%02x", u);
	else if (c == ' ')
		snprintf(buf, size, "a space");
	else
		snprintf(buf, size, "'%c'", c);
	return buf;
}

int cmdline_arg_valid(const char *arg, char **ret_reason)
{
	const char *eq = strchr(arg, '=');
	size_t name_len = eq ? (size_t)(eq - arg) : strlen(arg);
	char buf[32], *name;

	if (!*arg) {
		*ret_reason = xstrdup("empty argument");
		return -EINVAL;
	}
	if (!strcmp(arg, "--")) {
		*ret_reason = xstrdup("'--' is the separator before init's arguments, not a kernel parameter");
		return -EINVAL;
	}
	if (name_len == 0) {
		*ret_reason = xstrdup("parameter name is empty");
		return -EINVAL;
	}
	if (arg[0] == '-' || arg[0] == '.') {
		*ret_reason = xasprintf("parameter name cannot start with '%c'", arg[0]);
		return -EINVAL;
	}
	if (strlen(arg) > 1024) {
		*ret_reason = xstrdup("argument longer than 1024 bytes");
		return -EINVAL;
	}
	for (size_t i = 0; i < name_len; i++)
		if (!name_char(arg[i])) {
			*ret_reason = xasprintf("%s is not allowed in a parameter name",
						char_name(arg[i], buf, sizeof(buf)));
			return -EINVAL;
		}
	if (eq)
		for (const char *p = eq + 1; *p; p++)
			if (!value_char(*p)) {
				*ret_reason = xasprintf("%s is not allowed in a value (shell, GRUB and "
							"quoting characters are refused)",
							char_name(*p, buf, sizeof(buf)));
				return -EINVAL;
			}
	name = xstrndup(arg, name_len);
	if (cmdline_is_loader_name(name)) {
		*ret_reason = xasprintf("%s= is set by the boot loader, not by a plan", name);
		free(name);
		return -EINVAL;
	}
	free(name);
	return 0;
}

int cmdline_args_parse(const char *text, char ***ret_args, struct parse_error *err)
{
	struct strvec args = STRVEC_INIT;
	size_t i = 0, len = strlen(text);

	while (i < len) {
		size_t start;
		char *arg, *reason = NULL;

		/* Any whitespace separates; a stray control byte inside an arg is
		 * then reported by cmdline_arg_valid(). */
		while (i < len && (text[i] == ' ' || text[i] == '\t' || text[i] == '\n'))
			i++;
		if (i >= len)
			break;
		start = i;
		while (i < len && text[i] != ' ' && text[i] != '\t' && text[i] != '\n')
			i++;
		arg = xstrndup(text + start, i - start);
		if (cmdline_arg_valid(arg, &reason) < 0) {
			parse_error_set(err, 0, (unsigned)start + 1, "invalid kernel argument '%s': %s",
					arg, reason);
			free(reason);
			free(arg);
			strvec_release(&args);
			return -EINVAL;
		}
		strvec_push_owned(&args, arg);
	}
	*ret_args = strvec_detach(&args);
	return 0;
}

bool cmdline_name_in(const char *name, char *const *args)
{
	for (size_t i = 0; args && args[i]; i++) {
		const char *eq = strchr(args[i], '=');
		size_t len = eq ? (size_t)(eq - args[i]) : strlen(args[i]);
		char *n = xstrndup(args[i], len);
		bool equal = cmdline_name_equal(name, n);

		free(n);
		if (equal)
			return true;
	}
	return false;
}

static bool token_dropped(const struct cmdline_token *t, char *const *managed, char *const *add)
{
	if (t->init_arg || t->separator)
		return false;
	return cmdline_name_in(t->name, managed) || cmdline_name_in(t->name, add);
}

/* Appends one output token, with sep in front unless it is the first. */
static void emit(struct strbuf *out, bool *first, const char *sep, size_t sep_len,
		 const char *tok, size_t tok_len)
{
	if (!*first) {
		if (sep_len)
			strbuf_add(out, sep, sep_len);
		else
			strbuf_addch(out, ' ');
	}
	strbuf_add(out, tok, tok_len);
	*first = false;
}

char *cmdline_format_edit(const struct cmdline *c, char *const *managed, char *const *add)
{
	struct strbuf out = STRBUF_INIT;
	bool first = true, dropped = false, added = false;
	size_t lead = c->n_tokens ? c->tokens[0].start : 0;
	size_t trail = c->n_tokens ? c->tokens[c->n_tokens - 1].end : strlen(c->text);

	for (size_t i = 0; i < c->n_tokens; i++)
		if (token_dropped(&c->tokens[i], managed, add))
			dropped = true;
	if (!dropped && !(add && add[0]))
		return xstrdup(c->text);

	strbuf_add(&out, c->text, lead);
	for (size_t i = 0; i <= c->n_tokens; i++) {
		const struct cmdline_token *t = i < c->n_tokens ? &c->tokens[i] : NULL;

		if (!added && (!t || t->separator)) {
			for (size_t a = 0; add && add[a]; a++)
				emit(&out, &first, " ", 1, add[a], strlen(add[a]));
			added = true;
		}
		if (!t)
			break;
		if (token_dropped(t, managed, add))
			continue;
		if (i == 0)
			emit(&out, &first, NULL, 0, c->text + t->start, t->end - t->start);
		else
			emit(&out, &first, c->text + c->tokens[i - 1].end,
			     t->start - c->tokens[i - 1].end, c->text + t->start, t->end - t->start);
	}
	if (first) {
		/* Nothing left: no stray whitespace either. */
		strbuf_release(&out);
		return xstrdup("");
	}
	strbuf_addstr(&out, c->text + trail);
	return strbuf_detach(&out, NULL);
}

int cmdline_apply(const char *line, char *const *managed, char *const *mode,
		  char **ret, struct parse_error *err)
{
	struct cmdline c;
	int r;

	r = cmdline_parse(line, 0, &c, err);
	if (r < 0)
		return r;
	*ret = cmdline_format_edit(&c, managed, mode);
	cmdline_release(&c);
	return 0;
}

static void split_arg(const char *arg, char **ret_name, const char **ret_value)
{
	const char *eq = strchr(arg, '=');

	*ret_name = eq ? xstrndup(arg, (size_t)(eq - arg)) : xstrdup(arg);
	*ret_value = eq ? eq + 1 : NULL;
}

static bool value_equal(const char *a, const char *b)
{
	if (!a || !b)
		return a == b;
	return !strcmp(a, b);
}

static size_t name_count(char *const *args, const char *name)
{
	size_t count = 0;

	for (size_t i = 0; args && args[i]; i++) {
		char *n;
		const char *v;

		split_arg(args[i], &n, &v);
		if (cmdline_name_equal(n, name))
			count++;
		free(n);
	}
	return count;
}

static bool token_is_asked(const struct cmdline_token *t, char *const *asked)
{
	for (size_t i = 0; asked && asked[i]; i++) {
		char *n;
		const char *v;
		bool match;

		split_arg(asked[i], &n, &v);
		match = cmdline_name_equal(n, t->name) && value_equal(v, t->value);
		free(n);
		if (match)
			return true;
	}
	return false;
}

int cmdline_check(const char *cmdline, char *const *managed, char *const *asked,
		  struct cmdline_check_result *ret)
{
	struct cmdline c;
	struct strvec missing = STRVEC_INIT, unexpected = STRVEC_INIT;
	int r;

	r = cmdline_parse(cmdline, CMDLINE_TOLERANT, &c, NULL);
	if (r < 0)
		return r;
	for (size_t i = 0; asked && asked[i]; i++) {
		char *name;
		const char *value;
		bool ok = false;

		split_arg(asked[i], &name, &value);
		if (name_count(asked, name) == 1) {
			const struct cmdline_token *t = cmdline_find_last(&c, name);

			ok = t && value_equal(t->value, value);
		} else {
			for (size_t k = 0; k < c.n_tokens && !ok; k++) {
				const struct cmdline_token *t = &c.tokens[k];

				ok = !t->init_arg && !t->separator && cmdline_name_equal(t->name, name) &&
				     value_equal(t->value, value);
			}
		}
		if (!ok)
			strvec_push(&missing, asked[i]);
		free(name);
	}
	for (size_t k = 0; k < c.n_tokens; k++) {
		const struct cmdline_token *t = &c.tokens[k];

		if (t->init_arg || t->separator || cmdline_is_loader_name(t->name))
			continue;
		if (!cmdline_name_in(t->name, managed) && !cmdline_name_in(t->name, asked))
			continue;
		if (token_is_asked(t, asked))
			continue;
		strvec_push_owned(&unexpected, xstrndup(c.text + t->start, t->end - t->start));
	}
	cmdline_release(&c);
	ret->missing = strvec_detach(&missing);
	ret->unexpected = strvec_detach(&unexpected);
	return 0;
}

bool cmdline_check_ok(const struct cmdline_check_result *r)
{
	return !(r->missing && r->missing[0]) && !(r->unexpected && r->unexpected[0]);
}

void cmdline_check_result_release(struct cmdline_check_result *r)
{
	if (!r)
		return;
	strv_free(r->missing);
	strv_free(r->unexpected);
	r->missing = r->unexpected = NULL;
}

char **cmdline_unmanaged_tokens(const char *line, char *const *managed, char *const *add)
{
	struct cmdline c;
	struct strvec v = STRVEC_INIT;

	if (cmdline_parse(line, CMDLINE_TOLERANT, &c, NULL) < 0)
		return NULL;
	for (size_t i = 0; i < c.n_tokens; i++)
		if (!token_dropped(&c.tokens[i], managed, add))
			strvec_push_owned(&v, xstrndup(c.text + c.tokens[i].start,
						       c.tokens[i].end - c.tokens[i].start));
	cmdline_release(&c);
	return strvec_detach(&v);
}
