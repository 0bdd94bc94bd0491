/*
 * --format mail: a comparison sized for a reply on a kernel mailing list,
 * where lines stay under 72 columns (Documentation/process/email-clients.rst
 * asks for plain text that is not re-wrapped) and numbers are read as
 * "new against old, + is better", the way patch authors post theirs.
 */
#include "report/mail.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lib/alloc.h"
#include "lib/strbuf.h"
#include "report/headline.h"
#include "report/words.h"

#define NAME_W 27
#define VALUE_W 9
#define PCT_W 7
#define NOISE_W 6

/* Printable ASCII or '?', so that nothing from a file reaches the mail as anything else. */
static void add_ascii(struct strbuf *sb, const char *s, size_t n)
{
	for (size_t i = 0; i < n && s[i]; i++) {
		unsigned char c = (unsigned char)s[i];

		strbuf_addch(sb, c >= 0x20 && c < 0x7f ? (char)c : '?');
	}
}

/* s fitted into width columns: cut in the middle ("iommu_map()..min new") when longer. */
static void add_fitted(struct strbuf *sb, const char *s, size_t width)
{
	size_t n = strlen(s), head, tail;

	if (n <= width) {
		add_ascii(sb, s, n);
		for (size_t i = n; i < width; i++)
			strbuf_addch(sb, ' ');
		return;
	}
	head = (width - 2) / 2;
	tail = width - 2 - head;
	add_ascii(sb, s, head);
	strbuf_addstr(sb, "..");
	add_ascii(sb, s + n - tail, tail);
}

/* s right-aligned in width columns, its start kept when longer. */
static void add_right(struct strbuf *sb, const char *s, size_t width)
{
	size_t n = strlen(s);

	for (size_t i = n; i < width; i++)
		strbuf_addch(sb, ' ');
	add_ascii(sb, s, n < width ? n : width);
}

/* A value in at most VALUE_W columns, right-aligned. */
static void add_value(struct strbuf *sb, double v)
{
	char buf[64];
	double a = fabs(v);
	int decimals = a >= 1000 ? 0 : a >= 100 ? 1 : a >= 1 ? 2 : 4;

	if (isnan(v)) {
		snprintf(buf, sizeof(buf), "-");
	} else {
		snprintf(buf, sizeof(buf), "%.*f", decimals, v);
		if (strlen(buf) > VALUE_W)
			snprintf(buf, sizeof(buf), "%.3e", v);
	}
	strbuf_addf(sb, "%*s", VALUE_W, buf);
}

static void add_pct(struct strbuf *sb, double v, int width)
{
	char buf[64];

	if (isnan(v))
		snprintf(buf, sizeof(buf), "-");
	else if (isinf(v))
		snprintf(buf, sizeof(buf), "inf");
	else
		snprintf(buf, sizeof(buf), fabs(v) >= 1000 ? "%+.0f" : "%+.2f", v);
	if (strlen(buf) > (size_t)width)
		snprintf(buf, sizeof(buf), "%s", v > 0 ? "big" : "-big");
	strbuf_addf(sb, "%*s", width, buf);
}

static const char *verdict_short(enum verdict v)
{
	return verdict_text(v)->brief;
}

/* Writes sb as lines of at most MAIL_WIDTH columns, wrapped at blanks, continued with indent. */
static void put_wrapped(FILE *out, struct strbuf *sb, const char *indent)
{
	const char *p = strbuf_str(sb);
	size_t n = strlen(p), first = 1, ind = strlen(indent);

	while (n > 0) {
		size_t room = MAIL_WIDTH - (first ? 0 : ind), cut = n;

		if (n > room) {
			cut = room;
			while (cut > 0 && p[cut] != ' ')
				cut--;
			if (cut == 0)
				cut = room;
		}
		fprintf(out, "%s%.*s\n", first ? "" : indent, (int)cut, p);
		p += cut;
		n -= cut;
		while (n > 0 && *p == ' ') {
			p++;
			n--;
		}
		first = 0;
	}
	strbuf_truncate(sb, 0);
}

static void put_line(FILE *out, struct strbuf *sb)
{
	size_t n = sb->len;

	while (n > 0 && sb->buf[n - 1] == ' ')
		n--;
	strbuf_truncate(sb, n);
	put_wrapped(out, sb, "  ");
}

