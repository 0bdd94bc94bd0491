/* The records the snapshot scripts print, read into a struct snapshot (snapshot_parse()). */
#include "kernel/snapshot.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/notes.h"
#include "kernel/snapshot-parse.h"
#include "lib/alloc.h"
#include "lib/escape.h"
#include "lib/parse-number.h"
#include "lib/strbuf.h"

#define MAX_FIELDS 8

/* Length of the valid UTF-8 sequence at s, or 0. */
static size_t utf8_sequence(const unsigned char *s)
{
	size_t n;
	unsigned cp;

	if (s[0] < 0x80)
		return 1;
	if ((s[0] & 0xe0) == 0xc0) {
		n = 2;
		cp = s[0] & 0x1f;
	} else if ((s[0] & 0xf0) == 0xe0) {
		n = 3;
		cp = s[0] & 0x0f;
	} else if ((s[0] & 0xf8) == 0xf0) {
		n = 4;
		cp = s[0] & 0x07;
	} else {
		return 0;
	}
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = (cp << 6) | (s[i] & 0x3f);
	}
	if ((n == 2 && cp < 0x80) || (n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) ||
	    cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return n;
}

static bool utf8_valid(const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; *p;) {
		size_t n = utf8_sequence(p);

		if (!n)
			return false;
		p += n;
	}
	return true;
}

/* A copy of s with every byte that is not part of valid UTF-8 replaced by '?'. */
static char *utf8_sanitize(const char *s)
{
	char *copy = xstrdup(s);

	for (unsigned char *p = (unsigned char *)copy; *p;) {
		size_t n = utf8_sequence(p);

		if (!n) {
			*p++ = '?';
			continue;
		}
		p += n;
	}
	return copy;
}

static bool word_valid(const char *s, size_t max, const char *extra)
{
	size_t n = 0;

	for (const char *p = s; *p; p++, n++) {
		char c = *p;

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		      (c >= '0' && c <= '9') || strchr(extra, c)))
			return false;
	}
	return n > 0 && n <= max;
}

/* MODULE.PARAM as the kernel names module parameters. */
static bool param_name_valid(const char *s)
{
	const char *dot = strchr(s, '.');
	char *mod;
	bool ok;

	if (!dot || strchr(dot + 1, '.'))
		return false;
	mod = xstrndup(s, (size_t)(dot - s));
	ok = word_valid(mod, 64, "_-") && word_valid(dot + 1, 64, "_-");
	free(mod);
	return ok;
}

/* Parses a decimal number in [min, max]. */
static bool parse_long(const char *s, long min, long max, long *ret)
{
	if (strlen(s) > 20 || s[0] == '+')
		return false;
	return number_parse_long(s, min, max, ret) == 0;
}

/* "0x1002" (hex digits, at most max) or "-" for absent. */
static bool parse_id(const char *s, unsigned max, unsigned *ret)
{
	const char *end;
	long v;

	if (!strcmp(s, "-")) {
		*ret = IOMMU_ID_ABSENT;
		return true;
	}
	if (strncmp(s, "0x", 2) || !s[2] || strlen(s) > 10)
		return false;
	for (const char *p = s + 2; *p; p++)
		if (!strchr("0123456789abcdefABCDEF", *p))
			return false;
	if (number_scan_long(s + 2, 16, 0, max, &v, &end) < 0 || *end)
		return false;
	*ret = (unsigned)v;
	return true;
}

static const char *dash_null(const char *s)
{
	return strcmp(s, "-") ? s : NULL;
}

static bool entries_has(const struct snapshot_entries *e, const char *name)
{
	for (size_t i = 0; i < e->n; i++)
		if (!strcmp(e->v[i].name, name))
			return true;
	return false;
}


struct parser {
	struct snapshot *snap;
	struct parse_error *err;
	unsigned line;
	char *fields[MAX_FIELDS];
	size_t n_fields;
	bool saw_log_source, saw_log_count, saw_machine_id;
	bool saw_inventory, saw_klog_count, saw_units_source;
};

