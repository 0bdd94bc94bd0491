#ifndef BOOTAB_PLAN_INTERNAL_H
#define BOOTAB_PLAN_INTERNAL_H

/*
 * What the files of src/plan/ share while reading a plan; nothing outside
 * src/plan/ includes this.
 *   plan.c         the parsed plan: its boots, its queries, plan_release()
 *   plan-parse.c   the reader: lines and [section] headers, plan_parse(), plan_load()
 *   plan-keys.c    each section's keys, checked as they are read
 *   plan-check.c   what holds across keys and sections, checked once the file is read
 *   plan-format.c  a plan written back as plan file text
 */

#include <stdbool.h>

#include "lib/parse-error.h"
#include "plan/plan.h"

struct parse_state {
	struct plan *plan;
	struct parse_error *err;
	const char *name;
	/* The reader's position: the line the handler is being called for. */
	const char *text;
	const char *p;
	unsigned line;
	bool line_done;
	bool continuation;        /* the line being read continues the key above it */
	bool failed;
	/* The section being read. */
	char *section;
	char *kind;
	char *title;
	unsigned section_line;
	void *current;            /* the mode, row or version of this section */
	char *last_key;           /* for continuation lines */
};

/*
 * Records the first error of the parse (key may be NULL) on the line being
 * read; later calls do nothing. Returns 0, so that a key handler can
 * return its result.
 */
int plan_fail(struct parse_state *s, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* A section's name: 1-64 letters, digits, '_', '-' or '.'. */
bool plan_name_valid(const char *n);

/*
 * One key = value of the section s is in (s->kind, s->current), checked
 * and stored in s->plan. Returns 1, or 0 with the error recorded.
 */
int plan_section_key(struct parse_state *s, const char *key, const char *value);

/*
 * The checks across keys and sections once the whole file is read, and the
 * defaults that depend on them; the factors' design becomes the first
 * modes. Returns 1, or 0 with the error recorded.
 */
int plan_check(struct parse_state *s);

#endif
