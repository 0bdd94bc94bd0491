/*
 * The checks of a plan that hold across keys and sections, made once the
 * whole file is read: one target or one fleet, the [lava] section whole,
 * rows complete, the boot order's modes, unique boot labels, and the
 * factors' design turned into the first modes.
 */
#include "plan/plan.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/cmdline.h"
#include "lib/alloc.h"
#include "lib/strbuf.h"
#include "lib/strvec.h"
#include "plan/internal.h"

static const struct plan_boot *sorted_boots;

static int compare_boot_labels(const void *a, const void *b)
{
	size_t i = *(const size_t *)a, j = *(const size_t *)b;
	int c = strcmp(sorted_boots[i].label, sorted_boots[j].label);

	return c ? c : i < j ? -1 : i > j;
}

/* Which boot of its mode boot k is (1-based). */
static unsigned boot_occurrence(const struct plan_boot *boots, size_t k)
{
	unsigned n = 0;

	for (size_t i = 0; i <= k; i++)
		n += boots[i].mode == boots[k].mode;
	return n;
}

/*
 * Every boot's label names its side directory: two boots with one label
 * would share a directory. A label is the mode's name, then name2, name3
 * ... for its later boots, so modes "tr" and "tr2" collide; such a plan is
 * refused, naming both boots and the mode to rename.
 */
static int labels_unique(struct parse_state *s)
{
	struct plan *p = s->plan;
	struct plan_boot *boots;
	size_t n = plan_boots(p, &boots), *order = xmalloc((n ? n : 1) * sizeof(*order));
	int ok = 1;

	for (size_t i = 0; i < n; i++)
		order[i] = i;
	sorted_boots = boots;
	qsort(order, n, sizeof(*order), compare_boot_labels);
	sorted_boots = NULL;
	for (size_t i = 1; i < n && ok; i++) {
		size_t a = order[i - 1], b = order[i];
		const struct plan_mode *ma = &p->modes[boots[a].mode], *mb = &p->modes[boots[b].mode];
		unsigned oa, ob;
		const struct plan_mode *rename;

		if (strcmp(boots[a].label, boots[b].label))
			continue;
		oa = boot_occurrence(boots, a);
		ob = boot_occurrence(boots, b);
		/* The mode whose own name is the label is the one to rename. */
		rename = oa == 1 ? ma : ob == 1 ? mb : NULL;
		s->line = rename ? rename->line : mb->line;
		if (rename)
			ok = plan_fail(s, NULL, "boots %zu and %zu would both be labelled '%s' (boot %u of mode '%s' and boot %u of mode '%s'): rename mode '%s'",
				  a + 1, b + 1, boots[a].label, oa, ma->name, ob, mb->name, rename->name);
		else
			ok = plan_fail(s, NULL, "boots %zu and %zu would both be labelled '%s' (boot %u of mode '%s' and boot %u of mode '%s'): rename mode '%s' or '%s'",
				  a + 1, b + 1, boots[a].label, oa, ma->name, ob, mb->name, ma->name, mb->name);
	}
	free(order);
	plan_boots_free(boots, n);
	return ok;
}

/* target = lava and [lava] go together; the section names what every job needs. */
static int validate_lava(struct parse_state *s)
{
	struct plan *p = s->plan;
	struct plan_lava *l = &p->lava;
	static const char *const need[] = { "url", "kernel", "initramfs", "prompt" };

	if (!l->present) {
		if (plan_is_lava(p)) {
			s->line = 0;
			return plan_fail(s, "target", "lava needs a [lava] section (url, device or tags, token_file or token_env, kernel, initramfs, prompt)");
		}
		return 1;
	}
	s->line = l->line;
	if (!plan_is_lava(p))
		return plan_fail(s, NULL, "section [lava] is for target = lava");
	for (size_t i = 0; i < 4; i++) {
		const char *have[] = { l->url, l->kernel, l->initramfs, l->prompt };

		if (!have[i])
			return plan_fail(s, need[i], "missing in [lava]");
	}
	if (!l->device && !l->tags.n)
		return plan_fail(s, "device", "missing in [lava]: the jobs are pinned by device, tags or both");
	if (!l->token_file == !l->token_env)
		return plan_fail(s, "token_file", "[lava] takes token_file or token_env: one of them");
	if (!l->device_type)
		l->device_type = xstrdup("qemu");
	if (!l->arch)
		l->arch = xstrdup("amd64");
	if (!l->kernel_args)
		l->kernel_args = xstrdup("console=ttyS0,115200");
	if (!l->job_timeout_s)
		l->job_timeout_s = 1800;
	if (!l->poll_s)
		l->poll_s = 10;
	/* The job's -append "..." takes the args as they are: kernel args hold no quote or brace (cmdline_args_parse()). */
	for (size_t i = 0; i < p->n_modes; i++) {
		s->line = p->modes[i].line;
		if (p->modes[i].kernel)
			return plan_fail(s, "kernel", "a LAVA campaign's jobs deploy [lava] kernel: a mode names no kernel");
	}
	if (p->power_cycle) {
		s->line = 0;
		return plan_fail(s, "power_cycle", "LAVA powers its devices: target = lava takes no power_cycle");
	}
	s->line = 0;
	return 1;
}

