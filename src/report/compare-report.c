#include "report/compare-report.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "lib/alloc.h"
#include "lib/strbuf.h"
#include "report/html.h"

int report_format_from_name(const char *name, enum report_format *ret)
{
	if (!strcmp(name, "txt") || !strcmp(name, "text"))
		*ret = REPORT_TEXT;
	else if (!strcmp(name, "md"))
		*ret = REPORT_MD;
	else if (!strcmp(name, "csv"))
		*ret = REPORT_CSV;
	else if (!strcmp(name, "json"))
		*ret = REPORT_JSON;
	else if (!strcmp(name, "html"))
		*ret = REPORT_HTML;
	else
		return -EINVAL;
	return 0;
}

static const char *verdict_words(enum verdict v)
{
	switch (v) {
	case VERDICT_COUNTS:
		return "counts";
	case VERDICT_WITHIN_NOISE:
		return "within noise";
	case VERDICT_LOUD:
		return "loud: not judged";
	case VERDICT_NO_DRIFT:
		return "no drift measured";
	case VERDICT_DRIFT:
		return "drift";
	case VERDICT_MISSING:
		return "missing";
	case VERDICT_BASELINE:
	default:
		return "";
	}
}

/* Decimals a value of this size deserves; its spread is printed alike. */
static int decimals_for(double v)
{
	double a = fabs(v);

	if (a >= 1000)
		return 0;
	if (a >= 100)
		return 1;
	if (a >= 1)
		return 2;
	if (a >= 0.01)
		return 4;
	return 6;
}

static void add_value_as(struct strbuf *sb, double v, double like)
{
	if (isnan(v))
		strbuf_addstr(sb, "-");
	else
		strbuf_addf(sb, "%.*f", decimals_for(like), v);
}

static void add_value(struct strbuf *sb, double v)
{
	add_value_as(sb, v, v);
}

/* Writes the buffer as one line without trailing blanks. */
static void put_line(FILE *out, struct strbuf *sb)
{
	size_t n = sb->len;

	while (n > 0 && sb->buf[n - 1] == ' ')
		n--;
	strbuf_truncate(sb, n);
	fputs(strbuf_str(sb), out);
	fputc('\n', out);
	strbuf_truncate(sb, 0);
}

static void add_pct(struct strbuf *sb, double v)
{
	if (isnan(v))
		return;
	strbuf_addf(sb, "%+.1f%%", v);
}

static void add_range(struct strbuf *sb, double lo, double hi)
{
	if (isnan(lo) || isnan(hi))
		return;
	strbuf_addf(sb, "%+.1f to %+.1f%%", lo, hi);
}

static void add_delta(struct strbuf *sb, const struct compare_metric *cm, const struct compare_cell *c)
{
	if (cm->by_run && c->runs)
		add_range(sb, c->delta_lo, c->delta_hi);
	else
		add_pct(sb, c->delta_pct);
}

static void add_drift(struct strbuf *sb, const struct compare_metric *cm, const struct compare_cell *c)
{
	if (c->verdict == VERDICT_DRIFT || c->verdict == VERDICT_MISSING)
		return;
	if (cm->by_run && c->runs)
		add_range(sb, c->drift_lo, c->drift_hi);
	else
		add_pct(sb, c->drift_pct);
}

static void add_q(struct strbuf *sb, double q)
{
	if (isnan(q))
		return;
	if (isinf(q))
		strbuf_addstr(sb, "inf");
	else
		strbuf_addf(sb, "%.1f", q);
}

static void add_p(struct strbuf *sb, double p)
{
	if (isnan(p))
		return;
	if (p < 0.001)
		strbuf_addstr(sb, "<0.001");
	else
		strbuf_addf(sb, "%.3f", p);
}

static const char *better_words(enum metric_better b)
{
	return b == BETTER_LOWER ? "lower is better" : "higher is better";
}

