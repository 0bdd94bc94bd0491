/*
 * A fleet plan's boxes (fleet_from_plan()): its targets, or its Ansible
 * inventory read beside the plan; two boxes of one name, or two that
 * reach one machine, refused.
 */
#include "fleet/ansible-inventory.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lib/alloc.h"
#include "lib/file.h"
#include "plan/plan.h"

/* A fleet's inventory stays this small (each box of a fleet is a process of its own). */
#define INVENTORY_MAX_BYTES (1 << 20)

/* A box named by its destination: the host (and port), without the user. */
static char *box_name_of(const char *destination)
{
	const char *s = destination, *at;
	char *name;

	if (!strncmp(s, "ssh://", 6))
		s += 6;
	at = strrchr(s, '@');
	if (at)
		s = at + 1;
	name = xstrdup(s);
	for (char *p = name; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
		      *p == '.' || *p == '-' || *p == '_'))
			*p = '_';
	if (!plan_group_name_valid(name)) {
		free(name);
		name = xstrdup("box");
	}
	return name;
}

static char *dir_of(const char *path)
{
	const char *slash = strrchr(path, '/');

	if (!slash)
		return xstrdup(".");
	if (slash == path)
		return xstrdup("/");
	return xstrndup(path, (size_t)(slash - path));
}

/*
 * The machine a destination reaches: its host, lowercase (DNS names are
 * case-insensitive), and its port (22 unless ssh:// names one); the user
 * is left out, since root@box1 and admin@box1 reboot one machine. Other
 * forms (lab:NAME) are their own key.
 */
static char *box_address_of(const char *destination)
{
	const char *s = destination, *at, *host, *end, *port = "22";
	bool url = !strncmp(s, "ssh://", 6);
	char *key;

	if (url)
		s += 6;
	at = strrchr(s, '@');
	host = at ? at + 1 : s;
	if (*host == '[' && (end = strchr(host, ']'))) {
		host++;
		if (end[1] == ':' && end[2])
			port = end + 2;
	} else if (url && (end = strrchr(host, ':')) && end[1]) {
		port = end + 1;
	} else {
		end = host + strlen(host);
	}
	key = xasprintf("%.*s port %s", (int)(end - host), host, port);
	for (char *p = key; *p && strncmp(p, " port ", 6); p++)
		if (*p >= 'A' && *p <= 'Z')
			*p = (char)(*p - 'A' + 'a');
	return key;
}

struct box_key {
	char *key;
	size_t index;
};

static int box_key_cmp(const void *a, const void *b)
{
	const struct box_key *x = a, *y = b;
	int c = strcmp(x->key, y->key);

	return c ? c : (x->index > y->index) - (x->index < y->index);
}

/*
 * The first box (in file order) whose key (key_of: its name, or the
 * machine it reaches) an earlier box has: *ret_first and *ret_second, or
 * false. Sorted, not pairwise: a range can name many thousand hosts.
 */
static bool find_twice(const struct fleet *fleet, bool by_address, size_t *ret_first, size_t *ret_second)
{
	struct box_key *keys = xcalloc(fleet->n ? fleet->n : 1, sizeof(*keys));
	bool found = false;

	for (size_t i = 0; i < fleet->n; i++)
		keys[i] = (struct box_key){ by_address ? box_address_of(fleet->boxes[i].destination)
						       : xstrdup(fleet->boxes[i].name), i };
	qsort(keys, fleet->n, sizeof(*keys), box_key_cmp);
	for (size_t k = 1; k < fleet->n; k++)
		if (!strcmp(keys[k].key, keys[k - 1].key) && (!found || keys[k].index < *ret_second)) {
			size_t first = k - 1;

			while (first > 0 && !strcmp(keys[first - 1].key, keys[k].key))
				first--;
			*ret_first = keys[first].index;
			*ret_second = keys[k].index;
			found = true;
		}
	for (size_t i = 0; i < fleet->n; i++)
		free(keys[i].key);
	free(keys);
	return found;
}

