/*
 * The kernel of each mode: found among the kernels the boot loader lists
 * before anything on the box changes, booted by the backend (or the
 * one-shot entry made from that kernel's entry), proven by uname -r, and
 * the standing kernel made the default again at the end.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "boot/bls.h"
#include "boot/set.h"
#include "campaign/internal.h"
#include "campaign/progress.h"
#include "campaign/journal.h"
#include "lib/alloc.h"
#include "lib/parse-error.h"
#include "target/boot-io-target.h"

/* The release the box runs now, read through io. */
static char *running_release(struct boot_io *io)
{
	char *text = NULL;

	if (io->read_file(io, "/proc/sys/kernel/osrelease", &text, NULL) < 0)
		return NULL;
	text[strcspn(text, "\n")] = '\0';
	if (!*text || !plan_kernel_valid(text, &(const char *){ NULL }) || text[0] == '/') {
		free(text);
		return NULL;
	}
	return text;
}

/* The standing kernel as the journal recorded it when the campaign began, or NULL. */
static char *journal_standing(const struct campaign *c)
{
	struct journal j;
	char *found = NULL;

	if (journal_read(c->journal, &j, NULL) < 0)
		return NULL;
	for (size_t i = 0; i < j.n_lines && !found; i++)
		if (!strncmp(j.lines[i], JOURNAL_STANDING_KERNEL, strlen(JOURNAL_STANDING_KERNEL)) &&
		    plan_kernel_valid(j.lines[i] + strlen(JOURNAL_STANDING_KERNEL), &(const char *){ NULL }))
			found = xstrdup(j.lines[i] + strlen(JOURNAL_STANDING_KERNEL));
	journal_release(&j);
	return found;
}

int campaign_kernels_preflight(struct campaign *c, struct boot_io *io)
{
	const struct boot_backend *backend = NULL;
	struct boot_kernels kernels = BOOT_KERNELS_INIT;
	struct parse_error err = PARSE_ERROR_INIT;
	char *found = NULL, *list = NULL;
	bool wanted = plan_has_kernels(&c->plan);
	int r;

	c->mode_kernel = xcalloc(c->plan.n_modes + 1, sizeof(char *));
	c->mode_release = xcalloc(c->plan.n_modes + 1, sizeof(char *));
	r = boot_backend_resolve(io, c->plan.backend, &backend, &found, &err);
	if (r == 0)
		r = backend->kernels(io, &kernels, &err);
	if (r < 0) {
		if (wanted)
			campaign_say(c, CAMPAIGN_ERROR, "cannot list the kernels the box can boot: %s",
				     err.message ? err.message : strerror(-r));
		else
			r = 0;
		goto out;
	}
	list = boot_kernels_describe(&kernels);
	campaign_say(c, CAMPAIGN_INFO, "kernels installed (%s backend): %s", backend->name, list);
	if (!wanted)
		goto out;

	/* Recorded once: a resumed campaign may be running another mode's kernel now. */
	c->standing_kernel = journal_standing(c);
	if (!c->standing_kernel) {
		c->standing_kernel = running_release(io);
		if (!c->standing_kernel) {
			campaign_say(c, CAMPAIGN_ERROR, "cannot read the running kernel's release (/proc/sys/kernel/osrelease)");
			r = -EIO;
			goto out;
		}
		r = journal_appendf(c->journal, JOURNAL_STANDING_KERNEL "%s", c->standing_kernel);
		if (r < 0) {
			campaign_say(c, CAMPAIGN_ERROR, "cannot write the journal %s: %s", c->journal, strerror(-r));
			goto out;
		}
	}
	for (size_t i = 0; i < c->plan.n_modes; i++) {
		const struct plan_mode *m = &c->plan.modes[i];
		const char *spec = m->kernel ? m->kernel : c->standing_kernel;
		const struct boot_kernel *k = boot_kernels_find(&kernels, spec);

		if (!k) {
			campaign_say(c, CAMPAIGN_ERROR, "mode %s: kernel %s is not installed%s; the %s boot loader boots %s",
				     m->name, spec, m->kernel ? "" : " (the standing kernel)", backend->name, list);
			r = -ENOENT;
			continue;
		}
		if (!k->release) {
			campaign_say(c, CAMPAIGN_ERROR, "mode %s: kernel %s: neither its entry nor its file name says which release it is, so its boot cannot be proven",
				     m->name, spec);
			r = -ENOENT;
			continue;
		}
		c->mode_kernel[i] = xstrdup(spec);
		c->mode_release[i] = xstrdup(k->release);
	}
	if (r < 0) {
		campaign_say(c, CAMPAIGN_ERROR, "nothing on the box was changed");
		goto out;
	}
	campaign_say(c, CAMPAIGN_INFO, "standing kernel %s; every mode's kernel is installed", c->standing_kernel);
out:
	free(list);
	free(found);
	boot_kernels_release(&kernels);
	parse_error_release(&err);
	return r;
}

