/* report.json (--format json), described by docs/report-json.md and docs/report.schema.json. */
#include "report/formats.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "judge/kernels.h"
#include "lib/json-text.h"
#include "lib/version.h"
#include "report/factors.h"
#include "report/headline.h"
#include "report/kernels.h"
#include "report/legend.h"
#include "report/words.h"

static json_t *json_num(double v)
{
	if (isnan(v))
		return json_null();
	if (isinf(v))
		return json_string(v > 0 ? "inf" : "-inf");
	return json_real(v);
}

static json_t *json_test(const struct stats_test *t, enum metric_better better)
{
	return json_pack("{s:o,s:o,s:o,s:o,s:o,s:o}", "delta_pct", json_num(compare_log_pct(t->estimate, better)),
			 "ci_lo_pct", json_num(compare_log_pct(t->lo, better)),
			 "ci_hi_pct", json_num(compare_log_pct(t->hi, better)),
			 "p", json_num(t->p), "df", json_num(t->df), "se_log", json_num(t->se));
}

static json_t *json_boot_level(const struct compare_result *res)
{
	json_t *all = json_array();

	for (size_t i = 0; i < res->n_metrics; i++) {
		const struct compare_metric *cm = &res->metrics[i];
		json_t *m, *tests;

		if (!cm->has_components && !cm->has_history)
			continue;
		tests = json_array();
		m = json_pack("{s:s,s:s,s:o,s:o,s:o,s:I,s:I,s:o,s:o}", "row", cm->row, "metric", cm->metric,
			      "sigma_b_pct", json_num(report_sd_pct(cm->components.sigma_b2)),
			      "sigma_w_pct", json_num(report_sd_pct(cm->components.sigma_w2)),
			      "icc", json_num(cm->components.icc),
			      "boots", (json_int_t)cm->components.boots, "samples", (json_int_t)cm->components.samples,
			      "boot_sd_pct", json_num(report_sd_pct(cm->components.boot_var)),
			      "boot_df", json_num(cm->components.boot_df));
		if (cm->has_history)
			json_object_set_new(m, "history", json_pack("{s:I,s:o,s:o,s:o,s:o,s:b,s:b,s:b}",
				"entries", (json_int_t)cm->history.entries, "df", json_num(cm->history.df),
				"boot_sd_pct", json_num(report_sd_pct(cm->history.var)), "ratio", json_num(cm->history.ratio),
				"p", json_num(cm->history.p), "unusual", cm->history.unusual,
				"checked", cm->history.checked, "drift", cm->history.drift));
		for (size_t t = 0; t < cm->n_tests; t++) {
			const struct compare_test *ct = &cm->tests[t];
			json_t *j = json_pack("{s:s,s:s,s:I,s:I,s:s,s:o,s:s}", "mode", ct->mode,
					      "side", res->sides[ct->side].label, "boots", (json_int_t)ct->boots,
					      "boots_first", (json_int_t)ct->boots_first,
					      "method", compare_method_name(ct->method),
					      "delta_pct", json_num(ct->delta_pct), "test_verdict", verdict_name(ct->verdict));

			if (ct->method != METHOD_NONE) {
				json_object_set_new(j, "ci_lo_pct", json_num(ct->lo_pct));
				json_object_set_new(j, "ci_hi_pct", json_num(ct->hi_pct));
				json_object_set_new(j, "p", json_num(ct->test.p));
				json_object_set_new(j, "df", json_num(ct->test.df));
				json_object_set_new(j, "fdr_q", json_num(ct->fdr_q));
				json_object_set_new(j, "survives_fdr", json_boolean(ct->survives));
			}
			if (ct->has_welch)
				json_object_set_new(j, "welch", json_test(&ct->welch, cm->better));
			if (ct->has_paired) {
				json_t *pj = json_test(&ct->paired, cm->better);

				json_object_set_new(pj, "rounds", json_integer((json_int_t)ct->paired_rounds));
				json_object_set_new(j, "paired", pj);
			}
			if (ct->has_boots_needed)
				json_object_set_new(j, "boots_needed", ct->boots_needed ? json_integer(ct->boots_needed)
											 : json_string(">1000"));
			if (ct->has_equivalence)
				json_object_set_new(j, "equivalence", json_pack("{s:o,s:o,s:o,s:o,s:b}",
					"margin_pct", json_num(cm->margin_pct), "level", json_num(1 - 2 * res->alpha),
					"ci_lo_pct", json_num(ct->eq_lo_pct), "ci_hi_pct", json_num(ct->eq_hi_pct),
					"equivalent", ct->equivalent));
			if (ct->has_boots_to_decide)
				json_object_set_new(j, "boots_to_decide", ct->boots_to_decide ? json_integer(ct->boots_to_decide)
											      : json_string(">1000"));
			json_array_append_new(tests, j);
		}
		json_object_set_new(m, "tests", tests);
		json_array_append_new(all, m);
	}
	return all;
}

