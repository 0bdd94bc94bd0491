/*
 * The keys of each plan section ([campaign], [mode], [factor], [row],
 * [check], [version], [idle], [lava], [park], [unpark], [prepare]): each
 * value checked as it is read, with the key named in its error.
 */
#include "plan/plan.h"

#include <ctype.h>
#include <string.h>

#include "judge/costs.h"
#include "judge/compare.h"
#include "kernel/cmdline.h"
#include "kernel/param-values.h"
#include "kernel/verify.h"
#include "lib/alloc.h"
#include "lib/parse-number.h"
#include "lib/strvec.h"
#include "plan/internal.h"
#include "target/target.h"

bool plan_name_valid(const char *n)
{
	if (!*n || strlen(n) > 64)
		return false;
	for (; *n; n++)
		if (!isalnum((unsigned char)*n) && !strchr("_-.", *n))
			return false;
	return true;
}

/* A metric name or unit: printable ASCII, at most 64 bytes. */
static bool printable_name(const char *n)
{
	if (!*n || strlen(n) > 64)
		return false;
	for (; *n; n++)
		if ((unsigned char)*n < 0x20 || (unsigned char)*n >= 0x7f)
			return false;
	return true;
}

static int parse_uint(struct parse_state *s, const char *key, const char *v, unsigned min,
		      unsigned max, unsigned *ret)
{
	const char *end = v;
	long n;

	/* A duration may carry an "s" suffix. */
	if (number_scan_long(v, 10, min, max, &n, &end) < 0 || (*end == 's' ? end[1] : *end) || v[0] == '-')
		return plan_fail(s, key, "'%s' is not a whole number from %u to %u", v, min, max);
	*ret = (unsigned)n;
	return 1;
}

static int parse_double(struct parse_state *s, const char *key, const char *v, double min,
			double max, double *ret)
{
	const char *end;
	double d;

	if (number_scan_double(v, min, max, &d, &end) < 0 || (*end == '%' ? end[1] : *end))
		return plan_fail(s, key, "'%s' is not a number from %g to %g", v, min, max);
	*ret = d;
	return 1;
}

static int parse_bool(struct parse_state *s, const char *key, const char *v, bool *ret)
{
	if (!strcmp(v, "yes") || !strcmp(v, "true") || !strcmp(v, "on") || !strcmp(v, "1"))
		*ret = true;
	else if (!strcmp(v, "no") || !strcmp(v, "false") || !strcmp(v, "off") || !strcmp(v, "0"))
		*ret = false;
	else
		return plan_fail(s, key, "'%s' is not yes or no", v);
	return 1;
}

static int set_string(struct parse_state *s, const char *key, char **field, const char *v)
{
	if (*field)
		return plan_fail(s, key, "given twice in [%s]", s->section);
	if (!*v)
		return plan_fail(s, key, "empty");
	*field = xstrdup(v);
	return 1;
}

/* A command's continuation lines join it as further lines of one script. */
static void append_command(char **field, const char *v)
{
	char *joined;

	if (!*field) {
		*field = xstrdup(v);
		return;
	}
	joined = xasprintf("%s\n%s", *field, v);
	free(*field);
	*field = joined;
}

/* An equivalence margin: "2%" or "2", above 0 and at most 50. */
static int parse_margin(struct parse_state *s, const char *key, const char *v, double *ret)
{
	if (compare_parse_margin(v, ret) < 0)
		return plan_fail(s, key, "'%s' is not a margin in %% above 0 and at most %g", v, COMPARE_MARGIN_MAX);
	return 1;
}

/*
 * A perf stat event list as perf's -e takes it: event names, raw codes,
 * PMU terms and groups ("cycles,instructions", "cpu/event=0x3c/u",
 * "{cycles,instructions}", "sched:sched_switch"). It reaches perf as one
 * quoted word; the characters are checked so that it can also name
 * metrics and files.
 */
static int perf_events_key(struct parse_state *s, const char *key, const char *v, char **field, bool *off)
{
	if (*field || (off && *off))
		return plan_fail(s, key, "given twice in [%s]", s->section);
	if (!strcmp(v, "off")) {
		/* A row's off overrides the campaign's events; the campaign's is its default, none. */
		if (off)
			*off = true;
		return 1;
	}
	if (!*v || strlen(v) > 1024)
		return plan_fail(s, key, "'%s' is not a perf event list (1 to 1024 bytes, or off)", v);
	for (const char *c = v; *c; c++)
		if (!isalnum((unsigned char)*c) && !strchr("-_.:/=,@~+{}", *c))
			return plan_fail(s, key, "'%s' is not a perf event list: '%c' is none of letters, digits and - _ . : / = , @ ~ + { }",
				    v, *c);
	*field = xstrdup(v);
	return 1;
}

