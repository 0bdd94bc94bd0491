#ifndef BOOTAB_SIDE_INTERNAL_H
#define BOOTAB_SIDE_INTERNAL_H

/*
 * What the files that read a side directory share; nothing outside
 * src/results/ includes this.
 *   side.c        side_load(): the directory's files, plain benchmark output, rows
 *   side-meta.c   meta.json (and meta.txt, kernel-config) into the side
 *   side-modes.c  which mode each side is a boot of
 */

#include "lib/strlist.h"
#include "results/side.h"

/* A new row of side called name, read from source (both copied); its other fields zero. */
struct row *side_add_row(struct side *side, const char *name, const char *source);

/*
 * The side's meta.json in dir into side (kernel-config beside it), else
 * its meta.txt; what cannot be read is a warning, and side->meta_problem
 * says why meta.json was not used.
 */
void side_meta_load(const char *dir, struct side *side, struct strlist *warnings);

#endif
