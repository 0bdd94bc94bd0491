#ifndef BOOTAB_REPORT_FACTORS_H
#define BOOTAB_REPORT_FACTORS_H

#include <jansson.h>

#include "judge/compare.h"
#include "judge/screen.h"
#include "lib/strbuf.h"

/*
 * A screening design's answer (judge/screen.h, res->screen) in the words
 * of every format: the headline's line, the text section, report.json's
 * "factors" and report.html's section. Each does nothing (NULL) when res
 * has no design.
 */

/*
 * The headline's line, the factors' answers ranked by effect:
 *   "factors: pti=on 10.5x slower [5.2x, 21.3x] on syscalls; iommu=pt, init_on_free=1: within noise"
 * The caller's; NULL without a design.
 */
char *factors_headline(const struct compare_result *res);

/*
 * The text section (txt and md, after the headline): per metric each
 * factor's effect, CI and verdict ranked by size, the alias warnings, the
 * interactions the design estimates, and the costs seen only with a
 * factor on. Names from the plan and the boxes are escaped.
 */
void factors_text(const struct compare_result *res, struct strbuf *sb);

/* report.json's "factors" (docs/report-json.md); NULL without a design. */
json_t *factors_json(const struct compare_result *res);

#endif
