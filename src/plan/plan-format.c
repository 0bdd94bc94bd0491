/*
 * A plan written back as plan file text, every setting spelled out
 * (plan_format()): what a campaign records of the plan it ran.
 */
#include "plan/plan.h"

#include <string.h>

#include "lib/strbuf.h"

static const char *order_name(enum plan_order_kind kind)
{
	switch (kind) {
	case ORDER_ABBA:
		return "abba";
	case ORDER_RANDOM:
		return "random";
	case ORDER_AA:
		return "aa";
	case ORDER_DEFAULT:
	case ORDER_LIST:
	default:
		return "default";
	}
}

static const char *oneshot_name(enum plan_oneshot oneshot)
{
	return oneshot == ONESHOT_ON ? "on" : oneshot == ONESHOT_OFF ? "off" : "auto";
}

static void format_string(struct strbuf *sb, const char *key, const char *value)
{
	if (value)
		strbuf_addf(sb, "%s = %s\n", key, value);
}

/* A command's lines, one key each: repeated keys join as continuation lines do. */
static void format_lines(struct strbuf *sb, const char *key, const char *text)
{
	for (const char *p = text;;) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);

		strbuf_addf(sb, "%s = %.*s\n", key, (int)len, p);
		if (!nl)
			break;
		p = nl + 1;
	}
}

static void format_lava(struct strbuf *sb, const struct plan_lava *l)
{
	if (!l->present)
		return;
	strbuf_addstr(sb, "\n[lava]\n");
	format_string(sb, "url", l->url);
	format_string(sb, "device", l->device);
	if (l->tags.n) {
		strbuf_addstr(sb, "tags =");
		for (size_t i = 0; i < l->tags.n; i++)
			strbuf_addf(sb, " %s", l->tags.items[i]);
		strbuf_addch(sb, '\n');
	}
	format_string(sb, "device_type", l->device_type);
	format_string(sb, "arch", l->arch);
	format_string(sb, "token_file", l->token_file);
	format_string(sb, "token_env", l->token_env);
	format_string(sb, "kernel", l->kernel);
	format_string(sb, "initramfs", l->initramfs);
	format_string(sb, "kernel_args", l->kernel_args);
	format_string(sb, "prompt", l->prompt);
	strbuf_addf(sb, "job_timeout = %u\npoll = %u\n", l->job_timeout_s, l->poll_s);
}

/* [factor] sections, then the user's modes (the design's runs are made from the factors again). */
static void format_modes(struct strbuf *sb, const struct plan *p)
{
	for (size_t i = 0; i < p->n_factors; i++) {
		strbuf_addf(sb, "\n[factor \"%s\"]\n", p->factors[i].name);
		format_string(sb, "args", p->factors[i].args_text);
	}
	for (size_t i = 0; i < p->n_modes; i++) {
		const struct plan_mode *m = &p->modes[i];

		if (m->design_run)
			continue;
		strbuf_addf(sb, "\n[mode \"%s\"]\n", m->name);
		if (m->kernel)
			format_string(sb, "kernel", m->kernel);
		if (m->args_text && *m->args_text)
			format_string(sb, "args", m->args_text);
		for (size_t k = 0; k < m->expects.n; k++)
			format_string(sb, "expect", m->expects.items[k]);
	}
}

