#include "kernel/verify.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "kernel/cmdline.h"
#include "kernel/iommu.h"
#include "lib/alloc.h"
#include "lib/parse-number.h"
#include "lib/strbuf.h"

void verify_args_from_list(char *const *args, struct verify_args *ret)
{
	struct verify_args out = { 0 };

	for (size_t i = 0; args && args[i]; i++) {
		const char *eq = strchr(args[i], '=');

		GROW(out.v, out.alloc, out.n + 1);
		out.v[out.n].name = eq ? xstrndup(args[i], (size_t)(eq - args[i])) : xstrdup(args[i]);
		out.v[out.n].value = eq ? xstrdup(eq + 1) : NULL;
		out.n++;
	}
	*ret = out;
}

void verify_args_release(struct verify_args *args)
{
	for (size_t i = 0; i < args->n; i++) {
		free(args->v[i].name);
		free(args->v[i].value);
	}
	free(args->v);
	args->v = NULL;
	args->n = args->alloc = 0;
}

/* The last occurrence of name in args (the kernel applies them in order), or NULL. */
static const struct verify_arg *args_last(const struct verify_args *args, const char *name)
{
	const struct verify_arg *found = NULL;

	for (size_t i = 0; i < args->n; i++)
		if (cmdline_name_equal(args->v[i].name, name))
			found = &args->v[i];
	return found;
}

static char *arg_text(const struct verify_arg *a)
{
	return a->value ? xasprintf("%s=%s", a->name, a->value) : xstrdup(a->name);
}

static void add_check(struct verify_report *r, enum verify_status status, const char *what,
		      const char *expected, const char *where, const char *found_fmt, ...)
	__attribute__((format(printf, 6, 7)));

static void add_check(struct verify_report *r, enum verify_status status, const char *what,
		      const char *expected, const char *where, const char *found_fmt, ...)
{
	struct strbuf found = STRBUF_INIT;
	va_list ap;

	va_start(ap, found_fmt);
	strbuf_vaddf(&found, found_fmt, ap);
	va_end(ap);
	GROW(r->v, r->alloc, r->n + 1);
	r->v[r->n++] = (struct verify_check){
		.status = status,
		.what = xstrdup(what),
		.expected = expected ? xstrdup(expected) : NULL,
		.found = strbuf_detach(&found, NULL),
		.where = xstrdup(where),
	};
}

size_t verify_report_failures(const struct verify_report *report)
{
	size_t n = 0;

	for (size_t i = 0; i < report->n; i++)
		n += report->v[i].status == VERIFY_FAILED;
	return n;
}

void verify_report_release(struct verify_report *report)
{
	for (size_t i = 0; i < report->n; i++) {
		free(report->v[i].what);
		free(report->v[i].expected);
		free(report->v[i].found);
		free(report->v[i].where);
	}
	free(report->v);
	report->v = NULL;
	report->n = report->alloc = 0;
}

void verify_cmdline(const struct snapshot *snap, char *const *managed, char *const *asked,
		    struct verify_report *report)
{
	struct cmdline_check_result res = CMDLINE_CHECK_RESULT_INIT;
	struct parse_error err = PARSE_ERROR_INIT;
	struct cmdline line = CMDLINE_INIT;

