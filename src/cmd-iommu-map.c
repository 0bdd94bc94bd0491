/* bootab iommu-map: which device sits in which IOMMU group, and whether its DMA is translated. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "commands.h"
#include "kernel/iommu.h"
#include "lib/alloc.h"
#include "lib/file.h"
#include "cli/log.h"
#include "results/side.h"
#include "kernel/snapshot.h"
#include "cli/target-args.h"
#include "target/target.h"

static const char cmd_iommu_map_usage[] =
	"usage: bootab iommu-map [--target T] [--root DIR] [--json] [--device ADDR]\n"
	"       bootab iommu-map --diff SNAP_A SNAP_B [--json]\n"
	"\n"
	"Lists every device in an IOMMU group: group, type (DMA and DMA-FQ:\n"
	"translated; identity: not), address (or sysfs name for platform devices),\n"
	"name from pci.ids, driver; then the summary (\"1 DMA, 32 DMA-FQ, 2 identity\").\n"
	"\n"
	"  --target T         local (default), an SSH destination, or lab\n"
	"  --root DIR         read sysfs under DIR (local target)\n"
	"  --connect-timeout S  ssh ConnectTimeout (default 5)\n"
	"  --device ADDR      only this device (0000:c6:00.0, c6:00.0 or a sysfs name)\n"
	"  --diff A B         devices whose domain changed between two snapshots\n"
	"                     (snapshot directories or meta.json files)\n"
	"  --json             JSON on stdout\n"
	"\n"
	"Device names come from libpci's pci.ids on this machine ($BOOTAB_PCI_IDS\n"
	"overrides the file).\n";

/* "c6:00.0" is how lspci writes 0000:c6:00.0. */
static const struct iommu_device *find_device(const struct iommu_map *map, const char *addr)
{
	const struct iommu_device *d = iommu_map_device(map, addr);
	char *full;

	if (d)
		return d;
	full = xasprintf("0000:%s", addr);
	d = iommu_map_device(map, full);
	free(full);
	return d;
}

static const char *describe(const struct iommu_device *d)
{
	static char buf[96];

	if (d->description)
		return d->description;
	snprintf(buf, sizeof(buf), "(%s device)", d->bus ? d->bus : "non-PCI");
	return buf;
}

static void print_device(const struct iommu_map *map, const struct iommu_device *d, int name_width)
{
	printf("%3u  %-8s  %-12s  %-*s  %s\n", d->group, iommu_map_group(map, d->group)->type,
	       d->name, name_width, describe(d), d->driver ? d->driver : "-");
}

static int print_map(const struct iommu_map *map, const char *device, bool json)
{
	char *summary = iommu_map_summary(map);
	int width = 0;

	if (device) {
		const struct iommu_device *d = find_device(map, device);

		if (!d) {
			log_error("no device '%s' in any IOMMU group (%s)", device, summary);
			free(summary);
			return EXIT_NOTHING;
		}
		if (json) {
			json_t *groups = iommu_map_to_json(map), *g, *dev;
			size_t i, j;

			json_array_foreach(groups, i, g) {
				json_array_foreach(json_object_get(g, "devices"), j, dev) {
					if (!strcmp(json_string_value(json_object_get(dev, "name")), d->name)) {
						json_object_set(dev, "group", json_object_get(g, "group"));
						json_object_set(dev, "type", json_object_get(g, "type"));
						json_dumpf(dev, stdout, JSON_INDENT(2) | JSON_SORT_KEYS);
						putchar('\n');
					}
				}
			}
			json_decref(groups);
		} else {
			print_device(map, d, (int)strlen(describe(d)));
		}
		free(summary);
		return EXIT_OK;
	}
	if (json) {
		json_t *o = json_pack("{s:s, s:o}", "summary", summary, "groups", iommu_map_to_json(map));

		json_dumpf(o, stdout, JSON_INDENT(2) | JSON_SORT_KEYS);
		putchar('\n');
		json_decref(o);
		free(summary);
		return EXIT_OK;
	}
	for (size_t i = 0; i < map->n_devices; i++) {
		int w = (int)strlen(describe(&map->devices[i]));

		if (w > width)
			width = w;
	}
	for (size_t i = 0; i < map->n_devices; i++)
		print_device(map, &map->devices[i], width);
	printf("iommu group types: %s\n", summary);
	free(summary);
	return EXIT_OK;
}

/* A snapshot directory (its meta.json) or a meta.json file, read as every side is. */
static int load_snapshot_file(const char *arg, struct snapshot *ret)
{
	struct parse_error err = PARSE_ERROR_INIT;
	char *path, *message;
	json_t *j = NULL;
	int r;

	r = side_meta_read(arg, &path, &j, &err);
	if (r < 0 && err.message) {
		message = parse_error_format(&err);
		log_error("%s", message);
		free(message);
	} else if (r < 0) {
		log_error("failed to read '%s': %s", path, errno_string(r));
	} else {
		parse_error_release(&err);
		r = snapshot_from_json(j, ret, &err);
		json_decref(j);
		if (r < 0)
			log_error("%s: %s", path, err.message);
	}
	parse_error_release(&err);
	free(path);
	return r;
}

static const char *change_word(enum iommu_change_kind kind)
{
	switch (kind) {
	case IOMMU_CHANGE_TYPE:
		return "type";
	case IOMMU_CHANGE_GROUP:
		return "group";
	case IOMMU_CHANGE_APPEARED:
		return "appeared";
	case IOMMU_CHANGE_VANISHED:
		break;
	}
	return "vanished";
}

