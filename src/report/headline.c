#include "report/headline.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lib/alloc.h"
#include "lib/strbuf.h"
#include "report/words.h"

const char *headline_kind_name(enum headline_kind kind)
{
	switch (kind) {
	case HEADLINE_CLAIM:
		return "claim";
	case HEADLINE_LOUD:
		return "loud";
	case HEADLINE_COST:
	default:
		return "cost";
	}
}

const char *headline_judge_name(enum headline_judge judge)
{
	return judge == HEADLINE_BY_TEST ? "test" : "screen";
}

const char *headline_null_name(enum headline_null null)
{
	switch (null) {
	case HEADLINE_NULL_SAME:
		return "same";
	case HEADLINE_NULL_UNDECIDED:
		return "undecided";
	case HEADLINE_NULL_NOT_SHOWN:
		return "not-shown";
	case HEADLINE_NULL_NOT_JUDGED:
		return "not-judged";
	case HEADLINE_NULL_NONE:
	default:
		return "none";
	}
}

char *headline_metric_name(const struct compare_metric *cm)
{
	struct strbuf sb = STRBUF_INIT;
	const char *m = cm->metric;
	size_t row_len = strlen(cm->row);

	strbuf_addstr(&sb, cm->row);
	if (!strcmp(m, "value"))
		return strbuf_detach(&sb, NULL);
	/* fio's "randread.iops" in row randread: the row says the job once. */
	if (!strncmp(m, cm->row, row_len) && m[row_len] == '.' && m[row_len + 1])
		m += row_len + 1;
	strbuf_addch(&sb, ' ');
	/* llama-bench's "pp512 @ d65536" as one word, so that a list of them reads. */
	for (; *m; m++) {
		if (*m == ' ' && (m[1] == '@' || (m > cm->metric && m[-1] == '@')))
			continue;
		strbuf_addch(&sb, *m);
	}
	return strbuf_detach(&sb, NULL);
}

static bool unit_is(const char *unit, const char *const *names)
{
	for (; *names; names++)
		if (!strcmp(unit, *names))
			return true;
	return false;
}

/* A rate (per second) where higher is better, a time where lower is: faster and slower. */
static const char *direction(const struct compare_metric *cm, double delta)
{
	static const char *const times[] = { "ns", "us", "µs", "ms", "s", "sec", "seconds", "min", "h", NULL };
	static const char *const rates[] = { "IOPS", "iops", "ops", "op/s", NULL };
	size_t n = strlen(cm->unit);
	bool rate = unit_is(cm->unit, rates) || (n > 2 && !strcmp(cm->unit + n - 2, "/s"));
	/* A spread is no speed, whatever its unit: less of it is better. */
	bool spread = strstr(cm->metric, "stddev") || strstr(cm->metric, "jitter");
	bool speed = !spread && (cm->better == BETTER_LOWER ? unit_is(cm->unit, times) : rate);

	if (speed)
		return delta >= 0 ? "faster" : "slower";
	return delta >= 0 ? "better" : "worse";
}

static const struct compare_test *test_of(const struct compare_metric *cm, const char *mode)
{
	for (size_t t = 0; t < cm->n_tests; t++)
		if (!strcmp(cm->tests[t].mode, mode))
			return &cm->tests[t];
	return NULL;
}

/* Sides of mode whose cell of cm is present. */
static size_t sides_with(const struct compare_result *res, const struct compare_metric *cm, const char *mode)
{
	size_t n = 0;

	for (size_t k = 0; k < res->n_sides; k++)
		n += !strcmp(res->sides[k].mode, mode) && cm->cells[k].present;
	return n;
}

static void add_pct(struct strbuf *sb, double v)
{
	strbuf_addf(sb, "%+.1f %%", v);
}

/* "boot t, 3 + 4 boots": who judged a claim, on how many boots. */
static char *claim_note(const struct compare_result *res, const struct headline_item *it)
{
	struct strbuf sb = STRBUF_INIT;

	if (it->judge == HEADLINE_BY_TEST) {
		strbuf_addstr(&sb, it->test->method == METHOD_HISTORY ? "history t" : "boot t");
		if (fabs(res->alpha - COMPARE_ALPHA_DEFAULT) > 1e-12)
			strbuf_addf(&sb, " at %.0f %% CI", 100 * (1 - res->alpha));
	} else {
		strbuf_addstr(&sb, "screen");
	}
	strbuf_addf(&sb, ", %zu + %zu boots", it->boots, it->boots_first);
	if (it->judge == HEADLINE_BY_TEST && !it->test->survives)
		strbuf_addstr(&sb, ", not after FDR");
	return strbuf_detach(&sb, NULL);
}

