#ifndef BOOTAB_REPORT_REP_LINE_H
#define BOOTAB_REPORT_REP_LINE_H

#include <stdbool.h>

#include "stats/metric.h"

/*
 * One rep as the campaign learns of it: "row randread 2/3: 5412 IOPS", the
 * value scaled and rounded as the report's tables show it (1.96 s, not 1960 ms).
 * set holds what the rep's output parsed to (NULL: nothing parsed, or a
 * check row); of a row with several metrics the first is shown, by name
 * ("randread.iops 5412 IOPS (+3 more)"). rc != 0 says the rep
 * failed. Names from the box are escaped. The caller's; NUL-terminated.
 */
char *report_rep_line(const char *row, unsigned rep, unsigned n_reps, bool check, int rc,
		      const struct metric_set *set);

#endif
