#ifndef BOOTAB_DRIFT_H
#define BOOTAB_DRIFT_H

#include "judge/compare.h"
#include "lib/strbuf.h"

/*
 * Whether the box is noisier than its history (docs/statistics.md, "When
 * the box changed"): every metric whose repeat boots can be set against
 * its history bears on one judgement, result->box. When the box is
 * noisier, or a metric's own boots are far above its history (unusual),
 * the metric's history tests decide nothing: verdict undecided,
 * history.drift set; one more round gives them a boot test of their own.
 * Called by compare_sides() once every metric is judged, before the
 * false-discovery correction.
 */
void drift_judge_box(struct compare_result *result, const struct history *history);

/*
 * The one line that says why cm's history tests are undecided (cm a
 * metric of result): "undecided: this box is noisier than its history
 * (drift X% vs expected Y%); one more round would decide", or, where the
 * campaign's boots vary no more than the history's own estimate but the
 * history has too few degrees of freedom to rule out a noisier box,
 * "undecided: the history is too short to vouch for this box (...)".
 * Appended to sb.
 */
void drift_add_undecided(struct strbuf *sb, const struct compare_result *result, const struct compare_metric *cm);

/*
 * The report's summary line for result->box (nothing appended when the
 * history judged, or no metric could be checked against it).
 */
void drift_add_summary(struct strbuf *sb, const struct compare_result *result);

#endif
