#include "report/headline.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lib/alloc.h"
#include "lib/strbuf.h"
#include "report/factors.h"
#include "report/words.h"

const char *headline_kind_name(enum headline_kind kind)
{
	switch (kind) {
	case HEADLINE_CLAIM:
		return "claim";
	case HEADLINE_NOT_AFTER_FDR:
		return "not-after-fdr";
	case HEADLINE_COST:
	default:
		return "cost";
	}
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
	case HEADLINE_NULL_NOT_TESTED:
		return "not-tested";
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

/* "boot t, 3 + 4 boots": the test that made a claim, on how many boots. */
static char *claim_note(const struct compare_result *res, const struct answer *a)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addstr(&sb, a->test_name);
	if (fabs(res->alpha - COMPARE_ALPHA_DEFAULT) > 1e-12)
		strbuf_addf(&sb, " at %.0f %% CI", 100 * (1 - res->alpha));
	strbuf_addf(&sb, ", %zu + %zu boots", a->boots, a->boots_first);
	return strbuf_detach(&sb, NULL);
}

/* ", not comparable on off: build_commit 8a1b2c3d (pt: 79e2e74eb)": a rebuild or another setting under a claim. */
static void add_not_comparable(struct strbuf *sb, const struct compare_result *res, const char *mode, const char *row)
{
	for (size_t k = 1; k < res->n_sides; k++) {
		const struct compare_mismatch *m;

		if (strcmp(res->sides[k].mode, mode))
			continue;
		if ((m = compare_mismatch_find(res, k, row))) {
			strbuf_addf(sb, ", not comparable on %s: %s", res->sides[k].label, m->what);
			return;
		}
		for (size_t v = 0; v < res->n_versions; v++) {
			const char *x = res->versions[v].values[0], *y = res->versions[v].values[k];

			if (x && y && strcmp(x, y)) {
				strbuf_addf(sb, ", not comparable on %s: %s %s (%s: %s)", res->sides[k].label,
					    res->versions[v].name, y, res->sides[0].label, x);
				return;
			}
		}
	}
}

/* "gptoss-rocm pp512@d65536 +4.1 % [+3.0, +5.2] faster", "... 12.0x slower [11.4x, 12.7x]". */
static char *claim_words(const struct compare_result *res, const struct answer *a, enum headline_kind kind)
{
	struct strbuf sb = STRBUF_INIT;
	char *name = headline_metric_name(a->metric);

	strbuf_addf(&sb, "%s ", name);
	free(name);
	answer_add_effect(&sb, a, true, true);
	if (!a->factor)
		strbuf_addf(&sb, " %s", a->direction);
	if (a->test->equivalent)
		strbuf_addf(&sb, ", but within ±%g %%", a->metric->margin_pct);
	if (kind == HEADLINE_NOT_AFTER_FDR)
		strbuf_addf(&sb, ", not a claim after FDR over %zu tests (q %.2f)", res->n_tests, a->fdr_q);
	add_not_comparable(&sb, res, a->mode, a->metric->row);
	return strbuf_detach(&sb, NULL);
}

static int by_size(const void *x, const void *y)
{
	const struct headline_item *a = x, *b = y;

	if (a->kind != b->kind)
		return (int)a->kind - (int)b->kind;
	if (a->kind == HEADLINE_COST)
		return 0;
	if (fabs(a->answer->log_effect) != fabs(b->answer->log_effect))
		return fabs(a->answer->log_effect) > fabs(b->answer->log_effect) ? -1 : 1;
	/* Ties keep the report's order. */
	return a->answer < b->answer ? -1 : a->answer > b->answer;
}

/* What the answers without a claim say, counted for the line's null. */
struct null_tally {
	size_t tested, same, undecided, not_shown;
	double margin;
	unsigned decide;        /* the most boots to decide an undecided one; 0: not known */
	bool decide_unknown;
	unsigned detect;        /* the most boots to detect detect_pct */
	bool detect_over;       /* a metric needs more than 1000 */
	bool detect_unknown;    /* a metric's boot variance is not known */
	double detect_pct;
	bool one_boot_mode, one_boot_first;   /* why the untested ones are: one boot of the mode, of the first */
	bool constant;          /* or boot means that do not vary */
};

static void tally_detect(struct null_tally *n, const struct answer *a, const struct compare_result *res)
{
	const struct compare_metric *cm = a->metric;
	const struct compare_test *t = a->test;
	double pct = cm->margin_pct > 0 ? cm->margin_pct : HEADLINE_DETECT_PCT;
	unsigned b;

	if (!t || !(t->power_var > 0)) {
		n->detect_unknown = true;
		return;
	}
	n->detect_pct = fmax(n->detect_pct, pct);
	b = stats_boots_needed(fabs(compare_pct_log(pct, cm->better)), t->power_var, t->power_modes,
			       res->alpha > 0 ? res->alpha : COMPARE_ALPHA_DEFAULT, COMPARE_POWER, 1000);
	if (!b)
		n->detect_over = true;
	else if (b > n->detect)
		n->detect = b;
}

