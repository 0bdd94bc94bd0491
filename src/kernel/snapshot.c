#include "kernel/snapshot.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "kernel/notes.h"
#include "lib/alloc.h"
#include "lib/escape.h"
#include "lib/parse-number.h"
#include "lib/strbuf.h"
#include "kernel/snapshot-parse.h"

bool boot_id_valid(const char *s)
{
	/* /proc/sys/kernel/random/boot_id: 8-4-4-4-12 lowercase hex digits. */
	if (strlen(s) != 36)
		return false;
	for (int i = 0; i < 36; i++) {
		if (i == 8 || i == 13 || i == 18 || i == 23) {
			if (s[i] != '-')
				return false;
		} else if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f'))) {
			return false;
		}
	}
	return true;
}

bool machine_id_valid(const char *s)
{
	/* machine-id(5): "a single newline-terminated, hexadecimal, 32-character, lowercase ID". */
	if (strlen(s) != 32)
		return false;
	for (int i = 0; i < 32; i++)
		if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
			return false;
	return true;
}


void snapshot_entries_add(struct snapshot_entries *e, const char *name, const char *value)
{
	GROW(e->v, e->alloc, e->n + 1);
	e->v[e->n++] = (struct snapshot_entry){ xstrdup(name), value ? xstrdup(value) : NULL };
}

const char *snapshot_entry_get(const struct snapshot_entries *entries, const char *name,
			       bool *ret_found)
{
	for (size_t i = 0; i < entries->n; i++) {
		if (!strcmp(entries->v[i].name, name)) {
			if (ret_found)
				*ret_found = true;
			return entries->v[i].value;
		}
	}
	if (ret_found)
		*ret_found = false;
	return NULL;
}

static void entries_release(struct snapshot_entries *e)
{
	for (size_t i = 0; i < e->n; i++) {
		free(e->v[i].name);
		free(e->v[i].value);
	}
	free(e->v);
	e->v = NULL;
	e->n = e->alloc = 0;
}