static int perf_scope_key(struct parse_state *s, const char *key, const char *v, bool *ret)
{
	if (!strcmp(v, "command"))
		*ret = false;
	else if (!strcmp(v, "system"))
		*ret = true;
	else
		return plan_fail(s, key, "'%s' is not command or system", v);
	return 1;
}

/* The keys of a fleet campaign: the machines (targets, or an Ansible inventory and its group). */
static int campaign_fleet_key(struct parse_state *s, const char *key, const char *v)
{
	struct plan *p = s->plan;

	if (!strcmp(key, "targets")) {
		struct strlist words = { 0 };

		strlist_split(&words, v, " \t");
		for (size_t i = 0; i < words.n; i++) {
			if (!target_destination_acceptable(words.items[i]) || !strcmp(words.items[i], "local") ||
			    !strcmp(words.items[i], "lab")) {
				plan_fail(s, key, "'%s' is not an SSH destination (none is local or lab, starts with '-' or holds control characters)",
				     words.items[i]);
				strlist_release(&words);
				return 0;
			}
			if (strlist_find(&p->targets, words.items[i]) >= 0) {
				plan_fail(s, key, "'%s' is named twice", words.items[i]);
				strlist_release(&words);
				return 0;
			}
			strlist_add(&p->targets, words.items[i]);
		}
		strlist_release(&words);
		if (!p->targets_line)
			p->targets_line = s->line;
		return 1;
	}
	if (!strcmp(key, "inventory")) {
		p->inventory_line = s->line;
		return set_string(s, key, &p->inventory, v);
	}
	if (!strcmp(key, "box_timeout")) {
		p->box_timeout_line = s->line;
		return parse_uint(s, key, v, 10, 30 * 86400, &p->box_timeout_s);
	}
	/* group */
	{
		if (!plan_group_name_valid(v))
			return plan_fail(s, key, "'%s' is not an inventory group name (letters, digits and _ . -)", v);
		return set_string(s, key, &p->group, v);
	}
}

/* The keys of the boot order: order, rounds, max_rounds, seed. */
static int campaign_order_key(struct parse_state *s, const char *key, const char *v)
{
	struct plan *p = s->plan;

	if (!strcmp(key, "order")) {
		if (p->order_list.n || p->order_kind != ORDER_DEFAULT)
			return plan_fail(s, key, "given twice in [campaign]");
		if (!strcmp(v, "default") || !strcmp(v, "abca"))
			p->order_kind = ORDER_DEFAULT;
		else if (!strcmp(v, "abba"))
			p->order_kind = ORDER_ABBA;
		else if (!strcmp(v, "random"))
			p->order_kind = ORDER_RANDOM;
		else if (!strcmp(v, "aa"))
			p->order_kind = ORDER_AA;
		else {
			p->order_kind = ORDER_LIST;
			strlist_split(&p->order_list, v, " \t,");
		}
		return 1;
	}
	if (!strcmp(key, "rounds")) {
		p->rounds_line = s->line;
		if (!strcmp(v, "auto")) {
			p->rounds_auto = true;
			return 1;
		}
		p->rounds_auto = false;
		return parse_uint(s, key, v, 1, 100, &p->rounds);
	}
	if (!strcmp(key, "max_rounds")) {
		p->has_max_rounds = true;
		p->max_rounds_line = s->line;
		return parse_uint(s, key, v, PLAN_MAX_ROUNDS_MIN, PLAN_MAX_ROUNDS_MAX, &p->max_rounds);
	}
	/* seed */
	{
		unsigned seed;

		if (!parse_uint(s, key, v, 0, 0xffffffffu, &seed))
			return 0;
		p->seed = seed;
		p->has_seed = true;
		return 1;
	}
}

