#include "plan/plan.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_rng.h>
#include <ini.h>

#include "judge/costs.h"
#include "judge/compare.h"
#include "kernel/cmdline.h"
#include "kernel/param-values.h"
#include "lib/alloc.h"
#include "lib/parse-number.h"
#include "lib/file.h"
#include "lib/strbuf.h"
#include "lib/strvec.h"
#include "kernel/verify.h"
#include "results/side.h"
#include "fleet/ansible-inventory.h"
#include "target/target.h"

#define PLAN_MAX_BYTES ((size_t)1 << 20)
#define PLAN_MAX_LINE 65536

struct parse_state {
	struct plan *plan;
	struct parse_error *err;
	const char *name;
	/* The reader's position: the line the handler is being called for. */
	const char *text;
	const char *p;
	unsigned line;
	bool line_done;
	bool continuation;        /* the line being read continues the key above it */
	bool failed;
	/* The section being read. */
	char *section;
	char *kind;
	char *title;
	unsigned section_line;
	void *current;            /* the mode, row or version of this section */
	char *last_key;           /* for continuation lines */
};

static int open_section(struct parse_state *s, const char *section);

/*
 * inih calls the handler only for keys, so a section without keys would go
 * unseen; the reader sees every header line and opens its section itself.
 */
static void reader_see_header(struct parse_state *s, const char *line)
{
	const char *start = line, *end;
	char *name;

	while (*start == ' ' || *start == '\t')
		start++;
	if (*start != '[')
		return;
	end = strchr(start, ']');
	if (!end)
		return;
	name = xstrndup(start + 1, (size_t)(end - start - 1));
	if (!s->failed)
		open_section(s, name);
	free(name);
}

static char *reader(char *str, int num, void *stream)
{
	struct parse_state *s = stream;
	bool line_start;
	size_t n = 0;

	if (!*s->p || num < 2)
		return NULL;
	line_start = s->line_done || s->p == s->text;
	if (s->line_done) {
		s->line++;
		s->line_done = false;
	}
	while (*s->p && n < (size_t)num - 1) {
		char c = *s->p++;

		str[n++] = c;
		if (c == '\n') {
			s->line_done = true;
			break;
		}
	}
	str[n] = '\0';
	/* A UTF-8 byte order mark opens the file: inih skips it, and so does the header check. */
	if (s->p - n == s->text && !strncmp(str, "\xef\xbb\xbf", 3))
		memmove(str, str + 3, n - 2);
	if (line_start) {
		s->continuation = (str[0] == ' ' || str[0] == '\t') && str[strspn(str, " \t\r\n")];
		reader_see_header(s, str);
	}
	return str;
}

static int fail(struct parse_state *s, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int fail(struct parse_state *s, const char *key, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	if (s->failed)
		return 0;
	s->failed = true;
	if (key)
		strbuf_addf(&sb, "%s: ", key);
	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	parse_error_set(s->err, s->line, 0, "%s", strbuf_str(&sb));
	strbuf_release(&sb);
	return 0;
}

static bool name_valid(const char *n)
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
		return fail(s, key, "'%s' is not a whole number from %u to %u", v, min, max);
	*ret = (unsigned)n;
	return 1;
}

static int parse_double(struct parse_state *s, const char *key, const char *v, double min,
			double max, double *ret)
{
	const char *end;
	double d;

	if (number_scan_double(v, min, max, &d, &end) < 0 || (*end == '%' ? end[1] : *end))
		return fail(s, key, "'%s' is not a number from %g to %g", v, min, max);
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
		return fail(s, key, "'%s' is not yes or no", v);
	return 1;
}

static int set_string(struct parse_state *s, const char *key, char **field, const char *v)
{
	if (*field)
		return fail(s, key, "given twice in [%s]", s->section);
	if (!*v)
		return fail(s, key, "empty");
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
		return fail(s, key, "'%s' is not a margin in %% above 0 and at most %g", v, COMPARE_MARGIN_MAX);
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
		return fail(s, key, "given twice in [%s]", s->section);
	if (!strcmp(v, "off")) {
		/* A row's off overrides the campaign's events; the campaign's is its default, none. */
		if (off)
			*off = true;
		return 1;
	}
	if (!*v || strlen(v) > 1024)
		return fail(s, key, "'%s' is not a perf event list (1 to 1024 bytes, or off)", v);
	for (const char *c = v; *c; c++)
		if (!isalnum((unsigned char)*c) && !strchr("-_.:/=,@~+{}", *c))
			return fail(s, key, "'%s' is not a perf event list: '%c' is none of letters, digits and - _ . : / = , @ ~ + { }",
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
		return fail(s, key, "'%s' is not command or system", v);
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
				fail(s, key, "'%s' is not an SSH destination (none is local or lab, starts with '-' or holds control characters)",
				     words.items[i]);
				strlist_release(&words);
				return 0;
			}
			if (strlist_find(&p->targets, words.items[i]) >= 0) {
				fail(s, key, "'%s' is named twice", words.items[i]);
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
		if (!ansible_group_name_valid(v))
			return fail(s, key, "'%s' is not an inventory group name (letters, digits and _ . -)", v);
		return set_string(s, key, &p->group, v);
	}
}

