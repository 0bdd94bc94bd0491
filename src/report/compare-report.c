#include "report/compare-report.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <jansson.h>

#include "judge/kernels.h"
#include "lib/alloc.h"
#include "lib/escape.h"
#include "lib/parse-number.h"
#include "lib/strbuf.h"
#include "report/headline.h"
#include "report/html.h"
#include "report/mail.h"
#include "lib/version.h"

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
	else if (!strcmp(name, "mail"))
		*ret = REPORT_MAIL;
	else
		return -EINVAL;
	return 0;
}

static const char *verdict_words(enum verdict v)
{
	return verdict_text(v)->words;
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
static void add_noise(struct strbuf *sb, const struct costs_result *f)
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

static bool found_any_judged(const struct compare_result *res)
{
	for (size_t k = 0; k < res->n_sides; k++)
		if (res->found.judged[k])
			return true;
	return res->found.notes.n > 0;
}

/*
 * The costs bootab found, one line each: "off: cost: ...". Every string in
 * them came from a boot; the inventory keeps only printable text.
 */
static void text_found(FILE *out, const struct compare_result *res)
{
	const struct costs_result *f = &res->found;
	struct strbuf sb = STRBUF_INIT;

	if (!found_any_judged(res))
		return;
	fprintf(out, "costs found by bootab (every side against every boot of %s: %s):\n", res->sides[0].mode,
		f->baseline);
	for (size_t k = 1; k < res->n_sides; k++) {
		size_t n = 0;

		if (!f->judged[k])
			continue;
		for (size_t i = 0; i < f->n_found; i++) {
			const struct found *x = &f->found[i];

			if (x->side != k)
				continue;
			fprintf(out, "  %s: %s: %s\n", res->sides[k].label, x->gain ? "gain" : "cost", x->text);
			n++;
		}
		if (n == 0)
			fprintf(out, "  %s: nothing lost\n", res->sides[k].label);
	}
	if (f->noise_klog || f->noise_devices || f->noise_units) {
		add_noise(&sb, f);
		fprintf(out, "  baseline noise, blamed on no mode: the boots of %s differ in%s\n", res->sides[0].mode,
			strbuf_str(&sb));
		for (size_t i = 0; i < f->noise_examples.n; i++)
			fprintf(out, "    %s\n", f->noise_examples.items[i]);
	}
	if (f->n_ignored)
		fprintf(out, "  %zu finding%s matched an ignore pattern\n", f->n_ignored, f->n_ignored == 1 ? "" : "s");
	for (size_t i = 0; i < f->notes.n; i++)
		fprintf(out, "  %s\n", f->notes.items[i]);
	strbuf_release(&sb);
}

static void md_text(struct strbuf *sb, const char *s);

static void md_found(FILE *out, const struct compare_result *res)
{
	const struct costs_result *f = &res->found;
	struct strbuf sb = STRBUF_INIT;

	if (!found_any_judged(res))
		return;
	fprintf(out, "\n## Costs found by bootab\n\nEvery side against every boot of %s (%s): PCI devices and their drivers, device nodes, network interfaces, kernel error and warning lines, failed units.\n\n",
		res->sides[0].mode, f->baseline);
	for (size_t k = 1; k < res->n_sides; k++) {
		size_t n = 0;

		if (!f->judged[k])
			continue;
		for (size_t i = 0; i < f->n_found; i++) {
			const struct found *x = &f->found[i];

			if (x->side != k)
				continue;
			md_text(&sb, x->text);
			fprintf(out, "- %s: %s: %s\n", res->sides[k].label, x->gain ? "gain" : "cost", strbuf_str(&sb));
			strbuf_truncate(&sb, 0);
			n++;
		}
		if (n == 0)
			fprintf(out, "- %s: nothing lost\n", res->sides[k].label);
	}
	if (f->noise_klog || f->noise_devices || f->noise_units) {
		add_noise(&sb, f);
		fprintf(out, "\nBaseline noise, blamed on no mode: the boots of %s differ in%s:\n\n", res->sides[0].mode,
			strbuf_str(&sb));
		for (size_t i = 0; i < f->noise_examples.n; i++) {
			strbuf_truncate(&sb, 0);
			md_text(&sb, f->noise_examples.items[i]);
			fprintf(out, "- %s\n", strbuf_str(&sb));
		}
	}
	if (f->n_ignored)
		fprintf(out, "\n%zu finding%s matched an ignore pattern.\n", f->n_ignored, f->n_ignored == 1 ? "" : "s");
	for (size_t i = 0; i < f->notes.n; i++) {
		strbuf_truncate(&sb, 0);
		md_text(&sb, f->notes.items[i]);
		fprintf(out, "\n%s\n", strbuf_str(&sb));
	}
	strbuf_release(&sb);
}

static void md_cell(struct strbuf *sb, const char *s);

/*
 * Writes text as lines of at most width columns, broken after "; " where
 * it can, else at a space; lines after the first start with indent.
 */
static void put_wrapped(FILE *out, const char *text, size_t width, const char *indent)
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
			if (text[i] == ';' && text[i + 1] == ' ')
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

/* The headline: one line per mode against the first (report/headline.h). */
static void headline_text(FILE *out, const struct compare_result *res, size_t width, bool md)
{
	struct headline h;

	headline_build(res, &h);
	if (h.all_one_mode) {
		if (md)
			fputs("**", out);
		fprintf(out, "every side is %s (an A/A campaign): nothing to compare; its boots measure the noise floor",
			res->sides[0].mode);
		fputs(md ? "**\n\n" : "\n\n", out);
	}
	for (size_t i = 0; i < h.n_lines; i++) {
		if (md)
			fprintf(out, "- **%s vs %s:** %s\n", h.lines[i].mode, h.lines[i].first_mode,
				h.lines[i].text + strlen(h.lines[i].mode) + strlen(h.lines[i].first_mode) + 6);
		else
			put_wrapped(out, h.lines[i].text, width, "    ");
	}
	if (h.n_lines)
		fputc('\n', out);
	headline_release(&h);
}

/* Config differences a text or markdown report lists; report.json and report.csv hold them all. */
#define KERNEL_DIFFS_SHOWN 60

/* "6.12.117+deb12-amd64 (build 1a2b3c4d5e6f, package linux-image-...)" */
static void kernel_words(struct strbuf *sb, const struct side_kernel *k)
{
	strbuf_addstr(sb, k->release ? k->release : "(not recorded)");
	if (k->build_id || k->package) {
		strbuf_addstr(sb, " (");
		if (k->build_id)
			strbuf_addf(sb, "build %.12s", k->build_id);
		if (k->package)
			strbuf_addf(sb, "%spackage %s", k->build_id ? ", " : "", k->package);
		strbuf_addch(sb, ')');
	}
}

static const char *config_value(const char *v)
{
	return v ? v : "(not set)";
}

/*
 * Which kernel each side ran, the rebuilds inside a mode, and the config
 * options that differ between the first side's kernel and each other one.
 */
static void kernels_text(FILE *out, const struct compare_result *res, const struct kernel_compare *kc, bool md)
{
	struct strbuf sb = STRBUF_INIT;

	if (!kc->recorded)
		return;
	if (kc->same) {
		kernel_words(&sb, &res->sides[0].kernel);
		fprintf(out, md ? "\n**kernel:** `%s` on every side\n" : "kernel: %s on every side\n", strbuf_str(&sb));
		strbuf_release(&sb);
		return;
	}
	fputs(md ? "\n| side | kernel | uname -v |\n|---|---|---|\n" : "kernels:\n", out);
	for (size_t k = 0; k < res->n_sides; k++) {
		const struct side_kernel *kn = &res->sides[k].kernel;

		strbuf_truncate(&sb, 0);
		kernel_words(&sb, kn);
		if (md) {
			struct strbuf row = STRBUF_INIT;

			strbuf_addstr(&row, "| ");
			md_cell(&row, res->sides[k].label);
			strbuf_addstr(&row, " | ");
			md_cell(&row, strbuf_str(&sb));
			strbuf_addstr(&row, " | ");
			md_cell(&row, kn->version ? kn->version : "");
			strbuf_addstr(&row, " |\n");
			fputs(strbuf_str(&row), out);
			strbuf_release(&row);
		} else {
			fprintf(out, "  %-12s %s\n", res->sides[k].label, strbuf_str(&sb));
		}
	}
	for (size_t i = 0; i < kc->n_rebuilds; i++) {
		const struct side *a = &res->sides[kc->rebuilds[i].first], *b = &res->sides[kc->rebuilds[i].other];

		fprintf(out, md ? "\n**kernel rebuilt within mode `%s`:** %s build `%s`, %s build `%s` (both %s)\n"
				: "kernel rebuilt within mode %s: %s build %s, %s build %s (both %s)\n",
			a->mode, a->label, a->kernel.build_id, b->label, b->kernel.build_id, a->kernel.release);
	}
	for (size_t i = 0; i < kc->n_pairs; i++) {
		const struct kernel_pair *p = &kc->pairs[i];
		const struct side *a = &res->sides[p->from], *b = &res->sides[p->to];

		if (!p->configs) {
			fprintf(out, md ? "\n**config differences** `%s` (%s) -> `%s` (%s): not known (a side recorded no kernel config)\n"
					: "config differences, %s (%s) -> %s (%s): not known (a side recorded no kernel config)\n",
				a->kernel.release, a->label, b->kernel.release, b->label);
			continue;
		}
		fprintf(out, md ? "\n**config differences** `%s` (%s) -> `%s` (%s): %zu option%s (%zu changed, %zu unset, %zu added)\n\n"
				: "config differences, %s (%s) -> %s (%s): %zu option%s (%zu changed, %zu unset, %zu added)\n",
			a->kernel.release, a->label, b->kernel.release, b->label, p->n_diffs, p->n_diffs == 1 ? "" : "s",
			p->n_changed, p->n_unset, p->n_added);
		for (size_t d = 0; d < p->n_diffs && d < KERNEL_DIFFS_SHOWN; d++)
			fprintf(out, md ? "    %s %s -> %s\n" : "  %s %s -> %s\n", p->diffs[d].option,
				config_value(p->diffs[d].from), config_value(p->diffs[d].to));
		if (p->n_diffs > KERNEL_DIFFS_SHOWN)
			fprintf(out, md ? "    ... and %zu more (report.json lists every one)\n"
					: "  ... and %zu more (report.json lists every one)\n",
				p->n_diffs - KERNEL_DIFFS_SHOWN);
	}
	strbuf_release(&sb);
}

static json_t *kernels_json(const struct compare_result *res, const struct kernel_compare *kc)
{
	json_t *root = json_object(), *sides = json_object(), *rebuilds = json_array(), *pairs = json_array();

	for (size_t k = 0; k < res->n_sides; k++) {
		const struct side_kernel *kn = &res->sides[k].kernel;

		json_object_set_new(sides, res->sides[k].label, json_pack("{s:o, s:o, s:o, s:o, s:o}",
			"release", kn->release ? json_string(kn->release) : json_null(),
			"version", kn->version ? json_string(kn->version) : json_null(),
			"build_id", kn->build_id ? json_string(kn->build_id) : json_null(),
			"package", kn->package ? json_string(kn->package) : json_null(),
			"config_sha256", kn->config_sha256 ? json_string(kn->config_sha256) : json_null()));
	}
	for (size_t i = 0; i < kc->n_rebuilds; i++)
		json_array_append_new(rebuilds, json_pack("{s:s, s:s, s:s}", "mode", res->sides[kc->rebuilds[i].first].mode,
			"first", res->sides[kc->rebuilds[i].first].label, "other", res->sides[kc->rebuilds[i].other].label));
	for (size_t i = 0; i < kc->n_pairs; i++) {
		const struct kernel_pair *p = &kc->pairs[i];
		json_t *diffs = json_array();

		for (size_t d = 0; d < p->n_diffs; d++)
			json_array_append_new(diffs, json_pack("{s:s, s:s, s:o, s:o}", "option", p->diffs[d].option,
				"change", kernel_option_change_name(p->diffs[d].change),
				"from", p->diffs[d].from ? json_string(p->diffs[d].from) : json_null(),
				"to", p->diffs[d].to ? json_string(p->diffs[d].to) : json_null()));
		json_array_append_new(pairs, json_pack("{s:s, s:s, s:b, s:o}", "from", res->sides[p->from].label,
			"to", res->sides[p->to].label, "configs_known", p->configs, "differences", diffs));
	}
	json_object_set_new(root, "same", json_boolean(kc->same));
	json_object_set_new(root, "sides", sides);
	json_object_set_new(root, "rebuilds", rebuilds);
	json_object_set_new(root, "config_differences", pairs);
	return root;
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
	fprintf(out, "%sdelta: the side's statistic against the first side's, in %%, + is better: b/a - 1 when\n", prefix);
	fprintf(out, "%s  higher is better, 1 - b/a when lower is better (10%% less time is +10%%); boot-level\n", prefix);
	fprintf(out, "%s  deltas, CIs and margins alike.\n", prefix);
	fprintf(out, "%sdrift: the largest delta of a repeat of the first side's mode (%s) against it.\n",
		prefix, res->sides[0].mode);
	fprintf(out, "%sscreen (the seed rule, not a test): counts when |delta| >= 2 |drift| and |delta| > the first\n", prefix);
	fprintf(out, "%s  side's spread (%% of its mean);\n", prefix);
	fprintf(out, "%s  by-run rows: every run's delta has one sign and is >= 2x the largest per-run drift.\n", prefix);
	fprintf(out, "%sq = |delta|/|drift|; p = 1 - (2/pi) atan(q/sqrt(0.75)): the screen read as a t-test with\n", prefix);
	fprintf(out, "%s  1 degree of freedom; at q = 2 it claims falsely about 26%% of the time when\n", prefix);
	fprintf(out, "%s  boot-to-boot noise dominates. More repeat boots make it a real test.\n", prefix);
	fprintf(out, "%sloud: the first side's or its repeat's spread is over %.1f%% of the mean; one repeat\n",
		prefix, o->loud_pct);
	fprintf(out, "%s  boot cannot characterise it, so it is reported, not judged.\n", prefix);
}

static bool any_boot_level(const struct compare_result *res);

/*
 * The short legend every txt and md report ends with; the long one
 * (report_options.legend_long, bootab compare --legend) explains each column.
 */
static void legend_short(FILE *out, const struct compare_result *res, const struct report_options *o,
			 size_t width, const char *prefix)
{
	struct strbuf sb = STRBUF_INIT;
	char *indent = xasprintf("%s  ", prefix);

	strbuf_addf(&sb, "%slegend: + is better (10%% less time is +10%%). screen (the seed rule): counts when "
		    "|delta| >= 2 |drift| and > the first side's spread. loud: spread over %.1f%%, not judged.",
		    prefix, o->loud_pct);
	if (any_boot_level(res))
		strbuf_addf(&sb, " boot t, history t: a t-test on boot means, counts when its %.0f%% CI excludes 0.",
			    100 * (1 - res->alpha));
	strbuf_addstr(&sb, " 'bootab compare --legend' explains every column.");
	put_wrapped(out, strbuf_str(&sb), width ? width : SIZE_MAX, indent);
	free(indent);
	strbuf_release(&sb);
}

/* A variance in log units as a percentage-like sd: 100 sqrt(var). */
static void add_sd_pct(struct strbuf *sb, double var)
{
	if (isnan(var))
		strbuf_addstr(sb, "-");
	else
		strbuf_addf(sb, "%.2f%%", 100 * sqrt(var));
}

static bool any_boot_level(const struct compare_result *res)
{
	for (size_t i = 0; i < res->n_metrics; i++)
		if (res->metrics[i].has_components || res->metrics[i].has_history)
			return true;
	return false;
}

static const char *method_words(enum compare_method m)
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
static void add_ci(struct strbuf *sb, double lo, double hi)
{
	if (isnan(lo) || isnan(hi))
		return;
	strbuf_addf(sb, "%+.1f to %+.1f%%", lo, hi);
}

/* A test's verdict in words: "counts", "same within ±2%", "undecided", ... */
static void add_test_verdict(struct strbuf *sb, const struct compare_metric *cm, const struct compare_test *t)
{
	switch (t->verdict) {
	case VERDICT_UNTESTED:
		/*
		 * No boot-level test: the screen's verdict on the mode's first
		 * side is the row's verdict, and this table says so rather than
		 * a second, different word for the same row.
		 */
		strbuf_addf(sb, "screen: %s", verdict_text(cm->cells[t->side].verdict)->brief);
		break;
	case VERDICT_SAME:
		strbuf_addf(sb, "same within ±%g%%", cm->margin_pct);
		break;
	case VERDICT_UNDECIDED:
		strbuf_addstr(sb, "undecided");
		break;
	case VERDICT_COUNTS:
		strbuf_addstr(sb, "counts");
		if (t->equivalent)
			strbuf_addf(sb, ", but within ±%g%%", cm->margin_pct);
		break;
	default:
		strbuf_addstr(sb, verdict_words(t->verdict));
		break;
	}
}

/* The notes after a test's verdict: FDR, the checks, the boots it needs. */
static void test_notes(struct strbuf *sb, const struct compare_result *res, const struct compare_test *t,
		       enum metric_better better)
{
	const char *sep = "";

	if (t->has_equivalence) {
		strbuf_addf(sb, "%.0f%% CI ", 100 * (1 - 2 * res->alpha));
		add_ci(sb, t->eq_lo_pct, t->eq_hi_pct);
		sep = "; ";
		if (t->verdict == VERDICT_UNDECIDED && t->has_boots_to_decide) {
			if (t->boots_to_decide)
				strbuf_addf(sb, "%sabout %u boots per mode would decide it", sep, t->boots_to_decide);
			else
				strbuf_addf(sb, "%smore than 1000 boots per mode would be needed to decide it", sep);
		}
	}

	if (t->method == METHOD_NONE) {
		if (t->boots < 2 || t->boots_first < 2)
			strbuf_addf(sb, "no boot test: one boot of %s and no history",
				    t->boots < 2 ? t->mode : res->sides[0].mode);
		else
			strbuf_addf(sb, "no boot test: the boot means do not vary (a constant shift of %+.1f%%), no test can bound it",
				    t->delta_pct);
		sep = "; ";
	} else if (t->verdict == VERDICT_COUNTS) {
		strbuf_addf(sb, "%s%s FDR (q %.3f)", sep, t->survives ? "survives" : "does not survive", t->fdr_q);
		sep = "; ";
	}
	if (t->has_welch) {
		strbuf_addf(sb, "%sWelch p ", sep);
		add_p(sb, t->welch.p);
		sep = "; ";
	}
	if (t->has_paired) {
		strbuf_addf(sb, "%spaired %+.1f%% over %zu rounds, p ", sep, compare_log_pct(t->paired.estimate, better),
			    t->paired_rounds);
		add_p(sb, t->paired.p);
		sep = "; ";
	}
	/* Decided alike, or undecided with its own count above: no second count. */
	if (t->verdict == VERDICT_SAME || t->verdict == VERDICT_UNDECIDED)
		return;
	if (t->has_boots_needed && t->boots_needed)
		strbuf_addf(sb, "%s%u boots per mode for %.0f%% power at %+.1f%%", sep, t->boots_needed,
			    COMPARE_POWER * 100, t->delta_pct);
	else if (t->has_boots_needed)
		strbuf_addf(sb, "%smore than 1000 boots per mode for %.0f%% power at %+.1f%%", sep,
			    COMPARE_POWER * 100, t->delta_pct);
}

/* Columns sb's text takes: one per UTF-8 character. */
static size_t text_columns(const struct strbuf *sb)
{
	size_t cols = 0;

	for (size_t i = 0; i < sb->len; i++)
		cols += ((unsigned char)sb->buf[i] & 0xc0) != 0x80;
	return cols;
}

/*
 * A table row and its notes: "ROW; NOTES" when that fits in width columns,
 * else the row, then the notes wrapped on lines of their own, indented.
 * invisible: bytes of the row that take no column (colour).
 */
static void put_row_notes(FILE *out, struct strbuf *row, struct strbuf *notes, size_t width, size_t invisible)
{
	size_t cols = 0;

	for (size_t i = 0; i < row->len; i++)
		cols += ((unsigned char)row->buf[i] & 0xc0) != 0x80;
	cols -= invisible;
	for (size_t i = 0; i < notes->len; i++)
		cols += ((unsigned char)notes->buf[i] & 0xc0) != 0x80;
	if (!notes->len || cols + 2 <= width) {
		if (notes->len)
			strbuf_addf(row, "; %s", strbuf_str(notes));
		put_line(out, row);
		return;
	}
	put_line(out, row);
	fputs("      ", out);
	put_wrapped(out, strbuf_str(notes), width > 6 ? width - 6 : 1, "      ");
	strbuf_truncate(notes, 0);
}

static void text_boot_level(FILE *out, const struct compare_result *res, const struct compare_metric *cm,
			    const struct report_options *o, size_t label_w, size_t width)
{
	const char *reset = o->color ? "\033[0m" : "";
	struct strbuf sb = STRBUF_INIT;

	if (!cm->has_components && !cm->has_history)
		return;
	strbuf_addstr(&sb, "  boots (logs): sigma_b ");
	add_sd_pct(&sb, cm->components.sigma_b2);
	strbuf_addstr(&sb, ", sigma_w ");
	add_sd_pct(&sb, cm->components.sigma_w2);
	strbuf_addstr(&sb, ", ICC ");
	if (isnan(cm->components.icc))
		strbuf_addstr(&sb, "-");
	else
		strbuf_addf(&sb, "%.2f", cm->components.icc);
	strbuf_addf(&sb, " over %zu boots, %zu reps", cm->components.boots, cm->components.samples);
	put_line(out, &sb);
	if (cm->has_history) {
		strbuf_addf(&sb, "  history: %zu entries, %.0f df, boot-to-boot sd ", cm->history.entries,
			    cm->history.df);
		add_sd_pct(&sb, cm->history.var);
		if (!isnan(cm->history.ratio)) {
			strbuf_addf(&sb, "; this campaign's variance is %.1fx it (p ", cm->history.ratio);
			add_p(&sb, cm->history.p);
			strbuf_addf(&sb, ")%s", cm->history.unusual ? ": unusual, check the machine" : "");
		} else if (!cm->history.checked) {
			strbuf_addstr(&sb, "; no repeat boot to check it against");
		}
		put_line(out, &sb);
		if (cm->history.drift) {
			strbuf_addf(&sb, "  history not used: this campaign's boots vary more than %.1fx the history's;"
				    " its own boots judge it", COMPARE_HISTORY_DRIFT_RATIO);
			put_line(out, &sb);
		}
	}
	if (cm->n_tests == 0)
		goto out;
	strbuf_addf(&sb, "  %-*s  %5s  %7s  %15s  %6s  %-16s  %s", (int)label_w, "mode", "boots", "delta",
		    "95% CI", "p", "test", "verdict");
	if (fabs(res->alpha - 0.05) > 1e-12) {
		strbuf_truncate(&sb, 0);
		strbuf_addf(&sb, "  %-*s  %5s  %7s  %12.0f%% CI  %6s  %-16s  %s", (int)label_w, "mode", "boots",
			    "delta", 100 * (1 - res->alpha), "p", "test", "verdict");
	}
	put_line(out, &sb);
	for (size_t t = 0; t < cm->n_tests; t++) {
		const struct compare_test *ct = &cm->tests[t];
		struct strbuf b = STRBUF_INIT, d = STRBUF_INIT, ci = STRBUF_INIT, p = STRBUF_INIT;
		struct strbuf m = STRBUF_INIT, notes = STRBUF_INIT, v = STRBUF_INIT;
		struct compare_cell fake = { .verdict = ct->verdict, .delta_pct = ct->delta_pct };
		const char *color = ct->verdict == VERDICT_COUNTS ? color_of(&fake, o->color) : "";

		strbuf_addf(&b, "%zu/%zu", ct->boots, ct->boots_first);
		add_pct(&d, ct->delta_pct);
		add_ci(&ci, ct->lo_pct, ct->hi_pct);
		if (ct->method != METHOD_NONE) {
			add_p(&p, ct->test.p);
			strbuf_addf(&m, "%s, df %.0f", method_words(ct->method), ct->test.df);
		} else {
			strbuf_addstr(&m, "-");
		}
		test_notes(&notes, res, ct, cm->better);
		add_test_verdict(&v, cm, ct);
		strbuf_addf(&sb, "  %-*s  %5s  %7s  %15s  %6s  %-16s  %s%s%s", (int)label_w, ct->mode,
			    strbuf_str(&b), strbuf_str(&d), strbuf_str(&ci), strbuf_str(&p), strbuf_str(&m), color,
			    strbuf_str(&v), *color ? reset : "");
		put_row_notes(out, &sb, &notes, width, *color ? strlen(color) + strlen(reset) : 0);
		strbuf_release(&b);
		strbuf_release(&d);
		strbuf_release(&ci);
		strbuf_release(&p);
		strbuf_release(&m);
		strbuf_release(&notes);
		strbuf_release(&v);
	}
out:
	strbuf_release(&sb);
}

/*
 * The summary speaks of the boot-level test wherever one ran; the seed
 * rule's screen comes after it, named as the screen.
 */
static void summary_line(FILE *out, const struct compare_result *res, const char *head, const char *end)
{
	size_t noise = res->n_tests - res->n_claims - res->n_same - res->n_undecided;

	fputs(head, out);
	if (res->n_tests) {
		fprintf(out, "test: %zu claim%s (%zu surviv%s FDR), %zu within noise", res->n_claims,
			res->n_claims == 1 ? "" : "s", res->n_survive, res->n_survive == 1 ? "es" : "e", noise);
		if (res->n_same || res->n_undecided)
			fprintf(out, ", %zu the same, %zu undecided", res->n_same, res->n_undecided);
		fprintf(out, " of %zu; ", res->n_tests);
	} else {
		fputs("no test ran; ", out);
	}
	fprintf(out, "screen (seed rule): %zu count, %zu within noise, %zu loud, %zu without drift%s\n", res->n_counts,
		res->n_within_noise, res->n_loud, res->n_no_drift, end);
}

static void boot_level_summary(FILE *out, const struct compare_result *res, const char *prefix)
{
	bool aa = true;

	if (!any_boot_level(res))
		return;

	for (size_t k = 1; k < res->n_sides; k++)
		aa &= !strcmp(res->sides[k].mode, res->sides[0].mode);
	if (aa)
		fprintf(out, "%sboot level: every side is %s (an A/A campaign): nothing to test; its boots measure the\n"
			"%s  machine's noise floor (--record-history keeps them)\n", prefix, res->sides[0].mode, prefix);
	else if (res->n_tests == 0)
		fprintf(out, "%sboot level: nothing tested: a mode has one boot and there is no history (more rounds,\n"
			"%s  or an A/A campaign recorded with --record-history, make tests possible)\n", prefix, prefix);
	else
		fprintf(out, "%sboot level: %zu test%s at alpha = %.3g, %zu claim%s; %zu survive%s Benjamini-Hochberg at q = %.2f\n",
		prefix, res->n_tests, res->n_tests == 1 ? "" : "s", res->alpha, res->n_claims,
		res->n_claims == 1 ? "" : "s", res->n_survive, res->n_survive == 1 ? "s" : "", res->fdr_q);
	if (res->n_same || res->n_undecided)
		fprintf(out, "%sequivalence: %zu the same within their margin, %zu undecided\n", prefix, res->n_same,
			res->n_undecided);
	if (res->n_unusual)
		fprintf(out, "%sunusual: %zu metric%s with boot-to-boot noise far above this machine's history\n",
			prefix, res->n_unusual, res->n_unusual == 1 ? "" : "s");
	if (res->n_drift)
		fprintf(out, "%shistory not used for %zu metric%s: the campaign's own boots vary more than it predicts\n",
			prefix, res->n_drift, res->n_drift == 1 ? "" : "s");
}

static bool any_margin(const struct compare_result *res)
{
	for (size_t i = 0; i < res->n_metrics; i++)
		for (size_t t = 0; t < res->metrics[i].n_tests; t++)
			if (res->metrics[i].tests[t].has_equivalence)
				return true;
	return false;
}

static void legend_boot_level(FILE *out, const struct compare_result *res, const char *prefix)
{
	if (!any_boot_level(res))
		return;
	fprintf(out, "%sboots: each boot is the mean of the logs of its reps (by-run rows: without run 1);\n", prefix);
	fprintf(out, "%s  sigma_b, sigma_w: boot-to-boot and rep-to-rep spread (method of moments, in %% of the\n", prefix);
	fprintf(out, "%s  value); ICC = sigma_b^2 / (sigma_b^2 + sigma_w^2): the share of noise that reps cannot average.\n", prefix);
	fprintf(out, "%sboot-level delta: the mode's mean boot against the mean of every %s boot (logs).\n",
		prefix, res->sides[0].mode);
	fprintf(out, "%sboot t: a t-test on boot means, each mode against %s, with the boot variance pooled\n",
		prefix, res->sides[0].mode);
	fprintf(out, "%s  over all modes (df = sum over modes of boots - 1); CI = exp(delta -/+ t SE); needs two\n", prefix);
	fprintf(out, "%s  boots of both. Welch and paired-by-round estimates are shown as checks.\n", prefix);
	fprintf(out, "%shistory t: the same with the variance pooled from this machine's A/A history (df =\n", prefix);
	fprintf(out, "%s  history + campaign), for campaigns with one boot per mode, while the campaign's own\n", prefix);
	fprintf(out, "%s  boots vary at most %.1fx the history's; else its own boots judge it (boot t).\n", prefix,
		COMPARE_HISTORY_DRIFT_RATIO);
	fprintf(out, "%sA boot or history t claims (counts) when its %.0f%% CI excludes 0: with independent boots it\n",
		prefix, 100 * (1 - res->alpha));
	fprintf(out, "%s  claims falsely %.0f%% of the time (alpha); at alpha 0.05, simulated campaigns gave\n",
		prefix, 100 * res->alpha);
	fprintf(out, "%s  4.4-5.8%% (boot t) in every cell; the history t behind its gate stayed under 5%% on a\n", prefix);
	fprintf(out, "%s  steady machine and under 10%% on one 3x noisier than its history (docs/statistics.md).\n", prefix);
	fprintf(out, "%sFDR: Benjamini-Hochberg over this report's tests at q = %.2f: among surviving claims, at\n",
		prefix, res->fdr_q);
	fprintf(out, "%s  most %.0f%% are false in expectation.\n", prefix, 100 * res->fdr_q);
	if (any_margin(res)) {
		fprintf(out, "%ssame within ±M%%: a row's equivalence margin M; two one-sided tests at alpha %.3g, that is\n",
			prefix, res->alpha);
		fprintf(out, "%s  its %.0f%% CI lies inside -M to +M%%. undecided: neither a claim nor inside the margin;\n",
			prefix, 100 * (1 - 2 * res->alpha));
		fprintf(out, "%s  the boots that would decide it have 80%% power at the estimate.\n", prefix);
	}
}

/* "mean", or "mean and min", "mean, median and min". */
static void stats_words(struct strbuf *sb, const struct compare_metric *cm)
{
	for (size_t j = 0; j < cm->n_stats; j++)
		strbuf_addf(sb, "%s%s", j == 0 ? "" : j + 1 == cm->n_stats ? " and " : ", ", stat_kind_name(cm->stats[j]));
	if (!cm->n_stats)
		strbuf_addstr(sb, stat_kind_name(cm->stat));
}

/* The columns of the text report's metric tables. */
struct text_table {
	size_t width, label_w, value_w, stat_w;
	struct report_unit unit;
	const char *reset;
};

/* Who the sides are: their modes, no repeat, versions that differ, kernels. */
static void text_sides(FILE *out, const struct compare_result *res, size_t label_w)
{
	struct strbuf sb = STRBUF_INIT;
	struct kernel_compare kc;

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
	kernel_compare(res->sides, res->n_sides, &kc);
	kernels_text(out, res, &kc, false);
	kernel_compare_release(&kc);
	strbuf_release(&sb);
}

/* The value column of metric cm: as wide as its widest "VALUE ± SPREAD", in columns. */
static size_t text_value_width(const struct compare_result *res, const struct compare_metric *cm,
			       const struct report_unit *unit)
{
	size_t value_w = 14;

	for (size_t k = 0; k < res->n_sides; k++) {
		struct strbuf v = STRBUF_INIT;

		if (!cm->cells[k].present)
			continue;
		add_value(&v, cm->cells[k].value / unit->factor);
		strbuf_addstr(&v, " ± ");
		add_value_as(&v, cm->cells[k].spread / unit->factor, cm->cells[k].value / unit->factor);
		if (v.len - 1 > value_w)
			value_w = v.len - 1;
		strbuf_release(&v);
	}
	return value_w;
}

/* The lines under a cell's first one: its other statistics, judged alike (the spread is the samples'). */
static void text_other_stats(FILE *out, const struct compare_metric *cm, const struct compare_cell *c, size_t k,
			     const struct report_options *o, const struct text_table *t)
{
	struct strbuf sb = STRBUF_INIT, v = STRBUF_INIT, d = STRBUF_INIT, dr = STRBUF_INIT;
	struct strbuf q = STRBUF_INIT, p = STRBUF_INIT;

	for (size_t j = 1; j < cm->n_stats; j++) {
		const struct compare_stat *st = &c->stats[j];
		struct compare_cell as = { .verdict = st->verdict, .delta_pct = st->delta_pct };
		const char *color = color_of(&as, o->color);

		strbuf_truncate(&v, 0);
		strbuf_truncate(&d, 0);
		strbuf_truncate(&dr, 0);
		strbuf_truncate(&q, 0);
		strbuf_truncate(&p, 0);
		if (st->verdict == VERDICT_MISSING && !(st->value > 0))
			strbuf_addstr(&v, "-");
		else
			add_value_as(&v, st->value / t->unit.factor, c->value / t->unit.factor);
		/* Under the first line's value: as wide as its " ± SPREAD" in columns. */
		{
			struct strbuf w = STRBUF_INIT;

			add_value_as(&w, c->spread / t->unit.factor, c->value / t->unit.factor);
			for (size_t pad = 0; pad < w.len + 3; pad++)
				strbuf_addch(&v, ' ');
			strbuf_release(&w);
		}
		add_pct(&d, st->delta_pct);
		if (st->verdict != VERDICT_DRIFT && st->verdict != VERDICT_MISSING)
			add_pct(&dr, st->drift_pct);
		add_q(&q, st->q);
		add_p(&p, st->p);
		strbuf_addf(&sb, "  %-*s  %-*s%*s %6s %3s  %14s  %14s %5s %6s  %s%s%s", (int)t->label_w, "",
			    (int)t->stat_w, stat_kind_name(cm->stats[j]), (int)t->value_w, strbuf_str(&v), "", "",
			    strbuf_str(&d),
			    strbuf_str(&dr), strbuf_str(&q), strbuf_str(&p), color,
			    k == 0 ? "" : verdict_words(st->verdict), *color ? t->reset : "");
		put_line(out, &sb);
	}
	strbuf_release(&sb);
	strbuf_release(&v);
	strbuf_release(&d);
	strbuf_release(&dr);
	strbuf_release(&q);
	strbuf_release(&p);
}

/* Side k's line in metric cm's table (a dash when it has no value), then its other statistics. */
static void text_cell(FILE *out, const struct compare_result *res, const struct compare_metric *cm, size_t k,
		      const struct report_options *o, const struct text_table *t)
{
	const struct compare_cell *c = &cm->cells[k];
	struct strbuf sb = STRBUF_INIT, words = STRBUF_INIT, v = STRBUF_INIT, d = STRBUF_INIT, dr = STRBUF_INIT;
	struct strbuf q = STRBUF_INIT, p = STRBUF_INIT, sp = STRBUF_INIT, notes = STRBUF_INIT;
	size_t inv = strlen(color_of(c, o->color)) + (*color_of(c, o->color) ? strlen(t->reset) : 0);

	if (!c->present) {
		fprintf(out, "  %-*s  %*s\n", (int)t->label_w, res->sides[k].label, (int)t->value_w, "-");
		return;
	}
	add_value(&v, c->value / t->unit.factor);
	strbuf_addstr(&v, " ± ");
	add_value_as(&v, c->spread / t->unit.factor, c->value / t->unit.factor);
	if (!isnan(c->spread_pct))
		strbuf_addf(&sp, "%.1f%%", c->spread_pct);
	add_delta(&d, cm, c);
	add_drift(&dr, cm, c);
	add_q(&q, c->q);
	add_p(&p, c->p);
	if (cm->n_stats > 1)
		strbuf_addf(&words, "%-*s", (int)t->stat_w, stat_kind_name(cm->stats[0]));
	strbuf_addf(&sb, "  %-*s  %s%*s %6s %3zu  %14s  %14s %5s %6s  ", (int)t->label_w,
		    res->sides[k].label, strbuf_str(&words), (int)t->value_w + 1, strbuf_str(&v), strbuf_str(&sp), c->n,
		    strbuf_str(&d), strbuf_str(&dr), strbuf_str(&q), strbuf_str(&p));
	/* The verdict's short words where the long ones would pass the width. */
	strbuf_addf(&sb, "%s%s%s", color_of(c, o->color),
		    text_columns(&sb) + strlen(verdict_words(c->verdict)) > t->width
		    ? verdict_text(c->verdict)->brief : verdict_words(c->verdict),
		    *color_of(c, o->color) ? t->reset : "");
	if (c->pairs >= 2)
		strbuf_addf(&notes, "sign agrees in %zu of %zu pairs", c->pairs_agree, c->pairs);
	put_row_notes(out, &sb, &notes, t->width, inv);
	text_other_stats(out, cm, c, k, o, t);
	strbuf_release(&notes);
	strbuf_release(&sb);
	strbuf_release(&words);
	strbuf_release(&v);
	strbuf_release(&d);
	strbuf_release(&dr);
	strbuf_release(&q);
	strbuf_release(&p);
	strbuf_release(&sp);
}

/* Metric cm's table: its title, header, a line per side, then its boot-level tests. */
static void text_metric(FILE *out, const struct compare_result *res, const struct compare_metric *cm,
			const struct report_options *o, struct text_table *t)
{
	struct strbuf words = STRBUF_INIT;
	char *title;
	bool any = false;

	for (size_t k = 0; k < res->n_sides; k++)
		any |= cm->cells[k].present;
	/* Every side's value was unusable: the warnings said why. */
	if (!any)
		return;
	title = metric_title(cm);
	report_unit_of(res, cm, &t->unit);
	t->value_w = text_value_width(res, cm, &t->unit);
	stats_words(&words, cm);
	fprintf(out, "\n%s  (%s%s%s, %s%s)\n", title, t->unit.unit, *t->unit.unit ? ", " : "",
		strbuf_str(&words), better_words(cm->better), cm->by_run ? ", run by run" : "");
	strbuf_truncate(&words, 0);
	if (cm->n_stats > 1)
		strbuf_addf(&words, "%-*s", (int)t->stat_w, "stat");
	/* The value column holds "±", two bytes in UTF-8, in header and rows alike. */
	fprintf(out, "  %-*s  %s%*s %6s %3s  %14s  %14s %5s %6s  %s\n", (int)t->label_w, "side",
		strbuf_str(&words), (int)t->value_w + 1, "value ± spread", "", "n", "delta", "drift", "q", "p",
		"screen");
	for (size_t k = 0; k < res->n_sides; k++)
		text_cell(out, res, cm, k, o, t);
	text_boot_level(out, res, cm, o, t->label_w, t->width);
	strbuf_release(&words);
	free(title);
}

/* The summary line, wrapped to the width; the boot-level summary; the legend. */
static void text_summary(FILE *out, const struct compare_result *res, const struct report_options *o, size_t width)
{
	char *line = NULL;
	size_t line_len = 0;
	FILE *mem = open_memstream(&line, &line_len);

	if (mem) {
		summary_line(mem, res, "summary: ", "");
		fclose(mem);
		if (line_len && line[line_len - 1] == '\n')
			line[line_len - 1] = 0;
		put_wrapped(out, line, width, "  ");
		free(line);
	}
	boot_level_summary(out, res, "");
	if (o->legend_long) {
		legend(out, res, o, "");
		legend_boot_level(out, res, "");
	} else {
		legend_short(out, res, o, width, "");
	}
}

static void text_report(FILE *out, const struct compare_result *res, const struct report_options *o)
{
	struct text_table t = { .width = o->width ? o->width : REPORT_WIDTH_DEFAULT, .label_w = 4, .stat_w = 8,
				.reset = o->color ? "\033[0m" : "" };

	for (size_t k = 0; k < res->n_sides; k++)
		if (strlen(res->sides[k].label) > t.label_w)
			t.label_w = strlen(res->sides[k].label);

	headline_text(out, res, t.width, false);
	if (o->preamble)
		fputs(o->preamble, out);
	text_sides(out, res, t.label_w);
	/* What the sides are comes first (modes, versions, kernels), then what bootab found each side lost. */
	text_found(out, res);
	for (size_t i = 0; i < res->n_metrics; i++)
		text_metric(out, res, &res->metrics[i], o, &t);
	fputc('\n', out);
	text_summary(out, res, o, t.width);
}

/* Markdown text: a backslash before every character Markdown gives a meaning. */
static void md_text(struct strbuf *sb, const char *s)
{
	for (; *s; s++) {
		if (strchr("\\`*_{}[]()<>#+-.!|~", *s))
			strbuf_addch(sb, '\\');
		strbuf_addch(sb, *s);
	}
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

static void md_boot_level(FILE *out, const struct compare_result *res)
{
	struct strbuf sb = STRBUF_INIT;

	if (!any_boot_level(res))
		return;
	fprintf(out, "\n| row | metric | sigma_b | sigma_w | ICC | mode | boots | delta | %.0f%% CI | p | test | test verdict | notes |\n"
		"|---|---|---:|---:|---:|---|---:|---:|---:|---:|---|---|---|\n", 100 * (1 - res->alpha));
	for (size_t i = 0; i < res->n_metrics; i++) {
		const struct compare_metric *cm = &res->metrics[i];

		if (!cm->has_components && !cm->has_history)
			continue;
		for (size_t t = 0; t < (cm->n_tests ? cm->n_tests : 1); t++) {
			const struct compare_test *ct = cm->n_tests ? &cm->tests[t] : NULL;
			struct strbuf notes = STRBUF_INIT;

			strbuf_truncate(&sb, 0);
			strbuf_addstr(&sb, "| ");
			md_cell(&sb, cm->row);
			strbuf_addstr(&sb, " | ");
			md_cell(&sb, cm->metric);
			strbuf_addstr(&sb, " | ");
			add_sd_pct(&sb, cm->components.sigma_b2);
			strbuf_addstr(&sb, " | ");
			add_sd_pct(&sb, cm->components.sigma_w2);
			strbuf_addstr(&sb, " | ");
			if (!isnan(cm->components.icc))
				strbuf_addf(&sb, "%.2f", cm->components.icc);
			strbuf_addstr(&sb, " | ");
			if (ct) {
				md_cell(&sb, ct->mode);
				strbuf_addf(&sb, " | %zu/%zu | ", ct->boots, ct->boots_first);
				add_pct(&sb, ct->delta_pct);
				strbuf_addstr(&sb, " | ");
				add_ci(&sb, ct->lo_pct, ct->hi_pct);
				strbuf_addstr(&sb, " | ");
				if (ct->method != METHOD_NONE) {
					add_p(&sb, ct->test.p);
					strbuf_addf(&sb, " | %s, df %.0f", method_words(ct->method), ct->test.df);
				} else {
					strbuf_addstr(&sb, " | -");
				}
				strbuf_addstr(&sb, " | ");
				add_test_verdict(&sb, cm, ct);
				strbuf_addstr(&sb, " | ");
				test_notes(&notes, res, ct, cm->better);
				md_cell(&sb, strbuf_str(&notes));
				strbuf_addstr(&sb, " |\n");
			} else {
				strbuf_addstr(&sb, " | | | | | | | |\n");
			}
			fputs(strbuf_str(&sb), out);
			strbuf_release(&notes);
		}
	}
	strbuf_release(&sb);
}

/* The sides table (label, mode, note), the versions that differ, the kernels. */
static void md_sides(FILE *out, const struct compare_result *res)
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
	{
		struct kernel_compare kc;

		kernel_compare(res->sides, res->n_sides, &kc);
		kernels_text(out, res, &kc, true);
		kernel_compare_release(&kc);
	}
	strbuf_release(&sb);
}

/* Side k's rows of metric cm in the table: the first statistic's, then each other's. */
static void md_cell_rows(struct strbuf *sb, const struct compare_result *res, const struct compare_metric *cm,
			 size_t k, const struct report_unit *unit, bool multi)
{
	const struct compare_cell *c = &cm->cells[k];

		strbuf_addstr(sb, "| ");
	md_cell(sb, cm->row);
	strbuf_addstr(sb, " | ");
	md_cell(sb, cm->metric);
	if (*unit->unit) {
		strbuf_addstr(sb, " (");
		md_cell(sb, unit->unit);
		strbuf_addch(sb, ')');
	}
	strbuf_addstr(sb, " | ");
	md_cell(sb, res->sides[k].label);
	strbuf_addstr(sb, " | ");
	if (multi)
		strbuf_addf(sb, "%s | ", stat_kind_name(cm->stat));
	if (c->present) {
		add_value(sb, c->value / unit->factor);
		strbuf_addstr(sb, " | ");
		add_value_as(sb, c->spread / unit->factor, c->value / unit->factor);
		strbuf_addstr(sb, " | ");
		if (!isnan(c->spread_pct))
			strbuf_addf(sb, "%.1f%%", c->spread_pct);
		strbuf_addf(sb, " | %zu | ", c->n);
		add_delta(sb, cm, c);
		strbuf_addstr(sb, " | ");
		add_drift(sb, cm, c);
		strbuf_addstr(sb, " | ");
		add_q(sb, c->q);
		strbuf_addstr(sb, " | ");
		add_p(sb, c->p);
		strbuf_addf(sb, " | %s", verdict_words(c->verdict));
		if (c->pairs >= 2)
			strbuf_addf(sb, "; sign agrees in %zu of %zu pairs", c->pairs_agree, c->pairs);
		strbuf_addstr(sb, " |\n");
	} else {
		strbuf_addstr(sb, "- | | | | | | | | missing |\n");
	}
	for (size_t j = 1; c->present && j < cm->n_stats; j++) {
		const struct compare_stat *st = &c->stats[j];

		strbuf_addstr(sb, "| ");
		md_cell(sb, cm->row);
		strbuf_addstr(sb, " | ");
		md_cell(sb, cm->metric);
		strbuf_addstr(sb, " | ");
		md_cell(sb, res->sides[k].label);
		strbuf_addf(sb, " | %s | ", stat_kind_name(cm->stats[j]));
		if (st->value > 0)
			add_value_as(sb, st->value / unit->factor, c->value / unit->factor);
		else
			strbuf_addstr(sb, "-");
		strbuf_addstr(sb, " | | | | ");
		add_pct(sb, st->delta_pct);
		strbuf_addstr(sb, " | ");
		if (st->verdict != VERDICT_DRIFT && st->verdict != VERDICT_MISSING)
			add_pct(sb, st->drift_pct);
		strbuf_addstr(sb, " | ");
		add_q(sb, st->q);
		strbuf_addstr(sb, " | ");
		add_p(sb, st->p);
		strbuf_addf(sb, " | %s |\n", verdict_words(st->verdict));
	}
}

static void md_report(FILE *out, const struct compare_result *res, const struct report_options *o)
{
	struct strbuf sb = STRBUF_INIT;
	bool multi = false;

	headline_text(out, res, 0, true);
	if (o->preamble)
		fputs(o->preamble, out);
	md_sides(out, res);
	/* A stat column only when some metric is compared by several statistics. */
	for (size_t i = 0; i < res->n_metrics; i++)
		multi |= res->metrics[i].n_stats > 1;
	fprintf(out, "\n| row | metric | side |%s value | ± | spread | n | delta | drift | q | p | screen |\n"
		"|---|---|---|%s---:|---:|---:|---:|---:|---:|---:|---:|---|\n", multi ? " stat |" : "", multi ? "---|" : "");
	for (size_t i = 0; i < res->n_metrics; i++) {
		const struct compare_metric *cm = &res->metrics[i];
		struct report_unit unit;

		report_unit_of(res, cm, &unit);
		for (size_t k = 0; k < res->n_sides; k++) {
			strbuf_truncate(&sb, 0);
			md_cell_rows(&sb, res, cm, k, &unit, multi);
			fputs(strbuf_str(&sb), out);
		}
	}
	md_boot_level(out, res);
	fputc('\n', out);
	summary_line(out, res, "Summary: ", ".");
	boot_level_summary(out, res, "");
	md_found(out, res);
	fputc('\n', out);
	if (o->legend_long) {
		legend(out, res, o, "> ");
		legend_boot_level(out, res, "> ");
	} else {
		legend_short(out, res, o, 0, "> ");
	}
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

static double sd_pct(double var)
{
	return isnan(var) ? NAN : 100 * sqrt(var);
}

/* The boot-level columns: components on every row, a test on its mode's first side. */
static void csv_boot_level(FILE *out, const struct compare_metric *cm, size_t k)
{
	const struct compare_test *t = NULL;
	char n[32];

	for (size_t i = 0; i < cm->n_tests; i++)
		if (cm->tests[i].side == k)
			t = &cm->tests[i];
	csv_number(out, cm->has_components ? sd_pct(cm->components.sigma_b2) : NAN, false);
	csv_number(out, cm->has_components ? sd_pct(cm->components.sigma_w2) : NAN, false);
	csv_number(out, cm->has_components ? cm->components.icc : NAN, false);
	if (!t) {
		fputs(",,,,,,,,,,,,,,,", out);
		return;
	}
	csv_field(out, compare_method_name(t->method), false);
	snprintf(n, sizeof(n), "%zu", t->boots);
	csv_field(out, n, false);
	snprintf(n, sizeof(n), "%zu", t->boots_first);
	csv_field(out, n, false);
	csv_number(out, t->delta_pct, false);
	csv_number(out, t->lo_pct, false);
	csv_number(out, t->hi_pct, false);
	csv_number(out, t->method != METHOD_NONE ? t->test.p : NAN, false);
	csv_number(out, t->method != METHOD_NONE ? t->test.df : NAN, false);
	csv_number(out, t->fdr_q, false);
	csv_field(out, verdict_name(t->verdict), false);
	if (t->has_boots_needed)
		fprintf(out, "%u", t->boots_needed);
	fputc(',', out);
	csv_number(out, t->has_equivalence ? cm->margin_pct : NAN, false);
	csv_number(out, t->has_equivalence ? t->eq_lo_pct : NAN, false);
	csv_number(out, t->has_equivalence ? t->eq_hi_pct : NAN, false);
	if (t->has_boots_to_decide)
		fprintf(out, "%u", t->boots_to_decide);
	fputc(',', out);
}

/* The boot column: "kexec" for a side booted by kexec (no firmware reset), else empty. */
static const char *csv_boot(const struct side *s)
{
	return s->kexec ? "kexec" : "";
}

/* Config differences as rows: row "kernel-config", the option as the metric, the side
 * whose kernel differs from the first side's, the value columns empty. */
static void csv_kernel_rows(FILE *out, const struct compare_result *res)
{
	struct kernel_compare kc;

	kernel_compare(res->sides, res->n_sides, &kc);
	for (size_t i = 0; i < kc.n_pairs; i++) {
		const struct kernel_pair *p = &kc.pairs[i];
		const struct side *b = &res->sides[p->to];

		for (size_t d = 0; d < p->n_diffs; d++) {
			csv_field(out, "kernel-config", false);
			csv_field(out, p->diffs[d].option, false);
			csv_field(out, b->label, false);
			csv_field(out, b->mode, false);
			/* stat .. boots_to_decide: 34 empty columns */
			for (int c = 0; c < 34; c++)
				fputc(',', out);
			csv_field(out, b->kernel.release ? b->kernel.release : "", false);
			csv_field(out, b->kernel.build_id ? b->kernel.build_id : "", false);
			csv_field(out, csv_boot(b), false);
			csv_field(out, config_value(p->diffs[d].from), false);
			csv_field(out, config_value(p->diffs[d].to), false);
			fputc('\n', out);
		}
	}
	kernel_compare_release(&kc);
}

/*
 * What bootab found each side lost (or gained): a row each, row
 * "found-by-bootab", metric its kind, the finding in words in the last
 * column; the user's check rows are metric rows above.
 */
static void csv_found_rows(FILE *out, const struct compare_result *res)
{
	for (size_t i = 0; i < res->found.n_found; i++) {
		const struct found *f = &res->found.found[i];
		const struct side *s = &res->sides[f->side];

		csv_field(out, "found-by-bootab", false);
		csv_field(out, found_kind_name(f->kind), false);
		csv_field(out, s->label, false);
		csv_field(out, s->mode, false);
		/* stat .. kernel_build_id: 36 empty columns, then boot, config_from, config_to */
		for (int c = 0; c < 36; c++)
			fputc(',', out);
		csv_field(out, csv_boot(s), false);
		fputs(",,", out);
		csv_field(out, f->text, true);
	}
}

static void csv_report(FILE *out, const struct compare_result *res)
{
	fputs("row,metric,side,mode,stat,unit,better,value,spread,spread_pct,n,delta_pct,drift_pct,"
	      "delta_lo_pct,delta_hi_pct,drift_lo_pct,drift_hi_pct,q,screen_p,screen_verdict,"
	      "sigma_b_pct,sigma_w_pct,icc,test_method,test_boots,test_boots_first,test_delta_pct,"
	      "ci_lo_pct,ci_hi_pct,test_p,test_df,fdr_q,test_verdict,boots_needed,"
	      "margin_pct,equiv_ci_lo_pct,equiv_ci_hi_pct,boots_to_decide,"
	      "kernel,kernel_build_id,boot,config_from,config_to,found\n", out);
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
			csv_field(out, verdict_name(c->verdict), false);
			csv_boot_level(out, cm, k);
			csv_field(out, res->sides[k].kernel.release ? res->sides[k].kernel.release : "", false);
			csv_field(out, res->sides[k].kernel.build_id ? res->sides[k].kernel.build_id : "", false);
			csv_field(out, csv_boot(&res->sides[k]), false);
			fputs(",,\n", out);
			/* The other statistics: a row each, its stat column naming it; no boot level (it is the metric's). */
			for (size_t j = 1; c->present && j < cm->n_stats; j++) {
				const struct compare_stat *st = &c->stats[j];

				csv_field(out, cm->row, false);
				csv_field(out, cm->metric, false);
				csv_field(out, res->sides[k].label, false);
				csv_field(out, res->sides[k].mode, false);
				csv_field(out, stat_kind_name(cm->stats[j]), false);
				csv_field(out, cm->unit, false);
				csv_field(out, cm->better == BETTER_LOWER ? "lower" : "higher", false);
				csv_number(out, st->value, false);
				csv_number(out, c->spread, false);
				csv_number(out, c->spread_pct, false);
				snprintf(n, sizeof(n), "%zu", c->n);
				csv_field(out, n, false);
				csv_number(out, st->delta_pct, false);
				csv_number(out, st->drift_pct, false);
				fputs(",,,,", out);
				csv_number(out, st->q, false);
				csv_number(out, st->p, false);
				csv_field(out, verdict_name(st->verdict), false);
				/* The 18 boot-level columns are the metric's, on its first row; then the kernel's. */
				fputs(",,,,,,,,,,,,,,,,,,", out);
				csv_field(out, res->sides[k].kernel.release ? res->sides[k].kernel.release : "", false);
				csv_field(out, res->sides[k].kernel.build_id ? res->sides[k].kernel.build_id : "", false);
				csv_field(out, csv_boot(&res->sides[k]), false);
				fputs(",,\n", out);
			}
		}
	}
	csv_kernel_rows(out, res);
	csv_found_rows(out, res);
}

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
			      "sigma_b_pct", json_num(sd_pct(cm->components.sigma_b2)),
			      "sigma_w_pct", json_num(sd_pct(cm->components.sigma_w2)),
			      "icc", json_num(cm->components.icc),
			      "boots", (json_int_t)cm->components.boots, "samples", (json_int_t)cm->components.samples,
			      "boot_sd_pct", json_num(sd_pct(cm->components.boot_var)),
			      "boot_df", json_num(cm->components.boot_df));
		if (cm->has_history)
			json_object_set_new(m, "history", json_pack("{s:I,s:o,s:o,s:o,s:o,s:b,s:b,s:b}",
				"entries", (json_int_t)cm->history.entries, "df", json_num(cm->history.df),
				"boot_sd_pct", json_num(sd_pct(cm->history.var)), "ratio", json_num(cm->history.ratio),
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
 *    "null": "none" | "same" | "undecided" | "not-shown" | "not-judged",
 *    "margin_pct": number (same, undecided), "detect_pct", "detect_boots":
 *    number, or ">1000" (not-shown, when known),
 *    "items": [{"kind": "claim" | "loud" | "cost", "text": "...",
 *      claim and loud: "row", "metric", "judge": "test" | "screen",
 *      "method": "boot" | "history" | "none", "delta_pct", "ci_lo_pct",
 *      "ci_hi_pct" (test: its CI; screen by-run rows: the per-run range;
 *      else null), "direction": "faster" | "slower" | "better" | "worse",
 *      "boots", "boots_first"; cost: "row", "side"}]}
 * Every percentage is + is better, as in "comparisons".
 */
static json_t *json_headline(const struct compare_result *res)
{
	json_t *all = json_array();
	struct headline h;

	headline_build(res, &h);
	for (size_t i = 0; i < h.n_lines; i++) {
		const struct headline_line *l = &h.lines[i];
		json_t *line = json_pack("{s:s,s:s,s:s,s:s}", "mode", l->mode, "against", l->first_mode, "text", l->text,
					 "null", headline_null_name(l->null));
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
			json_t *o = json_pack("{s:s,s:s}", "kind", headline_kind_name(it->kind), "text", it->text);

			if (it->kind == HEADLINE_COST) {
				json_object_set_new(o, "row", json_string(it->cost->row));
				json_object_set_new(o, "side", json_string(res->sides[it->cost->side].label));
			} else {
				json_object_set_new(o, "row", json_string(it->metric->row));
				json_object_set_new(o, "metric", json_string(it->metric->metric));
				json_object_set_new(o, "judge", json_string(headline_judge_name(it->judge)));
				json_object_set_new(o, "method", json_string(compare_method_name(
					it->test ? it->test->method : METHOD_NONE)));
				json_object_set_new(o, "delta_pct", json_num(it->delta_pct));
				json_object_set_new(o, "ci_lo_pct", json_num(it->lo_pct));
				json_object_set_new(o, "ci_hi_pct", json_num(it->hi_pct));
				json_object_set_new(o, "direction", json_string(it->direction));
				json_object_set_new(o, "boots", json_integer((json_int_t)it->boots));
				json_object_set_new(o, "boots_first", json_integer((json_int_t)it->boots_first));
			}
			json_array_append_new(items, o);
		}
		json_object_set_new(line, "items", items);
		json_array_append_new(all, line);
	}
	headline_release(&h);
	return all;
}