/* Whether an arg of f names a parameter an arg of g names too. */
static bool factors_overlap(const struct plan_factor *f, const struct plan_factor *g, char **ret_name)
{
	for (char **a = f->args; *a; a++) {
		char *name = xstrndup(*a, strcspn(*a, "="));

		if (cmdline_name_in(name, g->args)) {
			*ret_name = name;
			return true;
		}
		free(name);
	}
	return false;
}

/*
 * The design's run r as a mode: the args of the factors it sets, in factor
 * order. A fold-over run is named after the run it reverses (fold01: off's,
 * every factor on).
 */
static void design_mode(struct plan *p, size_t r, int width, struct plan_mode *m)
{
	struct strvec args = STRVEC_INIT;
	struct strbuf text = STRBUF_INIT;
	size_t base = p->design.base_runs;

	memset(m, 0, sizeof(*m));
	if (r >= base)
		m->name = xasprintf("fold%0*zu", width, r - base + 1);
	else
		m->name = r ? xasprintf("run%0*zu", width, r + 1) : xstrdup("off");
	m->line = p->factors[0].line;
	m->design_run = true;
	m->run = r;
	for (size_t i = 0; i < p->n_factors; i++) {
		if (p->design.levels[r * p->n_factors + i] < 0)
			continue;
		strbuf_addf(&text, "%s%s", text.len ? " " : "", p->factors[i].args_text);
		for (char **a = p->factors[i].args; *a; a++)
			strvec_push(&args, *a);
	}
	m->args_text = strbuf_detach(&text, NULL);
	m->args = strvec_detach(&args);
}

/*
 * [factor] sections: the design's runs become the first modes, so that
 * every boot is set, rebooted and proven as any mode's.
 */
static int validate_design(struct parse_state *s)
{
	struct plan *p = s->plan;
	struct plan_mode *modes;
	size_t n_runs;
	int width = 2;
	char *name;

	if (!p->n_factors) {
		s->line = p->design_line;
		return p->design_kind ? plan_fail(s, "design", "takes [factor \"NAME\"] sections: a design is over factors") : 1;
	}
	for (size_t i = 0; i < p->n_factors; i++) {
		s->line = p->factors[i].line;
		if (!p->factors[i].args || !p->factors[i].args[0])
			return plan_fail(s, "args", "missing in [factor \"%s\"]: a factor is the args it sets", p->factors[i].name);
		for (size_t j = 0; j < i; j++)
			if (factors_overlap(&p->factors[i], &p->factors[j], &name)) {
				plan_fail(s, "args", "'%s' is set by factor '%s' too: each parameter belongs to one factor",
				     name, p->factors[j].name);
				free(name);
				return 0;
			}
	}
	if (!p->design_kind)
		p->design_kind = PLAN_DESIGN_SCREEN;
	if (design_build(p->n_factors, p->design_kind == PLAN_DESIGN_FULL, &p->design) < 0) {
		s->line = p->design_line;
		return plan_fail(s, "design", "full takes at most %d factors (2^%d boots a round); design = screen takes more",
			    DESIGN_FULL_MAX, DESIGN_FULL_MAX);
	}
	/* Rounds alternate the design and its fold-over, which clears the main effects of two-factor interactions. */
	if (p->rounds > 1 && !p->rounds_auto && p->order_kind != ORDER_LIST && p->order_kind != ORDER_AA &&
	    design_foldable(&p->design))
		design_fold(&p->design);
	n_runs = p->design.n_runs;
	for (size_t n = p->design.base_runs; n >= 100; n /= 10)
		width++;
	modes = xcalloc(n_runs + p->n_modes, sizeof(*modes));
	for (size_t r = 0; r < n_runs; r++)
		design_mode(p, r, width, &modes[r]);
	for (size_t i = 0; i < p->n_modes; i++)
		for (size_t r = 0; r < n_runs; r++)
			if (!strcmp(p->modes[i].name, modes[r].name)) {
				s->line = p->modes[i].line;
				plan_fail(s, NULL, "mode '%s' has the name of a run of the factors' design: rename it", modes[r].name);
				for (size_t k = 0; k < n_runs; k++) {
					free(modes[k].name);
					free(modes[k].args_text);
					strv_free(modes[k].args);
				}
				free(modes);
				return 0;
			}
	if (p->n_modes)
		memcpy(&modes[n_runs], p->modes, p->n_modes * sizeof(*modes));
	free(p->modes);
	p->modes = modes;
	p->n_modes += n_runs;
	p->alloc_modes = p->n_modes;
	return 1;
}