/*
 * report.json's "headline": one object per mode other than the first side's
 * (report/headline.h), in the order of the sides:
 *   {"mode": "off", "against": "pt", "text": "off vs pt: ...",
 *    "null": "none" | "same" | "undecided" | "not-shown" | "not-tested",
 *    "margin_pct": number (same, undecided), "detect_pct", "detect_boots":
 *    number, or ">1000" (not-shown, when known), "not_tested": count,
 *    "assumes_same_noise": a claim judged by the history t on one boot of
 *    the mode (headline_line.assumes_same_noise),
 *    "items": [{"kind": "claim" | "not-after-fdr" | "cost", "text": "...",
 *      claims: "row", "metric", "method": "boot" | "history", "delta_pct",
 *      "ci_lo_pct", "ci_hi_pct", "factor", "direction", "boots",
 *      "boots_first", "fdr_q", "energy" (the row's package energy, judged,
 *      when it reads RAPL), "counters" (the row's counters that moved, when
 *      any); cost: "row", "side"}]}
 * Every percentage is + is better, as in "comparisons".
 */
static json_t *json_headline(const struct compare_result *res, const struct headline *h)
{
	json_t *all = json_array();

	for (size_t i = 0; i < h->n_lines; i++) {
		const struct headline_line *l = &h->lines[i];
		json_t *line = json_pack("{s:s,s:s,s:s,s:s,s:I,s:b}", "mode", l->mode, "against", l->first_mode,
					 "text", l->text, "null", headline_null_name(l->null),
					 "not_tested", (json_int_t)l->not_tested,
					 "assumes_same_noise", l->assumes_same_noise);
		json_t *items = json_array();

		if (l->null == HEADLINE_NULL_SAME || l->null == HEADLINE_NULL_UNDECIDED)
			json_object_set_new(line, "margin_pct", json_num(l->margin_pct));
		if (l->has_detect) {
			json_object_set_new(line, "detect_pct", json_num(l->detect_pct));
			json_object_set_new(line, "detect_boots", l->detect_boots ? json_integer(l->detect_boots)
										 : json_string(">1000"));
		}
		for (size_t j = 0; j < l->n_items; j++) {
			const struct headline_item *it = &l->items[j];
			const struct answer *a = it->answer;
			json_t *o = json_pack("{s:s,s:s}", "kind", headline_kind_name(it->kind), "text", it->text);

			if (it->kind == HEADLINE_COST) {
				json_object_set_new(o, "row", json_string(it->cost->row));
				json_object_set_new(o, "side", json_string(res->sides[it->cost->side].label));
			} else {
				json_object_set_new(o, "row", json_string(a->metric->row));
				json_object_set_new(o, "metric", json_string(a->metric->metric));
				json_object_set_new(o, "method", json_string(compare_method_name(a->test->method)));
				json_object_set_new(o, "delta_pct", json_num(a->delta_pct));
				json_object_set_new(o, "ci_lo_pct", json_num(a->lo_pct));
				json_object_set_new(o, "ci_hi_pct", json_num(a->hi_pct));
				json_object_set_new(o, "factor", json_num(answer_factor(a->log_effect)));
				json_object_set_new(o, "direction", json_string(a->direction));
				json_object_set_new(o, "boots", json_integer((json_int_t)a->boots));
				json_object_set_new(o, "boots_first", json_integer((json_int_t)a->boots_first));
				json_object_set_new(o, "fdr_q", json_num(a->fdr_q));
				if (it->energy)
					json_object_set_new(o, "energy", json_string(it->energy));
				if (it->why)
					json_object_set_new(o, "counters", json_string(it->why));
			}
			json_array_append_new(items, o);
		}
		json_object_set_new(line, "items", items);
		json_array_append_new(all, line);
	}
	return all;
}