static char *metric_title(const struct compare_metric *cm)
{
	/* A one-number file's only metric is the row itself. */
	if (!strcmp(cm->metric, "value"))
		return xstrdup(cm->row);
	return xasprintf("%s  %s", cm->row, cm->metric);
}

static void side_note(struct strbuf *sb, const struct compare_result *res, size_t k)
{
	const struct side *s = &res->sides[k];
	bool first_note = true;

	if (k == 0) {
		strbuf_addstr(sb, "first side");
		first_note = false;
	} else if (!strcmp(s->mode, res->sides[0].mode)) {
		strbuf_addf(sb, "repeat of %s: its delta is the drift", res->sides[0].label);
		first_note = false;
	}
	for (size_t i = 0; i < res->n_costs; i++) {
		const struct compare_cost *c = &res->costs[i];

		if (c->side != k)
			continue;
		strbuf_addf(sb, "%scost: %s failed, rc=%d%s", first_note ? "" : "; ", c->row, c->rc,
			    k != 0 && c->fails_on_first ? " (fails on the first side too)" : "");
		first_note = false;
	}
}

static const char *color_of(const struct compare_cell *c, bool on)
{
	if (!on)
		return "";
	switch (c->verdict) {
	case VERDICT_COUNTS:
		return c->delta_pct >= 0 ? "\033[32m" : "\033[31m";
	case VERDICT_LOUD:
		return "\033[33m";
	case VERDICT_WITHIN_NOISE:
	case VERDICT_DRIFT:
		return "\033[2m";
	default:
		return "";
	}
}

static void legend(FILE *out, const struct compare_result *res, const struct report_options *o,
		   const char *prefix)
{
	fprintf(out, "%sdelta: the side's statistic against the first side's, in %%, + is better.\n", prefix);
	fprintf(out, "%sdrift: the largest delta of a repeat of the first side's mode (%s) against it.\n",
		prefix, res->sides[0].mode);
	fprintf(out, "%scounts: |delta| >= 2 |drift| and |delta| > the first side's spread (%% of its mean);\n", prefix);
	fprintf(out, "%s  by-run rows: every run's delta has one sign and is >= 2x the largest per-run drift.\n", prefix);
	fprintf(out, "%sq = |delta|/|drift|; p = 1 - (2/pi) atan(q/sqrt(0.75)): the rule is a t-test with\n", prefix);
	fprintf(out, "%s  1 degree of freedom; at q = 2 it claims falsely about 26%% of the time when\n", prefix);
	fprintf(out, "%s  boot-to-boot noise dominates. More repeat boots make it a real test.\n", prefix);
	fprintf(out, "%sloud: the first side's or its repeat's spread is over %.1f%% of the mean; one repeat\n",
		prefix, o->loud_pct);
	fprintf(out, "%s  boot cannot characterise it, so it is reported, not judged.\n", prefix);
}