/* The keys of the boot order: order, rounds, max_rounds, seed. */
static int campaign_order_key(struct parse_state *s, const char *key, const char *v)
{
	struct plan *p = s->plan;

	if (!strcmp(key, "order")) {
		if (p->order_list.n || p->order_kind != ORDER_DEFAULT)
			return fail(s, key, "given twice in [campaign]");
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
			return fail(s, key, "'%s' is not local, lab or an SSH destination (none starts with '-' or holds spaces or control characters)", v);
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
		return fail(s, key, "unknown backend '%s' (auto, bls, grub, grubby, kernel-cmdline, kexec)", v);
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
			return fail(s, key, "'%s' is not auto, on or off", v);
		return 1;
	}
	if (!strcmp(key, "watch"))
		return set_string(s, key, &p->watch, v);
	if (!strcmp(key, "ignore")) {
		char *error = NULL;

		if (!*v)
			return 1;
		if (costs_pattern_check(v, &error) < 0) {
			fail(s, key, "%s", error);
			free(error);
			return 0;
		}
		strlist_add(&p->ignore, v);
		return 1;
	}
	if (!strcmp(key, "history")) {
		if (p->history || p->history_off)
			return fail(s, key, "given twice in [campaign]");
		if (!strcmp(v, "off")) {
			p->history_off = true;
			return 1;
		}
		/* A path on the controller: no control characters. */
		for (const char *c = v; *c; c++)
			if ((unsigned char)*c < 0x20 || *c == 0x7f)
				return fail(s, key, "'%s' is not a path or off", v);
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
			return fail(s, key, "'%s' is not screen or full", v);
		p->design_line = s->line;
		return 1;
	}
	return fail(s, key, "unknown key in [campaign]");
}

