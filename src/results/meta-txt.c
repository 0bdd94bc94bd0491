/*
 * meta.txt as a side's own bench script writes it (the layout of the
 * per-boot bench in docs/results-format.md), for side directories that
 * hold plain benchmark output and no meta.json:
 *
 *   2026-10-14T20:34:09+03:00                  when the script started
 *   7.2.9-300.fc45.x86_64                      uname -r
 *   BOOT_IMAGE=... amd_iommu=off               /proc/cmdline
 *   iommu group types: 1 DMA, 32 DMA-FQ, 2 identity   (empty: no groups)
 *   Oct 14 20:33:35 a9-mega kernel: iommu: ... kernel log lines (evidence)
 *   79e2e74eb 2026-10-09                       build lines: what ran, one a line
 *   start 2026-10-14T20:35:09+03:00 load 0.12 0.07 0.02 1/601 2574
 *   fn-vk rc=0 2026-10-14T20:51:23+03:00       one line per row, when it ended
 *   end 2026-10-14T21:12:03+03:00
 *
 * The facts become a document with meta.json's keys (kernel, cmdline,
 * iommu.summary, loadavg, versions, rows), so that every reader of a side
 * takes them as it takes bootab's own.
 */
#include "results/side.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "lib/alloc.h"
#include "lib/parse-number.h"
#include "lib/timestamp.h"
#include "parsers/parser.h"

#define META_TXT_LINE_MAX 4096

enum meta_txt_part { PART_TIME, PART_RELEASE, PART_CMDLINE, PART_HEAD, PART_ROWS, PART_END };

struct meta_txt {
	const char *file;
	json_t *doc, *versions, *rows, *log;
	enum meta_txt_part part;
	size_t builds;
	struct strlist *warnings;
};

static bool printable(const char *s)
{
	for (; *s; s++)
		if (!isprint((unsigned char)*s))
			return false;
	return true;
}

/* "TIME" alone, or at the start of rest: an RFC 3339 time (the first word). */
static bool take_time(const char *word, size_t n)
{
	char buf[64];
	double t;

	if (n == 0 || n >= sizeof(buf))
		return false;
	memcpy(buf, word, n);
	buf[n] = '\0';
	return timestamp_parse_rfc3339(buf, &t) == 0;
}

/* "NAME rc=N [TIME]": a row and its exit code. Returns false when line is no row line. */
static bool row_line(struct meta_txt *m, const char *line, size_t lineno)
{
	const char *sp = strchr(line, ' '), *rc, *end;
	long code;
	json_t *row;
	char *name;

	if (!sp || strncmp(sp + 1, "rc=", 3))
		return false;
	rc = sp + 4;
	name = xstrndup(line, (size_t)(sp - line));
	if (number_scan_long(rc, 10, 0, 255, &code, &end) < 0 || (*end && *end != ' ') ||
	    (*end && !take_time(end + 1, strlen(end + 1)))) {
		strlist_addf(m->warnings, "%s:%zu: rc: '%s' is not an exit code (0-255) and a time, ignoring the line",
			     m->file, lineno, rc);
	} else if (!side_name_valid(name) || strchr(name, '/')) {
		strlist_addf(m->warnings, "%s:%zu: the row name is not printable, ignoring the line", m->file, lineno);
	} else {
		row = json_pack("{s:s, s:s, s:I}", "name", name, "kind", "check", "rc", (json_int_t)code);
		if (*end)
			json_object_set_new(row, "end", json_string(end + 1));
		json_array_append_new(m->rows, row);
	}
	free(name);
	return true;
}

/* "start TIME load L1 L5 L15 R/T PID" (/proc/loadavg) or "end TIME". */
static bool start_end_line(struct meta_txt *m, const char *line, size_t lineno)
{
	bool start = !strncmp(line, "start ", 6);
	const char *t = line + (start ? 6 : 4), *load = strstr(t, " load ");
	size_t n = load ? (size_t)(load - t) : strlen(t);

	if (!start && strncmp(line, "end ", 4))
		return false;
	if (!take_time(t, n)) {
		strlist_addf(m->warnings, "%s:%zu: %s: '%.*s' is not an RFC 3339 time, ignoring it", m->file, lineno,
			     start ? "start" : "end", (int)n, t);
	} else {
		json_object_set_new(m->doc, start ? "rows_start" : "rows_end", json_stringn(t, n));
	}
	if (start && load && load[6])
		json_object_set_new(m->doc, "loadavg", json_string(load + 6));
	m->part = start ? PART_ROWS : PART_END;
	return true;
}

