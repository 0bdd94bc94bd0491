#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "campaign/internal.h"
#include "campaign/progress.h"
#include "campaign/journal.h"
#include "lib/alloc.h"
#include "lib/clock.h"
#include "lib/file.h"
#include "lib/parse-error.h"
#include "lib/strbuf.h"

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
	if (step == STEP_STARTED)
		c->progress[k].seen = 0;
	snprintf(stop, sizeof(stop), "boot %zu %s", k + 1, step_names[step]);
	if (c->o->stop_after && !strcmp(c->o->stop_after, stop)) {
		campaign_say(c, CAMPAIGN_WARNING, "stopping after '%s' as asked", stop);
		return -EINTR;
	}
	return 0;
}

int campaign_journal_seen(struct campaign *c, size_t k, size_t seen)
{
	int r = journal_appendf(c->journal, "boot %zu %s progress %zu %.3f", k + 1, c->boots[k].label, seen,
				clock_wall_s());

	if (r < 0) {
		campaign_say(c, CAMPAIGN_ERROR, "cannot write the journal %s: %s", c->journal, strerror(-r));
		c->res->data_error = true;
		return r;
	}
	c->progress[k].seen = seen;
	return 0;
}

static bool id_ok(const char *s)
{
	size_t n = strlen(s);

	if (n == 0 || n > 64)
		return false;
	for (; *s; s++)
		if (!isxdigit((unsigned char)*s) && *s != '-')
			return false;
	return true;
}

static bool seconds_ok(const char *s, double *ret)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (end == s || *end || errno || !isfinite(v) || v < 0)
		return false;
	*ret = v;
	return true;
}

static bool word_ok(const char *s)
{
	if (!*s || strlen(s) > 4096)
		return false;
	for (; *s; s++)
		if ((unsigned char)*s <= ' ' || *s == 0x7f)
			return false;
	return true;
}