/* args = of a mode or a factor: checked against the kernel's syntax and the values it takes. */
static int args_key(struct parse_state *s, const char *key, const char *v, char **args_text, char ***ret_args)
{
	struct parse_error e = PARSE_ERROR_INIT;
	char **args = NULL;
	char *text, *why = NULL;

	/* A continuation line carries more args: they join the line above. */
	if (*args_text && !s->continuation)
		return fail(s, key, "given twice in [%s]", s->section);
	text = *args_text && **args_text ? xasprintf("%s %s", *args_text, v) : xstrdup(v);
	if (cmdline_args_parse(text, &args, &e) < 0) {
		fail(s, key, "%s", e.message ? e.message : "not valid kernel command-line syntax");
		parse_error_release(&e);
		free(text);
		return 0;
	}
	/* A value the kernel does not take, refused before the first reboot. */
	if (param_values_check(args, &why) < 0) {
		fail(s, key, "%s", why);
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
	return fail(s, key, "unknown key in [%s] (args)", s->section);
}

static int mode_key(struct parse_state *s, struct plan_mode *m, const char *key, const char *v)
{
	if (!strcmp(key, "args"))
		return args_key(s, key, v, &m->args_text, &m->args);
	if (!strcmp(key, "kernel")) {
		const char *why;

		if (m->kernel)
			return fail(s, key, "given twice in [%s]", s->section);
		if (!*v)
			return 1;
		if (!plan_kernel_valid(v, &why))
			return fail(s, key, "'%s' %s", v, why);
		m->kernel = xstrdup(v);
		return 1;
	}
	if (!strcmp(key, "expect")) {
		struct verify_expect e;
		char *error = NULL;

		if (!*v)
			return 1;
		if (verify_expect_parse(v, &e, &error) < 0) {
			fail(s, key, "%s", error ? error : "not an expectation bootab knows");
			free(error);
			return 0;
		}
		verify_expect_release(&e);
		strlist_add(&m->expects, v);
		return 1;
	}
	return fail(s, key, "unknown key in [%s]", s->section);
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
		return fail(s, key, "unknown key in [%s] (a check has command, timeout, user)", s->section);
	if (!strcmp(key, "reps"))
		return parse_uint(s, key, v, 1, 10000, &r->reps);
	if (!strcmp(key, "parser")) {
		struct parse_error e = PARSE_ERROR_INIT;

		free(r->selector);   /* a later parser line replaces an earlier one */
		r->selector = NULL;
		if (parser_spec_parse(v, &r->parser, &r->selector) < 0)
			return fail(s, key, "'%s' is not a parser (auto, llama-bench, fio, hyperfine, number, json SELECTOR, "
				    "dma-map-benchmark, ktap, new-old-table, regex)", v);
		if (r->parser == PARSER_JSON && parser_selector_check(r->selector, &e) < 0) {
			fail(s, key, "%s", e.message ? e.message : "bad selector");
			parse_error_release(&e);
			return 0;
		}
		return 1;
	}
	if (!strcmp(key, "stat")) {
		int n = stat_list_parse(v, r->stats);

		if (n < 0)
			return fail(s, key, "'%s' is not mean, median, min or max, or a list of them such as mean,min", v);
		r->n_stats = (size_t)n;
		r->stat = r->stats[0];
		r->has_stat = true;
		return 1;
	}
	if (!strcmp(key, "metric")) {
		if (!printable_name(v))
			return fail(s, key, "'%s' is not a printable name of at most 64 bytes", v);
		return set_string(s, key, &r->metric, v);
	}
	if (!strcmp(key, "pattern")) {
		char *error = NULL;

		if (parser_regex_check(v, &error) < 0) {
			fail(s, key, "%s", error);
			free(error);
			return 0;
		}
		return set_string(s, key, &r->pattern, v);
	}
	if (!strcmp(key, "unit")) {
		if (!printable_name(v) || strlen(v) > 32)
			return fail(s, key, "'%s' is not a printable unit of at most 32 bytes", v);
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
			return fail(s, key, "'%s' is not higher or lower", v);
		r->has_better = true;
		r->better_lower = !strcmp(v, "lower");
		return 1;
	}
	return fail(s, key, "unknown key in [%s]", s->section);
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
	return fail(s, key, "unknown key in [idle] (load, gpu, checks, interval, timeout)");
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
		return fail(s, key, "'%s' is not an %s URL without spaces, quotes, braces or control characters",
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
	return name_valid(v) && *v != '-' && *v != '.';
}

static int lava_text_key(struct parse_state *s, const char *key, const char *v, char **field)
{
	if (strlen(v) > 256)
		return fail(s, key, "longer than 256 bytes");
	for (const char *c = v; *c; c++)
		if ((unsigned char)*c < 0x20 || *c == 0x7f)
			return fail(s, key, "holds a control character");
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
			return fail(s, key, "'%s' is not a LAVA name (1-64 letters, digits, '_', '-', '.')", v);
		if (!strcmp(key, "device_type")) {
			/* The deploy and boot actions bootab writes are the qemu device type's. */
			if (strcmp(v, "qemu"))
				return fail(s, key, "'%s': bootab writes jobs for LAVA's qemu device type only", v);
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
				ok = fail(s, key, "'%s' is not a LAVA tag (1-64 letters, digits, '_', '-', '.')",
					  words.items[i]);
			else if (strlist_find(&l->tags, words.items[i]) < 0)
				strlist_add(&l->tags, words.items[i]);
		}
		strlist_release(&words);
		return ok;
	}
	if (!strcmp(key, "token_file")) {
		if (*v != '/')
			return fail(s, key, "'%s' is not an absolute path", v);
		return lava_text_key(s, key, v, &l->token_file);
	}
	if (!strcmp(key, "token_env")) {
		for (const char *c = v; *c; c++)
			if (!(isupper((unsigned char)*c) || *c == '_' || (c > v && isdigit((unsigned char)*c))))
				return fail(s, key, "'%s' is not an environment variable name (A-Z, 0-9, '_')", v);
		return set_string(s, key, &l->token_env, v);
	}
	if (!strcmp(key, "kernel_args")) {
		struct parse_error e = PARSE_ERROR_INIT;
		char **args = NULL;
		int r = cmdline_args_parse(v, &args, &e);

		strv_free(args);
		if (r < 0) {
			fail(s, key, "%s", e.message ? e.message : "not kernel command-line args");
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
	return fail(s, key, "unknown key in [lava] (url, device, tags, device_type, arch, token_file, token_env, kernel, initramfs, kernel_args, prompt, job_timeout, poll)");
}

/* [kind] or [kind "title"] */
static int open_section(struct parse_state *s, const char *section)
{
	struct plan *p = s->plan;
	const char *q = strchr(section, '"'), *why;

	free(s->section);
	free(s->kind);
	free(s->title);
	s->section = xstrdup(section);
	s->title = NULL;
	s->current = NULL;
	s->section_line = s->line;
	if (q) {
		const char *end = strrchr(section, '"');
		size_t klen = (size_t)(q - section);

		while (klen > 0 && section[klen - 1] == ' ')
			klen--;
		s->kind = xstrndup(section, klen);
		if (end == q || end[1] != '\0')
			return fail(s, NULL, "section [%s]: expected [%s \"NAME\"]", section, s->kind);
		s->title = xstrndup(q + 1, (size_t)(end - q - 1));
		if (!name_valid(s->title))
			return fail(s, NULL, "section [%s]: the name must be 1-64 letters, digits, '_', '-' or '.'", section);
		/* A mode names side directories, a row the directories of its outputs. */
		if (strcmp(s->kind, "version") && results_name_reserved(s->title, &why))
			return fail(s, NULL, "section [%s]: '%s' cannot name a %s: %s", section, s->title,
				    strcmp(s->kind, "mode") ? s->kind : "mode (its boots are directories of the campaign)",
				    why);
	} else {
		s->kind = xstrdup(section);
	}

	if (!strcmp(s->kind, "mode")) {
		struct plan_mode *m;

		if (!s->title)
			return fail(s, NULL, "section [mode] needs a name: [mode \"NAME\"]");
		if (plan_find_mode(p, s->title))
			return fail(s, NULL, "section [%s]: mode '%s' is defined twice", section, s->title);
		GROW(p->modes, p->alloc_modes, p->n_modes + 1);
		m = &p->modes[p->n_modes++];
		memset(m, 0, sizeof(*m));
		m->name = xstrdup(s->title);
		m->line = s->line;
		s->current = m;
	} else if (!strcmp(s->kind, "factor")) {
		struct plan_factor *f;

		if (!s->title)
			return fail(s, NULL, "section [factor] needs a name: [factor \"NAME\"]");
		for (size_t i = 0; i < p->n_factors; i++)
			if (!strcmp(p->factors[i].name, s->title))
				return fail(s, NULL, "section [%s]: factor '%s' is defined twice", section, s->title);
		if (p->n_factors == DESIGN_MAX_FACTORS)
			return fail(s, NULL, "section [%s]: a design takes at most %d factors", section, DESIGN_MAX_FACTORS);
		GROW(p->factors, p->alloc_factors, p->n_factors + 1);
		f = &p->factors[p->n_factors++];
		memset(f, 0, sizeof(*f));
		f->name = xstrdup(s->title);
		f->line = s->line;
		s->current = f;
	} else if (!strcmp(s->kind, "row") || !strcmp(s->kind, "check")) {
		struct plan_row *r;

		if (!s->title)
			return fail(s, NULL, "section [%s] needs a name: [%s \"NAME\"]", s->kind, s->kind);
		for (size_t i = 0; i < p->n_rows; i++)
			if (!strcmp(p->rows[i].name, s->title))
				return fail(s, NULL, "section [%s]: the name '%s' is used twice", section, s->title);
		GROW(p->rows, p->alloc_rows, p->n_rows + 1);
		r = &p->rows[p->n_rows++];
		memset(r, 0, sizeof(*r));
		r->name = xstrdup(s->title);
		r->check = !strcmp(s->kind, "check");
		r->line = s->line;
		s->current = r;
	} else if (!strcmp(s->kind, "version")) {
		struct plan_version *v;

		if (!s->title)
			return fail(s, NULL, "section [version] needs a name: [version \"NAME\"]");
		for (size_t i = 0; i < p->n_versions; i++)
			if (!strcmp(p->versions[i].name, s->title))
				return fail(s, NULL, "section [%s]: version '%s' is defined twice", section, s->title);
		GROW(p->versions, p->alloc_versions, p->n_versions + 1);
		v = &p->versions[p->n_versions++];
		memset(v, 0, sizeof(*v));
		v->name = xstrdup(s->title);
		v->line = s->line;
		s->current = v;
	} else if (!strcmp(s->kind, "campaign") || !strcmp(s->kind, "idle") || !strcmp(s->kind, "lava") ||
		   !strcmp(s->kind, "park") || !strcmp(s->kind, "unpark") || !strcmp(s->kind, "prepare")) {
		if (s->title)
			return fail(s, NULL, "section [%s] takes no name", s->kind);
		if (!strcmp(s->kind, "lava")) {
			if (p->lava.present)
				return fail(s, NULL, "section [lava] is given twice");
			p->lava.present = true;
			p->lava.line = s->line;
		}
	} else {
		return fail(s, NULL, "unknown section [%s] (campaign, mode, factor, row, check, version, idle, lava, park, unpark, prepare)",
			    section);
	}
	return 1;
}

static int handler(void *user, const char *section, const char *key, const char *value)
{
	struct parse_state *s = user;

	if (s->failed)
		return 0;
	if (!*section)
		return fail(s, key, "outside any section");
	if (!s->section || strcmp(s->section, section))
		return fail(s, key, "in a section bootab could not read");
	if (!key)
		return 1;
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
			return fail(s, key, "unknown key in [%s] (command)", s->section);
		append_command(&v->command, value);
		return 1;
	}
	if (!strcmp(s->kind, "idle"))
		return idle_key(s, key, value);
	if (!strcmp(s->kind, "lava"))
		return lava_key(s, key, value);
	if (!strcmp(s->kind, "park") || !strcmp(s->kind, "unpark") || !strcmp(s->kind, "prepare")) {
		if (strcmp(key, "command"))
			return fail(s, key, "unknown key in [%s] (command)", s->kind);
		strlist_add(!strcmp(s->kind, "park") ? &s->plan->park : !strcmp(s->kind, "unpark") ? &s->plan->unpark
			    : &s->plan->prepare, value);
		return 1;
	}
	return fail(s, key, "unexpected");
}

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
			ok = fail(s, NULL, "boots %zu and %zu would both be labelled '%s' (boot %u of mode '%s' and boot %u of mode '%s'): rename mode '%s'",
				  a + 1, b + 1, boots[a].label, oa, ma->name, ob, mb->name, rename->name);
		else
			ok = fail(s, NULL, "boots %zu and %zu would both be labelled '%s' (boot %u of mode '%s' and boot %u of mode '%s'): rename mode '%s' or '%s'",
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
			return fail(s, "target", "lava needs a [lava] section (url, device or tags, token_file or token_env, kernel, initramfs, prompt)");
		}
		return 1;
	}
	s->line = l->line;
	if (!plan_is_lava(p))
		return fail(s, NULL, "section [lava] is for target = lava");
	for (size_t i = 0; i < 4; i++) {
		const char *have[] = { l->url, l->kernel, l->initramfs, l->prompt };

		if (!have[i])
			return fail(s, need[i], "missing in [lava]");
	}
	if (!l->device && !l->tags.n)
		return fail(s, "device", "missing in [lava]: the jobs are pinned by device, tags or both");
	if (!l->token_file == !l->token_env)
		return fail(s, "token_file", "[lava] takes token_file or token_env: one of them");
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
			return fail(s, "kernel", "a LAVA campaign's jobs deploy [lava] kernel: a mode names no kernel");
	}
	if (p->power_cycle) {
		s->line = 0;
		return fail(s, "power_cycle", "LAVA powers its devices: target = lava takes no power_cycle");
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

/* The design's run r as a mode: the args of the factors it sets, in factor order. */
static void design_mode(struct plan *p, size_t r, int width, struct plan_mode *m)
{
	struct strvec args = STRVEC_INIT;
	struct strbuf text = STRBUF_INIT;

	memset(m, 0, sizeof(*m));
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
		return p->design_kind ? fail(s, "design", "takes [factor \"NAME\"] sections: a design is over factors") : 1;
	}
	for (size_t i = 0; i < p->n_factors; i++) {
		s->line = p->factors[i].line;
		if (!p->factors[i].args || !p->factors[i].args[0])
			return fail(s, "args", "missing in [factor \"%s\"]: a factor is the args it sets", p->factors[i].name);
		for (size_t j = 0; j < i; j++)
			if (factors_overlap(&p->factors[i], &p->factors[j], &name)) {
				fail(s, "args", "'%s' is set by factor '%s' too: each parameter belongs to one factor",
				     name, p->factors[j].name);
				free(name);
				return 0;
			}
	}
	if (!p->design_kind)
		p->design_kind = PLAN_DESIGN_SCREEN;
	if (design_build(p->n_factors, p->design_kind == PLAN_DESIGN_FULL, &p->design) < 0) {
		s->line = p->design_line;
		return fail(s, "design", "full takes at most %d factors (2^%d boots a round); design = screen takes more",
			    DESIGN_FULL_MAX, DESIGN_FULL_MAX);
	}
	n_runs = p->design.n_runs;
	for (size_t n = n_runs; n >= 100; n /= 10)
		width++;
	modes = xcalloc(n_runs + p->n_modes, sizeof(*modes));
	for (size_t r = 0; r < n_runs; r++)
		design_mode(p, r, width, &modes[r]);
	for (size_t i = 0; i < p->n_modes; i++)
		for (size_t r = 0; r < n_runs; r++)
			if (!strcmp(p->modes[i].name, modes[r].name)) {
				s->line = p->modes[i].line;
				fail(s, NULL, "mode '%s' has the name of a run of the factors' design: rename it", modes[r].name);
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

static int validate(struct parse_state *s)
{
	struct plan *p = s->plan;

	if (p->target && (p->targets.n || p->inventory)) {
		s->line = p->targets.n ? p->targets_line : p->inventory_line;
		return fail(s, p->targets.n ? "targets" : "inventory", "a plan names one target, or a fleet with targets or inventory, not both");
	}
	if (p->targets.n && p->inventory) {
		s->line = p->inventory_line;
		return fail(s, "inventory", "a fleet is named by targets or by an inventory, not both");
	}
	if (p->group && !p->inventory) {
		s->line = 0;
		return fail(s, "group", "takes an inventory: the group is one of the inventory's");
	}
	if (p->box_timeout_s && !p->targets.n && !p->inventory) {
		s->line = p->box_timeout_line;
		return fail(s, "box_timeout", "takes a fleet (targets or inventory): one box's campaign is bounded by boot_timeout and each row's timeout");
	}
	if (!validate_design(s))
		return 0;
	s->line = 0;
	if (p->n_modes == 0)
		return fail(s, NULL, "no [mode \"NAME\"] section: a campaign needs at least one mode");
	for (size_t i = 0; i < p->n_modes; i++)
		if (!p->modes[i].args) {
			/* An empty or absent args: the standing kernel defaults. */
			p->modes[i].args = xcalloc(1, sizeof(char *));
			p->modes[i].args_text = xstrdup("");
		}
	if (!validate_lava(s))
		return 0;
	if (p->prepare.n && plan_is_lava(p))
		return fail(s, "prepare", "[prepare] is for boxes bootab reaches over SSH or runs on: a LAVA job's test runs the rows alone");
	for (size_t i = 0; i < p->n_rows; i++) {
		struct plan_row *r = &p->rows[i];

		if (!r->command) {
			s->line = r->line;
			return fail(s, "command", "missing in [%s \"%s\"]", r->check ? "check" : "row", r->name);
		}
		if (!r->reps)
			r->reps = r->check ? 1 : p->default_reps;
		if (!r->timeout_s)
			r->timeout_s = 3600;
		if (r->has_better && r->parser != PARSER_NUMBER && r->parser != PARSER_JSON && r->parser != PARSER_REGEX) {
			s->line = r->line;
			return fail(s, "better", "only number, json and regex rows take 'better'; other parsers know their metrics");
		}
		if (r->parser == PARSER_REGEX) {
			static const char *const need[] = { "metric", "pattern", "better" };
			const bool have[] = { r->metric != NULL, r->pattern != NULL, r->has_better };

			for (size_t k = 0; k < 3; k++)
				if (!have[k]) {
					s->line = r->line;
					return fail(s, need[k], "missing in [row \"%s\"]: parser = regex needs metric, pattern and better",
						    r->name);
				}
		} else if (r->metric || r->pattern || r->unit) {
			s->line = r->line;
			return fail(s, r->metric ? "metric" : r->pattern ? "pattern" : "unit",
				    "only regex rows (parser = regex) take metric, pattern and unit");
		}
	}
	for (size_t i = 0; i < p->n_versions; i++)
		if (!p->versions[i].command) {
			s->line = p->versions[i].line;
			return fail(s, "command", "missing in [version \"%s\"]", p->versions[i].name);
		}
	if (p->order_kind == ORDER_LIST) {
		if (p->order_list.n < 2)
			return fail(s, "order", "an explicit order needs at least two boots");
		for (size_t i = 0; i < p->order_list.n; i++)
			if (!plan_find_mode(p, p->order_list.items[i]))
				return fail(s, "order", "'%s' is not a mode of this plan", p->order_list.items[i]);
		if (p->rounds > 1)
			return fail(s, "rounds", "an explicit order is the whole campaign; rounds does not apply");
	}
	if (p->has_max_rounds && !p->rounds_auto) {
		s->line = p->max_rounds_line;
		return fail(s, "max_rounds", "only with rounds = auto (a fixed campaign has its rounds)");
	}
	if (p->rounds_auto) {
		/* Each round is closed by the first mode: the campaign can stop there. */
		s->line = p->rounds_line;
		if (p->order_kind != ORDER_DEFAULT)
			return fail(s, "rounds", "rounds = auto works with the default order only (every mode once per round, the first mode closing it)");
		p->rounds = p->max_rounds;
	}
	if (!labels_unique(s))
		return 0;
	if (p->watch) {
		for (const char *c = p->watch; *c; c++)
			if (!isalnum((unsigned char)*c) && !strchr(":._-", *c))
				return fail(s, "watch", "'%s' is not a device address", p->watch);
	}
	return 1;
}

int plan_parse(const char *name, const char *text, struct plan *ret, struct parse_error *err)
{
	struct plan plan = { 0 };
	struct parse_state s = { .plan = &plan, .err = err, .name = name, .text = text, .p = text, .line = 1 };
	int r;

	plan.file = xstrdup(name);
	plan.rounds = 1;
	plan.max_rounds = PLAN_MAX_ROUNDS_DEFAULT;
	plan.default_reps = 5;
	plan.poll_s = 60;
	plan.boot_timeout_s = 600;
	plan.backend = xstrdup("auto");
	plan.idle = (struct plan_idle){ .load = 1.0, .gpu_pct = 5, .checks = 6, .interval_s = 10 };

	/* Shell commands carry ';' and long lines: no inline comments, a generous line limit. */
	ini_allow_inline_comments = false;
	ini_allow_multiline = true;
	ini_use_stack = false;
	ini_allow_realloc = true;
	ini_max_line = PLAN_MAX_LINE;
	ini_stop_on_first_error = true;
	ini_allow_no_value = false;

	parse_error_set_file(err, name);
	r = ini_parse_stream(reader, &s, handler, &s);
	if (r > 0 && !s.failed) {
		s.line = (unsigned)r;
		fail(&s, NULL, "not a key = value line or a [section] header");
	}
	if (r < 0 && !s.failed)
		fail(&s, NULL, "cannot parse (out of memory)");
	if (!s.failed)
		validate(&s);
	free(s.section);
	free(s.kind);
	free(s.title);
	if (s.failed) {
		plan_release(&plan);
		return -EINVAL;
	}
	*ret = plan;
	return 0;
}

int plan_load(const char *path, struct plan *ret, struct parse_error *err)
{
	char *data;
	size_t len;
	int r;

	parse_error_set_file(err, path);
	r = file_read(path, PLAN_MAX_BYTES, &data, &len);
	if (r < 0) {
		parse_error_set(err, 0, 0, "%s", r == -EFBIG ? "larger than 1 MiB" : strerror(-r));
		return r;
	}
	if (memchr(data, '\0', len)) {
		parse_error_set(err, 0, 0, "contains a NUL byte: not a plan file");
		free(data);
		return -EINVAL;
	}
	r = plan_parse(path, data, ret, err);
	free(data);
	return r;
}

bool plan_is_lava(const struct plan *plan)
{
	return plan->target && !strcmp(plan->target, "lava");
}

const char *plan_row_perf(const struct plan *plan, const struct plan_row *row)
{
	if (row->check || row->perf_off)
		return NULL;
	return row->perf ? row->perf : plan->perf;
}

bool plan_row_perf_system(const struct plan *plan, const struct plan_row *row)
{
	return row->has_perf_scope ? row->perf_system : plan->perf_system;
}

bool plan_row_energy(const struct plan *plan, const struct plan_row *row)
{
	return !row->check && (row->has_energy ? row->energy : plan->energy);
}

const struct plan_mode *plan_find_mode(const struct plan *plan, const char *name)
{
	for (size_t i = 0; i < plan->n_modes; i++)
		if (!strcmp(plan->modes[i].name, name))
			return &plan->modes[i];
	return NULL;
}

static size_t mode_index(const struct plan *plan, const char *name)
{
	return (size_t)(plan_find_mode(plan, name) - plan->modes);
}

static void push(struct plan_boot **boots, size_t *n, size_t *alloc, size_t mode, unsigned round)
{
	GROW(*boots, *alloc, *n + 1);
	(*boots)[*n] = (struct plan_boot){ .mode = mode, .round = round };
	(*n)++;
}

size_t plan_boots(const struct plan *plan, struct plan_boot **ret_boots)
{
	struct plan_boot *boots = NULL;
	size_t n = 0, alloc = 0, m = plan->n_modes;
	unsigned *seen;

	switch (plan->order_kind) {
	case ORDER_LIST:
		for (size_t i = 0; i < plan->order_list.n; i++)
			push(&boots, &n, &alloc, mode_index(plan, plan->order_list.items[i]), 1);
		break;
	case ORDER_AA:
		/* rounds + 1 boots of the first mode: rounds boot-to-boot differences. */
		for (unsigned r = 1; r <= plan->rounds + 1; r++)
			push(&boots, &n, &alloc, 0, r);
		break;
	case ORDER_ABBA:
		for (unsigned r = 1; r <= plan->rounds; r++) {
			for (size_t i = 0; i < m; i++)
				push(&boots, &n, &alloc, i, r);
			for (size_t i = m; i-- > 0;)
				push(&boots, &n, &alloc, i, r);
		}
		break;
	case ORDER_RANDOM: {
		gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
		size_t *perm = xmalloc(m * sizeof(*perm));

		gsl_rng_set(rng, plan->seed);
		for (unsigned r = 1; r <= plan->rounds; r++) {
			for (size_t i = 0; i < m; i++)
				perm[i] = i;
			/* Fisher-Yates with the recorded seed. */
			for (size_t i = m; i > 1; i--) {
				size_t j = gsl_rng_uniform_int(rng, i);
				size_t t = perm[i - 1];

				perm[i - 1] = perm[j];
				perm[j] = t;
			}
			for (size_t i = 0; i < m; i++)
				push(&boots, &n, &alloc, perm[i], r);
		}
		/* The first mode also opens and closes the campaign, for the drift. */
		if (n == 0 || boots[0].mode != 0) {
			GROW(boots, alloc, n + 1);
			memmove(boots + 1, boots, n * sizeof(*boots));
			boots[0] = (struct plan_boot){ .mode = 0, .round = 1 };
			n++;
		}
		push(&boots, &n, &alloc, 0, plan->rounds);
		free(perm);
		gsl_rng_free(rng);
		break;
	}
	case ORDER_DEFAULT:
	default:
		for (unsigned r = 1; r <= plan->rounds; r++)
			for (size_t i = 0; i < m; i++)
				push(&boots, &n, &alloc, i, r);
		push(&boots, &n, &alloc, 0, plan->rounds);
		break;
	}
	seen = xcalloc(m, sizeof(*seen));
	for (size_t i = 0; i < n; i++) {
		unsigned k = ++seen[boots[i].mode];

		boots[i].label = k == 1 ? xstrdup(plan->modes[boots[i].mode].name)
					: xasprintf("%s%u", plan->modes[boots[i].mode].name, k);
	}
	free(seen);
	*ret_boots = boots;
	return n;
}

void plan_boots_free(struct plan_boot *boots, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(boots[i].label);
	free(boots);
}

bool plan_kernel_valid(const char *s, const char **ret_why)
{
	bool path = s[0] == '/';

	if (!*s) {
		*ret_why = "is empty";
		return false;
	}
	if (strlen(s) > 255) {
		*ret_why = "is longer than 255 characters";
		return false;
	}
	for (const char *c = s; *c; c++)
		if (!(isalnum((unsigned char)*c) || strchr("._+~-", *c) || (path && *c == '/'))) {
			*ret_why = path ? "is not a path bootab takes: only letters, digits, / . _ + ~ -"
					: "is not a kernel release (as uname -r prints it) or an absolute /boot path";
			return false;
		}
	if (!path) {
		if (s[0] == '-' || s[0] == '.') {
			*ret_why = "is not a kernel release: it begins with '-' or '.'";
			return false;
		}
		return true;
	}
	if (strncmp(s, "/boot/", 6) || !s[6]) {
		*ret_why = "is a path outside /boot (a kernel image is /boot/NAME)";
		return false;
	}
	for (const char *c = s; *c; c++)
		if (*c == '/' && (!strncmp(c, "/../", 4) || !strcmp(c, "/..") || !strncmp(c, "/./", 3) ||
				  !strcmp(c, "/.") || c[1] == '/' || !c[1])) {
			*ret_why = "is not a plain path (no '.', '..', '//' or trailing '/')";
			return false;
		}
	return true;
}

bool plan_has_kernels(const struct plan *plan)
{
	for (size_t i = 0; i < plan->n_modes; i++)
		if (plan->modes[i].kernel)
			return true;
	return false;
}

char **plan_managed_args(const struct plan *plan)
{
	struct strvec out = STRVEC_INIT;

	for (size_t i = 0; i < plan->n_modes; i++)
		for (char **a = plan->modes[i].args; a && *a; a++) {
			size_t nl = strcspn(*a, "=");
			bool known = false;

			for (size_t j = 0; j < out.n && !known; j++) {
				size_t ml = strcspn(out.v[j], "=");
				char *x = xstrndup(*a, nl), *y = xstrndup(out.v[j], ml);

				known = cmdline_name_equal(x, y);
				free(x);
				free(y);
			}
			if (!known)
				strvec_push(&out, *a);
		}
	return strvec_detach(&out);
}

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

void plan_release(struct plan *p)
{
	for (size_t i = 0; i < p->n_modes; i++) {
		free(p->modes[i].name);
		free(p->modes[i].args_text);
		free(p->modes[i].kernel);
		strv_free(p->modes[i].args);
		strlist_release(&p->modes[i].expects);
	}
	for (size_t i = 0; i < p->n_rows; i++) {
		free(p->rows[i].name);
		free(p->rows[i].command);
		free(p->rows[i].selector);
		free(p->rows[i].user);
		free(p->rows[i].metric);
		free(p->rows[i].pattern);
		free(p->rows[i].unit);
		free(p->rows[i].perf);
	}
	for (size_t i = 0; i < p->n_versions; i++) {
		free(p->versions[i].name);
		free(p->versions[i].command);
	}
	for (size_t i = 0; i < p->n_factors; i++) {
		free(p->factors[i].name);
		free(p->factors[i].args_text);
		strv_free(p->factors[i].args);
	}
	free(p->factors);
	design_release(&p->design);
	free(p->modes);
	free(p->rows);
	free(p->versions);
	free(p->file);
	free(p->target);
	strlist_release(&p->targets);
	free(p->inventory);
	free(p->group);
	free(p->backend);
	free(p->data_dir);
	free(p->history);
	free(p->power_cycle);
	free(p->watch);
	free(p->perf);
	strlist_release(&p->order_list);
	strlist_release(&p->park);
	strlist_release(&p->ignore);
	strlist_release(&p->unpark);
	strlist_release(&p->prepare);
	free(p->lava.url);
	free(p->lava.device);
	strlist_release(&p->lava.tags);
	free(p->lava.device_type);
	free(p->lava.arch);
	free(p->lava.token_file);
	free(p->lava.token_env);
	free(p->lava.kernel);
	free(p->lava.initramfs);
	free(p->lava.kernel_args);
	free(p->lava.prompt);
	memset(p, 0, sizeof(*p));
}