/* The comparison of side k's value of metric cm: report.json's comparisons[] entry. */
static json_t *json_cell(const struct compare_result *res, const struct compare_metric *cm, size_t k)
{
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
		json_array_append_new(sides, s);
	}
	return sides;
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

static int json_report(FILE *out, const struct compare_result *res, const struct report_options *o)
{
	json_t *root = json_object(), *cmp = json_array(), *costs = json_array(), *warnings = json_array();
	char now[32];
	int r;

	/* What the document is, first: a reader checks these before anything else. */
	if (!o->generated)
		report_time_now(now, sizeof(now));
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
	json_object_set_new(root, "headline", json_headline(res));
	json_object_set_new(root, "sides", json_sides(res));
	json_object_set_new(root, "loud_pct", json_real(o->loud_pct));
	json_object_set_new(root, "comparisons", cmp);
	json_object_set_new(root, "costs", costs);
	json_object_set_new(root, "found", json_found(res));
	json_object_set_new(root, "versions_differ", json_versions(res));
	{
		struct kernel_compare kc;

		kernel_compare(res->sides, res->n_sides, &kc);
		json_object_set_new(root, "kernels", kernels_json(res, &kc));
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
	json_object_set_new(root, "warnings", warnings);
	r = json_dumpf(root, out, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_ENSURE_ASCII);
	fputc('\n', out);
	json_decref(root);
	return r < 0 ? -EIO : 0;
}

/* The colours text_report() writes itself: they change colour, never move text. */
static const char *const own_sgr[] = { "\033[32m", "\033[31m", "\033[33m", "\033[2m", "\033[0m", NULL };

int report_compare(FILE *out, const struct compare_result *res, const struct report_options *o)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *mem;
	int r = 0;

	/* JSON, HTML and mail escape what they hold themselves. */
	if (o->format == REPORT_JSON)
		r = json_report(out, res, o);
	else if (o->format == REPORT_HTML)
		r = report_html(out, res, o);
	else if (o->format == REPORT_MAIL)
		r = report_mail(out, res, o);
	if (o->format == REPORT_JSON || o->format == REPORT_HTML || o->format == REPORT_MAIL)
		goto flush;
	/*
	 * Text, Markdown and CSV carry names and values from files and boxes
	 * (units, job names, commands, directory names): the whole report is
	 * escaped on its way out (lib/escape.h), after md and CSV quoting,
	 * which an escape cannot break.
	 */
	mem = open_memstream(&buf, &len);
	if (!mem)
		return -errno;
	if (o->format == REPORT_MD)
		md_report(mem, res, o);
	else if (o->format == REPORT_CSV)
		csv_report(mem, res);
	else
		text_report(mem, res, o);
	if (fclose(mem) != 0) {
		free(buf);
		return -ENOMEM;
	}
	r = text_escape_write(out, buf, len, 0, o->color ? own_sgr : NULL);
	free(buf);
flush:
	/* The buffered part fails again here and says why (ENOSPC on a full disk). */
	errno = 0;
	if (fflush(out) != 0 || ferror(out))
		return errno ? -errno : -EIO;
	return r;
}

void report_time_now(char *buf, size_t size)
{
	const char *epoch = getenv("SOURCE_DATE_EPOCH");
	time_t t = time(NULL);
	struct tm tm;
	long v;

	/* Up to 9999-12-31T23:59:59Z, the last time RFC 3339's four-digit year holds. */
	if (epoch && number_parse_long(epoch, 0, 253402300799L, &v) == 0)
		t = (time_t)v;

	if (!gmtime_r(&t, &tm) || strftime(buf, size, "%Y-%m-%dT%H:%M:%SZ", &tm) == 0)
		snprintf(buf, size, "1970-01-01T00:00:00Z");
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

void report_add_test_verdict(struct strbuf *sb, const struct compare_metric *cm, const struct compare_test *t)
{
	add_test_verdict(sb, cm, t);
}

void report_add_test_notes(struct strbuf *sb, const struct compare_result *res, const struct compare_metric *cm,
			   const struct compare_test *t)
{
	test_notes(sb, res, t, cm->better);
}

void report_add_sd_pct(struct strbuf *sb, double var)
{
	add_sd_pct(sb, var);
}