static void text_report(FILE *out, const struct compare_result *res, const struct report_options *o)
{
	const char *reset = o->color ? "\033[0m" : "";
	size_t label_w = 4;
	struct strbuf sb = STRBUF_INIT;

	for (size_t k = 0; k < res->n_sides; k++)
		if (strlen(res->sides[k].label) > label_w)
			label_w = strlen(res->sides[k].label);

	fprintf(out, "sides (every side against %s; + is better):\n", res->sides[0].label);
	for (size_t k = 0; k < res->n_sides; k++) {
		struct strbuf note = STRBUF_INIT;

		side_note(&note, res, k);
		strbuf_addf(&sb, "  %-*s  mode %-14s %s", (int)label_w, res->sides[k].label,
			    res->sides[k].mode, strbuf_str(&note));
		put_line(out, &sb);
		strbuf_release(&note);
	}
	if (res->n_repeats == 0)
		fprintf(out, "no repeat of %s: no drift was measured, nothing is judged\n",
			res->sides[0].label);
	for (size_t i = 0; i < res->n_versions; i++) {
		const struct compare_version *v = &res->versions[i];

		fprintf(out, "versions differ: %s:", v->name);
		for (size_t k = 0; k < res->n_sides; k++)
			fprintf(out, " %s=%s", res->sides[k].label, v->values[k] ? v->values[k] : "(not recorded)");
		fputc('\n', out);
	}

	for (size_t i = 0; i < res->n_metrics; i++) {
		const struct compare_metric *cm = &res->metrics[i];
		char *title;
		bool any = false;

		for (size_t k = 0; k < res->n_sides; k++)
			any |= cm->cells[k].present;
		/* Every side's value was unusable: the warnings said why. */
		if (!any)
			continue;
		title = metric_title(cm);

		fprintf(out, "\n%s  (%s%s%s, %s%s)\n", title, cm->unit, *cm->unit ? ", " : "",
			stat_kind_name(cm->stat), better_words(cm->better), cm->by_run ? ", run by run" : "");
		/* The value column holds "±", two bytes in UTF-8, in header and rows alike. */
		fprintf(out, "  %-*s  %22s %6s %3s  %16s  %16s %5s %6s  %s\n", (int)label_w, "side",
			"value ± spread", "", "n", "delta", "drift", "q", "p", "verdict");
		for (size_t k = 0; k < res->n_sides; k++) {
			const struct compare_cell *c = &cm->cells[k];
			struct strbuf v = STRBUF_INIT, d = STRBUF_INIT, dr = STRBUF_INIT;
			struct strbuf q = STRBUF_INIT, p = STRBUF_INIT, sp = STRBUF_INIT;

			if (!c->present) {
				fprintf(out, "  %-*s  %21s\n", (int)label_w, res->sides[k].label, "-");
				strbuf_release(&v);
				continue;
			}
			add_value(&v, c->value);
			strbuf_addstr(&v, " ± ");
			add_value_as(&v, c->spread, c->value);
			if (!isnan(c->spread_pct))
				strbuf_addf(&sp, "%.1f%%", c->spread_pct);
			add_delta(&d, cm, c);
			add_drift(&dr, cm, c);
			add_q(&q, c->q);
			add_p(&p, c->p);
			strbuf_addf(&sb, "  %-*s  %22s %6s %3zu  %16s  %16s %5s %6s  %s%s%s", (int)label_w,
				    res->sides[k].label, strbuf_str(&v), strbuf_str(&sp), c->n, strbuf_str(&d),
				    strbuf_str(&dr), strbuf_str(&q), strbuf_str(&p), color_of(c, o->color),
				    verdict_words(c->verdict), *color_of(c, o->color) ? reset : "");
			if (c->pairs >= 2)
				strbuf_addf(&sb, "; sign agrees in %zu of %zu pairs", c->pairs_agree, c->pairs);
			put_line(out, &sb);
			strbuf_release(&v);
			strbuf_release(&d);
			strbuf_release(&dr);
			strbuf_release(&q);
			strbuf_release(&p);
			strbuf_release(&sp);
		}
		free(title);
	}
	fprintf(out, "\nsummary: %zu count, %zu within noise, %zu loud, %zu without drift\n",
		res->n_counts, res->n_within_noise, res->n_loud, res->n_no_drift);
	legend(out, res, o, "");
	strbuf_release(&sb);
}

/* Markdown table cells: escape the pipe and backslash. */
static void md_cell(struct strbuf *sb, const char *s)
{
	for (; *s; s++) {
		if (*s == '|' || *s == '\\')
			strbuf_addch(sb, '\\');
		strbuf_addch(sb, *s);
	}
}

