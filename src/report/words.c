#include "report/words.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lib/alloc.h"

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

/*
 * One unit per table, as people read it: a time in the unit that makes its
 * largest value at least 1 (36.1 ms, not 36120948 ns), a byte size or rate
 * in KiB, MiB, GiB, any other rate or count with k from 10 000 and M from
 * 10 000 000: four digits stay exact (7775 IOPS, 12.35 k IOPS), as fio
 * prints IOPS itself (IOPS=9990, IOPS=12.2k). Values are divided by
 * factor; json and csv keep the raw.
 */
static void unit_scale(const char *unit, double largest, struct report_unit *ret)
{
	static const struct { const char *name; double seconds; } times[] = {
		{ "ns", 1e-9 }, { "us", 1e-6 }, { "µs", 1e-6 }, { "ms", 1e-3 }, { "s", 1 },
	};
	static const char *const time_to[] = { "ns", "us", "ms", "s" };
	static const double time_sec[] = { 1e-9, 1e-6, 1e-3, 1 };
	static const char *const bytes[] = { "B", "KiB", "MiB", "GiB", "TiB" };
	const char *rest;
	size_t n = strlen(unit);

	*ret = (struct report_unit){ .factor = 1 };
	snprintf(ret->unit, sizeof(ret->unit), "%s", unit);
	if (!(largest > 0) || !isfinite(largest) || n == 0 || n >= sizeof(ret->unit) - 3)
		return;
	for (size_t i = 0; i < sizeof(times) / sizeof(times[0]); i++) {
		size_t best = 0;

		if (strcmp(unit, times[i].name))
			continue;
		for (size_t t = 0; t < 4; t++)
			if (largest * times[i].seconds / time_sec[t] >= 1)
				best = t;
		ret->factor = time_sec[best] / times[i].seconds;
		snprintf(ret->unit, sizeof(ret->unit), "%s", time_to[best]);
		return;
	}
	for (size_t b = 0; b < 5; b++) {
		size_t len = strlen(bytes[b]);

		if (strncmp(unit, bytes[b], len) || (unit[len] && strcmp(unit + len, "/s")))
			continue;
		rest = unit + len;
		while (b < 4 && largest / ret->factor >= 1024) {
			ret->factor *= 1024;
			b++;
		}
		snprintf(ret->unit, sizeof(ret->unit), "%s%s", bytes[b], rest);
		return;
	}
	if (!strcmp(unit, "%"))
		return;
	if (largest >= 1e7) {
		ret->factor = 1e6;
		snprintf(ret->unit, sizeof(ret->unit), "M %s", unit);
	} else if (largest >= 1e4) {
		ret->factor = 1e3;
		snprintf(ret->unit, sizeof(ret->unit), "k %s", unit);
	}
}

void report_unit_of(const struct compare_result *res, const struct compare_metric *cm, struct report_unit *ret)
{
	double largest = 0;

	for (size_t k = 0; k < res->n_sides; k++)
		if (cm->cells[k].present && fabs(cm->cells[k].value) > largest)
			largest = fabs(cm->cells[k].value);
	unit_scale(cm->unit, largest, ret);
}

char *report_value_in_unit(double v, const char *unit)
{
	struct report_unit u;
	struct strbuf sb = STRBUF_INIT;

	if (isnan(v))
		return xstrdup("-");
	unit_scale(unit ? unit : "", fabs(v), &u);
	v /= u.factor;
	strbuf_addf(&sb, "%.*f", decimals_for(v), v);
	if (*u.unit) {
		strbuf_addch(&sb, ' ');
		strbuf_addstr(&sb, u.unit);
	}
	return strbuf_detach(&sb, NULL);
}

void report_add_value(struct strbuf *sb, double v, double like)
{
	if (isnan(v))
		strbuf_addstr(sb, "-");
	else
		strbuf_addf(sb, "%.*f", decimals_for(like), v);
}

