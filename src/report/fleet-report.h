#ifndef BOOTAB_REPORT_FLEET_H
#define BOOTAB_REPORT_FLEET_H

#include <stdio.h>

#include "judge/fleet.h"

/*
 * The pooled report of a fleet as text (docs/fleet.md): per metric and mode,
 * each machine's own estimate and verdict, then the pooled line. ids[] holds
 * each machine's machine_id, or NULL. Names and ids are escaped. Returns 0,
 * or -EIO when out cannot be written.
 */
int report_fleet_text(FILE *out, const struct fleet_result *f, const char *const *ids);

/*
 * The same as Markdown (tables; text escaped, and |, *, _, `, <, >, [, ]
 * and \\ written as entities), and as JSON (docs/fleet.md has its fields;
 * numbers that are not finite are null).
 */
int report_fleet_md(FILE *out, const struct fleet_result *f, const char *const *ids);
int report_fleet_json(FILE *out, const struct fleet_result *f, const char *const *ids);

#endif