static void md_report(FILE *out, const struct compare_result *res, const struct report_options *o)
{
	struct strbuf sb = STRBUF_INIT;

	fputs("| side | mode | note |\n|---|---|---|\n", out);
	for (size_t k = 0; k < res->n_sides; k++) {
		struct strbuf note = STRBUF_INIT;

		side_note(&note, res, k);
		strbuf_truncate(&sb, 0);
		strbuf_addstr(&sb, "| ");
		md_cell(&sb, res->sides[k].label);
		strbuf_addstr(&sb, " | ");
		md_cell(&sb, res->sides[k].mode);
		strbuf_addstr(&sb, " | ");
		md_cell(&sb, strbuf_str(&note));
		strbuf_addstr(&sb, " |\n");
		fputs(strbuf_str(&sb), out);
		strbuf_release(&note);
	}
	for (size_t i = 0; i < res->n_versions; i++) {
		fprintf(out, "\n**versions differ:** `%s`:", res->versions[i].name);
		for (size_t k = 0; k < res->n_sides; k++)
			fprintf(out, " %s=`%s`", res->sides[k].label,
				res->versions[i].values[k] ? res->versions[i].values[k] : "(not recorded)");
		fputc('\n', out);
	}
	fputs("\n| row | metric | side | value | ± | spread | n | delta | drift | q | p | verdict |\n"
	      "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|\n", out);
	for (size_t i = 0; i < res->n_metrics; i++) {
		const struct compare_metric *cm = &res->metrics[i];

		for (size_t k = 0; k < res->n_sides; k++) {
			const struct compare_cell *c = &cm->cells[k];

			strbuf_truncate(&sb, 0);
			strbuf_addstr(&sb, "| ");
			md_cell(&sb, cm->row);
			strbuf_addstr(&sb, " | ");
			md_cell(&sb, cm->metric);
			strbuf_addstr(&sb, " | ");
			md_cell(&sb, res->sides[k].label);
			strbuf_addstr(&sb, " | ");
			if (c->present) {
				add_value(&sb, c->value);
				strbuf_addstr(&sb, " | ");
				add_value_as(&sb, c->spread, c->value);
				strbuf_addstr(&sb, " | ");
				if (!isnan(c->spread_pct))
					strbuf_addf(&sb, "%.1f%%", c->spread_pct);
				strbuf_addf(&sb, " | %zu | ", c->n);
				add_delta(&sb, cm, c);
				strbuf_addstr(&sb, " | ");
				add_drift(&sb, cm, c);
				strbuf_addstr(&sb, " | ");
				add_q(&sb, c->q);
				strbuf_addstr(&sb, " | ");
				add_p(&sb, c->p);
				strbuf_addf(&sb, " | %s", verdict_words(c->verdict));
				if (c->pairs >= 2)
					strbuf_addf(&sb, "; sign agrees in %zu of %zu pairs", c->pairs_agree, c->pairs);
				strbuf_addstr(&sb, " |\n");
			} else {
				strbuf_addstr(&sb, "- | | | | | | | | missing |\n");
			}
			fputs(strbuf_str(&sb), out);
		}
	}
	fprintf(out, "\nSummary: %zu count, %zu within noise, %zu loud, %zu without drift.\n\n",
		res->n_counts, res->n_within_noise, res->n_loud, res->n_no_drift);
	legend(out, res, o, "> ");
	strbuf_release(&sb);
}

/* RFC 4180: quote every field that needs it, double the quotes inside. */
static void csv_field(FILE *out, const char *s, bool last)
{
	if (strpbrk(s, ",\"\n\r")) {
		fputc('"', out);
		for (; *s; s++) {
			if (*s == '"')
				fputc('"', out);
			fputc(*s, out);
		}
		fputc('"', out);
	} else {
		fputs(s, out);
	}
	fputc(last ? '\n' : ',', out);
}

static void csv_number(FILE *out, double v, bool last)
{
	if (!isnan(v) && !isinf(v))
		fprintf(out, "%.10g", v);
	else if (isinf(v))
		fputs("inf", out);
	fputc(last ? '\n' : ',', out);
}

