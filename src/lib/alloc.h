#ifndef BOOTAB_LIB_ALLOC_H
#define BOOTAB_LIB_ALLOC_H

#include <stddef.h>

/*
 * Allocation helpers. They abort() when memory is exhausted: bootab's
 * allocations are small and bounded by the input limits in file.h and
 * process.h, so running out of memory means the process cannot continue.
 * Every returned pointer is the caller's, to free().
 */
void *xmalloc(size_t size);
void *xcalloc(size_t count, size_t size);
void *xrealloc(void *ptr, size_t size);
/* Grows *array (of *alloc elements of elem_size) to hold at least need. */
void xgrow(void **array, size_t *alloc, size_t need, size_t elem_size);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
/* printf into a new string. */
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#define GROW(array, alloc, need) \
	xgrow((void **)&(array), &(alloc), (need), sizeof(*(array)))

#endif
