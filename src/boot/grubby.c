/*
 * The grubby backend (Fedora, RHEL): `grubby --update-kernel=ALL` edits
 * every entry, so a fallback or freshly installed kernel boots the mode
 * too (--update-kernel=DEFAULT would change one entry). grubby matches
 * --remove-args by the words it is given and does not know that '-' and
 * '_' are the same in a name, so bootab first reads every entry
 * (`grubby --info=ALL`) and removes the managed tokens exactly as they are
 * written. /etc/kernel/cmdline, which kernel-install copies onto new
 * kernels, is edited as well.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "boot/bls.h"
#include "boot/grubby.h"
#include "kernel/cmdline.h"
#include "lib/alloc.h"
#include "lib/parse-number.h"
#include "lib/file.h"
#include "lib/strbuf.h"

static const char *const grubby_paths[] = { "/usr/sbin/grubby", "/usr/bin/grubby", "/sbin/grubby", NULL };

static int grubby_detect(struct boot_io *io, char **ret_found)
{
	for (size_t i = 0; grubby_paths[i]; i++) {
		int r = io->exists(io, grubby_paths[i]);

		if (r < 0)
			return r;
		if (r > 0) {
			*ret_found = xstrdup(grubby_paths[i]);
			return 1;
		}
	}
	return 0;
}

static char *unquote(const char *s, size_t len)
{
	if (len >= 2 && s[0] == '"' && s[len - 1] == '"')
		return xstrndup(s + 1, len - 2);
	return xstrndup(s, len);
}

/*
 * `grubby --info` prints one block per entry: index=N, kernel=, args="...",
 * root=, initrd=, title=, id=, values quoted or not depending on the
 * version. root= is shown apart from args; it is put back in front.
 */
static void info_parse(const char *text, struct boot_state *state, long *ret_first_index)
{
	char *name = NULL, *args = NULL, *root = NULL;
	long first_index = -1;

	for (const char *p = text;; ) {
		const char *end = strchr(p, '\n');
		size_t len = end ? (size_t)(end - p) : strlen(p);
		bool flush = !len && !end ? true : !strncmp(p, "index=", 6);

		if (flush && (name || args)) {
			char *full = root && *root ? xasprintf("root=%s%s%s", root, args && *args ? " " : "",
							       args ? args : "")
						   : xstrdup(args ? args : "");

			boot_state_add_entry(state, name ? name : "?", full);
			free(full);
			free(name);
			free(args);
			free(root);
			name = args = root = NULL;
		}
		if (!strncmp(p, "index=", 6)) {
			name = xasprintf("index %.*s", (int)(len - 6), p + 6);
			if (first_index < 0)
				(void)number_scan_long(p + 6, 10, 0, LONG_MAX, &first_index, NULL);
		} else if (!strncmp(p, "args=", 5)) {
			free(args);
			args = unquote(p + 5, len - 5);
		} else if (!strncmp(p, "root=", 5)) {
			free(root);
			root = unquote(p + 5, len - 5);
		} else if (!strncmp(p, "title=", 6) && name) {
			char *title = unquote(p + 6, len - 6);
			char *both = xasprintf("%s (%s)", name, title);

			free(name);
			free(title);
			name = both;
		}
		if (!end)
			break;
		p = end + 1;
	}
	free(name);
	free(args);
	free(root);
	if (ret_first_index)
		*ret_first_index = first_index;
}

struct info_block {
	char *image, *initrd, *title, *id, *index;
};

static void info_block_flush(struct info_block *b, struct boot_kernels *kernels)
{
	if (b->image) {
		char *release = boot_image_release(b->image);

		/* grubby lists the rescue image too: it is not a kernel of its own;
		 * nor is bootab's one-shot entry while it is there. */
		if ((!release || strncmp(release, "0-rescue-", 9)) &&
		    !(b->id && !strcmp(b->id, GRUBBY_ONESHOT_ID)))
			boot_kernels_add(kernels, release, b->image, b->initrd, b->id ? b->id : b->index,
					 b->title);
		free(release);
	}
	free(b->image);
	free(b->initrd);
	free(b->title);
	free(b->id);
	free(b->index);
	memset(b, 0, sizeof(*b));
}

static void info_set(char **field, const char *value, size_t len)
{
	free(*field);
	*field = unquote(value, len);
}

