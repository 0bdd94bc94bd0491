/*
 * A side's meta.json read into the side, bounded and checked field by
 * field (docs/results-format.md), each field that cannot be used a
 * warning; meta.txt where there is no meta.json, and kernel-config.
 */
#include "results/side.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "kernel/cmdline.h"
#include "kernel/proof.h"
#include "kernel/snapshot.h"
#include "lib/alloc.h"
#include "lib/escape.h"
#include "lib/file.h"
#include "lib/parse-error.h"
#include "lib/strbuf.h"
#include "lib/timestamp.h"
#include "results/side-internal.h"

/* A version is printed in reports: printable, one line, not a novel. */
static bool version_value_valid(const char *value)
{
	if (strlen(value) > 1024)
		return false;
	for (const char *p = value; *p; p++)
		if (!isprint((unsigned char)*p))
			return false;
	return true;
}

static int load_meta_metrics(const char *file, size_t ri, json_t *jmetrics, struct row *row,
			     struct strlist *warnings)
{
	struct metric_set set = METRIC_SET_INIT;
	size_t mi;
	json_t *jm;

	if (!json_is_array(jmetrics)) {
		strlist_addf(warnings, "%s: rows[%zu].metrics: not an array: row '%s' cannot be read", file, ri, row->name);
		return -EINVAL;
	}
	json_array_foreach(jmetrics, mi, jm) {
		const char *name = json_string_value(json_object_get(jm, "name"));
		const char *better = json_string_value(json_object_get(jm, "better"));
		const char *unit = json_string_value(json_object_get(jm, "unit"));
		json_t *samples = json_object_get(jm, "samples"), *js;
		enum metric_better b = BETTER_HIGHER;
		size_t si;

		if (!name || !metric_text_valid(name, false)) {
			strlist_addf(warnings, "%s: rows[%zu].metrics[%zu].name: missing, or not UTF-8 text of at most %d bytes without control characters: row '%s' cannot be read",
				     file, ri, mi, METRIC_NAME_MAX, row->name);
			goto fail;
		}
		if (unit && !metric_text_valid(unit, true)) {
			strlist_addf(warnings, "%s: rows[%zu].metrics[%zu].unit: not UTF-8 text of at most %d bytes without control characters: row '%s' cannot be read",
				     file, ri, mi, METRIC_NAME_MAX, row->name);
			goto fail;
		}
		if (better && !strcmp(better, "lower"))
			b = BETTER_LOWER;
		else if (better && strcmp(better, "higher")) {
			strlist_addf(warnings, "%s: rows[%zu].metrics[%zu].better: '%s' is not 'higher' or 'lower': row '%s' cannot be read",
				     file, ri, mi, better, row->name);
			goto fail;
		}
		if (!json_is_array(samples) || json_array_size(samples) == 0) {
			strlist_addf(warnings, "%s: rows[%zu].metrics[%zu].samples: missing or empty: row '%s' cannot be read",
				     file, ri, mi, row->name);
			goto fail;
		}
		json_array_foreach(samples, si, js) {
			double v = json_number_value(js);

			if (!json_is_number(js) || !isfinite(v)) {
				strlist_addf(warnings, "%s: rows[%zu].metrics[%zu].samples[%zu]: not a number: row '%s' cannot be read",
					     file, ri, mi, si, row->name);
				goto fail;
			}
			if (!metric_sample_valid(v)) {
				strlist_addf(warnings, "%s: rows[%zu].metrics[%zu].samples[%zu]: %g is beyond what bootab computes with (|x| <= %g): row '%s' cannot be read",
					     file, ri, mi, si, v, METRIC_SAMPLE_MAX, row->name);
				goto fail;
			}
			metric_set_add_sample(&set, name, b, unit, v);
		}
		/* A perf counter of the row's command (docs/results-format.md, "Counters"). */
		if (json_is_string(json_object_get(jm, "counter")))
			metric_set_find(&set, name)->counter =
				!strcmp(json_string_value(json_object_get(jm, "counter")), "rapl") ? "rapl" : "perf";
	}
	metric_set_merge(&row->metrics, &set);
	metric_set_release(&set);
	return 0;
fail:
	metric_set_release(&set);
	return -EINVAL;
}

