#ifndef BOOTAB_REPORT_CHART_H
#define BOOTAB_REPORT_CHART_H

#include <stddef.h>

#include "lib/strbuf.h"

/*
 * Geometry of the SVG charts in report.html: value axes with round ticks,
 * category slots, tick labels. Pure arithmetic, no drawing.
 */

struct chart_axis {
	double lo, hi;       /* the axis' range: both are ticks */
	double step;         /* distance between ticks */
	size_t n_ticks;      /* lo, lo + step, ..., hi */
};

/*
 * An axis from min to max (widened to whole ticks) with about `ticks`
 * ticks (at least 2), spaced 1, 2, 2.5 or 5 times a power of ten. A range
 * of zero is widened to 1 % of the value either side (1 either side of 0).
 * Returns 0, or -EINVAL (ret untouched) when min or max is not finite,
 * min > max or ticks < 2.
 */
int chart_axis_nice(double min, double max, size_t ticks, struct chart_axis *ret);

/* v mapped linearly from [axis->lo, axis->hi] to [px_lo, px_hi] (px_hi < px_lo for a y axis). */
double chart_axis_map(const struct chart_axis *axis, double v, double px_lo, double px_hi);

/* The centre of slot i of n equal slots between px_lo and px_hi. */
double chart_slot_center(size_t i, size_t n, double px_lo, double px_hi);

/*
 * Appends a tick label for v on an axis whose ticks are step apart: a
 * k, M, G or T suffix from 10 000 up, and just the decimals that tell two
 * ticks apart ("36.1M", "0.25", "3400", "-2.5k").
 */
void chart_tick_label(struct strbuf *sb, double v, double step);

#endif