static void tally(struct null_tally *n, struct headline_line *l, const struct answer *a,
		  const struct compare_result *res)
{
	switch (a->kind) {
	case ANSWER_SAME:
		n->tested++;
		n->same++;
		n->margin = fmax(n->margin, a->metric->margin_pct);
		break;
	case ANSWER_UNDECIDED:
		n->tested++;
		/* A history test on a box noisier than its history: undecided, but no margin's. */
		if (a->metric->history.drift) {
			tally_detect(n, a, res);
			break;
		}
		n->undecided++;
		n->margin = fmax(n->margin, a->metric->margin_pct);
		if (a->test->has_boots_to_decide && a->test->boots_to_decide)
			n->decide = a->test->boots_to_decide > n->decide ? a->test->boots_to_decide : n->decide;
		else
			n->decide_unknown = true;
		break;
	case ANSWER_NOT_SHOWN:
	case ANSWER_NOT_AFTER_FDR:
		n->tested++;
		n->not_shown++;
		tally_detect(n, a, res);
		break;
	case ANSWER_NOT_TESTED:
		l->not_tested++;
		/* Boots that do not vary bound nothing: no count of boots would detect a change either. */
		if (a->one_boot)
			tally_detect(n, a, res);
		n->one_boot_mode |= a->boots < 2;
		n->one_boot_first |= a->boots_first < 2;
		n->constant |= a->boots >= 2 && a->boots_first >= 2;
		break;
	case ANSWER_CLAIM:
		n->tested++;
		break;
	case ANSWER_MISSING:
	default:
		break;
	}
}

/* "one boot per mode: 2 boots per mode, or a history of this box, would test it". */
static void add_untested(struct strbuf *sb, const struct headline_line *l, const struct null_tally *n)
{
	if (!n->one_boot_mode && !n->one_boot_first) {
		strbuf_addf(sb, "the boots of %s and %s do not vary: no test can bound a difference", l->mode,
			    l->first_mode);
		return;
	}
	if (n->one_boot_mode && n->one_boot_first)
		strbuf_addstr(sb, "one boot per mode");
	else
		strbuf_addf(sb, "one boot of %s", n->one_boot_mode ? l->mode : l->first_mode);
	strbuf_addstr(sb, ": 2 boots per mode, or a history of this box, would test it");
}

static void null_text(struct strbuf *sb, struct headline_line *l, const struct null_tally *n)
{
	switch (l->null) {
	case HEADLINE_NULL_SAME:
		strbuf_addf(sb, "same within ±%g %%", l->margin_pct);
		break;
	case HEADLINE_NULL_UNDECIDED:
		strbuf_addf(sb, "neither a difference nor the same within ±%g %%", l->margin_pct);
		if (n->decide && !n->decide_unknown)
			strbuf_addf(sb, "; %u boots per mode would decide it", n->decide);
		break;
	case HEADLINE_NULL_NOT_SHOWN:
		strbuf_addstr(sb, "no difference shown");
		if (l->has_detect && l->detect_boots)
			strbuf_addf(sb, "; %u boots per mode would detect %g %%", l->detect_boots, l->detect_pct);
		else if (l->has_detect)
			strbuf_addf(sb, "; more than 1000 boots per mode would be needed to detect %g %%", l->detect_pct);
		break;
	case HEADLINE_NULL_NOT_TESTED:
		strbuf_addstr(sb, "not tested (");
		add_untested(sb, l, n);
		strbuf_addch(sb, ')');
		if (l->has_detect && l->detect_boots)
			strbuf_addf(sb, "; %u boots per mode would detect %g %%", l->detect_boots, l->detect_pct);
		break;
	case HEADLINE_NULL_NONE:
	default:
		break;
	}
}

static void line_text(struct headline_line *l, const struct null_tally *n)
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
		if (it->energy)
			strbuf_addf(&sb, ", %s", it->energy);
		if (it->why)
			strbuf_addf(&sb, ", counters: %s", it->why);
		sep = "; ";
	}
	if (l->assumes_same_noise)
		strbuf_addf(&sb, "; this assumes %s varies from boot to boot as %s does (one boot cannot show it); "
			    "one more round, or rounds = auto with the history, tests %s on its own boots",
			    l->mode, l->first_mode, l->mode);
	if (l->null != HEADLINE_NULL_NONE) {
		null_text(&sb, l, n);
		sep = "; ";
	}
	for (; i < l->n_items; i++) {
		strbuf_addf(&sb, "%s%s", sep, l->items[i].text);
		sep = "; ";
	}
	if (l->not_tested && l->null != HEADLINE_NULL_NOT_TESTED) {
		strbuf_addf(&sb, "%s%zu metric%s not tested (", sep, l->not_tested, l->not_tested == 1 ? "" : "s");
		add_untested(&sb, l, n);
		strbuf_addch(&sb, ')');
	}
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
			const struct compare_test *t = answer_test_of(cm, l->mode);
			double d;

			if (!cm->counter || cm->energy || said[i] || strcmp(cm->row, row))
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

