/* The pooled report of a fleet (report/fleet-report.h). */
#include "report/fleet-report.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "lib/escape.h"
#include "lib/json-text.h"
#include "report/formats.h"

static void put(FILE *out, const char *s)
{
	char *e = text_escape(s);

	fputs(e, out);
	free(e);
}

/*
 * A pooled metric's spread between machines and its heterogeneity test, two
 * lines each starting with lead ("  " in text, "\n" in Markdown).
 */
static void put_spread(FILE *out, const struct fleet_metric *fm, const char *lead)
{
	/*
	 * Always finite: each machine's estimate is a difference of means of
	 * logs of samples in (0, METRIC_SAMPLE_MAX] (stats/metric.h), so
	 * within -/+ 975, and their sd under 1,400 (140,000 %).
	 */
	fprintf(out, "%sspread between machines: sd %.2f %%", lead, fm->spread_pct);
	if (isfinite(fm->tau_pct))
		fprintf(out, ", of which the effect's own (tau) %.2f %%", fm->tau_pct);
	fputc('\n', out);
	if (fm->pool.has_heterogeneity)
		fprintf(out, "%sdiffers between machines? X = %.2f on %.0f df, p = %.3g (Q = %.2f, I2 = %.0f %%)\n", lead,
			fm->pool.het_x, fm->pool.het_df, fm->pool.het_p, fm->pool.q, 100 * fm->pool.i2);
	else
		fprintf(out, "%sdiffers between machines? not tested: every machine needs a test of its own on %d or more degrees of freedom\n",
			lead, STATS_FLEET_HET_MIN_DF);
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
		{
			/* A fleet of rounds = auto campaigns: the level they stopped at. */
			char ci[16];

			snprintf(ci, sizeof(ci), "%.0f%% CI", 100 * (1 - f->alpha));
			fprintf(out, "  %-*s %9s %21s  %s\n", (int)width, "machine", "delta", ci, "own verdict");
		}
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
		if (fm->pooled)
			put_spread(out, fm, "  ");
	}
	fprintf(out, "\nsummary: %zu better or worse on the fleet, %zu within noise, %zu differ between machines, %zu not tested, of %zu\n",
		f->n_counts, f->n_within_noise, f->n_differs, f->n_untested, f->n_metrics);
	return ferror(out) ? -EIO : 0;
}

/* A number, or null when it is not finite (JSON has no NaN). */
static json_t *number_or_null(double x)
{
	return isfinite(x) ? json_real(x) : json_null();
}

static json_t *ci_or_null(double lo, double hi)
{
	if (!isfinite(lo) || !isfinite(hi))
		return json_null();
	return json_pack("[f, f]", lo, hi);
}

static json_t *fleet_metric_json(const struct fleet_result *f, const struct fleet_metric *fm)
{
	json_t *o = json_object(), *ms = json_array(), *pooled = json_object();

	json_object_set_new(o, "row", json_string(fm->row));
	json_object_set_new(o, "metric", json_string(fm->metric));
	json_object_set_new(o, "mode", json_string(fm->mode));
	json_object_set_new(o, "unit", json_string(fm->unit));
	json_object_set_new(o, "better", json_string(fm->better == BETTER_LOWER ? "lower" : "higher"));
	for (size_t i = 0; i < f->n_machines; i++) {
		const struct fleet_effect *e = &fm->machines[i];
		json_t *m = json_object();

		json_object_set_new(m, "machine", json_string(f->machines[i]));
		json_object_set_new(m, "present", json_boolean(e->present));
		if (e->present) {
			json_object_set_new(m, "delta_pct", number_or_null(e->delta_pct));
			json_object_set_new(m, "ci_pct", ci_or_null(e->lo_pct, e->hi_pct));
			json_object_set_new(m, "verdict", json_string(verdict_name(e->verdict)));
			json_object_set_new(m, "method", json_string(compare_method_name(e->method)));
		}
		json_array_append_new(ms, m);
	}
	json_object_set_new(o, "machines", ms);
	json_object_set_new(pooled, "verdict", json_string(fleet_verdict_name(fm->verdict)));
	json_object_set_new(pooled, "words", json_string(fm->words));
	json_object_set_new(pooled, "machines", json_integer((json_int_t)fm->n_present));
	json_object_set_new(pooled, "delta_pct", number_or_null(fm->delta_pct));
	json_object_set_new(pooled, "ci_pct", ci_or_null(fm->lo_pct, fm->hi_pct));
	if (fm->pooled) {
		json_object_set_new(pooled, "spread_sd_pct", number_or_null(fm->spread_pct));
		json_object_set_new(pooled, "tau_pct", number_or_null(fm->tau_pct));
		if (fm->pool.has_heterogeneity)
			json_object_set_new(pooled, "heterogeneity",
					    json_pack("{s:f, s:f, s:f, s:f, s:f}", "x", fm->pool.het_x, "df", fm->pool.het_df,
						      "p", fm->pool.het_p, "q", fm->pool.q, "i2", fm->pool.i2));
		else
			json_object_set_new(pooled, "heterogeneity", json_null());
	}
	json_object_set_new(o, "pooled", pooled);
	return o;
}