/* A test suite's checks: {"passed": N, ..., "failures": ["suite.test", ...]}. */
static void load_meta_checks(const char *file, size_t ri, json_t *jc, struct row *row, struct strlist *warnings)
{
	struct metric_set set = METRIC_SET_INIT;
	json_t *failures = json_object_get(jc, "failures"), *jf;
	size_t i;

	if (!json_is_object(jc) || (failures && !json_is_array(failures))) {
		strlist_addf(warnings, "%s: rows[%zu].checks: not an object with a failures list, ignoring them", file, ri);
		return;
	}
	for (size_t o = 0; o < CHECK_OUTCOMES; o++) {
		json_t *n = json_object_get(jc, check_outcome_name((enum check_outcome)o));

		if (o == CHECK_FAILED)
			continue;
		if (n && (!json_is_integer(n) || json_integer_value(n) < 0 || json_integer_value(n) > 100000000)) {
			strlist_addf(warnings, "%s: rows[%zu].checks.%s: not a count, ignoring the checks", file, ri,
				     check_outcome_name((enum check_outcome)o));
			metric_set_release(&set);
			return;
		}
		set.checks[o] = n ? (size_t)json_integer_value(n) : 0;
	}
	set.has_checks = true;
	json_array_foreach(failures, i, jf) {
		const char *name = json_string_value(jf);

		if (!name || !side_name_valid(name)) {
			strlist_addf(warnings, "%s: rows[%zu].checks.failures[%zu]: not a printable name, ignoring the checks",
				     file, ri, i);
			metric_set_release(&set);
			return;
		}
		metric_set_add_check(&set, CHECK_FAILED, name);
	}
	metric_set_merge_checks(&row->metrics, &set);
	metric_set_release(&set);
}

/*
 * A reboot or an idle wait of meta.json: at most a year, so sums and means
 * over many sides stay finite (1e308 twice was "reboots at infs").
 */
#define SIDE_SECONDS_MAX (366.0 * 86400)

static bool seconds_valid(double s)
{
	return s >= 0 && s <= SIDE_SECONDS_MAX;
}

/* Rep durations and the idle wait: what `bootab plan --from` costs a rep and a boot at. */
static void load_meta_times(const char *file, size_t ri, json_t *jr, struct row *row,
			    struct strlist *warnings)
{
	json_t *reps = json_object_get(jr, "reps"), *rep;
	json_t *idle = json_object_get(jr, "idle_wait_s");
	size_t i;

	if (json_is_number(idle) && seconds_valid(json_number_value(idle))) {
		row->has_idle_wait = true;
		row->idle_wait_s = json_number_value(idle);
	} else if (idle && !json_is_null(idle)) {
		strlist_addf(warnings, "%s: rows[%zu].idle_wait_s: not a number of seconds from 0 to %.0f, ignoring it", file,
			     ri, SIDE_SECONDS_MAX);
	}
	if (!json_is_array(reps))
		return;
	row->rep_s = xcalloc(json_array_size(reps) ? json_array_size(reps) : 1, sizeof(*row->rep_s));
	json_array_foreach(reps, i, rep) {
		json_t *js = json_object_get(rep, "start"), *je = json_object_get(rep, "end");
		double start, end;

		if (!js && !je)
			continue;
		if (timestamp_parse_rfc3339(json_string_value(js), &start) < 0 ||
		    timestamp_parse_rfc3339(json_string_value(je), &end) < 0 || end < start) {
			strlist_addf(warnings, "%s: rows[%zu].reps[%zu]: start/end are not RFC 3339 times in order, ignoring them",
				     file, ri, i);
			continue;
		}
		row->rep_s[row->n_rep_s++] = end - start;
	}
}

static void load_meta_rows(const char *file, json_t *jrows, struct side *side,
			   struct strlist *warnings)
{
	size_t ri;
	json_t *jr;

