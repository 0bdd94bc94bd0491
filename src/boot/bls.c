#include "boot/bls.h"

#include <errno.h>
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/cmdline.h"
#include "lib/alloc.h"
#include "lib/file.h"
#include "lib/strbuf.h"

/* $BOOT is normally /boot; an ESP mounted at /efi or /boot/efi holds
 * entries too (Boot Loader Specification, "Locating Boot Entries"). */
const char *const bls_entry_dirs[] = {
	"/boot/loader/entries",
	"/efi/loader/entries",
	"/boot/efi/loader/entries",
	NULL,
};

/* systemd-boot's vendor GUID for its EFI variables (LoaderEntryDefault...). */
#define LOADER_GUID "4a67b082-0a4c-41cf-b6c7-440b29bb8c4f"

struct bls_line {
	size_t start;          /* of the line */
	size_t key_start, key_end;
	size_t value_start;
	size_t end;            /* before the '\n' (or the end of text) */
	bool comment;          /* or blank */
};

static bool blank(char c)
{
	return c == ' ' || c == '\t';
}

/* Splits the line starting at pos; returns the offset after its '\n'. */
static size_t bls_line_at(const char *text, size_t len, size_t pos, struct bls_line *l)
{
	size_t i = pos;
	const char *nl = memchr(text + pos, '\n', len - pos);

	memset(l, 0, sizeof(*l));
	l->start = pos;
	l->end = nl ? (size_t)(nl - text) : len;
	while (i < l->end && blank(text[i]))
		i++;
	if (i >= l->end || text[i] == '#') {
		l->comment = true;
		return nl ? l->end + 1 : len;
	}
	l->key_start = i;
	while (i < l->end && !blank(text[i]))
		i++;
	l->key_end = i;
	while (i < l->end && blank(text[i]))
		i++;
	l->value_start = i;
	return nl ? l->end + 1 : len;
}

static bool key_is(const char *text, const struct bls_line *l, const char *key)
{
	size_t n = strlen(key);

	return !l->comment && l->key_end - l->key_start == n && !memcmp(text + l->key_start, key, n);
}

char *bls_entry_value(const char *text, const char *key)
{
	size_t len = strlen(text);

	for (size_t pos = 0; pos < len;) {
		struct bls_line l;

		pos = bls_line_at(text, len, pos, &l);
		if (key_is(text, &l, key))
			return xstrndup(text + l.value_start, l.end - l.value_start);
	}
	return NULL;
}

char *bls_entry_options(const char *text)
{
	struct strbuf sb = STRBUF_INIT;
	size_t len = strlen(text);

	for (size_t pos = 0; pos < len;) {
		struct bls_line l;

		pos = bls_line_at(text, len, pos, &l);
		if (!key_is(text, &l, "options"))
			continue;
		if (sb.len)
			strbuf_addch(&sb, ' ');
		strbuf_add(&sb, text + l.value_start, l.end - l.value_start);
	}
	return strbuf_detach(&sb, NULL);
}

static bool has_word(const char *s, size_t len, const char *word)
{
	size_t n = strlen(word);

	for (size_t i = 0; i + n <= len; i++)
		if (!memcmp(s + i, word, n) && (i + n == len || !(s[i + n] == '_' ||
		    (s[i + n] >= 'a' && s[i + n] <= 'z'))))
			return true;
	return false;
}

int bls_entry_edit(const char *text, char *const *managed, char *const *args, char **ret,
		   struct parse_error *err)
{
	size_t len = strlen(text), n_lines = 0, alloc_lines = 0, alloc_parsed = 0, insert_line = (size_t)-1;
	struct bls_line *lines = NULL;
	struct cmdline *parsed = NULL;
	struct strbuf out = STRBUF_INIT;
	bool after_separator = false;
	unsigned line_no = 0;
	int r = 0;