static int campaign_key(struct parse_state *s, const char *key, const char *v)
{
	struct plan *p = s->plan;

	if (!strcmp(key, "target")) {
		if (*v && !target_destination_acceptable(v))
			return plan_fail(s, key, "'%s' is not local, lab or an SSH destination (none starts with '-' or holds spaces or control characters)", v);
		return set_string(s, key, &p->target, v);
	}
	if (!strcmp(key, "targets") || !strcmp(key, "inventory") || !strcmp(key, "group") || !strcmp(key, "box_timeout"))
		return campaign_fleet_key(s, key, v);
	if (!strcmp(key, "backend")) {
		static const char *const known[] = { "auto", "bls", "grub", "grubby", "kernel-cmdline", "kexec", NULL };

		for (size_t i = 0; known[i]; i++)
			if (!strcmp(v, known[i])) {
				free(p->backend);
				p->backend = xstrdup(v);
				return 1;
			}
		return plan_fail(s, key, "unknown backend '%s' (auto, bls, grub, grubby, kernel-cmdline, kexec)", v);
	}
	if (!strcmp(key, "order") || !strcmp(key, "rounds") || !strcmp(key, "max_rounds") || !strcmp(key, "seed"))
		return campaign_order_key(s, key, v);
	if (!strcmp(key, "data"))
		return set_string(s, key, &p->data_dir, v);
	if (!strcmp(key, "boot_timeout"))
		return parse_uint(s, key, v, 10, 86400, &p->boot_timeout_s);
	if (!strcmp(key, "power_cycle"))
		return set_string(s, key, &p->power_cycle, v);
	if (!strcmp(key, "oneshot")) {
		if (!strcmp(v, "auto"))
			p->oneshot = ONESHOT_AUTO;
		else if (!strcmp(v, "on") || !strcmp(v, "yes"))
			p->oneshot = ONESHOT_ON;
		else if (!strcmp(v, "off") || !strcmp(v, "no"))
			p->oneshot = ONESHOT_OFF;
		else
			return plan_fail(s, key, "'%s' is not auto, on or off", v);
		return 1;
	}
	if (!strcmp(key, "watch"))
		return set_string(s, key, &p->watch, v);
	if (!strcmp(key, "ignore")) {
		char *error = NULL;

		if (!*v)
			return 1;
		if (costs_pattern_check(v, &error) < 0) {
			plan_fail(s, key, "%s", error);
			free(error);
			return 0;
		}
		strlist_add(&p->ignore, v);
		return 1;
	}
	if (!strcmp(key, "history")) {
		if (p->history || p->history_off)
			return plan_fail(s, key, "given twice in [campaign]");
		if (!strcmp(v, "off")) {
			p->history_off = true;
			return 1;
		}
		/* A path on the controller: no control characters. */
		for (const char *c = v; *c; c++)
			if ((unsigned char)*c < 0x20 || *c == 0x7f)
				return plan_fail(s, key, "'%s' is not a path or off", v);
		return set_string(s, key, &p->history, v);
	}
	if (!strcmp(key, "reps"))
		return parse_uint(s, key, v, 1, 10000, &p->default_reps);
	if (!strcmp(key, "equivalence"))
		return parse_margin(s, key, v, &p->equivalence_pct);
	if (!strcmp(key, "poll"))
		return parse_uint(s, key, v, 1, 3600, &p->poll_s);
	if (!strcmp(key, "perf"))
		return perf_events_key(s, key, v, &p->perf, NULL);
	if (!strcmp(key, "perf_scope"))
		return perf_scope_key(s, key, v, &p->perf_system);
	if (!strcmp(key, "energy"))
		return parse_bool(s, key, v, &p->energy);
	if (!strcmp(key, "design")) {
		if (!strcmp(v, "screen"))
			p->design_kind = PLAN_DESIGN_SCREEN;
		else if (!strcmp(v, "full"))
			p->design_kind = PLAN_DESIGN_FULL;
		else
			return plan_fail(s, key, "'%s' is not screen or full", v);
		p->design_line = s->line;
		return 1;
	}
	return plan_fail(s, key, "unknown key in [campaign]");
}

