/*
 * compare_sides(): every side against the first, metric by metric (the
 * seed rule in compare-seed-rule.c, the boot level in compare-boot-level.c),
 * the false-discovery control over the tests, the one verdict table, and
 * what a result answers.
 */
#include "judge/compare.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <jansson.h>

#include "judge/compare-internal.h"
#include "judge/drift.h"
#include "lib/alloc.h"
#include "lib/timestamp.h"

/* Every verdict's names, in one table: the reports and the page take them from here. */
static const struct verdict_text verdict_texts[] = {
	[VERDICT_BASELINE] = { "baseline", "", "", "v-base" },
	[VERDICT_COUNTS] = { "counts", "counts", "counts", "v-gain" },
	[VERDICT_WITHIN_NOISE] = { "within-noise", "within noise", "noise", "v-noise" },
	[VERDICT_LOUD] = { "loud", "loud: not judged", "loud", "v-loud" },
	[VERDICT_NO_DRIFT] = { "no-drift", "no drift measured", "no drift", "v-nodrift" },
	[VERDICT_DRIFT] = { "drift", "drift", "drift", "v-drift" },
	[VERDICT_MISSING] = { "missing", "missing", "missing", "v-missing" },
	[VERDICT_UNTESTED] = { "untested", "not tested", "untested", "v-untested" },
	[VERDICT_SAME] = { "same", "same", "same", "v-same" },
	[VERDICT_UNDECIDED] = { "undecided", "undecided", "undecided", "v-undecided" },
};

const struct verdict_text *verdict_text(enum verdict v)
{
	if ((size_t)v >= sizeof(verdict_texts) / sizeof(verdict_texts[0]) || !verdict_texts[v].name)
		v = VERDICT_MISSING;
	return &verdict_texts[v];
}

const char *verdict_name(enum verdict v)
{
	return verdict_text(v)->name;
}

const char *compare_method_name(enum compare_method m)
{
	switch (m) {
	case METHOD_BOOT:
		return "boot";
	case METHOD_HISTORY:
		return "history";
	case METHOD_NONE:
	default:
		return "none";
	}
}

int compare_parse_margin(const char *s, double *ret)
{
	char *end;
	double v;

	/* Decimal only: strtod would also take 0x10 (16), inf or 1e1. */
	if (strspn(s, "0123456789.") != strcspn(s, "%") || !strpbrk(s, "0123456789") || strchr(s, '.') != strrchr(s, '.'))
		return -EINVAL;
	errno = 0;
	v = strtod(s, &end);
	if (end != s && *end == '%')
		end++;
	if (errno || end == s || *end || !(v > 0 && v <= COMPARE_MARGIN_MAX))
		return -EINVAL;
	*ret = v;
	return 0;
}

/* The margin of a row: "ROW=PCT" in the options, else the default. */
static double row_margin(const struct compare_options *o, const char *row)
{
	size_t len = strlen(row);
	double v;

	for (size_t i = 0; o->row_equivalence && i < o->row_equivalence->n; i++) {
		const char *s = o->row_equivalence->items[i];

		if (!strncmp(s, row, len) && s[len] == '=' && compare_parse_margin(s + len + 1, &v) == 0)
			return v;
	}
	return o->equivalence_pct > 0 ? o->equivalence_pct : 0;
}

/*
 * The sides' rounds: meta.json's round when every side has one, else
 * inferred from the order: the first side opens round 1 and every later
 * side of the first side's mode opens the next round (A B C A B C A:
 * 1 1 1 2 2 2 3). Writes n_sides values; returns whether they were inferred.
 */
static bool compare_rounds(const struct side *sides, size_t n_sides, unsigned *ret)
{
	bool recorded = true;
	unsigned r = 1;

	for (size_t k = 0; k < n_sides; k++)
		recorded &= sides[k].round > 0;
	if (recorded) {
		for (size_t k = 0; k < n_sides; k++)
			ret[k] = sides[k].round;
		return false;
	}
	for (size_t k = 0; k < n_sides; k++) {
		if (k > 0 && !strcmp(sides[k].mode, sides[0].mode))
			r++;
		ret[k] = r;
	}
	return true;
}

