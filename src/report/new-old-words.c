/* The words of the new,old tables the reports share (report/new-old-words.h). */
#include "report/new-old-words.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "lib/alloc.h"

char *report_new_old_name(const struct new_old_result *no, const struct new_old_row *r)
{
	for (size_t i = 0; i < no->n_rows; i++)
		if (strcmp(no->rows[i].row, r->row))
			return xasprintf("%s %s", r->row, r->name);
	return xstrdup(r->name);
}

bool report_new_old_group_starts(const struct new_old_result *no, size_t i)
{
	const char *k = no->rows[i].kernel, *prev;

	if (i == 0)
		return true;
	prev = no->rows[i - 1].kernel;
	return k && prev ? strcmp(k, prev) != 0 : k != prev;
}

double report_new_old_level(const struct compare_result *res)
{
	return 100 * (1 - (res->alpha > 0 ? res->alpha : COMPARE_ALPHA_DEFAULT));
}

void report_new_old_cells(const struct new_old_stat *st, struct new_old_cells *c)
{
	snprintf(c->nums, sizeof(c->nums), "-");
	c->pct[0] = c->ci[0] = '\0';
	c->verdict = "";
	if (!st->present)
		return;
	snprintf(c->nums, sizeof(c->nums), "%.0f,%.0f", st->new_value, st->old_value);
	snprintf(c->pct, sizeof(c->pct), "%+.1f", st->pct);
	if (!isnan(st->lo))
		snprintf(c->ci, sizeof(c->ci), "[%+.1f, %+.1f]", st->lo, st->hi);
	c->verdict = new_old_verdict_name(st->verdict);
}
