/*
 * Which kernels a boot loader can boot, and making one of them the
 * default, for the backends that read Boot Loader Specification entries
 * (bls, kernel-cmdline; UAPI.1 "Boot Loader Specification"): Type #1
 * entries in loader/entries/NAME.conf and Type #2 unified kernel images in
 * EFI/Linux/NAME.efi.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "boot/bls.h"
#include "lib/alloc.h"
#include "lib/file.h"
#include "lib/strbuf.h"

#define LOADER_GUID "4a67b082-0a4c-41cf-b6c7-440b29bb8c4f"

static char *dup_or_null(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

void boot_kernels_add(struct boot_kernels *kernels, const char *release, const char *image,
		      const char *initrd, const char *entry, const char *title)
{
	struct boot_kernel *k;

	GROW(kernels->v, kernels->alloc, kernels->n + 1);
	k = &kernels->v[kernels->n++];
	k->release = dup_or_null(release);
	k->image = dup_or_null(image);
	k->initrd = dup_or_null(initrd);
	k->entry = dup_or_null(entry);
	k->title = dup_or_null(title);
}

void boot_kernels_release(struct boot_kernels *kernels)
{
	if (!kernels)
		return;
	for (size_t i = 0; i < kernels->n; i++) {
		free(kernels->v[i].release);
		free(kernels->v[i].image);
		free(kernels->v[i].initrd);
		free(kernels->v[i].entry);
		free(kernels->v[i].title);
	}
	free(kernels->v);
	memset(kernels, 0, sizeof(*kernels));
}

const struct boot_kernel *boot_kernels_find(const struct boot_kernels *kernels, const char *spec)
{
	for (size_t i = 0; i < kernels->n; i++) {
		const struct boot_kernel *k = &kernels->v[i];

		if (spec[0] == '/' ? k->image && !strcmp(k->image, spec)
				   : k->release && !strcmp(k->release, spec))
			return k;
	}
	return NULL;
}

char *boot_kernels_describe(const struct boot_kernels *kernels)
{
	struct strbuf sb = STRBUF_INIT;

	for (size_t i = 0; i < kernels->n; i++) {
		const char *name = kernels->v[i].release ? kernels->v[i].release : kernels->v[i].image;
		bool seen = false;

		if (!name)
			continue;
		for (size_t k = 0; k < i && !seen; k++) {
			const char *other = kernels->v[k].release ? kernels->v[k].release : kernels->v[k].image;

			seen = other && !strcmp(other, name);
		}
		if (seen)
			continue;
		if (sb.len)
			strbuf_addstr(&sb, ", ");
		strbuf_addstr(&sb, name);
	}
	if (!sb.len)
		strbuf_addstr(&sb, "none");
	return strbuf_detach(&sb, NULL);
}

char *boot_image_release(const char *image)
{
	const char *base = strrchr(image, '/');

	base = base ? base + 1 : image;
	if (strncmp(base, "vmlinuz-", 8) || !base[8])
		return NULL;
	return xstrdup(base + 8);
}

/* ---- Type #1 entries ---- */

/* "/boot/loader/entries" -> "/boot": the partition entry paths are relative to. */
static char *entries_root(const char *dir)
{
	size_t n = strlen(dir), suffix = strlen("/loader/entries");

	if (n >= suffix && !strcmp(dir + n - suffix, "/loader/entries"))
		return xstrndup(dir, n - suffix);
	return xstrdup(dir);
}

/* An entry's path ("/vmlinuz-6.1.0-57-amd64") as an absolute path on the target. */
static char *entry_path(struct boot_io *io, const char *root, const char *value)
{
	char *path = xasprintf("%s%s%s", root, value[0] == '/' ? "" : "/", value);

	/* /boot on the root file system: Fedora writes "linux /boot/vmlinuz-...". */
	if (io && !strncmp(value, "/boot/", 6) && io->exists(io, path) == 0 && io->exists(io, value) > 0) {
		free(path);
		return xstrdup(value);
	}
	return path;
}

/* The release an entry boots: vmlinuz-RELEASE, else its version line, else
 * kernel-install's /TOKEN/RELEASE/linux. */
static char *entry_release(const char *text, const char *linux_value)
{
	char *release = boot_image_release(linux_value), *version;
	const char *base = strrchr(linux_value, '/');

	if (release)
		return release;
	version = bls_entry_value(text, "version");
	if (version && *version)
		return version;
	free(version);
	if (base && !strcmp(base, "/linux") && base > linux_value) {
		const char *dir = base - 1;

		while (dir > linux_value && dir[-1] != '/')
			dir--;
		if (dir < base)
			return xstrndup(dir, (size_t)(base - dir));
	}
	return NULL;
}

