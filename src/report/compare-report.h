#ifndef BOOTAB_REPORT_COMPARE_REPORT_H
#define BOOTAB_REPORT_COMPARE_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "compare.h"

enum report_format {
	REPORT_TEXT,
	REPORT_MD,
	REPORT_CSV,
	REPORT_JSON,
};

/* Returns 0 and sets *ret for "txt"/"text", "md", "csv", "json", else -EINVAL. */
int report_format_from_name(const char *name, enum report_format *ret);

struct report_options {
	enum report_format format;
	bool color;             /* ANSI colour (text only) */
	double loud_pct;        /* for the legend */
	const struct strlist *warnings;   /* printed in json; text/md print them on stderr */
};

/*
 * Writes the comparison to out in the given format. Returns 0, or -EIO
 * when out reports a write error.
 */
int report_compare(FILE *out, const struct compare_result *result, const struct report_options *options);

#endif