char *plan_format(const struct plan *p)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_addstr(&sb, "[campaign]\n");
	format_string(&sb, "target", p->target);
	if (p->targets.n) {
		strbuf_addstr(&sb, "targets =");
		for (size_t i = 0; i < p->targets.n; i++)
			strbuf_addf(&sb, " %s", p->targets.items[i]);
		strbuf_addch(&sb, '\n');
	}
	format_string(&sb, "inventory", p->inventory);
	format_string(&sb, "group", p->group);
	if (p->box_timeout_s)
		strbuf_addf(&sb, "box_timeout = %u\n", p->box_timeout_s);
	format_string(&sb, "backend", p->backend);
	if (p->order_kind == ORDER_LIST) {
		strbuf_addstr(&sb, "order =");
		for (size_t i = 0; i < p->order_list.n; i++)
			strbuf_addf(&sb, " %s", p->order_list.items[i]);
		strbuf_addch(&sb, '\n');
	} else {
		strbuf_addf(&sb, "order = %s\n", order_name(p->order_kind));
	}
	if (p->rounds_auto)
		strbuf_addf(&sb, "rounds = auto\nmax_rounds = %u\n", p->max_rounds);
	else
		strbuf_addf(&sb, "rounds = %u\n", p->rounds);
	if (p->has_seed)
		strbuf_addf(&sb, "seed = %lu\n", p->seed);
	format_string(&sb, "data", p->data_dir);
	strbuf_addf(&sb, "boot_timeout = %u\n", p->boot_timeout_s);
	format_string(&sb, "power_cycle", p->power_cycle);
	strbuf_addf(&sb, "oneshot = %s\n", oneshot_name(p->oneshot));
	format_string(&sb, "watch", p->watch);
	for (size_t i = 0; i < p->ignore.n; i++)
		format_string(&sb, "ignore", p->ignore.items[i]);
	if (p->history_off)
		strbuf_addstr(&sb, "history = off\n");
	else
		format_string(&sb, "history", p->history);
	strbuf_addf(&sb, "reps = %u\n", p->default_reps);
	if (p->equivalence_pct > 0)
		strbuf_addf(&sb, "equivalence = %.17g%%\n", p->equivalence_pct);
	format_string(&sb, "perf", p->perf);
	if (p->perf || p->perf_system)
		strbuf_addf(&sb, "perf_scope = %s\n", p->perf_system ? "system" : "command");
	if (p->energy)
		strbuf_addstr(&sb, "energy = on\n");
	if (p->n_factors)
		strbuf_addf(&sb, "design = %s\n", p->design_kind == PLAN_DESIGN_FULL ? "full" : "screen");

	/* %.17g: every double reads back as the same double. */
	strbuf_addf(&sb, "\n[idle]\nload = %.17g\ngpu = %.17g\nchecks = %u\ninterval = %u\ntimeout = %u\n",
		    p->idle.load, p->idle.gpu_pct, p->idle.checks, p->idle.interval_s, p->idle.timeout_s);
	format_lava(&sb, &p->lava);
	if (p->park.n) {
		strbuf_addstr(&sb, "\n[park]\n");
		for (size_t i = 0; i < p->park.n; i++)
			format_string(&sb, "command", p->park.items[i]);
	}
	if (p->unpark.n) {
		strbuf_addstr(&sb, "\n[unpark]\n");
		for (size_t i = 0; i < p->unpark.n; i++)
			format_string(&sb, "command", p->unpark.items[i]);
	}
	if (p->prepare.n) {
		strbuf_addstr(&sb, "\n[prepare]\n");
		for (size_t i = 0; i < p->prepare.n; i++)
			format_string(&sb, "command", p->prepare.items[i]);
	}

	format_modes(&sb, p);
	for (size_t i = 0; i < p->n_rows; i++) {
		const struct plan_row *r = &p->rows[i];

		strbuf_addf(&sb, "\n[%s \"%s\"]\n", r->check ? "check" : "row", r->name);
		format_lines(&sb, "command", r->command);
		if (!r->check) {
			strbuf_addf(&sb, "reps = %u\n", r->reps);
			strbuf_addf(&sb, "parser = %s%s%s\n", parser_kind_name(r->parser),
				    r->selector ? " " : "", r->selector ? r->selector : "");
			format_string(&sb, "metric", r->metric);
			format_string(&sb, "pattern", r->pattern);
			format_string(&sb, "unit", r->unit);
			if (r->has_stat) {
				strbuf_addstr(&sb, "stat = ");
				for (size_t k = 0; k < r->n_stats; k++)
					strbuf_addf(&sb, "%s%s", k ? "," : "", stat_kind_name(r->stats[k]));
				strbuf_addch(&sb, '\n');
			}
			if (r->by_run)
				strbuf_addstr(&sb, "by_run = yes\n");
			if (r->equivalence_pct > 0)
				strbuf_addf(&sb, "equivalence = %.17g%%\n", r->equivalence_pct);
			if (r->has_better)
				strbuf_addf(&sb, "better = %s\n", r->better_lower ? "lower" : "higher");
			format_string(&sb, "perf", r->perf_off ? "off" : r->perf);
			if (r->has_perf_scope)
				strbuf_addf(&sb, "perf_scope = %s\n", r->perf_system ? "system" : "command");
			if (r->has_energy)
				strbuf_addf(&sb, "energy = %s\n", r->energy ? "on" : "off");
		}
		strbuf_addf(&sb, "timeout = %u\n", r->timeout_s);
		format_string(&sb, "user", r->user);
	}
	for (size_t i = 0; i < p->n_versions; i++) {
		strbuf_addf(&sb, "\n[version \"%s\"]\n", p->versions[i].name);
		format_lines(&sb, "command", p->versions[i].command);
	}
	return strbuf_detach(&sb, NULL);
}