	if (cmdline_check(snap->cmdline, managed, asked, &res) < 0 ||
	    cmdline_parse(snap->cmdline, CMDLINE_TOLERANT, &line, &err) < 0) {
		add_check(report, VERIFY_FAILED, "cmdline", "a kernel command line", "/proc/cmdline",
			  "cannot be parsed");
		cmdline_check_result_release(&res);
		parse_error_release(&err);
		return;
	}
	for (size_t i = 0; asked && asked[i]; i++) {
		char *what = xasprintf("cmdline: %s", asked[i]);
		bool missing = false;

		for (size_t j = 0; res.missing && res.missing[j]; j++)
			missing |= !strcmp(res.missing[j], asked[i]);
		if (!missing) {
			add_check(report, VERIFY_OK, what, asked[i], "/proc/cmdline", "present");
		} else {
			char *name = xstrndup(asked[i], strcspn(asked[i], "="));
			const struct cmdline_token *tok = cmdline_find_last(&line, name);

			if (tok)
				add_check(report, VERIFY_FAILED, what, asked[i], "/proc/cmdline",
					  "%.*s (the last %s on the command line)",
					  (int)(tok->end - tok->start), line.text + tok->start, name);
			else
				add_check(report, VERIFY_FAILED, what, asked[i], "/proc/cmdline",
					  "no %s on the command line", name);
			free(name);
		}
		free(what);
	}
	for (size_t j = 0; res.unexpected && res.unexpected[j]; j++) {
		char *what = xasprintf("cmdline: no %s", res.unexpected[j]);

		add_check(report, VERIFY_FAILED, what,
			  "absent (a managed arg this mode does not ask for, or a leftover)",
			  "/proc/cmdline", "%s", res.unexpected[j]);
		free(what);
	}
	if (!res.unexpected || !res.unexpected[0]) {
		struct strbuf names = STRBUF_INIT;

		for (size_t i = 0; managed && managed[i]; i++) {
			size_t len = strcspn(managed[i], "=");
			bool asked_name = false;

			for (size_t k = 0; asked && asked[k]; k++) {
				char *a = xstrndup(asked[k], strcspn(asked[k], "="));
				char *m = xstrndup(managed[i], len);

				asked_name |= cmdline_name_equal(a, m);
				free(a);
				free(m);
			}
			if (!asked_name)
				strbuf_addf(&names, "%s%.*s", names.len ? " " : "", (int)len, managed[i]);
		}
		if (names.len)
			add_check(report, VERIFY_OK, "cmdline: no other managed arg", "absent",
				  "/proc/cmdline", "none of %s", names.buf);
		strbuf_release(&names);
	}
	cmdline_check_result_release(&res);
	cmdline_release(&line);
}

/* kstrtobool's words: 1/y/Y/on/t/true and 0/n/N/off/f/false. -1: not a boolean. */
static int boolean_value(const char *s)
{
	static const char *const yes[] = { "1", "y", "Y", "yes", "on", "true", "t", "T" };
	static const char *const no[] = { "0", "n", "N", "no", "off", "false", "f", "F" };

	if (!s)
		return -1;
	for (size_t i = 0; i < sizeof(yes) / sizeof(yes[0]); i++)
		if (!strcasecmp(s, yes[i]))
			return 1;
	for (size_t i = 0; i < sizeof(no) / sizeof(no[0]); i++)
		if (!strcasecmp(s, no[i]))
			return 0;
	return -1;
}

/* "off" among the comma-separated options of amd_iommu= / intel_iommu=. */
static bool has_option(const char *value, const char *option)
{
	size_t n = strlen(option);

	for (const char *p = value; p && *p;) {
		const char *comma = strchr(p, ',');
		size_t len = comma ? (size_t)(comma - p) : strlen(p);

		if (len == n && !strncmp(p, option, n))
			return true;
		p = comma ? comma + 1 : NULL;
	}
	return false;
}

/* "group 18 DMA: 0000:c2:00.0" for every group of the map whose type is not skip_type. */
static char *groups_not_of(const struct iommu_map *map, const char *skip_type)
{
	struct strbuf sb = STRBUF_INIT;

	for (size_t i = 0; i < map->n_groups; i++) {
		const struct iommu_group *g = &map->groups[i];
		bool first = true;

		if (!strcmp(g->type, skip_type))
			continue;
		strbuf_addf(&sb, "%sgroup %u %s:", sb.len ? "; " : "", g->number, g->type);
		for (size_t j = 0; j < map->n_devices; j++) {
			if (map->devices[j].group != g->number)
				continue;
			strbuf_addf(&sb, "%s%s", first ? " " : ", ", map->devices[j].name);
			first = false;
		}
	}
	return strbuf_detach(&sb, NULL);
}

#define GROUPS_PATH "/sys/kernel/iommu_groups/*/type"

static void check_passthrough(const struct snapshot *snap, const char *what,
			      struct verify_report *report)
{
	const struct iommu_map *map = &snap->iommu;
	static const char expected[] = "IOMMU groups exist and are identity";
	size_t identity = iommu_map_count_type(map, "identity");
	size_t lazy = iommu_map_count_type(map, "DMA-FQ");
	char *summary = iommu_map_summary(map), *others;