/* Two boxes of one name, or two that reach one machine: refused, naming both. */
static int fleet_boxes_distinct(const struct plan *plan, const struct fleet *fleet, struct parse_error *err)
{
	size_t a, b;

	if (!plan->inventory)
		parse_error_set_file(err, plan->file);
	if (find_twice(fleet, false, &a, &b)) {
		parse_error_set(err, plan->inventory ? fleet->boxes[b].line : plan->targets_line, 0,
				"%s: '%s' and '%s' are both box '%s': each box needs a name of its own",
				plan->inventory ? "host" : "targets", fleet->boxes[a].destination,
				fleet->boxes[b].destination, fleet->boxes[b].name);
		return -EINVAL;
	}
	if (find_twice(fleet, true, &a, &b)) {
		char *address = box_address_of(fleet->boxes[b].destination);

		parse_error_set(err, plan->inventory ? fleet->boxes[b].line : plan->targets_line, 0,
				"%s: boxes %s ('%s') and %s ('%s') are one machine (%s): two campaigns would reboot it under each other",
				plan->inventory ? "host" : "targets", fleet->boxes[a].name, fleet->boxes[a].destination,
				fleet->boxes[b].name, fleet->boxes[b].destination, address);
		free(address);
		return -EINVAL;
	}
	return 0;
}

int fleet_from_plan(const struct plan *plan, struct fleet *ret, struct parse_error *err)
{
	struct fleet fleet = { 0 };
	int r = 0;

	if (plan->inventory) {
		char *dir = dir_of(plan->file), *path, *text;
		size_t len;

		path = plan->inventory[0] == '/' || !strcmp(dir, ".") ? xstrdup(plan->inventory) : path_join(dir, plan->inventory);
		free(dir);
		parse_error_set_file(err, path);
		r = file_read(path, INVENTORY_MAX_BYTES, &text, &len);
		if (r < 0) {
			parse_error_set(err, 0, 0, "cannot read the inventory: %s", strerror(-r));
			free(path);
			return r;
		}
		if (memchr(text, '\0', len)) {
			parse_error_set(err, 0, 0, "not a text file");
			r = -EINVAL;
		} else {
			r = ansible_inventory_parse(path, text, plan->group, &fleet, err);
		}
		free(text);
		free(path);
		if (r < 0)
			return r;
	} else if (plan->targets.n) {
		fleet.boxes = xcalloc(plan->targets.n, sizeof(*fleet.boxes));
		for (size_t i = 0; i < plan->targets.n; i++) {
			fleet.boxes[i].name = box_name_of(plan->targets.items[i]);
			fleet.boxes[i].destination = xstrdup(plan->targets.items[i]);
			fleet.n++;
		}
	} else {
		parse_error_set_file(err, plan->file);
		parse_error_set(err, 0, 0, "[campaign] names no fleet (targets or inventory)");
		return -EINVAL;
	}
	r = fleet_boxes_distinct(plan, &fleet, err);
	if (r == 0 && fleet.n < 2) {
		if (!plan->inventory)
			parse_error_set_file(err, plan->file);
		parse_error_set(err, plan->inventory ? 0 : plan->targets_line, 0, "%s: %zu box%s: a fleet has at least two (a single box is target = DESTINATION)",
				plan->inventory ? "group" : "targets", fleet.n, fleet.n == 1 ? "" : "es");
		r = -EINVAL;
	}
	if (r < 0) {
		fleet_release(&fleet);
		return r;
	}
	*ret = fleet;
	return 0;
}

void fleet_release(struct fleet *fleet)
{
	for (size_t i = 0; i < fleet->n; i++) {
		free(fleet->boxes[i].name);
		free(fleet->boxes[i].destination);
	}
	free(fleet->boxes);
	memset(fleet, 0, sizeof(*fleet));
}
