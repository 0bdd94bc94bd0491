#include "kernel/inventory.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/pci-names.h"
#include "lib/alloc.h"
#include "lib/escape.h"
#include "lib/strbuf.h"

const char *inventory_source_name(enum inventory_source source)
{
	switch (source) {
	case INVENTORY_SOURCE_DMESG:
		return "dmesg";
	case INVENTORY_SOURCE_JOURNALCTL:
		return "journalctl";
	case INVENTORY_SOURCE_SYSTEMCTL:
		return "systemctl";
	case INVENTORY_SOURCE_FILE:
		return "file";
	case INVENTORY_SOURCE_SKIPPED:
		return "skipped";
	case INVENTORY_SOURCE_ABSENT:
		break;
	}
	return "absent";
}

int inventory_source_from_name(const char *name, enum inventory_source *ret)
{
	static const enum inventory_source all[] = {
		INVENTORY_SOURCE_ABSENT, INVENTORY_SOURCE_DMESG, INVENTORY_SOURCE_JOURNALCTL,
		INVENTORY_SOURCE_SYSTEMCTL, INVENTORY_SOURCE_FILE, INVENTORY_SOURCE_SKIPPED,
	};

	for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++) {
		if (!strcmp(name, inventory_source_name(all[i]))) {
			*ret = all[i];
			return 0;
		}
	}
	return -EINVAL;
}

const char *klog_level_name(int level)
{
	/* The kernel's KERN_* levels (include/linux/kern_levels.h). */
	static const char *const names[] = { "emerg", "alert", "crit", "err", "warning", "notice",
					     "info", "debug" };

	return level >= 0 && level <= 7 ? names[level] : "unknown";
}

static bool word_char(unsigned char c)
{
	return isalnum(c) || c == '_';
}