void report_add_number(struct strbuf *sb, double v)
{
	report_add_value(sb, v, v);
}

/* Writes the buffer as one line without trailing blanks. */
void report_put_line(FILE *out, struct strbuf *sb)
{
	size_t n = sb->len;

	while (n > 0 && sb->buf[n - 1] == ' ')
		n--;
	strbuf_truncate(sb, n);
	fputs(strbuf_str(sb), out);
	fputc('\n', out);
	strbuf_truncate(sb, 0);
}

void report_add_pct(struct strbuf *sb, double v)
{
	if (isnan(v))
		return;
	strbuf_addf(sb, "%+.1f%%", v);
}

/* A by-run row's range of per-run deltas, "+2.0..+5.1%". */
static void report_add_range(struct strbuf *sb, double lo, double hi)
{
	if (isnan(lo) || isnan(hi))
		return;
	strbuf_addf(sb, "%+.1f..%+.1f%%", lo, hi);
}

void report_add_delta(struct strbuf *sb, const struct compare_metric *cm, const struct compare_cell *c)
{
	if (cm->by_run && c->runs)
		report_add_range(sb, c->delta_lo, c->delta_hi);
	else
		report_add_pct(sb, c->delta_pct);
}

void report_add_drift(struct strbuf *sb, const struct compare_metric *cm, const struct compare_cell *c)
{
	if (c->verdict == VERDICT_DRIFT || c->verdict == VERDICT_MISSING)
		return;
	if (cm->by_run && c->runs)
		report_add_range(sb, c->drift_lo, c->drift_hi);
	else
		report_add_pct(sb, c->drift_pct);
}

void report_add_q(struct strbuf *sb, double q)
{
	if (isnan(q))
		return;
	if (isinf(q))
		strbuf_addstr(sb, "inf");
	else
		strbuf_addf(sb, "%.1f", q);
}

void report_add_p(struct strbuf *sb, double p)
{
	if (isnan(p))
		return;
	if (p < 0.001)
		strbuf_addstr(sb, "<0.001");
	else
		strbuf_addf(sb, "%.3f", p);
}

const char *report_better_words(enum metric_better b)
{
	return b == BETTER_LOWER ? "lower is better" : "higher is better";
}

char *report_metric_title(const struct compare_metric *cm)
{
	/* A one-number file's only metric is the row itself. */
	if (!strcmp(cm->metric, "value"))
		return xstrdup(cm->row);
	return xasprintf("%s  %s", cm->row, cm->metric);
}

/* "kunit: 1 of 3 tests failed (dma_map.unmap_partial)", at most three named. */
static void cost_tests(struct strbuf *sb, const struct compare_cost *c, bool against_first)
{
	size_t named = c->tests_failed < 3 ? c->tests_failed : 3;

	strbuf_addf(sb, "%s: %zu of %zu test%s failed (", c->row, c->tests_failed, c->tests_total,
		    c->tests_total == 1 ? "" : "s");
	for (size_t f = 0; f < named; f++)
		strbuf_addf(sb, "%s%s", f ? ", " : "", c->failures[f]);
	if (c->tests_failed > named)
		strbuf_addf(sb, " and %zu more", c->tests_failed - named);
	strbuf_addch(sb, ')');
	if (against_first && c->fails_on_first)
		strbuf_addstr(sb, " (all fail on the first side too)");
	else if (against_first && c->tests_new < c->tests_failed)
		strbuf_addf(sb, " (%zu new)", c->tests_new);
	if (c->rc)
		strbuf_addf(sb, ", rc=%d", c->rc);
}

void report_cost_words(struct strbuf *sb, const struct compare_cost *c, bool against_first)
{
	if (c->has_tests)
		cost_tests(sb, c, against_first);
	else
		strbuf_addf(sb, "%s failed, rc=%d%s", c->row, c->rc,
			    against_first && c->fails_on_first ? " (fails on the first side too)" : "");
}

