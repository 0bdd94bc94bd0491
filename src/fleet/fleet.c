/* bootab report --fleet: campaigns of several machines, pooled (fleet/fleet.h). */
#include "fleet/fleet.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "campaign/campaign.h"
#include "campaign/progress.h"
#include "plan/plan.h"
#include "judge/compare.h"
#include "judge/fleet.h"
#include "judge/history.h"
#include "lib/alloc.h"
#include "lib/file.h"
#include "lib/strlist.h"
#include "report/fleet-report.h"
#include "results/side.h"

struct machine {
	char *name;
	char *real;              /* the directory's resolved path, or NULL */
	const char *id;          /* borrowed from sides */
	struct side *sides;
	size_t n_sides;
	struct history history;
	struct strlist modes;    /* fleet_mode_definition() of each mode of its plan */
	struct compare_result res;
	bool compared;
	double alpha;            /* its tests' level: a rounds = auto campaign's last look's */
};

static char *machine_name(const char *dir)
{
	size_t len = strlen(dir);
	const char *p;

	while (len > 1 && dir[len - 1] == '/')
		len--;
	p = dir + len;
	while (p > dir && p[-1] != '/')
		p--;
	return xstrndup(p, (size_t)(dir + len - p));
}

/* Loads and compares one campaign as its own report does. */
static int machine_load(const struct campaign_options *o, const char *dir, struct machine *m, struct strlist *warnings)
{
	struct parse_error err = PARSE_ERROR_INIT;
	struct plan plan;
	struct plan_boot *boots;
	struct strlist margins = STRLIST_INIT;
	struct compare_options co = { .stat = STAT_MEAN, .loud_pct = COMPARE_LOUD_PCT_DEFAULT };
	char *plan_path = path_join(dir, "plan.ini");
	size_t n;
	int r;

	r = plan_load(plan_path, &plan, &err);
	free(plan_path);
	if (r < 0) {
		campaign_tell(o, CAMPAIGN_ERROR, "%s: %s", dir, err.message ? err.message : strerror(-r));
		parse_error_release(&err);
		return -EINVAL;
	}
	parse_error_release(&err);
	for (size_t k = 0; k < plan.n_modes; k++) {
		char *def = fleet_mode_definition(plan.modes[k].name, (const char *const *)plan.modes[k].args,
						  plan.modes[k].kernel);

		strlist_add(&m->modes, def);
		free(def);
	}
	n = plan_boots(&plan, &boots);
	m->sides = xcalloc(n ? n : 1, sizeof(*m->sides));
	for (size_t k = 0; k < n; k++) {
		char *side_dir = path_join(dir, boots[k].label);

		if (side_recorded(side_dir) && side_load(side_dir, &m->sides[m->n_sides], warnings) == 0)
			m->n_sides++;
		free(side_dir);
	}
	plan_boots_free(boots, n);
	r = 0;
	for (size_t k = 0; k < m->n_sides && r == 0; k++)
		if (m->sides[k].unreadable_rows) {
			campaign_tell(o, CAMPAIGN_ERROR, "%zu recorded row%s of %s cannot be read: no fleet report without %s",
				     m->sides[k].unreadable_rows, m->sides[k].unreadable_rows == 1 ? "" : "s",
				     m->sides[k].dir, m->sides[k].unreadable_rows == 1 ? "it" : "them");
			r = -EINVAL;
		}
	if (r == 0 && m->n_sides < 2) {
		campaign_tell(o, CAMPAIGN_ERROR, "%s: fewer than two boots recorded, nothing to pool", dir);
		r = -EINVAL;
	}
	if (r == 0) {
		char *error = NULL, *hpath = NULL;

		m->id = history_sides_machine(m->sides, m->n_sides, NULL);
		if (!plan.history_off &&
		    history_open(m->sides, m->n_sides, plan.history, false, &hpath, &m->history, &error, warnings) < 0) {
			strlist_addf(warnings, "%s: [campaign] history %s: %s, ignoring the history", dir,
				     plan.history ? plan.history : "(default)", error);
			history_release(&m->history);
			m->history = (struct history)HISTORY_INIT;
		}
		free(error);
		free(hpath);
		co.history = m->history.n_entries ? &m->history : NULL;
		co.equivalence_pct = plan.equivalence_pct;
		for (size_t i = 0; i < plan.n_rows; i++)
			if (plan.rows[i].equivalence_pct > 0)
				strlist_addf(&margins, "%s=%.17g", plan.rows[i].name, plan.rows[i].equivalence_pct);
		co.row_equivalence = &margins;
		/* A rounds = auto campaign is judged at the look it stopped at, as its own report is. */
		m->alpha = co.alpha = campaign_alpha(&plan, m->sides, m->n_sides, NULL);
		r = compare_sides(m->sides, m->n_sides, &co, &m->res, warnings);
		if (r < 0)
			campaign_tell(o, CAMPAIGN_ERROR, "%s: cannot compare the sides: %s", dir, strerror(-r));
		m->compared = r == 0;
	}
	strlist_release(&margins);
	plan_release(&plan);
	return r;
}

/* One boot of one machine, for finding a boot two directories share. */
struct boot_ref {
	const char *boot_id;
	size_t machine;
	const char *label;
};

static int boot_ref_cmp(const void *a, const void *b)
{
	const struct boot_ref *x = a, *y = b;
	int c = strcmp(x->boot_id, y->boot_id);

	return c ? c : (x->machine > y->machine) - (x->machine < y->machine);
}