int bls_entry_kernel(struct boot_io *io, const struct bls_entry *entry, char **ret_release,
		     char **ret_image, char **ret_initrd)
{
	char *linux_value = bls_entry_value(entry->text, "linux"), *initrd, *root;

	if (!linux_value || !*linux_value) {
		free(linux_value);
		return -ENOENT;
	}
	root = entries_root(entry->dir);
	initrd = bls_entry_value(entry->text, "initrd");
	/* Fedora's initrd line ends in "$tuned_initrd": the first word is the file. */
	if (initrd)
		initrd[strcspn(initrd, " \t")] = '\0';
	*ret_release = entry_release(entry->text, linux_value);
	*ret_image = entry_path(io, root, linux_value);
	*ret_initrd = initrd && *initrd ? entry_path(io, root, initrd) : NULL;
	free(initrd);
	free(root);
	free(linux_value);
	return 0;
}

/* The releases /lib/modules holds (a UKI's name ends in one). */
static char **module_releases(struct boot_io *io)
{
	static const char *const dirs[] = { "/lib/modules", "/usr/lib/modules", NULL };

	for (size_t d = 0; dirs[d]; d++) {
		char **names = NULL;
		size_t n = 0;

		if (io->list_dir(io, dirs[d], &names, &n) == 0 && n)
			return names;
		strv_free(names);
	}
	return xcalloc(1, sizeof(char *));
}

static const char *const uki_dirs[] = { "/boot/EFI/Linux", "/efi/EFI/Linux", "/boot/efi/EFI/Linux", NULL };

/* kernel-install (90-uki-copy.install) names a UKI ENTRY-TOKEN-RELEASE.efi,
 * with "+LEFT-DONE" boot counting before the suffix. */
static char *uki_release(const char *name, char *const *releases)
{
	size_t n = strlen(name), best = 0;
	char *found = NULL;
	const char *plus = strchr(name, '+');
	size_t stem = plus && strchr(plus, '-') ? (size_t)(plus - name) : n - 4;

	for (size_t i = 0; releases[i]; i++) {
		size_t r = strlen(releases[i]);

		/* The longest release that ends the stem after a '-' (or is the stem). */
		if (r <= stem && r > best && !strncmp(name + stem - r, releases[i], r) &&
		    (r == stem || name[stem - r - 1] == '-')) {
			free(found);
			found = xstrdup(releases[i]);
			best = r;
		}
	}
	return found;
}

static bool efi_name(const char *name)
{
	size_t n = strlen(name);

	return n > 4 && !strcasecmp(name + n - 4, ".efi") && name[0] != '.';
}

int bls_kernels(struct boot_io *io, const struct bls_entries *entries, struct boot_kernels *ret,
		struct parse_error *err)
{
	struct boot_kernels kernels = BOOT_KERNELS_INIT;
	char **releases = NULL;

	for (size_t i = 0; i < entries->n; i++) {
		const struct bls_entry *e = &entries->entries[i];
		char *release = NULL, *image = NULL, *initrd = NULL, *title;

		/* bootab's own one-shot entry is a copy, not a kernel of the box. */
		if (!strcmp(e->name, BLS_ONESHOT_ENTRY))
			continue;
		if (bls_entry_kernel(io, e, &release, &image, &initrd) < 0)
			continue;
		/* Fedora's rescue entry boots a generic copy, not a release of its own. */
		if (release && !strncmp(release, "0-rescue", 8)) {
			free(release);
			free(image);
			free(initrd);
			continue;
		}
		title = bls_entry_value(e->text, "title");
		boot_kernels_add(&kernels, release, image, initrd, e->name, title);
		free(title);
		free(release);
		free(image);
		free(initrd);
	}
	for (size_t d = 0; uki_dirs[d]; d++) {
		char **names = NULL;
		size_t n = 0;
		int r = io->list_dir(io, uki_dirs[d], &names, &n);

		if (r == -ENOENT || r == -ENOTDIR)
			continue;
		if (r < 0) {
			parse_error_set_file(err, uki_dirs[d]);
			parse_error_set(err, 0, 0, "cannot list: %s", strerror(-r));
			strv_free(releases);
			boot_kernels_release(&kernels);
			return r;
		}
		if (!releases && n)
			releases = module_releases(io);
		for (size_t i = 0; i < n; i++) {
			char *image, *release;

			if (!efi_name(names[i]))
				continue;
			image = path_join(uki_dirs[d], names[i]);
			release = uki_release(names[i], releases);
			/* A UKI carries its initrd and command line inside. */
			boot_kernels_add(&kernels, release, image, NULL, names[i], NULL);
			free(image);
			free(release);
		}
		strv_free(names);
	}
	strv_free(releases);
	*ret = kernels;
	return 0;
}

/* ---- making an entry the default ---- */