/*
 * The noise a delta was judged against, in % of the first side's value:
 * twice the drift, or the larger spread of the two sides when that is
 * larger (the screen's bar, judge/compare-seed-rule.c); by-run rows,
 * twice the largest per-run drift.
 */
static double noise_of(const struct compare_metric *cm, const struct compare_cell *base, const struct compare_cell *c,
		       double drift)
{
	double bar;

	if (cm->by_run)
		drift = fmax(fabs(c->drift_lo), fabs(c->drift_hi));
	if (isnan(drift))
		return NAN;
	bar = 2 * fabs(drift);
	if (!cm->by_run && !isnan(base->spread_pct) && base->spread_pct > bar)
		bar = base->spread_pct;
	if (!cm->by_run && !isnan(c->spread_pct) && c->spread_pct > bar)
		bar = c->spread_pct;
	return bar;
}

/* "dma map latency (us)" with " min" when the metric is compared by several statistics. */
static char *line_name(const struct compare_metric *cm, size_t j)
{
	char *title = report_metric_title(cm), *name;
	struct strbuf sb = STRBUF_INIT;

	/* report_metric_title() puts two blanks between row and metric; one reads better here. */
	for (const char *p = title; *p; p++)
		if (!(p[0] == ' ' && p[1] == ' '))
			strbuf_addch(&sb, *p);
	if (*cm->unit)
		strbuf_addf(&sb, " (%s)", cm->unit);
	if (cm->n_stats > 1 || cm->stats[j] != STAT_MEAN)
		strbuf_addf(&sb, " %s", stat_kind_name(cm->stats[j]));
	name = strbuf_detach(&sb, NULL);
	free(title);
	return name;
}

#define CI_W 15
#define P_W 6

/* "+2.3..+5.3" in CI_W columns, right-aligned; fewer decimals when that is too wide. */
static void add_ci(struct strbuf *sb, double lo, double hi)
{
	char buf[64];

	snprintf(buf, sizeof(buf), "%+.1f..%+.1f", lo, hi);
	if (strlen(buf) > CI_W)
		snprintf(buf, sizeof(buf), "%+.0f..%+.0f", lo, hi);
	if (strlen(buf) > CI_W || isnan(lo) || isnan(hi))
		snprintf(buf, sizeof(buf), "-");
	strbuf_addf(sb, "%*s", CI_W, buf);
}

/* The metric's boot-level test of the mode whose first side is k; NULL when it did not run. */
static const struct compare_test *mode_test(const struct compare_metric *cm, size_t k)
{
	for (size_t i = 0; i < cm->n_tests; i++)
		if (cm->tests[i].side == k && cm->tests[i].method != METHOD_NONE)
			return &cm->tests[i];
	return NULL;
}

/*
 * The boot-level tests of side k's mode, when k is that mode's first side
 * and a test ran: one line per metric (its first statistic, the one tested),
 * the estimate, its 95 % CI (the noise the test judged it against) and p.
 * Returns 1 when a line was printed, and sets *ret_unfdr when a verdict
 * counts that the false-discovery correction does not keep.
 */