/*
 * Whether cm is the energy a claim on metric of row is said with: the
 * package's (else psys's) joules per unit of work of metric, where that
 * metric is a rate ("package-0 energy per t of tg"), else its joules per
 * rep ("package-0 energy"). per_unit: look for the first kind.
 */
static bool energy_of(const struct compare_metric *cm, const struct compare_metric *claim, bool per_unit,
		      bool package)
{
	const char *m = cm->metric, *per = strstr(m, " energy per ");
	size_t n = strlen(m), mn = strlen(claim->metric);

	if (!cm->energy || strcmp(cm->row, claim->row) || strncmp(m, package ? "package" : "psys", package ? 7 : 4))
		return false;
	if (per_unit)
		return per && n > mn + 4 && !strcmp(m + n - mn, claim->metric) && !strncmp(m + n - mn - 4, " of ", 4);
	return !per && n > 7 && !strcmp(m + n - 7, " energy");
}

/* One energy metric's answer in the line's words: "+4.0 % package-0 energy", "package-0 energy not tested". */
static void add_energy_words(struct strbuf *sb, const struct answer *a)
{
	const char *m = a->metric->metric, *per = strstr(m, " energy per "), *of = per ? strstr(per, " of ") : NULL;
	int name_len = of ? (int)(of - m) : (int)strlen(m);
	/* + is better: energy (lower is better) was exp(-effect) times the first mode's. */
	double ratio = exp(a->metric->better == BETTER_LOWER ? -a->log_effect : a->log_effect);

	switch (a->kind) {
	case ANSWER_CLAIM:
		if (ratio >= 2)
			strbuf_addf(sb, "%.3gx the %.*s", ratio, name_len, m);
		else
			strbuf_addf(sb, "%+.1f %% %.*s", (ratio - 1) * 100, name_len, m);
		break;
	case ANSWER_SAME:
		strbuf_addf(sb, "%.*s the same within ±%g %%", name_len, m, a->metric->margin_pct);
		break;
	case ANSWER_NOT_TESTED:
		strbuf_addf(sb, "%.*s not tested", name_len, m);
		break;
	case ANSWER_NOT_AFTER_FDR:
	case ANSWER_UNDECIDED:
	case ANSWER_NOT_SHOWN:
	case ANSWER_MISSING:
	default:
		strbuf_addf(sb, "no difference in %.*s shown", name_len, m);
		break;
	}
}

/*
 * The energy beside a claim (NULL: its row reads none): each package's
 * per unit of work for a rate, else per rep; psys where the box has no
 * package zone.
 */
static char *claim_energy(const struct answer_mode *m, const struct answer *claim)
{
	struct strbuf sb = STRBUF_INIT;

	for (int kind = 0; kind < 4 && !sb.len; kind++) {
		for (size_t i = 0; i < m->n_answers; i++) {
			const struct answer *a = &m->answers[i];

			if (a->kind == ANSWER_MISSING || !energy_of(a->metric, claim->metric, kind % 2 == 0, kind < 2))
				continue;
			strbuf_addstr(&sb, sb.len ? ", " : "");
			add_energy_words(&sb, a);
		}
	}
	if (!sb.len) {
		strbuf_release(&sb);
		return NULL;
	}
	return strbuf_detach(&sb, NULL);
}

/*
 * A counter is no claim of its own: the first claim of each row gets its
 * row's energy and its counters as its why.
 */
static void explain_claims(const struct compare_result *res, const struct answer_mode *m, struct headline_line *l)
{
	for (size_t i = 0; i < l->n_items && l->items[i].kind == HEADLINE_CLAIM; i++) {
		bool first = true;

		for (size_t j = 0; j < i && first; j++)
			first = strcmp(l->items[j].answer->metric->row, l->items[i].answer->metric->row) != 0;
		if (!first)
			continue;
		l->items[i].why = counters_why(res, l, l->items[i].answer->metric->row);
		l->items[i].energy = claim_energy(m, l->items[i].answer);
	}
}

static bool cost_seen(const struct headline_line *l, const char *row)
{
	for (size_t i = 0; i < l->n_items; i++)
		if (l->items[i].kind == HEADLINE_COST && !strcmp(l->items[i].cost->row, row))
			return true;
	return false;
}