	for (size_t pos = 0; pos < len; line_no++) {
		struct bls_line l;
		unsigned flags;

		pos = bls_line_at(text, len, pos, &l);
		if (!key_is(text, &l, "options"))
			continue;
		if (has_word(text + l.value_start, l.end - l.value_start, "$kernelopts")) {
			parse_error_set(err, line_no + 1, (unsigned)(l.value_start - l.start) + 1,
					"options use $kernelopts, whose value lives in GRUB's grubenv; "
					"use the grubby backend");
			r = -EINVAL;
			goto out;
		}
		GROW(lines, alloc_lines, n_lines + 1);
		GROW(parsed, alloc_parsed, n_lines + 1);
		lines[n_lines] = l;
		flags = after_separator ? CMDLINE_AFTER_SEPARATOR : 0;
		{
			char *value = xstrndup(text + l.value_start, l.end - l.value_start);
			struct parse_error perr = PARSE_ERROR_INIT;

			r = cmdline_parse(value, flags, &parsed[n_lines], &perr);
			free(value);
			if (r < 0) {
				parse_error_set(err, line_no + 1,
						(unsigned)(l.value_start - l.start) + perr.column,
						"%s", perr.message);
				parse_error_release(&perr);
				goto out;
			}
		}
		/* Added args go before the first `--`; past it they would be init's. */
		if (!after_separator && cmdline_has_separator(&parsed[n_lines]))
			insert_line = n_lines;
		if (cmdline_has_separator(&parsed[n_lines]))
			after_separator = true;
		n_lines++;
	}
	if (insert_line == (size_t)-1 && n_lines)
		insert_line = n_lines - 1;

	{
		size_t copied = 0;

		for (size_t k = 0; k < n_lines; k++) {
			char *value = cmdline_format_edit(&parsed[k], managed,
							  k == insert_line ? args : NULL);

			strbuf_add(&out, text + copied, lines[k].value_start - copied);
			if (lines[k].value_start == lines[k].key_end && *value)
				strbuf_addch(&out, ' ');
			strbuf_addstr(&out, value);
			copied = lines[k].end;
			free(value);
		}
		strbuf_add(&out, text + copied, len - copied);
	}
	if (!n_lines && args && args[0]) {
		if (out.len && out.buf[out.len - 1] != '\n')
			strbuf_addch(&out, '\n');
		strbuf_addstr(&out, "options");
		for (size_t a = 0; args[a]; a++)
			strbuf_addf(&out, " %s", args[a]);
		strbuf_addch(&out, '\n');
	}
	*ret = strbuf_detach(&out, NULL);
out:
	for (size_t k = 0; k < n_lines; k++)
		cmdline_release(&parsed[k]);
	free(parsed);
	free(lines);
	strbuf_release(&out);
	return r;
}

/* ---- entries on a target ---- */

static bool conf_name(const char *name)
{
	size_t n = strlen(name);

	return n > 5 && !strcmp(name + n - 5, ".conf") && name[0] != '.';
}

int bls_entries_read(struct boot_io *io, struct bls_entries *ret, struct parse_error *err)
{
	struct bls_entries e = { 0 };

	for (size_t d = 0; bls_entry_dirs[d]; d++) {
		char **names = NULL;
		size_t n = 0;
		int r = io->list_dir(io, bls_entry_dirs[d], &names, &n);

		if (r == -ENOENT || r == -ENOTDIR)
			continue;
		if (r < 0) {
			parse_error_set_file(err, bls_entry_dirs[d]);
			parse_error_set(err, 0, 0, "cannot list: %s", strerror(-r));
			bls_entries_release(&e);
			return r;
		}
		for (size_t i = 0; i < n; i++) {
			struct bls_entry *x;

			if (!conf_name(names[i]))
				continue;
			GROW(e.entries, e.alloc, e.n + 1);
			x = &e.entries[e.n];
			memset(x, 0, sizeof(*x));
			x->dir = xstrdup(bls_entry_dirs[d]);
			x->name = xstrdup(names[i]);
			x->path = path_join(bls_entry_dirs[d], names[i]);
			r = io->read_file(io, x->path, &x->text, &x->len);
			if (r == 0 && strlen(x->text) != x->len) {
				/* Edited as a C string, it would be written back cut at the NUL. */
				parse_error_set_file(err, x->path);
				parse_error_set(err, 0, 0, "contains a NUL byte: not a boot entry");
				free(x->text);
				r = -EINVAL;
			} else if (r < 0) {
				parse_error_set_file(err, x->path);
				parse_error_set(err, 0, 0, "cannot read: %s",
						r == -EINVAL ? "not a regular file" : strerror(-r));
			}
			if (r < 0) {
				free(x->dir);
				free(x->name);
				free(x->path);
				strv_free(names);
				bls_entries_release(&e);
				return r;
			}
			e.n++;
		}
		strv_free(names);
	}
	*ret = e;
	return 0;
}

void bls_entries_release(struct bls_entries *entries)
{
	if (!entries)
		return;
	for (size_t i = 0; i < entries->n; i++) {
		free(entries->entries[i].dir);
		free(entries->entries[i].name);
		free(entries->entries[i].path);
		free(entries->entries[i].text);
	}
	free(entries->entries);
	memset(entries, 0, sizeof(*entries));
}

