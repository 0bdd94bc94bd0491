/*
 * bootab set: the toggle. Strip every managed arg from every boot entry,
 * add the mode's args, then read back the default entry and what the next
 * kernel install inherits, and check both before anything reboots.
 */
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "boot/boot.h"
#include "boot/set.h"
#include "kernel/cmdline.h"
#include "kernel/param-values.h"
#include "commands.h"
#include "lib/alloc.h"
#include "lib/escape.h"
#include "lib/file.h"
#include "lib/strbuf.h"
#include "target/boot-io-target.h"
#include "cli/log.h"
#include "target/target.h"
#include "cli/target-args.h"

static const char cmd_set_usage[] =
	"usage: bootab set --managed ARGS --args ARGS [--target T] [--backend NAME]\n"
	"                  [--root DIR] [--connect-timeout S] [--dry-run] [--json]\n"
	"\n"
	"Strips every managed kernel arg from every boot entry, adds the mode's\n"
	"args, and checks the default entry and what the next kernel install\n"
	"inherits. Managed args are matched by name: managing iommu=pt owns every\n"
	"iommu=... ('-' and '_' are the same in names). The mode's args are always\n"
	"managed too. --args \"\" strips the managed args and adds nothing.\n"
	"\n"
	"  --managed ARGS   the args every mode of the plan uses (space separated)\n"
	"  --args ARGS      this mode's args\n"
	"  --target T       local (default), lab, or an SSH destination\n"
	"  --backend NAME   auto (default), grubby, bls, kernel-cmdline, grub, kexec\n"
	"  --root DIR       work on the tree under DIR instead of / (tests)\n"
	"  --connect-timeout S  ssh ConnectTimeout (default 5)\n"
	"  --dry-run        print every file change and command instead of doing it\n"
	"  --json           print the result as JSON\n";

struct set_options {
	const char *managed;
	const char *args;
	const char *backend;
	struct target_args target;  /* --target, --root, --connect-timeout */
	bool dry_run;
	bool json;
};

static int parse_options(int argc, char **argv, struct set_options *o)
{
	static const struct option long_options[] = {
		{ "managed", required_argument, NULL, 'm' },
		{ "args", required_argument, NULL, 'a' },
		{ "backend", required_argument, NULL, 'b' },
		TARGET_LONGOPT_ROOT,
		TARGET_LONGOPT_TARGET,
		TARGET_LONGOPT_CONNECT_TIMEOUT,
		{ "dry-run", no_argument, NULL, 'n' },
		{ "json", no_argument, NULL, 'j' },
		{ NULL, 0, NULL, 0 },
	};
	int c, r;

	memset(o, 0, sizeof(*o));
	o->target = (struct target_args)TARGET_ARGS_INIT("set", NULL);
	o->backend = "auto";
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":", long_options, NULL)) != -1) {
		r = target_args_take(&o->target, c, optarg);
		if (r < 0)
			return r;
		if (r > 0)
			continue;
		switch (c) {
		case 'm': o->managed = optarg; break;
		case 'a': o->args = optarg; break;
		case 'b': o->backend = optarg; break;
		case 'n': o->dry_run = true; break;
		case 'j': o->json = true; break;
		default:
			command_option_error("set", c, argv);
			return -EINVAL;
		}
	}
	if (optind < argc) {
		command_usage_error("set", "set: unexpected argument '%s'", argv[optind]);
		return -EINVAL;
	}
	if (!o->args || !o->managed) {
		command_usage_error("set", "set: --managed and --args are both required (--args \"\" adds nothing)");
		return -EINVAL;
	}
	return 0;
}

static char **parse_arg_list(const char *option, const char *text, bool check_values)
{
	struct parse_error err = PARSE_ERROR_INIT;
	char **args = NULL;

	char *why = NULL;

	if (cmdline_args_parse(text, &args, &err) < 0) {
		log_error("set: %s: %s (column %u)", option, err.message, err.column);
		parse_error_release(&err);
		return NULL;
	}
	/* The mode's values, known before the reboot (kernel/param-values.h). */
	if (check_values && param_values_check(args, &why) < 0) {
		char *safe = text_escape(why);

		log_error("set: %s: %s", option, safe);
		free(safe);
		free(why);
		strv_free(args);
		return NULL;
	}
	return args;
}