static void strv_release(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

void snapshot_release(struct snapshot *snap)
{
	if (!snap)
		return;
	free(snap->target_time);
	free(snap->boot_id);
	free(snap->kernel);
	free(snap->hostname);
	free(snap->machine_id);
	free(snap->cmdline);
	free(snap->loadavg);
	entries_release(&snap->governors);
	entries_release(&snap->vulnerabilities);
	entries_release(&snap->params);
	entries_release(&snap->files);
	inventory_release(&snap->inventory);
	free(snap->raw);
	entries_release(&snap->state);
	for (size_t i = 0; i < snap->n_thermal; i++) {
		free(snap->thermal[i].zone);
		free(snap->thermal[i].type);
	}
	free(snap->thermal);
	strv_release(snap->iommu_classes, snap->n_iommu_classes);
	iommu_map_release(&snap->iommu);
	strv_release(snap->log_lines, snap->n_log_lines);
	free(snap->kernel_version);
	free(snap->build_id);
	free(snap->config_source);
	free(snap->config_sha256);
	free(snap->package_manager);
	free(snap->package);
	entries_release(&snap->config);
	free(snap->config_read_on);
	strv_release(snap->evidence, snap->n_evidence);
	memset(snap, 0, sizeof(*snap));
}

int snapshot_config_memo_from(const struct snapshot *snap, struct snapshot_config_memo *ret)
{
	memset(ret, 0, sizeof(*ret));
	if (!snap->build_id || !snap->config_source || snap->config_read_on || !snap->boot_id || !snap->kernel)
		return -ENOENT;
	ret->boot_id = xstrdup(snap->boot_id);
	ret->kernel = xstrdup(snap->kernel);
	ret->build_id = xstrdup(snap->build_id);
	ret->source = xstrdup(snap->config_source);
	ret->sha256 = snap->config_sha256 ? xstrdup(snap->config_sha256) : NULL;
	for (size_t i = 0; i < snap->config.n; i++)
		snapshot_entries_add(&ret->config, snap->config.v[i].name, snap->config.v[i].value);
	return 0;
}

void snapshot_config_memo_release(struct snapshot_config_memo *memo)
{
	free(memo->boot_id);
	free(memo->kernel);
	free(memo->build_id);
	free(memo->source);
	free(memo->sha256);
	entries_release(&memo->config);
	memset(memo, 0, sizeof(*memo));
}

void snapshot_config_memo_records(const struct snapshot_config_memo *memo, struct strbuf *out)
{
	strbuf_addf(out, "kernel_config_reused\t%s\t%s\n", memo->boot_id, memo->build_id);
	strbuf_addf(out, "kernel_config\t%s\t%s\n", memo->source, memo->sha256 ? memo->sha256 : "-");
	for (size_t i = 0; i < memo->config.n; i++)
		strbuf_addf(out, "kconfig\t%s\t%s\n", memo->config.v[i].name,
			    memo->config.v[i].value ? memo->config.v[i].value : "");
}

const char *snapshot_log_source_name(enum snapshot_log_source source)
{
	switch (source) {
	case SNAPSHOT_LOG_JOURNALCTL:
		return "journalctl";
	case SNAPSHOT_LOG_DMESG:
		return "dmesg";
	case SNAPSHOT_LOG_FILE:
		return "file";
	case SNAPSHOT_LOG_SKIPPED:
		return "skipped";
	case SNAPSHOT_LOG_ABSENT:
		break;
	}
	return "absent";
}


int snapshot_describe(struct snapshot *snap, const char *ids_path)
{
	int r = iommu_map_describe(&snap->iommu, ids_path);
	int r2 = inventory_describe(&snap->inventory, ids_path);

	return r < 0 ? r : r2;
}

char *time_now_iso8601(void)
{
	time_t now = time(NULL);
	struct tm tm;
	char buf[64];
	size_t n;

	localtime_r(&now, &tm);
	n = strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%S%z", &tm);
	/* strftime's %z is +0300; ISO 8601 extended form wants +03:00. */
	if (n >= 5 && n + 1 < sizeof(buf)) {
		memmove(buf + n - 1, buf + n - 2, 3);
		buf[n - 2] = ':';
	}
	return xstrdup(buf);
}

static json_t *entries_json(const struct snapshot_entries *e)
{
	json_t *o = json_object();

	for (size_t i = 0; i < e->n; i++)
		json_object_set_new(o, e->v[i].name,
				    e->v[i].value ? json_string(e->v[i].value) : json_null());
	return o;
}

static json_t *nullable(const char *s)
{
	return s ? json_string(s) : json_null();
}

json_t *snapshot_to_json(const struct snapshot *snap, const struct snapshot_context *ctx)
{
	json_t *o = json_object(), *thermal = json_array(), *classes = json_array();
	json_t *lines = json_array(), *evidence = json_array();
	char *summary = iommu_map_summary(&snap->iommu);

	for (size_t i = 0; i < snap->n_thermal; i++) {
		const struct snapshot_thermal *t = &snap->thermal[i];

		json_array_append_new(thermal, json_pack("{s:s, s:o, s:o}", "zone", t->zone,
			"type", nullable(t->type),
			"celsius", t->has_temp ? json_real((double)t->millidegrees / 1000.0) : json_null()));
	}
	for (size_t i = 0; i < snap->n_iommu_classes; i++)
		json_array_append_new(classes, json_string(snap->iommu_classes[i]));
	for (size_t i = 0; i < snap->n_log_lines; i++)
		json_array_append_new(lines, json_string(snap->log_lines[i]));
	for (size_t i = 0; i < snap->n_evidence; i++)
		json_array_append_new(evidence, json_string(snap->evidence[i]));

	json_object_set_new(o, "bootab_snapshot", json_integer(1));
	json_object_set_new(o, "time", nullable(ctx ? ctx->time : NULL));
	json_object_set_new(o, "target", nullable(ctx ? ctx->target : NULL));
	json_object_set_new(o, "target_time", nullable(snap->target_time));
	json_object_set_new(o, "hostname", nullable(snap->hostname));
	json_object_set_new(o, "machine_id", nullable(snap->machine_id));
	json_object_set_new(o, "kernel", json_string(snap->kernel));
	json_object_set_new(o, "kernel_version", nullable(snap->kernel_version));
	json_object_set_new(o, "kernel_build_id", nullable(snap->build_id));
	json_object_set_new(o, "kernel_package", snap->package_manager
		? json_pack("{s:s, s:s}", "manager", snap->package_manager, "name", snap->package)
		: json_null());
	json_object_set_new(o, "kernel_config", snap->config_source
		? json_pack("{s:s, s:o, s:I}", "source", snap->config_source,
			    "sha256", nullable(snap->config_sha256), "options", (json_int_t)snap->config.n)
		: json_null());
	if (snap->config_read_on)
		json_object_set_new(json_object_get(o, "kernel_config"), "read_on_boot_id",
				    json_string(snap->config_read_on));
	json_object_set_new(o, "cmdline", json_string(snap->cmdline));
	json_object_set_new(o, "boot_id", json_string(snap->boot_id));
	json_object_set_new(o, "iommu", json_pack("{s:s, s:o, s:o}", "summary", summary,
		"classes", classes, "groups", iommu_map_to_json(&snap->iommu)));
	json_object_set_new(o, "iommu_log", json_pack("{s:s, s:o, s:o}",
		"source", snapshot_log_source_name(snap->log_source),
		"count", snap->log_source == SNAPSHOT_LOG_ABSENT ||
			 snap->log_source == SNAPSHOT_LOG_SKIPPED ? json_null()
								  : json_integer((json_int_t)snap->log_count),
		"lines", lines));
	json_object_set_new(o, "vulnerabilities", entries_json(&snap->vulnerabilities));
	json_object_set_new(o, "governors", entries_json(&snap->governors));
	json_object_set_new(o, "thermal", thermal);
	json_object_set_new(o, "loadavg", nullable(snap->loadavg));
	json_object_set_new(o, "module_parameters", entries_json(&snap->params));
	json_object_set_new(o, "files", entries_json(&snap->files));
	inventory_to_json(&snap->inventory, &snap->iommu, o);
	json_object_set_new(o, "kernel_state", entries_json(&snap->state));
	json_object_set_new(o, "kernel_log_evidence", evidence);
	free(summary);
	return o;
}

char *snapshot_to_text(const struct snapshot *snap, const struct snapshot_context *ctx)
{
	struct strbuf sb = STRBUF_INIT;
	char *summary = iommu_map_summary(&snap->iommu);
	size_t affected = 0;

	strbuf_addf(&sb, "%s\n", ctx && ctx->time ? ctx->time : "-");
	strbuf_addf(&sb, "%s\n", snap->kernel);
	strbuf_addf(&sb, "%s\n", snap->cmdline);
	strbuf_addf(&sb, "boot_id %s\n", snap->boot_id);
	if (snap->kernel_version)
		strbuf_addf(&sb, "kernel version %s\n", snap->kernel_version);
	if (snap->has_notes)
		strbuf_addf(&sb, "kernel build id %s\n", snap->build_id ? snap->build_id : "(none in /sys/kernel/notes)");
	if (snap->config_source)
		strbuf_addf(&sb, "kernel config %s sha256 %s (%zu options set)\n", snap->config_source,
			    snap->config_sha256 ? snap->config_sha256 : "-", snap->config.n);
	if (snap->config_read_on)
		strbuf_addf(&sb, "kernel config read on boot %s (the same build id), not again on this one\n",
			    snap->config_read_on);
	if (snap->package_manager)
		strbuf_addf(&sb, "kernel package %s (%s)\n", snap->package, snap->package_manager);
	if (ctx && ctx->target)
		strbuf_addf(&sb, "target %s%s%s\n", ctx->target, snap->hostname ? " host " : "",
			    snap->hostname ? snap->hostname : "");
	if (snap->target_time)
		strbuf_addf(&sb, "target clock %s\n", snap->target_time);
	if (snap->machine_id)
		strbuf_addf(&sb, "machine_id %s\n", snap->machine_id);
	strbuf_addf(&sb, "iommu group types: %s\n", summary);
	strbuf_addf(&sb, "iommu units: %zu", snap->n_iommu_classes);
	for (size_t i = 0; i < snap->n_iommu_classes; i++)
		strbuf_addf(&sb, " %s", snap->iommu_classes[i]);
	strbuf_addch(&sb, '\n');
	if (snap->log_source == SNAPSHOT_LOG_ABSENT) {
		strbuf_addstr(&sb, "iommu log lines: absent (no journalctl or dmesg output)\n");
	} else if (snap->log_source == SNAPSHOT_LOG_SKIPPED) {
		strbuf_addstr(&sb, "iommu log lines: not read\n");
	} else {
		strbuf_addf(&sb, "iommu log lines: %lu (%s; evidence, not proof)\n", snap->log_count,
			    snapshot_log_source_name(snap->log_source));
		for (size_t i = 0; i < snap->n_log_lines; i++)
			if (strstr(snap->log_lines[i], "Default domain type"))
				strbuf_addf(&sb, "%s\n", snap->log_lines[i]);
	}
	if (snap->loadavg)
		strbuf_addf(&sb, "load %s\n", snap->loadavg);
	if (snap->governors.n) {
		bool same = true;

		for (size_t i = 1; i < snap->governors.n; i++)
			same &= !strcmp(snap->governors.v[i].value, snap->governors.v[0].value);
		if (same) {
			strbuf_addf(&sb, "governor %s (%zu cpufreq %s)\n", snap->governors.v[0].value,
				    snap->governors.n, snap->governors.n == 1 ? "policy" : "policies");
		} else {
			strbuf_addstr(&sb, "governor");
			for (size_t i = 0; i < snap->governors.n; i++)
				strbuf_addf(&sb, "%s %s %s", i ? "," : "", snap->governors.v[i].name,
					    snap->governors.v[i].value);
			strbuf_addch(&sb, '\n');
		}
	}
	for (size_t i = 0; i < snap->n_thermal; i++) {
		const struct snapshot_thermal *t = &snap->thermal[i];

		strbuf_addf(&sb, "%s%s", i ? ", " : "temperatures ", t->type ? t->type : t->zone);
		if (t->has_temp)
			strbuf_addf(&sb, " %ld.%ld C", t->millidegrees / 1000,
				    labs(t->millidegrees % 1000) / 100);
		else
			strbuf_addstr(&sb, " -");
		if (i + 1 == snap->n_thermal)
			strbuf_addch(&sb, '\n');
	}
	for (size_t i = 0; i < snap->vulnerabilities.n; i++)
		if (strcmp(snap->vulnerabilities.v[i].value, "Not affected"))
			affected++;
	if (snap->vulnerabilities.n)
		strbuf_addf(&sb, "cpu vulnerabilities: %zu affected of %zu\n", affected,
			    snap->vulnerabilities.n);
	for (size_t i = 0; i < snap->vulnerabilities.n; i++)
		if (strcmp(snap->vulnerabilities.v[i].value, "Not affected"))
			strbuf_addf(&sb, "  %s: %s\n", snap->vulnerabilities.v[i].name,
				    snap->vulnerabilities.v[i].value);
	for (size_t i = 0; i < snap->params.n; i++)
		strbuf_addf(&sb, "param %s=%s\n", snap->params.v[i].name,
			    snap->params.v[i].value ? snap->params.v[i].value : "(absent)");
	if (snap->inventory.has_devices) {
		const struct inventory *inv = &snap->inventory;
		size_t unbound = 0;

		for (size_t i = 0; i < inv->n_pci; i++)
			unbound += !inv->pci[i].driver;
		strbuf_addf(&sb, "devices: %zu PCI (%zu without a driver), %zu device nodes, %zu network interfaces\n",
			    inv->n_pci, unbound, inv->n_nodes, inv->n_netifs);
	}
	if (snap->inventory.has_klog)
		strbuf_addf(&sb, "kernel errors and warnings: %lu (%s)\n", snap->inventory.klog_count,
			    inventory_source_name(snap->inventory.klog_source));
	if (snap->inventory.has_units) {
		strbuf_addf(&sb, "failed units: %zu", snap->inventory.n_failed_units);
		for (size_t i = 0; i < snap->inventory.n_failed_units; i++)
			strbuf_addf(&sb, " %s", snap->inventory.failed_units[i]);
		strbuf_addch(&sb, '\n');
	}
	free(summary);
	return strbuf_detach(&sb, NULL);
}

static char *json_dup_string(const json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));

	return s ? xstrdup(s) : NULL;
}