static int test_block(FILE *out, const struct compare_result *res, size_t k, struct strbuf *sb, bool *ret_unfdr)
{
	size_t lo_boots = (size_t)-1, hi_boots = 0, lo_first = (size_t)-1, hi_first = 0;
	bool history = false;

	for (size_t i = 0; i < res->n_metrics; i++) {
		const struct compare_test *t = mode_test(&res->metrics[i], k);

		if (!t)
			continue;
		lo_boots = t->boots < lo_boots ? t->boots : lo_boots;
		hi_boots = t->boots > hi_boots ? t->boots : hi_boots;
		lo_first = t->boots_first < lo_first ? t->boots_first : lo_first;
		hi_first = t->boots_first > hi_first ? t->boots_first : hi_first;
		history = history || t->method == METHOD_HISTORY;
	}
	if (!hi_boots)
		return 0;
	strbuf_addstr(sb, "boot-level test: ");
	add_ascii(sb, res->sides[k].mode, 64);
	if (lo_boots == hi_boots)
		strbuf_addf(sb, " (%zu boot%s)", hi_boots, hi_boots == 1 ? "" : "s");
	else
		strbuf_addf(sb, " (%zu to %zu boots)", lo_boots, hi_boots);
	strbuf_addstr(sb, " against ");
	add_ascii(sb, res->sides[0].mode, 64);
	if (lo_first == hi_first)
		strbuf_addf(sb, " (%zu)", hi_first);
	else
		strbuf_addf(sb, " (%zu to %zu)", lo_first, hi_first);
	strbuf_addstr(sb, ", t on boot means");
	if (history)
		strbuf_addstr(sb, ", boot-to-boot variance from this machine's history");
	put_line(out, sb);
	add_fitted(sb, "", NAME_W);
	strbuf_addf(sb, " %*s %*s %*s  %s", PCT_W, "%", CI_W, "95% CI", P_W, "p", "verdict");
	put_line(out, sb);
	for (size_t i = 0; i < res->n_metrics; i++) {
		const struct compare_metric *cm = &res->metrics[i];
		const struct compare_test *t = mode_test(cm, k);
		size_t first = 0;
		char *name;

		if (!t)
			continue;
		/* The statistic the test stands beside: stats[0]. */
		name = line_name(cm, first);
		add_fitted(sb, name, NAME_W);
		free(name);
		strbuf_addch(sb, ' ');
		add_pct(sb, t->delta_pct, PCT_W);
		strbuf_addch(sb, ' ');
		add_ci(sb, t->lo_pct, t->hi_pct);
		strbuf_addch(sb, ' ');
		if (isnan(t->test.p))
			strbuf_addf(sb, "%*s", P_W, "-");
		else if (t->test.p < 0.001)
			strbuf_addf(sb, "%*s", P_W, "<0.001");
		else
			strbuf_addf(sb, "%*.3f", P_W, t->test.p);
		strbuf_addf(sb, "  %s", verdict_short(t->verdict));
		if (t->verdict == VERDICT_COUNTS && !t->survives) {
			strbuf_addch(sb, '*');
			*ret_unfdr = true;
		}
		put_line(out, sb);
	}
	return 1;
}

/* The wild reps of the first side and of side k in metric cm, a line each side that has one. */
static void add_wild_lines(FILE *out, const struct compare_result *res, const struct compare_metric *cm, size_t k,
			   struct strbuf *sb)
{
	size_t sides[2] = { 0, k };

	for (size_t i = 0; i < 2; i++) {
		struct strbuf w = STRBUF_INIT;

		if (!cm->cells[sides[i]].n_wild)
			continue;
		strbuf_addstr(sb, "  ");
		add_ascii(sb, res->sides[sides[i]].label, 64);
		strbuf_addstr(sb, ": ");
		report_add_wild(&w, res, cm, sides[i], 1);
		add_ascii(sb, strbuf_str(&w), w.len);
		put_line(out, sb);
		strbuf_release(&w);
	}
}

