#ifndef BOOTAB_SCREEN_REPORT_H
#define BOOTAB_SCREEN_REPORT_H

#include "plan/plan.h"
#include "judge/compare.h"
#include "lib/strbuf.h"

/*
 * A screening campaign's answer ([factor] sections): per metric of res,
 * each factor's main effect (on minus off, in % of the metric, from the
 * log boot means of the design's boots: judge/design.h design_effects()),
 * its CI at alpha from the fit's residual (the repeated standing boots and
 * the interactions the design leaves out), its verdict, ranked by size,
 * and a warning where the design aliases it with an interaction. Appended
 * to sb as text; nothing when the plan has no factors.
 */
void screen_report_text(const struct plan *plan, const struct compare_result *res, double alpha, struct strbuf *sb);

#endif
