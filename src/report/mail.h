#ifndef BOOTAB_REPORT_MAIL_H
#define BOOTAB_REPORT_MAIL_H

#include <stdio.h>

#include "judge/compare.h"
#include "report/compare-report.h"

#define MAIL_WIDTH 72

/*
 * The comparison as plain text to paste into a mailing-list reply: ASCII
 * only, fixed width, no line longer than MAIL_WIDTH columns. One block per
 * side compared with the first (repeats of the first side's mode are its
 * noise), one line per metric and statistic: the first side's value and
 * this side's side by side, the % (+ve is better, as kernel developers
 * post it), the noise the % was judged against and the verdict; under a
 * mode's first side, the boot-level test of that mode where one ran (a
 * line per metric: the estimate, its 95 % CI, p and the test's verdict);
 * then the side's costs. Names from files are cut to fit and every byte outside
 * printable ASCII becomes '?'. Returns 0, or -EIO on a write error.
 */
int report_mail(FILE *out, const struct compare_result *result, const struct report_options *options);

#endif