/* The kernel of each `grubby --info` block: kernel=, initrd=, title=, id=. */
static void info_kernels(const char *text, struct boot_kernels *kernels)
{
	struct info_block b = { 0 };

	for (const char *p = text; *p;) {
		const char *end = strchr(p, '\n');
		size_t len = end ? (size_t)(end - p) : strlen(p);

		if (!strncmp(p, "index=", 6)) {
			info_block_flush(&b, kernels);
			info_set(&b.index, p + 6, len - 6);
		} else if (!strncmp(p, "kernel=", 7)) {
			info_set(&b.image, p + 7, len - 7);
		} else if (!strncmp(p, "initrd=", 7)) {
			info_set(&b.initrd, p + 7, len - 7);
		} else if (!strncmp(p, "title=", 6)) {
			info_set(&b.title, p + 6, len - 6);
		} else if (!strncmp(p, "id=", 3)) {
			info_set(&b.id, p + 3, len - 3);
		}
		p += len + (end != NULL);
	}
	info_block_flush(&b, kernels);
}

static int grubby_info(struct boot_io *io, const char *which, struct boot_state *state,
		       long *ret_index, struct boot_kernels *ret_kernels, struct parse_error *err)
{
	char *option = xasprintf("--info=%s", which);
	const char *argv[] = { "grubby", option, NULL };
	const char *why = NULL;
	struct process_result res;
	int r;

	if (io->may_run && io->may_run(io, argv[0], &why) < 0) {
		parse_error_set_file(err, "grubby");
		parse_error_set(err, 0, 0, "'grubby %s' not run: %s", option, why);
		free(option);
		return -EPERM;
	}
	r = io->run(io, argv, &res);
	if (r < 0) {
		parse_error_set_file(err, "grubby");
		parse_error_set(err, 0, 0, "cannot run 'grubby %s': %s", option,
				r == -ENOENT ? "program not found" : strerror(-r));
		free(option);
		return r;
	}
	if (res.exit_code != 0) {
		const char *e = res.err_len ? res.err : res.out;
		size_t n = strcspn(e, "\n");

		parse_error_set_file(err, "grubby");
		parse_error_set(err, 0, 0, "'grubby %s' exited %d%s%.*s", option, res.exit_code,
				n ? ": " : "", (int)n, e);
		process_result_release(&res);
		free(option);
		return -EIO;
	}
	if (res.out_truncated || strlen(res.out) != res.out_len) {
		/* A listing cut short would hide entries from the plan. */
		parse_error_set_file(err, "grubby");
		parse_error_set(err, 0, 0, "'grubby %s' printed %s, not an entry listing", option,
				res.out_truncated ? "more than bootab reads" : "a NUL byte");
		process_result_release(&res);
		free(option);
		return -EIO;
	}
	if (state)
		info_parse(res.out, state, ret_index);
	if (ret_kernels)
		info_kernels(res.out, ret_kernels);
	process_result_release(&res);
	free(option);
	return 0;
}

static int grubby_plan(struct boot_io *io, char *const *managed, char *const *args,
		       const struct boot_kernel *kernel, struct boot_plan *plan, struct parse_error *err)
{
	static const char *const protect[] = { "/etc/kernel/cmdline", "/etc/default/grub",
					       "/boot/grub2/grubenv", NULL };
	struct boot_state before = BOOT_STATE_INIT;
	struct strbuf remove = STRBUF_INIT, add = STRBUF_INIT;
	struct bls_entries entries;
	int r;

	r = grubby_info(io, "ALL", &before, NULL, NULL, err);
	if (r < 0)
		return r;
	if (!before.n_entries) {
		parse_error_set_file(err, "grubby");
		parse_error_set(err, 0, 0, "'grubby --info=ALL' lists no entries");
		boot_state_release(&before);
		return -ENOENT;
	}
	/* The managed tokens as each entry writes them, each once. */
	for (size_t i = 0; i < before.n_entries; i++) {
		struct cmdline c;

		if (cmdline_parse(before.entries[i].args, CMDLINE_TOLERANT, &c, NULL) < 0)
			continue;
		for (size_t k = 0; k < c.n_tokens; k++) {
			const struct cmdline_token *t = &c.tokens[k];
			char *word, *padded, *have;

			if (t->init_arg || t->separator ||
			    !(cmdline_name_in(t->name, managed) || cmdline_name_in(t->name, args)))
				continue;
			word = xstrndup(c.text + t->start, t->end - t->start);
			padded = xasprintf(" %s ", word);
			have = xasprintf(" %s ", remove.len ? remove.buf : "");
			if (!strstr(have, padded)) {
				if (remove.len)
					strbuf_addch(&remove, ' ');
				strbuf_addstr(&remove, word);
			}
			free(word);
			free(padded);
			free(have);
		}
		cmdline_release(&c);
	}
	if (remove.len) {
		char *option = xasprintf("--remove-args=%s", remove.buf);
		const char *argv[] = { "grubby", "--update-kernel=ALL", option, NULL };

		boot_plan_add_run(plan, argv, false);
		free(option);
	}
	for (size_t i = 0; args && args[i]; i++) {
		if (add.len)
			strbuf_addch(&add, ' ');
		strbuf_addstr(&add, args[i]);
	}
	if (add.len) {
		char *option = xasprintf("--args=%s", add.buf);
		const char *argv[] = { "grubby", "--update-kernel=ALL", option, NULL };

		boot_plan_add_run(plan, argv, false);
		free(option);
	}
	if (kernel) {
		/* grubby writes the default where this box's GRUB reads it (grubenv
		 * saved_entry on BLS systems). */
		char *option = xasprintf("--set-default=%s", kernel->image);
		const char *argv[] = { "grubby", option, NULL };

		boot_plan_add_run(plan, argv, false);
		free(option);
	}
	boot_plan_add_note(plan, "%zu entr%s (grubby --info=ALL)", before.n_entries,
			   before.n_entries == 1 ? "y" : "ies");
	strbuf_release(&remove);
	strbuf_release(&add);
	boot_state_release(&before);

	/* grubby rewrites these itself: restore them if a step fails. */
	for (size_t i = 0; protect[i]; i++)
		boot_plan_add_protect(plan, protect[i]);
	if (bls_entries_read(io, &entries, NULL) == 0) {
		for (size_t i = 0; i < entries.n; i++)
			boot_plan_add_protect(plan, entries.entries[i].path);
		bls_entries_release(&entries);
	}
	r = kernel_cmdline_plan(io, managed, args, NULL, plan, err);
	return r < 0 ? r : 0;
}

