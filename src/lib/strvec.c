#include "lib/strvec.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "lib/alloc.h"
#include "lib/strbuf.h"

void strvec_push_owned(struct strvec *sv, char *s)
{
	GROW(sv->v, sv->alloc, sv->n + 2);
	sv->v[sv->n++] = s;
	sv->v[sv->n] = NULL;
}

void strvec_push(struct strvec *sv, const char *s)
{
	strvec_push_owned(sv, xstrdup(s));
}

void strvec_pushf(struct strvec *sv, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	strvec_push_owned(sv, strbuf_detach(&sb, NULL));
}

void strvec_push_all(struct strvec *sv, const char *const *list)
{
	for (; list && *list; list++)
		strvec_push(sv, *list);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

void strvec_sort(struct strvec *sv)
{
	if (sv->n > 1)
		qsort(sv->v, sv->n, sizeof(*sv->v), cmp_str);
}

const char *const *strvec_argv(const struct strvec *sv)
{
	static const char *const empty[] = { NULL };

	return sv->v ? (const char *const *)sv->v : empty;
}

char **strvec_detach(struct strvec *sv)
{
	char **v = sv->v ? sv->v : xcalloc(1, sizeof(*v));

	sv->v = NULL;
	sv->n = sv->alloc = 0;
	return v;
}

void strvec_release(struct strvec *sv)
{
	strv_free(sv->v);
	sv->v = NULL;
	sv->n = sv->alloc = 0;
}

void strv_free(char **v)
{
	if (!v)
		return;
	for (char **p = v; *p; p++)
		free(*p);
	free(v);
}
