/* Verdicts pooled over machines (judge/fleet.h, docs/fleet.md). */
#include "judge/fleet.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lib/alloc.h"
#include "lib/strbuf.h"

const char *fleet_verdict_name(enum fleet_verdict v)
{
	switch (v) {
	case FLEET_COUNTS:
		return "counts";
	case FLEET_WITHIN_NOISE:
		return "within-noise";
	case FLEET_DIFFERS:
		return "differs";
	case FLEET_UNTESTED:
	default:
		return "untested";
	}
}

/* The metric of a comparison, or NULL. */
static const struct compare_metric *find_metric(const struct compare_result *r, const char *row, const char *metric)
{
	for (size_t i = 0; i < r->n_metrics; i++)
		if (!strcmp(r->metrics[i].row, row) && !strcmp(r->metrics[i].metric, metric))
			return &r->metrics[i];
	return NULL;
}

static const struct compare_test *find_test(const struct compare_metric *cm, const char *mode)
{
	for (size_t t = 0; t < cm->n_tests; t++)
		if (!strcmp(cm->tests[t].mode, mode))
			return &cm->tests[t];
	return NULL;
}

static struct fleet_metric *find_fleet_metric(struct fleet_result *f, const char *row, const char *metric,
					      const char *mode)
{
	for (size_t i = 0; i < f->n_metrics; i++)
		if (!strcmp(f->metrics[i].row, row) && !strcmp(f->metrics[i].metric, metric) &&
		    !strcmp(f->metrics[i].mode, mode))
			return &f->metrics[i];
	return NULL;
}

/* Mean of the machines' estimates of one class, as a percentage. */
static double class_pct(const struct fleet_metric *fm, size_t n, int sign)
{
	double sum = 0;
	size_t k = 0;

	for (size_t i = 0; i < n; i++) {
		const struct fleet_effect *e = &fm->machines[i];

		if (e->present && e->verdict == VERDICT_COUNTS && (e->estimate > 0 ? 1 : -1) == sign) {
			sum += e->estimate;
			k++;
		}
	}
	return k ? compare_log_pct(sum / (double)k, fm->better) : NAN;
}

/*
 * What the pooled verdict does not say: whether the machines differ. Not
 * tested unless every machine has a test of its own on enough degrees of
 * freedom; the words say which is missing and what would give it.
 */
static void add_heterogeneity_words(struct strbuf *sb, const struct fleet_metric *fm, size_t n_machines)
{
	double fewest = INFINITY;

	if (fm->pool.has_heterogeneity) {
		strbuf_addf(sb, " (not shown to differ between machines, p %.2f)", fm->pool.het_p);
		return;
	}
	for (size_t i = 0; i < n_machines; i++)
		if (fm->machines[i].present)
			fewest = fmin(fewest, fm->machines[i].method == METHOD_NONE ? 0 : fm->machines[i].df);
	if (!(fewest > 0))
		strbuf_addf(sb, " (whether it differs between machines: not tested; a machine has no test of its own: every machine needs two boots per mode or more, and %d degrees of freedom)",
			    STATS_FLEET_HET_MIN_DF);
	else
		strbuf_addf(sb, " (whether it differs between machines: not tested; a machine's own test has %.0f degrees of freedom, every machine needs %d: one more round)",
			    fewest, STATS_FLEET_HET_MIN_DF);
}