static void csv_report(FILE *out, const struct compare_result *res)
{
	fputs("row,metric,side,mode,stat,unit,better,value,spread,spread_pct,n,delta_pct,drift_pct,"
	      "delta_lo_pct,delta_hi_pct,drift_lo_pct,drift_hi_pct,q,p,verdict\n", out);
	for (size_t i = 0; i < res->n_metrics; i++) {
		const struct compare_metric *cm = &res->metrics[i];

		for (size_t k = 0; k < res->n_sides; k++) {
			const struct compare_cell *c = &cm->cells[k];
			char n[32];

			csv_field(out, cm->row, false);
			csv_field(out, cm->metric, false);
			csv_field(out, res->sides[k].label, false);
			csv_field(out, res->sides[k].mode, false);
			csv_field(out, stat_kind_name(cm->stat), false);
			csv_field(out, cm->unit, false);
			csv_field(out, cm->better == BETTER_LOWER ? "lower" : "higher", false);
			csv_number(out, c->present ? c->value : NAN, false);
			csv_number(out, c->present ? c->spread : NAN, false);
			csv_number(out, c->present ? c->spread_pct : NAN, false);
			snprintf(n, sizeof(n), "%zu", c->n);
			csv_field(out, n, false);
			csv_number(out, c->delta_pct, false);
			csv_number(out, c->drift_pct, false);
			csv_number(out, cm->by_run ? c->delta_lo : NAN, false);
			csv_number(out, cm->by_run ? c->delta_hi : NAN, false);
			csv_number(out, cm->by_run ? c->drift_lo : NAN, false);
			csv_number(out, cm->by_run ? c->drift_hi : NAN, false);
			csv_number(out, c->q, false);
			csv_number(out, c->p, false);
			csv_field(out, verdict_name(c->verdict), true);
		}
	}
}

static json_t *json_num(double v)
{
	if (isnan(v))
		return json_null();
	if (isinf(v))
		return json_string(v > 0 ? "inf" : "-inf");
	return json_real(v);
}