	if (!json_is_array(jrows)) {
		strlist_addf(warnings, "%s: rows: not an array, ignoring", file);
		return;
	}
	json_array_foreach(jrows, ri, jr) {
		const char *name = json_string_value(json_object_get(jr, "name"));
		const char *kind = json_string_value(json_object_get(jr, "kind"));
		const char *stat = json_string_value(json_object_get(jr, "stat"));
		json_t *rc = json_object_get(jr, "rc");
		json_t *metrics = json_object_get(jr, "metrics");
		struct row *row;

		if (!name || !side_name_valid(name)) {
			strlist_addf(warnings, "%s: rows[%zu].name: missing or not a printable string: the row cannot be read",
				     file, ri);
			side->unreadable_rows++;
			continue;
		}
		if (side_find_row(side, name)) {
			strlist_addf(warnings, "%s: rows[%zu]: row '%s' appears twice, ignoring the second",
				     file, ri, name);
			continue;
		}
		if (kind && strcmp(kind, "bench") && strcmp(kind, "check")) {
			strlist_addf(warnings, "%s: rows[%zu].kind: '%s' is not 'bench' or 'check': row '%s' cannot be read",
				     file, ri, kind, name);
			side->unreadable_rows++;
			continue;
		}
		row = side_add_row(side, name, file);
		row->kind = kind && !strcmp(kind, "check") ? ROW_CHECK : ROW_BENCH;
		if (json_is_integer(rc)) {
			row->has_rc = true;
			row->rc = (int)json_integer_value(rc);
		} else if (rc && !json_is_null(rc)) {
			strlist_addf(warnings, "%s: rows[%zu].rc: not an integer, ignoring it", file, ri);
		}
		row->by_run = json_is_true(json_object_get(jr, "by_run"));
		if (stat) {
			if (stat_kind_from_name(stat, &row->stat) == 0)
				row->has_stat = true;
			else
				strlist_addf(warnings, "%s: rows[%zu].stat: unknown statistic '%s', using the default",
					     file, ri, stat);
		}
		if (json_is_array(json_object_get(jr, "stats")) && row->has_stat) {
			json_t *js;
			size_t si;

			json_array_foreach(json_object_get(jr, "stats"), si, js) {
				enum stat_kind k;
				bool seen = false;

				if (!json_is_string(js) || stat_kind_from_name(json_string_value(js), &k) < 0) {
					strlist_addf(warnings, "%s: rows[%zu].stats[%zu]: not a statistic, ignoring it", file, ri, si);
					continue;
				}
				for (size_t j = 0; j < row->n_stats; j++)
					seen |= row->stats[j] == k;
				if (!seen && row->n_stats < STAT_KINDS)
					row->stats[row->n_stats++] = k;
			}
			/* stat is the first of them, whatever the list's order. */
			if (row->n_stats && row->stats[0] != row->stat) {
				for (size_t j = 1; j < row->n_stats; j++)
					if (row->stats[j] == row->stat) {
						row->stats[j] = row->stats[0];
						break;
					}
				row->stats[0] = row->stat;
			}
		}
		if (metrics && load_meta_metrics(file, ri, metrics, row, warnings) < 0) {
			metric_set_release(&row->metrics);
			side->unreadable_rows++;
		}
		if (json_object_get(jr, "checks"))
			load_meta_checks(file, ri, json_object_get(jr, "checks"), row, warnings);
		load_meta_times(file, ri, jr, row, warnings);
	}
}

/* What says which boot and machine this was, and how long its reboot took. */
/* A printable string of at most max bytes from o.key (NULL and no warning when absent or null). */
static char *meta_string(const char *file, json_t *o, const char *key, size_t max, bool hex,
			 struct strlist *warnings)
{
	json_t *v = json_object_get(o, key);
	const char *s = json_string_value(v);
	bool ok = s && *s && strlen(s) <= max;

	for (const char *p = s; ok && *p; p++)
		ok = hex ? isxdigit((unsigned char)*p) : isprint((unsigned char)*p);
	if (ok)
		return xstrdup(s);
	if (v && !json_is_null(v))
		strlist_addf(warnings, "%s: %s: not %s, ignoring it", file, key,
			     hex ? "a hexadecimal id" : "a printable string");
	return NULL;
}

static void load_meta_kernel(const char *file, json_t *root, struct side_kernel *k, struct strlist *warnings)
{
	json_t *package = json_object_get(root, "kernel_package"), *config = json_object_get(root, "kernel_config");

	k->release = meta_string(file, root, "kernel", 128, false, warnings);
	k->version = meta_string(file, root, "kernel_version", 256, false, warnings);
	k->build_id = meta_string(file, root, "kernel_build_id", 128, true, warnings);
	if (json_is_object(package))
		k->package = meta_string(file, package, "name", 256, false, warnings);
	if (json_is_object(config))
		k->config_sha256 = meta_string(file, config, "sha256", 64, true, warnings);
}

