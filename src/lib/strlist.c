#include "lib/strlist.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "lib/alloc.h"
#include "lib/strbuf.h"

void strlist_add(struct strlist *list, const char *s)
{
	GROW(list->items, list->alloc, list->n + 1);
	list->items[list->n++] = xstrdup(s);
}

void strlist_addf(struct strlist *list, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	GROW(list->items, list->alloc, list->n + 1);
	list->items[list->n++] = strbuf_detach(&sb, NULL);
}

void strlist_split(struct strlist *list, const char *text, const char *seps)
{
	while (*text) {
		size_t skip = strspn(text, seps), len;

		text += skip;
		len = strcspn(text, seps);
		if (len) {
			char *field = xstrndup(text, len);

			GROW(list->items, list->alloc, list->n + 1);
			list->items[list->n++] = field;
		}
		text += len;
	}
}

long strlist_find(const struct strlist *list, const char *s)
{
	for (size_t i = 0; i < list->n; i++)
		if (!strcmp(list->items[i], s))
			return (long)i;
	return -1;
}

void strlist_release(struct strlist *list)
{
	for (size_t i = 0; i < list->n; i++)
		free(list->items[i]);
	free(list->items);
	list->items = NULL;
	list->n = list->alloc = 0;
}