void report_side_note(struct strbuf *sb, const struct compare_result *res, size_t k)
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
	if (s->kexec) {
		/* No firmware reset: devices may carry the previous kernel's state. */
		strbuf_addstr(sb, first_note ? "kexec boot" : "; kexec boot");
		first_note = false;
	}
	for (size_t i = 0; i < res->n_costs; i++) {
		const struct compare_cost *c = &res->costs[i];

		if (c->side != k)
			continue;
		if (!first_note)
			strbuf_addstr(sb, "; ");
		first_note = false;
		strbuf_addstr(sb, "cost: ");
		report_cost_words(sb, c, k != 0);
	}
	/* How far the boot was proven to be its mode (meta.json "proof"). */
	if (s->proof) {
		strbuf_addf(sb, "%sproof: %s%s%s%s", first_note ? "" : "; ", s->proof, s->proof_weak ? " (" : "",
			    s->proof_weak ? s->proof_weak : "", s->proof_weak ? ")" : "");
		first_note = false;
	}
	{
		size_t costs = 0, gains = 0;

		for (size_t i = 0; i < res->found.n_found; i++) {
			if (res->found.found[i].side != k)
				continue;
			costs += !res->found.found[i].gain;
			gains += res->found.found[i].gain;
		}
		if (costs)
			strbuf_addf(sb, "%s%zu cost%s found by bootab", first_note ? "" : "; ", costs,
				    costs == 1 ? "" : "s");
		if (gains)
			strbuf_addf(sb, "%s%zu kernel line%s gone", first_note && !costs ? "" : "; ", gains,
				    gains == 1 ? "" : "s");
	}
}

/* The noise line: "the boots of pt differ in 2 kernel lines, 1 failed unit". */
void report_add_noise(struct strbuf *sb, const struct costs_result *f)
{
	const char *sep = "";

	if (f->noise_klog) {
		strbuf_addf(sb, " %zu kernel line%s", f->noise_klog, f->noise_klog == 1 ? "" : "s");
		sep = ",";
	}
	if (f->noise_devices) {
		strbuf_addf(sb, "%s %zu device%s", sep, f->noise_devices, f->noise_devices == 1 ? "" : "s");
		sep = ",";
	}
	if (f->noise_units)
		strbuf_addf(sb, "%s %zu failed unit%s", sep, f->noise_units, f->noise_units == 1 ? "" : "s");
}

bool report_found_any_judged(const struct compare_result *res)
{
	for (size_t k = 0; k < res->n_sides; k++)
		if (res->found.judged[k])
			return true;
	return res->found.notes.n > 0;
}

/* Markdown text: a backslash before every character Markdown gives a meaning. */
void report_md_text(struct strbuf *sb, const char *s)
{
	for (; *s; s++) {
		if (strchr("\\`*_{}[]()<>#+-.!|~", *s))
			strbuf_addch(sb, '\\');
		strbuf_addch(sb, *s);
	}
}

/*
 * Markdown table cells: escape the pipe and backslash, and what would open
 * raw HTML or an entity (CommonMark 6.6, 6.2): a unit or metric name
 * "<script>" from a box is shown, never run by a viewer.
 */
void report_md_cell(struct strbuf *sb, const char *s)
{
	for (; *s; s++) {
		if (strchr("|\\<>&", *s))
			strbuf_addch(sb, '\\');
		strbuf_addch(sb, *s);
	}
}

/* Markdown prose: only what would open raw HTML or an entity escaped, the rest as written. */
void report_md_plain(FILE *out, const char *s)
{
	for (; *s; s++) {
		if (strchr("\\<>&", *s))
			fputc('\\', out);
		fputc(*s, out);
	}
}