static int side_block(FILE *out, const struct compare_result *res, size_t k, struct strbuf *sb, bool *ret_unfdr)
{
	const struct side *first = &res->sides[0], *side = &res->sides[k];
	size_t repeats = 0, shown = 0;
	int tested;

	for (size_t r = 1; r < res->n_sides; r++)
		repeats += !strcmp(res->sides[r].mode, first->mode);
	strbuf_addstr(sb, "bootab: ");
	add_ascii(sb, first->label, 64);
	strbuf_addstr(sb, " -> ");
	add_ascii(sb, side->label, 64);
	strbuf_addstr(sb, ", % +ve is better; noise: ");
	if (repeats) {
		size_t listed = 0;

		strbuf_addstr(sb, "2x the drift of ");
		for (size_t r = 1; r < res->n_sides && listed < 3; r++) {
			if (strcmp(res->sides[r].mode, first->mode))
				continue;
			strbuf_addstr(sb, listed++ ? ", " : "");
			add_ascii(sb, res->sides[r].label, 64);
		}
		if (repeats > listed)
			strbuf_addf(sb, " and %zu more", repeats - listed);
		strbuf_addstr(sb, " (");
		add_ascii(sb, first->label, 64);
		strbuf_addf(sb, " booted again%s), or the spread of either side", repeats > 1 ? "; the largest" : "");
	} else {
		strbuf_addstr(sb, "none measured (no repeat boot of ");
		add_ascii(sb, first->label, 64);
		strbuf_addch(sb, ')');
	}
	put_line(out, sb);
	if (first->kexec || side->kexec) {
		/* No firmware reset before a kexec boot: devices may carry the previous kernel's state. */
		strbuf_addstr(sb, "bootab: kexec boot (no firmware reset): ");
		if (first->kexec)
			add_ascii(sb, first->label, 64);
		if (side->kexec) {
			strbuf_addstr(sb, first->kexec ? ", " : "");
			add_ascii(sb, side->label, 64);
		}
		put_line(out, sb);
	}
	add_fitted(sb, "", NAME_W);
	strbuf_addch(sb, ' ');
	add_right(sb, first->label, VALUE_W);
	strbuf_addch(sb, ' ');
	add_right(sb, side->label, VALUE_W);
	strbuf_addf(sb, " %*s %*s  %s", PCT_W, "%", NOISE_W, "noise", "screen");
	put_line(out, sb);
	for (size_t i = 0; i < res->n_metrics; i++) {
		const struct compare_metric *cm = &res->metrics[i];
		const struct compare_cell *base = &cm->cells[0], *c = &cm->cells[k];

		if (!base->present && !c->present)
			continue;
		for (size_t j = 0; j < cm->n_stats; j++) {
			const struct compare_stat *st = &c->stats[j];
			bool have = base->present && c->present;
			char *name = line_name(cm, j);

			add_fitted(sb, name, NAME_W);
			strbuf_addch(sb, ' ');
			add_value(sb, base->present ? base->stats[j].value : NAN);
			strbuf_addch(sb, ' ');
			add_value(sb, c->present ? st->value : NAN);
			strbuf_addch(sb, ' ');
			add_pct(sb, have ? st->delta_pct : NAN, PCT_W);
			strbuf_addch(sb, ' ');
			{
				double noise = have ? noise_of(cm, base, c, st->drift_pct) : NAN;
				char buf[32];

				if (isnan(noise))
					snprintf(buf, sizeof(buf), "-");
				else
					snprintf(buf, sizeof(buf), noise >= 100 ? "%.0f" : "%.2f", noise);
				strbuf_addf(sb, "%*s", NOISE_W, buf);
			}
			strbuf_addf(sb, "  %s", have ? verdict_short(st->verdict) : "missing");
			put_line(out, sb);
			free(name);
			shown++;
		}
		add_wild_lines(out, res, cm, k, sb);
	}
	if (!shown)
		fputs("  (no metric on both sides)\n", out);
	tested = test_block(out, res, k, sb, ret_unfdr);
	for (size_t i = 0; i < res->n_costs; i++) {
		const struct compare_cost *c = &res->costs[i];
		struct strbuf words = STRBUF_INIT;

		if (c->side != k)
			continue;
		report_cost_words(&words, c, true);
		strbuf_addstr(sb, "cost: ");
		add_ascii(sb, strbuf_str(&words), words.len);
		put_line(out, sb);
		strbuf_release(&words);
	}
	/* What bootab found itself, against every boot of the first mode. */
	for (size_t i = 0; i < res->found.n_found; i++) {
		const struct found *f = &res->found.found[i];

		if (f->side != k)
			continue;
		strbuf_addstr(sb, f->gain ? "gain found by bootab: " : "cost found by bootab: ");
		add_ascii(sb, f->text, strlen(f->text));
		put_line(out, sb);
	}
	return tested;
}

/* "±" as "+/-", then printable ASCII. */
static void add_ascii_words(struct strbuf *sb, const char *s)
{
	for (const char *pm; (pm = strstr(s, "±")); s = pm + strlen("±")) {
		add_ascii(sb, s, (size_t)(pm - s));
		strbuf_addstr(sb, "+/-");
	}
	add_ascii(sb, s, strlen(s));
}

/* The answer first, a line per mode, as every report opens (report/headline.h). */
static void headline_block(FILE *out, const struct compare_result *res, struct strbuf *sb)
{
	struct headline h;

	headline_build(res, &h);
	for (size_t i = 0; i < h.n_lines; i++) {
		add_ascii_words(sb, h.lines[i].text);
		put_line(out, sb);
	}
	if (h.n_lines)
		fputc('\n', out);
	headline_release(&h);
}

