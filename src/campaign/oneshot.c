#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "boot/bls.h"
#include "boot/boot.h"
#include "boot/grub.h"
#include "boot/grubby.h"
#include "campaign/internal.h"
#include "campaign/progress.h"
#include "lib/alloc.h"
#include "lib/parse-error.h"
#include "target/boot-io-target.h"

/* Whether this boot is a one-shot boot: a test mode on a one-shot capable box. */
bool campaign_boot_is_oneshot(const struct campaign *c, size_t k)
{
	return c->oneshot && c->boots[k].mode != 0;
}

const char *oneshot_entry_id(const struct campaign *c)
{
	return c->oneshot_grub ? GRUB_ONESHOT_ID : c->oneshot_grubby ? GRUBBY_ONESHOT_ID : ONESHOT_ENTRY;
}

/* GRUB: bootab's entry in custom.cfg, made from the kernel's entry of grub.cfg. */
static int oneshot_set_grub(struct campaign *c, size_t k)
{
	struct boot_io *io = boot_io_target_new(c->target);
	struct parse_error err = PARSE_ERROR_INIT;
	char *from = NULL, *args = NULL;
	int r;

	r = grub_oneshot_write(io, campaign_mode_kernel(c, c->boots[k].mode), c->managed,
			       c->plan.modes[c->boots[k].mode].args, &from, &args, &err);
	if (r < 0)
		campaign_say(c, CAMPAIGN_ERROR, "boot %zu %s: cannot write the one-shot entry: %s%s%s", k + 1,
			     c->boots[k].label, err.file ? err.file : "", err.file ? ": " : "",
			     err.message ? err.message : strerror(-r));
	else
		campaign_progress(c, k, "one-shot entry %s in %s (from %s): %s", GRUB_ONESHOT_ID, GRUB_ONESHOT_FILE,
				  from, args);
	free(from);
	free(args);
	parse_error_release(&err);
	boot_io_free(io);
	return r;
}

/*
 * A one-shot boot leaves every standing entry as it is and writes one more
 * entry: the default entry (or, for a mode with a kernel, that kernel's
 * entry) with the mode's args. systemd-boot boots it
 * once (LoaderEntryOneShot); a box that hangs comes back on the default
 * entry after a power cycle.
 */
int oneshot_set(struct campaign *c, size_t k)
{
	struct boot_io *io = boot_io_target_new(c->target);
	struct bls_entries entries = { 0 };
	struct parse_error err = PARSE_ERROR_INIT;
	char *rule = NULL, *text = NULL, *path = NULL, *options = NULL;
	size_t def;
	int r;

	if (c->oneshot_grub) {
		boot_io_free(io);
		return oneshot_set_grub(c, k);
	}
	r = bls_entries_read(io, &entries, &err);
	if (r == 0 && campaign_mode_kernel(c, c->boots[k].mode)) {
		/* The mode's kernel: the one-shot entry is made from that kernel's entry. */
		r = campaign_kernel_entry(c, &entries, c->boots[k].mode, &def);
		if (r < 0)
			parse_error_set(&err, 0, 0, "no entry boots kernel %s", campaign_mode_kernel(c, c->boots[k].mode));
	} else if (r == 0) {
		r = bls_default_entry(io, &entries, &def, &rule);
	}
	if (r < 0) {
		campaign_say(c, CAMPAIGN_ERROR, "boot %zu %s: cannot find the default boot entry: %s", k + 1,
		    c->boots[k].label, err.message ? err.message : strerror(-r));
		goto out;
	}
	r = bls_entry_edit(entries.entries[def].text, c->managed, c->plan.modes[c->boots[k].mode].args,
			   &text, &err);
	if (r < 0) {
		campaign_say(c, CAMPAIGN_ERROR, "boot %zu %s: cannot edit %s: %s", k + 1, c->boots[k].label,
		    entries.entries[def].path, err.message ? err.message : strerror(-r));
		goto out;
	}
	path = xasprintf("%s/%s", entries.entries[def].dir, ONESHOT_ENTRY);
	r = io->write_file(io, path, text, strlen(text), 0644);
	if (r < 0) {
		campaign_say(c, CAMPAIGN_ERROR, "boot %zu %s: cannot write %s: %s", k + 1, c->boots[k].label, path,
		    strerror(-r));
		goto out;
	}
	options = bls_entry_options(text);
	campaign_progress(c, k, "one-shot entry %s (from %s): %s", path, entries.entries[def].name, options);
	free(c->oneshot_path);
	c->oneshot_path = xstrdup(path);
out:
	free(options);
	free(path);
	free(text);
	free(rule);
	bls_entries_release(&entries);
	parse_error_release(&err);
	boot_io_free(io);
	return r;
}

