#include "report/answer.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "judge/screen.h"
#include "lib/alloc.h"
#include "report/words.h"

const char *answer_kind_name(enum answer_kind kind)
{
	switch (kind) {
	case ANSWER_CLAIM:
		return "claim";
	case ANSWER_NOT_AFTER_FDR:
		return "not-after-fdr";
	case ANSWER_SAME:
		return "same";
	case ANSWER_UNDECIDED:
		return "undecided";
	case ANSWER_NOT_SHOWN:
		return "not-shown";
	case ANSWER_NOT_TESTED:
		return "not-tested";
	case ANSWER_MISSING:
	default:
		return "missing";
	}
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

const char *answer_direction(const struct compare_metric *cm, double log_effect)
{
	return direction(cm, log_effect);
}

double answer_factor(double log_effect)
{
	return exp(fabs(log_effect));
}

/* Sides of mode g whose cell of cm is present. */
static size_t sides_with(const struct compare_result *res, const struct compare_metric *cm, size_t g)
{
	const struct side_modes *modes = &res->modes;
	size_t n = 0;

	for (size_t i = modes->start[g]; i < modes->start[g + 1]; i++)
		n += cm->cells[modes->sides[i]].present;
	return n;
}

static enum answer_kind tested_kind(const struct compare_test *t)
{
	switch (t->verdict) {
	case VERDICT_COUNTS:
		return t->survives ? ANSWER_CLAIM : ANSWER_NOT_AFTER_FDR;
	case VERDICT_SAME:
		return ANSWER_SAME;
	case VERDICT_UNDECIDED:
		return ANSWER_UNDECIDED;
	default:
		return ANSWER_NOT_SHOWN;
	}
}

/* The boots per mode with 80 % power to detect HEADLINE's 2 % (or the margin), when the noise is known; 0: not known. */
static unsigned boots_to_detect(const struct compare_result *res, const struct compare_metric *cm,
				const struct compare_test *t)
{
	double pct = cm->margin_pct > 0 ? cm->margin_pct : 2.0;

	if (!t || !(t->power_var > 0))
		return 0;
	return stats_boots_needed(fabs(compare_pct_log(pct, cm->better)), t->power_var, t->power_modes,
				  res->alpha > 0 ? res->alpha : COMPARE_ALPHA_DEFAULT, COMPARE_POWER, 1000);
}

void answer_of(const struct compare_result *res, const struct compare_metric *cm, const struct compare_test *t,
	       size_t k, struct answer *ret)
{
	const struct compare_cell *c = &cm->cells[k];
	struct answer a = { .metric = cm, .test = t, .mode = res->sides[k].mode, .side = k, .delta_pct = NAN,
			    .lo_pct = NAN, .hi_pct = NAN, .log_effect = NAN, .p = NAN, .fdr_q = NAN,
			    .test_name = "none" };

	a.boots = sides_with(res, cm, res->modes.of[k]);
	a.boots_first = sides_with(res, cm, 0);
	if (t && t->method != METHOD_NONE) {
		a.kind = tested_kind(t);
		a.test_name = report_method_words(t->method);
		a.delta_pct = t->delta_pct;
		a.lo_pct = t->lo_pct;
		a.hi_pct = t->hi_pct;
		a.log_effect = t->estimate;
		a.p = t->test.p;
		a.fdr_q = t->fdr_q;
		a.boots = t->boots;
		a.boots_first = t->boots_first;
	} else if (t && !isnan(t->delta_pct)) {
		a.kind = ANSWER_NOT_TESTED;
		a.delta_pct = t->delta_pct;
		a.log_effect = t->estimate;
		a.boots = t->boots;
		a.boots_first = t->boots_first;
	} else if (c->present && !isnan(c->delta_pct)) {
		a.kind = ANSWER_NOT_TESTED;
		a.delta_pct = c->delta_pct;
		a.log_effect = compare_pct_log(c->delta_pct, cm->better);
	} else {
		a.kind = ANSWER_MISSING;
	}
	if (a.kind == ANSWER_NOT_TESTED) {
		a.one_boot = a.boots < 2 || a.boots_first < 2;
		a.boots_to_test = 2;
		a.boots_to_detect = boots_to_detect(res, cm, t);
	}
	if (!isnan(a.log_effect)) {
		a.direction = direction(cm, a.log_effect);
		a.factor = answer_factor(a.log_effect) >= ANSWER_FACTOR_FROM;
	}
	*ret = a;
}

const struct compare_test *answer_test_of(const struct compare_metric *cm, const char *mode)
{
	for (size_t t = 0; t < cm->n_tests; t++)
		if (!strcmp(cm->tests[t].mode, mode))
			return &cm->tests[t];
	return NULL;
}

/* The test of the mode whose first side is k: tests are in the order of their modes' first sides. */
static const struct compare_test *test_of_side(const struct compare_metric *cm, size_t k)
{
	size_t lo = 0, hi = cm->n_tests;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (cm->tests[mid].side < k)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < cm->n_tests && cm->tests[lo].side == k ? &cm->tests[lo] : NULL;
}

static void count(struct answer_view *v, const struct answer *a)
{
	switch (a->kind) {
	case ANSWER_CLAIM:
		v->n_claims++;
		break;
	case ANSWER_NOT_AFTER_FDR:
		v->n_not_after_fdr++;
		break;
	case ANSWER_SAME:
		v->n_same++;
		break;
	case ANSWER_UNDECIDED:
		v->n_undecided++;
		break;
	case ANSWER_NOT_SHOWN:
		v->n_not_shown++;
		break;
	case ANSWER_NOT_TESTED:
		v->n_not_tested++;
		return;
	case ANSWER_MISSING:
	default:
		return;
	}
	v->n_tests++;
}

void answer_view_build(const struct compare_result *res, struct answer_view *ret)
{
	struct answer_view v = { 0 };

	v.modes = xcalloc(res->n_sides ? res->n_sides : 1, sizeof(*v.modes));
	for (size_t g = 1; g < res->modes.n; g++) {
		size_t k = side_modes_first(&res->modes, g);
		const char *mode = res->sides[k].mode;
		struct answer_mode *m;

		/* A run of a screening design is answered per factor (judge/screen.h), not as a mode. */
		if (screen_side_is_run(res->screen, k))
			continue;
		m = &v.modes[v.n_modes++];
		*m = (struct answer_mode){ .mode = mode, .first_mode = res->sides[0].mode, .side = k,
					   .answers = xcalloc(res->n_metrics ? res->n_metrics : 1, sizeof(*m->answers)),
					   .n_answers = res->n_metrics };
		for (size_t i = 0; i < res->n_metrics; i++) {
			answer_of(res, &res->metrics[i], test_of_side(&res->metrics[i], k), k, &m->answers[i]);
			/* Counters (perf, RAPL) explain a row; they stay out of the answer's counts. */
			if (!res->metrics[i].counter)
				count(&v, &m->answers[i]);
		}
	}
	*ret = v;
}

void answer_view_release(struct answer_view *view)
{
	if (!view)
		return;
	for (size_t i = 0; i < view->n_modes; i++)
		free(view->modes[i].answers);
	free(view->modes);
	*view = (struct answer_view){ 0 };
}

const struct answer *answer_find(const struct answer_view *view, const char *mode, const struct compare_metric *cm)
{
	for (size_t i = 0; i < view->n_modes; i++) {
		if (strcmp(view->modes[i].mode, mode))
			continue;
		for (size_t j = 0; j < view->modes[i].n_answers; j++)
			if (view->modes[i].answers[j].metric == cm)
				return &view->modes[i].answers[j];
	}
	return NULL;
}

void answer_add_verdict(struct strbuf *sb, const struct answer *a)
{
	const struct compare_metric *cm = a->metric;

	switch (a->kind) {
	case ANSWER_CLAIM:
		strbuf_addstr(sb, "counts");
		if (a->test->equivalent)
			strbuf_addf(sb, ", but within ±%g%%", cm->margin_pct);
		break;
	case ANSWER_NOT_AFTER_FDR:
		strbuf_addstr(sb, "not after FDR");
		break;
	case ANSWER_SAME:
		strbuf_addf(sb, "same within ±%g%%", cm->margin_pct);
		break;
	case ANSWER_UNDECIDED:
		strbuf_addstr(sb, "undecided");
		break;
	case ANSWER_NOT_SHOWN:
		strbuf_addstr(sb, "within noise");
		break;
	case ANSWER_NOT_TESTED:
		strbuf_addstr(sb, "not tested");
		break;
	case ANSWER_MISSING:
	default:
		strbuf_addstr(sb, "missing");
		break;
	}
}

/* A factor of the effect's direction: a CI end on the other side of 0 reads below 1x. */
static void add_factor(struct strbuf *sb, double log_end, double log_effect)
{
	strbuf_addf(sb, "%.1fx", exp(log_effect >= 0 ? log_end : -log_end));
}

/* The CI alone: "+2.3 to +5.3%" or "11.4x to 12.7x"; nothing without one. */
static void answer_add_ci(struct strbuf *sb, const struct answer *a)
{
	double lo, hi;

	if (isnan(a->lo_pct) || isnan(a->hi_pct))
		return;
	if (!a->factor) {
		report_add_ci(sb, a->lo_pct, a->hi_pct);
		return;
	}
	lo = a->test->test.lo;
	hi = a->test->test.hi;
	/* Ascending factors in the effect's direction. */
	add_factor(sb, a->log_effect >= 0 ? lo : hi, a->log_effect);
	strbuf_addstr(sb, " to ");
	add_factor(sb, a->log_effect >= 0 ? hi : lo, a->log_effect);
}

void answer_add_effect(struct strbuf *sb, const struct answer *a, bool with_ci, bool pct_space)
{
	bool ci = with_ci && !isnan(a->lo_pct) && !isnan(a->hi_pct);

	if (isnan(a->delta_pct))
		return;
	if (a->factor) {
		strbuf_addf(sb, "%.1fx %s", answer_factor(a->log_effect), a->direction);
		if (ci) {
			double lo = a->test->test.lo, hi = a->test->test.hi;

			strbuf_addstr(sb, " [");
			add_factor(sb, a->log_effect >= 0 ? lo : hi, a->log_effect);
			strbuf_addstr(sb, ", ");
			add_factor(sb, a->log_effect >= 0 ? hi : lo, a->log_effect);
			strbuf_addch(sb, ']');
		}
		return;
	}
	strbuf_addf(sb, pct_space ? "%+.1f %%" : "%+.1f%%", a->delta_pct);
	if (ci)
		strbuf_addf(sb, " [%+.1f, %+.1f]", a->lo_pct, a->hi_pct);
}

void answer_row_build(const struct compare_result *res, const struct answer *a, struct answer_row *ret)
{
	const struct compare_test *t = a->test;
	struct strbuf sb = STRBUF_INIT;

	*ret = (struct answer_row){ 0 };
	strbuf_addf(&sb, "%zu/%zu", a->boots, a->boots_first);
	ret->boots = strbuf_detach(&sb, NULL);
	answer_add_effect(&sb, a, false, false);
	ret->delta = strbuf_detach(&sb, NULL);
	answer_add_ci(&sb, a);
	ret->ci = strbuf_detach(&sb, NULL);
	if (t && t->method != METHOD_NONE) {
		report_add_p(&sb, t->test.p);
		ret->p = strbuf_detach(&sb, NULL);
		strbuf_addf(&sb, "%s, df %.0f", a->test_name, t->test.df);
	} else {
		ret->p = xstrdup("");
		strbuf_addstr(&sb, "-");
	}
	ret->test = strbuf_detach(&sb, NULL);
	answer_add_verdict(&sb, a);
	ret->verdict = strbuf_detach(&sb, NULL);
	if (t)
		report_add_test_notes(&sb, res, t);
	ret->notes = strbuf_detach(&sb, NULL);
}

void answer_row_release(struct answer_row *row)
{
	free(row->boots);
	free(row->delta);
	free(row->ci);
	free(row->p);
	free(row->test);
	free(row->verdict);
	free(row->notes);
	*row = (struct answer_row){ 0 };
}
