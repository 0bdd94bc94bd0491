#ifndef BOOTAB_LIB_STRLIST_H
#define BOOTAB_LIB_STRLIST_H

#include <stddef.h>

/* An owned list of strings, e.g. the warnings a load collected. */
struct strlist {
	char **items;
	size_t n;
	size_t alloc;
};

#define STRLIST_INIT { NULL, 0, 0 }

void strlist_add(struct strlist *list, const char *s);
void strlist_addf(struct strlist *list, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Appends the non-empty fields of text separated by any byte of seps. */
void strlist_split(struct strlist *list, const char *text, const char *seps);
/* Index of s in list, or -1. */
long strlist_find(const struct strlist *list, const char *s);
void strlist_release(struct strlist *list);

#endif