static int json_report(FILE *out, const struct compare_result *res, const struct report_options *o)
{
	json_t *root = json_object(), *sides = json_array(), *cmp = json_array();
	json_t *costs = json_array(), *versions = json_array(), *warnings = json_array();
	int r;

	for (size_t k = 0; k < res->n_sides; k++) {
		json_t *s = json_object();

		json_object_set_new(s, "label", json_string(res->sides[k].label));
		json_object_set_new(s, "mode", json_string(res->sides[k].mode));
		json_object_set_new(s, "dir", json_string(res->sides[k].dir));
		json_object_set_new(s, "repeat", json_boolean(k > 0 && !strcmp(res->sides[k].mode, res->sides[0].mode)));
		json_array_append_new(sides, s);
	}
	for (size_t i = 0; i < res->n_metrics; i++) {
		const struct compare_metric *cm = &res->metrics[i];

		for (size_t k = 0; k < res->n_sides; k++) {
			const struct compare_cell *c = &cm->cells[k];
			json_t *j = json_object();

			json_object_set_new(j, "row", json_string(cm->row));
			json_object_set_new(j, "metric", json_string(cm->metric));
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
			json_object_set_new(j, "p", json_num(c->p));
			json_object_set_new(j, "verdict", json_string(verdict_name(c->verdict)));
			json_object_set_new(j, "by_run", json_boolean(cm->by_run));
			if (cm->by_run && c->runs) {
				json_object_set_new(j, "runs", json_integer((json_int_t)c->runs));
				json_object_set_new(j, "delta_lo_pct", json_num(c->delta_lo));
				json_object_set_new(j, "delta_hi_pct", json_num(c->delta_hi));
				json_object_set_new(j, "drift_lo_pct", json_num(c->drift_lo));
				json_object_set_new(j, "drift_hi_pct", json_num(c->drift_hi));
			}
			if (c->pairs) {
				json_object_set_new(j, "pairs", json_integer((json_int_t)c->pairs));
				json_object_set_new(j, "pairs_agree", json_integer((json_int_t)c->pairs_agree));
			}
			json_array_append_new(cmp, j);
		}
	}
	for (size_t i = 0; i < res->n_costs; i++) {
		json_t *c = json_object();

		json_object_set_new(c, "side", json_string(res->sides[res->costs[i].side].label));
		json_object_set_new(c, "row", json_string(res->costs[i].row));
		json_object_set_new(c, "rc", json_integer(res->costs[i].rc));
		json_object_set_new(c, "fails_on_first", json_boolean(res->costs[i].fails_on_first));
		json_array_append_new(costs, c);
	}
	for (size_t i = 0; i < res->n_versions; i++) {
		json_t *v = json_object(), *vals = json_object();

		for (size_t k = 0; k < res->n_sides; k++)
			json_object_set_new(vals, res->sides[k].label,
					    res->versions[i].values[k] ? json_string(res->versions[i].values[k]) : json_null());
		json_object_set_new(v, "name", json_string(res->versions[i].name));
		json_object_set_new(v, "values", vals);
		json_array_append_new(versions, v);
	}
	if (o->warnings)
		for (size_t i = 0; i < o->warnings->n; i++)
			json_array_append_new(warnings, json_string(o->warnings->items[i]));
	json_object_set_new(root, "sides", sides);
	json_object_set_new(root, "loud_pct", json_real(o->loud_pct));
	json_object_set_new(root, "comparisons", cmp);
	json_object_set_new(root, "costs", costs);
	json_object_set_new(root, "versions_differ", versions);
	json_object_set_new(root, "summary", json_pack("{s:I,s:I,s:I,s:I}",
		"counts", (json_int_t)res->n_counts, "within_noise", (json_int_t)res->n_within_noise,
		"loud", (json_int_t)res->n_loud, "no_drift", (json_int_t)res->n_no_drift));
	json_object_set_new(root, "warnings", warnings);
	r = json_dumpf(root, out, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_ENSURE_ASCII);
	fputc('\n', out);
	json_decref(root);
	return r < 0 ? -EIO : 0;
}

int report_compare(FILE *out, const struct compare_result *res, const struct report_options *o)
{
	int r = 0;

	switch (o->format) {
	case REPORT_MD:
		md_report(out, res, o);
		break;
	case REPORT_CSV:
		csv_report(out, res);
		break;
	case REPORT_JSON:
		r = json_report(out, res, o);
		break;
	case REPORT_HTML:
		r = report_html(out, res, o);
		break;
	case REPORT_TEXT:
	default:
		text_report(out, res, o);
		break;
	}
	if (fflush(out) != 0 || ferror(out))
		return -EIO;
	return r;
}

void report_add_value(struct strbuf *sb, double v, double like)
{
	add_value_as(sb, v, like);
}

void report_add_delta(struct strbuf *sb, const struct compare_metric *cm, const struct compare_cell *c)
{
	add_delta(sb, cm, c);
}

void report_add_drift(struct strbuf *sb, const struct compare_metric *cm, const struct compare_cell *c)
{
	add_drift(sb, cm, c);
}

void report_add_q(struct strbuf *sb, double q)
{
	add_q(sb, q);
}

void report_add_p(struct strbuf *sb, double p)
{
	add_p(sb, p);
}

const char *report_verdict_words(enum verdict v)
{
	return verdict_words(v);
}

void report_side_note(struct strbuf *sb, const struct compare_result *res, size_t k)
{
	side_note(sb, res, k);
}

char *report_metric_title(const struct compare_metric *cm)
{
	return metric_title(cm);
}

void report_legend(FILE *out, const struct compare_result *res, const struct report_options *o,
		   const char *prefix)
{
	legend(out, res, o, prefix);
}
