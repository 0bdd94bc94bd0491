/*
 * The kexec backend changes nothing persistent: it loads the running
 * kernel again (or the mode's kernel: /boot/vmlinuz-RELEASE and its
 * initrd) with the mode's args (`kexec -l IMAGE --initrd=...
 * --append=...`), and `kexec -e` boots it. A power cycle returns to the
 * standing config, which makes it a natural one-shot. The command line is
 * the running one (/proc/cmdline without the loader's BOOT_IMAGE= and
 * initrd=), with the managed args stripped and the mode's added.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "boot/boot.h"
#include "kernel/cmdline.h"
#include "lib/alloc.h"
#include "lib/file.h"

static const char *const kexec_paths[] = { "/usr/sbin/kexec", "/sbin/kexec", "/usr/bin/kexec", NULL };

static int kexec_detect(struct boot_io *io, char **ret_found)
{
	for (size_t i = 0; kexec_paths[i]; i++) {
		int r = io->exists(io, kexec_paths[i]);

		if (r != 0) {
			if (r > 0)
				*ret_found = xstrdup(kexec_paths[i]);
			return r;
		}
	}
	return 0;
}

static char *read_trimmed(struct boot_io *io, const char *path, int *ret_r)
{
	char *text = NULL;

	*ret_r = boot_io_read_optional(io, path, &text, NULL);
	if (*ret_r < 0 || !text)
		return NULL;
	text[strcspn(text, "\n")] = '\0';
	return text;
}

/* The first candidate that exists: prefix + release + suffix, or prefix alone. */
struct candidate {
	const char *prefix;
	const char *suffix;    /* NULL: the path is prefix, without the release */
};

static char *first_existing(struct boot_io *io, const struct candidate *candidates, const char *release)
{
	for (size_t i = 0; candidates[i].prefix; i++) {
		const struct candidate *c = &candidates[i];
		char *path = c->suffix ? xasprintf("%s%s%s", c->prefix, release, c->suffix)
				       : xstrdup(c->prefix);

		if (io->exists(io, path) > 0)
			return path;
		free(path);
	}
	return NULL;
}

/* The initrd Debian (initrd.img-R), Fedora (initramfs-R.img) or a bare /boot/initrd gives release. */
static const struct candidate initrds[] = {
	{ "/boot/initrd.img-", "" }, { "/boot/initramfs-", ".img" }, { "/boot/initrd", NULL },
	{ NULL, NULL },
};

/* Every /boot/vmlinuz-RELEASE, with its initrd. */
static int kexec_kernels(struct boot_io *io, struct boot_kernels *ret, struct parse_error *err)
{
	struct boot_kernels kernels = BOOT_KERNELS_INIT;
	char **names = NULL;
	size_t n = 0;
	int r = io->list_dir(io, "/boot", &names, &n);

	if (r < 0) {
		parse_error_set_file(err, "/boot");
		parse_error_set(err, 0, 0, "cannot list: %s", strerror(-r));
		return r;
	}
	for (size_t i = 0; i < n; i++) {
		char *image = xasprintf("/boot/%s", names[i]);
		char *release = boot_image_release(image), *initrd;

		if (release) {
			static const struct candidate own[] = {
				{ "/boot/initrd.img-", "" }, { "/boot/initramfs-", ".img" }, { NULL, NULL },
			};

			initrd = first_existing(io, own, release);
			boot_kernels_add(&kernels, release, image, initrd, image, NULL);
			free(initrd);
		}
		free(release);
		free(image);
	}
	strv_free(names);
	*ret = kernels;
	return 0;
}