static int run_diff(const char *a_path, const char *b_path, bool json)
{
	struct snapshot a = { 0 }, b = { 0 };
	struct iommu_change *changes = NULL;
	size_t n = 0;
	char *sa, *sb;

	if (load_snapshot_file(a_path, &a) < 0)
		return EXIT_USAGE;
	if (load_snapshot_file(b_path, &b) < 0) {
		snapshot_release(&a);
		return EXIT_USAGE;
	}
	iommu_map_diff(&a.iommu, &b.iommu, &changes, &n);
	sa = iommu_map_summary(&a.iommu);
	sb = iommu_map_summary(&b.iommu);
	if (json) {
		json_t *list = json_array(), *o;

		for (size_t i = 0; i < n; i++) {
			const struct iommu_change *c = &changes[i];
			const struct iommu_device *d = c->a ? c->a : c->b;

			json_array_append_new(list, json_pack("{s:s, s:s, s:o, s:o, s:o, s:o}",
				"device", d->name, "change", change_word(c->kind),
				"type_a", c->type_a ? json_string(c->type_a) : json_null(),
				"type_b", c->type_b ? json_string(c->type_b) : json_null(),
				"group_a", c->a ? json_integer(c->a->group) : json_null(),
				"group_b", c->b ? json_integer(c->b->group) : json_null()));
		}
		o = json_pack("{s:s, s:s, s:o}", "summary_a", sa, "summary_b", sb, "changes", list);
		json_dumpf(o, stdout, JSON_INDENT(2) | JSON_SORT_KEYS);
		putchar('\n');
		json_decref(o);
	} else {
		for (size_t i = 0; i < n; i++) {
			const struct iommu_change *c = &changes[i];

			switch (c->kind) {
			case IOMMU_CHANGE_TYPE:
				printf("%-12s  %s -> %s  (group %u)\n", c->a->name, c->type_a,
				       c->type_b, c->b->group);
				break;
			case IOMMU_CHANGE_GROUP:
				printf("%-12s  %s, group %u -> %u\n", c->a->name, c->type_a,
				       c->a->group, c->b->group);
				break;
			case IOMMU_CHANGE_APPEARED:
				printf("%-12s  appeared: %s (group %u)\n", c->b->name, c->type_b,
				       c->b->group);
				break;
			case IOMMU_CHANGE_VANISHED:
				printf("%-12s  vanished: was %s (group %u)\n", c->a->name, c->type_a,
				       c->a->group);
				break;
			}
		}
		if (n == 0)
			printf("no device changed IOMMU domain\n");
		printf("a: %s\nb: %s\n", sa, sb);
	}
	free(sa);
	free(sb);
	free(changes);
	snapshot_release(&a);
	snapshot_release(&b);
	return EXIT_OK;
}

static int cmd_iommu_map(int argc, char **argv)
{
	static const struct option longopts[] = {
		TARGET_LONGOPT_TARGET,
		TARGET_LONGOPT_ROOT,
		{ "json", no_argument, NULL, 'j' },
		{ "device", required_argument, NULL, 'd' },
		{ "diff", no_argument, NULL, 'D' },
		TARGET_LONGOPT_CONNECT_TIMEOUT,
		{ NULL, 0, NULL, 0 },
	};
	struct target_args to = TARGET_ARGS_INIT("iommu-map", "local");
	const char *device = NULL;
	bool json = false, diff = false;
	int c, r, rc;
	struct parse_error err = PARSE_ERROR_INIT;
	struct snapshot snap = { 0 };
	struct target *t = NULL;
	const char *args[] = { "nolog", NULL };

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":", longopts, NULL)) != -1) {
		r = target_args_take(&to, c, optarg);
		if (r < 0)
			return EXIT_USAGE;
		if (r > 0)
			continue;
		switch (c) {
		case 'j':
			json = true;
			break;
		case 'd':
			device = optarg;
			break;
		case 'D':
			diff = true;
			break;
		default:
			return command_option_error("iommu-map", c, argv);
		}
	}
	if (diff) {
		if (argc - optind != 2 || device || to.root) {
			command_usage_error("iommu-map", "--diff takes two snapshots (directories or meta.json files) and no --device or --root");
			return EXIT_USAGE;
		}
		return run_diff(argv[optind], argv[optind + 1], json);
	}
	if (optind != argc) {
		command_usage_error("iommu-map", "unexpected argument '%s'", argv[optind]);
		return EXIT_USAGE;
	}
	r = target_args_open(&to, &t);
	if (r < 0) {
		return EXIT_USAGE;
	}
	r = target_snapshot(t, args, false, &snap, NULL, &err);
	if (r < 0) {
		if (r == -EINVAL) {
			char *msg = parse_error_format(&err);

			log_error("%s", msg);
			free(msg);
		} else {
			log_error("%s", target_error(t));
		}
		parse_error_release(&err);
		target_close(t);
		return EXIT_USAGE;
	}
	target_close(t);
	r = iommu_map_describe(&snap.iommu, getenv("BOOTAB_PCI_IDS"));
	if (r < 0)
		log_warning("cannot read pci.ids (%s): devices are shown by number", errno_string(r));
	rc = print_map(&snap.iommu, device, json);
	snapshot_release(&snap);
	return rc;
}

const struct command cmd_iommu_map_entry = {
	.name = "iommu-map",
	.run = cmd_iommu_map,
	.summary = "list devices by IOMMU group and type; diff two boots",
	.usage = cmd_iommu_map_usage,
};