/* "  -34.92": a new,old percentage in the list's own form. */
static void add_new_old(struct strbuf *sb, const struct new_old_stat *st)
{
	char buf[32] = "-";

	if (st->present)
		snprintf(buf, sizeof(buf), "%.0f,%.0f", st->new_value, st->old_value);
	strbuf_addstr(sb, ", ");
	add_right(sb, buf, 14);
	strbuf_addstr(sb, ", ");
	if (st->present)
		add_pct(sb, st->pct, 6);
	else
		add_right(sb, "-", 6);
}

static const char *new_old_short(const struct new_old_stat *st)
{
	if (!st->present)
		return "-";
	return st->verdict == NEW_OLD_WITHIN_NOISE ? "noise" : new_old_verdict_name(st->verdict);
}

/* The list's own new,old tables, over the boots, with a verdict column. */
static void new_old_block(FILE *out, const struct compare_result *res, struct strbuf *sb)
{
	const struct new_old_result *no = &res->new_old;

	for (size_t i = 0; i < no->n_rows; i++) {
		const struct new_old_row *r = &no->rows[i];
		bool kernel_new = i == 0 || (r->kernel ? !no->rows[i - 1].kernel || strcmp(r->kernel, no->rows[i - 1].kernel)
						       : no->rows[i - 1].kernel != NULL);

		if (kernel_new) {
			if (i)
				fputc('\n', out);
			strbuf_addf(sb, "bootab: new against old, paired in each boot, %zu boot%s", r->avg.boots,
				    r->avg.boots == 1 ? "" : "s");
			if (r->kernel) {
				strbuf_addstr(sb, " of ");
				add_ascii(sb, r->kernel, 64);
			}
			strbuf_addstr(sb, ", % +ve is better; verdict avg/min: by the 95% CI of the boots' ratios");
			put_line(out, sb);
		}
		if (kernel_new || strcmp(r->table, no->rows[i - 1].table)) {
			add_ascii(sb, r->table, 64);
			put_line(out, sb);
			add_right(sb, "pgsz", 8);
			strbuf_addstr(sb, ", avg new,old ");
			add_ascii(sb, r->unit, 4);
			strbuf_addstr(sb, ",  avg %, min new,old ");
			add_ascii(sb, r->unit, 4);
			strbuf_addstr(sb, ",  min %, verdict");
			put_line(out, sb);
		}
		add_right(sb, r->size, 8);
		add_new_old(sb, &r->avg);
		add_new_old(sb, &r->min);
		strbuf_addf(sb, ", %s/%s", new_old_short(&r->avg), new_old_short(&r->min));
		put_line(out, sb);
	}
	if (no->n_rows)
		fputc('\n', out);
}

int report_mail(FILE *out, const struct compare_result *res, const struct report_options *o)
{
	struct strbuf sb = STRBUF_INIT;
	size_t blocks = 0;
	bool tested = false, unfdr = false;

	(void)o;
	new_old_block(out, res, &sb);
	headline_block(out, res, &sb);
	for (size_t k = 1; k < res->n_sides; k++) {
		if (!strcmp(res->sides[k].mode, res->sides[0].mode))
			continue;
		if (blocks++)
			fputc('\n', out);
		tested = side_block(out, res, k, &sb, &unfdr) > 0 || tested;
	}
	if (!blocks) {
		strbuf_addstr(&sb, "bootab: every side is ");
		add_ascii(&sb, res->sides[0].mode, 24);
		strbuf_addstr(&sb, ", the first side's mode: nothing to compare it with");
		put_line(out, &sb);
	}
	fputc('\n', out);
	strbuf_addstr(&sb, "counts: |%| reaches the noise. That is a screen, not a test: with "
		      "one repeat boot it claims falsely about 1 time in 4 when boot-to-boot "
		      "noise dominates; bootab compare prints its p-values and, with more "
		      "boots, t-tests on boot means.");
	put_line(out, &sb);
	if (tested) {
		strbuf_addstr(&sb, "t on boot means: each boot is the mean of its reps' logs; a mode's "
			      "boot means against the first mode's, by t; counts when the 95% CI of "
			      "the ratio excludes 0%, noise when it does not.");
		if (unfdr)
			strbuf_addstr(&sb, " *: counts, but not after the false-discovery "
				      "correction over every test of the report.");
		put_line(out, &sb);
	}
	strbuf_release(&sb);
	return ferror(out) ? -EIO : 0;
}
