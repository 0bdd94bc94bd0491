/*
 * The plan file's reader: inih's lines through a reader that tracks line
 * numbers and continuation lines, each [section] header opened, every key
 * handed to its section (plan-keys.c), the whole checked (plan-check.c).
 */
#include "plan/plan.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <ini.h>

#include "lib/alloc.h"
#include "lib/file.h"
#include "lib/strbuf.h"
#include "plan/internal.h"
#include "results/side.h"

#define PLAN_MAX_BYTES ((size_t)1 << 20)
#define PLAN_MAX_LINE 65536

static int open_section(struct parse_state *s, const char *section);

/*
 * inih calls the handler only for keys, so a section without keys would go
 * unseen; the reader sees every header line and opens its section itself.
 */
static void reader_see_header(struct parse_state *s, const char *line)
{
	const char *start = line, *end;
	char *name;

	while (*start == ' ' || *start == '\t')
		start++;
	if (*start != '[')
		return;
	end = strchr(start, ']');
	if (!end)
		return;
	name = xstrndup(start + 1, (size_t)(end - start - 1));
	if (!s->failed)
		open_section(s, name);
	free(name);
}

static char *reader(char *str, int num, void *stream)
{
	struct parse_state *s = stream;
	bool line_start;
	size_t n = 0;

	if (!*s->p || num < 2)
		return NULL;
	line_start = s->line_done || s->p == s->text;
	if (s->line_done) {
		s->line++;
		s->line_done = false;
	}
	while (*s->p && n < (size_t)num - 1) {
		char c = *s->p++;

		str[n++] = c;
		if (c == '\n') {
			s->line_done = true;
			break;
		}
	}
	str[n] = '\0';
	/* A UTF-8 byte order mark opens the file: inih skips it, and so does the header check. */
	if (s->p - n == s->text && !strncmp(str, "\xef\xbb\xbf", 3))
		memmove(str, str + 3, n - 2);
	if (line_start) {
		s->continuation = (str[0] == ' ' || str[0] == '\t') && str[strspn(str, " \t\r\n")];
		reader_see_header(s, str);
	}
	return str;
}

int plan_fail(struct parse_state *s, const char *key, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	if (s->failed)
		return 0;
	s->failed = true;
	if (key)
		strbuf_addf(&sb, "%s: ", key);
	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	parse_error_set(s->err, s->line, 0, "%s", strbuf_str(&sb));
	strbuf_release(&sb);
	return 0;
}

/* [kind] or [kind "title"] */
static int open_section(struct parse_state *s, const char *section)
{
	struct plan *p = s->plan;
	const char *q = strchr(section, '"'), *why;

	free(s->section);
	free(s->kind);
	free(s->title);
	s->section = xstrdup(section);
	s->title = NULL;
	s->current = NULL;
	s->section_line = s->line;
	if (q) {
		const char *end = strrchr(section, '"');
		size_t klen = (size_t)(q - section);

		while (klen > 0 && section[klen - 1] == ' ')
			klen--;
		s->kind = xstrndup(section, klen);
		if (end == q || end[1] != '\0')
			return plan_fail(s, NULL, "section [%s]: expected [%s \"NAME\"]", section, s->kind);
		s->title = xstrndup(q + 1, (size_t)(end - q - 1));
		if (!plan_name_valid(s->title))
			return plan_fail(s, NULL, "section [%s]: the name must be 1-64 letters, digits, '_', '-' or '.'", section);
		/* A mode names side directories, a row the directories of its outputs. */
		if (strcmp(s->kind, "version") && results_name_reserved(s->title, &why))
			return plan_fail(s, NULL, "section [%s]: '%s' cannot name a %s: %s", section, s->title,
				    strcmp(s->kind, "mode") ? s->kind : "mode (its boots are directories of the campaign)",
				    why);
	} else {
		s->kind = xstrdup(section);
	}

	if (!strcmp(s->kind, "mode")) {
		struct plan_mode *m;

		if (!s->title)
			return plan_fail(s, NULL, "section [mode] needs a name: [mode \"NAME\"]");
		if (plan_find_mode(p, s->title))
			return plan_fail(s, NULL, "section [%s]: mode '%s' is defined twice", section, s->title);
		GROW(p->modes, p->alloc_modes, p->n_modes + 1);
		m = &p->modes[p->n_modes++];
		memset(m, 0, sizeof(*m));
		m->name = xstrdup(s->title);
		m->line = s->line;
		s->current = m;
	} else if (!strcmp(s->kind, "factor")) {
		struct plan_factor *f;

		if (!s->title)
			return plan_fail(s, NULL, "section [factor] needs a name: [factor \"NAME\"]");
		for (size_t i = 0; i < p->n_factors; i++)
			if (!strcmp(p->factors[i].name, s->title))
				return plan_fail(s, NULL, "section [%s]: factor '%s' is defined twice", section, s->title);
		if (p->n_factors == DESIGN_MAX_FACTORS)
			return plan_fail(s, NULL, "section [%s]: a design takes at most %d factors", section, DESIGN_MAX_FACTORS);
		GROW(p->factors, p->alloc_factors, p->n_factors + 1);
		f = &p->factors[p->n_factors++];
		memset(f, 0, sizeof(*f));
		f->name = xstrdup(s->title);
		f->line = s->line;
		s->current = f;
	} else if (!strcmp(s->kind, "row") || !strcmp(s->kind, "check")) {
		struct plan_row *r;

		if (!s->title)
			return plan_fail(s, NULL, "section [%s] needs a name: [%s \"NAME\"]", s->kind, s->kind);
		for (size_t i = 0; i < p->n_rows; i++)
			if (!strcmp(p->rows[i].name, s->title))
				return plan_fail(s, NULL, "section [%s]: the name '%s' is used twice", section, s->title);
		GROW(p->rows, p->alloc_rows, p->n_rows + 1);
		r = &p->rows[p->n_rows++];
		memset(r, 0, sizeof(*r));
		r->name = xstrdup(s->title);
		r->check = !strcmp(s->kind, "check");
		r->line = s->line;
		s->current = r;
	} else if (!strcmp(s->kind, "version")) {
		struct plan_version *v;

		if (!s->title)
			return plan_fail(s, NULL, "section [version] needs a name: [version \"NAME\"]");
		for (size_t i = 0; i < p->n_versions; i++)
			if (!strcmp(p->versions[i].name, s->title))
				return plan_fail(s, NULL, "section [%s]: version '%s' is defined twice", section, s->title);
		GROW(p->versions, p->alloc_versions, p->n_versions + 1);
		v = &p->versions[p->n_versions++];
		memset(v, 0, sizeof(*v));
		v->name = xstrdup(s->title);
		v->line = s->line;
		s->current = v;
	} else if (!strcmp(s->kind, "campaign") || !strcmp(s->kind, "idle") || !strcmp(s->kind, "lava") ||
		   !strcmp(s->kind, "park") || !strcmp(s->kind, "unpark") || !strcmp(s->kind, "prepare")) {
		if (s->title)
			return plan_fail(s, NULL, "section [%s] takes no name", s->kind);
		if (!strcmp(s->kind, "lava")) {
			if (p->lava.present)
				return plan_fail(s, NULL, "section [lava] is given twice");
			p->lava.present = true;
			p->lava.line = s->line;
		}
	} else {
		return plan_fail(s, NULL, "unknown section [%s] (campaign, mode, factor, row, check, version, idle, lava, park, unpark, prepare)",
			    section);
	}
	return 1;
}