/* meta.json's "proof": {"level", "args": [{"arg", "level"}]} (docs/results-format.md). */
static void load_meta_proof(const char *file, const json_t *proof, struct side *side, struct strlist *warnings)
{
	struct strbuf weak = STRBUF_INIT;
	enum proof_level level;
	const json_t *arg;
	size_t i;

	if (!proof || json_is_null(json_object_get(proof, "level")))
		return;
	if (!json_is_object(proof) ||
	    proof_level_parse(json_string_value(json_object_get(proof, "level")), &level) < 0) {
		strlist_addf(warnings, "%s: proof: not a proof level, ignoring it", file);
		return;
	}
	json_array_foreach(json_object_get(proof, "args"), i, arg) {
		const char *a = json_string_value(json_object_get(arg, "arg"));
		enum proof_level l;
		char *reason = NULL;

		if (!a || cmdline_arg_valid(a, &reason) < 0 ||
		    proof_level_parse(json_string_value(json_object_get(arg, "level")), &l) < 0) {
			free(reason);
			strlist_addf(warnings, "%s: proof.args[%zu]: not an arg and a level, ignoring it", file, i);
			continue;
		}
		if (l != PROOF_PROVEN)
			strbuf_addf(&weak, "%s%s %s", weak.len ? ", " : "", a, proof_level_name(l));
	}
	free(side->proof);
	free(side->proof_weak);
	side->proof = xstrdup(proof_level_name(level));
	side->proof_weak = weak.len ? strbuf_detach(&weak, NULL) : NULL;
	strbuf_release(&weak);
}

static void load_meta_boot(const char *file, json_t *root, struct side *side, struct strlist *warnings)
{
	json_t *round = json_object_get(root, "round"), *reboot = json_object_get(root, "reboot_s");
	static const char *const ids[] = { "machine_id", "boot_id" };

	if (json_is_integer(round) && json_integer_value(round) >= 1 && json_integer_value(round) <= 100000)
		side->round = (unsigned)json_integer_value(round);
	else if (round && !json_is_null(round))
		strlist_addf(warnings, "%s: round: not a positive integer, ignoring it", file);
	if (json_is_number(reboot) && seconds_valid(json_number_value(reboot))) {
		side->has_reboot = true;
		side->reboot_s = json_number_value(reboot);
	} else if (reboot && !json_is_null(reboot)) {
		strlist_addf(warnings, "%s: reboot_s: not a number of seconds from 0 to %.0f, ignoring it", file, SIDE_SECONDS_MAX);
	}
	{
		json_t *method = json_object_get(root, "boot_method");
		const char *m = json_string_value(method);

		if (m && (!strcmp(m, "kexec") || !strcmp(m, "reboot")))
			side->kexec = !strcmp(m, "kexec");
		else if (method && !json_is_null(method))
			strlist_addf(warnings, "%s: boot_method: neither \"reboot\" nor \"kexec\", ignoring it", file);
	}
	for (size_t i = 0; i < 2; i++) {
		json_t *v = json_object_get(root, ids[i]);
		char **dst = i == 0 ? &side->machine_id : &side->boot_id;
		const char *s = json_string_value(v);
		bool ok = s && *s && strlen(s) <= 64;

		/* /etc/machine-id and boot_id are hex, boot_id with dashes; they name files. */
		for (const char *p = s; ok && *p; p++)
			ok = isxdigit((unsigned char)*p) || *p == '-';
		if (ok)
			*dst = xstrdup(s);
		else if (v && !json_is_null(v))
			strlist_addf(warnings, "%s: %s: not a hexadecimal id, ignoring it", file, ids[i]);
	}
}

/* What describes the boot besides its kernel: the command line, the IOMMU group types, the load. */
static void load_meta_boot_words(const char *file, json_t *root, struct side *side, struct strlist *warnings)
{
	json_t *iommu = json_object_get(root, "iommu");

	free(side->cmdline);
	side->cmdline = meta_string(file, root, "cmdline", 4096, false, warnings);
	free(side->iommu_summary);
	side->iommu_summary = json_is_object(iommu) ? meta_string(file, iommu, "summary", 1024, false, warnings) : NULL;
	free(side->load);
	side->load = meta_string(file, root, "loadavg", 256, false, warnings);
}

/* The most of a prepare command a report names, bytes. */
#define SIDE_PREPARE_COMMAND_MAX 4096

/*
 * meta.json's "prepare": [{"command", "rc", "output"}], the plan's
 * [prepare] as it ran on this boot. A command that is no string, or an rc
 * that is no exit code, is a warning and that command is left out; the
 * output stays in meta.json (reports name the commands and their codes).
 */