/*
 * report.json's "answers": the one answer of each mode and metric
 * (report/answer.h), the same numbers every format shows:
 *   {"mode", "against", "row", "metric", "answer": answer_kind_name(),
 *    "test": "boot" | "history" | "none", "delta_pct", "ci_lo_pct",
 *    "ci_hi_pct" (+ is better; CI null untested), "factor" (>= 1, in
 *    "direction"), "shown_as": "percent" | "factor", "direction", "p",
 *    "fdr_q", "boots", "boots_first", "one_boot", "boots_to_test",
 *    "boots_to_detect" (untested; null when not known)}
 */
static json_t *json_answers(const struct compare_result *res, const struct answer_view *v)
{
	json_t *all = json_array();

	for (size_t i = 0; i < v->n_modes; i++) {
		for (size_t j = 0; j < v->modes[i].n_answers; j++) {
			const struct answer *a = &v->modes[i].answers[j];
			json_t *o;

			if (a->kind == ANSWER_MISSING)
				continue;
			o = json_pack("{s:s,s:s,s:s,s:s,s:s,s:s}", "mode", a->mode, "against", v->modes[i].first_mode,
				      "row", a->metric->row, "metric", a->metric->metric,
				      "answer", answer_kind_name(a->kind),
				      "test", compare_method_name(a->test ? a->test->method : METHOD_NONE));
			json_object_set_new(o, "delta_pct", json_num(a->delta_pct));
			json_object_set_new(o, "ci_lo_pct", json_num(a->lo_pct));
			json_object_set_new(o, "ci_hi_pct", json_num(a->hi_pct));
			json_object_set_new(o, "factor", json_num(answer_factor(a->log_effect)));
			json_object_set_new(o, "shown_as", json_string(a->factor ? "factor" : "percent"));
			json_object_set_new(o, "direction", json_string(a->direction));
			json_object_set_new(o, "p", json_num(a->p));
			json_object_set_new(o, "fdr_q", json_num(a->fdr_q));
			json_object_set_new(o, "boots", json_integer((json_int_t)a->boots));
			json_object_set_new(o, "boots_first", json_integer((json_int_t)a->boots_first));
			json_object_set_new(o, "one_boot", json_boolean(a->one_boot));
			if (a->kind == ANSWER_NOT_TESTED) {
				json_object_set_new(o, "boots_to_test", json_integer(a->boots_to_test));
				json_object_set_new(o, "boots_to_detect", a->boots_to_detect
					? json_integer(a->boots_to_detect) : json_null());
			}
			json_array_append_new(all, o);
		}
	}
	(void)res;
	return all;
}