/* A line between the command line and "start": IOMMU group types, a kernel log line, a build line. */
static void head_line(struct meta_txt *m, const char *line, size_t lineno)
{
	static const char types[] = "iommu group types:";

	if (!strncmp(line, types, sizeof(types) - 1)) {
		const char *v = line + sizeof(types) - 1;

		while (*v == ' ')
			v++;
		/* The script's empty field: no groups exist, as the IOMMU was never initialised. */
		json_object_set_new(m->doc, "iommu", json_pack("{s:s}", "summary", *v ? v : "no IOMMU groups"));
		return;
	}
	if (parser_kernel_log_prefix(line, strlen(line))) {
		json_array_append_new(m->log, json_string(line));
		return;
	}
	if (!*line) {
		strlist_addf(m->warnings, "%s:%zu: an empty line before 'start', ignoring it", m->file, lineno);
		return;
	}
	{
		char *name = xasprintf("build %zu", ++m->builds);

		json_object_set_new(m->versions, name, json_string(line));
		free(name);
	}
}

static void meta_txt_line(struct meta_txt *m, const char *line, size_t lineno)
{
	switch (m->part) {
	case PART_TIME:
		if (!take_time(line, strlen(line)))
			strlist_addf(m->warnings, "%s:%zu: time: '%s' is not an RFC 3339 time, ignoring it", m->file,
				     lineno, line);
		else
			json_object_set_new(m->doc, "time", json_string(line));
		m->part = PART_RELEASE;
		return;
	case PART_RELEASE:
		if (!*line || strchr(line, ' '))
			strlist_addf(m->warnings, "%s:%zu: kernel: '%s' is not a kernel release (uname -r), ignoring it",
				     m->file, lineno, line);
		else
			json_object_set_new(m->doc, "kernel", json_string(line));
		m->part = PART_CMDLINE;
		return;
	case PART_CMDLINE:
		json_object_set_new(m->doc, "cmdline", json_string(line));
		m->part = PART_HEAD;
		return;
	case PART_HEAD:
		if (!start_end_line(m, line, lineno))
			head_line(m, line, lineno);
		return;
	case PART_ROWS:
		if (!start_end_line(m, line, lineno) && !row_line(m, line, lineno))
			strlist_addf(m->warnings, "%s:%zu: expected 'NAME rc=N TIME' or 'end TIME', ignoring the line",
				     m->file, lineno);
		return;
	case PART_END:
		if (*line)
			strlist_addf(m->warnings, "%s:%zu: a line after 'end', ignoring it", m->file, lineno);
		return;
	}
}

void side_meta_txt_parse(const char *file, const char *data, size_t len, struct side *side,
			 struct strlist *warnings)
{
	struct meta_txt m = { .file = file, .doc = json_object(), .versions = json_object(), .rows = json_array(),
			      .log = json_array(), .warnings = warnings };
	size_t lineno = 0;

	if (memchr(data, '\0', len)) {
		strlist_addf(warnings, "%s: binary data, not a meta.txt bootab reads, ignoring", file);
		goto out;
	}
	json_object_set_new(m.doc, "format", json_string("meta.txt"));
	for (const char *p = data; p < data + len;) {
		const char *nl = memchr(p, '\n', (size_t)(data + len - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(data + len - p);
		char *line;

		lineno++;
		if (n && p[n - 1] == '\r')
			n--;
		line = xstrndup(p, n);
		if (n > META_TXT_LINE_MAX || !printable(line))
			strlist_addf(warnings, "%s:%zu: a line of control characters or over %d bytes, ignoring it",
				     file, lineno, META_TXT_LINE_MAX);
		else
			meta_txt_line(&m, line, lineno);
		free(line);
		p += n + (nl ? 1 + (p[n] == '\r') : 0);
		if (!nl)
			break;
	}
	if (m.part != PART_END)
		strlist_addf(warnings, "%s: no 'end' line: the bench script did not finish, its last row may be missing",
			     file);
	json_object_set_new(m.doc, "versions", json_incref(m.versions));
	json_object_set_new(m.doc, "rows", json_incref(m.rows));
	if (json_array_size(m.log))
		json_object_set_new(m.doc, "iommu_log", json_pack("{s:O}", "lines", m.log));
	side_meta_apply(file, m.doc, side, warnings);
out:
	json_decref(m.doc);
	json_decref(m.versions);
	json_decref(m.rows);
	json_decref(m.log);
}