/* How warnings name a metric: a one-number row is named by the row alone. */
char *compare_metric_label(const char *row, const char *metric)
{
	if (!strcmp(metric, "value"))
		return xasprintf("row '%s'", row);
	return xasprintf("row '%s' metric '%s'", row, metric);
}

const struct metric *compare_find_metric(const struct side *side, const char *row,
					 const struct row **ret_row, const char *metric)
{
	const struct row *r = side_find_row(side, row);

	if (ret_row)
		*ret_row = r;
	if (!r || r->kind != ROW_BENCH)
		return NULL;
	return metric_set_find(&r->metrics, metric);
}

/*
 * Whether (row, metric) is already listed; known is a jansson object used
 * as a hash set, so listing n metrics is linear, not n^2. Row and metric
 * names hold no control character, so a newline separates them.
 */
static bool metric_known(json_t *known, const char *row, const char *metric)
{
	char *key = xasprintf("%s\n%s", row, metric);
	bool seen = json_object_get(known, key) != NULL;

	if (!seen)
		json_object_set_new(known, key, json_true());
	free(key);
	return seen;
}

/* "ROW=mean,min": the statistics of that row, into cm. */
static int row_stat_override(const struct compare_options *o, struct compare_metric *cm)
{
	size_t len = strlen(cm->row);

	if (!o->row_stats)
		return 0;
	for (size_t i = 0; i < o->row_stats->n; i++) {
		const char *s = o->row_stats->items[i];
		enum stat_kind kinds[STAT_KINDS];
		int n;

		if (strncmp(s, cm->row, len) || s[len] != '=')
			continue;
		n = stat_list_parse(s + len + 1, kinds);
		if (n < 0)
			return -EINVAL;
		memcpy(cm->stats, kinds, (size_t)n * sizeof(*kinds));
		cm->n_stats = (size_t)n;
		cm->stat = kinds[0];
		return 1;
	}
	return 0;
}

static void fill_cell(struct compare_cell *c, const struct metric *m, const struct compare_metric *cm)
{
	double mean = stats_mean(m->samples, m->n_samples);

	c->present = true;
	c->n = m->n_samples;
	c->value = stats_of(cm->stat, m->samples, m->n_samples);
	for (size_t i = 0; i < cm->n_stats; i++)
		c->stats[i].value = stats_of(cm->stats[i], m->samples, m->n_samples);
	c->spread = stats_stddev(m->samples, m->n_samples);
	c->spread_pct = c->spread / mean * 100;
	c->delta_pct = c->drift_pct = c->q = c->p = NAN;
	c->delta_lo = c->delta_hi = c->drift_lo = c->drift_hi = NAN;
}

/*
 * Benjamini-Hochberg over every test of the report's own numbers; the
 * counters (perf) that explain them are a family of their own, so that
 * asking for counters never weakens a row's claim, and they stay out of
 * the summary's tallies.
 */
static void control_fdr_family(struct compare_result *res, bool counters)
{
	size_t n = 0, i = 0;
	double *p;

	for (size_t m = 0; m < res->n_metrics; m++)
		if (res->metrics[m].counter == counters)
			n += res->metrics[m].n_tests;
	p = xcalloc(n + 1, sizeof(*p));
	for (size_t m = 0; m < res->n_metrics; m++)
		for (size_t t = 0; res->metrics[m].counter == counters && t < res->metrics[m].n_tests; t++) {
			const struct compare_test *ct = &res->metrics[m].tests[t];

			p[i++] = ct->method != METHOD_NONE ? ct->test.p : NAN;
		}
	stats_bh_adjust(p, n, p);
	i = 0;
	for (size_t m = 0; m < res->n_metrics; m++) {
		struct compare_metric *cm = &res->metrics[m];

		if (cm->counter != counters)
			continue;
		res->n_unusual += cm->has_history && cm->history.unusual;
		res->n_drift += cm->has_history && cm->history.drift;
		for (size_t t = 0; t < cm->n_tests; t++) {
			struct compare_test *ct = &cm->tests[t];

			ct->fdr_q = p[i++];
			if (ct->method == METHOD_NONE)
				continue;
			if (ct->verdict == VERDICT_COUNTS)
				ct->survives = ct->fdr_q <= res->fdr_q;
			if (counters)
				continue;
			res->n_tests++;
			res->n_same += ct->verdict == VERDICT_SAME;
			res->n_undecided += ct->verdict == VERDICT_UNDECIDED;
			if (ct->verdict != VERDICT_COUNTS)
				continue;
			res->n_claims++;
			res->n_survive += ct->survives;
		}
	}
	free(p);
}

