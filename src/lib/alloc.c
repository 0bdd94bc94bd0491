#include "lib/alloc.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void *check(void *p)
{
	if (!p)
		abort();
	return p;
}

void *xmalloc(size_t size)
{
	return check(malloc(size ? size : 1));
}

void *xcalloc(size_t count, size_t size)
{
	return check(calloc(count ? count : 1, size ? size : 1));
}

void *xrealloc(void *ptr, size_t size)
{
	return check(realloc(ptr, size ? size : 1));
}

void xgrow(void **array, size_t *alloc, size_t need, size_t elem_size)
{
	size_t n;

	if (need <= *alloc)
		return;
	n = *alloc ? *alloc : 8;
	while (n < need) {
		if (n > SIZE_MAX / 2)
			abort();
		n *= 2;
	}
	if (n > SIZE_MAX / elem_size)
		abort();
	*array = xrealloc(*array, n * elem_size);
	*alloc = n;
}

char *xstrdup(const char *s)
{
	return check(strdup(s));
}

char *xstrndup(const char *s, size_t n)
{
	return check(strndup(s, n));
}

char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *s;
	int r;

	va_start(ap, fmt);
	r = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (r < 0)
		abort();
	return s;
}