/* "gptoss-rocm pp512@d65536 +4.1 %", or its range over the runs "... +2.0 to +5.1 %". */
static void add_name_and_delta(struct strbuf *sb, const struct headline_item *it)
{
	char *name = headline_metric_name(it->metric);

	strbuf_addf(sb, "%s ", name);
	free(name);
	if (it->range)
		strbuf_addf(sb, "%+.1f to %+.1f %%", it->lo_pct, it->hi_pct);
	else
		add_pct(sb, it->delta_pct);
}

/* "gptoss-rocm pp512@d65536 +4.1 % [+3.0, +5.2] faster". */
static char *claim_words(const struct headline_item *it)
{
	struct strbuf sb = STRBUF_INIT;

	add_name_and_delta(&sb, it);
	if (it->judge == HEADLINE_BY_TEST && !isnan(it->lo_pct))
		strbuf_addf(&sb, " [%+.1f, %+.1f]", it->lo_pct, it->hi_pct);
	strbuf_addf(&sb, " %s", it->direction);
	if (it->range)
		strbuf_addstr(&sb, " in every run");
	if (it->judge == HEADLINE_BY_TEST && it->test->equivalent)
		strbuf_addf(&sb, ", but within ±%g %%", it->metric->margin_pct);
	return strbuf_detach(&sb, NULL);
}

static void claim_text(const struct compare_result *res, struct headline_item *it)
{
	it->words = claim_words(it);
	it->note = claim_note(res, it);
	it->text = xasprintf("%s (%s)", it->words, it->note);
}

static char *loud_text(const struct headline_item *it)
{
	struct strbuf sb = STRBUF_INIT;

	add_name_and_delta(&sb, it);
	strbuf_addstr(&sb, ", too loud to judge");
	return strbuf_detach(&sb, NULL);
}

static int by_size(const void *a, const void *b)
{
	const struct headline_item *x = a, *y = b;
	int kx = (int)x->kind, ky = (int)y->kind;

	if (kx != ky)
		return kx - ky;
	if (x->kind == HEADLINE_COST)
		return 0;
	if (fabs(x->delta_pct) != fabs(y->delta_pct))
		return fabs(x->delta_pct) > fabs(y->delta_pct) ? -1 : 1;
	/* Ties keep the report's order. */
	return x->metric < y->metric ? -1 : x->metric > y->metric;
}

/* What the metrics without a claim say, counted for the line's null. */
struct null_tally {
	size_t tested, same, undecided, screened, unjudged;
	double margin;
	unsigned decide;        /* the most boots to decide an undecided one; 0: not known */
	bool decide_unknown;
	unsigned detect;        /* the most boots to detect detect_pct */
	bool detect_over;       /* a metric needs more than 1000 */
	bool detect_unknown;    /* a metric's boot variance is not known */
	double detect_pct;
	const struct compare_metric *largest;   /* the unjudged metric with the largest |delta| */
};

static void tally_detect(struct null_tally *n, const struct compare_metric *cm, const struct compare_test *t,
			 const struct compare_result *res)
{
	double pct = cm->margin_pct > 0 ? cm->margin_pct : HEADLINE_DETECT_PCT;
	unsigned b;

	if (!t || !(t->power_var > 0)) {
		n->detect_unknown = true;
		return;
	}
	if (n->detect_pct == 0)
		n->detect_pct = pct;
	else if (n->detect_pct != pct)
		n->detect_pct = fmax(n->detect_pct, pct);
	b = stats_boots_needed(fabs(compare_pct_log(pct, cm->better)), t->power_var, t->power_modes,
			       res->alpha > 0 ? res->alpha : COMPARE_ALPHA_DEFAULT, COMPARE_POWER, 1000);
	if (!b)
		n->detect_over = true;
	else if (b > n->detect)
		n->detect = b;
}