int plan_check(struct parse_state *s)
{
	struct plan *p = s->plan;

	if (p->target && (p->targets.n || p->inventory)) {
		s->line = p->targets.n ? p->targets_line : p->inventory_line;
		return plan_fail(s, p->targets.n ? "targets" : "inventory", "a plan names one target, or a fleet with targets or inventory, not both");
	}
	if (p->targets.n && p->inventory) {
		s->line = p->inventory_line;
		return plan_fail(s, "inventory", "a fleet is named by targets or by an inventory, not both");
	}
	if (p->group && !p->inventory) {
		s->line = 0;
		return plan_fail(s, "group", "takes an inventory: the group is one of the inventory's");
	}
	if (p->box_timeout_s && !p->targets.n && !p->inventory) {
		s->line = p->box_timeout_line;
		return plan_fail(s, "box_timeout", "takes a fleet (targets or inventory): one box's campaign is bounded by boot_timeout and each row's timeout");
	}
	if (!validate_design(s))
		return 0;
	s->line = 0;
	if (p->n_modes == 0)
		return plan_fail(s, NULL, "no [mode \"NAME\"] section: a campaign needs at least one mode");
	for (size_t i = 0; i < p->n_modes; i++)
		if (!p->modes[i].args) {
			/* An empty or absent args: the standing kernel defaults. */
			p->modes[i].args = xcalloc(1, sizeof(char *));
			p->modes[i].args_text = xstrdup("");
		}
	if (!validate_lava(s))
		return 0;
	if (p->prepare.n && plan_is_lava(p))
		return plan_fail(s, "prepare", "[prepare] is for boxes bootab reaches over SSH or runs on: a LAVA job's test runs the rows alone");
	for (size_t i = 0; i < p->n_rows; i++) {
		struct plan_row *r = &p->rows[i];

		if (!r->command) {
			s->line = r->line;
			return plan_fail(s, "command", "missing in [%s \"%s\"]", r->check ? "check" : "row", r->name);
		}
		if (!r->reps)
			r->reps = r->check ? 1 : p->default_reps;
		if (!r->timeout_s)
			r->timeout_s = 3600;
		if (r->has_better && r->parser != PARSER_NUMBER && r->parser != PARSER_JSON && r->parser != PARSER_REGEX) {
			s->line = r->line;
			return plan_fail(s, "better", "only number, json and regex rows take 'better'; other parsers know their metrics");
		}
		if (r->parser == PARSER_REGEX) {
			static const char *const need[] = { "metric", "pattern", "better" };
			const bool have[] = { r->metric != NULL, r->pattern != NULL, r->has_better };

			for (size_t k = 0; k < 3; k++)
				if (!have[k]) {
					s->line = r->line;
					return plan_fail(s, need[k], "missing in [row \"%s\"]: parser = regex needs metric, pattern and better",
						    r->name);
				}
		} else if (r->metric || r->pattern || r->unit) {
			s->line = r->line;
			return plan_fail(s, r->metric ? "metric" : r->pattern ? "pattern" : "unit",
				    "only regex rows (parser = regex) take metric, pattern and unit");
		}
	}
	for (size_t i = 0; i < p->n_versions; i++)
		if (!p->versions[i].command) {
			s->line = p->versions[i].line;
			return plan_fail(s, "command", "missing in [version \"%s\"]", p->versions[i].name);
		}
	if (p->order_kind == ORDER_LIST) {
		if (p->order_list.n < 2)
			return plan_fail(s, "order", "an explicit order needs at least two boots");
		for (size_t i = 0; i < p->order_list.n; i++)
			if (!plan_find_mode(p, p->order_list.items[i]))
				return plan_fail(s, "order", "'%s' is not a mode of this plan", p->order_list.items[i]);
		if (p->rounds > 1)
			return plan_fail(s, "rounds", "an explicit order is the whole campaign; rounds does not apply");
	}
	if (p->has_max_rounds && !p->rounds_auto) {
		s->line = p->max_rounds_line;
		return plan_fail(s, "max_rounds", "only with rounds = auto (a fixed campaign has its rounds)");
	}
	if (p->rounds_auto) {
		/* Each round is closed by the first mode: the campaign can stop there. */
		s->line = p->rounds_line;
		if (p->order_kind != ORDER_DEFAULT)
			return plan_fail(s, "rounds", "rounds = auto works with the default order only (every mode once per round, the first mode closing it)");
		p->rounds = p->max_rounds;
	}
	if (!labels_unique(s))
		return 0;
	if (p->watch) {
		for (const char *c = p->watch; *c; c++)
			if (!isalnum((unsigned char)*c) && !strchr(":._-", *c))
				return plan_fail(s, "watch", "'%s' is not a device address", p->watch);
	}
	return 1;
}
