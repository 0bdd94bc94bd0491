/* What snapshot.c and snapshot-parse.c share, and no one else. */
#ifndef BOOTAB_SNAPSHOT_PARSE_H
#define BOOTAB_SNAPSHOT_PARSE_H

#include "kernel/snapshot.h"

/* Appends NAME (and VALUE, NULL: none) to e, both copied. */
void snapshot_entries_add(struct snapshot_entries *e, const char *name, const char *value);

#endif