static void words(struct fleet_metric *fm, size_t n_machines)
{
	struct strbuf sb = STRBUF_INIT;
	size_t k = fm->n_present;
	const char *all = k == n_machines ? "all " : "";

	switch (fm->verdict) {
	case FLEET_DIFFERS: {
		const char *sep = "";

		strbuf_addstr(&sb, "differs between machines: ");
		if (fm->n_better) {
			strbuf_addf(&sb, "%+.1f %% on %zu", class_pct(fm, n_machines, 1), fm->n_better);
			sep = ", ";
		}
		if (fm->n_worse) {
			strbuf_addf(&sb, "%s%+.1f %% on %zu", sep, class_pct(fm, n_machines, -1), fm->n_worse);
			sep = ", ";
		}
		if (fm->n_none) {
			strbuf_addf(&sb, "%snone on %zu", sep, fm->n_none);
			sep = ", ";
		}
		if (fm->n_untested)
			strbuf_addf(&sb, "%snot tested on %zu", sep, fm->n_untested);
		strbuf_addf(&sb, "; pooled %+.1f %% [%.1f, %.1f]", fm->delta_pct, fm->lo_pct, fm->hi_pct);
		break;
	}
	case FLEET_COUNTS:
		strbuf_addf(&sb, "%s on average over %s%zu, %+.1f %% [%.1f, %.1f]", fm->delta_pct > 0 ? "better" : "worse", all, k,
			    fm->delta_pct, fm->lo_pct, fm->hi_pct);
		break;
	case FLEET_WITHIN_NOISE:
		strbuf_addf(&sb, "within noise on average over %s%zu, %+.1f %% [%.1f, %.1f]", all, k, fm->delta_pct, fm->lo_pct,
			    fm->hi_pct);
		break;
	case FLEET_UNTESTED:
	default:
		if (fm->pooled)
			strbuf_addf(&sb, "not tested: the %zu machines' estimates do not vary (%+.1f %% on each)", k,
				    fm->delta_pct);
		else
			strbuf_addf(&sb, "not tested: measured on %zu machine%s", k, k == 1 ? "" : "s");
		break;
	}
	if (fm->pooled && fm->verdict != FLEET_DIFFERS && fm->verdict != FLEET_UNTESTED)
		add_heterogeneity_words(&sb, fm, n_machines);
	fm->words = strbuf_detach(&sb, NULL);
}

static void judge_metric(struct fleet_metric *fm, size_t n, double alpha)
{
	double *d = xcalloc(n, sizeof(*d)), *v = xcalloc(n, sizeof(*v)), *f = xcalloc(n, sizeof(*f));
	size_t k = 0;

	for (size_t i = 0; i < n; i++) {
		const struct fleet_effect *e = &fm->machines[i];

		if (!e->present)
			continue;
		d[k] = e->estimate;
		v[k] = e->var;
		f[k] = e->df;
		k++;
		if (e->verdict == VERDICT_COUNTS)
			*(e->estimate > 0 ? &fm->n_better : &fm->n_worse) += 1;
		else if (e->method == METHOD_NONE)
			fm->n_untested++;
		else
			fm->n_none++;
	}
	fm->n_present = k;
	fm->verdict = FLEET_UNTESTED;
	fm->delta_pct = fm->lo_pct = fm->hi_pct = fm->spread_pct = fm->tau_pct = NAN;
	if (k >= 2) {
		fm->pooled = true;
		fm->pool_status = stats_fleet_pool(d, v, f, k, alpha, &fm->pool);
		fm->delta_pct = compare_log_pct(fm->pool.mean, fm->better);
		fm->spread_pct = 100 * fm->pool.sd;
		if (fm->pool.has_tau)
			fm->tau_pct = 100 * sqrt(fm->pool.tau2);
		if (fm->pool_status == 0) {
			fm->lo_pct = compare_log_pct(fm->pool.test.lo, fm->better);
			fm->hi_pct = compare_log_pct(fm->pool.test.hi, fm->better);
			fm->verdict = fm->pool.test.lo > 0 || fm->pool.test.hi < 0 ? FLEET_COUNTS : FLEET_WITHIN_NOISE;
			if (fm->pool.has_heterogeneity && fm->pool.het_p < FLEET_HETEROGENEITY_ALPHA)
				fm->verdict = FLEET_DIFFERS;
		}
	}
	words(fm, n);
	free(d);
	free(v);
	free(f);
}