static void line_text(struct headline_line *l, const struct null_tally *n, const struct compare_result *res)
{
	struct strbuf sb = STRBUF_INIT;
	const char *sep = "";
	size_t i = 0;

	strbuf_addf(&sb, "%s vs %s: ", l->mode, l->first_mode);
	/* Claims judged alike name their judge once, on the first of them. */
	for (; i < l->n_items && l->items[i].kind == HEADLINE_CLAIM; i++) {
		const struct headline_item *it = &l->items[i];

		if (i > 0 && !strcmp(l->items[i - 1].note, it->note))
			strbuf_addf(&sb, "%s%s", sep, it->words);
		else
			strbuf_addf(&sb, "%s%s", sep, it->text);
		if (it->why)
			strbuf_addf(&sb, ", counters: %s", it->why);
		sep = "; ";
	}
	switch (l->null) {
	case HEADLINE_NULL_SAME:
		strbuf_addf(&sb, "same within ±%g %%", l->margin_pct);
		sep = "; ";
		break;
	case HEADLINE_NULL_UNDECIDED:
		strbuf_addf(&sb, "neither a difference nor the same within ±%g %%", l->margin_pct);
		if (n->decide && !n->decide_unknown)
			strbuf_addf(&sb, "; %u boots per mode would decide it", n->decide);
		sep = "; ";
		break;
	case HEADLINE_NULL_NOT_SHOWN:
		strbuf_addstr(&sb, "no difference shown");
		if (!n->tested)
			strbuf_addf(&sb, " (screen only: one boot of %s and no history)", l->mode);
		if (l->has_detect && l->detect_boots)
			strbuf_addf(&sb, "; %u boots per mode would detect %g %%", l->detect_boots, l->detect_pct);
		else if (l->has_detect)
			strbuf_addf(&sb, "; more than 1000 boots per mode would be needed to detect %g %%", l->detect_pct);
		sep = "; ";
		break;
	case HEADLINE_NULL_NOT_JUDGED:
		strbuf_addf(&sb, "nothing judged (no repeat boot of %s and no history)", l->first_mode);
		if (n->largest) {
			char *name = headline_metric_name(n->largest);

			strbuf_addf(&sb, "; largest delta %s %+.1f %%", name, n->largest->cells[l->side].delta_pct);
			free(name);
		}
		sep = "; ";
		break;
	case HEADLINE_NULL_NONE:
	default:
		break;
	}
	for (; i < l->n_items; i++) {
		strbuf_addf(&sb, "%s%s", sep, l->items[i].text);
		sep = "; ";
	}
	(void)res;
	l->text = strbuf_detach(&sb, NULL);
}

static void add_item(struct headline_line *l, size_t *alloc, const struct headline_item *it)
{
	xgrow((void **)&l->items, alloc, l->n_items + 1, sizeof(*l->items));
	l->items[l->n_items++] = *it;
}

/* "page-faults 2.1x more", "context-switches 30 % fewer": a counter's mean against the first mode's. */
static void add_counter_words(struct strbuf *sb, const struct compare_metric *cm, double delta_pct)
{
	/* + is better: for a count (lower is better) this mode's count is 1 - delta of the first's. */
	double ratio = cm->better == BETTER_LOWER ? 1 - delta_pct / 100 : 1 + delta_pct / 100;

	if (ratio >= 2)
		strbuf_addf(sb, "%s %.3gx more", cm->metric, ratio);
	else if (ratio > 0 && ratio <= 0.5)
		strbuf_addf(sb, "%s %.3gx fewer", cm->metric, 1 / ratio);
	else
		strbuf_addf(sb, "%s %.0f %% %s", cm->metric, fabs(ratio - 1) * 100, ratio >= 1 ? "more" : "fewer");
}

/* The most counters one claim's explanation names. */
#define HEADLINE_WHY_MAX 3

/*
 * The counters of row that moved on this line's mode, judged as its
 * numbers are (a boot-level claim that survives among the counters, else
 * the screen's count), the HEADLINE_WHY_MAX largest first; NULL when none
 * did.
 */
