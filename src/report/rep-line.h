#ifndef BOOTAB_REPORT_REP_LINE_H
#define BOOTAB_REPORT_REP_LINE_H

#include <stdbool.h>

#include "stats/metric.h"

/*
 * One rep as the campaign learns of it: "row randread 2/3: 5.41 k IOPS".
 * set holds what the rep's output parsed to (NULL: nothing parsed, or a
 * check row); of a row with several metrics the first is shown, by name
 * ("randread.iops 5.41 k IOPS (+3 more)"). rc != 0 says the rep
 * failed. Names from the box are escaped. The caller's; NUL-terminated.
 */
char *report_rep_line(const char *row, unsigned rep, unsigned n_reps, bool check, int rc,
		      const struct metric_set *set);

/* v with three significant digits and a k, M or G prefix from 1000 up: "5.41 k". The caller's. */
char *report_value_short(double v);

#endif
