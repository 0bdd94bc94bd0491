#include "boot/set.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/cmdline.h"
#include "lib/alloc.h"
#include "lib/file.h"
#include "lib/strbuf.h"

struct problems {
	char **v;
	size_t n;
};

static void problem(struct problems *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void problem(struct problems *p, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	p->v = xrealloc(p->v, (p->n + 2) * sizeof(char *));
	p->v[p->n++] = strbuf_detach(&sb, NULL);
	p->v[p->n] = NULL;
}

static void check_line(struct problems *p, const char *what, const char *line, char *const *managed,
		       char *const *asked)
{
	struct cmdline_check_result r = CMDLINE_CHECK_RESULT_INIT;

	if (cmdline_check(line, managed, asked, &r) < 0) {
		problem(p, "%s: cannot parse its args", what);
		return;
	}
	for (size_t i = 0; r.missing[i]; i++)
		problem(p, "%s: missing %s", what, r.missing[i]);
	for (size_t i = 0; r.unexpected[i]; i++)
		problem(p, "%s: still has %s", what, r.unexpected[i]);
	cmdline_check_result_release(&r);
}

static bool strv_equal(char *const *a, char *const *b)
{
	size_t i = 0;

	if (!a || !b)
		return a == b;
	for (; a[i] && b[i]; i++)
		if (strcmp(a[i], b[i]))
			return false;
	return !a[i] && !b[i];
}

static void check_state(struct problems *p, const struct boot_state *before,
			const struct boot_state *after, char *const *managed, char *const *asked)
{
	if (!after->n_entries)
		problem(p, "no boot entry found to check");
	else if (!after->has_default)
		problem(p, "cannot tell which entry boots by default");
	for (size_t i = 0; i < after->n_entries; i++) {
		const struct boot_entry_args *e = &after->entries[i];
		char *what = xasprintf("entry %s", e->name);

		check_line(p, what, e->args, managed, asked);
		/* Nothing but managed args may change. */
		for (size_t k = 0; before && k < before->n_entries; k++) {
			char **was, **now;

			if (strcmp(before->entries[k].name, e->name))
				continue;
			was = cmdline_unmanaged_tokens(before->entries[k].args, managed, asked);
			now = cmdline_unmanaged_tokens(e->args, managed, asked);
			if (!strv_equal(was, now))
				problem(p, "%s: args bootab does not manage changed (was '%s', now '%s')",
					what, before->entries[k].args, e->args);
			strv_free(was);
			strv_free(now);
		}
		free(what);
	}
	if (after->inherit_checked && after->inherit_args) {
		char *what = xasprintf("next kernel install (%s)", after->inherit_source);

		check_line(p, what, after->inherit_args, managed, asked);
		free(what);
	}
}

char **boot_set_check(const struct boot_state *before, const struct boot_state *after,
		      char *const *managed, char *const *asked, const struct boot_kernel *kernel)
{
	struct problems p = { NULL, 0 };

	check_state(&p, before, after, managed, asked);
	if (kernel && kernel->image) {
		const char *want = kernel->release ? kernel->release : kernel->image;

		if (!after->default_kernel)
			problem(&p, "cannot tell which kernel the default entry boots (asked for %s)", want);
		else if (strcmp(after->default_kernel, want) &&
			 strcmp(after->default_kernel, kernel->image))
			problem(&p, "the default entry boots %s, not %s (%s)", after->default_kernel, want,
				after->default_rule ? after->default_rule : "default rule not known");
	}
	if (!p.v)
		p.v = xcalloc(1, sizeof(char *));
	return p.v;
}

int boot_backend_resolve(struct boot_io *io, const char *name, const struct boot_backend **ret,
			 char **ret_found, struct parse_error *err)
{
	int r;

	*ret_found = NULL;
	if (name && strcmp(name, "auto")) {
		*ret = boot_backend_find(name);
		if (!*ret) {
			parse_error_set(err, 0, 0, "unknown backend '%s' (auto, grubby, bls, kernel-cmdline, grub, kexec)",
					name);
			return -EINVAL;
		}
		return 0;
	}
	r = boot_backend_detect(io, ret, ret_found);
	if (r < 0)
		parse_error_set(err, 0, 0, "no boot loader backend fits %s (looked for grubby, loader/entries, /etc/kernel/cmdline, /etc/default/grub)",
				io->description);
	return r;
}

static void kernel_copy(struct boot_kernel *to, const struct boot_kernel *from)
{
	to->release = from->release ? xstrdup(from->release) : NULL;
	to->image = from->image ? xstrdup(from->image) : NULL;
	to->initrd = from->initrd ? xstrdup(from->initrd) : NULL;
	to->entry = from->entry ? xstrdup(from->entry) : NULL;
	to->title = from->title ? xstrdup(from->title) : NULL;
}

int boot_set_kernel(struct boot_io *io, const char *backend, char *const *managed,
		    char *const *args, const char *kernel, struct boot_set_result *ret,
		    struct parse_error *err)
{
	struct boot_set_result res = { .plan = BOOT_PLAN_INIT, .after = BOOT_STATE_INIT };
	struct boot_state before = BOOT_STATE_INIT;
	bool have_before = false;
	int r;

	r = boot_backend_resolve(io, backend, &res.backend, &res.found, err);
	if (r < 0)
		return r;
	if (kernel) {
		struct boot_kernels kernels = BOOT_KERNELS_INIT;
		const struct boot_kernel *k;

		r = res.backend->kernels(io, &kernels, err);
		if (r < 0)
			goto fail;
		k = boot_kernels_find(&kernels, kernel);
		if (!k) {
			char *list = boot_kernels_describe(&kernels);

			parse_error_set(err, 0, 0, "kernel %s is not installed: the %s boot loader boots %s",
					kernel, res.backend->name, list);
			free(list);
			boot_kernels_release(&kernels);
			r = -ENOENT;
			goto fail;
		}
		kernel_copy(&res.kernel, k);
		boot_kernels_release(&kernels);
	}
	r = res.backend->plan(io, managed, args, kernel ? &res.kernel : NULL, &res.plan, err);
	if (r < 0)
		goto fail;
	/* What the entries held, to prove afterwards that only managed args moved. */
	if (res.backend->read_state(io, NULL, &before, NULL) == 0)
		have_before = true;
	r = boot_plan_execute(io, &res.plan, err);
	if (r < 0)
		goto fail;
	r = res.backend->read_state(io, &res.plan, &res.after, err);
	if (r < 0)
		goto fail;
	res.problems = boot_set_check(have_before ? &before : NULL, &res.after, managed, args,
				      kernel ? &res.kernel : NULL);
	boot_state_release(&before);
	*ret = res;
	return 0;
fail:
	boot_state_release(&before);
	boot_set_result_release(&res);
	return r;
}

int boot_set(struct boot_io *io, const char *backend, char *const *managed, char *const *args,
	     struct boot_set_result *ret, struct parse_error *err)
{
	return boot_set_kernel(io, backend, managed, args, NULL, ret, err);
}

void boot_set_result_release(struct boot_set_result *res)
{
	free(res->found);
	boot_plan_release(&res->plan);
	boot_state_release(&res->after);
	strv_free(res->problems);
	free(res->kernel.release);
	free(res->kernel.image);
	free(res->kernel.initrd);
	free(res->kernel.entry);
	free(res->kernel.title);
	memset(res, 0, sizeof(*res));
}
