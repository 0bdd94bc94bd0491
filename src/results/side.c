/*
 * A side directory read (side_load()): its meta.json (side-meta.c), then
 * every other file as a row, plain benchmark output recognised by its
 * content or a check's exit code; and what a loaded side answers.
 */
#include "results/side.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lib/alloc.h"
#include "lib/parse-number.h"
#include "lib/file.h"
#include "lib/parse-error.h"
#include "lib/strbuf.h"
#include "parsers/parser.h"
#include "results/side-internal.h"

struct row *side_find_row(const struct side *side, const char *name)
{
	for (size_t i = 0; i < side->n_rows; i++)
		if (!strcmp(side->rows[i].name, name))
			return &side->rows[i];
	return NULL;
}

/* Whether word (n bytes) is one of line's blank-separated words. */
static bool has_word(const char *line, const char *word, size_t n)
{
	for (const char *p = line; *p;) {
		size_t m;

		p += strspn(p, " ");
		m = strcspn(p, " ");
		if (m == n && !memcmp(p, word, n))
			return true;
		p += m;
	}
	return false;
}

/* Appends to sb each word of a not in b, as SIGN WORD. */
static void add_missing_words(struct strbuf *sb, const char *a, const char *b, char sign)
{
	for (const char *p = a; *p;) {
		size_t m;

		p += strspn(p, " ");
		m = strcspn(p, " ");
		if (m && !has_word(b, p, m))
			strbuf_addf(sb, "%s%c%.*s", sb->len ? " " : "", sign, (int)m, p);
		p += m;
	}
}

char *side_args_against(const struct side *side, const struct side *first)
{
	struct strbuf sb = STRBUF_INIT;

	if (!side->cmdline || !first->cmdline)
		return NULL;
	add_missing_words(&sb, first->cmdline, side->cmdline, '-');
	add_missing_words(&sb, side->cmdline, first->cmdline, '+');
	return strbuf_detach(&sb, NULL);
}

const char *side_version(const struct side *side, const char *name)
{
	for (size_t i = 0; i < side->n_versions; i++)
		if (!strcmp(side->versions[i].name, name))
			return side->versions[i].value;
	return NULL;
}

struct row *side_add_row(struct side *side, const char *name, const char *source)
{
	struct row *r;

	GROW(side->rows, side->alloc_rows, side->n_rows + 1);
	r = &side->rows[side->n_rows++];
	memset(r, 0, sizeof(*r));
	r->name = xstrdup(name);
	r->source = xstrdup(source);
	return r;
}

static void row_release(struct row *r)
{
	free(r->name);
	free(r->source);
	free(r->rep_s);
	metric_set_release(&r->metrics);
}

/* Row names travel into tables, file names and JSON: keep them printable. */
static bool row_name_valid(const char *name)
{
	if (!*name || strlen(name) > 200)
		return false;
	for (const char *p = name; *p; p++)
		if (!isprint((unsigned char)*p))
			return false;
	return true;
}

bool side_name_valid(const char *name)
{
	return row_name_valid(name);
}

bool side_recorded(const char *dir)
{
	char *meta = path_join(dir, "meta.json");
	bool recorded = path_exists(meta);

	free(meta);
	return recorded;
}

bool results_name_reserved(const char *name, const char **ret_why)
{
	/* docs/results-format.md: the campaign directory's own files. */
	static const char *const campaign_files[] = {
		"plan.ini", "journal", "lock", "report.txt", "report.md", "report.json", "report.html", NULL
	};

	if (name[0] == '.') {
		*ret_why = "names starting with '.' are the directory itself, its parent or bootab's temporary files";
		return true;
	}
	for (size_t i = 0; campaign_files[i]; i++)
		if (!strcmp(name, campaign_files[i])) {
			*ret_why = "a file of the campaign directory has that name";
			return true;
		}
	if (strstr(name, ".abandoned-") || strstr(name, ".tmp-")) {
		*ret_why = "names with '.abandoned-' or '.tmp-' are those of set-aside sides and temporary files";
		return true;
	}
	return false;
}

/* Files bootab writes into a side that are not benchmark output. */
static bool is_bootab_file(const char *name)
{
	static const char *const own[] = { "meta.json", "meta.txt", "iommu.txt", "journal", "snapshot.out", "kernel-config", "prepare.json", NULL };

	if (name[0] == '.' || strstr(name, ".tmp-"))
		return true;
	for (size_t i = 0; own[i]; i++)
		if (!strcmp(name, own[i]))
			return true;
	return false;
}

static char *row_name_from_file(const char *name)
{
	const char *dot = strrchr(name, '.');

	return dot && dot != name ? xstrndup(name, (size_t)(dot - name)) : xstrdup(name);
}

static void load_check_file(const char *file, const char *data, const char *row_name,
			    struct side *side, struct strlist *warnings)
{
	const char *end = data;
	long rc = -1;
	struct row *row;