int report_fleet_json(FILE *out, const struct fleet_result *f, const char *const *ids)
{
	json_t *root = json_object(), *machines = json_array(), *metrics = json_array();
	int r;

	json_object_set_new(root, "fleet_report", json_integer(1));
	json_object_set_new(root, "first_mode", json_string(f->first_mode));
	json_object_set_new(root, "alpha", json_real(f->alpha));
	for (size_t i = 0; i < f->n_machines; i++)
		json_array_append_new(machines, json_pack("{s:s, s:o}", "name", f->machines[i], "machine_id",
							  ids && ids[i] ? json_string(ids[i]) : json_null()));
	json_object_set_new(root, "machines", machines);
	for (size_t m = 0; m < f->n_metrics; m++)
		json_array_append_new(metrics, fleet_metric_json(f, &f->metrics[m]));
	json_object_set_new(root, "metrics", metrics);
	json_object_set_new(root, "summary",
			    json_pack("{s:I, s:I, s:I, s:I, s:I}", "counts", (json_int_t)f->n_counts, "within_noise",
				      (json_int_t)f->n_within_noise, "differs", (json_int_t)f->n_differs, "untested",
				      (json_int_t)f->n_untested, "metrics", (json_int_t)f->n_metrics));
	r = json_text_dump(out, root, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	json_decref(root);
	fputc('\n', out);
	return r < 0 || ferror(out) ? -EIO : 0;
}

/* Text for a Markdown table cell: escaped, with | and the characters Markdown reads written as entities. */
static void md_cell(FILE *out, const char *s)
{
	char *e = text_escape(s);

	for (const char *c = e; *c; c++) {
		if (strchr("|*_`<>[]\\", *c))
			fprintf(out, "&#%d;", *c);
		else
			fputc(*c, out);
	}
	free(e);
}

static void md_pct(FILE *out, double x)
{
	if (isfinite(x))
		fprintf(out, "%+.1f %%", x);
	else
		fputs("-", out);
}

int report_fleet_md(FILE *out, const struct fleet_result *f, const char *const *ids)
{
	fprintf(out, "# Fleet of %zu machines, every mode against ", f->n_machines);
	md_cell(out, f->first_mode);
	fputs(" (+ is better)\n\n| machine | machine-id |\n|---|---|\n", out);
	for (size_t i = 0; i < f->n_machines; i++) {
		fputs("| ", out);
		md_cell(out, f->machines[i]);
		fputs(" | ", out);
		md_cell(out, ids && ids[i] ? ids[i] : "-");
		fputs(" |\n", out);
	}
	for (size_t m = 0; m < f->n_metrics; m++) {
		const struct fleet_metric *fm = &f->metrics[m];

		fputs("\n## ", out);
		md_cell(out, fm->row);
		fputs(" ", out);
		md_cell(out, fm->metric);
		fputs(": ", out);
		md_cell(out, fm->mode);
		fputs(" vs ", out);
		md_cell(out, f->first_mode);
		fputs(" (", out);
		if (fm->unit[0]) {
			md_cell(out, fm->unit);
			fputs(", ", out);
		}
		fprintf(out, "%s is better)\n\n| machine | delta | %.0f%% CI | own verdict |\n|---|---:|---:|---|\n",
			fm->better == BETTER_LOWER ? "lower" : "higher", 100 * (1 - f->alpha));
		for (size_t i = 0; i < f->n_machines; i++) {
			const struct fleet_effect *e = &fm->machines[i];

			fputs("| ", out);
			md_cell(out, f->machines[i]);
			if (!e->present) {
				fputs(" | - | | missing |\n", out);
				continue;
			}
			fputs(" | ", out);
			md_pct(out, e->delta_pct);
			if (isfinite(e->lo_pct))
				fprintf(out, " | [%+.1f, %+.1f] %%", e->lo_pct, e->hi_pct);
			else
				fputs(" | ", out);
			fprintf(out, " | %s (%s) |\n", verdict_text(e->verdict)->words, compare_method_name(e->method));
		}
		fputs("\n**pooled:** ", out);
		md_cell(out, fm->words);
		fputs("\n", out);
		if (fm->pooled)
			put_spread(out, fm, "\n");
	}
	fprintf(out, "\nsummary: %zu better or worse on the fleet, %zu within noise, %zu differ between machines, %zu not tested, of %zu\n",
		f->n_counts, f->n_within_noise, f->n_differs, f->n_untested, f->n_metrics);
	return ferror(out) ? -EIO : 0;
}
