/*
 * The grub backend (Debian, Ubuntu): GRUB_CMDLINE_LINUX in /etc/default/grub
 * and the /etc/default/grub.d/NAME.cfg drop-ins, then `update-grub`
 * (grub-mkconfig -o /boot/grub/grub.cfg). GRUB_CMDLINE_LINUX is the part
 * every entry of every kernel gets, recovery entries included; managed args
 * are also stripped from GRUB_CMDLINE_LINUX_DEFAULT, which the default
 * entries add, but the mode's args never go there.
 */

#include "boot/grub-internal.h"

#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "boot/boot.h"
#include "lib/alloc.h"
#include "lib/file.h"
#include "lib/strbuf.h"

/* ---- the backend ---- */

void grub_files_release(struct grub_files *f)
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

int grub_files_read(struct boot_io *io, struct grub_files *ret, struct parse_error *err)
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
char *grub_default_kernel(struct boot_io *io, const char *cfg, const char *grub_default)
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