static char **strv_concat(char *const *a, char *const *b)
{
	size_t n = 0, k = 0;
	char **v;

	while (a[n])
		n++;
	while (b[k])
		k++;
	v = xcalloc(n + k + 1, sizeof(char *));
	for (size_t i = 0; i < n; i++)
		v[i] = xstrdup(a[i]);
	for (size_t i = 0; i < k; i++)
		v[n + i] = xstrdup(b[i]);
	return v;
}

static char *join_words(char *const *v)
{
	struct strbuf sb = STRBUF_INIT;

	for (size_t i = 0; v && v[i]; i++) {
		if (i)
			strbuf_addch(&sb, ' ');
		strbuf_addstr(&sb, v[i]);
	}
	return strbuf_detach(&sb, NULL);
}

/* A word as a reader can paste it into sh (display only: nothing runs it). */
static void add_shell_word(struct strbuf *sb, const char *w)
{
	bool plain = *w;

	for (const char *p = w; *p; p++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.,:/=+@%", *p))
			plain = false;
	if (plain) {
		strbuf_addstr(sb, w);
		return;
	}
	strbuf_addch(sb, '\'');
	for (const char *p = w; *p; p++) {
		if (*p == '\'')
			strbuf_addstr(sb, "'\\''");
		else
			strbuf_addch(sb, *p);
	}
	strbuf_addch(sb, '\'');
}

static char *shell_line(char *const *argv)
{
	struct strbuf sb = STRBUF_INIT;

	for (size_t i = 0; argv[i]; i++) {
		if (i)
			strbuf_addch(&sb, ' ');
		add_shell_word(&sb, argv[i]);
	}
	return strbuf_detach(&sb, NULL);
}

/* Lines of text, without their '\n'. */
static char **split_lines(const char *text, size_t *ret_n)
{
	char **v = xcalloc(1, sizeof(char *));
	size_t n = 0;

	for (const char *p = text; *p;) {
		const char *end = strchr(p, '\n');
		size_t len = end ? (size_t)(end - p) : strlen(p);

		v = xrealloc(v, (n + 2) * sizeof(char *));
		v[n++] = xstrndup(p, len);
		v[n] = NULL;
		p += len + (end ? 1 : 0);
	}
	*ret_n = n;
	return v;
}

/* One hunk: the lines between the common head and the common tail. */
static void print_change(const struct boot_action *a)
{
	size_t n_old = 0, n_new = 0, head = 0, tail = 0;
	char **old = split_lines(a->old_data ? a->old_data : "", &n_old);
	char **new = split_lines(a->new_data, &n_new);

	printf("write %s%s\n", a->path, a->old_data ? "" : " (new file)");
	while (head < n_old && head < n_new && !strcmp(old[head], new[head]))
		head++;
	while (tail < n_old - head && tail < n_new - head &&
	       !strcmp(old[n_old - 1 - tail], new[n_new - 1 - tail]))
		tail++;
	printf("  @@ line %zu @@\n", head + 1);
	for (size_t i = head; i < n_old - tail; i++)
		printf("  -%s\n", old[i]);
	for (size_t i = head; i < n_new - tail; i++)
		printf("  +%s\n", new[i]);
	strv_free(old);
	strv_free(new);
}

static json_t *json_string_or_null(const char *s)
{
	return s ? json_string(s) : json_null();
}

static json_t *json_strv(char *const *v)
{
	json_t *a = json_array();

	for (size_t i = 0; v && v[i]; i++)
		json_array_append_new(a, json_string(v[i]));
	return a;
}

static json_t *json_plan(const struct boot_plan *plan)
{
	json_t *actions = json_array();

	for (size_t i = 0; i < plan->n_actions; i++) {
		const struct boot_action *a = &plan->actions[i];

		if (a->kind == BOOT_ACTION_WRITE)
			json_array_append_new(actions, json_pack("{s:s, s:o, s:s}", "write", a->path,
								 "old", json_string_or_null(a->old_data),
								 "new", a->new_data));
		else
			json_array_append_new(actions, json_pack("{s:o}", "run", json_strv(a->argv)));
	}
	return actions;
}

static json_t *json_state(const struct boot_state *s)
{
	json_t *entries = json_array(), *def = json_null();

	for (size_t i = 0; i < s->n_entries; i++)
		json_array_append_new(entries, json_pack("{s:s, s:s}", "name", s->entries[i].name,
							 "args", s->entries[i].args));
	if (s->has_default)
		def = json_pack("{s:s, s:o, s:s}", "entry", s->entries[s->default_index].name,
				"rule", json_string_or_null(s->default_rule),
				"args", s->entries[s->default_index].args);
	return json_pack("{s:o, s:o, s:{s:o, s:o, s:o}}", "entries", entries, "default", def,
			 "inherit", "source", json_string_or_null(s->inherit_source),
			 "args", json_string_or_null(s->inherit_args),
			 "note", json_string_or_null(s->inherit_note));
}

static void print_state(const struct boot_state *s)
{
	if (s->has_default) {
		printf("default entry: %s (%s)\n", s->entries[s->default_index].name,
		       s->default_rule ? s->default_rule : "");
		printf("  args: %s\n", s->entries[s->default_index].args);
	}
	for (size_t i = 0; i < s->n_entries; i++)
		if (!s->has_default || i != s->default_index)
			printf("other entry: %s\n  args: %s\n", s->entries[i].name, s->entries[i].args);
	printf("next kernel install inherits: %s\n", s->inherit_source ? s->inherit_source : "unknown");
	if (s->inherit_args)
		printf("  args: %s\n", s->inherit_args);
	if (s->inherit_note)
		printf("  note: %s\n", s->inherit_note);
}

static void log_parse_error(const char *prefix, const struct parse_error *err)
{
	char *m = parse_error_format(err);

	log_error("%s%s", prefix, m);
	free(m);
}

/*
 * The boot files set works on: the local tree (--root, default /) or a
 * box, reached as root. NULL when that fails (said on stderr).
 */
static struct boot_io *set_open_io(const struct target_args *t, struct target **ret_target)
{
	struct boot_io *io;
	char *error = NULL;
	int r;

	if (!t->spec || !strcmp(t->spec, "local")) {
		io = boot_io_local_new(t->root);
		if (!io)
			log_error("set: --root '%s' is not a directory", t->root);
		return io;
	}
	if (t->root) {
		log_error("set: --root works with the local target only");
		return NULL;
	}
	r = target_open_default(t->spec, NULL, t->connect_timeout_s, ret_target, &error);
	if (r < 0) {
		log_error("set: %s", error);
		free(error);
		return NULL;
	}
	/* Root first: a refused sudo password is said as such, before anything is read. */
	r = target_probe_root(*ret_target);
	if (r < 0) {
		log_error("set: %s", target_error(*ret_target));
		return NULL;
	}
	return boot_io_target_new(*ret_target);
}

/* --json: the backend, what it was found by, and the plan's notes and actions. */
static json_t *json_plan_head(const struct boot_backend *backend, const char *found, bool dry_run,
			      const struct boot_plan *plan)
{
	json_t *out = json_pack("{s:s, s:o, s:b, s:o, s:o}", "backend", backend->name,
				"found", json_string_or_null(found), "dry_run", dry_run,
				"notes", json_array(), "actions", json_plan(plan));

	for (size_t i = 0; i < plan->n_notes; i++)
		json_array_append_new(json_object_get(out, "notes"), json_string(plan->notes[i]));
	return out;
}

static void print_plan_head(const struct boot_backend *backend, const struct boot_plan *plan)
{
	printf("backend: %s\n", backend->name);
	for (size_t i = 0; i < plan->n_notes; i++)
		printf("note: %s\n", plan->notes[i]);
}

/* --dry-run: every file change and command of plan, nothing done. */
static void print_dry_run(const struct boot_plan *plan)
{
	for (size_t i = 0; i < plan->n_actions; i++) {
		const struct boot_action *a = &plan->actions[i];

		if (a->kind == BOOT_ACTION_WRITE) {
			print_change(a);
		} else {
			char *line = shell_line(a->argv);

			printf("run %s\n", line);
			free(line);
		}
	}
	if (!boot_plan_changes(plan))
		printf("nothing to change\n");
	printf("dry run: nothing was changed\n");
}

/* What plan changed and ran, one line each. */
static void print_done(const struct boot_plan *plan)
{
	for (size_t i = 0; i < plan->n_actions; i++) {
		const struct boot_action *a = &plan->actions[i];
		char *line = a->kind == BOOT_ACTION_RUN ? shell_line(a->argv) : NULL;

		printf("%s %s\n", line ? "ran" : "changed", line ? line : a->path);
		free(line);
	}
}

/* The passed read-back check, naming what the entries now carry. */
static void print_check_ok(const struct boot_state *after, char **args)
{
	char *asked = join_words(args);
	const char *what = after->inherit_checked ? "the entries and the inherited args" : "the entries";

	if (*asked)
		printf("check: ok: %s carry '%s' and no other managed arg\n", what, asked);
	else
		printf("check: ok: %s carry no managed arg\n", what);
	free(asked);
}

static int cmd_set(int argc, char **argv)
{
	struct set_options o;
	struct parse_error err = PARSE_ERROR_INIT;
	struct boot_plan plan = BOOT_PLAN_INIT;
	struct boot_state before = BOOT_STATE_INIT, after = BOOT_STATE_INIT;
	char **problems = NULL;
	const struct boot_backend *backend = NULL;
	struct boot_io *io = NULL;
	struct target *target = NULL;
	char **managed_arg = NULL, **args = NULL, **managed = NULL, *found = NULL;
	bool have_before = false;
	json_t *out = NULL;
	int r, status = EXIT_USAGE;

	if (parse_options(argc, argv, &o) < 0)
		return EXIT_USAGE;
	managed_arg = parse_arg_list("--managed", o.managed, false);
	args = managed_arg ? parse_arg_list("--args", o.args, true) : NULL;
	if (!args)
		goto out;
	managed = strv_concat(managed_arg, args);
	if (!managed[0]) {
		log_error("set: --managed and --args are both empty: nothing to set");
		goto out;
	}
	if (strcmp(o.backend, "auto")) {
		backend = boot_backend_find(o.backend);
		if (!backend) {
			log_error("set: unknown backend '%s' (auto, grubby, bls, kernel-cmdline, grub, kexec)",
				  o.backend);
			goto out;
		}
	}
	io = set_open_io(&o.target, &target);
	if (!io)
		goto out;
	if (!backend) {
		r = boot_backend_detect(io, &backend, &found);
		if (r < 0) {
			log_error("set: no boot loader backend fits %s (looked for grubby, loader/entries, "
				  "/etc/kernel/cmdline, /etc/default/grub)%s%s", io->description,
				  r == -ENODEV ? "" : ": ", r == -ENODEV ? "" : errno_string(r));
			goto out;
		}
		log_info("set: backend %s (found %s)", backend->name, found);
	}

	r = backend->plan(io, managed, args, NULL, &plan, &err);
	if (r < 0) {
		log_parse_error("set: ", &err);
		goto out;
	}
	if (o.json)
		out = json_plan_head(backend, found, o.dry_run, &plan);
	else
		print_plan_head(backend, &plan);
	if (o.dry_run) {
		if (!o.json)
			print_dry_run(&plan);
		status = EXIT_OK;
		goto out;
	}

	/* What the entries held, to prove afterwards that only managed args moved. */
	if (backend->read_state(io, NULL, &before, NULL) == 0)
		have_before = true;
	r = boot_plan_execute(io, &plan, &err);
	if (r < 0) {
		log_parse_error("set: ", &err);
		goto out;
	}
	if (!o.json)
		print_done(&plan);
	r = backend->read_state(io, &plan, &after, &err);
	if (r < 0) {
		log_parse_error("set: reading back: ", &err);
		goto out;
	}
	problems = boot_set_check(have_before ? &before : NULL, &after, managed, args, NULL);
	if (o.json) {
		json_object_set_new(out, "state", json_state(&after));
		json_object_set_new(out, "check", json_pack("{s:b, s:o}", "ok", !problems[0],
							    "problems", json_strv(problems)));
	} else {
		print_state(&after);
		if (!problems[0])
			print_check_ok(&after, args);
	}
	for (size_t i = 0; problems[i]; i++)
		log_error("set: check failed: %s", problems[i]);
	status = problems[0] ? EXIT_NOTHING : EXIT_OK;
out:
	if (out && status != EXIT_USAGE) {
		char *text = json_dumps(out, JSON_INDENT(2) | JSON_PRESERVE_ORDER);

		if (text)
			printf("%s\n", text);
		free(text);
	}
	json_decref(out);
	strv_free(problems);
	boot_state_release(&before);
	boot_state_release(&after);
	boot_plan_release(&plan);
	parse_error_release(&err);
	boot_io_free(io);
	target_close(target);
	free(found);
	strv_free(managed_arg);
	strv_free(args);
	strv_free(managed);
	return status;
}

const struct command cmd_set_entry = {
	.name = "set",
	.run = cmd_set,
	.summary = "put a mode's kernel args on every boot entry, replacing the managed ones",
	.usage = cmd_set_usage,
};