int oneshot_arm(struct campaign *c, size_t k)
{
	struct boot_io *io;
	struct parse_error err = PARSE_ERROR_INIT;
	int r;

	if (!c->oneshot_grubby)
		return 0;
	io = boot_io_target_new(c->target);
	r = grubby_oneshot_next(io, GRUBBY_ONESHOT_ID, &err);
	if (r < 0)
		campaign_say(c, CAMPAIGN_ERROR, "boot %zu %s: cannot name the one-shot entry for the next boot: %s%s%s",
			     k + 1, c->boots[k].label, err.file ? err.file : "", err.file ? ": " : "",
			     err.message ? err.message : strerror(-r));
	else
		campaign_progress(c, k, "grub2-reboot %s: next_entry in %s", GRUBBY_ONESHOT_ID, GRUB2_ENV);
	parse_error_release(&err);
	boot_io_free(io);
	return r;
}

/* Removes one entry file; gone already is as good (one script, no look first). */
static void remove_entry(struct campaign *c, struct boot_io *io, const char *path)
{
	int r = io->remove_file(io, path);

	if (r < 0 && r != -ENOENT)
		campaign_say(c, CAMPAIGN_WARNING, "cannot remove %s, ignoring", path);
}

/* The one-shot entry has served once it booted (or failed to): remove it. */
void oneshot_remove_entry(struct campaign *c)
{
	struct boot_io *io = boot_io_target_new(c->target);

	if (c->oneshot_grub) {
		if (grub_oneshot_remove(io) < 0)
			campaign_say(c, CAMPAIGN_WARNING, "cannot remove %s, ignoring", GRUB_ONESHOT_FILE);
		boot_io_free(io);
		return;
	}
	/* A reboot that never happened leaves next_entry naming an entry that is
	 * about to go: GRUB would then boot its first entry, not the standing one. */
	if (c->oneshot_grubby && grubby_oneshot_clear(io, GRUBBY_ONESHOT_ID) < 0)
		campaign_say(c, CAMPAIGN_WARNING, "cannot unset next_entry in %s, ignoring", GRUB2_ENV);
	/* The entry this run wrote; one a resume does not know of may be in any entries directory. */
	if (c->oneshot_path) {
		remove_entry(c, io, c->oneshot_path);
	} else {
		for (size_t i = 0; bls_entry_dirs[i]; i++) {
			char *path = xasprintf("%s/%s", bls_entry_dirs[i], ONESHOT_ENTRY);

			remove_entry(c, io, path);
			free(path);
		}
	}
	free(c->oneshot_path);
	c->oneshot_path = NULL;
	boot_io_free(io);
}

/*
 * One-shot boots need systemd-boot's entries and efivarfs on the target,
 * a Debian grub.cfg that honours next_entry and sources custom.cfg, or,
 * on a grubby box, grub2-reboot and a grub.cfg that reads the BLS entries
 * and honours next_entry.
 */
int oneshot_decide(struct campaign *c, struct boot_io *io)
{
	const struct boot_backend *backend = NULL;
	char *found = NULL, *why = NULL;
	bool usable = false, grub = false, grubby = false;

	if (c->plan.oneshot == ONESHOT_OFF)
		return 0;
	if (strcmp(c->plan.backend, "auto"))
		backend = boot_backend_find(c->plan.backend);
	else
		boot_backend_detect(io, &backend, &found);
	if (backend && !strcmp(backend->name, "bls") &&
	    io->exists(io, "/sys/firmware/efi/efivars") == 1)
		usable = true;
	if (backend && !strcmp(backend->name, "grub")) {
		grub = usable = grub_oneshot_usable(io, &why) == 1;
	}
	if (backend && !strcmp(backend->name, "grubby"))
		grubby = usable = grubby_oneshot_usable(io, &why) == 1;
	free(found);
	if (!usable && c->plan.oneshot == ONESHOT_ON) {
		if (why)
			campaign_say(c, CAMPAIGN_ERROR, "oneshot = on, but GRUB on the target cannot boot an entry once: %s", why);
		else
			campaign_say(c, CAMPAIGN_ERROR, "oneshot = on, but the target does not boot through systemd-boot entries with efivarfs mounted, nor through a Debian grub.cfg with next_entry");
		free(why);
		return -EOPNOTSUPP;
	}
	c->oneshot = usable;
	c->oneshot_grub = grub;
	c->oneshot_grubby = grubby;
	if (grubby)
		campaign_say(c, CAMPAIGN_INFO, "test modes boot one-shot (GRUB next_entry: grub2-reboot %s, the entry %s in the BLS entries); the standing entries keep the first mode", GRUBBY_ONESHOT_ID, ONESHOT_ENTRY);
	else if (grub)
		campaign_say(c, CAMPAIGN_INFO, "test modes boot one-shot (GRUB next_entry: grub-reboot %s, an entry in %s); the standing entries keep the first mode", GRUB_ONESHOT_ID, GRUB_ONESHOT_FILE);
	else
		campaign_say(c, CAMPAIGN_INFO, "test modes boot %s%s%s%s", usable ? "one-shot (systemd-boot LoaderEntryOneShot); the standing entries keep the first mode" : "persistently (no one-shot boots on this target",
			     why ? ": " : "", why ? why : "", usable ? "" : ")");
	free(why);
	return 0;
}