/* report_put_wrapped(), or with at_semi false report_put_words(). */
static void put_wrapped(FILE *out, const char *text, size_t width, const char *indent, bool at_semi)
{
	size_t col = 0, ind = strlen(indent), n = strlen(text);
	const char *end = text + n;

	while (text < end) {
		size_t room = width > col ? width - col : 0, cut = 0, cols = 0, last_semi = 0, last_space = 0;

		/* The longest piece that fits; prefer its last "; ", then its last space. */
		for (size_t i = 0; text + i < end; i++) {
			cols += ((unsigned char)text[i] & 0xc0) != 0x80;
			if (cols > room)
				break;
			cut = i + 1;
			if (at_semi && text[i] == ';' && text[i + 1] == ' ')
				last_semi = i + 1;
			else if (text[i] == ' ')
				last_space = i;
		}
		if (text + cut < end)
			cut = last_semi ? last_semi : last_space ? last_space : cut;
		if (cut == 0)
			cut = strcspn(text, " ") ? strcspn(text, " ") : 1;
		fwrite(text, 1, cut, out);
		text += cut;
		while (*text == ' ')
			text++;
		if (text < end) {
			fprintf(out, "\n%s", indent);
			col = ind;
		}
	}
	fputc('\n', out);
}

void report_put_wrapped(FILE *out, const char *text, size_t width, const char *indent)
{
	put_wrapped(out, text, width, indent, true);
}

void report_put_words(FILE *out, const char *text, size_t width, const char *indent)
{
	put_wrapped(out, text, width, indent, false);
}

/* A variance in log units as a percentage-like sd: 100 sqrt(var). */
void report_add_sd_pct(struct strbuf *sb, double var)
{
	if (isnan(var))
		strbuf_addstr(sb, "-");
	else
		strbuf_addf(sb, "%.2f%%", 100 * sqrt(var));
}

bool report_any_boot_level(const struct compare_result *res)
{
	for (size_t i = 0; i < res->n_metrics; i++)
		if (res->metrics[i].has_components || res->metrics[i].has_history)
			return true;
	return false;
}

const char *report_method_words(enum compare_method m)
{
	switch (m) {
	case METHOD_BOOT:
		return "boot t";
	case METHOD_HISTORY:
		return "history t";
	case METHOD_NONE:
	default:
		return "none";
	}
}

/* "+4.1% (95% CI +2.0 to +6.3%)" */
void report_add_ci(struct strbuf *sb, double lo, double hi)
{
	if (isnan(lo) || isnan(hi))
		return;
	strbuf_addf(sb, "%+.1f to %+.1f%%", lo, hi);
}

/* The notes after a test's verdict: FDR, the checks, the boots it needs. */
void report_add_test_notes(struct strbuf *sb, const struct compare_result *res, const struct compare_test *t)
{
	const char *sep = "";

	if (t->has_equivalence) {
		strbuf_addf(sb, "%.0f%% CI ", 100 * (1 - 2 * res->alpha));
		report_add_ci(sb, t->eq_lo_pct, t->eq_hi_pct);
		sep = "; ";
		if (t->verdict == VERDICT_UNDECIDED && t->has_boots_to_decide) {
			if (t->boots_to_decide)
				strbuf_addf(sb, "%sabout %u boots per mode would decide it", sep, t->boots_to_decide);
			else
				strbuf_addf(sb, "%smore than 1000 boots per mode would be needed to decide it", sep);
		}
	}

	if (t->method == METHOD_NONE) {
		if (t->boots < 2 && t->boots_first < 2)
			strbuf_addstr(sb, "one boot per mode: 2 boots per mode, or a history of this box, would test it");
		else if (t->boots < 2 || t->boots_first < 2)
			strbuf_addf(sb, "one boot of %s: 2 boots per mode, or a history of this box, would test it",
				    t->boots < 2 ? t->mode : res->sides[0].mode);
		else
			strbuf_addf(sb, "no boot test: the boot means do not vary (a constant shift of %+.1f%%), no test can bound it",
				    t->delta_pct);
		sep = "; ";
	} else if (t->verdict == VERDICT_COUNTS) {
		strbuf_addf(sb, "%s%s FDR over %zu test%s (q %.3f)", sep, t->survives ? "survives" : "does not survive",
			    res->n_tests, res->n_tests == 1 ? "" : "s", t->fdr_q);
		sep = "; ";
	}
	/* Decided alike, or undecided with its own count above: no second count. */
	if (t->verdict == VERDICT_SAME || t->verdict == VERDICT_UNDECIDED)
		return;
	if (!t->has_boots_needed)
		return;
	if (t->boots_needed)
		strbuf_addf(sb, "%s%u boots per mode for %.0f%% power at ", sep, t->boots_needed, COMPARE_POWER * 100);
	else
		strbuf_addf(sb, "%smore than 1000 boots per mode for %.0f%% power at ", sep, COMPARE_POWER * 100);
	/* Past 2x either way, the effect as the answer tells it: a factor. */
	if (exp(fabs(t->estimate)) >= REPORT_FACTOR_FROM)
		strbuf_addf(sb, "%.1fx", exp(fabs(t->estimate)));
	else
		strbuf_addf(sb, "%+.1f%%", t->delta_pct);
}

