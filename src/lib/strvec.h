#ifndef BOOTAB_LIB_STRVEC_H
#define BOOTAB_LIB_STRVEC_H

#include <stddef.h>

/*
 * A NULL-terminated vector of owned strings: an argv for process_run(),
 * the words of a target script, a list of names. v[n] is NULL whenever
 * v is not NULL; an empty vector may have v NULL (strvec_argv() never
 * returns NULL).
 */
struct strvec {
	char **v;
	size_t n;
	size_t alloc;
};

#define STRVEC_INIT { NULL, 0, 0 }

/* Appends a copy of s. */
void strvec_push(struct strvec *sv, const char *s);
/* Appends s itself: the vector owns it from now on. */
void strvec_push_owned(struct strvec *sv, char *s);
void strvec_pushf(struct strvec *sv, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Appends a copy of every string of the NULL-terminated list (NULL: none). */
void strvec_push_all(struct strvec *sv, const char *const *list);
/* Sorts the strings with strcmp. */
void strvec_sort(struct strvec *sv);
/* The vector as an argv: borrowed, NULL-terminated, never NULL. */
const char *const *strvec_argv(const struct strvec *sv);
/*
 * Hands the array to the caller (NULL-terminated, never NULL, freed with
 * strv_free()) and leaves *sv empty.
 */
char **strvec_detach(struct strvec *sv);
void strvec_release(struct strvec *sv);

/* Frees a NULL-terminated array of strings and the strings; NULL is a no-op. */
void strv_free(char **v);

#endif