static void control_fdr(struct compare_result *res)
{
	control_fdr_family(res, false);
	control_fdr_family(res, true);
}

static void count_verdict(struct compare_result *res, enum verdict v)
{
	switch (v) {
	case VERDICT_COUNTS:
		res->n_counts++;
		break;
	case VERDICT_WITHIN_NOISE:
		res->n_within_noise++;
		break;
	case VERDICT_LOUD:
		res->n_loud++;
		break;
	case VERDICT_NO_DRIFT:
		res->n_no_drift++;
		break;
	default:
		break;
	}
}

/* Whether o is one compare_sides() can work with (compare's options check each the same way first). */
static bool compare_options_valid(const struct compare_options *o, size_t n_sides, double alpha, double fdr_q)
{
	if (n_sides < 2 || !(o->loud_pct >= 0) || !(alpha > 0 && alpha < 1) || !(fdr_q > 0 && fdr_q < 1) ||
	    (o->stats && (o->n_stats < 1 || o->n_stats > STAT_KINDS || o->stats[0] != o->stat)))
		return false;
	if (o->row_stats)
		for (size_t i = 0; i < o->row_stats->n; i++) {
			const char *eq = strchr(o->row_stats->items[i], '=');
			enum stat_kind k[STAT_KINDS];

			if (!eq || eq == o->row_stats->items[i] || stat_list_parse(eq + 1, k) < 0)
				return false;
		}
	if (o->ignore)
		for (size_t i = 0; i < o->ignore->n; i++) {
			char *error = NULL;

			if (costs_pattern_check(o->ignore->items[i], &error) < 0) {
				free(error);
				return false;
			}
		}
	if (!(o->equivalence_pct >= 0 && o->equivalence_pct <= COMPARE_MARGIN_MAX))
		return false;
	if (o->row_equivalence)
		for (size_t i = 0; i < o->row_equivalence->n; i++) {
			const char *eq = strchr(o->row_equivalence->items[i], '=');
			double v;

			if (!eq || eq == o->row_equivalence->items[i] || compare_parse_margin(eq + 1, &v) < 0)
				return false;
		}
	return true;
}

/* The metrics of every bench row, in first-seen order, the first side's first; no cell filled yet. */
static void collect_metrics(const struct side *sides, size_t n_sides, const struct compare_options *o,
			    struct compare_result *res)
{
	size_t alloc = 0;
	json_t *known;

	known = json_object();
	for (size_t k = 0; k < n_sides; k++) {
		for (size_t i = 0; i < sides[k].n_rows; i++) {
			const struct row *r = &sides[k].rows[i];

			if (r->kind != ROW_BENCH)
				continue;
			for (size_t j = 0; j < r->metrics.n_metrics; j++) {
				const struct metric *m = &r->metrics.metrics[j];
				struct compare_metric *cm;

				if (metric_known(known, r->name, m->name))
					continue;
				GROW(res->metrics, alloc, res->n_metrics + 1);
				cm = &res->metrics[res->n_metrics++];
				memset(cm, 0, sizeof(*cm));
				cm->row = xstrdup(r->name);
				cm->metric = xstrdup(m->name);
				cm->better = m->better;
				cm->unit = xstrdup(m->unit);
				cm->counter = m->counter != NULL;
				cm->energy = m->counter && !strcmp(m->counter, "rapl");
				cm->stat = o->stat;
				cm->stats[0] = o->stat;
				cm->n_stats = 1;
				if (o->stats) {
					memcpy(cm->stats, o->stats, o->n_stats * sizeof(*o->stats));
					cm->n_stats = o->n_stats;
				}
				cm->cells = xcalloc(n_sides, sizeof(*cm->cells));
			}
		}
	}
	json_decref(known);
}