/* The comparison of side k's value of metric cm: report.json's comparisons[] entry. */
static json_t *json_cell(const struct compare_result *res, const struct compare_metric *cm, size_t k)
{
	const struct compare_cell *c = &cm->cells[k];
	json_t *j = json_object();

	json_object_set_new(j, "row", json_string(cm->row));
	json_object_set_new(j, "metric", json_string(cm->metric));
	if (cm->counter)
		json_object_set_new(j, "counter", json_true());
	json_object_set_new(j, "side", json_string(res->sides[k].label));
	json_object_set_new(j, "mode", json_string(res->sides[k].mode));
	json_object_set_new(j, "stat", json_string(stat_kind_name(cm->stat)));
	json_object_set_new(j, "unit", json_string(cm->unit));
	json_object_set_new(j, "better", json_string(cm->better == BETTER_LOWER ? "lower" : "higher"));
	json_object_set_new(j, "value", json_num(c->present ? c->value : NAN));
	json_object_set_new(j, "spread", json_num(c->present ? c->spread : NAN));
	json_object_set_new(j, "spread_pct", json_num(c->present ? c->spread_pct : NAN));
	json_object_set_new(j, "n", json_integer((json_int_t)c->n));
	json_object_set_new(j, "delta_pct", json_num(c->delta_pct));
	json_object_set_new(j, "drift_pct", json_num(c->drift_pct));
	json_object_set_new(j, "q", json_num(c->q));
	json_object_set_new(j, "screen_p", json_num(c->p));
	json_object_set_new(j, "screen_verdict", json_string(verdict_name(c->verdict)));
	json_object_set_new(j, "by_run", json_boolean(cm->by_run));
	if (cm->by_run && c->runs) {
		json_object_set_new(j, "runs", json_integer((json_int_t)c->runs));
		json_object_set_new(j, "delta_lo_pct", json_num(c->delta_lo));
		json_object_set_new(j, "delta_hi_pct", json_num(c->delta_hi));
		json_object_set_new(j, "drift_lo_pct", json_num(c->drift_lo));
		json_object_set_new(j, "drift_hi_pct", json_num(c->drift_hi));
	}
	if (cm->n_stats > 1 && c->present) {
		json_t *stats = json_array();

		for (size_t st = 0; st < cm->n_stats; st++)
			json_array_append_new(stats, json_pack("{s:s,s:o,s:o,s:o,s:o,s:o,s:s}",
				"stat", stat_kind_name(cm->stats[st]), "value", json_num(c->stats[st].value),
				"delta_pct", json_num(c->stats[st].delta_pct),
				"drift_pct", json_num(c->stats[st].drift_pct), "q", json_num(c->stats[st].q),
				"screen_p", json_num(c->stats[st].p),
				"screen_verdict", verdict_name(c->stats[st].verdict)));
		json_object_set_new(j, "stats", stats);
	}
	json_object_set_new(j, "round", json_integer(res->rounds[k]));
	{
		/* The boot's raw samples, in rep (or run) order, as its side recorded them. */
		const struct metric *m = compare_side_metric(res, cm, k);
		json_t *samples = json_array();

		for (size_t n = 0; m && n < m->n_samples; n++)
			json_array_append_new(samples, json_num(m->samples[n]));
		json_object_set_new(j, "samples", samples);
	}
	if (c->n_wild) {
		/* Wild reps: indices into samples, left out of the boot mean (judge/compare.h). */
		json_t *wild = json_array();

		for (size_t w = 0; w < c->n_wild; w++)
			json_array_append_new(wild, json_integer((json_int_t)c->wild[w]));
		json_object_set_new(j, "wild", wild);
	}
	if (c->pairs) {
		json_object_set_new(j, "pairs", json_integer((json_int_t)c->pairs));
		json_object_set_new(j, "pairs_agree", json_integer((json_int_t)c->pairs_agree));
	}
	return j;
}

/* Cost i (a check that failed on a side): report.json's costs[] entry. */
static json_t *json_cost(const struct compare_result *res, size_t i)
{
	json_t *c = json_object();

	json_object_set_new(c, "side", json_string(res->sides[res->costs[i].side].label));
	json_object_set_new(c, "row", json_string(res->costs[i].row));
	json_object_set_new(c, "rc", json_integer(res->costs[i].rc));
	json_object_set_new(c, "fails_on_first", json_boolean(res->costs[i].fails_on_first));
	if (res->costs[i].has_tests) {
		json_t *failed = json_array();

		for (size_t f = 0; f < res->costs[i].tests_failed; f++)
			json_array_append_new(failed, json_string(res->costs[i].failures[f]));
		json_object_set_new(c, "tests_total", json_integer((json_int_t)res->costs[i].tests_total));
		json_object_set_new(c, "tests_new", json_integer((json_int_t)res->costs[i].tests_new));
		json_object_set_new(c, "tests_failed", failed);
	}
	return c;
}