/* loader.conf with its `default` line set to id: replaced in place, else added. */
static char *loader_conf_set_default(const char *text, const char *id)
{
	struct strbuf sb = STRBUF_INIT;
	bool done = false;

	for (const char *p = text; *p;) {
		const char *end = strchr(p, '\n');
		size_t len = end ? (size_t)(end - p) + 1 : strlen(p);
		const char *q = p;

		while (*q == ' ' || *q == '\t')
			q++;
		if (!done && !strncmp(q, "default", 7) && (q[7] == ' ' || q[7] == '\t')) {
			strbuf_addf(&sb, "default %s\n", id);
			done = true;
		} else {
			strbuf_add(&sb, p, len);
			if (!end)
				strbuf_addch(&sb, '\n');
		}
		p += len;
	}
	if (!done)
		strbuf_addf(&sb, "default %s\n", id);
	return strbuf_detach(&sb, NULL);
}

/*
 * GRUB's environment block (grub-editenv): "# GRUB Environment Block\n",
 * NAME=VALUE lines, then '#' padding to its fixed size (1024 bytes).
 * Returns the block with saved_entry=value, the same size, or NULL when it
 * does not fit or is not a block.
 */
static char *grubenv_set(const char *text, size_t len, const char *name, const char *value)
{
	static const char header[] = "# GRUB Environment Block\n";
	struct strbuf sb = STRBUF_INIT;
	size_t name_len = strlen(name);
	bool done = false;
	const char *p, *end = text + len;

	if (len < sizeof(header) - 1 || strncmp(text, header, sizeof(header) - 1))
		return NULL;
	strbuf_addstr(&sb, header);
	for (p = text + sizeof(header) - 1; p < end;) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t l = nl ? (size_t)(nl - p) + 1 : (size_t)(end - p);

		/* The padding: '#' to the end, no newline. Comment lines stay. */
		if (!nl && *p == '#')
			break;

		if (!strncmp(p, name, name_len) && p[name_len] == '=') {
			if (!done)
				strbuf_addf(&sb, "%s=%s\n", name, value);
			done = true;
		} else {
			strbuf_add(&sb, p, l);
		}
		p += l;
	}
	if (!done)
		strbuf_addf(&sb, "%s=%s\n", name, value);
	if (sb.len > len) {
		strbuf_release(&sb);
		return NULL;
	}
	while (sb.len < len)
		strbuf_addch(&sb, '#');
	return strbuf_detach(&sb, NULL);
}

int bls_plan_default(struct boot_io *io, const struct bls_entries *entries, const char *id,
		     struct boot_plan *plan, struct parse_error *err)
{
	static const char grubenv[] = "/boot/grub2/grubenv";
	char *efi_path = xasprintf("/sys/firmware/efi/efivars/LoaderEntryDefault-%s", LOADER_GUID);
	char *loader_dir, *conf, *text = NULL, *edited;
	size_t len = 0;
	int r;

	/* systemd-boot prefers the EFI variable bootctl set-default writes. */
	r = io->exists(io, efi_path);
	free(efi_path);
	if (r > 0) {
		parse_error_set_file(err, "LoaderEntryDefault");
		parse_error_set(err, 0, 0, "the EFI variable LoaderEntryDefault chooses the default entry and "
				"overrides loader.conf: clear it (bootctl set-default '') so bootab can choose %s", id);
		return -EBUSY;
	}
	loader_dir = entries->n ? entries_root(entries->entries[0].dir) : xstrdup("/boot");
	conf = xasprintf("%s/loader/loader.conf", loader_dir);
	free(loader_dir);
	r = boot_io_read_optional(io, conf, &text, &len);
	if (r < 0) {
		parse_error_set_file(err, conf);
		parse_error_set(err, 0, 0, "cannot read: %s", strerror(-r));
		free(conf);
		return r;
	}
	if (!text) {
		char *env = NULL;
		size_t env_len = 0;

		/* Fedora's GRUB reads BLS entries and takes its default from grubenv. */
		r = boot_io_read_optional(io, grubenv, &env, &env_len);
		if (r == 0 && env) {
			size_t n = strlen(id);
			char *stem = n > 5 && !strcmp(id + n - 5, ".conf") ? xstrndup(id, n - 5) : xstrdup(id);

			edited = grubenv_set(env, env_len, "saved_entry", stem);
			free(stem);
			if (!edited) {
				parse_error_set_file(err, grubenv);
				parse_error_set(err, 0, 0, "not a GRUB environment block with room for saved_entry");
				free(env);
				free(conf);
				return -EINVAL;
			}
			if (memcmp(edited, env, env_len))
				boot_plan_add_write(plan, grubenv, env, env_len, edited, env_len, 0644);
			boot_plan_add_note(plan, "default entry %s (%s saved_entry)", id, grubenv);
			free(edited);
			free(env);
			free(conf);
			return 0;
		}
		free(env);
	}
	edited = loader_conf_set_default(text ? text : "", id);
	if (!text || strcmp(text, edited))
		boot_plan_add_write(plan, conf, text, len, edited, strlen(edited), 0644);
	boot_plan_add_note(plan, "default entry %s (%s)", id, conf);
	free(edited);
	free(text);
	free(conf);
	return 0;
}
