#ifndef BOOTAB_FLEET_ANSIBLE_INVENTORY_H
#define BOOTAB_FLEET_ANSIBLE_INVENTORY_H

#include <stdbool.h>
#include <stddef.h>

#include "lib/parse-error.h"

struct plan;

/*
 * The boxes of a fleet plan: its [campaign] targets, or the hosts of an
 * Ansible inventory in INI format (docs/fleet.md lists the subset bootab
 * reads: hosts, numeric and letter ranges, [group], [group:vars],
 * [group:children], and the variables ansible_host, ansible_user and
 * ansible_port, which map onto an OpenSSH destination).
 */
struct fleet_box {
	char *name;               /* the inventory's host name, or the destination's host: a directory name */
	char *destination;        /* what ssh(1) is given: host, user@host or ssh://[user@]host:port */
	unsigned line;            /* the inventory line that named it; 0 for targets */
};

struct fleet {
	struct fleet_box *boxes;
	size_t n;
};

/*
 * Parses inventory text (name: the file name for errors) and selects the
 * hosts of group (NULL or "all": every host; "ungrouped": those in no
 * group; else the group's hosts and its children's), in the order the
 * file first names them. Every error names file, line and field. Returns
 * 0 and *ret (fleet_release()), or -EINVAL with err filled (*ret
 * untouched); a group that is not in the file is an error on line 0.
 */
int ansible_inventory_parse(const char *name, const char *text, const char *group, struct fleet *ret,
		    struct parse_error *err);

/*
 * The boxes plan names (targets, or its inventory read relative to the
 * plan file's directory). Returns 0 and *ret; -EINVAL with err filled
 * (a plan that names no fleet, an inventory that does not parse, two
 * boxes of one name, fewer than two boxes), or -errno when the inventory
 * cannot be read (err names it).
 */
int fleet_from_plan(const struct plan *plan, struct fleet *ret, struct parse_error *err);

void fleet_release(struct fleet *fleet);

#endif