/*
 * How metric cm is compared: run by run (--by-run or the row says so),
 * by which statistics (the options', else the first row that names its
 * own), with which equivalence margin.
 */
static void metric_setup(const struct side *sides, size_t n_sides, struct compare_metric *cm,
			 const struct compare_options *o, const char *what, struct strlist *warnings)
{
	bool stat_from_row = false;

	if (o->by_run && strlist_find(o->by_run, cm->row) >= 0)
		cm->by_run = true;
	for (size_t k = 0; k < n_sides; k++) {
		const struct row *r;

		compare_find_metric(&sides[k], cm->row, &r, cm->metric);
		if (!r)
			continue;
		cm->by_run |= r->by_run;
		if (r->has_stat && !stat_from_row && !o->stat_given) {
			cm->stat = r->stat;
			cm->stats[0] = r->stat;
			cm->n_stats = 1;
			for (size_t j = 1; j < r->n_stats; j++)
				cm->stats[cm->n_stats++] = r->stats[j];
			stat_from_row = true;
		}
	}
	row_stat_override(o, cm);
	cm->margin_pct = row_margin(o, cm->row);
	if (cm->by_run && cm->n_stats > 1) {
		strlist_addf(warnings, "%s: compared run by run, so by %s only (one run against one run has no %s)",
			     what, stat_kind_name(cm->stat), stat_kind_name(cm->stats[1]));
		cm->n_stats = 1;
	}
}

/* Each side's value of metric cm, where it has a usable one; what is missing where is a warning. */
static void fill_cells(const struct side *sides, size_t n_sides, struct compare_metric *cm, const char *what,
		       struct strlist *warnings)
{
	size_t present = 0;
	struct compare_stat *stats = xcalloc(n_sides * cm->n_stats, sizeof(*stats));

	for (size_t k = 0; k < n_sides; k++) {
		const struct metric *m = compare_find_metric(&sides[k], cm->row, NULL, cm->metric);
		struct compare_cell *c = &cm->cells[k];

		c->stats = &stats[k * cm->n_stats];
		c->delta_pct = c->drift_pct = c->q = c->p = NAN;
		if (!m)
			continue;
		if (m->better != cm->better) {
			strlist_addf(warnings, "%s on %s: the direction of 'better' differs from the other sides, ignoring it there",
				     what, sides[k].label);
			continue;
		}
		fill_cell(c, m, cm);
		if (!(c->value > 0) || !(stats_mean(m->samples, m->n_samples) > 0)) {
			strlist_addf(warnings, "%s on %s: %s is zero or negative, no percentage can be computed, ignoring it there",
				     what, sides[k].label, stat_kind_name(cm->stat));
			memset(c->stats, 0, cm->n_stats * sizeof(*c->stats));
			*c = (struct compare_cell){ .stats = c->stats };
			c->delta_pct = c->drift_pct = c->q = c->p = NAN;
			continue;
		}
		present++;
	}
	if (present == 1)
		for (size_t k = 0; k < n_sides; k++)
			if (cm->cells[k].present)
				strlist_addf(warnings, "%s is present on %s only", what, sides[k].label);
	if (!cm->cells[0].present && present > 1) {
		bool repeat_has = false;

		for (size_t k = 1; k < n_sides; k++)
			repeat_has |= cm->cells[k].present && !strcmp(sides[k].mode, sides[0].mode);
		if (repeat_has)
			strlist_addf(warnings, "%s is missing on the first side %s: the screen cannot judge it; the boot level compares with the other boots of %s",
				     what, sides[0].label, sides[0].mode);
		else
			strlist_addf(warnings, "%s is missing on the first side %s, nothing to compare it with",
				     what, sides[0].label);
	}
}

