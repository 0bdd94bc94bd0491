#include "kernel/verify.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "kernel/cmdline.h"
#include "kernel/iommu.h"
#include "kernel/proof.h"
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

void verify_report_add(struct verify_report *r, enum verify_status status, enum proof_level level,
		       const char *arg, const char *what, const char *expected, const char *where,
		       const char *found_fmt, ...)
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
		.level = level,
		.arg = arg ? xstrdup(arg) : NULL,
	};
}

/* A check of /proc/cmdline (arg: the asked arg it is about, or NULL). */
#define add_cmdline(r, status, arg, what, expected, ...) \
	verify_report_add((r), (status), PROOF_CMDLINE, (arg), (what), (expected), "/proc/cmdline", __VA_ARGS__)

/* A check of sysfs (an --expect line). */
#define add_sysfs(r, status, what, expected, where, ...) \
	verify_report_add((r), (status), PROOF_PROVEN, NULL, (what), (expected), (where), __VA_ARGS__)

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
		free(report->v[i].arg);
	}
	free(report->v);
	report->v = NULL;
	report->n = report->alloc = 0;
}

void verify_kernel(const struct snapshot *snap, const char *release, struct verify_report *report)
{
	if (!release)
		return;
	if (snap->kernel && !strcmp(snap->kernel, release))
		verify_report_add(report, VERIFY_OK, PROOF_PROVEN, NULL, "kernel", release,
				  "/proc/sys/kernel/osrelease", "%s", snap->kernel);
	else
		verify_report_add(report, VERIFY_FAILED, PROOF_PROVEN, NULL, "kernel", release,
				  "/proc/sys/kernel/osrelease", "%s", snap->kernel ? snap->kernel : "(not read)");
	/* The build itself, recorded with the boot: a rebuild under the same release shows in the report. */
	if (snap->has_notes)
		verify_report_add(report, VERIFY_NOTE, PROOF_PROVEN, NULL, "kernel build id", NULL,
				  "/sys/kernel/notes", "%s", snap->build_id ? snap->build_id : "none in the notes");
}

void verify_cmdline(const struct snapshot *snap, char *const *managed, char *const *asked,
		    struct verify_report *report)
{
	struct cmdline_check_result res = CMDLINE_CHECK_RESULT_INIT;
	struct parse_error err = PARSE_ERROR_INIT;
	struct cmdline line = CMDLINE_INIT;

	if (cmdline_check(snap->cmdline, managed, asked, &res) < 0 ||
	    cmdline_parse(snap->cmdline, CMDLINE_TOLERANT, &line, &err) < 0) {
		add_cmdline(report, VERIFY_FAILED, NULL, "cmdline", "a kernel command line", "cannot be parsed");
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
			add_cmdline(report, VERIFY_OK, asked[i], what, asked[i], "present");
		} else {
			char *name = xstrndup(asked[i], strcspn(asked[i], "="));
			const struct cmdline_token *tok = cmdline_find_last(&line, name);

			if (tok)
				add_cmdline(report, VERIFY_FAILED, asked[i], what, asked[i],
					    "%.*s (the last %s on the command line)",
					  (int)(tok->end - tok->start), line.text + tok->start, name);
			else
				add_cmdline(report, VERIFY_FAILED, asked[i], what, asked[i],
					    "no %s on the command line", name);
			free(name);
		}
		free(what);
	}
	for (size_t j = 0; res.unexpected && res.unexpected[j]; j++) {
		char *what = xasprintf("cmdline: no %s", res.unexpected[j]);

		add_cmdline(report, VERIFY_FAILED, NULL, what,
			    "absent (a managed arg this mode does not ask for, or a leftover)", "%s",
			    res.unexpected[j]);
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
			add_cmdline(report, VERIFY_OK, NULL, "cmdline: no other managed arg", "absent",
				    "none of %s", names.buf);
		strbuf_release(&names);
	}
	cmdline_check_result_release(&res);
	cmdline_release(&line);
}

void verify_semantics(const struct snapshot *snap, const struct verify_args *asked,
		      struct verify_report *report)
{
	proof_judge(snap, asked, report);
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
		add_sysfs(report, snap->iommu.n_groups == e->groups ? VERIFY_OK : VERIFY_FAILED,
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
		add_sysfs(report, !strcmp(type, e->value) ? VERIFY_OK : VERIFY_FAILED, what,
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
			add_sysfs(report, VERIFY_FAILED, what, e->value, e->subject, "%s",
				  found ? "absent" : "not read");
		else
			add_sysfs(report, !strcmp(v, e->value) ? VERIFY_OK : VERIFY_FAILED, what,
				  e->value, e->subject, "%s", v);
		break;
	}
	}
	free(what);
}