/*
 * A campaign is its directory and its boots: the same directory named twice
 * (dir, dir/, a link to it) or a copy of it holds the same boot ids, and
 * pooled it would count one machine as several, narrowing the interval
 * with nothing new measured. A boot id (/proc/sys/kernel/random/boot_id)
 * names one boot of one machine, so two campaigns that share one are one.
 */
static int machines_distinct(const struct campaign_options *o, const char *const *dirs, struct machine *ms, size_t n)
{
	struct boot_ref *refs = NULL;
	size_t n_refs = 0, alloc = 0;
	int r = 0;

	for (size_t i = 0; i < n && r == 0; i++)
		for (size_t j = 0; j < i && r == 0; j++)
			if (ms[i].real && ms[j].real && !strcmp(ms[i].real, ms[j].real)) {
				campaign_tell(o, CAMPAIGN_ERROR, "%s and %s are the same directory (%s): a fleet pools each campaign once",
					     dirs[j], dirs[i], ms[i].real);
				r = -EINVAL;
			}
	for (size_t i = 0; i < n && r == 0; i++)
		for (size_t k = 0; k < ms[i].n_sides; k++)
			if (ms[i].sides[k].boot_id) {
				GROW(refs, alloc, n_refs + 1);
				refs[n_refs++] = (struct boot_ref){ ms[i].sides[k].boot_id, i, ms[i].sides[k].label };
			}
	if (n_refs)
		qsort(refs, n_refs, sizeof(*refs), boot_ref_cmp);
	for (size_t k = 1; k < n_refs && r == 0; k++)
		if (!strcmp(refs[k].boot_id, refs[k - 1].boot_id) && refs[k].machine != refs[k - 1].machine) {
			campaign_tell(o, CAMPAIGN_ERROR,
				     "%s and %s hold the same boot (boot_id %s, %s and %s): one campaign twice, a fleet pools each once",
				     dirs[refs[k - 1].machine], dirs[refs[k].machine], refs[k].boot_id, refs[k - 1].label,
				     refs[k].label);
			r = -EINVAL;
		}
	free(refs);
	return r;
}

int campaign_fleet_report(const char *const *dirs, const char *const *machine_names, size_t n, const struct campaign_options *o,
			  const struct fleet_report_out *out)
{
	struct machine *ms = xcalloc(n ? n : 1, sizeof(*ms));
	const struct compare_result **res = xcalloc(n ? n : 1, sizeof(*res));
	const char **names = xcalloc(n ? n : 1, sizeof(*names)), **ids = xcalloc(n ? n : 1, sizeof(*ids));
	struct strlist *modes = xcalloc(n ? n : 1, sizeof(*modes));
	struct strlist warnings = STRLIST_INIT;
	struct fleet_result f;
	int r = 0;

	if (n < 2) {
		campaign_tell(o, CAMPAIGN_ERROR, "a fleet report needs the campaign directories of two or more machines");
		r = -EINVAL;
	}
	for (size_t i = 0; i < n && r == 0; i++) {
		ms[i].history = (struct history)HISTORY_INIT;
		ms[i].name = machine_names ? xstrdup(machine_names[i]) : machine_name(dirs[i]);
		ms[i].real = realpath(dirs[i], NULL);
		r = machine_load(o, dirs[i], &ms[i], &warnings);
		for (size_t j = 0; j < i && r == 0; j++) {
			if (ms[i].id && ms[j].id && !strcmp(ms[i].id, ms[j].id)) {
				campaign_tell(o, CAMPAIGN_ERROR, "%s and %s are the same machine (machine_id %s): a fleet pools different machines",
					     dirs[j], dirs[i], ms[i].id);
				r = -EINVAL;
			} else if (!strcmp(ms[i].name, ms[j].name)) {
				/* Two boxes' directories of the same name: name them by their paths. */
				free(ms[i].name);
				ms[i].name = xstrdup(dirs[i]);
			}
		}
		res[i] = &ms[i].res;
		names[i] = ms[i].name;
		ids[i] = ms[i].id;
		modes[i] = ms[i].modes;
	}
	if (r == 0)
		r = machines_distinct(o, dirs, ms, n);
	for (size_t i = 0; i < warnings.n; i++)
		campaign_tell(o, CAMPAIGN_WARNING, "%s", warnings.items[i]);
	strlist_release(&warnings);
	if (r == 0) {
		/* The pooled test at the strictest level a machine's campaign stopped at. */
		double alpha = COMPARE_ALPHA_DEFAULT;

		for (size_t i = 0; i < n; i++)
			alpha = fmin(alpha, ms[i].alpha);
		r = fleet_judge(res, names, modes, n, alpha, &f, &warnings);
		for (size_t i = 0; i < warnings.n; i++)
			campaign_tell(o, r < 0 ? CAMPAIGN_ERROR : CAMPAIGN_WARNING, "%s", warnings.items[i]);
		if (r == 0) {
			if (out->txt)
				r = report_fleet_text(out->txt, &f, ids);
			if (r == 0 && out->md)
				r = report_fleet_md(out->md, &f, ids);
			if (r == 0 && out->json)
				r = report_fleet_json(out->json, &f, ids);
			fleet_result_release(&f);
		}
	}
	for (size_t i = 0; i < n; i++) {
		if (ms[i].compared)
			compare_result_release(&ms[i].res);
		for (size_t k = 0; k < ms[i].n_sides; k++)
			side_release(&ms[i].sides[k]);
		free(ms[i].sides);
		history_release(&ms[i].history);
		strlist_release(&ms[i].modes);
		free(ms[i].name);
		free(ms[i].real);
	}
	strlist_release(&warnings);
	free(ms);
	free(res);
	free(names);
	free(ids);
	free(modes);
	return r;
}
