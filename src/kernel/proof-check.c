/*
 * What every family of the proof table shares: adding a check to the
 * report, and reading the values and kernel-state files it compares.
 */

#include "kernel/proof-internal.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "lib/alloc.h"
#include "lib/strbuf.h"

void proof_check(struct judge *j, enum verify_status status, enum proof_level level,
		 const char *expected, const char *where, const char *fmt, ...)
{
	struct strbuf found = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&found, fmt, ap);
	va_end(ap);
	verify_report_add(j->report, status, level, j->what, j->what, expected, where, "%s", found.buf);
	strbuf_release(&found);
}

/* ---------------------------------------------------------------- helpers */

/* kstrtobool's words: 1/y/Y/on/t/true and 0/n/N/off/f/false. -1: not a boolean. */
int proof_boolean_value(const char *s)
{
	static const char *const yes[] = { "1", "y", "yes", "on", "true", "t" };
	static const char *const no[] = { "0", "n", "no", "off", "false", "f" };

	if (!s)
		return -1;
	for (size_t i = 0; i < sizeof(yes) / sizeof(yes[0]); i++)
		if (!strcasecmp(s, yes[i]))
			return 1;
	for (size_t i = 0; i < sizeof(no) / sizeof(no[0]); i++)
		if (!strcasecmp(s, no[i]))
			return 0;
	return -1;
}

/* option among the comma-separated words of value ("off" in "off,nosmt"). */
bool proof_has_option(const char *value, const char *option)
{
	size_t n = strlen(option);

	for (const char *p = value; p && *p;) {
		const char *comma = strchr(p, ',');
		size_t len = comma ? (size_t)(comma - p) : strlen(p);

		if (len == n && !strncmp(p, option, n))
			return true;
		p = comma ? comma + 1 : NULL;
	}
	return false;
}

bool proof_value_is(const struct verify_arg *a, const char *v)
{
	return a->value && !strcmp(a->value, v);
}

char *proof_param_key(const char *name)
{
	char *key = xstrdup(name);

	for (char *p = key; *p; p++)
		if (*p == '-')
			*p = '_';
	return key;
}

/* A kernel-state file from the snapshot (snapshot.sh's state records), or NULL. */
const char *proof_state(const struct judge *j, const char *path)
{
	return snapshot_entry_get(&j->snap->state, path, NULL);
}

/* The selected word of "always [madvise] never" (or "(full)" with open '('), the caller's. */
char *proof_selected_word(const char *s, char open, char close)
{
	const char *a = s ? strchr(s, open) : NULL, *b = a ? strchr(a + 1, close) : NULL;

	return b ? xstrndup(a + 1, (size_t)(b - a - 1)) : NULL;
}

/* The message of the last kernel-log evidence line holding needle (its "[  0.0] " stamp left out), or NULL. */
const char *proof_evidence_line(const struct snapshot *snap, const char *needle)
{
	const char *found = NULL;

	for (size_t i = 0; i < snap->n_evidence; i++) {
		const char *line = snap->evidence[i], *stamp = line[0] == '[' ? strstr(line, "] ") : NULL;

		if (strstr(line, needle))
			found = stamp ? stamp + 2 : line;
	}
	return found;
}

const char *proof_log_where(const struct snapshot *snap)
{
	return snapshot_log_source_name(snap->log_source);
}