static int grubby_read_state(struct boot_io *io, const struct boot_plan *applied,
			     struct boot_state *ret, struct parse_error *err)
{
	struct boot_state state = BOOT_STATE_INIT, def = BOOT_STATE_INIT;
	struct boot_kernels kernels = BOOT_KERNELS_INIT;
	long index = -1;
	int r;

	(void)applied;
	r = grubby_info(io, "ALL", &state, NULL, NULL, err);
	if (r >= 0)
		r = grubby_info(io, "DEFAULT", &def, &index, &kernels, err);
	if (r < 0)
		goto fail;
	if (kernels.n)
		state.default_kernel = xstrdup(kernels.v[0].release ? kernels.v[0].release : kernels.v[0].image);
	if (def.n_entries) {
		/* Entries are named "index N (title)": match the default's name. */
		for (size_t i = 0; i < state.n_entries; i++)
			if (!strcmp(state.entries[i].name, def.entries[0].name)) {
				state.has_default = true;
				state.default_index = i;
			}
		state.default_rule = xstrdup("grubby --info=DEFAULT");
	}
	r = io->exists(io, "/etc/kernel/cmdline");
	if (r > 0) {
		r = kernel_cmdline_inherit(io, &state, err);
	} else if (r == 0 && state.has_default) {
		/* Without /etc/kernel/cmdline, a new kernel's entry copies the
		 * default entry's args. */
		state.inherit_source = xstrdup("the default entry (grubby copies it to new kernels)");
		state.inherit_args = xstrdup(state.entries[state.default_index].args);
		state.inherit_checked = true;
	}
	if (r < 0)
		goto fail;
	boot_state_release(&def);
	boot_kernels_release(&kernels);
	*ret = state;
	return 0;
fail:
	boot_state_release(&state);
	boot_state_release(&def);
	boot_kernels_release(&kernels);
	return r;
}

static int grubby_kernels(struct boot_io *io, struct boot_kernels *ret, struct parse_error *err)
{
	struct boot_kernels kernels = BOOT_KERNELS_INIT;
	int r = grubby_info(io, "ALL", NULL, NULL, &kernels, err);

	if (r < 0) {
		boot_kernels_release(&kernels);
		return r;
	}
	*ret = kernels;
	return 0;
}

/* ---- one-shot boots: grub2-reboot names bootab's BLS entry for the next boot ---- */

static const char *const grub2_reboot_paths[] = { "/usr/sbin/grub2-reboot", "/usr/bin/grub2-reboot",
						  "/sbin/grub2-reboot", NULL };
/* Fedora 34 and later keep the real grub.cfg in /boot/grub2 on EFI too (the
 * ESP's is a stub that loads it); older EFI installs kept it on the ESP. */
static const char *const grub2_cfgs[] = { "/boot/grub2/grub.cfg", "/boot/efi/EFI/fedora/grub.cfg",
					  "/boot/efi/EFI/redhat/grub.cfg", NULL };

