/* The pooled report of a fleet (report/fleet-report.h). */
#include "report/fleet-report.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lib/escape.h"

static void put(FILE *out, const char *s)
{
	char *e = text_escape(s);

	fputs(e, out);
	free(e);
}

static void pct_or_dash(FILE *out, double x)
{
	if (isfinite(x))
		fprintf(out, "%+8.1f%%", x);
	else
		fprintf(out, "%9s", "-");
}

int report_fleet_text(FILE *out, const struct fleet_result *f, const char *const *ids)
{
	size_t width = 7;

	for (size_t i = 0; i < f->n_machines; i++)
		if (strlen(f->machines[i]) > width)
			width = strlen(f->machines[i]);
	fprintf(out, "fleet of %zu machines, every mode against ", f->n_machines);
	put(out, f->first_mode);
	fputs(" (+ is better):\n", out);
	for (size_t i = 0; i < f->n_machines; i++) {
		fputs("  ", out);
		put(out, f->machines[i]);
		if (ids && ids[i]) {
			fputs("  machine ", out);
			put(out, ids[i]);
		}
		fputc('\n', out);
	}
	for (size_t m = 0; m < f->n_metrics; m++) {
		const struct fleet_metric *fm = &f->metrics[m];

		fputc('\n', out);
		put(out, fm->row);
		fputs("  ", out);
		put(out, fm->metric);
		fputs("  ", out);
		put(out, fm->mode);
		fputs(" vs ", out);
		put(out, f->first_mode);
		fputs("  (", out);
		if (fm->unit[0]) {
			put(out, fm->unit);
			fputs(", ", out);
		}
		fprintf(out, "%s is better)\n", fm->better == BETTER_LOWER ? "lower" : "higher");
		fprintf(out, "  %-*s %9s %21s  %s\n", (int)width, "machine", "delta", "95% CI", "own verdict");
		for (size_t i = 0; i < f->n_machines; i++) {
			const struct fleet_effect *e = &fm->machines[i];
			char *name = text_escape(f->machines[i]);

			fprintf(out, "  %-*s ", (int)width, name);
			free(name);
			if (!e->present) {
				fprintf(out, "%9s %21s  %s\n", "-", "", "missing");
				continue;
			}
			pct_or_dash(out, e->delta_pct);
			if (isfinite(e->lo_pct))
				fprintf(out, "  [%+7.1f, %+7.1f]%%", e->lo_pct, e->hi_pct);
			else
				fprintf(out, " %21s", "");
			fprintf(out, "  %s (%s)\n", verdict_text(e->verdict)->words, compare_method_name(e->method));
		}
		fprintf(out, "  pooled: ");
		put(out, fm->words);
		fputc('\n', out);
		if (fm->pooled) {
			fprintf(out, "  spread between machines: sd %.2f %%", fm->spread_pct);
			if (isfinite(fm->tau_pct))
				fprintf(out, ", of which the effect's own (tau) %.2f %%", fm->tau_pct);
			fputc('\n', out);
			if (fm->pool.has_heterogeneity)
				fprintf(out, "  differs between machines? X = %.2f on %.0f df, p = %.3g (Q = %.2f, I2 = %.0f %%)\n",
					fm->pool.het_x, fm->pool.het_df, fm->pool.het_p, fm->pool.q, 100 * fm->pool.i2);
			else
				fprintf(out, "  differs between machines? not tested: every machine needs a test of its own on %d or more degrees of freedom\n",
					STATS_FLEET_HET_MIN_DF);
		}
	}
	fprintf(out, "\nsummary: %zu better or worse on the fleet, %zu within noise, %zu differ between machines, %zu not tested, of %zu\n",
		f->n_counts, f->n_within_noise, f->n_differs, f->n_untested, f->n_metrics);
	return ferror(out) ? -EIO : 0;
}