/* args = of a mode or a factor: checked against the kernel's syntax and the values it takes. */
static int args_key(struct parse_state *s, const char *key, const char *v, char **args_text, char ***ret_args)
{
	struct parse_error e = PARSE_ERROR_INIT;
	char **args = NULL;
	char *text, *why = NULL;

	/* A continuation line carries more args: they join the line above. */
	if (*args_text && !s->continuation)
		return plan_fail(s, key, "given twice in [%s]", s->section);
	text = *args_text && **args_text ? xasprintf("%s %s", *args_text, v) : xstrdup(v);
	if (cmdline_args_parse(text, &args, &e) < 0) {
		plan_fail(s, key, "%s", e.message ? e.message : "not valid kernel command-line syntax");
		parse_error_release(&e);
		free(text);
		return 0;
	}
	/* A value the kernel does not take, refused before the first reboot. */
	if (param_values_check(args, &why) < 0) {
		plan_fail(s, key, "%s", why);
		free(why);
		strv_free(args);
		free(text);
		return 0;
	}
	free(*args_text);
	strv_free(*ret_args);
	*args_text = text;
	*ret_args = args;
	return 1;
}

static int factor_key(struct parse_state *s, struct plan_factor *f, const char *key, const char *v)
{
	if (!strcmp(key, "args"))
		return args_key(s, key, v, &f->args_text, &f->args);
	return plan_fail(s, key, "unknown key in [%s] (args)", s->section);
}

static int mode_key(struct parse_state *s, struct plan_mode *m, const char *key, const char *v)
{
	if (!strcmp(key, "args"))
		return args_key(s, key, v, &m->args_text, &m->args);
	if (!strcmp(key, "kernel")) {
		const char *why;

		if (m->kernel)
			return plan_fail(s, key, "given twice in [%s]", s->section);
		if (!*v)
			return 1;
		if (!plan_kernel_valid(v, &why))
			return plan_fail(s, key, "'%s' %s", v, why);
		m->kernel = xstrdup(v);
		return 1;
	}
	if (!strcmp(key, "expect")) {
		struct verify_expect e;
		char *error = NULL;

		if (!*v)
			return 1;
		if (verify_expect_parse(v, &e, &error) < 0) {
			plan_fail(s, key, "%s", error ? error : "not an expectation bootab knows");
			free(error);
			return 0;
		}
		verify_expect_release(&e);
		strlist_add(&m->expects, v);
		return 1;
	}
	return plan_fail(s, key, "unknown key in [%s]", s->section);
}

static int row_key(struct parse_state *s, struct plan_row *r, const char *key, const char *v)
{
	if (!strcmp(key, "command")) {
		append_command(&r->command, v);
		return 1;
	}
	if (!strcmp(key, "timeout"))
		return parse_uint(s, key, v, 1, 7 * 86400, &r->timeout_s);
	if (!strcmp(key, "user"))
		return set_string(s, key, &r->user, v);
	if (r->check)
		return plan_fail(s, key, "unknown key in [%s] (a check has command, timeout, user)", s->section);
	if (!strcmp(key, "reps"))
		return parse_uint(s, key, v, 1, 10000, &r->reps);
	if (!strcmp(key, "parser")) {
		struct parse_error e = PARSE_ERROR_INIT;

		free(r->selector);   /* a later parser line replaces an earlier one */
		r->selector = NULL;
		if (parser_spec_parse(v, &r->parser, &r->selector) < 0)
			return plan_fail(s, key, "'%s' is not a parser (auto, llama-bench, fio, hyperfine, number, json SELECTOR, "
				    "dma-map-benchmark, ktap, new-old-table, regex)", v);
		if (r->parser == PARSER_JSON && parser_selector_check(r->selector, &e) < 0) {
			plan_fail(s, key, "%s", e.message ? e.message : "bad selector");
			parse_error_release(&e);
			return 0;
		}
		return 1;
	}
	if (!strcmp(key, "stat")) {
		int n = stat_list_parse(v, r->stats);

		if (n < 0)
			return plan_fail(s, key, "'%s' is not mean, median, min or max, or a list of them such as mean,min", v);
		r->n_stats = (size_t)n;
		r->stat = r->stats[0];
		r->has_stat = true;
		return 1;
	}
	if (!strcmp(key, "metric")) {
		if (!printable_name(v))
			return plan_fail(s, key, "'%s' is not a printable name of at most 64 bytes", v);
		return set_string(s, key, &r->metric, v);
	}
	if (!strcmp(key, "pattern")) {
		char *error = NULL;

		if (parser_regex_check(v, &error) < 0) {
			plan_fail(s, key, "%s", error);
			free(error);
			return 0;
		}
		return set_string(s, key, &r->pattern, v);
	}
	if (!strcmp(key, "unit")) {
		if (!printable_name(v) || strlen(v) > 32)
			return plan_fail(s, key, "'%s' is not a printable unit of at most 32 bytes", v);
		return set_string(s, key, &r->unit, v);
	}
	if (!strcmp(key, "by_run") || !strcmp(key, "by-run"))
		return parse_bool(s, key, v, &r->by_run);
	if (!strcmp(key, "equivalence"))
		return parse_margin(s, key, v, &r->equivalence_pct);
	if (!strcmp(key, "perf"))
		return perf_events_key(s, key, v, &r->perf, &r->perf_off);
	if (!strcmp(key, "perf_scope")) {
		r->has_perf_scope = true;
		return perf_scope_key(s, key, v, &r->perf_system);
	}
	if (!strcmp(key, "energy")) {
		r->has_energy = true;
		return parse_bool(s, key, v, &r->energy);
	}
	if (!strcmp(key, "better")) {
		if (strcmp(v, "higher") && strcmp(v, "lower"))
			return plan_fail(s, key, "'%s' is not higher or lower", v);
		r->has_better = true;
		r->better_lower = !strcmp(v, "lower");
		return 1;
	}
	return plan_fail(s, key, "unknown key in [%s]", s->section);
}

