#include "judge/new-old.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "judge/compare.h"
#include "lib/alloc.h"
#include "results/side.h"
#include "stats/stats.h"

const char *new_old_verdict_name(enum new_old_verdict v)
{
	switch (v) {
	case NEW_OLD_FASTER:
		return "faster";
	case NEW_OLD_SLOWER:
		return "slower";
	case NEW_OLD_WITHIN_NOISE:
		return "within noise";
	case NEW_OLD_ONE_BOOT:
	default:
		return "one boot";
	}
}

static bool same_kernel(const struct side *a, const struct side *b)
{
	const char *ra = a->kernel.release ? a->kernel.release : "", *rb = b->kernel.release ? b->kernel.release : "";
	const char *ia = a->kernel.build_id ? a->kernel.build_id : "", *ib = b->kernel.build_id ? b->kernel.build_id : "";

	return !strcmp(ra, rb) && !strcmp(ia, ib);
}

/* The metric "base suffix" of row on side, or NULL. */
static const struct metric *find(const struct side *side, const char *row, const char *base, const char *suffix)
{
	const struct row *r = side_find_row(side, row);
	char *name = xasprintf("%s %s", base, suffix);
	const struct metric *m = r ? metric_set_find(&r->metrics, name) : NULL;

	free(name);
	return m && m->n_samples ? m : NULL;
}

/* stat ("avg", "min") of base over the sides in group: the per-boot log ratios, and their t CI. */
static void judge_stat(const struct side *sides, const size_t *group, size_t n, const char *row, const char *base,
		       const char *stat, double alpha, struct new_old_stat *ret)
{
	char *sn = xasprintf("%s new", stat), *so = xasprintf("%s old", stat);
	double *d = xcalloc(n, sizeof(*d)), log_new = 0, log_old = 0;
	size_t b = 0;
	struct stats_test t;

	memset(ret, 0, sizeof(*ret));
	for (size_t i = 0; i < n; i++) {
		const struct metric *mn = find(&sides[group[i]], row, base, sn), *mo = find(&sides[group[i]], row, base, so);
		double vn, vo;

		if (!mn || !mo)
			continue;
		vn = stats_mean(mn->samples, mn->n_samples);
		vo = stats_mean(mo->samples, mo->n_samples);
		if (!(vn > 0) || !(vo > 0))
			continue;
		log_new += log(vn);
		log_old += log(vo);
		d[b++] = log(vo) - log(vn);
	}
	ret->boots = b;
	ret->present = b > 0;
	ret->lo = ret->hi = NAN;
	ret->verdict = NEW_OLD_ONE_BOOT;
	if (b) {
		ret->new_value = exp(log_new / (double)b);
		ret->old_value = exp(log_old / (double)b);
		ret->pct = compare_log_pct(stats_mean(d, b), BETTER_LOWER);
	}
	if (b >= 2 && stats_t_test(stats_mean(d, b), stats_stddev(d, b) / sqrt((double)b), (double)(b - 1), alpha, &t) == 0) {
		ret->lo = compare_log_pct(t.lo, BETTER_LOWER);
		ret->hi = compare_log_pct(t.hi, BETTER_LOWER);
		ret->verdict = t.lo > 0 ? NEW_OLD_FASTER : t.hi < 0 ? NEW_OLD_SLOWER : NEW_OLD_WITHIN_NOISE;
	} else if (b >= 2) {
		/* Every boot gave the same ratio: no spread to build a CI on. */
		ret->lo = ret->hi = ret->pct;
		ret->verdict = ret->pct > 0 ? NEW_OLD_FASTER : ret->pct < 0 ? NEW_OLD_SLOWER : NEW_OLD_WITHIN_NOISE;
	}
	free(d);
	free(sn);
	free(so);
}

/* "map_pages 2^12 (AMDV1)": the title, then the page size with its group. */
static void split_name(struct new_old_row *r)
{
	const char *sp = strrchr(r->name, ' ');

	if (sp && sp[1] == '(') {
		const char *p = sp;

		while (p > r->name && p[-1] != ' ')
			p--;
		sp = p > r->name ? p - 1 : NULL;
	}
	r->table = sp ? xstrndup(r->name, (size_t)(sp - r->name)) : xstrdup("");
	r->size = xstrdup(sp ? sp + 1 : r->name);
}

/* Every "NAME avg new" of the group's sides with its "NAME avg old", in first-seen order. */
static void judge_group(const struct side *sides, const size_t *group, size_t n, double alpha,
			struct new_old_result *res, size_t *alloc)
{
	struct metric_set seen = METRIC_SET_INIT;   /* "ROW\x1fNAME" of the rows judged, found by hash */

	for (size_t i = 0; i < n; i++) {
		const struct side *s = &sides[group[i]];

		for (size_t r = 0; r < s->n_rows; r++)
			for (size_t m = 0; m < s->rows[r].metrics.n_metrics; m++) {
				const struct metric *mt = &s->rows[r].metrics.metrics[m];
				size_t len = strlen(mt->name);
				struct new_old_row *nr;
				char *base, *key;
				bool skip;

				if (len <= 8 || strcmp(mt->name + len - 8, " avg new"))
					continue;
				base = xstrndup(mt->name, len - 8);
				key = xasprintf("%s\x1f%s", s->rows[r].name, base);
				skip = metric_set_find(&seen, key) || !find(s, s->rows[r].name, base, "avg old");
				if (!skip)
					metric_set_add_sample(&seen, key, BETTER_LOWER, NULL, 0);
				free(key);
				if (skip) {
					free(base);
					continue;
				}
				GROW(res->rows, *alloc, res->n_rows + 1);
				nr = &res->rows[res->n_rows++];
				*nr = (struct new_old_row){ .row = xstrdup(s->rows[r].name), .name = base,
							    .unit = xstrdup(mt->unit ? mt->unit : ""),
							    .kernel = s->kernel.release ? xstrdup(s->kernel.release) : NULL };
				split_name(nr);
				judge_stat(sides, group, n, nr->row, base, "avg", alpha, &nr->avg);
				judge_stat(sides, group, n, nr->row, base, "min", alpha, &nr->min);
			}
	}
	metric_set_release(&seen);
}

void new_old_judge(const struct side *sides, size_t n_sides, double alpha, struct new_old_result *ret)
{
	size_t *group = xcalloc(n_sides ? n_sides : 1, sizeof(*group)), alloc = 0;
	bool *done = xcalloc(n_sides ? n_sides : 1, sizeof(*done));

	memset(ret, 0, sizeof(*ret));
	for (size_t k = 0; k < n_sides; k++) {
		size_t n = 0, before = ret->n_rows;

		if (done[k])
			continue;
		for (size_t j = k; j < n_sides; j++)
			if (!done[j] && same_kernel(&sides[k], &sides[j])) {
				done[j] = true;
				group[n++] = j;
			}
		judge_group(sides, group, n, alpha > 0 ? alpha : COMPARE_ALPHA_DEFAULT, ret, &alloc);
		if (ret->n_rows > before)
			ret->n_kernels++;
	}
	free(group);
	free(done);
}

void new_old_release(struct new_old_result *res)
{
	for (size_t i = 0; i < res->n_rows; i++) {
		free(res->rows[i].row);
		free(res->rows[i].name);
		free(res->rows[i].table);
		free(res->rows[i].size);
		free(res->rows[i].unit);
		free(res->rows[i].kernel);
	}
	free(res->rows);
	memset(res, 0, sizeof(*res));
}