/* The checks that failed on this mode and not on the first side. */
static void add_costs(const struct compare_result *res, struct headline_line *l, size_t *alloc)
{
	for (size_t i = 0; i < res->n_costs; i++) {
		const struct compare_cost *c = &res->costs[i];
		struct headline_item it = { .kind = HEADLINE_COST, .cost = c };
		struct strbuf sb = STRBUF_INIT;

		if (strcmp(res->sides[c->side].mode, l->mode) || cost_seen(l, c->row))
			continue;
		if (c->has_tests ? c->tests_new == 0 : c->fails_on_first)
			continue;
		report_cost_words(&sb, c, true);
		strbuf_addstr(&sb, " (cost)");
		it.text = strbuf_detach(&sb, NULL);
		add_item(l, alloc, &it);
	}
}

static void build_line(const struct compare_result *res, const struct answer_mode *m, struct headline_line *l)
{
	struct null_tally n = { 0 };
	size_t alloc = 0;
	bool claims = false;

	for (size_t i = 0; i < m->n_answers; i++) {
		const struct answer *a = &m->answers[i];
		struct headline_item it = { .answer = a };

		/* A counter is no answer of its own: it explains its row's claim (explain_claims). */
		if (a->metric->counter)
			continue;
		tally(&n, l, a, res);
		if (a->kind != ANSWER_CLAIM && a->kind != ANSWER_NOT_AFTER_FDR)
			continue;
		it.kind = a->kind == ANSWER_CLAIM ? HEADLINE_CLAIM : HEADLINE_NOT_AFTER_FDR;
		claims |= it.kind == HEADLINE_CLAIM;
		/* The history's variance is the first mode's: a mode of one boot has none of its own. */
		l->assumes_same_noise |= it.kind == HEADLINE_CLAIM && a->test->method == METHOD_HISTORY && a->boots < 2;
		it.words = claim_words(res, a, it.kind);
		it.note = claim_note(res, a);
		it.text = xasprintf("%s (%s)", it.words, it.note);
		add_item(l, &alloc, &it);
	}
	add_costs(res, l, &alloc);
	if (l->n_items)
		qsort(l->items, l->n_items, sizeof(*l->items), by_size);
	explain_claims(res, m, l);

	l->null = HEADLINE_NULL_NONE;
	if (claims) {
		/* A claim answers the line. */
	} else if (n.tested && n.same == n.tested) {
		l->null = HEADLINE_NULL_SAME;
		l->margin_pct = n.margin;
	} else if (n.undecided) {
		l->null = HEADLINE_NULL_UNDECIDED;
		l->margin_pct = n.margin;
	} else if (n.tested) {
		l->null = HEADLINE_NULL_NOT_SHOWN;
	} else if (l->not_tested) {
		l->null = HEADLINE_NULL_NOT_TESTED;
	}
	if ((l->null == HEADLINE_NULL_NOT_SHOWN || l->null == HEADLINE_NULL_NOT_TESTED) && !n.detect_unknown &&
	    (n.detect || n.detect_over)) {
		l->has_detect = true;
		l->detect_boots = n.detect_over ? 0 : n.detect;
		l->detect_pct = n.detect_pct;
	}
	line_text(l, &n);
}

void headline_build(const struct compare_result *res, struct headline *ret)
{
	struct headline h = { 0 };

	answer_view_build(res, &h.view);
	h.lines = xcalloc(h.view.n_modes ? h.view.n_modes : 1, sizeof(*h.lines));
	for (size_t i = 0; i < h.view.n_modes; i++) {
		const struct answer_mode *m = &h.view.modes[i];

		h.lines[i] = (struct headline_line){ .mode = m->mode, .first_mode = m->first_mode, .side = m->side };
		build_line(res, m, &h.lines[i]);
	}
	h.n_lines = h.view.n_modes;
	h.factors = factors_headline(res);
	h.all_one_mode = h.n_lines == 0 && !h.factors;
	*ret = h;
}

void headline_write(FILE *out, const struct compare_result *res, size_t width, bool md)
{
	struct headline h;

	headline_build(res, &h);
	if (h.factors) {
		if (md) {
			fputs("- ", out);
			report_md_plain(out, h.factors);
			fputc('\n', out);
		} else {
			report_put_wrapped(out, h.factors, width, "    ");
		}
		if (!h.n_lines)
			fputc('\n', out);
	} else if (h.all_one_mode) {
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
			free(h->lines[i].items[j].energy);
		}
		free(h->lines[i].items);
		free(h->lines[i].text);
	}
	free(h->lines);
	free(h->factors);
	answer_view_release(&h->view);
	*h = (struct headline){ 0 };
}