/* The screen, the other statistics, the pairs and the boot-level tests of metric cm; the verdicts counted. */
static void judge_all(const struct side *sides, size_t n_sides, struct compare_metric *cm,
		      const struct compare_options *o, double alpha, const long *partner,
		      struct compare_result *res, struct strlist *warnings)
{
	compare_seed_rule(sides, n_sides, cm, o, warnings);
	for (size_t k = 0; k < n_sides; k++) {
		struct compare_cell *c = &cm->cells[k];

		c->stats[0] = (struct compare_stat){ c->value, c->delta_pct, c->drift_pct, c->q, c->p, c->verdict };
	}
	for (size_t j = 1; j < cm->n_stats; j++)
		compare_seed_rule_stat(sides, n_sides, cm, j, o, warnings);
	compare_count_pairs(&res->modes, partner, cm);
	compare_summarise_boots(sides, n_sides, cm, warnings);
	compare_rep_tests(&res->modes, n_sides, cm, alpha);
	compare_boot_level(sides, n_sides, &res->modes, res->rounds, cm, o, alpha, &res->history_ids);
	/* Every statistic's verdict is one of the report's. */
	for (size_t k = 1; k < n_sides; k++)
		for (size_t j = 0; j < cm->n_stats; j++)
			count_verdict(res, cm->cells[k].stats[j].verdict);
}

int compare_sides(const struct side *sides, size_t n_sides, const struct compare_options *o,
		  struct compare_result *ret, struct strlist *warnings)
{
	struct compare_result res = { .sides = sides, .n_sides = n_sides };
	long *partner;
	double alpha = o->alpha != 0 ? o->alpha : COMPARE_ALPHA_DEFAULT;
	double fdr_q = o->fdr_q != 0 ? o->fdr_q : COMPARE_FDR_Q_DEFAULT;

	if (!compare_options_valid(o, n_sides, alpha, fdr_q))
		return -EINVAL;
	side_modes_index(sides, n_sides, &res.modes);
	res.n_repeats = side_modes_count(&res.modes, 0) - 1;
	res.alpha = alpha;
	res.fdr_q = fdr_q;
	/* Pairs depend on the modes only: each side's partner, once. */
	partner = xcalloc(n_sides, sizeof(*partner));
	compare_pair_partners(&res.modes, n_sides, partner);
	res.rounds = xcalloc(n_sides, sizeof(*res.rounds));
	res.rounds_inferred = compare_rounds(sides, n_sides, res.rounds);
	if (o->history) {
		res.history_key = history_campaign_key(sides, n_sides);
		history_campaign_ids(sides, n_sides, &res.history_ids);
	}
	collect_metrics(sides, n_sides, o, &res);
	for (size_t i = 0; i < res.n_metrics; i++) {
		struct compare_metric *cm = &res.metrics[i];
		char *what = compare_metric_label(cm->row, cm->metric);

		metric_setup(sides, n_sides, cm, o, what, warnings);
		fill_cells(sides, n_sides, cm, what, warnings);
		compare_flag_wild(sides, n_sides, &res.modes, cm);
		free(what);
		judge_all(sides, n_sides, cm, o, alpha, partner, &res, warnings);
	}
	free(partner);
	/* The history's tests stand only on a box no noisier than its history. */
	drift_judge_box(&res, o->history);
	control_fdr(&res);
	compare_collect_costs(sides, n_sides, &res);
	costs_find(sides, n_sides, o->ignore, &res.found);
	compare_collect_versions(sides, n_sides, &res);
	compare_collect_mismatches(sides, n_sides, &res);
	new_old_judge(sides, n_sides, res.alpha, &res.new_old);
	*ret = res;
	return 0;
}

void compare_history_entry(const struct compare_result *res, const char *recorded,
			   struct history_entry *ret)
{
	struct history_entry e = { 0 };
	bool aa = true;

