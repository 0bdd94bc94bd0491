/* bootab snapshot: record what the running boot is, as meta.json and meta.txt. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "campaign/output.h"
#include "kernel/cmdline.h"
#include "commands.h"
#include "kernel/iommu.h"
#include "lib/alloc.h"
#include "lib/file.h"
#include "lib/strbuf.h"
#include "lib/strvec.h"
#include "cli/log.h"
#include "kernel/snapshot.h"
#include "cli/target-args.h"
#include "target/target.h"
#include "kernel/verify.h"
#include "results/side.h"

static const char cmd_snapshot_usage[] =
	"usage: bootab snapshot [--target T] [--root DIR] [--managed \"ARGS\"]\n"
	"                       [--param MODULE.PARAM]... [-o DIR] [--json]\n"
	"\n"
	"Records the running boot: time, kernel release, /proc/cmdline, boot_id,\n"
	"IOMMU map and summary, IOMMU kernel-log lines and their count (evidence,\n"
	"not proof), CPU vulnerabilities, governor, temperatures, load, the\n"
	"module parameters named, and the device inventory costs are found from:\n"
	"PCI devices with their drivers, device nodes, network interfaces, the\n"
	"kernel's error and warning lines, failed systemd units.\n"
	"\n"
	"  --target T         local (default), an SSH destination, or lab\n"
	"  --root DIR         read sysfs and procfs under DIR (local target)\n"
	"  --connect-timeout S  ssh ConnectTimeout (default 5)\n"
	"  --managed \"ARGS\"   read the module parameters these args name (MODULE.PARAM=V)\n"
	"  --param MODULE.PARAM  read this module parameter (repeatable)\n"
	"  -o, --output DIR   write DIR/meta.json, meta.txt, iommu.txt, snapshot.out\n"
	"                     (the records) and scripts/snapshot.sh, kernel-id.sh,\n"
	"                     inventory.sh (the scripts as run, in that order)\n"
	"                     instead of printing meta.txt\n"
	"  --json             print meta.json instead of meta.txt\n";

static int write_file(const char *dir, const char *name, const char *data)
{
	char *path = path_join(dir, name);
	int r = file_write_atomic(path, data, strlen(data), 0644);

	if (r < 0)
		log_error("failed to write '%s': %s", path, errno_string(r));
	free(path);
	return r;
}

static bool param_word_valid(const char *s)
{
	const char *dot = strchr(s, '.');

	if (!dot || dot == s || !dot[1] || strchr(dot + 1, '.'))
		return false;
	for (const char *p = s; *p; p++)
		if (p != dot && !strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-", *p))
			return false;
	return true;
}

/* --managed ARGS: the snapshot words that read what each managed arg sets. */
static int take_managed(const char *arg, struct strvec *words)
{
	struct parse_error err = PARSE_ERROR_INIT;
	struct verify_args managed = { 0 };
	char **list = NULL;

	if (cmdline_args_parse(arg, &list, &err) < 0) {
		command_usage_error("snapshot", "--managed: %s", err.message);
		parse_error_release(&err);
		return -EINVAL;
	}
	parse_error_release(&err);
	verify_args_from_list(list, &managed);
	verify_snapshot_args(&managed, words);
	verify_args_release(&managed);
	strv_free(list);
	return 0;
}

/* --param MODULE.PARAM: the word that reads it, with '-' as '_' (as sysfs names it). */
static int take_param(const char *arg, struct strvec *words)
{
	if (!param_word_valid(arg)) {
		command_usage_error("snapshot", "--param '%s': write MODULE.PARAM", arg);
		return -EINVAL;
	}
	strvec_pushf(words, "param:%s", arg);
	for (char *p = words->v[words->n - 1]; *p; p++)
		if (*p == '-')
			*p = '_';
	return 0;
}

/* The same parameter asked twice is read once. */
static void words_dedup(struct strvec *words)
{
	for (size_t i = 0; i < words->n; i++) {
		for (size_t j = i + 1; j < words->n; j++) {
			if (!strcmp(words->v[i], words->v[j])) {
				/* The NULL after the last word moves down too. */
				free(words->v[j]);
				memmove(&words->v[j], &words->v[j + 1], (words->n - j) * sizeof(*words->v));
				words->n--;
				j--;
			}
		}
	}
}

/*
 * snapshot -o DIR: the scripts as they ran, the raw output, then the
 * side's own files (iommu.txt, meta.txt, then meta.json: its presence
 * says the snapshot is complete). Each failure is said.
 */
