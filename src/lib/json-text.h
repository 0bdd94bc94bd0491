#ifndef BOOTAB_LIB_JSON_TEXT_H
#define BOOTAB_LIB_JSON_TEXT_H

#include <stddef.h>
#include <stdio.h>

#include <jansson.h>

/*
 * JSON text as json_dumps() with flags writes it, but each real at the
 * fewest significant digits that read back as the same double ("alpha":
 * 0.05, not 0.050000000000000003): a reader gets every number bootab
 * computed or measured, exactly. Integers and strings as jansson writes
 * them.
 */

/* root's text onto out: 0, -ENOMEM or -EIO. */
int json_text_dump(FILE *out, const json_t *root, size_t flags);
/* root's text, the caller's; NULL when memory runs out. */
char *json_text(const json_t *root, size_t flags);

#endif