/* What bootab found a side lost (or gained), f: report.json's found.costs[] entry. */
static json_t *json_found_cost(const struct compare_result *res, const struct found *f)
{
	json_t *c = json_object();

	json_object_set_new(c, "side", json_string(res->sides[f->side].label));
	json_object_set_new(c, "found_by", json_string("bootab"));
	json_object_set_new(c, "kind", json_string(found_kind_name(f->kind)));
	json_object_set_new(c, "gain", json_boolean(f->gain));
	json_object_set_new(c, "text", json_string(f->text));
	json_object_set_new(c, "subject", json_string(f->subject));
	if (f->address)
		json_object_set_new(c, "address", json_string(f->address));
	if (f->kind == FOUND_DRIVER || f->kind == FOUND_LINK_DOWN) {
		json_object_set_new(c, "baseline", f->baseline_value ? json_string(f->baseline_value) : json_null());
		json_object_set_new(c, "value", f->value ? json_string(f->value) : json_null());
	}
	if (f->level >= 0) {
		json_object_set_new(c, "level", json_integer(f->level));
		json_object_set_new(c, "level_name", json_string(klog_level_name(f->level)));
		json_object_set_new(c, "count", json_integer((json_int_t)f->count));
		if (!isnan(f->time))
			json_object_set_new(c, "time", json_real(f->time));
	}
	return c;
}

/* report.json's found object: the baseline, the sides judged, the costs found, the baseline's noise. */
static json_t *json_found(const struct compare_result *res)
{
	json_t *found = json_array(), *noise_examples = json_array(), *found_notes = json_array();
	json_t *judged = json_array();

	for (size_t i = 0; i < res->found.n_found; i++)
		json_array_append_new(found, json_found_cost(res, &res->found.found[i]));
	for (size_t i = 0; i < res->found.noise_examples.n; i++)
		json_array_append_new(noise_examples, json_string(res->found.noise_examples.items[i]));
	for (size_t i = 0; i < res->found.notes.n; i++)
		json_array_append_new(found_notes, json_string(res->found.notes.items[i]));
	for (size_t k = 0; k < res->n_sides; k++)
		if (res->found.judged[k])
			json_array_append_new(judged, json_string(res->sides[k].label));
	return json_pack("{s:s, s:o, s:o, s:I, s:{s:I, s:I, s:I, s:o}, s:o}",
		"baseline", res->found.baseline, "judged", judged, "costs", found,
		"ignored", (json_int_t)res->found.n_ignored,
		"baseline_noise", "kernel_lines", (json_int_t)res->found.noise_klog,
		"devices", (json_int_t)res->found.noise_devices, "units", (json_int_t)res->found.noise_units,
		"examples", noise_examples, "notes", found_notes);
}

/* A side's [prepare] as it ran: [{"command", "rc"}] (the command escaped as every report prints it). */
static json_t *json_prepare(const struct side *side)
{
	json_t *a = json_array();

	for (size_t i = 0; i < side->n_prepare; i++)
		json_array_append_new(a, json_pack("{s:s, s:i}", "command", side->prepare[i].command, "rc",
						   side->prepare[i].rc));
	return a;
}

/* report.json's sides[]: label, mode, directory, whether a repeat of the first, proof. */
static json_t *json_sides(const struct compare_result *res)
{
	json_t *sides = json_array();

	for (size_t k = 0; k < res->n_sides; k++) {
		json_t *s = json_object();

		json_object_set_new(s, "label", json_string(res->sides[k].label));
		json_object_set_new(s, "mode", json_string(res->sides[k].mode));
		json_object_set_new(s, "dir", json_string(res->sides[k].dir));
		json_object_set_new(s, "repeat", json_boolean(k > 0 && !strcmp(res->sides[k].mode, res->sides[0].mode)));
		/* No firmware reset before a kexec boot: devices may carry the previous kernel's state. */
		json_object_set_new(s, "kexec", json_boolean(res->sides[k].kexec));
		if (res->sides[k].proof)
			json_object_set_new(s, "proof", json_string(res->sides[k].proof));
		/* What meta.json or a bench script's meta.txt recorded of the boot. */
		if (res->sides[k].kernel.release)
			json_object_set_new(s, "kernel", json_string(res->sides[k].kernel.release));
		if (res->sides[k].cmdline)
			json_object_set_new(s, "cmdline", json_string(res->sides[k].cmdline));
		if (res->sides[k].iommu_summary)
			json_object_set_new(s, "iommu_group_types", json_string(res->sides[k].iommu_summary));
		if (res->sides[k].load)
			json_object_set_new(s, "load", json_string(res->sides[k].load));
		if (res->sides[k].n_prepare)
			json_object_set_new(s, "prepare", json_prepare(&res->sides[k]));
		json_array_append_new(sides, s);
	}
	return sides;
}

