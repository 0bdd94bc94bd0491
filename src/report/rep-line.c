#include "report/rep-line.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/escape.h"
#include "lib/strbuf.h"

char *report_value_short(double v)
{
	static const char *const prefix[] = { "", " k", " M", " G", " T" };
	struct strbuf sb = STRBUF_INIT;
	size_t p = 0;
	double a = fabs(v);

	while (a >= 999.5 && p + 1 < sizeof(prefix) / sizeof(prefix[0])) {
		a /= 1000;
		v /= 1000;
		p++;
	}
	strbuf_addf(&sb, "%.3g%s", v, prefix[p]);
	return strbuf_detach(&sb, NULL);
}

static void add_metric(struct strbuf *sb, const struct metric *m, bool named)
{
	double v = m->n_samples ? m->samples[m->n_samples - 1] : NAN;
	char *value = report_value_short(v);

	if (named) {
		text_escape_append(sb, m->name, strlen(m->name), TEXT_ESCAPE_NEWLINE, NULL);
		strbuf_addch(sb, ' ');
	}
	strbuf_addstr(sb, value);
	if (m->unit && *m->unit) {
		strbuf_addch(sb, ' ');
		text_escape_append(sb, m->unit, strlen(m->unit), TEXT_ESCAPE_NEWLINE, NULL);
	}
	free(value);
}

char *report_rep_line(const char *row, unsigned rep, unsigned n_reps, bool check, int rc,
		      const struct metric_set *set)
{
	struct strbuf sb = STRBUF_INIT;
	size_t shown = 0, n = set ? set->n_metrics : 0;

	strbuf_addstr(&sb, check ? "check " : "row ");
	text_escape_append(&sb, row, strlen(row), TEXT_ESCAPE_NEWLINE, NULL);
	strbuf_addf(&sb, " %u/%u: ", rep, n_reps);
	if (rc != 0) {
		strbuf_addf(&sb, "failed (rc=%d)", rc);
		return strbuf_detach(&sb, NULL);
	}
	if (check) {
		strbuf_addstr(&sb, "passed");
		return strbuf_detach(&sb, NULL);
	}
	/* The first metric is the row's headline; the others are in the report. */
	for (size_t i = 0; i < n && !shown; i++) {
		if (!set->metrics[i].n_samples)
			continue;
		add_metric(&sb, &set->metrics[i], n > 1);
		shown++;
	}
	if (n > 1 && shown)
		strbuf_addf(&sb, " (+%zu more)", n - 1);
	if (!shown)
		strbuf_addstr(&sb, "done (no value parsed)");
	return strbuf_detach(&sb, NULL);
}