static int idle_key(struct parse_state *s, const char *key, const char *v)
{
	struct plan_idle *i = &s->plan->idle;

	if (!strcmp(key, "load"))
		return parse_double(s, key, v, 0, 1e6, &i->load);
	if (!strcmp(key, "gpu"))
		return parse_double(s, key, v, 0, 100, &i->gpu_pct);
	if (!strcmp(key, "checks"))
		return parse_uint(s, key, v, 1, 1000, &i->checks);
	if (!strcmp(key, "interval"))
		return parse_uint(s, key, v, 1, 3600, &i->interval_s);
	if (!strcmp(key, "timeout"))
		return parse_uint(s, key, v, 0, 7 * 86400, &i->timeout_s);
	return plan_fail(s, key, "unknown key in [idle] (load, gpu, checks, interval, timeout)");
}

/* A URL of a LAVA instance or of an image: scheme, then no space, quote, backslash or control character. */
static bool lava_url_valid(const char *v, bool images)
{
	if (strncmp(v, "http://", 7) && strncmp(v, "https://", 8) && (!images || strncmp(v, "file:///", 8)))
		return false;
	if (strlen(v) > 1024)
		return false;
	for (const char *c = v; *c; c++)
		if ((unsigned char)*c <= 0x20 || *c == 0x7f || strchr("\"'\\`{}<>", *c))
			return false;
	return true;
}

static int lava_url_key(struct parse_state *s, const char *key, const char *v, char **field, bool images)
{
	if (!lava_url_valid(v, images))
		return plan_fail(s, key, "'%s' is not an %s URL without spaces, quotes, braces or control characters",
			    v, images ? "http://, https:// or file:///" : "http:// or https://");
	if (!set_string(s, key, field, v))
		return 0;
	/* The API's paths are joined on after a '/'. */
	if (!images)
		for (size_t n = strlen(*field); n > 8 && (*field)[n - 1] == '/'; n--)
			(*field)[n - 1] = '\0';
	return 1;
}

/* A LAVA device, device type or tag name. */
static bool lava_name_valid(const char *v)
{
	return plan_name_valid(v) && *v != '-' && *v != '.';
}

static int lava_text_key(struct parse_state *s, const char *key, const char *v, char **field)
{
	if (strlen(v) > 256)
		return plan_fail(s, key, "longer than 256 bytes");
	for (const char *c = v; *c; c++)
		if ((unsigned char)*c < 0x20 || *c == 0x7f)
			return plan_fail(s, key, "holds a control character");
	return set_string(s, key, field, v);
}