	if (map->n_groups == 0) {
		add_check(report, VERIFY_FAILED, what, expected, GROUPS_PATH,
			  "no IOMMU groups (the IOMMU is off or absent)");
		free(summary);
		return;
	}
	others = groups_not_of(map, "identity");
	if (identity == 0 || lazy > 0)
		add_check(report, VERIFY_FAILED, what, expected, GROUPS_PATH,
			  "%s; translated: %s", summary, others);
	else if (*others)
		/* The kernel keeps some devices strict whatever the default (untrusted, quirks). */
		add_check(report, VERIFY_OK, what, expected, GROUPS_PATH,
			  "%s; kept translated by the kernel: %s", summary, others);
	else
		add_check(report, VERIFY_OK, what, expected, GROUPS_PATH, "%s", summary);
	free(others);
	free(summary);
}

static void check_strict(const struct snapshot *snap, const char *what, struct verify_report *report)
{
	const struct iommu_map *map = &snap->iommu;
	static const char expected[] = "translated groups are DMA (strict), none DMA-FQ";
	char *summary = iommu_map_summary(map);

	if (map->n_groups == 0)
		add_check(report, VERIFY_FAILED, what, expected, GROUPS_PATH,
			  "no IOMMU groups (the IOMMU is off or absent)");
	else if (iommu_map_count_type(map, "DMA-FQ") > 0 || iommu_map_count_type(map, "DMA") == 0)
		add_check(report, VERIFY_FAILED, what, expected, GROUPS_PATH, "%s", summary);
	else
		add_check(report, VERIFY_OK, what, expected, GROUPS_PATH, "%s", summary);
	free(summary);
}

static void check_off(const struct snapshot *snap, const char *what, struct verify_report *report)
{
	static const char expected[] = "no IOMMU groups and /sys/class/iommu empty";
	static const char where[] = "/sys/kernel/iommu_groups, /sys/class/iommu";
	struct strbuf units = STRBUF_INIT;
	char *summary = iommu_map_summary(&snap->iommu);

	for (size_t i = 0; i < snap->n_iommu_classes; i++)
		strbuf_addf(&units, "%s%s", i ? " " : "", snap->iommu_classes[i]);
	if (snap->iommu.n_groups == 0 && snap->n_iommu_classes == 0)
		add_check(report, VERIFY_OK, what, expected, where, "no IOMMU groups, no IOMMU units");
	else
		add_check(report, VERIFY_FAILED, what, expected, where, "%s; IOMMU units: %s",
			  summary, units.len ? units.buf : "none");
	strbuf_release(&units);
	free(summary);
}

static void check_mitigations_off(const struct snapshot *snap, const char *what,
				  struct verify_report *report)
{
	static const char where[] = "/sys/devices/system/cpu/vulnerabilities";
	static const char expected[] = "every affected entry reads Vulnerable";
	struct strbuf bad = STRBUF_INIT;
	size_t affected = 0;

	if (snap->vulnerabilities.n == 0) {
		add_check(report, VERIFY_NOTE, what, NULL, where, "no entries: not verified");
		return;
	}
	for (size_t i = 0; i < snap->vulnerabilities.n; i++) {
		const struct snapshot_entry *e = &snap->vulnerabilities.v[i];

		if (!strncmp(e->value, "Not affected", 12))
			continue;
		affected++;
		if (!strncmp(e->value, "Vulnerable", 10))
			continue;
		/* Documentation/admin-guide/hw-vuln/l1tf.rst: PTE inversion is always enabled. */
		if (!strcmp(e->name, "l1tf") && !strncmp(e->value, "Mitigation: PTE Inversion", 25))
			continue;
		strbuf_addf(&bad, "%s%s: %s", bad.len ? "; " : "", e->name, e->value);
	}
	if (bad.len)
		add_check(report, VERIFY_FAILED, what, expected, where, "%s", bad.buf);
	else
		add_check(report, VERIFY_OK, what, expected, where, "%zu affected, all Vulnerable",
			  affected);
	strbuf_release(&bad);
}

/* Dotted names that are not kernel modules (initramfs, systemd): nothing in /sys/module. */
static bool userspace_namespace(const char *module)
{
	static const char *const names[] = { "rd", "systemd", "udev", "plymouth", "luks", "vconsole" };

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(module, names[i]))
			return true;
	return false;
}

static char *param_key(const char *name)
{
	char *key = xstrdup(name);

	for (char *p = key; *p; p++)
		if (*p == '-')
			*p = '_';
	return key;
}

