#ifndef BOOTAB_FUZZ_COMMON_H
#define BOOTAB_FUZZ_COMMON_H

/*
 * What the libFuzzer targets in fuzz/ share. Each target feeds one parser
 * the fuzzer's bytes and checks a property of the result, not only that
 * nothing crashed: a property that does not hold aborts with a message,
 * which libFuzzer reports as a crash and saves the input.
 *
 * Inputs of the editing targets may start with a line "@@ ARGS": the mode
 * args to add (checked with cmdline_args_parse()); the rest is the file.
 * Without that line the args are fuzz_default_args. The managed args are
 * the mode args plus fuzz_default_managed, as a plan with an "off" mode
 * would give.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/cmdline.h"
#include "lib/alloc.h"
#include "lib/file.h"
#include "lib/parse-error.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FUZZ_ASSERT(cond, ...)                                                   \
	do {                                                                     \
		if (!(cond)) {                                                   \
			fprintf(stderr, "property failed: %s (%s:%d): ", #cond,  \
				__FILE__, __LINE__);                             \
			fprintf(stderr, __VA_ARGS__);                            \
			fputc('\n', stderr);                                     \
			abort();                                                 \
		}                                                                \
	} while (0)

/* The fuzzer's bytes as a C string; NULL when they hold a NUL (files with one are refused before parsing). */
static inline char *fuzz_text(const uint8_t *data, size_t size)
{
	char *s;

	if (memchr(data, '\0', size))
		return NULL;
	s = xmalloc(size + 1);
	memcpy(s, data, size);
	s[size] = '\0';
	return s;
}

static char *const fuzz_default_args[] = { (char *)"iommu=pt", (char *)"amd_iommu=on", NULL };
static char *const fuzz_default_managed[] = { (char *)"iommu", (char *)"amd_iommu",
					      (char *)"intel_iommu", (char *)"iommu.passthrough",
					      (char *)"iommu.strict", NULL };

struct fuzz_edit_input {
	char **args;       /* mode args, NULL-terminated */
	char **managed;    /* args + fuzz_default_managed */
	const char *text;  /* borrowed from the input string */
};

static inline char **fuzz_strv_copy(char *const *v)
{
	size_t n = 0;
	char **c;

	while (v && v[n])
		n++;
	c = xcalloc(n + 1, sizeof(char *));
	for (size_t i = 0; i < n; i++)
		c[i] = xstrdup(v[i]);
	return c;
}

/* The managed args for mode args: args + fuzz_default_managed; strv_free(). */
static inline char **fuzz_managed_for(char *const *args)
{
	size_t n = 0, m = 0;
	char **managed;

	while (args[n])
		n++;
	while (fuzz_default_managed[m])
		m++;
	managed = xcalloc(n + m + 1, sizeof(char *));
	for (size_t i = 0; i < n; i++)
		managed[i] = xstrdup(args[i]);
	for (size_t i = 0; i < m; i++)
		managed[n + i] = xstrdup(fuzz_default_managed[i]);
	return managed;
}

static inline void fuzz_edit_input_split(char *input, struct fuzz_edit_input *ret)
{
	char **args = NULL;

	ret->text = input;
	if (!strncmp(input, "@@ ", 3)) {
		char *nl = strchr(input, '\n');
		char *line = nl ? xstrndup(input + 3, (size_t)(nl - input - 3)) : xstrdup(input + 3);
		struct parse_error err = PARSE_ERROR_INIT;

		if (cmdline_args_parse(line, &args, &err) < 0)
			args = NULL;
		parse_error_release(&err);
		free(line);
		ret->text = nl ? nl + 1 : input + strlen(input);
	}
	if (!args)
		args = fuzz_strv_copy(fuzz_default_args);
	ret->args = args;
	ret->managed = fuzz_managed_for(args);
}

static inline void fuzz_edit_input_release(struct fuzz_edit_input *in)
{
	strv_free(in->args);
	strv_free(in->managed);
}

/* Whether two NULL-terminated string arrays are equal (both NULL counts). */
static inline bool fuzz_strv_equal(char *const *a, char *const *b)
{
	size_t i;

	if (!a || !b)
		return a == b;
	for (i = 0; a[i] && b[i]; i++)
		if (strcmp(a[i], b[i]))
			return false;
	return !a[i] && !b[i];
}

static inline bool fuzz_str_equal(const char *a, const char *b)
{
	if (!a || !b)
		return a == b;
	return !strcmp(a, b);
}

#endif