const char *campaign_mode_kernel(const struct campaign *c, size_t mode)
{
	return c->mode_kernel ? c->mode_kernel[mode] : NULL;
}

const char *campaign_mode_release(const struct campaign *c, size_t mode)
{
	return c->mode_release ? c->mode_release[mode] : NULL;
}

int campaign_kernel_entry(struct campaign *c, const struct bls_entries *entries, size_t mode,
			  size_t *ret_index)
{
	const char *spec = campaign_mode_kernel(c, mode);
	struct boot_io *io;

	if (!spec)
		return -ENOENT;
	io = boot_io_target_new(c->target);
	for (size_t i = 0; i < entries->n; i++) {
		char *release = NULL, *image = NULL, *initrd = NULL;
		bool match;

		if (!strcmp(entries->entries[i].name, BLS_ONESHOT_ENTRY) ||
		    bls_entry_kernel(io, &entries->entries[i], &release, &image, &initrd) < 0)
			continue;
		match = spec[0] == '/' ? !strcmp(image, spec) : release && !strcmp(release, spec);
		free(release);
		free(image);
		free(initrd);
		if (match) {
			*ret_index = i;
			boot_io_free(io);
			return 0;
		}
	}
	boot_io_free(io);
	return -ENOENT;
}

void campaign_kernel_restore(struct campaign *c)
{
	struct boot_io *io;
	struct boot_set_result res;
	struct parse_error err = PARSE_ERROR_INIT;
	const char *first = campaign_mode_release(c, 0);

	if (!c->standing_kernel || !first || !strcmp(first, c->standing_kernel))
		return;
	/* kexec made nothing persistent: the next reboot boots the standing
	 * kernel by itself, and a kernel loaded now would be what the next
	 * systemctl kexec (or a kexec-tools reboot) starts instead. */
	if (!strcmp(c->plan.backend, "kexec")) {
		campaign_say(c, CAMPAIGN_INFO, "kexec changed nothing persistent: the next reboot boots the standing kernel %s",
			     c->standing_kernel);
		return;
	}
	/* The first mode ran another kernel: the box boots its standing kernel
	 * again from now on, with the first mode's args. */
	io = boot_io_target_new(c->target);
	if (boot_set_kernel(io, c->plan.backend, c->managed, c->plan.modes[0].args, c->standing_kernel,
			    &res, &err) < 0) {
		campaign_say(c, CAMPAIGN_WARNING, "cannot make the standing kernel %s the default again: %s",
			     c->standing_kernel, err.message ? err.message : "failed");
	} else {
		if (res.problems[0])
			campaign_say(c, CAMPAIGN_WARNING, "standing kernel %s: %s", c->standing_kernel, res.problems[0]);
		else
			campaign_say(c, CAMPAIGN_INFO, "the standing kernel %s is the default again", c->standing_kernel);
		boot_set_result_release(&res);
	}
	parse_error_release(&err);
	boot_io_free(io);
}

void campaign_kernels_release(struct campaign *c)
{
	for (size_t i = 0; c->mode_kernel && i < c->plan.n_modes; i++) {
		free(c->mode_kernel[i]);
		free(c->mode_release[i]);
	}
	free(c->mode_kernel);
	free(c->mode_release);
	free(c->standing_kernel);
	c->mode_kernel = c->mode_release = NULL;
	c->standing_kernel = NULL;
}