	/* Blanks around the number, as `echo $? > FILE` and editors leave them. */
	while (*data == ' ' || *data == '\t')
		data++;
	if (number_scan_long(data, 10, 0, 255, &rc, &end) == 0)
		while (*end == '\n' || *end == ' ' || *end == '\t' || *end == '\r')
			end++;
	if (rc < 0 || *end) {
		strlist_addf(warnings, "%s:1: expected an exit code (0-255), ignoring the file", file);
		return;
	}
	row = side_find_row(side, row_name);
	if (row && (row->has_rc || row->metrics.n_metrics)) {
		strlist_addf(warnings, "%s: row '%s' is already recorded in %s, ignoring the file",
			     file, row_name, row->source);
		return;
	}
	if (!row)
		row = side_add_row(side, row_name, file);
	row->kind = ROW_CHECK;
	row->has_rc = true;
	row->rc = (int)rc;
}

static void load_plain_file(const char *dir, const char *name, struct side *side,
			    struct strlist *warnings)
{
	char *file = path_join(dir, name), *data = NULL, *row_name = row_name_from_file(name);
	struct metric_set set = METRIC_SET_INIT;
	struct parse_error err = PARSE_ERROR_INIT, warning = PARSE_ERROR_INIT;
	struct row *row;
	const char *ext = strrchr(name, '.');
	size_t len;
	int r;

	r = file_read(file, FILE_READ_MAX, &data, &len);
	if (r < 0) {
		strlist_addf(warnings, "%s: %s, ignoring", file,
			     r == -EINVAL ? "not a regular file" : strerror(-r));
		goto out;
	}
	if (!row_name_valid(row_name)) {
		strlist_addf(warnings, "%s: the file name is not a usable row name, ignoring", file);
		goto out;
	}
	if (ext && !strcmp(ext, ".rc")) {
		load_check_file(file, data, row_name, side, warnings);
		goto out;
	}
	if (memchr(data, '\0', len)) {
		strlist_addf(warnings, "%s: binary data, not a benchmark output bootab recognises, ignoring", file);
		goto out;
	}
	r = parser_parse(PARSER_AUTO, NULL, data, len, &set, &err, &warning);
	if (r == -ENOMSG) {
		strlist_addf(warnings, "%s: not a benchmark output bootab recognises, ignoring", file);
		goto out;
	}
	if (r < 0) {
		char *msg;

		parse_error_set_file(&err, file);
		msg = parse_error_format(&err);
		strlist_addf(warnings, "%s, ignoring the file", msg);
		free(msg);
		goto out;
	}
	if (warning.message) {
		char *msg;

		parse_error_set_file(&warning, file);
		msg = parse_error_format(&warning);
		strlist_addf(warnings, "%s, ignoring", msg);
		free(msg);
	}
	row = side_find_row(side, row_name);
	if (row && row->metrics.n_metrics) {
		strlist_addf(warnings, "%s: row '%s' is already recorded in %s, ignoring the file",
			     file, row_name, row->source);
		goto out;
	}
	if (!row)
		row = side_add_row(side, row_name, file);
	/* A row a meta.txt named with its exit code only, whose output this is. */
	if (set.n_metrics)
		row->kind = ROW_BENCH;
	free(row->source);
	row->source = xstrdup(file);
	metric_set_merge(&row->metrics, &set);
out:
	parse_error_release(&err);
	parse_error_release(&warning);
	metric_set_release(&set);
	free(row_name);
	free(data);
	free(file);
}

int side_load(const char *dir, struct side *ret, struct strlist *warnings)
{
	struct side side = { 0 };
	char **names = NULL;
	int r;

	r = dir_list(dir, &names, NULL);
	if (r < 0)
		return r;
	side.dir = xstrdup(dir);
	side.label = path_basename(dir);
	side.mode = side_mode_from_label(side.label);
	side_meta_load(dir, &side, warnings);
	for (char **n = names; *n; n++) {
		char *path;

		if (is_bootab_file(*n))
			continue;
		path = path_join(dir, *n);
		/* Subdirectories hold bootab's raw outputs and scripts, not rows. */
		if (!path_is_dir(path))
			load_plain_file(dir, *n, &side, warnings);
		free(path);
	}
	strv_free(names);
	if (side.n_rows == 0)
		strlist_addf(warnings, "%s: no results in this directory", dir);
	*ret = side;
	return 0;
}

void side_release(struct side *side)
{
	for (size_t i = 0; i < side->n_rows; i++)
		row_release(&side->rows[i]);
	for (size_t i = 0; i < side->n_versions; i++) {
		free(side->versions[i].name);
		free(side->versions[i].value);
	}
	free(side->rows);
	free(side->versions);
	free(side->dir);
	free(side->label);
	free(side->mode);
	free(side->machine_id);
	free(side->boot_id);
	inventory_release(&side->inventory);
	free(side->kernel.release);
	free(side->kernel.version);
	free(side->kernel.build_id);
	free(side->kernel.package);
	free(side->kernel.config_sha256);
	strv_free(side->kernel.config);
	free(side->proof);
	free(side->proof_weak);
	json_decref(side->meta);
	free(side->meta_problem);
	free(side->cmdline);
	free(side->iommu_summary);
	free(side->load);
	for (size_t i = 0; i < side->n_prepare; i++)
		free(side->prepare[i].command);
	free(side->prepare);
	memset(side, 0, sizeof(*side));
}