/* An EFI variable as efivarfs shows it: 4 attribute bytes, then UTF-16LE
 * text with a terminating NUL. Only ASCII entry names are decoded. */
static char *efivar_string(struct boot_io *io, const char *name)
{
	char *path = xasprintf("/sys/firmware/efi/efivars/%s-" LOADER_GUID, name);
	char *data = NULL, *s = NULL;
	size_t len = 0;

	if (boot_io_read_optional(io, path, &data, &len) == 0 && data && len > 4) {
		struct strbuf sb = STRBUF_INIT;

		for (size_t i = 4; i + 1 < len; i += 2) {
			unsigned c = (unsigned char)data[i] | (unsigned)(unsigned char)data[i + 1] << 8;

			if (!c)
				break;
			strbuf_addch(&sb, c < 0x80 ? (char)c : '?');
		}
		s = strbuf_detach(&sb, NULL);
		if (!*s) {
			free(s);
			s = NULL;
		}
	}
	free(data);
	free(path);
	return s;
}

static char *loader_conf_default(struct boot_io *io, const char *entries_dir, char **ret_path)
{
	char *loader_dir = xstrndup(entries_dir, strlen(entries_dir) - strlen("/entries"));
	char *path = path_join(loader_dir, "loader.conf");
	char *text = NULL, *value = NULL;

	free(loader_dir);
	if (boot_io_read_optional(io, path, &text, NULL) == 0 && text) {
		value = bls_entry_value(text, "default");
		if (value) {
			/* systemd-boot trims trailing whitespace of values. */
			size_t n = strlen(value);

			while (n && (value[n - 1] == ' ' || value[n - 1] == '\t' || value[n - 1] == '\r'))
				value[--n] = '\0';
		}
	}
	free(text);
	if (value)
		*ret_path = path;
	else
		free(path);
	return value;
}

static char *grubenv_saved_entry(struct boot_io *io)
{
	static const char *const envs[] = { "/boot/grub2/grubenv", "/boot/efi/EFI/fedora/grubenv", NULL };

	for (size_t i = 0; envs[i]; i++) {
		char *text = NULL, *value = NULL;
		const char *p;

		if (boot_io_read_optional(io, envs[i], &text, NULL) < 0 || !text)
			continue;
		for (p = text; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL)
			if (!strncmp(p, "saved_entry=", 12)) {
				const char *end = strchr(p, '\n');

				value = end ? xstrndup(p + 12, (size_t)(end - p - 12)) : xstrdup(p + 12);
				break;
			}
		free(text);
		if (value && *value)
			return value;
		free(value);
	}
	return NULL;
}

/* Matches an entry by a systemd-boot id (file name, glob allowed) or a
 * GRUB id (file name without .conf). */
static bool entry_matches(const struct bls_entry *e, const char *pattern)
{
	size_t n = strlen(e->name);
	char *stem = xstrndup(e->name, n - 5);
	bool match = !fnmatch(pattern, e->name, 0) || !fnmatch(pattern, stem, 0);

	free(stem);
	return match;
}

static size_t newest_entry(const struct bls_entries *entries)
{
	size_t best = 0;

	for (size_t i = 1; i < entries->n; i++)
		if (strverscmp(entries->entries[i].name, entries->entries[best].name) > 0)
			best = i;
	return best;
}

static bool pick(const struct bls_entries *entries, const char *pattern, size_t *ret)
{
	bool found = false;

	/* Several matches: the newest, as in the menu order. */
	for (size_t i = 0; i < entries->n; i++)
		if (entry_matches(&entries->entries[i], pattern) &&
		    (!found || strverscmp(entries->entries[i].name, entries->entries[*ret].name) > 0)) {
			*ret = i;
			found = true;
		}
	return found;
}

int bls_default_entry(struct boot_io *io, const struct bls_entries *entries, size_t *ret_index,
		      char **ret_rule)
{
	char *value, *conf = NULL;
	size_t index = 0;

	if (!entries->n)
		return -ENOENT;
	value = efivar_string(io, "LoaderEntryDefault");
	if (value && pick(entries, value, &index)) {
		*ret_rule = xasprintf("EFI variable LoaderEntryDefault=%s", value);
		*ret_index = index;
		free(value);
		return 0;
	}
	free(value);
	value = loader_conf_default(io, entries->entries[0].dir, &conf);
	if (value && pick(entries, value, &index)) {
		*ret_rule = xasprintf("%s default %s", conf, value);
		*ret_index = index;
		free(value);
		free(conf);
		return 0;
	}
	free(value);
	free(conf);
	value = grubenv_saved_entry(io);
	if (value && pick(entries, value, &index)) {
		*ret_rule = xasprintf("grubenv saved_entry=%s", value);
		*ret_index = index;
		free(value);
		return 0;
	}
	free(value);
	*ret_index = newest_entry(entries);
	*ret_rule = xstrdup("newest entry (no default set)");
	return 0;
}