static json_t *json_new_old_stat(const struct new_old_stat *st)
{
	if (!st->present)
		return json_null();
	return json_pack("{s:I, s:o, s:o, s:o, s:o, s:o, s:s}", "boots", (json_int_t)st->boots,
			 "new", json_num(st->new_value), "old", json_num(st->old_value), "pct", json_num(st->pct),
			 "lo_pct", json_num(st->lo), "hi_pct", json_num(st->hi), "verdict", new_old_verdict_name(st->verdict));
}

/* report.json's new_old[]: new against old code in one kernel, paired in each boot. */
static json_t *json_new_old(const struct compare_result *res)
{
	json_t *a = json_array();

	for (size_t i = 0; i < res->new_old.n_rows; i++) {
		const struct new_old_row *r = &res->new_old.rows[i];

		json_array_append_new(a, json_pack("{s:s, s:s, s:s, s:s, s:s, s:o, s:o, s:o}", "row", r->row, "table",
						   r->table, "size", r->size, "name", r->name, "unit", r->unit,
						   "kernel", r->kernel ? json_string(r->kernel) : json_null(),
						   "avg", json_new_old_stat(&r->avg), "min", json_new_old_stat(&r->min)));
	}
	return a;
}

/* report.json's versions_differ[]: each version that differs, with every side's value. */
static json_t *json_versions(const struct compare_result *res)
{
	json_t *versions = json_array();

	for (size_t i = 0; i < res->n_versions; i++) {
		json_t *v = json_object(), *vals = json_object();

		for (size_t k = 0; k < res->n_sides; k++)
			json_object_set_new(vals, res->sides[k].label,
					    res->versions[i].values[k] ? json_string(res->versions[i].values[k]) : json_null());
		json_object_set_new(v, "name", json_string(res->versions[i].name));
		json_object_set_new(v, "values", vals);
		json_array_append_new(versions, v);
	}
	return versions;
}

/* The summary's cost line: null when no time was recorded; its cheapest design null when no claim was timed. */
static json_t *json_design_cost(const struct compare_result *res)
{
	struct report_cost c;
	json_t *j, *rows;

	if (!report_cost_get(res, &c))
		return json_null();
	j = json_pack("{s:I,s:I,s:o}", "boots", (json_int_t)c.boots, "modes", (json_int_t)c.modes, "box_s",
		      json_num(c.box_s));
	if (!c.has_design) {
		json_object_set_new(j, "cheapest", json_null());
		return j;
	}
	rows = json_array();
	for (size_t i = 0; i < c.n_rows; i++)
		json_array_append_new(rows, json_pack("{s:s,s:I}", "row", c.rows[i].row, "reps",
						      (json_int_t)c.rows[i].reps));
	json_object_set_new(j, "cheapest", json_pack("{s:I,s:f,s:f,s:I,s:o,s:o}", "claims", (json_int_t)c.claims,
		"power", 0.80, "alpha", 0.05, "boots_per_mode", (json_int_t)c.rounds, "rows", rows,
		"box_s", json_num(c.design_s)));
	report_cost_release(&c);
	return j;
}