static int write_snapshot_dir(const struct target *t, const char *out_dir, const char *raw, const json_t *meta,
			      const char *text, const struct iommu_map *iommu)
{
	char *scripts = path_join(out_dir, "scripts"), *script, *failed = NULL;
	int r;

	r = dir_create_all(scripts, 0755);
	if (r < 0) {
		log_error("failed to create '%s': %s", scripts, errno_string(r));
		free(scripts);
		return r;
	}
	r = 0;
	for (size_t i = 0; r == 0 && target_snapshot_scripts[i]; i++) {
		char *name = xasprintf("%s.sh", target_snapshot_scripts[i]);

		script = target_script_render(t, target_snapshot_scripts[i]);
		r = write_file(scripts, name, script);
		free(script);
		free(name);
	}
	if (r == 0)
		r = write_file(out_dir, "snapshot.out", raw);
	if (r == 0) {
		r = side_write_meta(out_dir, meta, text, iommu, &failed);
		if (r < 0)
			log_error("failed to write '%s': %s", failed, errno_string(r));
	}
	free(failed);
	free(scripts);
	return r;
}

/* -o DIR: never into a campaign directory, whose sides hold meta.json files of their own. */
static int output_outside_campaigns(const char *dir)
{
	char *campaign = NULL;

	if (campaign_output_check(dir, true, NULL, NULL, &campaign) != -EPERM)
		return 0;
	log_error("-o %s: inside the campaign directory %s, where bootab writes only report.txt, report.md, report.json and report.html",
		  dir, campaign);
	free(campaign);
	return -EPERM;
}

static int cmd_snapshot(int argc, char **argv)
{
	enum { OPT_PARAM = 256 };
	static const struct option longopts[] = {
		TARGET_LONGOPT_TARGET,
		TARGET_LONGOPT_ROOT,
		{ "managed", required_argument, NULL, 'm' },
		{ "param", required_argument, NULL, OPT_PARAM },
		{ "output", required_argument, NULL, 'o' },
		{ "json", no_argument, NULL, 'j' },
		TARGET_LONGOPT_CONNECT_TIMEOUT,
		{ NULL, 0, NULL, 0 },
	};
	struct target_args to = TARGET_ARGS_INIT("snapshot", "local");
	const char *spec, *out_dir = NULL;
	struct strvec words = STRVEC_INIT;
	char *raw = NULL, *now = NULL, *text = NULL;
	json_t *meta = NULL;
	struct parse_error err = PARSE_ERROR_INIT;
	struct snapshot snap = { 0 };
	struct target *t = NULL;
	bool json = false;
	int c, r, rc = EXIT_USAGE;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":o:", longopts, NULL)) != -1) {
		r = target_args_take(&to, c, optarg);
		if (r < 0)
			goto out;
		if (r > 0)
			continue;
		switch (c) {
		case 'm':
			if (take_managed(optarg, &words) < 0)
				goto out;
			break;
		case OPT_PARAM:
			if (take_param(optarg, &words) < 0)
				goto out;
			break;
		case 'o':
			out_dir = optarg;
			break;
		case 'j':
			json = true;
			break;
		default:
			command_option_error("snapshot", c, argv);
			goto out;
		}
	}
	if (optind != argc) {
		command_usage_error("snapshot", "unexpected argument '%s'", argv[optind]);
		goto out;
	}
	words_dedup(&words);
	if (out_dir && output_outside_campaigns(out_dir) < 0)
		goto out;

	spec = to.spec;
	if (target_args_open(&to, &t) < 0)
		goto out;
	now = time_now_iso8601();
	r = target_snapshot(t, strvec_argv(&words), true, &snap, &raw, &err);
	if (r < 0) {
		if (r == -EINVAL) {
			char *msg = parse_error_format(&err);

			log_error("%s", msg);
			free(msg);
		} else {
			log_error("%s", target_error(t));
		}
		goto out;
	}
	r = snapshot_describe(&snap, getenv("BOOTAB_PCI_IDS"));
	if (r < 0)
		log_warning("cannot read pci.ids (%s): devices are named by number", errno_string(r));
	{
		struct snapshot_context ctx = { now, spec };

		meta = snapshot_to_json(&snap, &ctx);
		text = snapshot_to_text(&snap, &ctx);
	}
	if (!out_dir) {
		if (json) {
			char *json_text = side_meta_dump(meta);

			fputs(json_text, stdout);
			free(json_text);
		} else {
			fputs(text, stdout);
		}
		rc = EXIT_OK;
		goto out;
	}
	if (write_snapshot_dir(t, out_dir, raw, meta, text, &snap.iommu) < 0)
		goto out;
	{
		char *summary = iommu_map_summary(&snap.iommu);

		log_info("snapshot of %s in %s: kernel %s, iommu group types: %s", spec, out_dir,
			 snap.kernel, summary);
		free(summary);
	}
	rc = EXIT_OK;
out:
	target_close(t);
	parse_error_release(&err);
	snapshot_release(&snap);
	strvec_release(&words);
	free(raw);
	free(now);
	free(text);
	json_decref(meta);
	return rc;
}

const struct command cmd_snapshot_entry = {
	.name = "snapshot",
	.run = cmd_snapshot,
	.summary = "record what this boot is: meta.json and meta.txt",
	.usage = cmd_snapshot_usage,
};