void bls_state_fill(struct boot_io *io, const struct bls_entries *entries, struct boot_state *state)
{
	size_t index;
	char *rule = NULL;

	for (size_t i = 0; i < entries->n; i++) {
		char *options = bls_entry_options(entries->entries[i].text);

		boot_state_add_entry(state, entries->entries[i].path, options);
		free(options);
	}
	if (bls_default_entry(io, entries, &index, &rule) == 0) {
		char *release = NULL, *image = NULL, *initrd = NULL;

		state->has_default = true;
		state->default_index = index;
		free(state->default_rule);
		state->default_rule = rule;
		if (bls_entry_kernel(io, &entries->entries[index], &release, &image, &initrd) == 0) {
			free(state->default_kernel);
			state->default_kernel = release ? release : xstrdup(image);
			free(image);
			free(initrd);
		}
	}
}

/* ---- /etc/kernel/cmdline ---- */

int kernel_cmdline_plan(struct boot_io *io, char *const *managed, char *const *args,
			const char *create_base, struct boot_plan *plan, struct parse_error *err)
{
	static const char path[] = "/etc/kernel/cmdline";
	char *text = NULL, *edited = NULL;
	size_t len = 0;
	int r;

	r = boot_io_read_optional(io, path, &text, &len);
	if (r == 0 && text && strlen(text) != len) {
		parse_error_set_file(err, path);
		parse_error_set(err, 0, 0, "contains a NUL byte: not a kernel command line");
		free(text);
		return -EINVAL;
	}
	if (r < 0) {
		parse_error_set_file(err, path);
		parse_error_set(err, 0, 0, "cannot read: %s", strerror(-r));
		return r;
	}
	if (!text && !create_base)
		return 0;
	r = cmdline_apply(text ? text : create_base, managed, args, &edited, err);
	if (r < 0) {
		parse_error_set_file(err, path);
		free(text);
		return r;
	}
	if (!text) {
		char *line = xasprintf("%s\n", edited);

		boot_plan_add_write(plan, path, NULL, 0, line, strlen(line), 0644);
		free(line);
	} else if (strcmp(text, edited)) {
		boot_plan_add_write(plan, path, text, len, edited, strlen(edited), 0644);
	}
	free(text);
	free(edited);
	return 1;
}

static char *collapse(const char *s)
{
	struct strbuf sb = STRBUF_INIT;
	bool space = false;

	/* kernel-install reads the file with `tr -s "$IFS" ' '`. */
	for (; *s; s++) {
		if (*s == ' ' || *s == '\t' || *s == '\n') {
			space = sb.len > 0;
			continue;
		}
		if (space)
			strbuf_addch(&sb, ' ');
		space = false;
		strbuf_addch(&sb, *s);
	}
	return strbuf_detach(&sb, NULL);
}

int kernel_cmdline_inherit(struct boot_io *io, struct boot_state *state, struct parse_error *err)
{
	static const char *const files[] = { "/etc/kernel/cmdline", "/usr/lib/kernel/cmdline", NULL };

	for (size_t i = 0; files[i]; i++) {
		char *text = NULL;
		int r = boot_io_read_optional(io, files[i], &text, NULL);

		if (r < 0) {
			parse_error_set_file(err, files[i]);
			parse_error_set(err, 0, 0, "cannot read: %s", strerror(-r));
			return r;
		}
		if (text) {
			state->inherit_source = xstrdup(files[i]);
			state->inherit_args = collapse(text);
			state->inherit_checked = true;
			free(text);
			return 0;
		}
	}
	/* 90-loaderentry.install falls back to the running kernel's command line. */
	state->inherit_source = xstrdup("/proc/cmdline");
	state->inherit_note = xstrdup("no /etc/kernel/cmdline: a new kernel inherits the command line "
				      "of the boot that installs it");
	return 0;
}

/* ---- the bls backend ---- */