static int kexec_plan(struct boot_io *io, char *const *managed, char *const *args,
		      const struct boot_kernel *kernel, struct boot_plan *plan, struct parse_error *err)
{
	static const struct candidate images[] = {
		{ "/boot/vmlinuz-", "" }, { "/boot/vmlinuz", NULL }, { NULL, NULL },
	};
	static char *const loader_names[] = { (char *)"BOOT_IMAGE", (char *)"initrd", NULL };
	char *release, *running, *base = NULL, *line = NULL, *image = NULL, *initrd = NULL;
	struct cmdline c;
	int r;

	release = read_trimmed(io, "/proc/sys/kernel/osrelease", &r);
	if (!release) {
		parse_error_set_file(err, "/proc/sys/kernel/osrelease");
		parse_error_set(err, 0, 0, "cannot read: %s", r < 0 ? strerror(-r) : "No such file");
		return r < 0 ? r : -ENOENT;
	}
	running = read_trimmed(io, "/proc/cmdline", &r);
	if (!running) {
		parse_error_set_file(err, "/proc/cmdline");
		parse_error_set(err, 0, 0, "cannot read: %s", r < 0 ? strerror(-r) : "No such file");
		free(release);
		return r < 0 ? r : -ENOENT;
	}
	if (kernel) {
		/* Another kernel than the running one, with the running command line. */
		free(release);
		release = xstrdup(kernel->release ? kernel->release : kernel->image);
		image = xstrdup(kernel->image);
	} else {
		image = first_existing(io, images, release);
	}
	if (!image) {
		parse_error_set_file(err, "/boot");
		parse_error_set(err, 0, 0, "no kernel image for %s (/boot/vmlinuz-%s or /boot/vmlinuz)",
				release, release);
		r = -ENOENT;
		goto out;
	}
	initrd = kernel ? (kernel->initrd ? xstrdup(kernel->initrd) : NULL) : first_existing(io, initrds, release);
	r = cmdline_parse(running, CMDLINE_TOLERANT, &c, err);
	if (r < 0)
		goto out;
	base = cmdline_format_edit(&c, loader_names, NULL);
	cmdline_release(&c);
	r = cmdline_apply(base, managed, args, &line, err);
	if (r < 0) {
		parse_error_set_file(err, "/proc/cmdline");
		goto out;
	}
	{
		char *append = xasprintf("--append=%s", line);
		char *initrd_option = initrd ? xasprintf("--initrd=%s", initrd) : NULL;
		const char *argv[] = { "kexec", "-l", image, initrd_option ? initrd_option : append,
				       initrd_option ? append : NULL, NULL };

		boot_plan_add_run(plan, argv, false);
		free(append);
		free(initrd_option);
	}
	boot_plan_add_note(plan, "kernel %s loaded with kexec; 'kexec -e' boots it, a power cycle "
			   "returns to the standing config", release);
	r = 0;
out:
	free(release);
	free(running);
	free(base);
	free(line);
	free(image);
	free(initrd);
	return r;
}

static int kexec_read_state(struct boot_io *io, const struct boot_plan *applied,
			    struct boot_state *ret, struct parse_error *err)
{
	struct boot_state state = BOOT_STATE_INIT;
	const char *append = NULL, *image = NULL;
	char *loaded;
	int r;

	for (size_t i = 0; applied && i < applied->n_actions; i++) {
		char **argv = applied->actions[i].argv;

		for (size_t k = 0; argv && argv[k]; k++) {
			if (!strncmp(argv[k], "--append=", 9))
				append = argv[k] + 9;
			if (k == 2 && !strcmp(argv[0], "kexec"))
				image = argv[k];
		}
	}
	/* /sys/kernel/kexec_loaded says a kernel is staged; the kernel does not
	 * show its command line, so the one handed to kexec stands for it. */
	loaded = read_trimmed(io, "/sys/kernel/kexec_loaded", &r);
	if (!loaded || strcmp(loaded, "1") || !append) {
		parse_error_set_file(err, "/sys/kernel/kexec_loaded");
		parse_error_set(err, 0, 0, "no kernel is loaded for kexec%s",
				loaded ? "" : " (cannot read the file)");
		free(loaded);
		return -ENOENT;
	}
	free(loaded);
	boot_state_add_entry(&state, image ? image : "kexec", append);
	if (image) {
		state.default_kernel = boot_image_release(image);
		if (!state.default_kernel)
			state.default_kernel = xstrdup(image);
	}
	state.has_default = true;
	state.default_index = 0;
	state.default_rule = xstrdup("the kernel loaded for kexec -e");
	state.inherit_source = xstrdup("nothing (kexec)");
	state.inherit_note = xstrdup("kexec changes nothing persistent: the next kernel install and "
				     "a cold boot use the standing config");
	*ret = state;
	return 0;
}

const struct boot_backend boot_backend_kexec = {
	.name = "kexec",
	.summary = "load the running kernel with the mode's args for kexec -e; nothing persistent",
	.detect = kexec_detect,
	.plan = kexec_plan,
	.kernels = kexec_kernels,
	.read_state = kexec_read_state,
};
