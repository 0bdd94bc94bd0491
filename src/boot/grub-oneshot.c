/*
 * One-shot boots through GRUB: bootab's menu entry in custom.cfg, made
 * from a kernel's entry of grub.cfg with the mode's args, booted once
 * through grubenv's next_entry, and removed after.
 */

#include "boot/grub-internal.h"

#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/cmdline.h"
#include "lib/alloc.h"
#include "lib/strbuf.h"

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
		char *path = grub_menu_path(&menu[i]);

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
		grub_menu_entry_release(&menu[i]);
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
