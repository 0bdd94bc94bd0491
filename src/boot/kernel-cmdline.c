/*
 * The kernel-cmdline backend: /etc/kernel/cmdline is what kernel-install
 * (and its plugins: 90-loaderentry.install for BLS entries, ukify for
 * unified kernel images) puts on every kernel it installs. The toggle edits
 * it, then runs `kernel-install add KVER /lib/modules/KVER/vmlinuz` for
 * every installed kernel so each one's entry is rebuilt from it.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "boot/bls.h"
#include "kernel/cmdline.h"
#include "lib/alloc.h"
#include "lib/file.h"

static const char *const modules_dirs[] = { "/lib/modules", "/usr/lib/modules", NULL };

static int kernel_cmdline_detect(struct boot_io *io, char **ret_found)
{
	int r = io->exists(io, "/etc/kernel/cmdline");

	if (r > 0)
		*ret_found = xstrdup("/etc/kernel/cmdline");
	return r;
}

/* Kernels kernel-install can install again: /lib/modules/KVER/vmlinuz. */
static int installed_kernels(struct boot_io *io, char ***ret_images, char ***ret_versions,
			     size_t *ret_count, struct parse_error *err)
{
	char **images = xcalloc(1, sizeof(char *)), **versions = xcalloc(1, sizeof(char *));
	size_t n = 0;

	for (size_t d = 0; modules_dirs[d] && !n; d++) {
		char **names = NULL;
		size_t count = 0;
		int r = io->list_dir(io, modules_dirs[d], &names, &count);

		if (r == -ENOENT || r == -ENOTDIR)
			continue;
		if (r < 0) {
			parse_error_set_file(err, modules_dirs[d]);
			parse_error_set(err, 0, 0, "cannot list: %s", strerror(-r));
			strv_free(images);
			strv_free(versions);
			return r;
		}
		for (size_t i = 0; i < count; i++) {
			char *dir = path_join(modules_dirs[d], names[i]);
			char *image = path_join(dir, "vmlinuz");

			free(dir);
			if (io->exists(io, image) > 0) {
				images = xrealloc(images, (n + 2) * sizeof(char *));
				versions = xrealloc(versions, (n + 2) * sizeof(char *));
				images[n] = image;
				versions[n] = xstrdup(names[i]);
				n++;
				images[n] = versions[n] = NULL;
			} else {
				free(image);
			}
		}
		strv_free(names);
	}
	*ret_images = images;
	*ret_versions = versions;
	*ret_count = n;
	return 0;
}

/* What 90-loaderentry.install would use without /etc/kernel/cmdline. */
static int default_base(struct boot_io *io, char **ret, struct parse_error *err)
{
	static char *const loader_names[] = { (char *)"BOOT_IMAGE", (char *)"initrd", NULL };
	const char *path = "/usr/lib/kernel/cmdline";
	char *text = NULL;
	struct cmdline c;
	int r;

	r = boot_io_read_optional(io, path, &text, NULL);
	if (r >= 0 && !text) {
		path = "/proc/cmdline";
		r = boot_io_read_optional(io, path, &text, NULL);
	}
	if (r < 0 || !text) {
		parse_error_set_file(err, path);
		parse_error_set(err, 0, 0, "cannot read: %s", r < 0 ? strerror(-r) : "No such file");
		return r < 0 ? r : -ENOENT;
	}
	r = cmdline_parse(text, CMDLINE_TOLERANT, &c, err);
	free(text);
	if (r < 0)
		return r;
	/* The boot loader adds these itself. */
	text = cmdline_format_edit(&c, loader_names, NULL);
	cmdline_release(&c);
	/* Without the trailing newline /proc/cmdline ends with. */
	text[strcspn(text, "\n")] = '\0';
	*ret = text;
	return 0;
}

static int kernel_cmdline_plan_all(struct boot_io *io, char *const *managed, char *const *args,
				   const struct boot_kernel *kernel, struct boot_plan *plan,
				   struct parse_error *err)
{
	char **images = NULL, **versions = NULL, *base = NULL;
	struct bls_entries entries;
	size_t n = 0;
	int r;

	if (io->exists(io, "/etc/kernel/cmdline") == 0) {
		r = default_base(io, &base, err);
		if (r < 0)
			return r;
		boot_plan_add_note(plan, "/etc/kernel/cmdline is created from the current command line");
	}
	r = kernel_cmdline_plan(io, managed, args, base ? base : "", plan, err);
	free(base);
	if (r < 0)
		return r;

	r = installed_kernels(io, &images, &versions, &n, err);
	if (r < 0)
		return r;
	if (!n) {
		parse_error_set_file(err, modules_dirs[0]);
		parse_error_set(err, 0, 0, "no installed kernel (KVER/vmlinuz) to run kernel-install for");
		strv_free(images);
		strv_free(versions);
		return -ENOENT;
	}
	for (size_t i = 0; i < n; i++) {
		const char *argv[] = { "kernel-install", "add", versions[i], images[i], NULL };

		boot_plan_add_run(plan, argv, true);
	}
	boot_plan_add_note(plan, "%zu installed kernel%s", n, n == 1 ? "" : "s");
	strv_free(images);
	strv_free(versions);

	/* kernel-install rewrites the entries: keep them to restore on failure. */
	if (bls_entries_read(io, &entries, NULL) == 0) {
		for (size_t i = 0; i < entries.n; i++)
			boot_plan_add_protect(plan, entries.entries[i].path);
		bls_entries_release(&entries);
	}
	/* kernel-install keeps each kernel's entry (or UKI) name, and leaves
	 * loader.conf alone: the default is chosen there after it ran. */
	return bls_plan_kernel_default(io, kernel, plan, err);
}

static int kernel_cmdline_read_state(struct boot_io *io, const struct boot_plan *applied,
				     struct boot_state *ret, struct parse_error *err)
{
	struct boot_state state = BOOT_STATE_INIT;
	struct bls_entries entries;
	int r;

	(void)applied;
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

const struct boot_backend boot_backend_kernel_cmdline = {
	.name = "kernel-cmdline",
	.summary = "edit /etc/kernel/cmdline, then kernel-install every installed kernel (UKIs, systemd-boot)",
	.detect = kernel_cmdline_detect,
	.plan = kernel_cmdline_plan_all,
	.kernels = bls_list_kernels,
	.read_state = kernel_cmdline_read_state,
};