static char *counters_why(const struct compare_result *res, const struct headline_line *l, const char *row)
{
	struct strbuf sb = STRBUF_INIT;
	bool *said = xcalloc(res->n_metrics + 1, sizeof(*said));
	const char *sep = "";

	for (size_t said_n = 0; said_n < HEADLINE_WHY_MAX; said_n++) {
		size_t best = res->n_metrics;
		double best_delta = 0;

		for (size_t i = 0; i < res->n_metrics; i++) {
			const struct compare_metric *cm = &res->metrics[i];
			const struct compare_cell *c = &cm->cells[l->side];
			const struct compare_test *t = test_of(cm, l->mode);
			double d;

			if (!cm->counter || said[i] || strcmp(cm->row, row))
				continue;
			if (t && t->method != METHOD_NONE)
				d = t->verdict == VERDICT_COUNTS && t->survives ? t->delta_pct : NAN;
			else
				d = c->present && c->verdict == VERDICT_COUNTS ? c->delta_pct : NAN;
			if (!isnan(d) && (best == res->n_metrics || fabs(d) > fabs(best_delta))) {
				best = i;
				best_delta = d;
			}
		}
		if (best == res->n_metrics)
			break;
		said[best] = true;
		strbuf_addstr(&sb, sep);
		add_counter_words(&sb, &res->metrics[best], best_delta);
		sep = ", ";
	}
	free(said);
	if (!sb.len) {
		strbuf_release(&sb);
		return NULL;
	}
	return strbuf_detach(&sb, NULL);
}

/* A counter is no claim of its own: the first claim of each row gets its row's counters as its why. */
static void explain_claims(const struct compare_result *res, struct headline_line *l)
{
	for (size_t i = 0; i < l->n_items && l->items[i].kind == HEADLINE_CLAIM; i++) {
		bool first = true;

		for (size_t j = 0; j < i && first; j++)
			first = strcmp(l->items[j].metric->row, l->items[i].metric->row) != 0;
		if (first)
			l->items[i].why = counters_why(res, l, l->items[i].metric->row);
	}
}

static bool cost_seen(const struct headline_line *l, const char *row)
{
	for (size_t i = 0; i < l->n_items; i++)
		if (l->items[i].kind == HEADLINE_COST && !strcmp(l->items[i].cost->row, row))
			return true;
	return false;
}

static void build_line(const struct compare_result *res, struct headline_line *l)
{
	struct null_tally n = { 0 };
	size_t alloc = 0;

	for (size_t i = 0; i < res->n_metrics; i++) {
		const struct compare_metric *cm = &res->metrics[i];
		const struct compare_cell *c = &cm->cells[l->side];
		const struct compare_test *t = test_of(cm, l->mode);
		struct headline_item it = { .metric = cm, .cell = c, .lo_pct = NAN, .hi_pct = NAN };

		if (cm->counter)
			continue;
		it.boots = sides_with(res, cm, l->mode);
		it.boots_first = sides_with(res, cm, l->first_mode);
		if (t && t->method != METHOD_NONE) {
			it.judge = HEADLINE_BY_TEST;
			it.test = t;
			it.boots = t->boots;
			it.boots_first = t->boots_first;
			n.tested++;
			if (t->verdict == VERDICT_COUNTS) {
				it.kind = HEADLINE_CLAIM;
				it.delta_pct = t->delta_pct;
				it.lo_pct = t->lo_pct;
				it.hi_pct = t->hi_pct;
				it.direction = direction(cm, it.delta_pct);
				claim_text(res, &it);
				add_item(l, &alloc, &it);
				continue;
			}
			if (t->verdict == VERDICT_SAME) {
				n.same++;
				n.margin = fmax(n.margin, cm->margin_pct);
			} else if (t->verdict == VERDICT_UNDECIDED && !cm->history.drift) {
				n.undecided++;
				n.margin = fmax(n.margin, cm->margin_pct);
				if (t->has_boots_to_decide && t->boots_to_decide) {
					if (t->boots_to_decide > n.decide)
						n.decide = t->boots_to_decide;
				} else {
					n.decide_unknown = true;
				}
			}
			tally_detect(&n, cm, t, res);
			continue;
		}
		/* No boot-level test: the screen on the mode's first side speaks. */
		if (!c->present)
			continue;
		it.judge = HEADLINE_BY_SCREEN;
		it.delta_pct = c->delta_pct;
		it.range = cm->by_run && c->runs;
		if (it.range) {
			it.lo_pct = c->delta_lo;
			it.hi_pct = c->delta_hi;
		}
		it.direction = direction(cm, it.delta_pct);
		switch (c->verdict) {
		case VERDICT_COUNTS:
			it.kind = HEADLINE_CLAIM;
			claim_text(res, &it);
			add_item(l, &alloc, &it);
			break;
		case VERDICT_LOUD:
			it.kind = HEADLINE_LOUD;
			it.text = loud_text(&it);
			add_item(l, &alloc, &it);
			n.screened++;
			break;
		case VERDICT_WITHIN_NOISE:
			n.screened++;
			tally_detect(&n, cm, t, res);
			break;
		default:
			n.unjudged++;
			if (!isnan(c->delta_pct) &&
			    (!n.largest || fabs(c->delta_pct) > fabs(n.largest->cells[l->side].delta_pct)))
				n.largest = cm;
			break;
		}
	}
	/* The checks that failed on this mode and not on the first side. */
	for (size_t i = 0; i < res->n_costs; i++) {
		const struct compare_cost *c = &res->costs[i];
		struct headline_item it = { .kind = HEADLINE_COST, .cost = c, .lo_pct = NAN, .hi_pct = NAN,
					    .delta_pct = NAN };
		struct strbuf sb = STRBUF_INIT;

		if (strcmp(res->sides[c->side].mode, l->mode) || cost_seen(l, c->row))
			continue;
		if (c->has_tests ? c->tests_new == 0 : c->fails_on_first)
			continue;
		report_cost_words(&sb, c, true);
		strbuf_addstr(&sb, " (cost)");
		it.text = strbuf_detach(&sb, NULL);
		add_item(l, &alloc, &it);
	}
	if (l->n_items)
		qsort(l->items, l->n_items, sizeof(*l->items), by_size);
	explain_claims(res, l);

	l->null = HEADLINE_NULL_NONE;
	if (l->n_items && l->items[0].kind != HEADLINE_LOUD) {
		/* A claim or a cost answers the line. */
	} else if (n.tested && n.same == n.tested && n.screened == 0) {
		l->null = HEADLINE_NULL_SAME;
		l->margin_pct = n.margin;
	} else if (n.undecided) {
		l->null = HEADLINE_NULL_UNDECIDED;
		l->margin_pct = n.margin;
	} else if (n.tested || n.screened) {
		l->null = HEADLINE_NULL_NOT_SHOWN;
	} else {
		l->null = HEADLINE_NULL_NOT_JUDGED;
	}
	if (l->null == HEADLINE_NULL_NOT_SHOWN && !n.detect_unknown && (n.detect || n.detect_over)) {
		l->has_detect = true;
		l->detect_boots = n.detect_over ? 0 : n.detect;
		l->detect_pct = n.detect_pct;
	}
	line_text(l, &n, res);
}