int report_json(FILE *out, const struct compare_result *res, const struct report_options *o)
{
	json_t *root = json_object(), *cmp = json_array(), *costs = json_array(), *warnings = json_array();
	struct headline h;
	char now[TIMESTAMP_UTC_SIZE];
	int r;

	/* What the document is, first: a reader checks these before anything else. */
	if (!o->generated)
		report_time_now(now);
	json_object_set_new(root, "format", json_string(REPORT_JSON_FORMAT));
	json_object_set_new(root, "format_version", json_integer(REPORT_JSON_FORMAT_VERSION));
	json_object_set_new(root, "bootab_version", json_string(BOOTAB_VERSION));
	json_object_set_new(root, "generated", json_string(o->generated ? o->generated : now));
	for (size_t i = 0; i < res->n_metrics; i++)
		for (size_t k = 0; k < res->n_sides; k++)
			json_array_append_new(cmp, json_cell(res, &res->metrics[i], k));
	for (size_t i = 0; i < res->n_costs; i++)
		json_array_append_new(costs, json_cost(res, i));
	if (o->warnings)
		for (size_t i = 0; i < o->warnings->n; i++)
			json_array_append_new(warnings, json_string(o->warnings->items[i]));
	headline_build(res, &h);
	json_object_set_new(root, "headline", json_headline(res, &h));
	json_object_set_new(root, "answers", json_answers(res, &h.view));
	json_object_set_new(root, "answer_summary", json_pack("{s:I,s:I,s:I,s:I,s:I,s:I}",
		"claims", (json_int_t)h.view.n_claims, "not_after_fdr", (json_int_t)h.view.n_not_after_fdr,
		"same", (json_int_t)h.view.n_same, "undecided", (json_int_t)h.view.n_undecided,
		"not_shown", (json_int_t)h.view.n_not_shown, "not_tested", (json_int_t)h.view.n_not_tested));
	headline_release(&h);
	json_object_set_new(root, "sides", json_sides(res));
	json_object_set_new(root, "loud_pct", json_real(o->loud_pct));
	json_object_set_new(root, "comparisons", cmp);
	json_object_set_new(root, "costs", costs);
	json_object_set_new(root, "found", json_found(res));
	json_object_set_new(root, "versions_differ", json_versions(res));
	{
		json_t *nc = json_array();

		for (size_t i = 0; i < res->n_mismatches; i++)
			json_array_append_new(nc, json_pack("{s:s, s:s, s:s}", "side",
							    res->sides[res->mismatches[i].side].label,
							    "row", res->mismatches[i].row, "what", res->mismatches[i].what));
		json_object_set_new(root, "not_comparable", nc);
	}
	json_object_set_new(root, "new_old", json_new_old(res));
	{
		json_t *f = factors_json(res);

		json_object_set_new(root, "factors", f ? f : json_null());
	}
	{
		struct kernel_compare kc;

		kernel_compare(res->sides, res->n_sides, &kc);
		json_object_set_new(root, "kernels", report_kernels_json(res, &kc));
		kernel_compare_release(&kc);
	}
	json_object_set_new(root, "screen_summary", json_pack("{s:I,s:I,s:I,s:I}",
		"counts", (json_int_t)res->n_counts, "within_noise", (json_int_t)res->n_within_noise,
		"loud", (json_int_t)res->n_loud, "no_drift", (json_int_t)res->n_no_drift));
	json_object_set_new(root, "alpha", json_real(res->alpha));
	json_object_set_new(root, "fdr_q", json_real(res->fdr_q));
	json_object_set_new(root, "rounds_inferred", json_boolean(res->rounds_inferred));
	json_object_set_new(root, "boot_level", json_boot_level(res));
	json_object_set_new(root, "test_summary", json_pack("{s:I,s:I,s:I,s:I,s:I,s:I,s:I}",
		"tests", (json_int_t)res->n_tests, "claims", (json_int_t)res->n_claims,
		"survive_fdr", (json_int_t)res->n_survive, "unusual", (json_int_t)res->n_unusual,
		"history_drift", (json_int_t)res->n_drift, "same", (json_int_t)res->n_same,
		"undecided", (json_int_t)res->n_undecided));
	json_object_set_new(root, "design_cost", json_design_cost(res));
	json_object_set_new(root, "warnings", warnings);
	r = json_text_dump(out, root, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_ENSURE_ASCII);
	fputc('\n', out);
	json_decref(root);
	return r < 0 ? -EIO : 0;
}
