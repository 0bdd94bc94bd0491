#include "campaign/touch.h"

#include "campaign/internal.h"
#include "campaign/progress.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/proof.h"
#include "kernel/verify.h"
#include "lib/alloc.h"
#include "lib/file.h"
#include "target/boot-io-target.h"
#include "target/verify-boot.h"

int touch_snapshot(struct target *t, const struct plan *plan, bool with_kernel, const struct target_job *beside,
		   struct process_result *beside_ret, struct snapshot *ret, struct parse_error *err)
{
	/* verify_boot's snapshot, asked for every mode's args: it reads what their proofs need,
	 * all of it from snapshot.sh (the kernel's build and the devices are no proof's). */
	char **all = plan_managed_args(plan);
	const struct target_snapshot_options sysfs = {
		.sysfs_only = !with_kernel, .no_devices = with_kernel, .beside = beside, .beside_ret = beside_ret,
	};
	struct verify_boot_result res;
	int r = verify_boot(t, &(struct verify_boot_request){ .managed = all, .asked = all, .snapshot = &sysfs },
			    &res, err);

	if (r == 0) {
		*ret = res.snapshot;
		memset(&res.snapshot, 0, sizeof(res.snapshot));
	}
	verify_boot_result_release(&res);
	strv_free(all);
	return r;
}

static const char *verdict_word(enum touch_verdict v)
{
	return v == TOUCH_CHANGES ? "can change" : v == TOUCH_NOTHING ? "nothing" : "unknown";
}

void touch_map_format(const struct plan *plan, const struct snapshot *standing, struct strbuf *text,
		      struct strlist *warnings)
{
	struct strlist mine = STRLIST_INIT;

	strbuf_addf(text, "what each mode can change on this box, from its standing boot (boot_id %s, kernel %s):\n",
		    standing->boot_id, standing->kernel);
	for (size_t m = 0; m < plan->n_modes; m++) {
		const struct plan_mode *mode = &plan->modes[m];
		struct verify_args args;
		struct touch_map map = { 0 };

		verify_args_from_list(mode->args, &args);
		proof_touch(standing, &args, plan->watch, &map);
		if (map.n == 0)
			strbuf_addf(text, "  mode %-14s (no args: the standing kernel defaults)\n", mode->name);
		for (size_t i = 0; i < map.n; i++) {
			strbuf_addf(text, "  mode %-14s %s: %s: %s\n", mode->name, map.v[i].arg,
				    verdict_word(map.v[i].verdict), map.v[i].text);
			if (map.v[i].verdict == TOUCH_NOTHING)
				strlist_addf(&mine, "mode %s: %s can change nothing on this box: %s", mode->name,
					     map.v[i].arg, map.v[i].text);
		}
		touch_map_release(&map);
		verify_args_release(&args);
	}
	for (size_t i = 0; i < mine.n; i++) {
		strbuf_addf(text, "warning: %s\n", mine.items[i]);
		strlist_add(warnings, mine.items[i]);
	}
	strlist_release(&mine);
}

int touch_map_load(const char *campaign_dir, char **ret_text, struct strlist *warnings)
{
	char *path = path_join(campaign_dir, TOUCH_FILE), *data = NULL;
	size_t len;
	int r = file_read(path, 1 << 20, &data, &len);

	free(path);
	*ret_text = NULL;
	if (r == -ENOENT)
		return 0;
	if (r < 0)
		return r;
	/* bootab wrote it; still, no control character reaches a terminal from it. */
	for (char *p = data; *p; p++)
		if ((unsigned char)*p < 0x20 && *p != '\n')
			*p = '?';
		else if (*p == 0x7f)
			*p = '?';
	for (const char *p = data; *p;) {
		size_t n = strcspn(p, "\n");

		if (!strncmp(p, "warning: ", 9))
			strlist_addf(warnings, "%.*s", (int)(n - 9), p + 9);
		p += n + (p[n] == '\n');
	}
	*ret_text = data;
	return 0;
}

void campaign_touch_preflight(struct campaign *c, struct boot_io *io)
{
	struct target_job dump;
	struct process_result dumped = { 0 };
	struct parse_error err = PARSE_ERROR_INIT;
	struct strbuf text = STRBUF_INIT;
	struct strlist warnings = STRLIST_INIT;
	struct snapshot standing;
	char *path;
	int r;

	campaign_say(c, CAMPAIGN_INFO, "reading what each mode can change, from the standing boot");
	/* With the kernel's records (the standing kernel's config, read here,
	 * need not be read again on a boot of that build) and, at the same time,
	 * the dump of the boot loader's files for the one-shot check and the kernels. */
	boot_io_target_dump_job(&dump);
	r = touch_snapshot(c->target, &c->plan, true, &dump, &dumped, &standing, &err);
	boot_io_target_dump_take(io, &dumped);
	process_result_release(&dumped);
	if (r < 0) {
		campaign_say(c, CAMPAIGN_WARNING, "cannot read the standing boot for the touch map: %s, ignoring",
			     err.message ? err.message : target_error(c->target));
		parse_error_release(&err);
		return;
	}
	campaign_remember_config(c, &standing);
	touch_map_format(&c->plan, &standing, &text, &warnings);
	for (size_t i = 0; i < warnings.n; i++)
		campaign_say(c, CAMPAIGN_WARNING, "%s", warnings.items[i]);
	path = path_join(c->dir, TOUCH_FILE);
	r = file_write_atomic(path, text.buf, text.len, 0644);
	if (r < 0)
		campaign_say(c, CAMPAIGN_WARNING, "cannot write %s: %s, ignoring", path, strerror(-r));
	free(path);
	strlist_release(&warnings);
	strbuf_release(&text);
	snapshot_release(&standing);
	parse_error_release(&err);
}