static bool hex_char(unsigned char c)
{
	return isdigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

/* A PCI address as the kernel names devices: DDDD:BB:DD.F (lowercase hex). */
static bool pci_address_at(const char *p)
{
	static const char shape[] = "hhhh:hh:hh.f";

	for (size_t i = 0; i < sizeof(shape) - 1; i++) {
		unsigned char c = (unsigned char)p[i];

		if (shape[i] == 'h' ? !hex_char(c) : shape[i] == 'f' ? !(c >= '0' && c <= '7') : c != shape[i])
			return false;
	}
	return !word_char((unsigned char)p[sizeof(shape) - 1]);
}

/* Whether a digit follows a letter in [p, q): "0c0a", "1af4", not "91ms". */
static bool hex_run_then_digit(const char *p, const char *q)
{
	bool letter = false;

	for (; p < q; p++) {
		if (isdigit((unsigned char)*p) && letter)
			return true;
		letter |= isalpha((unsigned char)*p) != 0 || *p == '_';
	}
	return false;
}

char *klog_normalize(const char *text)
{
	struct strbuf sb = STRBUF_INIT;
	const char *p = text;

	while (*p) {
		unsigned char c = (unsigned char)*p;
		bool after_word = p > text && word_char((unsigned char)p[-1]);

		if (isspace(c)) {
			while (isspace((unsigned char)*p))
				p++;
			if (sb.len && *p)
				strbuf_addch(&sb, ' ');
			continue;
		}
		if (!word_char(c)) {
			/* An errno: "-22" after a blank, '=', '(' or ':'; kept, as it says what failed. */
			if (c == '-' && isdigit((unsigned char)p[1]) && !after_word) {
				const char *q = p + 1;

				while (isdigit((unsigned char)*q))
					q++;
				if (!word_char((unsigned char)*q) && *q != '.') {
					strbuf_add(&sb, p, (size_t)(q - p));
					p = q;
					continue;
				}
			}
			strbuf_addch(&sb, (char)c);
			p++;
			continue;
		}
		if (pci_address_at(p)) {
			strbuf_add(&sb, p, 12);
			p += 12;
			continue;
		}
		if (c == '0' && (p[1] == 'x' || p[1] == 'X') && hex_char((unsigned char)p[2])) {
			const char *q = p + 2;

			while (hex_char((unsigned char)*q))
				q++;
			if (!word_char((unsigned char)*q)) {
				strbuf_addstr(&sb, "0xN");
				p = q;
				continue;
			}
		}
		{
			const char *q = p;
			bool digits = true, hex = true, any_digit = false;

			while (word_char((unsigned char)*q)) {
				digits &= isdigit((unsigned char)*q) != 0;
				hex &= hex_char((unsigned char)*q);
				any_digit |= isdigit((unsigned char)*q) != 0;
				q++;
			}
			if (digits) {
				strbuf_addch(&sb, 'N');
			} else if (isdigit(c) && !hex_run_then_digit(p, q)) {
				/* A number with its unit: "91ms", "4096kB". */
				while (isdigit((unsigned char)*p))
					p++;
				strbuf_addch(&sb, 'N');
				strbuf_add(&sb, p, (size_t)(q - p));
			} else if (hex && any_digit && q - p >= 8)
				strbuf_addch(&sb, 'H');
			else
				strbuf_add(&sb, p, (size_t)(q - p));
			p = q;
		}
	}
	return strbuf_detach(&sb, NULL);
}

bool inventory_name_valid(const char *s)
{
	size_t n = 0;

	for (const unsigned char *p = (const unsigned char *)s; *p; p++, n++)
		if (*p <= ' ' || *p >= 0x7f || *p == '/')
			return false;
	return n > 0 && n <= 255 && strcmp(s, ".") && strcmp(s, "..");
}

bool inventory_netif_name_valid(const char *s)
{
	size_t n = strlen(s);

	return n > 0 && n <= 255 && utf8_printable(s, n) && !strpbrk(s, " /") && strcmp(s, ".") && strcmp(s, "..");
}

char *inventory_netif_name(const char *raw)
{
	struct strbuf sb = STRBUF_INIT;

	text_escape_append(&sb, raw, strlen(raw), TEXT_ESCAPE_NEWLINE | TEXT_ESCAPE_BACKSLASH, NULL);
	return strbuf_detach(&sb, NULL);
}

/* A /dev path: "/dev/" and printable ASCII without blanks or "..". */
static bool dev_path_valid(const char *s)
{
	if (strncmp(s, "/dev/", 5) || !s[5] || strlen(s) > 255 || strstr(s, ".."))
		return false;
	for (const unsigned char *p = (const unsigned char *)s; *p; p++)
		if (*p <= ' ' || *p >= 0x7f)
			return false;
	return true;
}

static bool operstate_valid(const char *s)
{
	/* Documentation/ABI/testing/sysfs-class-net: RFC 2863 states. */
	static const char *const states[] = { "unknown", "notpresent", "down", "lowerlayerdown",
					      "testing", "dormant", "up", NULL };

	for (size_t i = 0; states[i]; i++)
		if (!strcmp(s, states[i]))
			return true;
	return false;
}

static char *dup_or_null(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

const struct inventory_pci *inventory_find_pci(const struct inventory *inv, const char *address)
{
	for (size_t i = 0; i < inv->n_pci; i++)
		if (!strcmp(inv->pci[i].address, address))
			return &inv->pci[i];
	return NULL;
}

int inventory_add_pci(struct inventory *inv, const char *address, unsigned vendor, unsigned device,
		      unsigned class_code, const char *driver, long iommu_group)
{
	if (!inventory_name_valid(address) || (driver && !inventory_name_valid(driver)) ||
	    iommu_group < -1 || iommu_group > 0xffffff)
		return -EINVAL;
	if (inventory_find_pci(inv, address))
		return -EEXIST;
	GROW(inv->pci, inv->alloc_pci, inv->n_pci + 1);
	inv->pci[inv->n_pci++] = (struct inventory_pci){
		.address = xstrdup(address), .vendor = vendor, .device = device,
		.class_code = class_code, .driver = dup_or_null(driver), .iommu_group = iommu_group,
	};
	inv->has_devices = true;
	return 0;
}

int inventory_add_node(struct inventory *inv, const char *class_name, const char *name, const char *dev,
		       const char *device)
{
	if (!inventory_name_valid(class_name) || !inventory_name_valid(name) || !dev_path_valid(dev) ||
	    (device && !inventory_name_valid(device)))
		return -EINVAL;
	for (size_t i = 0; i < inv->n_nodes; i++)
		if (!strcmp(inv->nodes[i].dev, dev))
			return -EEXIST;
	GROW(inv->nodes, inv->alloc_nodes, inv->n_nodes + 1);
	inv->nodes[inv->n_nodes++] = (struct inventory_node){
		xstrdup(class_name), xstrdup(name), xstrdup(dev), dup_or_null(device),
	};
	inv->has_devices = true;
	return 0;
}

int inventory_add_netif(struct inventory *inv, const char *name, const char *operstate, int carrier,
			const char *device)
{
	if (!inventory_netif_name_valid(name) || !operstate_valid(operstate) || carrier < -1 || carrier > 1 ||
	    (device && !inventory_name_valid(device)))
		return -EINVAL;
	for (size_t i = 0; i < inv->n_netifs; i++)
		if (!strcmp(inv->netifs[i].name, name))
			return -EEXIST;
	GROW(inv->netifs, inv->alloc_netifs, inv->n_netifs + 1);
	inv->netifs[inv->n_netifs++] = (struct inventory_netif){
		xstrdup(name), xstrdup(operstate), carrier, dup_or_null(device),
	};
	inv->has_devices = true;
	return 0;
}

int inventory_add_klog(struct inventory *inv, int level, double time, const char *text)
{
	char *copy;

	if (level < 0 || level > 4 || !(isnan(time) || (time >= 0 && time < 1e10)) ||
	    strlen(text) > 8192 || inv->n_klog >= INVENTORY_MAX_KLOG)
		return -EINVAL;
	for (const unsigned char *p = (const unsigned char *)text; *p; p++)
		if (*p < ' ' || *p == 0x7f)
			return -EINVAL;
	copy = xstrdup(text);
	/* C1 controls (U+0080-U+009F) can drive a terminal too: never kept. */
	for (unsigned char *p = (unsigned char *)copy; *p; p++)
		if (p[0] == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f)
			p[0] = p[1] = '?';
	GROW(inv->klog, inv->alloc_klog, inv->n_klog + 1);
	inv->klog[inv->n_klog++] = (struct klog_line){ level, time, copy, klog_normalize(copy) };
	return 0;
}

int inventory_add_unit(struct inventory *inv, const char *unit)
{
	if (!inventory_name_valid(unit))
		return -EINVAL;
	for (size_t i = 0; i < inv->n_failed_units; i++)
		if (!strcmp(inv->failed_units[i], unit))
			return -EEXIST;
	GROW(inv->failed_units, inv->alloc_failed_units, inv->n_failed_units + 1);
	inv->failed_units[inv->n_failed_units++] = xstrdup(unit);
	return 0;
}

static void describe_pci(struct pci_names *names, void *ctx)
{
	struct inventory *inv = ctx;

	for (size_t i = 0; i < inv->n_pci; i++) {
		struct inventory_pci *d = &inv->pci[i];
		char buf[512];

		if (d->vendor == IOMMU_ID_ABSENT || d->device == IOMMU_ID_ABSENT)
			continue;
		free(d->name);
		d->name = NULL;
		if (pci_names_device(names, d->vendor, d->device, 0, buf, sizeof(buf)))
			d->name = xstrdup(buf);
		free(d->class_name);
		d->class_name = NULL;
		if (d->class_code != IOMMU_ID_ABSENT && pci_names_class(names, d->class_code, 0, buf, sizeof(buf)))
			d->class_name = xstrdup(buf);
	}
}

int inventory_describe(struct inventory *inv, const char *ids_path)
{
	return pci_names_with(ids_path, false, describe_pci, inv);
}

static json_t *id_json(unsigned id, int digits)
{
	char buf[16];

	if (id == IOMMU_ID_ABSENT)
		return json_null();
	snprintf(buf, sizeof(buf), "0x%0*x", digits, id);
	return json_string(buf);
}

static json_t *str_or_null(const char *s)
{
	return s ? json_string(s) : json_null();
}

void inventory_to_json(const struct inventory *inv, const struct iommu_map *map, json_t *obj)
{
	if (inv->has_devices) {
		json_t *pci = json_array(), *nodes = json_array(), *net = json_array();

		for (size_t i = 0; i < inv->n_pci; i++) {
			const struct inventory_pci *d = &inv->pci[i];
			const struct iommu_group *g = d->iommu_group >= 0 && map
						      ? iommu_map_group(map, (unsigned)d->iommu_group) : NULL;

			json_array_append_new(pci, json_pack("{s:s, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o}",
				"address", d->address, "vendor", id_json(d->vendor, 4),
				"device", id_json(d->device, 4), "class", id_json(d->class_code, 6),
				"driver", str_or_null(d->driver),
				"iommu_group", d->iommu_group >= 0 ? json_integer(d->iommu_group) : json_null(),
				"iommu_type", str_or_null(g ? g->type : NULL), "name", str_or_null(d->name),
				"class_name", str_or_null(d->class_name)));
		}
		for (size_t i = 0; i < inv->n_nodes; i++) {
			const struct inventory_node *n = &inv->nodes[i];

			json_array_append_new(nodes, json_pack("{s:s, s:s, s:s, s:o}", "class", n->class_name,
				"name", n->name, "dev", n->dev, "device", str_or_null(n->device)));
		}
		for (size_t i = 0; i < inv->n_netifs; i++) {
			const struct inventory_netif *n = &inv->netifs[i];

			json_array_append_new(net, json_pack("{s:s, s:s, s:o, s:o}", "name", n->name,
				"operstate", n->operstate,
				"carrier", n->carrier < 0 ? json_null() : json_boolean(n->carrier),
				"device", str_or_null(n->device)));
		}
		json_object_set_new(obj, "devices", json_pack("{s:o, s:o, s:o}", "pci", pci, "nodes", nodes,
							      "net", net));
	}
	if (inv->has_klog) {
		json_t *lines = json_array();

		for (size_t i = 0; i < inv->n_klog; i++) {
			const struct klog_line *l = &inv->klog[i];

			json_array_append_new(lines, json_pack("{s:i, s:s, s:o, s:s}", "level", l->level,
				"level_name", klog_level_name(l->level),
				"time", isnan(l->time) ? json_null() : json_real(l->time), "text", l->text));
		}
		json_object_set_new(obj, "kernel_log", json_pack("{s:s, s:I, s:o}",
			"source", inventory_source_name(inv->klog_source), "count", (json_int_t)inv->klog_count,
			"lines", lines));
	}
	if (inv->has_units) {
		json_t *units = json_array();

		for (size_t i = 0; i < inv->n_failed_units; i++)
			json_array_append_new(units, json_string(inv->failed_units[i]));
		json_object_set_new(obj, "failed_units", json_pack("{s:s, s:o}", "source",
			inventory_source_name(inv->units_source), "units", units));
	}
}

/* "0x1002" (at most max) or null. */
static int id_from_json(const json_t *v, unsigned max, unsigned *ret)
{
	const char *s;
	char *end;
	unsigned long x;

	if (!v || json_is_null(v)) {
		*ret = IOMMU_ID_ABSENT;
		return 0;
	}
	s = json_string_value(v);
	if (!s || strncmp(s, "0x", 2) || !s[2] || strlen(s) > 10)
		return -EINVAL;
	for (const char *p = s + 2; *p; p++)
		if (!hex_char((unsigned char)*p))
			return -EINVAL;
	errno = 0;
	x = strtoul(s + 2, &end, 16);
	if (errno || *end || x > max)
		return -EINVAL;
	*ret = (unsigned)x;
	return 0;
}

/* A string or null member; *ok false for anything else. */
static const char *opt_string(const json_t *o, const char *key, bool *ok)
{
	const json_t *v = json_object_get(o, key);

	if (!v || json_is_null(v))
		return NULL;
	if (!json_is_string(v)) {
		*ok = false;
		return NULL;
	}
	return json_string_value(v);
}

/* A printable name from pci.ids, as stored; NULL when absent or unusable. */
static char *printable_dup(const char *s)
{
	if (!s || strlen(s) > 512)
		return NULL;
	for (const unsigned char *p = (const unsigned char *)s; *p; p++)
		if (*p < ' ' || *p == 0x7f)
			return NULL;
	return xstrdup(s);
}

static int devices_from_json(const json_t *devices, struct inventory *inv, struct parse_error *err)
{
	const json_t *pci = json_object_get(devices, "pci"), *nodes = json_object_get(devices, "nodes");
	const json_t *net = json_object_get(devices, "net"), *v;
	size_t i;

	if (!json_is_object(devices) || !json_is_array(pci) || !json_is_array(nodes) || !json_is_array(net)) {
		parse_error_set(err, 0, 0, "devices: not an object with arrays pci, nodes and net");
		return -EINVAL;
	}
	inv->has_devices = true;
	json_array_foreach(pci, i, v) {
		bool ok = true;
		const char *address = opt_string(v, "address", &ok), *driver = opt_string(v, "driver", &ok);
		const json_t *g = json_object_get(v, "iommu_group");
		unsigned vendor, device, cls;
		long group = -1;

		if (json_is_integer(g))
			group = (long)json_integer_value(g);
		else if (g && !json_is_null(g))
			ok = false;
		if (!ok || !address || id_from_json(json_object_get(v, "vendor"), 0xffff, &vendor) < 0 ||
		    id_from_json(json_object_get(v, "device"), 0xffff, &device) < 0 ||
		    id_from_json(json_object_get(v, "class"), 0xffffff, &cls) < 0 ||
		    inventory_add_pci(inv, address, vendor, device, cls, driver, group) < 0) {
			parse_error_set(err, 0, 0, "devices.pci[%zu]: bad or repeated device", i);
			return -EINVAL;
		}
		inv->pci[inv->n_pci - 1].name = printable_dup(opt_string(v, "name", &ok));
		inv->pci[inv->n_pci - 1].class_name = printable_dup(opt_string(v, "class_name", &ok));
	}
	json_array_foreach(nodes, i, v) {
		bool ok = true;
		const char *cls = opt_string(v, "class", &ok), *name = opt_string(v, "name", &ok);
		const char *dev = opt_string(v, "dev", &ok), *device = opt_string(v, "device", &ok);

		if (!ok || !cls || !name || !dev || inventory_add_node(inv, cls, name, dev, device) < 0) {
			parse_error_set(err, 0, 0, "devices.nodes[%zu]: bad or repeated node", i);
			return -EINVAL;
		}
	}
	json_array_foreach(net, i, v) {
		bool ok = true;
		const char *name = opt_string(v, "name", &ok), *state = opt_string(v, "operstate", &ok);
		const char *device = opt_string(v, "device", &ok);
		const json_t *carrier = json_object_get(v, "carrier");
		int c = json_is_boolean(carrier) ? json_is_true(carrier) : -1;

		if (carrier && !json_is_null(carrier) && !json_is_boolean(carrier))
			ok = false;
		if (!ok || !name || !state || inventory_add_netif(inv, name, state, c, device) < 0) {
			parse_error_set(err, 0, 0, "devices.net[%zu]: bad or repeated interface", i);
			return -EINVAL;
		}
	}
	return 0;
}

static int klog_from_json(const json_t *klog, struct inventory *inv, struct parse_error *err)
{
	const json_t *lines = json_object_get(klog, "lines"), *count = json_object_get(klog, "count"), *v;
	const char *source = json_string_value(json_object_get(klog, "source"));
	size_t i;

	if (!json_is_object(klog) || !source || inventory_source_from_name(source, &inv->klog_source) < 0 ||
	    !json_is_array(lines) || !json_is_integer(count) || json_integer_value(count) < 0 ||
	    json_array_size(lines) > INVENTORY_MAX_KLOG) {
		parse_error_set(err, 0, 0, "kernel_log: not an object with source, count and lines");
		return -EINVAL;
	}
	inv->has_klog = true;
	inv->klog_count = (unsigned long)json_integer_value(count);
	json_array_foreach(lines, i, v) {
		const json_t *level = json_object_get(v, "level"), *time = json_object_get(v, "time");
		const char *text = json_string_value(json_object_get(v, "text"));
		double t = json_is_number(time) ? json_number_value(time) : NAN;

		if (!json_is_integer(level) || !text || (time && !json_is_null(time) && !json_is_number(time)) ||
		    inventory_add_klog(inv, (int)json_integer_value(level), t, text) < 0) {
			parse_error_set(err, 0, 0, "kernel_log.lines[%zu]: bad line", i);
			return -EINVAL;
		}
	}
	if (inv->klog_count < inv->n_klog) {
		parse_error_set(err, 0, 0, "kernel_log.count: less than the lines given");
		return -EINVAL;
	}
	return 0;
}

static int units_from_json(const json_t *units, struct inventory *inv, struct parse_error *err)
{
	const json_t *list = json_object_get(units, "units"), *v;
	const char *source = json_string_value(json_object_get(units, "source"));
	size_t i;

	if (!json_is_object(units) || !source || inventory_source_from_name(source, &inv->units_source) < 0 ||
	    !json_is_array(list)) {
		parse_error_set(err, 0, 0, "failed_units: not an object with source and units");
		return -EINVAL;
	}
	inv->has_units = true;
	json_array_foreach(list, i, v) {
		if (!json_is_string(v) || inventory_add_unit(inv, json_string_value(v)) < 0) {
			parse_error_set(err, 0, 0, "failed_units.units[%zu]: not a unit name, or repeated", i);
			return -EINVAL;
		}
	}
	return 0;
}

int inventory_from_json(const json_t *obj, struct inventory *ret, struct parse_error *err)
{
	struct inventory inv = { 0 };
	const json_t *v;
	int r = 0;

	if (!json_is_object(obj)) {
		parse_error_set(err, 0, 0, "not a JSON object");
		return -EINVAL;
	}
	if ((v = json_object_get(obj, "devices")) && !json_is_null(v))
		r = devices_from_json(v, &inv, err);
	if (r == 0 && (v = json_object_get(obj, "kernel_log")) && !json_is_null(v))
		r = klog_from_json(v, &inv, err);
	if (r == 0 && (v = json_object_get(obj, "failed_units")) && !json_is_null(v))
		r = units_from_json(v, &inv, err);
	if (r < 0) {
		inventory_release(&inv);
		return r;
	}
	*ret = inv;
	return 0;
}

void inventory_release(struct inventory *inv)
{
	if (!inv)
		return;
	for (size_t i = 0; i < inv->n_pci; i++) {
		free(inv->pci[i].address);
		free(inv->pci[i].driver);
		free(inv->pci[i].name);
		free(inv->pci[i].class_name);
	}
	for (size_t i = 0; i < inv->n_nodes; i++) {
		free(inv->nodes[i].class_name);
		free(inv->nodes[i].name);
		free(inv->nodes[i].dev);
		free(inv->nodes[i].device);
	}
	for (size_t i = 0; i < inv->n_netifs; i++) {
		free(inv->netifs[i].name);
		free(inv->netifs[i].operstate);
		free(inv->netifs[i].device);
	}
	for (size_t i = 0; i < inv->n_klog; i++) {
		free(inv->klog[i].text);
		free(inv->klog[i].key);
	}
	for (size_t i = 0; i < inv->n_failed_units; i++)
		free(inv->failed_units[i]);
	free(inv->pci);
	free(inv->nodes);
	free(inv->netifs);
	free(inv->klog);
	free(inv->failed_units);
	memset(inv, 0, sizeof(*inv));
}