void headline_build(const struct compare_result *res, struct headline *ret)
{
	struct headline h = { 0 };

	h.lines = xcalloc(res->n_sides ? res->n_sides : 1, sizeof(*h.lines));
	for (size_t k = 1; k < res->n_sides; k++) {
		const char *mode = res->sides[k].mode;
		bool seen = !strcmp(mode, res->sides[0].mode);

		for (size_t j = 1; j < k && !seen; j++)
			seen = !strcmp(res->sides[j].mode, mode);
		if (seen)
			continue;
		h.lines[h.n_lines] = (struct headline_line){ .mode = mode, .first_mode = res->sides[0].mode, .side = k };
		build_line(res, &h.lines[h.n_lines]);
		h.n_lines++;
	}
	h.all_one_mode = h.n_lines == 0;
	*ret = h;
}

void headline_write(FILE *out, const struct compare_result *res, size_t width, bool md)
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
		if (md) {
			/* Names in the line come from boxes and files: no raw HTML for a viewer. */
			fputs("- **", out);
			report_md_plain(out, h.lines[i].mode);
			fputs(" vs ", out);
			report_md_plain(out, h.lines[i].first_mode);
			fputs(":** ", out);
			report_md_plain(out, h.lines[i].text + strlen(h.lines[i].mode) + strlen(h.lines[i].first_mode) + 6);
			fputc('\n', out);
		} else
			report_put_wrapped(out, h.lines[i].text, width, "    ");
	}
	if (h.n_lines)
		fputc('\n', out);
	headline_release(&h);
}

void headline_release(struct headline *h)
{
	if (!h)
		return;
	for (size_t i = 0; i < h->n_lines; i++) {
		for (size_t j = 0; j < h->lines[i].n_items; j++) {
			free(h->lines[i].items[j].text);
			free(h->lines[i].items[j].words);
			free(h->lines[i].items[j].note);
			free(h->lines[i].items[j].why);
		}
		free(h->lines[i].items);
		free(h->lines[i].text);
	}
	free(h->lines);
	*h = (struct headline){ 0 };
}