static int fail(struct parser *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int fail(struct parser *p, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	parse_error_set(p->err, p->line, 0, "%s", strbuf_str(&sb));
	strbuf_release(&sb);
	return -EINVAL;
}

static int set_scalar(struct parser *p, char **slot, const char *value)
{
	if (*slot)
		return fail(p, "record '%s' repeated", p->fields[0]);
	if (!utf8_valid(value))
		return fail(p, "record '%s': value is not UTF-8", p->fields[0]);
	*slot = xstrdup(value);
	return 0;
}

/* Parses "9.872102" (seconds since boot) or "-" (NaN). */
static bool parse_seconds(const char *s, double *ret)
{
	char *end;
	double v;

	if (!strcmp(s, "-")) {
		*ret = NAN;
		return true;
	}
	if (!*s || strlen(s) > 24 || !strchr("0123456789", s[0]))
		return false;
	for (const char *c = s; *c; c++)
		if (!strchr("0123456789.", *c))
			return false;
	errno = 0;
	v = strtod(s, &end);
	if (errno || *end || !(v >= 0 && v < 1e10))
		return false;
	*ret = v;
	return true;
}

/* An interface: netif NAME OPERSTATE CARRIER DEVICE. */
static int parse_netif_record(struct parser *p, struct inventory *inv)
{
	char **f = p->fields;
	int carrier = !strcmp(f[3], "1") ? 1 : !strcmp(f[3], "0") ? 0 : -1, r;
	const char *state = strcmp(f[2], "-") ? f[2] : "unknown";
	/*
	 * The kernel takes any bytes but '/', blanks and NUL in an interface
	 * name (dev_valid_name() in net/core/dev.c): ESC, DEL and Latin-1
	 * included. Kept escaped, never a reason to refuse the boot.
	 */
	char *name = inventory_netif_name(f[1]);

	if (carrier < 0 && strcmp(f[3], "-")) {
		r = fail(p, "interface '%s': carrier '%s' is not 0, 1 or -", name, f[3]);
	} else {
		r = inventory_add_netif(inv, name, state, carrier, dash_null(f[4]));
		if (r == -EEXIST)
			r = fail(p, "interface '%s' repeated", name);
		else if (r < 0)
			r = fail(p, "interface record '%s' is malformed (operstate '%s')", name, f[2]);
	}
	free(name);
	return r;
}

/* The inventory's records: inventory, pci, node, netif, klog*, units_source, unit_failed. */
static int parse_inventory_record(struct parser *p)
{
	struct inventory *inv = &p->snap->inventory;
	const char *key = p->fields[0];
	char **f = p->fields;
	int r;

	if (!strcmp(key, "inventory")) {
		if (p->saw_inventory)
			return fail(p, "record '%s' repeated", key);
		if (strcmp(f[1], "1"))
			return fail(p, "inventory format '%s' is not 1", f[1]);
		p->saw_inventory = true;
		inv->has_devices = true;
		return 0;
	}
	if (!p->saw_inventory)
		return fail(p, "record '%s' before 'inventory'", key);
	if (!strcmp(key, "pci")) {
		unsigned vendor, device, cls;
		long group = -1;

		if (!parse_id(f[2], 0xffff, &vendor) || !parse_id(f[3], 0xffff, &device) ||
		    !parse_id(f[4], 0xffffff, &cls))
			return fail(p, "pci device '%s': vendor, device or class is not 0xHHHH", f[1]);
		if (strcmp(f[6], "-") && !parse_long(f[6], 0, 1000000, &group))
			return fail(p, "pci device '%s': IOMMU group '%s' is not a number", f[1], f[6]);
		r = inventory_add_pci(inv, f[1], vendor, device, cls, dash_null(f[5]), group);
		if (r == -EEXIST)
			return fail(p, "pci device '%s' repeated", f[1]);
		if (r < 0)
			return fail(p, "pci device '%s' or its driver '%s' is malformed", f[1], f[5]);
		return 0;
	}
	if (!strcmp(key, "node")) {
		char *dev;

		/* DEVNAME is relative to /dev ("accel/accel0"). */
		if (f[3][0] == '/' || strstr(f[3], ".."))
			return fail(p, "node '%s': DEVNAME '%s' is not a name under /dev", f[2], f[3]);
		dev = xasprintf("/dev/%s", f[3]);
		r = inventory_add_node(inv, f[1], f[2], dev, dash_null(f[4]));
		free(dev);
		if (r == -EEXIST)
			return fail(p, "node '%s' repeated", f[3]);
		if (r < 0)
			return fail(p, "node record '%s %s' is malformed", f[1], f[2]);
		return 0;
	}
	if (!strcmp(key, "netif"))
		return parse_netif_record(p, inv);
	if (!strcmp(key, "kmsg_source")) {
		if (inv->has_klog)
			return fail(p, "record '%s' repeated", key);
		if (inventory_source_from_name(f[1], &inv->klog_source) < 0 ||
		    inv->klog_source == INVENTORY_SOURCE_SYSTEMCTL)
			return fail(p, "kernel log source '%s' is not dmesg, journalctl, file, absent or skipped", f[1]);
		inv->has_klog = true;
		return 0;
	}
	if (!strcmp(key, "kmsg")) {
		long level;
		double t;
		char *text;

		if (!inv->has_klog || inv->klog_source == INVENTORY_SOURCE_ABSENT ||
		    inv->klog_source == INVENTORY_SOURCE_SKIPPED || p->saw_klog_count)
			return fail(p, "record '%s' without a kernel log source", key);
		if (!parse_long(f[1], 0, 4, &level))
			return fail(p, "kmsg level '%s' is not 0-4", f[1]);
		if (!parse_seconds(f[2], &t))
			return fail(p, "kmsg time '%s' is not seconds since boot", f[2]);
		if (inv->n_klog >= INVENTORY_MAX_KLOG)
			return fail(p, "more than %d kmsg lines", INVENTORY_MAX_KLOG);
		/* Kernel messages may carry any bytes; keep them readable in JSON. */
		text = utf8_sanitize(f[3]);
		r = inventory_add_klog(inv, (int)level, t, text);
		free(text);
		return r < 0 ? fail(p, "kmsg line is malformed") : 0;
	}
	if (!strcmp(key, "kmsg_count")) {
		long n;

		if (!inv->has_klog || p->saw_klog_count)
			return fail(p, "record '%s' repeated or without a kernel log source", key);
		if (!parse_long(f[1], 0, LONG_MAX / 2, &n) || (unsigned long)n < inv->n_klog)
			return fail(p, "kmsg_count '%s' is not a number at least the lines given", f[1]);
		inv->klog_count = (unsigned long)n;
		p->saw_klog_count = true;
		return 0;
	}
	if (!strcmp(key, "units_source")) {
		if (p->saw_units_source)
			return fail(p, "record '%s' repeated", key);
		if (inventory_source_from_name(f[1], &inv->units_source) < 0 ||
		    (inv->units_source != INVENTORY_SOURCE_SYSTEMCTL && inv->units_source != INVENTORY_SOURCE_FILE &&
		     inv->units_source != INVENTORY_SOURCE_ABSENT))
			return fail(p, "units source '%s' is not systemctl, file or absent", f[1]);
		p->saw_units_source = true;
		/* Without systemd there is no unit to fail: nothing recorded. */
		inv->has_units = inv->units_source != INVENTORY_SOURCE_ABSENT;
		return 0;
	}
	/* unit_failed */
	if (!inv->has_units)
		return fail(p, "record '%s' without a units source", key);
	r = inventory_add_unit(inv, f[1]);
	if (r == -EEXIST)
		return fail(p, "unit '%s' repeated", f[1]);
	return r < 0 ? fail(p, "unit name '%s' is malformed", f[1]) : 0;
}

/* The boot and the box it ran on: when, which boot, which kernel, which host. */
static int parse_identity_record(struct parser *p)
{
	struct snapshot *s = p->snap;
	const char *key = p->fields[0];
	char **f = p->fields;

	if (!strcmp(key, "time")) {
		if (strlen(f[1]) > 64)
			return fail(p, "record '%s': value too long", key);
		return set_scalar(p, &s->target_time, f[1]);
	}
	if (!strcmp(key, "boot_id")) {
		if (!boot_id_valid(f[1]))
			return fail(p, "boot_id '%s' is not a boot id (a lowercase UUID)", f[1]);
		return set_scalar(p, &s->boot_id, f[1]);
	}
	if (!strcmp(key, "kernel")) {
		if (!word_valid(f[1], 128, "._+~-"))
			return fail(p, "kernel release '%s' is not a kernel release", f[1]);
		return set_scalar(p, &s->kernel, f[1]);
	}
	if (!strcmp(key, "kernel_version")) {
		if (strlen(f[1]) > 256)
			return fail(p, "record '%s': value too long", key);
		return set_scalar(p, &s->kernel_version, f[1]);
	}
	if (!strcmp(key, "hostname")) {
		if (!word_valid(f[1], 64, "._-"))
			return fail(p, "hostname '%s' is not a host name", f[1]);
		return set_scalar(p, &s->hostname, f[1]);
	}
	if (!strcmp(key, "cmdline"))
		return set_scalar(p, &s->cmdline, f[1]);
	if (!strcmp(key, "loadavg"))
		return set_scalar(p, &s->loadavg, f[1]);
	/* machine_id */
	{
		if (p->saw_machine_id)
			return fail(p, "record '%s' repeated", key);
		p->saw_machine_id = true;
		/*
		 * A file that holds no id ("uninitialized" on a first boot, an
		 * empty file, anything else) names no machine: recorded as absent,
		 * because the id names the history file on the controller.
		 */
		if (machine_id_valid(f[1]))
			s->machine_id = xstrdup(f[1]);
		return 0;
	}
}

/* The kernel's build: its notes (the build id), its config and the package it came in. */
char *snapshot_config_value(const char *raw)
{
	struct strbuf sb = STRBUF_INIT;
	size_t len = strlen(raw), cut;
	uint64_t hash = 0xcbf29ce484222325ULL;

	if (len <= SNAPSHOT_CONFIG_VALUE_KEPT && utf8_printable(raw, len))
		return xstrdup(raw);
	text_escape_append(&sb, raw, len, TEXT_ESCAPE_NEWLINE, NULL);
	if (sb.len <= SNAPSHOT_CONFIG_VALUE_KEPT)
		return strbuf_detach(&sb, NULL);
	/*
	 * The longest prefix of raw whose escape fits: cut in raw, never
	 * inside an escape (a UTF-8 sequence cut there is escaped byte by
	 * byte). A byte escapes to at most 4, so each try shortens enough.
	 */
	cut = len < SNAPSHOT_CONFIG_VALUE_CUT ? len : SNAPSHOT_CONFIG_VALUE_CUT;
	for (;;) {
		strbuf_truncate(&sb, 0);
		text_escape_append(&sb, raw, cut, TEXT_ESCAPE_NEWLINE, NULL);
		if (sb.len <= SNAPSHOT_CONFIG_VALUE_CUT)
			break;
		cut -= (sb.len - SNAPSHOT_CONFIG_VALUE_CUT + 3) / 4;
	}
	for (size_t i = 0; i < len; i++)
		hash = (hash ^ (unsigned char)raw[i]) * 0x100000001b3ULL;
	strbuf_addf(&sb, "... (%zu bytes, fnv1a64 %016llx)", len, (unsigned long long)hash);
	return strbuf_detach(&sb, NULL);
}

static int parse_kernel_build_record(struct parser *p)
{
	struct snapshot *s = p->snap;
	const char *key = p->fields[0];
	char **f = p->fields;
	char *value;

	if (!strcmp(key, "kernel_notes")) {
		unsigned char *notes;
		size_t len;
		int r;

		if (s->has_notes)
			return fail(p, "record '%s' repeated", key);
		if (hex_decode(f[1], &notes, &len) < 0)
			return fail(p, "kernel_notes is not hex bytes");
		r = kernel_notes_build_id(notes, len, &s->build_id);
		free(notes);
		if (r == -EINVAL)
			return fail(p, "kernel_notes are not ELF notes (a note runs past the end)");
		s->has_notes = true;
		return 0;
	}
	if (!strcmp(key, "kernel_config_reused")) {
		/* The config records that follow were read on another boot of this very build. */
		if (s->config_read_on)
			return fail(p, "record '%s' repeated", key);
		if (s->config_source)
			return fail(p, "kernel_config_reused after kernel_config: it comes before the records it marks");
		if (!boot_id_valid(f[1]))
			return fail(p, "kernel_config_reused: '%s' is not a boot_id", f[1]);
		if (!s->build_id || strcmp(f[2], s->build_id))
			return fail(p, "kernel_config_reused names build id '%.64s', this kernel's is '%s'", f[2],
				    s->build_id ? s->build_id : "unknown");
		s->config_read_on = xstrdup(f[1]);
		return 0;
	}
	if (!strcmp(key, "kernel_config")) {
		bool sum = strcmp(f[2], "-");

		if (s->config_source)
			return fail(p, "record '%s' repeated", key);
		if (strcmp(f[1], "/proc/config.gz") &&
		    (strncmp(f[1], "/boot/config-", 13) || !word_valid(f[1] + 13, 128, "._+~-")))
			return fail(p, "kernel config source '%s' is not /boot/config-RELEASE or /proc/config.gz", f[1]);
		if (sum && (strlen(f[2]) != 64 || !word_valid(f[2], 64, "")))
			return fail(p, "kernel config hash '%s' is not a SHA-256 in hex", f[2]);
		for (const char *c = f[2]; sum && *c; c++)
			if (!((*c >= '0' && *c <= '9') || (*c >= 'a' && *c <= 'f')))
				return fail(p, "kernel config hash '%s' is not a SHA-256 in hex", f[2]);
		s->config_source = xstrdup(f[1]);
		s->config_sha256 = sum ? xstrdup(f[2]) : NULL;
		return 0;
	}
	if (!strcmp(key, "kconfig")) {
		if (strncmp(f[1], "CONFIG_", 7) || !word_valid(f[1], 128, "_"))
			return fail(p, "config option '%s' is not CONFIG_NAME", f[1]);
		if (s->config.n >= SNAPSHOT_MAX_CONFIG)
			return fail(p, "more than %d config options", SNAPSHOT_MAX_CONFIG);
		/* A config file holds each option once (Kconfig writes it); kept in file order. */
		value = snapshot_config_value(f[2]);
		snapshot_entries_add(&s->config, f[1], value);
		free(value);
		return 0;
	}
	/* kernel_package */
	{
		if (s->package_manager)
			return fail(p, "record '%s' repeated", key);
		if (strcmp(f[1], "dpkg") && strcmp(f[1], "rpm"))
			return fail(p, "package manager '%s' is not dpkg or rpm", f[1]);
		if (!*f[2] || strlen(f[2]) > 256 || !utf8_valid(f[2]))
			return fail(p, "kernel package '%s' is not a package name", f[2]);
		s->package_manager = xstrdup(f[1]);
		s->package = xstrdup(f[2]);
		return 0;
	}
}

/* What the box was set to: governors, thermal zones, mitigations, module parameters, files and state asked for. */
static int parse_settings_record(struct parser *p)
{
	struct snapshot *s = p->snap;
	const char *key = p->fields[0];
	char **f = p->fields;
	size_t nf = p->n_fields;

	if (!strcmp(key, "governor")) {
		if (!word_valid(f[1], 32, "_") || !word_valid(f[2], 32, "_-"))
			return fail(p, "governor record for '%s' is malformed", f[1]);
		if (entries_has(&s->governors, f[1]))
			return fail(p, "governor for '%s' repeated", f[1]);
		snapshot_entries_add(&s->governors, f[1], f[2]);
		return 0;
	}
	if (!strcmp(key, "thermal")) {
		struct snapshot_thermal t = { 0 };
		long temp = 0;

		if (!word_valid(f[1], 64, "_-") ||
		    (strcmp(f[2], "-") && !word_valid(f[2], 64, "_.:-")))
			return fail(p, "thermal zone '%s' is malformed", f[1]);
		if (strcmp(f[3], "-") && !parse_long(f[3], -1000000, 10000000, &temp))
			return fail(p, "thermal zone temperature '%s' is not millidegrees", f[3]);
		t.zone = xstrdup(f[1]);
		t.type = dash_null(f[2]) ? xstrdup(f[2]) : NULL;
		t.has_temp = strcmp(f[3], "-") != 0;
		t.millidegrees = temp;
		GROW(s->thermal, s->alloc_thermal, s->n_thermal + 1);
		s->thermal[s->n_thermal++] = t;
		return 0;
	}
	if (!strcmp(key, "vuln")) {
		if (!word_valid(f[1], 64, "_-") || !utf8_valid(f[2]))
			return fail(p, "vulnerability '%s' is malformed", f[1]);
		if (entries_has(&s->vulnerabilities, f[1]))
			return fail(p, "vulnerability '%s' repeated", f[1]);
		snapshot_entries_add(&s->vulnerabilities, f[1], f[2]);
		return 0;
	}
	if (!strcmp(key, "param") || !strcmp(key, "param_absent")) {
		if (!param_name_valid(f[1]))
			return fail(p, "module parameter name '%s' is not MODULE.PARAM", f[1]);
		if (nf == 3 && !utf8_valid(f[2]))
			return fail(p, "module parameter '%s': value is not UTF-8", f[1]);
		if (entries_has(&s->params, f[1]))
			return fail(p, "module parameter '%s' repeated", f[1]);
		snapshot_entries_add(&s->params, f[1], nf == 3 ? f[2] : NULL);
		return 0;
	}
	if (!strcmp(key, "file") || !strcmp(key, "file_absent")) {
		if (f[1][0] != '/' || strlen(f[1]) > 4096 || !utf8_valid(f[1]))
			return fail(p, "file record path '%s' is not an absolute path", f[1]);
		if (nf == 3 && !utf8_valid(f[2]))
			return fail(p, "file '%s': value is not UTF-8", f[1]);
		if (entries_has(&s->files, f[1]))
			return fail(p, "file '%s' repeated", f[1]);
		snapshot_entries_add(&s->files, f[1], nf == 3 ? f[2] : NULL);
		return 0;
	}
	/* state */
	{
		if ((strncmp(f[1], "/sys/", 5) && strncmp(f[1], "/proc/", 6)) || strstr(f[1], "/../") ||
		    !word_valid(f[1], 256, "/._:-"))
			return fail(p, "state record path '%s' is not a /sys or /proc path", f[1]);
		if (!utf8_valid(f[2]))
			return fail(p, "state '%s': value is not UTF-8", f[1]);
		if (entries_has(&s->state, f[1]))
			return fail(p, "state '%s' repeated", f[1]);
		snapshot_entries_add(&s->state, f[1], f[2]);
		return 0;
	}
}

/* The IOMMU map: the classes looked at, the groups and their devices. */
static int parse_iommu_record(struct parser *p)
{
	struct snapshot *s = p->snap;
	const char *key = p->fields[0];
	char **f = p->fields;

	if (!strcmp(key, "iommu_class")) {
		if (!iommu_device_name_valid(f[1]) || !utf8_valid(f[1]))
			return fail(p, "iommu class entry '%s' is malformed", f[1]);
		GROW(s->iommu_classes, s->alloc_iommu_classes, s->n_iommu_classes + 1);
		s->iommu_classes[s->n_iommu_classes++] = xstrdup(f[1]);
		return 0;
	}
	if (!strcmp(key, "group")) {
		long n;
		const char *type = strcmp(f[2], "-") ? f[2] : "unknown";
		int r;

		if (!parse_long(f[1], 0, 1000000, &n))
			return fail(p, "group number '%s' is not a number", f[1]);
		if (!iommu_type_valid(type))
			return fail(p, "group type '%s' is not a group type", type);
		r = iommu_map_add_group(&s->iommu, (unsigned)n, type);
		if (r == -EEXIST)
			return fail(p, "group %s repeated", f[1]);
		return r;
	}
	/* device */
	{
		unsigned vendor, device, cls;
		long n;
		int r;

		if (!parse_long(f[1], 0, 1000000, &n))
			return fail(p, "device record: group '%s' is not a number", f[1]);
		if (!iommu_device_name_valid(f[2]) || !utf8_valid(f[2]))
			return fail(p, "device name '%s' is not a sysfs device name", f[2]);
		if (dash_null(f[3]) && !iommu_driver_name_valid(f[3]))
			return fail(p, "device bus '%s' is malformed", f[3]);
		if (!parse_id(f[4], 0xffff, &vendor))
			return fail(p, "device vendor id '%s' is not 0xHHHH", f[4]);
		if (!parse_id(f[5], 0xffff, &device))
			return fail(p, "device id '%s' is not 0xHHHH", f[5]);
		if (!parse_id(f[6], 0xffffff, &cls))
			return fail(p, "device class '%s' is not 0xHHHHHH", f[6]);
		if (dash_null(f[7]) && !iommu_driver_name_valid(f[7]))
			return fail(p, "driver name '%s' is malformed", f[7]);
		r = iommu_map_add_device(&s->iommu, (unsigned)n, f[2], dash_null(f[3]), vendor,
					 device, cls, dash_null(f[7]));
		if (r == -ENOENT)
			return fail(p, "device record before its group %s", f[1]);
		if (r == -EEXIST)
			return fail(p, "device %s repeated", f[2]);
		return r;
	}
}

/* The boot log kept as evidence: its source, lines and count. */
static int parse_log_record(struct parser *p)
{
	struct snapshot *s = p->snap;
	const char *key = p->fields[0];
	char **f = p->fields;

	if (!strcmp(key, "klog")) {
		if (!p->saw_log_source || s->log_source == SNAPSHOT_LOG_ABSENT ||
		    s->log_source == SNAPSHOT_LOG_SKIPPED)
			return fail(p, "record '%s' without a log source", key);
		if (s->n_evidence >= SNAPSHOT_MAX_EVIDENCE_LINES)
			return fail(p, "more than %d klog lines", SNAPSHOT_MAX_EVIDENCE_LINES);
		GROW(s->evidence, s->alloc_evidence, s->n_evidence + 1);
		s->evidence[s->n_evidence++] = utf8_sanitize(f[1]);
		return 0;
	}
	if (!strcmp(key, "log_source")) {
		static const struct {
			const char *name;
			enum snapshot_log_source source;
		} sources[] = {
			{ "absent", SNAPSHOT_LOG_ABSENT }, { "journalctl", SNAPSHOT_LOG_JOURNALCTL },
			{ "dmesg", SNAPSHOT_LOG_DMESG }, { "file", SNAPSHOT_LOG_FILE },
			{ "skipped", SNAPSHOT_LOG_SKIPPED },
		};

		if (p->saw_log_source)
			return fail(p, "record '%s' repeated", key);
		for (size_t i = 0; i < sizeof(sources) / sizeof(sources[0]); i++) {
			if (!strcmp(sources[i].name, f[1])) {
				s->log_source = sources[i].source;
				p->saw_log_source = true;
				return 0;
			}
		}
		return fail(p, "log source '%s' is not journalctl, dmesg, file, absent or skipped", f[1]);
	}
	if (!strcmp(key, "log")) {
		if (!p->saw_log_source || s->log_source == SNAPSHOT_LOG_ABSENT ||
		    s->log_source == SNAPSHOT_LOG_SKIPPED)
			return fail(p, "record '%s' without a log source", key);
		if (s->n_log_lines >= SNAPSHOT_MAX_LOG_LINES)
			return fail(p, "more than %d log lines", SNAPSHOT_MAX_LOG_LINES);
		GROW(s->log_lines, s->alloc_log_lines, s->n_log_lines + 1);
		/* Kernel messages may carry any bytes; keep them readable in JSON. */
		s->log_lines[s->n_log_lines++] = utf8_sanitize(f[1]);
		return 0;
	}
	/* log_count */
	{
		long n;

		if (p->saw_log_count)
			return fail(p, "record '%s' repeated", key);
		if (!parse_long(f[1], 0, LONG_MAX / 2, &n))
			return fail(p, "log_count '%s' is not a number", f[1]);
		if ((unsigned long)n < s->n_log_lines)
			return fail(p, "log_count %s is less than the log lines given", f[1]);
		s->log_count = (unsigned long)n;
		p->saw_log_count = true;
		return 0;
	}
}

/* One record, its fields split; checks count and content, stores it. */
static int parse_record(struct parser *p)
{
	const char *key = p->fields[0];
	static const struct {
		const char *key;
		size_t fields;
		int (*parse)(struct parser *p);
	} records[] = {
		{ "time", 2, parse_identity_record },
		{ "boot_id", 2, parse_identity_record },
		{ "kernel", 2, parse_identity_record },
		{ "hostname", 2, parse_identity_record },
		{ "cmdline", 2, parse_identity_record },
		{ "loadavg", 2, parse_identity_record },
		{ "governor", 3, parse_settings_record },
		{ "thermal", 4, parse_settings_record },
		{ "vuln", 3, parse_settings_record },
		{ "param", 3, parse_settings_record },
		{ "param_absent", 2, parse_settings_record },
		{ "file", 3, parse_settings_record },
		{ "file_absent", 2, parse_settings_record },
		{ "iommu_class", 2, parse_iommu_record },
		{ "group", 3, parse_iommu_record },
		{ "device", 8, parse_iommu_record },
		{ "log_source", 2, parse_log_record },
		{ "log", 2, parse_log_record },
		{ "log_count", 2, parse_log_record },
		{ "machine_id", 2, parse_identity_record },
		{ "inventory", 2, parse_inventory_record },
		{ "pci", 7, parse_inventory_record },
		{ "node", 5, parse_inventory_record },
		{ "netif", 5, parse_inventory_record },
		{ "kmsg_source", 2, parse_inventory_record },
		{ "kmsg", 4, parse_inventory_record },
		{ "kmsg_count", 2, parse_inventory_record },
		{ "units_source", 2, parse_inventory_record },
		{ "unit_failed", 2, parse_inventory_record },
		{ "kernel_version", 2, parse_identity_record },
		{ "kernel_notes", 2, parse_kernel_build_record },
		{ "kernel_config_reused", 3, parse_kernel_build_record },
		{ "kernel_config", 3, parse_kernel_build_record },
		{ "kconfig", 3, parse_kernel_build_record },
		{ "kernel_package", 3, parse_kernel_build_record },
		{ "state", 3, parse_settings_record },
		{ "klog", 2, parse_log_record },
	};

	for (size_t i = 0; i < sizeof(records) / sizeof(records[0]); i++) {
		if (strcmp(records[i].key, key))
			continue;
		if (p->n_fields != records[i].fields) {
			parse_error_set(p->err, p->line, 0, "record '%s': %zu fields, expected %zu",
					key, p->n_fields, records[i].fields);
			return -EINVAL;
		}
		return records[i].parse(p);
	}
	return fail(p, "unknown record '%s'", key);
}

/* A record's bytes: tabs between fields, no other control character (C0, DEL or C1). */
static int check_line_bytes(struct parser *p, const char *line, size_t llen)
{
	for (size_t i = 0; i < llen; i++) {
		unsigned char c = (unsigned char)line[i];

		if ((c < 0x20 && c != '\t') || c == 0x7f) {
			parse_error_set(p->err, p->line, (unsigned)i + 1, "control character 0x%02x in record", c);
			return -EINVAL;
		}
		/* C1 controls in UTF-8 (U+009B is CSI to many terminals). */
		if (c == 0xc2 && i + 1 < llen && (unsigned char)line[i + 1] >= 0x80 &&
		    (unsigned char)line[i + 1] <= 0x9f) {
			parse_error_set(p->err, p->line, (unsigned)i + 1,
					"control character U+%04X in record", (unsigned char)line[i + 1]);
			return -EINVAL;
		}
	}
	return 0;
}

enum record_kernel_given { RECORD_CHECKED, RECORD_NETIF, RECORD_KCONFIG };

/*
 * The records whose text the kernel gives as it is, and the parser keeps
 * escaped instead of refusing: an interface name (any bytes but '/',
 * blanks and NUL) and a config value (any bytes, any length). Every other
 * field of theirs has its own check.
 */
static enum record_kernel_given record_kernel_given(const char *line, size_t llen)
{
	if (llen > 6 && !memcmp(line, "netif\t", 6))
		return RECORD_NETIF;
	if (llen > 8 && !memcmp(line, "kconfig\t", 8))
		return RECORD_KCONFIG;
	return RECORD_CHECKED;
}

/* Splits line (the parser's copy) at tabs into p->fields. */
static int split_fields(struct parser *p, char *line)
{
	char *cur = line;

	p->n_fields = 0;
	for (;;) {
		char *tab = strchr(cur, '\t');

		if (p->n_fields == MAX_FIELDS) {
			parse_error_set(p->err, p->line, 0, "too many fields");
			return -EINVAL;
		}
		p->fields[p->n_fields++] = cur;
		if (!tab)
			return 0;
		*tab = '\0';
		cur = tab + 1;
	}
}

/* One line's fields: the header first, records, then 'end'. */
static int parse_line(struct parser *p, bool *header, bool *end)
{
	if (!*header) {
		*header = true;
		if (p->n_fields != 2 || strcmp(p->fields[0], "bootab-snapshot") || strcmp(p->fields[1], "1")) {
			parse_error_set(p->err, p->line, 0, "not snapshot output (expected 'bootab-snapshot<TAB>1' first)");
			return -EINVAL;
		}
		return 0;
	}
	if (!strcmp(p->fields[0], "end") && p->n_fields == 1) {
		*end = true;
		return 0;
	}
	return parse_record(p);
}

/* After the last line: every record a snapshot must hold. */
static int check_complete(struct parser *p)
{
	struct snapshot *snap = p->snap;
	const char *missing = NULL;

	if (!snap->boot_id || !snap->kernel || !snap->cmdline)
		missing = !snap->boot_id ? "boot_id" : !snap->kernel ? "kernel" : "cmdline";
	else if (snap->config_read_on && !snap->config_source)
		missing = "kernel_config";
	else if (snap->inventory.has_klog && snap->inventory.klog_source != INVENTORY_SOURCE_ABSENT &&
		 snap->inventory.klog_source != INVENTORY_SOURCE_SKIPPED && !p->saw_klog_count)
		missing = "kmsg_count";
	else if (!p->saw_log_source)
		missing = "log_source";
	else if (snap->log_source != SNAPSHOT_LOG_ABSENT && snap->log_source != SNAPSHOT_LOG_SKIPPED &&
		 !p->saw_log_count)
		missing = "log_count";
	if (missing) {
		parse_error_set(p->err, p->line, 0, "missing record '%s'", missing);
		return -EINVAL;
	}
	/* An absent or skipped kernel log is no evidence of errors either way. */
	if (snap->inventory.klog_source == INVENTORY_SOURCE_ABSENT ||
	    snap->inventory.klog_source == INVENTORY_SOURCE_SKIPPED)
		snap->inventory.has_klog = false;
	return 0;
}

/* One line of text (llen bytes at line): checked, split, read as the header, 'end' or a record. */
static int parse_one_line(struct parser *p, const char *line, size_t llen, bool *header, bool *end)
{
	enum record_kernel_given kernel_given = record_kernel_given(line, llen);
	char *copy;
	int r;

	/* A kconfig line is bounded by the whole output's bound: its value is cut when it is kept. */
	if (llen > SNAPSHOT_MAX_LINE && kernel_given != RECORD_KCONFIG) {
		parse_error_set(p->err, p->line, 0, "line longer than %d bytes", SNAPSHOT_MAX_LINE);
		return -EINVAL;
	}
	r = kernel_given ? 0 : check_line_bytes(p, line, llen);
	if (r < 0)
		return r;
	if (*end) {
		parse_error_set(p->err, p->line, 0, "record after 'end'");
		return -EINVAL;
	}
	copy = xstrndup(line, llen);
	r = split_fields(p, copy);
	if (r == 0)
		r = parse_line(p, header, end);
	free(copy);
	return r;
}

/*
 * One script's output into p's snapshot: snapshot.sh's whole (the header
 * first, 'end' last), or another's records alone (no header, no 'end').
 */
static int parse_text(struct parser *p, const struct snapshot_text *text, bool whole)
{
	bool header = !whole, end = false;
	size_t pos = 0;
	int r;

	p->line = 0;
	while (pos < text->len) {
		const char *line = text->data + pos, *nl = memchr(line, '\n', text->len - pos);
		size_t llen;

		p->line++;
		if (!nl) {
			parse_error_set(p->err, p->line, 0, "output cut off: last line has no newline");
			return -EINVAL;
		}
		llen = (size_t)(nl - line);
		pos += llen + 1;
		if (!whole && llen == 3 && !memcmp(line, "end", 3)) {
			parse_error_set(p->err, p->line, 0, "an 'end' record in a script's records");
			return -EINVAL;
		}
		r = parse_one_line(p, line, llen, &header, &end);
		if (r < 0)
			return r;
	}
	if (!header) {
		parse_error_set(p->err, 1, 0, "empty snapshot output");
		return -EINVAL;
	}
	if (whole && !end) {
		parse_error_set(p->err, p->line, 0, "output cut off: no 'end' record");
		return -EINVAL;
	}
	return 0;
}

int snapshot_parse_scripts(const struct snapshot_text *texts, size_t n, struct snapshot *ret,
			   struct parse_error *err, size_t *ret_which)
{
	struct snapshot snap = { 0 };
	struct parser p = { .snap = &snap, .err = err };
	size_t total = 0, i = 0;
	int r = 0;

	for (size_t k = 0; k < n; k++)
		total += texts[k].len;
	if (ret_which)
		*ret_which = 0;
	if (total > SNAPSHOT_MAX_BYTES) {
		parse_error_set(err, 0, 0, "snapshot output longer than %zu bytes", SNAPSHOT_MAX_BYTES);
		return -EFBIG;
	}
	for (; i < n && r == 0; i++)
		r = parse_text(&p, &texts[i], i == 0);
	/* A record missing is the whole's: its line is the last of snapshot.sh's output. */
	if (r == 0 && n > 1) {
		p.line = 0;
		for (size_t k = 0; k < texts[0].len; k++)
			p.line += texts[0].data[k] == '\n';
	}
	if (r == 0)
		r = check_complete(&p);
	else if (ret_which)
		*ret_which = i - 1;
	if (r < 0) {
		snapshot_release(&snap);
		return r;
	}
	iommu_map_sort(&snap.iommu);
	*ret = snap;
	return 0;
}

int snapshot_parse(const char *data, size_t len, struct snapshot *ret, struct parse_error *err)
{
	struct snapshot_text text = { data, len };

	return snapshot_parse_scripts(&text, 1, ret, err, NULL);
}