static void load_meta_prepare(const char *file, json_t *root, struct side *side, struct strlist *warnings)
{
	json_t *all = json_object_get(root, "prepare"), *one;
	size_t i;

	for (i = 0; i < side->n_prepare; i++)
		free(side->prepare[i].command);
	free(side->prepare);
	side->prepare = NULL;
	side->n_prepare = 0;
	if (!all || json_is_null(all))
		return;
	if (!json_is_array(all)) {
		strlist_addf(warnings, "%s: prepare: not an array, ignoring it", file);
		return;
	}
	side->prepare = xcalloc(json_array_size(all) + 1, sizeof(*side->prepare));
	json_array_foreach(all, i, one) {
		const char *command = json_string_value(json_object_get(one, "command"));
		json_t *rc = json_object_get(one, "rc");
		struct strbuf sb = STRBUF_INIT;

		if (!command || !*command || strlen(command) > SIDE_PREPARE_COMMAND_MAX) {
			strlist_addf(warnings, "%s: prepare[%zu].command: not a string of 1 to %d bytes, ignoring that command",
				     file, i, SIDE_PREPARE_COMMAND_MAX);
			continue;
		}
		if (!json_is_integer(rc) || json_integer_value(rc) < 0 || json_integer_value(rc) > 255) {
			strlist_addf(warnings, "%s: prepare[%zu].rc: not an exit code from 0 to 255, ignoring that command",
				     file, i);
			continue;
		}
		text_escape_append(&sb, command, strlen(command), TEXT_ESCAPE_NEWLINE, NULL);
		side->prepare[side->n_prepare].command = strbuf_detach(&sb, NULL);
		side->prepare[side->n_prepare++].rc = (int)json_integer_value(rc);
	}
}

void side_meta_parse(const char *file, const char *data, size_t len, struct side *side,
		     struct strlist *warnings)
{
	json_error_t jerr;
	json_t *root;

	root = json_loadb(data, len, JSON_REJECT_DUPLICATES, &jerr);
	if (!root) {
		strlist_addf(warnings, "%s:%d:%d: %s, ignoring the file", file, jerr.line, jerr.column,
			     jerr.text);
		free(side->meta_problem);
		side->meta_problem = xasprintf("meta.json: line %d: %s", jerr.line, jerr.text);
		return;
	}
	if (!json_is_object(root)) {
		strlist_addf(warnings, "%s: not a JSON object, ignoring the file", file);
		free(side->meta_problem);
		side->meta_problem = xasprintf("meta.json: line %d: not an object", jerr.line);
	} else {
		side_meta_apply(file, root, side, warnings);
	}
	json_decref(root);
}

void side_meta_apply(const char *file, json_t *root, struct side *side, struct strlist *warnings)
{
	json_t *mode, *versions, *v;
	const char *key;

	/* The document itself, for what reads more of it than the numbers (the HTML page). */
	json_decref(side->meta);
	side->meta = json_incref(root);
	mode = json_object_get(root, "mode");
	if (json_is_string(mode) && side_name_valid(json_string_value(mode))) {
		free(side->mode);
		side->mode = xstrdup(json_string_value(mode));
		side->mode_recorded = true;
	} else if (mode) {
		strlist_addf(warnings, "%s: mode: not a printable string, using '%s'", file,
			     side->mode ? side->mode : "");
	}
	load_meta_boot(file, root, side, warnings);
	load_meta_boot_words(file, root, side, warnings);
	load_meta_prepare(file, root, side, warnings);
	load_meta_kernel(file, root, &side->kernel, warnings);
	load_meta_proof(file, json_object_get(root, "proof"), side, warnings);
	versions = json_object_get(root, "versions");
	if (json_is_object(versions)) {
		json_object_foreach(versions, key, v) {
			if (!side_name_valid(key)) {
				strlist_addf(warnings, "%s: versions: a name is not a printable string, ignoring it",
					     file);
				continue;
			}
			if (!json_is_string(v) || !version_value_valid(json_string_value(v))) {
				strlist_addf(warnings, "%s: versions.%s: not a printable string, ignoring", file,
					     key);
				continue;
			}
			GROW(side->versions, side->alloc_versions, side->n_versions + 1);
			side->versions[side->n_versions].name = xstrdup(key);
			side->versions[side->n_versions].value = xstrdup(json_string_value(v));
			side->n_versions++;
		}
	} else if (versions) {
		strlist_addf(warnings, "%s: versions: not an object, ignoring", file);
	}
	if (json_object_get(root, "rows"))
		load_meta_rows(file, json_object_get(root, "rows"), side, warnings);
	{
		struct parse_error err = PARSE_ERROR_INIT;
		struct inventory inv;

		if (inventory_from_json(root, &inv, &err) == 0) {
			inventory_release(&side->inventory);
			side->inventory = inv;
		} else {
			strlist_addf(warnings, "%s: %s, ignoring the device inventory and kernel log", file,
				     err.message ? err.message : "bad inventory");
		}
		parse_error_release(&err);
	}
}