	for (size_t k = 1; k < res->n_sides; k++)
		aa &= !strcmp(res->sides[k].mode, res->sides[0].mode);
	e.key = res->history_key ? xstrdup(res->history_key) : history_campaign_key(res->sides, res->n_sides);
	e.recorded = xstrdup(recorded);
	e.kind = xstrdup(aa ? "aa" : "repeat");
	e.metrics = xcalloc(res->n_metrics + 1, sizeof(*e.metrics));
	for (size_t i = 0; i < res->n_metrics; i++) {
		const struct compare_metric *cm = &res->metrics[i];
		struct history_metric *hm = &e.metrics[e.n_metrics];

		hm->boots = xcalloc(res->n_sides, sizeof(*hm->boots));
		for (size_t k = 0; k < res->n_sides; k++)
			if (cm->cells[k].has_boot && !strcmp(res->sides[k].mode, res->sides[0].mode))
				hm->boots[hm->n_boots++] = cm->cells[k].boot;
		if (hm->n_boots < 2) {
			free(hm->boots);
			memset(hm, 0, sizeof(*hm));
			continue;
		}
		hm->row = xstrdup(cm->row);
		hm->metric = xstrdup(cm->metric);
		e.n_metrics++;
	}
	*ret = e;
}

int compare_history_record(const struct compare_result *res, struct history *history, const char *path,
			   size_t *ret_boots)
{
	struct history_entry e;
	char now[TIMESTAMP_UTC_SIZE];
	size_t boots;
	int r;

	timestamp_format_utc(time(NULL), now);
	compare_history_entry(res, now, &e);
	boots = e.n_metrics ? e.metrics[0].n_boots : 0;
	r = history_record_locked(history, path, &e);
	if (r < 0)
		return r;
	*ret_boots = boots;
	return 0;
}

const struct metric *compare_side_metric(const struct compare_result *res, const struct compare_metric *cm, size_t k)
{
	if (k >= res->n_sides)
		return NULL;
	return compare_find_metric(&res->sides[k], cm->row, NULL, cm->metric);
}

size_t compare_result_compared(const struct compare_result *res)
{
	size_t n = 0;

	for (size_t i = 0; i < res->n_metrics; i++)
		for (size_t k = 1; k < res->n_sides; k++)
			if (res->metrics[i].cells[k].verdict != VERDICT_MISSING)
				n++;
	return n;
}

void compare_result_release(struct compare_result *res)
{
	for (size_t i = 0; i < res->n_metrics; i++) {
		free(res->metrics[i].row);
		free(res->metrics[i].metric);
		free(res->metrics[i].unit);
		for (size_t k = 0; res->metrics[i].cells && k < res->n_sides; k++)
			free(res->metrics[i].cells[k].wild);
		/* The metric's block of statistics starts at its first cell's. */
		if (res->metrics[i].cells && res->n_sides)
			free(res->metrics[i].cells[0].stats);
		free(res->metrics[i].cells);
		free(res->metrics[i].tests);
	}
	for (size_t i = 0; i < res->n_costs; i++) {
		free(res->costs[i].row);
		for (size_t f = 0; f < res->costs[i].tests_failed; f++)
			free(res->costs[i].failures[f]);
		free(res->costs[i].failures);
	}
	for (size_t i = 0; i < res->n_mismatches; i++) {
		free(res->mismatches[i].row);
		free(res->mismatches[i].what);
	}
	free(res->mismatches);
	new_old_release(&res->new_old);
	for (size_t i = 0; i < res->n_versions; i++) {
		for (size_t k = 0; k < res->n_sides; k++)
			free(res->versions[i].values[k]);
		free(res->versions[i].values);
		free(res->versions[i].name);
	}
	free(res->metrics);
	free(res->costs);
	costs_result_release(&res->found);
	free(res->versions);
	free(res->rounds);
	side_modes_release(&res->modes);
	free(res->history_key);
	strlist_release(&res->history_ids);
	memset(res, 0, sizeof(*res));
}

bool compare_decided(const struct compare_result *result, size_t *ret_decided, size_t *ret_tests)
{
	size_t decided = 0, tests = 0;

	/* The counters explain the answer; the campaign waits for the answer alone. */
	for (size_t i = 0; i < result->n_metrics; i++)
		for (size_t t = 0; !result->metrics[i].counter && t < result->metrics[i].n_tests; t++) {
			const struct compare_test *ct = &result->metrics[i].tests[t];

			tests++;
			decided += ct->method != METHOD_NONE &&
				   ((ct->verdict == VERDICT_COUNTS && ct->survives) || ct->equivalent);
		}
	if (ret_decided)
		*ret_decided = decided;
	if (ret_tests)
		*ret_tests = tests;
	return tests > 0 && decided == tests;
}
