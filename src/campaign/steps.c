#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "campaign/internal.h"
#include "campaign/journal.h"
#include "lib/alloc.h"
#include "lib/parse-error.h"

static const char *const step_names[] = {
	[STEP_NONE] = "none", [STEP_BEGIN] = "begin", [STEP_SET] = "set",
	[STEP_REBOOTING] = "rebooting",
	[STEP_REBOOTED] = "rebooted", [STEP_VERIFIED] = "verified", [STEP_STARTED] = "started",
	[STEP_DONE] = "done", [STEP_FAILED] = "failed",
};

int campaign_journal_step(struct campaign *c, size_t k, enum step step, const char *extra)
{
	int r = journal_appendf(c->journal, "boot %zu %s %s%s%s", k + 1, c->boots[k].label,
				step_names[step], extra ? " " : "", extra ? extra : "");
	char stop[128];

	if (r < 0) {
		campaign_say(c, CAMPAIGN_ERROR, "cannot write the journal %s: %s", c->journal, strerror(-r));
		c->res->data_error = true;
		return r;
	}
	c->progress[k].step = step;
	snprintf(stop, sizeof(stop), "boot %zu %s", k + 1, step_names[step]);
	if (c->o->stop_after && !strcmp(c->o->stop_after, stop)) {
		campaign_say(c, CAMPAIGN_WARNING, "stopping after '%s' as asked", stop);
		return -EINTR;
	}
	return 0;
}

/* Reads the journal into c->progress. */
int campaign_load_journal(struct campaign *c)
{
	struct journal j;
	struct parse_error err = PARSE_ERROR_INIT;
	int r = journal_read(c->journal, &j, &err);

	if (r < 0) {
		campaign_say(c, CAMPAIGN_ERROR, "cannot read the journal %s: %s", c->journal,
		    err.message ? err.message : strerror(-r));
		parse_error_release(&err);
		return r;
	}
	if (j.torn)
		campaign_say(c, CAMPAIGN_WARNING, "the journal's last line was cut off (a crash while writing it), ignoring it");
	for (size_t i = 0; i < j.n_lines; i++) {
		char label[200], step[32], a[64], b[64];
		size_t k;
		double s = -1;
		int n = sscanf(j.lines[i], "boot %zu %199s %31s %63s %lf %63s", &k, label, step, a, &s, b);

		if (!strncmp(j.lines[i], "local rows-as ", 14) && local_user_name_ok(j.lines[i] + 14)) {
			free(c->rows_user);
			c->rows_user = xstrdup(j.lines[i] + 14);
			continue;
		}

		if (n < 3 || k < 1 || k > c->n_boots || strcmp(label, c->boots[k - 1].label))
			continue;
		k--;
		for (size_t st = 0; st < sizeof(step_names) / sizeof(step_names[0]); st++) {
			if (strcmp(step, step_names[st]))
				continue;
			if (st == STEP_FAILED) {
				/* A failed step is done again on resume. */
				if (c->progress[k].step > STEP_BEGIN)
					c->progress[k].step = STEP_BEGIN;
				continue;
			}
			c->progress[k].step = (enum step)st;
			if (st == STEP_REBOOTING && n >= 5) {
				free(c->progress[k].rebooting_from);
				c->progress[k].rebooting_from = xstrdup(a);
				c->progress[k].rebooting_at = s;
			}
			if (st == STEP_REBOOTED && n >= 4) {
				free(c->progress[k].boot_id);
				c->progress[k].boot_id = xstrdup(a);
				c->progress[k].reboot_s = s;
				if (n >= 6) {
					free(c->progress[k].boot_id_before);
					c->progress[k].boot_id_before = xstrdup(b);
				}
			}
		}
	}
	journal_release(&j);
	return 0;
}

const char *campaign_step_name(enum step step)
{
	return step_names[step];
}