/* Whether name is MODULE.PARAM as module parameters are written. */
static bool module_param_name(const char *name)
{
	const char *dot = strchr(name, '.');

	if (!dot || dot == name || !dot[1] || strchr(dot + 1, '.'))
		return false;
	for (const char *p = name; *p; p++)
		if (p != dot && !((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
				  (*p >= '0' && *p <= '9') || *p == '_' || *p == '-'))
			return false;
	return true;
}

static bool handled_builtin(const char *key)
{
	return !strncmp(key, "iommu.", 6);
}

static void check_module_param(const struct snapshot *snap, const struct verify_arg *a,
			       struct verify_report *report)
{
	char *key = param_key(a->name), *module = xstrndup(key, (size_t)(strchr(key, '.') - key));
	char *where = xasprintf("/sys/module/%s/parameters/%s", module, strchr(key, '.') + 1);
	char *what = arg_text(a);
	bool found = false;
	const char *value = snapshot_entry_get(&snap->params, key, &found);
	int want_bool = boolean_value(a->value), have_bool = boolean_value(value);

	if (!found || !value) {
		if (userspace_namespace(module))
			add_check(report, VERIFY_NOTE, what, NULL, where,
				  "not a kernel module parameter: not verified");
		else
			add_check(report, VERIFY_FAILED, what, a->value, where,
				  "absent (module not loaded, or the parameter is not readable)");
	} else if (want_bool >= 0 && have_bool >= 0 ? want_bool == have_bool
						    : !strcmp(a->value ? a->value : "", value)) {
		add_check(report, VERIFY_OK, what, a->value, where, "%s", value);
	} else {
		add_check(report, VERIFY_FAILED, what, a->value, where, "%s", value);
	}
	free(key);
	free(module);
	free(where);
	free(what);
}

void verify_snapshot_args(const struct verify_args *asked, struct strvec *words)
{
	for (size_t i = 0; i < asked->n; i++) {
		char *key;

		if (!asked->v[i].value || !module_param_name(asked->v[i].name))
			continue;
		key = param_key(asked->v[i].name);
		if (!handled_builtin(key))
			strvec_pushf(words, "param:%s", key);
		free(key);
	}
}

void verify_semantics(const struct snapshot *snap, const struct verify_args *asked,
		      struct verify_report *report)
{
	bool logged = false;

	for (size_t i = 0; i < asked->n; i++) {
		const struct verify_arg *a = &asked->v[i];
		char *key = param_key(a->name), *what = arg_text(a);
		bool iommu_related = true;

		if (args_last(asked, a->name) != a) {
			free(key);
			free(what);
			continue;
		}
		if (!strcmp(key, "iommu") && a->value && !strcmp(a->value, "pt")) {
			check_passthrough(snap, what, report);
		} else if (!strcmp(key, "iommu.passthrough") && boolean_value(a->value) == 1) {
			check_passthrough(snap, what, report);
		} else if (!strcmp(key, "iommu.strict") && boolean_value(a->value) == 1) {
			check_strict(snap, what, report);
		} else if ((!strcmp(key, "amd_iommu") || !strcmp(key, "intel_iommu")) && a->value &&
			   has_option(a->value, "off")) {
			check_off(snap, what, report);
		} else if (!strcmp(key, "mitigations") && a->value && !strcmp(a->value, "off")) {
			iommu_related = false;
			check_mitigations_off(snap, what, report);
		} else if (a->value && module_param_name(a->name) && !handled_builtin(key)) {
			iommu_related = false;
			check_module_param(snap, a, report);
		} else {
			iommu_related = !strncmp(key, "iommu", 5) || strstr(key, "_iommu");
		}
		if (iommu_related && !logged) {
			/* Evidence, shown next to the proof, never instead of it. */
			for (size_t j = 0; j < snap->n_log_lines; j++) {
				const char *line = strstr(snap->log_lines[j], "Default domain type");

				if (line) {
					/* The kernel prints "Translated " with a trailing blank. */
					int len = (int)strlen(line);

					while (len > 0 && line[len - 1] == ' ')
						len--;
					add_check(report, VERIFY_NOTE, "kernel log (not trusted)", NULL,
						  snapshot_log_source_name(snap->log_source), "%.*s", len,
						  line);
					logged = true;
					break;
				}
			}
		}
		free(key);
		free(what);
	}
}

int verify_expect_parse(const char *expr, struct verify_expect *ret, char **ret_error)
{
	struct verify_expect e = { 0 };
	const char *eq;

	if (!strncmp(expr, "iommu.groups=", 13)) {
		const char *v = expr + 13;
		long groups;

		if (*v < '0' || *v > '9' || number_parse_long(v, 0, 9999999, &groups) < 0) {
			*ret_error = xasprintf("--expect '%s': the group count must be a number", expr);
			return -EINVAL;
		}
		e.kind = EXPECT_IOMMU_GROUPS;
		e.groups = (unsigned long)groups;
		e.value = xstrdup(v);
		*ret = e;
		return 0;
	}
	if (!strncmp(expr, "iommu.type(", 11) || !strncmp(expr, "sysfs(", 6)) {
		bool sysfs = expr[0] == 's';
		const char *open = strchr(expr, '(') + 1, *close = strstr(open, ")=");

		if (!close || close == open) {
			*ret_error = xasprintf("--expect '%s': write %s", expr,
					       sysfs ? "sysfs(/sys/PATH)=VALUE" : "iommu.type(ADDR)=TYPE");
			return -EINVAL;
		}
		/* A path may hold ")=", the value never needs to: split at the last one. */
		for (const char *p = close; (p = strstr(p + 1, ")=")); )
			close = p;
		e.kind = sysfs ? EXPECT_SYSFS : EXPECT_IOMMU_TYPE;
		e.subject = xstrndup(open, (size_t)(close - open));
		e.value = xstrdup(close + 2);
		if (sysfs && ((strncmp(e.subject, "/sys/", 5) && strncmp(e.subject, "/proc/", 6)) ||
			      strstr(e.subject, "/../") || strchr(e.subject, '\t') ||
			      strchr(e.subject, '\n'))) {
			*ret_error = xasprintf("--expect '%s': the path must be under /sys or /proc, without '..'",
					       expr);
			verify_expect_release(&e);
			return -EINVAL;
		}
		if (!sysfs && (!iommu_device_name_valid(e.subject) || !iommu_type_valid(e.value))) {
			*ret_error = xasprintf("--expect '%s': not a device address and group type", expr);
			verify_expect_release(&e);
			return -EINVAL;
		}
		*ret = e;
		return 0;
	}
	eq = strchr(expr, '=');
	*ret_error = xasprintf("--expect '%.*s': unknown; use iommu.groups=N, iommu.type(ADDR)=TYPE or sysfs(/sys/PATH)=VALUE",
			       eq ? (int)(eq - expr) : (int)strlen(expr), expr);
	return -EINVAL;
}

void verify_expect_release(struct verify_expect *e)
{
	free(e->subject);
	free(e->value);
	e->subject = e->value = NULL;
}

void verify_expect_check(const struct snapshot *snap, const struct verify_expect *e,
			 struct verify_report *report)
{
	char *what;

	switch (e->kind) {
	case EXPECT_IOMMU_GROUPS: {
		char *summary = iommu_map_summary(&snap->iommu);

		what = xasprintf("iommu.groups=%s", e->value);
		add_check(report, snap->iommu.n_groups == e->groups ? VERIFY_OK : VERIFY_FAILED,
			  what, e->value, "/sys/kernel/iommu_groups", "%zu (%s)",
			  snap->iommu.n_groups, summary);
		free(summary);
		break;
	}
	case EXPECT_IOMMU_TYPE: {
		const struct iommu_device *d = iommu_map_device(&snap->iommu, e->subject);
		char *full = NULL, *where;
		const char *type;

		if (!d) {
			full = xasprintf("0000:%s", e->subject);
			d = iommu_map_device(&snap->iommu, full);
		}
		type = d ? iommu_map_group(&snap->iommu, d->group)->type : "none";
		where = d ? xasprintf("/sys/kernel/iommu_groups/%u/type", d->group)
			  : xstrdup("/sys/kernel/iommu_groups/*/devices");
		what = xasprintf("iommu.type(%s)=%s", e->subject, e->value);
		add_check(report, !strcmp(type, e->value) ? VERIFY_OK : VERIFY_FAILED, what,
			  e->value, where, "%s%s", type, d ? "" : " (in no IOMMU group)");
		free(where);
		free(full);
		break;
	}
	case EXPECT_SYSFS:
	default: {
		bool found = false;
		const char *v = snapshot_entry_get(&snap->files, e->subject, &found);

		what = xasprintf("sysfs(%s)=%s", e->subject, e->value);
		if (!v)
			add_check(report, VERIFY_FAILED, what, e->value, e->subject, "%s",
				  found ? "absent" : "not read");
		else
			add_check(report, !strcmp(v, e->value) ? VERIFY_OK : VERIFY_FAILED, what,
				  e->value, e->subject, "%s", v);
		break;
	}
	}
	free(what);
}
