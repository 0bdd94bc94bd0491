#include "report/rep-line.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/escape.h"
#include "lib/strbuf.h"
#include "report/words.h"

static void add_metric(struct strbuf *sb, const struct metric *m, bool named)
{
	double v = m->n_samples ? m->samples[m->n_samples - 1] : NAN;
	char *value = report_value_in_unit(v, m->unit);

	if (named) {
		text_escape_append(sb, m->name, strlen(m->name), TEXT_ESCAPE_NEWLINE, NULL);
		strbuf_addch(sb, ' ');
	}
	text_escape_append(sb, value, strlen(value), TEXT_ESCAPE_NEWLINE, NULL);
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