/* Columns sb's text takes: one per UTF-8 character. */
size_t report_text_columns(const struct strbuf *sb)
{
	size_t cols = 0;

	for (size_t i = 0; i < sb->len; i++)
		cols += ((unsigned char)sb->buf[i] & 0xc0) != 0x80;
	return cols;
}

bool report_any_margin(const struct compare_result *res)
{
	for (size_t i = 0; i < res->n_metrics; i++)
		for (size_t t = 0; t < res->metrics[i].n_tests; t++)
			if (res->metrics[i].tests[t].has_equivalence)
				return true;
	return false;
}

static bool prepare_equal(const struct side *a, const struct side *b)
{
	if (a->n_prepare != b->n_prepare)
		return false;
	for (size_t i = 0; i < a->n_prepare; i++)
		if (a->prepare[i].rc != b->prepare[i].rc || strcmp(a->prepare[i].command, b->prepare[i].command))
			return false;
	return true;
}

enum report_prepare report_prepare_of(const struct compare_result *res)
{
	bool any = false, same = true;

	for (size_t k = 0; k < res->n_sides; k++) {
		any |= res->sides[k].n_prepare > 0;
		same &= prepare_equal(&res->sides[k], &res->sides[0]);
	}
	return !any ? REPORT_PREPARE_NONE : same ? REPORT_PREPARE_SAME : REPORT_PREPARE_DIFFERS;
}

const char *report_prepare_title(enum report_prepare p)
{
	return p == REPORT_PREPARE_DIFFERS ? "prepare as root after verify and before the rows, not the same on every boot"
					   : "prepare as root on every boot, after verify and before the rows";
}

const char *report_verdict_words(enum verdict v)
{
	return verdict_text(v)->words;
}

double report_sd_pct(double var)
{
	return isnan(var) ? NAN : 100 * sqrt(var);
}

void report_add_wild(struct strbuf *sb, const struct compare_result *res, const struct compare_metric *cm, size_t k,
		     double factor)
{
	const struct compare_cell *c = &cm->cells[k];
	const struct metric *m = compare_side_metric(res, cm, k);

	if (!c->n_wild || !m)
		return;
	strbuf_addf(sb, "wild rep%s ", c->n_wild == 1 ? "" : "s");
	for (size_t i = 0; i < c->n_wild; i++) {
		if (c->wild[i] >= m->n_samples)
			continue;
		strbuf_addf(sb, "%s#%zu (", i ? ", " : "", c->wild[i] + 1);
		report_add_value(sb, m->samples[c->wild[i]] / factor, c->value / factor);
		strbuf_addch(sb, ')');
	}
	strbuf_addstr(sb, ": left out of the boot mean");
}
