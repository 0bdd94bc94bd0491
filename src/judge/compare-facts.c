/*
 * What compare_sides() reports of the sides besides their numbers: rows
 * and tests that failed, rows whose tool recorded another build or
 * setting than the first side's, versions that differ.
 */
#include "judge/compare.h"

#include <ctype.h>
#include <string.h>

#include "judge/compare-internal.h"
#include "lib/alloc.h"
#include "lib/strbuf.h"

static bool failed_on(const struct row *r, const char *test)
{
	for (size_t i = 0; r && i < r->metrics.n_failed; i++)
		if (!strcmp(r->metrics.failed[i], test))
			return true;
	return false;
}

/*
 * A side's costs: check rows (and rows) that exited non-zero, and test
 * suites (KTAP rows) with failed tests, each failure compared with the
 * first side's.
 */
void compare_collect_costs(const struct side *sides, size_t n_sides, struct compare_result *res)
{
	size_t alloc = 0;

	for (size_t k = 0; k < n_sides; k++) {
		for (size_t i = 0; i < sides[k].n_rows; i++) {
			const struct row *r = &sides[k].rows[i];
			const struct metric_set *m = &r->metrics;
			bool tests_failed = m->has_checks && m->checks[CHECK_FAILED] > 0;
			const struct row *first;
			struct compare_cost *c;

			if (!tests_failed && (!r->has_rc || r->rc == 0))
				continue;
			first = side_find_row(&sides[0], r->name);
			GROW(res->costs, alloc, res->n_costs + 1);
			c = &res->costs[res->n_costs++];
			memset(c, 0, sizeof(*c));
			c->side = k;
			c->row = xstrdup(r->name);
			c->rc = r->has_rc ? r->rc : 0;
			c->fails_on_first = first && first->has_rc && first->rc != 0;
			if (!m->has_checks)
				continue;
			c->has_tests = true;
			for (size_t o = 0; o < CHECK_OUTCOMES; o++)
				c->tests_total += m->checks[o];
			c->tests_failed = m->n_failed;
			c->failures = xcalloc(m->n_failed + 1, sizeof(*c->failures));
			for (size_t f = 0; f < m->n_failed; f++) {
				c->failures[f] = xstrdup(m->failed[f]);
				c->tests_new += !failed_on(first, m->failed[f]);
			}
			c->fails_on_first = first && c->tests_failed && c->tests_new == 0;
		}
	}
}

/* Appends to sb, printably, the fields of origin a (0x1f-separated "key=value") that origin b lacks or has otherwise. */
static void origin_diff(struct strbuf *sb, const char *a, const char *b, const char *b_label)
{
	for (const char *p = a; *p;) {
		size_t n = strcspn(p, "\x1f"), kn = strcspn(p, "=");
		const char *q = b, *bv = NULL;
		size_t bn = 0;

		if (kn > n)
			kn = n;
		for (; *q; q += strcspn(q, "\x1f") + (q[strcspn(q, "\x1f")] != '\0')) {
			size_t m = strcspn(q, "\x1f");

			if (m == n && !memcmp(p, q, n))
				break;
			if (m > kn && !memcmp(p, q, kn) && q[kn] == '=') {
				bv = q + kn + 1;
				bn = m - kn - 1;
			}
		}
		if (!*q && sb->len < 400) {
			strbuf_addf(sb, "%s%.*s ", sb->len ? ", " : "", (int)kn, p);
			for (size_t i = kn + 1; i < n; i++)
				strbuf_addch(sb, isprint((unsigned char)p[i]) ? p[i] : '?');
			strbuf_addf(sb, " (%s: ", b_label);
			for (size_t i = 0; bv && i < bn; i++)
				strbuf_addch(sb, isprint((unsigned char)bv[i]) ? bv[i] : '?');
			strbuf_addstr(sb, bv ? ")" : "none)");
		}
		p += n + (p[n] != '\0');
	}
}

/* Rows whose tool recorded another build or setting than the first side's: not comparable. */
void compare_collect_mismatches(const struct side *sides, size_t n_sides, struct compare_result *res)
{
	size_t alloc = 0;

	for (size_t k = 1; k < n_sides; k++)
		for (size_t r = 0; r < sides[k].n_rows; r++) {
			const struct row *row = &sides[k].rows[r], *first = side_find_row(&sides[0], row->name);
			struct strbuf sb = STRBUF_INIT;

			for (size_t i = 0; first && i < row->metrics.n_metrics && !sb.len; i++) {
				const struct metric *m = &row->metrics.metrics[i];
				const struct metric *f = metric_set_find(&first->metrics, m->name);

				if (f && m->origin && f->origin && strcmp(m->origin, f->origin))
					origin_diff(&sb, m->origin, f->origin, sides[0].label);
			}
			if (!sb.len)
				continue;
			GROW(res->mismatches, alloc, res->n_mismatches + 1);
			res->mismatches[res->n_mismatches++] = (struct compare_mismatch){
				.side = k, .row = xstrdup(row->name), .what = strbuf_detach(&sb, NULL) };
		}
}

const struct compare_mismatch *compare_mismatch_find(const struct compare_result *res, size_t k, const char *row)
{
	for (size_t i = 0; i < res->n_mismatches; i++)
		if (res->mismatches[i].side == k && !strcmp(res->mismatches[i].row, row))
			return &res->mismatches[i];
	return NULL;
}

void compare_collect_versions(const struct side *sides, size_t n_sides, struct compare_result *res)
{
	struct strlist names = STRLIST_INIT;
	size_t alloc = 0;

	for (size_t k = 0; k < n_sides; k++)
		for (size_t i = 0; i < sides[k].n_versions; i++)
			if (strlist_find(&names, sides[k].versions[i].name) < 0)
				strlist_add(&names, sides[k].versions[i].name);
	for (size_t i = 0; i < names.n; i++) {
		const char *first = side_version(&sides[0], names.items[i]);
		bool differ = false;
		struct compare_version *v;

		for (size_t k = 1; k < n_sides; k++) {
			const char *val = side_version(&sides[k], names.items[i]);

			if (!val != !first || (val && strcmp(val, first)))
				differ = true;
		}
		if (!differ)
			continue;
		GROW(res->versions, alloc, res->n_versions + 1);
		v = &res->versions[res->n_versions++];
		v->name = xstrdup(names.items[i]);
		v->values = xcalloc(n_sides, sizeof(*v->values));
		for (size_t k = 0; k < n_sides; k++) {
			const char *val = side_version(&sides[k], names.items[i]);

			v->values[k] = val ? xstrdup(val) : NULL;
		}
	}
	strlist_release(&names);
}
