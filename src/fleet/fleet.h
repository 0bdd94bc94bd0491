#ifndef BOOTAB_FLEET_FLEET_H
#define BOOTAB_FLEET_FLEET_H

#include <stddef.h>
#include <stdio.h>

#include "campaign/campaign.h"

/*
 * bootab report --fleet: one campaign directory per machine, each compared
 * as its own report is (its plan's statistics, margins and the machine's
 * calibration history), then pooled over the machines (judge/fleet.h) and
 * printed to out: as text to out->txt, Markdown to out->md and JSON to
 * out->json, each that is not NULL. A machine is named by machine_names[i] (bootab
 * run of a fleet: the box), or, when machine_names is NULL, by its
 * directory's last component. Returns 0; -EINVAL when a directory is not a campaign, has
 * fewer than two boots recorded, two directories hold the same machine
 * (meta.json machine_id) or the campaigns' first modes differ (say() names
 * it); -EIO when out cannot be written.
 */
struct fleet_report_out {
	FILE *txt, *md, *json;
};

int campaign_fleet_report(const char *const *dirs, const char *const *machine_names, size_t n,
			  const struct campaign_options *options, const struct fleet_report_out *out);

#endif
