#include "report/chart.h"

#include <errno.h>
#include <math.h>

int chart_axis_nice(double min, double max, size_t ticks, struct chart_axis *ret)
{
	static const double steps[] = { 1, 2, 2.5, 5, 10 };
	double raw, mag, step = 0, lo, hi;

	if (!isfinite(min) || !isfinite(max) || min > max || ticks < 2)
		return -EINVAL;
	if (max == min) {
		double pad = min == 0 ? 1 : fabs(min) * 0.01;

		min -= pad;
		max += pad;
	}
	raw = (max - min) / (double)(ticks - 1);
	mag = pow(10, floor(log10(raw)));
	for (size_t i = 0; i < sizeof(steps) / sizeof(steps[0]); i++) {
		step = steps[i] * mag;
		/* A relative tolerance keeps 0.3 / 0.1 from becoming 3.0000000000000004 steps. */
		if (step >= raw * (1 - 1e-9))
			break;
	}
	lo = floor(min / step + 1e-9) * step;
	hi = ceil(max / step - 1e-9) * step;
	/* -0.0 prints as "-0". */
	if (lo == 0)
		lo = 0;
	ret->lo = lo;
	ret->hi = hi;
	ret->step = step;
	ret->n_ticks = (size_t)llround((hi - lo) / step) + 1;
	return 0;
}

double chart_axis_map(const struct chart_axis *axis, double v, double px_lo, double px_hi)
{
	if (axis->hi == axis->lo)
		return (px_lo + px_hi) / 2;
	return px_lo + (v - axis->lo) / (axis->hi - axis->lo) * (px_hi - px_lo);
}

double chart_slot_center(size_t i, size_t n, double px_lo, double px_hi)
{
	if (n == 0)
		return (px_lo + px_hi) / 2;
	return px_lo + ((double)i + 0.5) * (px_hi - px_lo) / (double)n;
}

void chart_tick_label(struct strbuf *sb, double v, double step)
{
	static const struct {
		double scale;
		const char *suffix;
	} units[] = { { 1e12, "T" }, { 1e9, "G" }, { 1e6, "M" }, { 1e4, "k" }, { 1, "" } };
	double a = fmax(fabs(v), fabs(step)), scale = 1, s;
	const char *suffix = "";
	int decimals = 0;

	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		if (a >= units[i].scale) {
			/* "k" from 10 000: 3400 reads better than 3.4k next to 3600. */
			scale = units[i].scale == 1e4 ? 1e3 : units[i].scale;
			suffix = units[i].suffix;
			break;
		}
	}
	s = fabs(step) / scale;
	while (decimals < 9 && s > 0) {
		double shifted = s * pow(10, decimals);

		if (fabs(shifted - round(shifted)) < 1e-6 * fmax(1, shifted))
			break;
		decimals++;
	}
	v /= scale;
	if (fabs(v) < 0.5 * pow(10, -decimals)) {
		strbuf_addstr(sb, "0");
		return;
	}
	strbuf_addf(sb, "%.*f%s", decimals, v, suffix);
}