/* [lava]: the instance, the device, the images the jobs deploy. */
static int lava_key(struct parse_state *s, const char *key, const char *v)
{
	struct plan_lava *l = &s->plan->lava;

	if (!strcmp(key, "url"))
		return lava_url_key(s, key, v, &l->url, false);
	if (!strcmp(key, "kernel"))
		return lava_url_key(s, key, v, &l->kernel, true);
	if (!strcmp(key, "initramfs"))
		return lava_url_key(s, key, v, &l->initramfs, true);
	if (!strcmp(key, "device") || !strcmp(key, "device_type") || !strcmp(key, "arch")) {
		if (!lava_name_valid(v))
			return plan_fail(s, key, "'%s' is not a LAVA name (1-64 letters, digits, '_', '-', '.')", v);
		if (!strcmp(key, "device_type")) {
			/* The deploy and boot actions bootab writes are the qemu device type's. */
			if (strcmp(v, "qemu"))
				return plan_fail(s, key, "'%s': bootab writes jobs for LAVA's qemu device type only", v);
			free(l->device_type);
			l->device_type = xstrdup(v);
			return 1;
		}
		return set_string(s, key, !strcmp(key, "arch") ? &l->arch : &l->device, v);
	}
	if (!strcmp(key, "tags")) {
		struct strlist words = STRLIST_INIT;
		bool ok = true;

		strlist_split(&words, v, " \t");
		for (size_t i = 0; i < words.n && ok; i++) {
			if (!lava_name_valid(words.items[i]))
				ok = plan_fail(s, key, "'%s' is not a LAVA tag (1-64 letters, digits, '_', '-', '.')",
					  words.items[i]);
			else if (strlist_find(&l->tags, words.items[i]) < 0)
				strlist_add(&l->tags, words.items[i]);
		}
		strlist_release(&words);
		return ok;
	}
	if (!strcmp(key, "token_file")) {
		if (*v != '/')
			return plan_fail(s, key, "'%s' is not an absolute path", v);
		return lava_text_key(s, key, v, &l->token_file);
	}
	if (!strcmp(key, "token_env")) {
		for (const char *c = v; *c; c++)
			if (!(isupper((unsigned char)*c) || *c == '_' || (c > v && isdigit((unsigned char)*c))))
				return plan_fail(s, key, "'%s' is not an environment variable name (A-Z, 0-9, '_')", v);
		return set_string(s, key, &l->token_env, v);
	}
	if (!strcmp(key, "kernel_args")) {
		struct parse_error e = PARSE_ERROR_INIT;
		char **args = NULL;
		int r = cmdline_args_parse(v, &args, &e);

		strv_free(args);
		if (r < 0) {
			plan_fail(s, key, "%s", e.message ? e.message : "not kernel command-line args");
			parse_error_release(&e);
			return 0;
		}
		parse_error_release(&e);
		free(l->kernel_args);
		l->kernel_args = xstrdup(v);
		return 1;
	}
	if (!strcmp(key, "prompt"))
		return lava_text_key(s, key, v, &l->prompt);
	if (!strcmp(key, "job_timeout"))
		return parse_uint(s, key, v, 60, 7 * 86400, &l->job_timeout_s);
	if (!strcmp(key, "poll"))
		return parse_uint(s, key, v, 1, 600, &l->poll_s);
	return plan_fail(s, key, "unknown key in [lava] (url, device, tags, device_type, arch, token_file, token_env, kernel, initramfs, kernel_args, prompt, job_timeout, poll)");
}

int plan_section_key(struct parse_state *s, const char *key, const char *value)
{
	if (!strcmp(s->kind, "campaign"))
		return campaign_key(s, key, value);
	if (!strcmp(s->kind, "mode"))
		return mode_key(s, s->current, key, value);
	if (!strcmp(s->kind, "factor"))
		return factor_key(s, s->current, key, value);
	if (!strcmp(s->kind, "row") || !strcmp(s->kind, "check"))
		return row_key(s, s->current, key, value);
	if (!strcmp(s->kind, "version")) {
		struct plan_version *v = s->current;

		if (strcmp(key, "command"))
			return plan_fail(s, key, "unknown key in [%s] (command)", s->section);
		append_command(&v->command, value);
		return 1;
	}
	if (!strcmp(s->kind, "idle"))
		return idle_key(s, key, value);
	if (!strcmp(s->kind, "lava"))
		return lava_key(s, key, value);
	if (!strcmp(s->kind, "park") || !strcmp(s->kind, "unpark") || !strcmp(s->kind, "prepare")) {
		if (strcmp(key, "command"))
			return plan_fail(s, key, "unknown key in [%s] (command)", s->kind);
		strlist_add(!strcmp(s->kind, "park") ? &s->plan->park : !strcmp(s->kind, "unpark") ? &s->plan->unpark
			    : &s->plan->prepare, value);
		return 1;
	}
	return plan_fail(s, key, "unexpected");
}