static int handler(void *user, const char *section, const char *key, const char *value)
{
	struct parse_state *s = user;

	if (s->failed)
		return 0;
	if (!*section)
		return plan_fail(s, key, "outside any section");
	if (!s->section || strcmp(s->section, section))
		return plan_fail(s, key, "in a section bootab could not read");
	if (!key)
		return 1;
	return plan_section_key(s, key, value);
}

int plan_parse(const char *name, const char *text, struct plan *ret, struct parse_error *err)
{
	struct plan plan = { 0 };
	struct parse_state s = { .plan = &plan, .err = err, .name = name, .text = text, .p = text, .line = 1 };
	int r;

	plan.file = xstrdup(name);
	plan.rounds = 1;
	plan.max_rounds = PLAN_MAX_ROUNDS_DEFAULT;
	plan.default_reps = 5;
	plan.poll_s = 60;
	plan.boot_timeout_s = 600;
	plan.backend = xstrdup("auto");
	plan.idle = (struct plan_idle){ .load = 1.0, .gpu_pct = 5, .checks = 6, .interval_s = 10 };

	/* Shell commands carry ';' and long lines: no inline comments, a generous line limit. */
	ini_allow_inline_comments = false;
	ini_allow_multiline = true;
	ini_use_stack = false;
	ini_allow_realloc = true;
	ini_max_line = PLAN_MAX_LINE;
	ini_stop_on_first_error = true;
	ini_allow_no_value = false;

	parse_error_set_file(err, name);
	r = ini_parse_stream(reader, &s, handler, &s);
	if (r > 0 && !s.failed) {
		s.line = (unsigned)r;
		plan_fail(&s, NULL, "not a key = value line or a [section] header");
	}
	if (r < 0 && !s.failed)
		plan_fail(&s, NULL, "cannot parse (out of memory)");
	if (!s.failed)
		plan_check(&s);
	free(s.section);
	free(s.kind);
	free(s.title);
	if (s.failed) {
		plan_release(&plan);
		return -EINVAL;
	}
	*ret = plan;
	return 0;
}

int plan_load(const char *path, struct plan *ret, struct parse_error *err)
{
	char *data;
	size_t len;
	int r;

	parse_error_set_file(err, path);
	r = file_read(path, PLAN_MAX_BYTES, &data, &len);
	if (r < 0) {
		parse_error_set(err, 0, 0, "%s", r == -EFBIG ? "larger than 1 MiB" : strerror(-r));
		return r;
	}
	if (memchr(data, '\0', len)) {
		parse_error_set(err, 0, 0, "contains a NUL byte: not a plan file");
		free(data);
		return -EINVAL;
	}
	r = plan_parse(path, data, ret, err);
	free(data);
	return r;
}