int snapshot_from_json(const json_t *json, struct snapshot *ret, struct parse_error *err)
{
	struct snapshot snap = { 0 };
	const json_t *iommu = json_object_get(json, "iommu");
	int r;

	if (!json_is_object(json) || !json_is_integer(json_object_get(json, "bootab_snapshot"))) {
		parse_error_set(err, 0, 0, "not a bootab snapshot (no \"bootab_snapshot\" key)");
		return -EINVAL;
	}
	if (!json_is_object(iommu)) {
		parse_error_set(err, 0, 0, "no \"iommu\" object");
		return -EINVAL;
	}
	r = iommu_map_from_json(json_object_get(iommu, "groups"), &snap.iommu, err);
	if (r < 0)
		return r;
	snap.boot_id = json_dup_string(json, "boot_id");
	snap.kernel = json_dup_string(json, "kernel");
	snap.cmdline = json_dup_string(json, "cmdline");
	snap.hostname = json_dup_string(json, "hostname");
	snap.kernel_version = json_dup_string(json, "kernel_version");
	snap.build_id = json_dup_string(json, "kernel_build_id");
	snap.has_notes = snap.build_id != NULL;
	snap.machine_id = json_dup_string(json, "machine_id");
	if (snap.machine_id && !machine_id_valid(snap.machine_id)) {
		free(snap.machine_id);
		snap.machine_id = NULL;
	}
	*ret = snap;
	return 0;
}

char *snapshot_join_scripts(const struct snapshot_text *texts, size_t n, size_t *ret_len)
{
	struct strbuf sb = STRBUF_INIT;
	size_t base = n ? texts[0].len : 0;
	bool end = base >= 4 && !memcmp(texts[0].data + base - 4, "end\n", 4) &&
		   (base == 4 || texts[0].data[base - 5] == '\n');

	if (!end) {
		/* Left as it is, for the parser to refuse. */
		if (base)
			strbuf_add(&sb, texts[0].data, base);
		return strbuf_detach(&sb, ret_len);
	}
	strbuf_add(&sb, texts[0].data, base - 4);
	for (size_t i = 1; i < n; i++)
		if (texts[i].len)
			strbuf_add(&sb, texts[i].data, texts[i].len);
	strbuf_addstr(&sb, "end\n");
	return strbuf_detach(&sb, ret_len);
}