/* kernel-config: CONFIG_NAME=VALUE lines as side-write wrote them; anything else is a warning. */
static void load_kernel_config(const char *dir, struct side_kernel *k, struct strlist *warnings)
{
	char *file = path_join(dir, "kernel-config"), *data = NULL;
	size_t len, n = 0, bad = 0;
	int r = file_read(file, FILE_READ_MAX, &data, &len);

	if (r == -ENOENT)
		goto out;
	if (r < 0 || strlen(data) != len) {
		strlist_addf(warnings, "%s: %s, ignoring", file, r < 0 ? strerror(-r) : "holds a NUL byte");
		goto out;
	}
	k->config = xcalloc(1, sizeof(char *));
	for (char *p = data; *p;) {
		char *end = strchr(p, '\n'), *eq;
		bool ok;

		if (end)
			*end = '\0';
		eq = strchr(p, '=');
		ok = !strncmp(p, "CONFIG_", 7) && eq && eq > p + 7 && strlen(eq) <= SNAPSHOT_CONFIG_VALUE_KEPT + 1;
		for (const char *c = p; ok && c < eq; c++)
			ok = isalnum((unsigned char)*c) || *c == '_';
		/* Values as snapshot_config_value() keeps them: printable UTF-8 ("café" too). */
		ok = ok && utf8_printable(eq, strlen(eq));
		if (ok) {
			k->config = xrealloc(k->config, (n + 2) * sizeof(char *));
			k->config[n++] = xstrdup(p);
			k->config[n] = NULL;
		} else if (*p) {
			bad++;
		}
		if (!end)
			break;
		p = end + 1;
	}
	k->n_config = n;
	if (bad)
		strlist_addf(warnings, "%s: %zu line%s not CONFIG_NAME=VALUE, ignoring them", file, bad,
			     bad == 1 ? " is" : "s are");
out:
	free(data);
	free(file);
}

/* Without meta.json, a meta.txt is the side's own bench script's (bootab writes both). */
static void load_meta_txt(const char *dir, struct side *side, struct strlist *warnings)
{
	char *file = path_join(dir, "meta.txt"), *data = NULL;
	size_t len;
	int r = file_read(file, FILE_READ_MAX, &data, &len);

	if (r < 0 && r != -ENOENT)
		strlist_addf(warnings, "%s: %s, ignoring", file, r == -EINVAL ? "not a regular file" : strerror(-r));
	else if (r == 0)
		side_meta_txt_parse(file, data, len, side, warnings);
	free(data);
	free(file);
}

void side_meta_load(const char *dir, struct side *side, struct strlist *warnings)
{
	char *file = path_join(dir, "meta.json"), *data = NULL;
	size_t len;
	int r;

	r = file_read(file, FILE_READ_MAX, &data, &len);
	if (r == -ENOENT) {
		load_meta_txt(dir, side, warnings);
		goto out;
	}
	if (r < 0) {
		strlist_addf(warnings, "%s: %s, ignoring", file,
			     r == -EINVAL ? "not a regular file" : strerror(-r));
		side->meta_problem = xasprintf("meta.json: %s", strerror(-r));
		goto out;
	}
	side_meta_parse(file, data, len, side, warnings);
	load_kernel_config(dir, &side->kernel, warnings);
out:
	free(data);
	free(file);
}

int side_meta_read(const char *path, char **ret_file, json_t **ret_meta, struct parse_error *err)
{
	char *file = path_is_dir(path) ? path_join(path, "meta.json") : xstrdup(path), *data = NULL;
	json_error_t jerr;
	json_t *meta;
	size_t len;
	int r;

	*ret_file = file;
	r = file_read(file, FILE_READ_MAX, &data, &len);
	if (r < 0)
		return r;
	meta = json_loadb(data, len, JSON_REJECT_DUPLICATES, &jerr);
	free(data);
	parse_error_set_file(err, file);
	if (!meta) {
		parse_error_set(err, jerr.line > 0 ? (unsigned)jerr.line : 0,
				jerr.column > 0 ? (unsigned)jerr.column : 0, "%s", jerr.text);
		return -EINVAL;
	}
	if (!json_is_object(meta)) {
		json_decref(meta);
		parse_error_set(err, 0, 0, "not a JSON object");
		return -EINVAL;
	}
	*ret_meta = meta;
	return 0;
}
