#include "judge/screen.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "judge/costs.h"
#include "lib/alloc.h"

const char *screen_verdict_name(enum screen_verdict v)
{
	switch (v) {
	case SCREEN_BETTER:
		return "better";
	case SCREEN_WORSE:
		return "worse";
	case SCREEN_WITHIN_NOISE:
		return "within-noise";
	case SCREEN_NO_CI:
	default:
		return "no-ci";
	}
}

bool screen_side_is_run(const struct screen_result *s, size_t k)
{
	return s && k < s->n_sides && s->side_run[k] > 0;
}

static int by_size(const void *a, const void *b)
{
	double x = fabs(((const struct screen_effect *)a)->effect), y = fabs(((const struct screen_effect *)b)->effect);

	return x > y ? -1 : x < y;
}

static struct screen_effect effect_of(const struct compare_metric *cm, const struct design_effect *e, size_t df,
				      size_t a, size_t b)
{
	/* + is better: the log effect turned to the reports' one convention. */
	double sign = cm->better == BETTER_LOWER ? -1 : 1;
	struct screen_effect r = { .a = a, .b = b, .effect = e->effect, .lo_pct = NAN, .hi_pct = NAN,
				   .log_lo = NAN, .log_hi = NAN, .p = e->p, .verdict = SCREEN_NO_CI };

	r.log_effect = sign * e->effect;
	r.delta_pct = compare_log_pct(r.log_effect, cm->better);
	if (df && !isnan(e->low) && !isnan(e->high)) {
		r.log_lo = fmin(sign * e->low, sign * e->high);
		r.log_hi = fmax(sign * e->low, sign * e->high);
		r.lo_pct = compare_log_pct(r.log_lo, cm->better);
		r.hi_pct = compare_log_pct(r.log_hi, cm->better);
		if (r.log_lo > 0)
			r.verdict = SCREEN_BETTER;
		else if (r.log_hi < 0)
			r.verdict = SCREEN_WORSE;
		else
			r.verdict = SCREEN_WITHIN_NOISE;
	}
	return r;
}

/*
 * The design's boots of metric cm: their levels and log boot means.
 * Returns how many; *ret_fold_complete: a folded design with a boot of
 * every run of its fold-over.
 */
static size_t design_boots(const struct screen_result *s, const struct compare_result *res,
			   const struct compare_metric *cm, signed char *levels, double *y, bool *ret_fold_complete)
{
	const struct design *d = s->design;
	size_t k = s->k, n = 0, fold_runs = 0;
	bool *seen = xcalloc(d->n_runs + 1, sizeof(*seen));

	for (size_t i = 0; i < res->n_sides; i++) {
		const struct compare_cell *c = &cm->cells[i];

		if (s->side_run[i] < 0 || !c->present || !c->has_boot)
			continue;
		memcpy(&levels[n * k], &d->levels[(size_t)s->side_run[i] * k], k);
		y[n++] = c->boot.mean;   /* the boot mean in log space */
		seen[s->side_run[i]] = true;
	}
	for (size_t r = d->base_runs; r < d->n_runs; r++)
		fold_runs += seen[r];
	*ret_fold_complete = d->folded && fold_runs == d->n_runs - d->base_runs;
	free(seen);
	return n;
}

unsigned screen_metric_resolution(const struct screen_result *s, const struct screen_metric *m)
{
	return !s->design->folded || m->fold_complete ? s->design->resolution : s->design->base_resolution;
}

static void interactions(struct screen_result *s, struct screen_metric *sm, const signed char *levels,
			 const double *y, size_t n)
{
	size_t k = s->k, np = k * (k - 1) / 2, df, p = 0;
	unsigned *pairs;
	struct design_effect *e;

	/* A fold-over leaves interactions aliased with each other (resolution IV): none estimated. */
	if (k < 2 || !design_interactions_clear(s->design))
		return;
	pairs = xcalloc(2 * np, sizeof(*pairs));
	e = xcalloc(k + np, sizeof(*e));
	for (unsigned a = 0; a < k; a++)
		for (unsigned b = a + 1; b < k; b++, p++) {
			pairs[2 * p] = a;
			pairs[2 * p + 1] = b;
		}
	if (design_fit(levels, k, pairs, np, y, n, s->alpha, e, &df) == 0) {
		sm->interactions = xcalloc(np, sizeof(*sm->interactions));
		sm->n_interactions = np;
		sm->df_interactions = df;
		for (size_t i = 0; i < np; i++)
			sm->interactions[i] = effect_of(sm->metric, &e[k + i], df, pairs[2 * i], pairs[2 * i + 1]);
		qsort(sm->interactions, np, sizeof(*sm->interactions), by_size);
	}
	free(pairs);
	free(e);
}

static void metric_answer(struct screen_result *s, const struct compare_result *res, const struct compare_metric *cm,
			  struct screen_metric *sm)
{
	size_t k = s->k, df;
	signed char *levels = xcalloc(res->n_sides * k + 1, 1);
	double *y = xcalloc(res->n_sides + 1, sizeof(*y));
	struct design_effect *e = xcalloc(k, sizeof(*e));

	*sm = (struct screen_metric){ .metric = cm };
	sm->boots = design_boots(s, res, cm, levels, y, &sm->fold_complete);
	if (design_effects(levels, k, y, sm->boots, s->alpha, e, &df) == 0) {
		sm->estimable = true;
		sm->df = df;
		sm->mains = xcalloc(k, sizeof(*sm->mains));
		for (size_t f = 0; f < k; f++) {
			sm->mains[f] = effect_of(cm, &e[f], df, f, f);
			/* Until every fold-over run has a boot, the design's own aliases hold. */
			sm->mains[f].alias = !sm->fold_complete && design_main_aliased_unfolded(s->design, f);
		}
		qsort(sm->mains, k, sizeof(*sm->mains), by_size);
		interactions(s, sm, levels, y, sm->boots);
	}
	free(levels);
	free(y);
	free(e);
}