/* One journal line that is not what bootab writes: file:line, what was expected, what is there. */
static int journal_bad(struct campaign *c, size_t line, const char *text, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int journal_bad(struct campaign *c, size_t line, const char *text, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	campaign_say(c, CAMPAIGN_ERROR, "%s:%zu: %s, not '%.200s': the journal is not one bootab wrote for this campaign; nothing was changed on the box",
		     c->journal, line, strbuf_str(&sb), text);
	strbuf_release(&sb);
	return -EINVAL;
}

/* One "boot K LABEL STEP [EXTRA]" line into c->progress; -EINVAL (said) when it is not one. */
static int journal_boot_line(struct campaign *c, size_t line, const char *text)
{
	char *copy = xstrdup(text), *save = NULL, *w[8] = { 0 };
	size_t n = 0, k;
	char *end;
	unsigned long long kk;
	int st = -1, r = 0;
	double s1 = 0;

	for (char *t = strtok_r(copy, " ", &save); t && n < 8; t = strtok_r(NULL, " ", &save))
		w[n++] = t;
	errno = 0;
	kk = n >= 2 ? strtoull(w[1], &end, 10) : 0;
	if (n < 4 || strcmp(w[0], "boot") || errno || *end || w[1][0] == '-' || kk < 1 || kk > c->n_boots) {
		r = journal_bad(c, line, text, "expected 'boot K LABEL STEP' with K from 1 to %zu", c->n_boots);
		goto out;
	}
	k = (size_t)kk - 1;
	if (strcmp(w[2], c->boots[k].label)) {
		r = journal_bad(c, line, text, "expected boot %zu's label '%s'", k + 1, c->boots[k].label);
		goto out;
	}
	if (!strcmp(w[3], "progress")) {
		unsigned long long seen;

		errno = 0;
		seen = n == 6 ? strtoull(w[4], &end, 10) : 0;
		if (n != 6 || errno || *end || w[4][0] == '-' || !seconds_ok(w[5], &s1) ||
		    c->progress[k].step != STEP_STARTED)
			r = journal_bad(c, line, text, "expected 'boot %zu %s progress N TIME' after 'started'", k + 1, w[2]);
		else
			c->progress[k].seen = (size_t)seen;
		goto out;
	}
	for (size_t i = 1; i < sizeof(step_names) / sizeof(step_names[0]); i++)
		if (!strcmp(w[3], step_names[i]))
			st = (int)i;
	switch (st) {
	case STEP_BEGIN:
	case STEP_SET:
	case STEP_VERIFIED:
	case STEP_DONE:
		if (n != 4)
			r = journal_bad(c, line, text, "expected nothing after 'boot %zu %s %s'", k + 1, w[2], w[3]);
		break;
	case STEP_REBOOTING:
		if (n != 6 || !id_ok(w[4]) || !seconds_ok(w[5], &s1))
			r = journal_bad(c, line, text, "expected 'boot %zu %s rebooting BOOT_ID TIME'", k + 1, w[2]);
		break;
	case STEP_REBOOTED:
		/* "rebooted ID SECONDS BEFORE_ID"; or "rebooted ID" alone. */
		if (n == 5 && id_ok(w[4]))
			break;
		if (n != 7 || !id_ok(w[4]) || !seconds_ok(w[5], &s1) || !id_ok(w[6]))
			r = journal_bad(c, line, text, "expected 'boot %zu %s rebooted BOOT_ID SECONDS BOOT_ID_BEFORE'", k + 1, w[2]);
		break;
	case STEP_STARTED:
		if (n != 5 || !word_ok(w[4]))
			r = journal_bad(c, line, text, "expected 'boot %zu %s started DIR'", k + 1, w[2]);
		break;
	case STEP_FAILED:
		if (n != 5 || !word_ok(w[4]))
			r = journal_bad(c, line, text, "expected 'boot %zu %s failed WHAT'", k + 1, w[2]);
		break;
	default:
		r = journal_bad(c, line, text, "expected a step (begin, set, rebooting, rebooted, verified, started, done, failed)");
		break;
	}
	if (r < 0)
		goto out;
	if (st == STEP_FAILED) {
		/* A failed step is done again on resume (a LAVA boot with a new job). */
		if (c->progress[k].step > STEP_BEGIN)
			c->progress[k].step = STEP_BEGIN;
		c->progress[k].lava_job = 0;
		goto out;
	}
	if (st == STEP_STARTED && plan_is_lava(&c->plan)) {
		/* target = lava: "started lava-job:ID", the job of this boot. */
		char *idend;
		long id;

		errno = 0;
		id = strncmp(w[4], "lava-job:", 9) ? 0 : strtol(w[4] + 9, &idend, 10);
		if (id <= 0 || errno || *idend) {
			r = journal_bad(c, line, text, "expected 'boot %zu %s started lava-job:ID'", k + 1, w[2]);
			goto out;
		}
		c->progress[k].lava_job = id;
	}
	c->progress[k].step = (enum step)st;
	if (st == STEP_STARTED)
		c->progress[k].seen = 0;
	if (st == STEP_REBOOTING) {
		free(c->progress[k].rebooting_from);
		c->progress[k].rebooting_from = xstrdup(w[4]);
		c->progress[k].rebooting_at = s1;
	}
	if (st == STEP_REBOOTED) {
		free(c->progress[k].boot_id);
		c->progress[k].boot_id = xstrdup(w[4]);
		c->progress[k].reboot_s = n == 7 ? s1 : -1;
		if (n == 7) {
			free(c->progress[k].boot_id_before);
			c->progress[k].boot_id_before = xstrdup(w[6]);
		}
	}
out:
	free(copy);
	return r;
}

/*
 * Whether name is this campaign's: the directory's name, or (a directory
 * renamed or copied since) the campaign its recorded sides name in
 * meta.json. A journal of another campaign names neither.
 */
static bool journal_campaign_ok(const struct campaign *c, const char *name)
{
	bool ok = !strcmp(name, c->name);

	for (size_t k = 0; k < c->n_boots && !ok; k++) {
		struct parse_error err = PARSE_ERROR_INIT;
		char *side = path_join(c->dir, c->boots[k].label), *file;
		json_t *meta;

		if (side_meta_read(side, &file, &meta, &err) == 0) {
			const char *recorded = json_string_value(json_object_get(meta, "campaign"));

			ok = recorded && !strcmp(recorded, name);
			json_decref(meta);
		}
		parse_error_release(&err);
		free(file);
		free(side);
	}
	return ok;
}

/*
 * Reads the journal into c->progress. Every line must be one bootab
 * writes, for this campaign and plan: a journal that does not parse stops
 * the resume before anything on the box changes, naming file, line and
 * what was expected (a resume from a misread journal would reboot the box
 * into boots that are done, or mix boots).
 */
int campaign_load_journal(struct campaign *c)
{
	struct journal j;
	struct parse_error err = PARSE_ERROR_INIT;
	int r = journal_read(c->journal, &j, &err);
	bool finished = false, standing = false;

	if (r < 0) {
		campaign_say(c, CAMPAIGN_ERROR, "cannot read the journal %s: %s", c->journal,
		    err.message ? err.message : strerror(-r));
		parse_error_release(&err);
		return r;
	}
	if (j.torn)
		campaign_say(c, CAMPAIGN_WARNING, "the journal's last line was cut off (a crash while writing it), ignoring it");
	if (j.n_lines == 0) {
		r = journal_bad(c, 1, "", "expected 'bootab-journal 1 campaign %s boots %zu'", c->name, c->n_boots);
		goto out;
	}
	{
		char name[256], extra;
		unsigned version;
		unsigned long long boots;
		int n = sscanf(j.lines[0], "bootab-journal %u campaign %255s boots %llu%c", &version, name, &boots, &extra);

		if (n != 3 || version != 1 || !journal_campaign_ok(c, name) || boots != c->n_boots || j.lines[0][0] == ' ') {
			r = journal_bad(c, 1, j.lines[0], "expected 'bootab-journal 1 campaign %s boots %zu' (format 1, this campaign (its directory's name or the one its sides record), the plan's boots)",
					c->name, c->n_boots);
			goto out;
		}
	}
	for (size_t i = 1; i < j.n_lines && r == 0; i++) {
		const char *line = j.lines[i];

		if (finished) {
			r = journal_bad(c, i + 1, line, "expected nothing after 'finished'");
		} else if (!strncmp(line, "local rows-as ", 14)) {
			if (!local_user_name_ok(line + 14)) {
				r = journal_bad(c, i + 1, line, "expected 'local rows-as USER' with a user name");
				break;
			}
			free(c->rows_user);
			c->rows_user = xstrdup(line + 14);
		} else if (!strncmp(line, JOURNAL_STANDING_KERNEL, strlen(JOURNAL_STANDING_KERNEL))) {
			/* Read by the kernels' preflight (kernels.c); a release, once. */
			const char *release = line + strlen(JOURNAL_STANDING_KERNEL), *why = NULL;

			if (standing || release[0] == '/' || !plan_kernel_valid(release, &why)) {
				r = journal_bad(c, i + 1, line, "expected '" JOURNAL_STANDING_KERNEL "RELEASE' once, with a kernel release");
				break;
			}
			standing = true;
		} else if (!strncmp(line, "decided after round ", 20)) {
			unsigned round;
			char extra;

			if (!c->plan.rounds_auto || c->decided_round ||
			    sscanf(line + 20, "%u%c", &round, &extra) != 1 || round < 1 ||
			    round >= c->plan.max_rounds || line[20] < '0' || line[20] > '9') {
				r = journal_bad(c, i + 1, line, "expected 'decided after round N' once, in a rounds = auto campaign, N below its max_rounds %u",
						c->plan.max_rounds);
				break;
			}
			/* Round N ends with the first mode's boot N * modes + 1. */
			for (size_t k = 0; k <= (size_t)round * c->plan.n_modes && r == 0; k++)
				if (c->progress[k].step != STEP_DONE)
					r = journal_bad(c, i + 1, line, "expected boot %zu %s to be done before round %u decided it",
							k + 1, c->boots[k].label, round);
			c->decided_round = round;
		} else if (!strcmp(line, "finished")) {
			/* A decided campaign ends with its round's closing boot. */
			size_t last = c->decided_round ? (size_t)c->decided_round * c->plan.n_modes + 1 : c->n_boots;

			for (size_t k = 0; k < last && r == 0; k++)
				if (c->progress[k].step != STEP_DONE)
					r = journal_bad(c, i + 1, line, "expected boot %zu %s to be done before 'finished'",
							k + 1, c->boots[k].label);
			finished = true;
		} else if (c->decided_round) {
			r = journal_bad(c, i + 1, line, "expected only 'finished' after 'decided after round %u'", c->decided_round);
		} else {
			r = journal_boot_line(c, i + 1, line);
		}
	}
out:
	journal_release(&j);
	return r;
}

const char *campaign_step_name(enum step step)
{
	return step_names[step];
}