static int str_cmp(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

char *fleet_mode_definition(const char *mode, const char *const *args, const char *kernel)
{
	struct strbuf sb = STRBUF_INIT;
	const char **sorted;
	size_t n = 0;

	while (args && args[n])
		n++;
	sorted = xcalloc(n ? n : 1, sizeof(*sorted));
	for (size_t k = 0; k < n; k++)
		sorted[k] = args[k];
	qsort(sorted, n, sizeof(*sorted), str_cmp);
	strbuf_addf(&sb, "%s ", mode);
	for (size_t k = 0; k < n; k++)
		strbuf_addf(&sb, "%s%s", k ? " " : "", sorted[k]);
	if (!n)
		strbuf_addstr(&sb, "no args");
	if (kernel)
		strbuf_addf(&sb, " on kernel %s", kernel);
	free(sorted);
	return strbuf_detach(&sb, NULL);
}

/* What machine i's plan made mode (after "MODE "), or NULL when not known. */
static const char *mode_definition(const struct strlist *mode_defs, size_t i, const char *mode)
{
	size_t len = strlen(mode);

	if (!mode_defs)
		return NULL;
	for (size_t k = 0; k < mode_defs[i].n; k++)
		if (!strncmp(mode_defs[i].items[k], mode, len) && mode_defs[i].items[k][len] == ' ')
			return mode_defs[i].items[k] + len + 1;
	return NULL;
}

static void warn_once(struct strlist *warnings, char *line)
{
	if (strlist_find(warnings, line) < 0)
		strlist_add(warnings, line);
	free(line);
}

/*
 * Whether machine i ran mode (and the first mode) as the reference machine
 * did. An effect is the difference between two boots' configurations:
 * pooled over machines that booted different ones, it would average
 * different questions.
 */
static bool modes_agree(const struct fleet_result *f, const struct fleet_metric *fm, const char *const *names,
			const struct strlist *mode_defs, size_t i, struct strlist *warnings)
{
	const char *modes[2] = { f->first_mode, fm->mode };
	bool agree = true;

	for (size_t k = 0; k < 2; k++) {
		const char *want = mode_definition(mode_defs, fm->reference, modes[k]);
		const char *have = mode_definition(mode_defs, i, modes[k]);

		if (!want || !have || !strcmp(want, have))
			continue;
		agree = false;
		warn_once(warnings, xasprintf("mode %s%s is '%s' on %s and '%s' on %s: %s left out of %s%s pooled effects",
					      modes[k], k ? "" : " (the first)", want, names[fm->reference], have,
					      names[i], names[i], k ? modes[k] : "every mode's", k ? "'s" : ""));
	}
	return agree;
}

/* Whether machine i measured cm in fm's unit and direction. */
static bool metric_agrees(const struct fleet_metric *fm, const struct compare_metric *cm, const char *const *names,
			  size_t i, struct strlist *warnings)
{
	const char *unit = cm->unit ? cm->unit : "";

	if (cm->better != fm->better) {
		warn_once(warnings, xasprintf("%s: %s is %s-is-better on %s and not on %s: left out on %s", fm->row,
					      fm->metric, fm->better == BETTER_LOWER ? "lower" : "higher",
					      names[fm->reference], names[i], names[i]));
		return false;
	}
	if (strcmp(unit, fm->unit)) {
		warn_once(warnings, xasprintf("%s: %s is in '%s' on %s and in '%s' on %s: left out on %s", fm->row,
					      fm->metric, fm->unit, names[fm->reference], unit, names[i], names[i]));
		return false;
	}
	return true;
}

int fleet_judge(const struct compare_result *const *results, const char *const *names,
		const struct strlist *mode_defs, size_t n, double alpha, struct fleet_result *ret,
		struct strlist *warnings)
{
	struct fleet_result f = { 0 };
	size_t alloc = 0;

	if (n < 2) {
		strlist_add(warnings, "a fleet report needs two or more machines");
		return -EINVAL;
	}
	for (size_t i = 1; i < n; i++)
		if (strcmp(results[i]->sides[0].mode, results[0]->sides[0].mode)) {
			strlist_addf(warnings, "%s starts with mode '%s' where %s starts with '%s': a fleet pools one baseline",
				     names[i], results[i]->sides[0].mode, names[0], results[0]->sides[0].mode);
			return -EINVAL;
		}
	f.n_machines = n;
	f.alpha = alpha > 0 ? alpha : COMPARE_ALPHA_DEFAULT;
	f.machines = xcalloc(n, sizeof(*f.machines));
	f.first_mode = xstrdup(results[0]->sides[0].mode);
	for (size_t i = 0; i < n; i++)
		f.machines[i] = xstrdup(names[i]);
	/* Every (metric, mode) that any machine tests, in first-seen order. */
	for (size_t i = 0; i < n; i++)
		for (size_t m = 0; m < results[i]->n_metrics; m++) {
			const struct compare_metric *cm = &results[i]->metrics[m];

			for (size_t t = 0; t < cm->n_tests; t++) {
				struct fleet_metric *fm;

				if (find_fleet_metric(&f, cm->row, cm->metric, cm->tests[t].mode))
					continue;
				GROW(f.metrics, alloc, f.n_metrics + 1);
				fm = &f.metrics[f.n_metrics++];
				*fm = (struct fleet_metric){ .row = xstrdup(cm->row), .metric = xstrdup(cm->metric),
							     .mode = xstrdup(cm->tests[t].mode), .better = cm->better,
							     .unit = xstrdup(cm->unit ? cm->unit : ""),
							     .reference = i };
				fm->machines = xcalloc(n, sizeof(*fm->machines));
			}
		}
	for (size_t m = 0; m < f.n_metrics; m++) {
		struct fleet_metric *fm = &f.metrics[m];

		for (size_t i = 0; i < n; i++) {
			const struct compare_metric *cm = find_metric(results[i], fm->row, fm->metric);
			const struct compare_test *ct = cm ? find_test(cm, fm->mode) : NULL;
			struct fleet_effect *e = &fm->machines[i];

			*e = (struct fleet_effect){ .verdict = VERDICT_MISSING, .estimate = NAN, .var = NAN, .df = NAN,
						    .delta_pct = NAN, .lo_pct = NAN, .hi_pct = NAN };
			if (!ct || !isfinite(ct->estimate))
				continue;
			if (!metric_agrees(fm, cm, names, i, warnings) ||
			    !modes_agree(&f, fm, names, mode_defs, i, warnings))
				continue;
			e->present = true;
			e->method = ct->method;
			e->verdict = ct->method == METHOD_NONE ? VERDICT_UNTESTED : ct->verdict;
			e->estimate = ct->estimate;
			e->delta_pct = ct->delta_pct;
			if (ct->method != METHOD_NONE) {
				e->var = ct->test.se * ct->test.se;
				e->df = ct->test.df;
				e->lo_pct = ct->lo_pct;
				e->hi_pct = ct->hi_pct;
			}
		}
		judge_metric(fm, n, f.alpha);
		switch (fm->verdict) {
		case FLEET_COUNTS:
			f.n_counts++;
			break;
		case FLEET_WITHIN_NOISE:
			f.n_within_noise++;
			break;
		case FLEET_DIFFERS:
			f.n_differs++;
			break;
		default:
			f.n_untested++;
		}
	}
	*ret = f;
	return 0;
}

void fleet_result_release(struct fleet_result *f)
{
	for (size_t m = 0; m < f->n_metrics; m++) {
		free(f->metrics[m].row);
		free(f->metrics[m].metric);
		free(f->metrics[m].mode);
		free(f->metrics[m].unit);
		free(f->metrics[m].machines);
		free(f->metrics[m].words);
	}
	free(f->metrics);
	for (size_t i = 0; i < f->n_machines; i++)
		free(f->machines[i]);
	free(f->machines);
	free(f->first_mode);
	memset(f, 0, sizeof(*f));
}