/* A cost seen on the sides flagged in seen: blamed on each factor on at some design boot it was seen on and off at none. */
static void blame(struct screen_result *s, const bool *seen, const char *what)
{
	for (size_t f = 0; f < s->k; f++) {
		size_t on = 0, off = 0, factor_on = 0;

		for (size_t i = 0; i < s->n_sides; i++) {
			bool is_on;

			if (s->side_run[i] < 0)
				continue;
			is_on = s->design->levels[(size_t)s->side_run[i] * s->k + f] > 0;
			factor_on += is_on;
			if (seen[i]) {
				on += is_on;
				off += !is_on;
			}
		}
		if (on && !off) {
			GROW(s->costs, s->alloc_costs, s->n_costs + 1);
			s->costs[s->n_costs++] = (struct screen_cost){ .factor = f, .what = xstrdup(what), .boots_on = on,
								       .boots_factor_on = factor_on };
		}
	}
}

static void factor_costs(struct screen_result *s, const struct compare_result *res)
{
	bool *seen = xcalloc(res->n_sides + 1, sizeof(*seen));
	struct strlist done = STRLIST_INIT;

	/* A failed check row: every side its row failed on. */
	for (size_t i = 0; i < res->n_costs; i++) {
		const char *row = res->costs[i].row;
		char *what;

		if (strlist_find(&done, row) >= 0)
			continue;
		strlist_add(&done, row);
		memset(seen, 0, res->n_sides * sizeof(*seen));
		for (size_t j = i; j < res->n_costs; j++)
			if (!strcmp(res->costs[j].row, row) && res->costs[j].side < res->n_sides)
				seen[res->costs[j].side] = true;
		what = xasprintf("check %s failed", row);
		blame(s, seen, what);
		free(what);
	}
	strlist_release(&done);
	/* What bootab found against the standing boots, by kind and subject. */
	for (size_t i = 0; i < res->found.n_found; i++) {
		const struct found *f = &res->found.found[i];
		char *key;

		if (f->gain)
			continue;
		key = xasprintf("%s: %s", found_kind_name(f->kind), f->subject ? f->subject : "");
		if (strlist_find(&done, key) < 0) {
			strlist_add(&done, key);
			memset(seen, 0, res->n_sides * sizeof(*seen));
			for (size_t j = i; j < res->found.n_found; j++) {
				const struct found *g = &res->found.found[j];

				if (g->kind == f->kind && !g->gain && !strcmp(g->subject ? g->subject : "", f->subject ? f->subject : "") &&
				    g->side < res->n_sides)
					seen[g->side] = true;
			}
			blame(s, seen, key);
		}
		free(key);
	}
	strlist_release(&done);
	free(seen);
}

void screen_build(const struct design *d, const char *const *names, const char *const *args, const long *side_run,
		  const struct compare_result *res, double alpha, struct screen_result *ret)
{
	struct screen_result s = { .design = d, .k = d->k, .n_sides = res->n_sides, .alpha = alpha };

	s.names = xcalloc(s.k, sizeof(*s.names));
	s.args = xcalloc(s.k, sizeof(*s.args));
	for (size_t f = 0; f < s.k; f++) {
		s.names[f] = xstrdup(names[f]);
		s.args[f] = xstrdup(args[f] ? args[f] : "");
	}
	s.side_run = xcalloc(res->n_sides + 1, sizeof(*s.side_run));
	for (size_t i = 0; i < res->n_sides; i++)
		s.side_run[i] = side_run[i] >= 0 && (size_t)side_run[i] < d->n_runs ? side_run[i] : -1;
	s.metrics = xcalloc(res->n_metrics + 1, sizeof(*s.metrics));
	for (size_t i = 0; i < res->n_metrics; i++)
		if (!res->metrics[i].counter)
			metric_answer(&s, res, &res->metrics[i], &s.metrics[s.n_metrics++]);
	factor_costs(&s, res);
	*ret = s;
}

void screen_release(struct screen_result *s)
{
	if (!s)
		return;
	for (size_t f = 0; f < s->k; f++) {
		free(s->names[f]);
		free(s->args[f]);
	}
	free(s->names);
	free(s->args);
	free(s->side_run);
	for (size_t i = 0; i < s->n_metrics; i++) {
		free(s->metrics[i].mains);
		free(s->metrics[i].interactions);
	}
	free(s->metrics);
	for (size_t i = 0; i < s->n_costs; i++)
		free(s->costs[i].what);
	free(s->costs);
	*s = (struct screen_result){ 0 };
}

void screen_drop_run_tests(const struct screen_result *s, struct compare_result *res)
{
	for (size_t i = 0; s && i < res->n_metrics; i++) {
		struct compare_metric *cm = &res->metrics[i];
		size_t kept = 0;

		for (size_t t = 0; t < cm->n_tests; t++) {
			const struct compare_test *ct = &cm->tests[t];

			if (!screen_side_is_run(s, ct->side)) {
				cm->tests[kept++] = *ct;
				continue;
			}
			/* The counts compare_sides() made over this test, undone (counters count none). */
			if (ct->method == METHOD_NONE || cm->counter)
				continue;
			res->n_tests--;
			res->n_same -= ct->verdict == VERDICT_SAME;
			res->n_undecided -= ct->verdict == VERDICT_UNDECIDED;
			if (ct->verdict == VERDICT_COUNTS) {
				res->n_claims--;
				res->n_survive -= ct->survives;
			}
		}
		cm->n_tests = kept;
	}
}