int grubby_oneshot_usable(struct boot_io *io, char **ret_why)
{
	bool tool = false;
	char *why = NULL;

	*ret_why = NULL;
	for (size_t i = 0; grub2_reboot_paths[i] && !tool; i++)
		tool = io->exists(io, grub2_reboot_paths[i]) == 1;
	if (!tool) {
		*ret_why = xstrdup("no grub2-reboot in /usr/sbin, /usr/bin or /sbin");
		return 0;
	}
	if (io->exists(io, GRUB2_ENV) != 1) {
		*ret_why = xstrdup("no " GRUB2_ENV);
		return 0;
	}
	for (size_t i = 0; grub2_cfgs[i]; i++) {
		char *cfg = NULL;

		if (boot_io_read_optional(io, grub2_cfgs[i], &cfg, NULL) < 0 || !cfg)
			continue;
		free(why);
		why = NULL;
		/* grub-mkconfig's 00_header: `if [ "${next_entry}" ] ; then set
		 * default=...; save_env next_entry`; 10_linux on BLS systems: blscfg. */
		if (!strstr(cfg, "blscfg"))
			why = xasprintf("%s does not read the BLS entries (no blscfg)", grub2_cfgs[i]);
		else if (!strstr(cfg, "${next_entry}") || !strstr(cfg, "save_env next_entry"))
			why = xasprintf("%s does not use next_entry", grub2_cfgs[i]);
		free(cfg);
		if (!why)
			return 1;
	}
	*ret_why = why ? why : xstrdup("no readable /boot/grub2/grub.cfg");
	return 0;
}

/* Runs argv through io: 0, or -errno / -EIO with err naming the tool and its first line of output. */
static int grubby_run_tool(struct boot_io *io, const char *const *argv, struct parse_error *err)
{
	const char *why = NULL;
	struct process_result res;
	int r;

	parse_error_set_file(err, argv[0]);
	if (io->may_run && io->may_run(io, argv[0], &why) < 0) {
		parse_error_set(err, 0, 0, "not run: %s", why);
		return -EPERM;
	}
	r = io->run(io, argv, &res);
	if (r < 0) {
		parse_error_set(err, 0, 0, "cannot run: %s", r == -ENOENT ? "program not found" : strerror(-r));
		return r;
	}
	if (res.exit_code != 0) {
		const char *e = res.err_len ? res.err : res.out;
		size_t n = strcspn(e, "\n");

		parse_error_set(err, 0, 0, "exited %d%s%.*s", res.exit_code, n ? ": " : "", (int)n, e);
		r = -EIO;
	}
	process_result_release(&res);
	return r;
}

/* Whether the environment block holds the line "next_entry=ID": 1, 0, or -errno. */
static int grubenv_next_entry_is(struct boot_io *io, const char *id)
{
	char *env = NULL, *want = xasprintf("\nnext_entry=%s\n", id);
	int r = boot_io_read_optional(io, GRUB2_ENV, &env, NULL);

	if (r == 0) {
		char *with_nl = xasprintf("\n%s", env ? env : "");

		r = strstr(with_nl, want) != NULL;
		free(with_nl);
	}
	free(env);
	free(want);
	return r;
}

int grubby_oneshot_next(struct boot_io *io, const char *id, struct parse_error *err)
{
	const char *argv[] = { "grub2-reboot", id, NULL };
	int r = grubby_run_tool(io, argv, err);

	if (r < 0)
		return r;
	r = grubenv_next_entry_is(io, id);
	if (r <= 0) {
		parse_error_set_file(err, GRUB2_ENV);
		parse_error_set(err, 0, 0, r < 0 ? "cannot read it after grub2-reboot: %s"
					  : "grub2-reboot exited 0 but the block does not hold next_entry=%s",
				r < 0 ? strerror(-r) : id);
		return r < 0 ? r : -EIO;
	}
	return 0;
}

int grubby_oneshot_clear(struct boot_io *io, const char *id)
{
	const char *argv[] = { "grub2-editenv", GRUB2_ENV, "unset", "next_entry", NULL };
	struct parse_error err = PARSE_ERROR_INIT;
	int r = grubenv_next_entry_is(io, id);

	if (r <= 0)
		return r;
	r = grubby_run_tool(io, argv, &err);
	parse_error_release(&err);
	return r < 0 ? r : 1;
}

const struct boot_backend boot_backend_grubby = {
	.name = "grubby",
	.summary = "grubby --update-kernel=ALL, and /etc/kernel/cmdline (Fedora, RHEL)",
	.detect = grubby_detect,
	.plan = grubby_plan,
	.kernels = grubby_kernels,
	.read_state = grubby_read_state,
};