static int bls_detect(struct boot_io *io, char **ret_found)
{
	struct bls_entries entries;
	int r = bls_entries_read(io, &entries, NULL);

	if (r < 0)
		return r;
	if (!entries.n) {
		bls_entries_release(&entries);
		return 0;
	}
	*ret_found = xasprintf("%zu entr%s in %s", entries.n, entries.n == 1 ? "y" : "ies",
			       entries.entries[0].dir);
	bls_entries_release(&entries);
	return 1;
}

static int bls_plan_entries(struct boot_io *io, char *const *managed, char *const *args,
			    struct boot_plan *plan, struct parse_error *err)
{
	struct bls_entries entries;
	size_t index;
	char *rule = NULL;
	int r;

	r = bls_entries_read(io, &entries, err);
	if (r < 0)
		return r;
	if (!entries.n) {
		parse_error_set_file(err, bls_entry_dirs[0]);
		parse_error_set(err, 0, 0, "no boot entries (*.conf) in any loader/entries directory");
		bls_entries_release(&entries);
		return -ENOENT;
	}
	for (size_t i = 0; i < entries.n; i++) {
		const struct bls_entry *e = &entries.entries[i];
		char *edited = NULL, *options;

		if (strlen(e->text) != e->len) {
			parse_error_set_file(err, e->path);
			parse_error_set(err, 0, 0, "entry contains a NUL byte");
			r = -EINVAL;
			break;
		}
		r = bls_entry_edit(e->text, managed, args, &edited, err);
		if (r < 0) {
			parse_error_set_file(err, e->path);
			break;
		}
		if (strcmp(edited, e->text))
			boot_plan_add_write(plan, e->path, e->text, e->len, edited, strlen(edited), 0644);
		options = bls_entry_options(e->text);
		if (strchr(options, '$'))
			boot_plan_add_note(plan, "%s: options use GRUB variables (kept, not expanded)",
					   e->path);
		free(options);
		free(edited);
	}
	if (r >= 0) {
		boot_plan_add_note(plan, "%zu entr%s in %s", entries.n, entries.n == 1 ? "y" : "ies",
				   entries.entries[0].dir);
		if (bls_default_entry(io, &entries, &index, &rule) == 0)
			boot_plan_add_note(plan, "default entry %s (%s)", entries.entries[index].name, rule);
		free(rule);
		r = 0;
	}
	bls_entries_release(&entries);
	return r;
}

int bls_plan_kernel_default(struct boot_io *io, const struct boot_kernel *kernel,
			    struct boot_plan *plan, struct parse_error *err)
{
	struct bls_entries entries;
	int r;

	if (!kernel)
		return 0;
	r = bls_entries_read(io, &entries, err);
	if (r < 0)
		return r;
	r = bls_plan_default(io, &entries, kernel->entry, plan, err);
	bls_entries_release(&entries);
	return r;
}

static int bls_plan(struct boot_io *io, char *const *managed, char *const *args,
		    const struct boot_kernel *kernel, struct boot_plan *plan, struct parse_error *err)
{
	int r = bls_plan_entries(io, managed, args, plan, err);

	if (r >= 0)
		r = bls_plan_kernel_default(io, kernel, plan, err);
	if (r < 0)
		return r;
	/* What a new kernel's entry will be made from must carry the mode too. */
	r = kernel_cmdline_plan(io, managed, args, NULL, plan, err);
	return r < 0 ? r : 0;
}

static int bls_read_state(struct boot_io *io, const struct boot_plan *applied,
			  struct boot_state *ret, struct parse_error *err)
{
	(void)applied;
	struct bls_entries entries;
	struct boot_state state = BOOT_STATE_INIT;
	int r;

	r = bls_entries_read(io, &entries, err);
	if (r < 0)
		return r;
	bls_state_fill(io, &entries, &state);
	bls_entries_release(&entries);
	r = kernel_cmdline_inherit(io, &state, err);
	if (r < 0) {
		boot_state_release(&state);
		return r;
	}
	*ret = state;
	return 0;
}

int bls_list_kernels(struct boot_io *io, struct boot_kernels *ret, struct parse_error *err)
{
	struct bls_entries entries;
	int r = bls_entries_read(io, &entries, err);

	if (r < 0)
		return r;
	r = bls_kernels(io, &entries, ret, err);
	bls_entries_release(&entries);
	return r;
}

const struct boot_backend boot_backend_bls = {
	.name = "bls",
	.summary = "edit every loader/entries *.conf options line (systemd-boot, Fedora without grubby)",
	.detect = bls_detect,
	.plan = bls_plan,
	.kernels = bls_list_kernels,
	.read_state = bls_read_state,
};
