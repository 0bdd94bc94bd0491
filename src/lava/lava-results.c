#include "lava/lava.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "lib/alloc.h"
#include "lib/base64.h"
#include "lib/parse-number.h"
#include "lib/strbuf.h"

/* A job's log is read whole; one carried file is at most this large. */
#define LAVA_FILE_MAX ((size_t)256 << 20)

static json_t *load_object(const char *json, size_t len, struct parse_error *err)
{
	json_error_t je;
	json_t *root = json_loadb(json, len, 0, &je);

	if (!root) {
		parse_error_set(err, (unsigned)(je.line > 0 ? je.line : 0), (unsigned)(je.column > 0 ? je.column : 0),
				"not JSON: %s", je.text);
		return NULL;
	}
	if (!json_is_object(root)) {
		parse_error_set(err, 1, 0, "not a JSON object");
		json_decref(root);
		return NULL;
	}
	return root;
}

/*
 * A text of LAVA's for a message: at most LAVA_FIELD_MAX bytes, cut at a
 * UTF-8 boundary with "..." and the whole length after it (a server's
 * 1 MB field would otherwise be a 1 MB line).
 */
static char *lava_field_dup(const char *s)
{
	size_t len = strlen(s), cut = LAVA_FIELD_MAX;

	if (len <= LAVA_FIELD_MAX)
		return xstrdup(s);
	while (cut > 0 && ((unsigned char)s[cut] & 0xC0) == 0x80)
		cut--;
	return xasprintf("%.*s... (%zu bytes)", (int)cut, s, len);
}

int lava_submit_parse(const char *json, size_t len, long *ret_id, struct parse_error *err)
{
	json_t *root = load_object(json, len, err), *ids, *id;

	if (!root)
		return -EINVAL;
	ids = json_object_get(root, "job_ids");
	id = json_is_array(ids) && json_array_size(ids) == 1 ? json_array_get(ids, 0) : NULL;
	if (!json_is_integer(id) || json_integer_value(id) <= 0) {
		json_t *msg = json_object_get(root, "message");
		char *text = json_is_string(msg) ? lava_field_dup(json_string_value(msg)) : NULL;

		parse_error_set(err, 1, 0, "no job id (job_ids)%s%s", text ? ": " : "", text ? text : "");
		free(text);
		json_decref(root);
		return -EINVAL;
	}
	*ret_id = (long)json_integer_value(id);
	json_decref(root);
	return 0;
}

/* A string member, or NULL when it is null, empty or absent; -EINVAL when another type. */
static int string_member(json_t *root, const char *key, bool required, char **ret, struct parse_error *err)
{
	json_t *v = json_object_get(root, key);

	*ret = NULL;
	if ((!v || json_is_null(v)) && !required)
		return 0;
	if (!json_is_string(v) || (required && !*json_string_value(v))) {
		parse_error_set(err, 1, 0, "%s: %s", key, v ? "not a string" : "missing");
		return -EINVAL;
	}
	if (*json_string_value(v))
		*ret = lava_field_dup(json_string_value(v));
	return 0;
}

int lava_job_status_parse(const char *json, size_t len, struct lava_job_status *ret, struct parse_error *err)
{
	json_t *root = load_object(json, len, err), *id, *dev;
	struct lava_job_status st = { 0 };
	int r;

	if (!root)
		return -EINVAL;
	id = json_object_get(root, "id");
	if (!json_is_integer(id) || json_integer_value(id) <= 0) {
		parse_error_set(err, 1, 0, "id: %s", id ? "not a job id" : "missing");
		json_decref(root);
		return -EINVAL;
	}
	st.id = (long)json_integer_value(id);
	r = string_member(root, "state", true, &st.state, err);
	if (r == 0)
		r = string_member(root, "health", true, &st.health, err);
	if (r == 0)
		r = string_member(root, "failure_comment", false, &st.failure_comment, err);
	/* actual_device: the device's hostname (its primary key), null before scheduling. */
	dev = json_object_get(root, "actual_device");
	if (r == 0 && dev && !json_is_null(dev)) {
		if (json_is_string(dev)) {
			st.actual_device = lava_field_dup(json_string_value(dev));
		} else {
			parse_error_set(err, 1, 0, "actual_device: not a device name");
			r = -EINVAL;
		}
	}
	json_decref(root);
	if (r < 0) {
		lava_job_status_release(&st);
		return r;
	}
	*ret = st;
	return 0;
}

void lava_job_status_release(struct lava_job_status *s)
{
	free(s->state);
	free(s->health);
	free(s->actual_device);
	free(s->failure_comment);
	memset(s, 0, sizeof(*s));
}

const struct lava_file *lava_files_find(const struct lava_files *files, const char *name)
{
	for (size_t i = 0; i < files->n; i++)
		if (!strcmp(files->v[i].name, name))
			return &files->v[i];
	return NULL;
}

void lava_files_release(struct lava_files *files)
{
	for (size_t i = 0; i < files->n; i++) {
		free(files->v[i].name);
		free(files->v[i].data);
	}
	free(files->v);
	memset(files, 0, sizeof(*files));
}

/*
 * The message of one log record when it is the test shell's (level
 * "target"); NULL for other records. LAVA writes each record as
 * "- {JSON}" on a line of its own (lava_common/log.py); records of other
 * levels may carry YAML tags ("! \"588\"") and are not read.
 */
static int target_message(const char *line, size_t len, char **ret, struct parse_error *err, unsigned lineno)
{
	static const char level[] = "\"lvl\": \"target\"";
	json_error_t je;
	json_t *rec, *msg;

	*ret = NULL;
	if (len < 3 || strncmp(line, "- {", 3) || !memmem(line, len, level, sizeof(level) - 1))
		return 0;
	rec = json_loadb(line + 2, len - 2, 0, &je);
	msg = rec ? json_object_get(rec, "msg") : NULL;
	if (!rec || !json_is_string(msg)) {
		parse_error_set(err, lineno, rec ? 0 : (unsigned)je.column + 2, "a target record %s",
				rec ? "without a string msg" : "that is not JSON");
		json_decref(rec);
		return -EINVAL;
	}
	*ret = xstrdup(json_string_value(msg));
	json_decref(rec);
	return 0;
}

static bool file_name_valid(const char *n)
{
	if (!*n || strlen(n) > 32)
		return false;
	for (; *n; n++)
		if (!strchr("abcdefghijklmnopqrstuvwxyz0123456789-", *n))
			return false;
	return true;
}

/* The state of the reader: the block being read, if any. */
struct log_reader {
	struct lava_files files;
	unsigned *begin_lines;   /* each file's begin line */
	size_t alloc_lines;
	char *name;              /* the open block's, or NULL */
	unsigned long long size;
	unsigned begin_line;
	struct strbuf data;
};

static int reader_begin(struct log_reader *rd, const char *msg, unsigned lineno, struct parse_error *err)
{
	char name[64];
	const char *p = msg + strlen("bootab-lava-begin ");
	size_t n = strcspn(p, " ");
	long size;
	const char *end;

	if (rd->name) {
		parse_error_set(err, lineno, 0, "a block begins inside block '%s' (begun on line %u)", rd->name,
				rd->begin_line);
		return -EINVAL;
	}
	if (n == 0 || n >= sizeof(name) || p[n] != ' ' ||
	    number_scan_long(p + n + 1, 10, 0, (long)LAVA_FILE_MAX, &size, &end) < 0 || *end) {
		parse_error_set(err, lineno, 0, "not a 'bootab-lava-begin NAME SIZE' line");
		return -EINVAL;
	}
	memcpy(name, p, n);
	name[n] = '\0';
	if (!file_name_valid(name)) {
		parse_error_set(err, lineno, 0, "'%s' is not a file name bootab's test script prints", name);
		return -EINVAL;
	}
	rd->name = xstrdup(name);
	rd->size = (unsigned long long)size;
	rd->begin_line = lineno;
	strbuf_truncate(&rd->data, 0);
	return 0;
}

static int reader_end(struct log_reader *rd, const char *msg, unsigned lineno, struct parse_error *err)
{
	const char *name = msg + strlen("bootab-lava-end ");
	struct lava_file *f;

	if (!rd->name || strcmp(rd->name, name)) {
		parse_error_set(err, lineno, 0, "the end of block '%s' without its begin", name);
		return -EINVAL;
	}
	if (rd->data.len != rd->size) {
		parse_error_set(err, lineno, 0, "block '%s' holds %zu bytes, not the %llu its begin line announced (line %u)",
				rd->name, rd->data.len, rd->size, rd->begin_line);
		return -EINVAL;
	}
	GROW(rd->files.v, rd->files.alloc, rd->files.n + 1);
	GROW(rd->begin_lines, rd->alloc_lines, rd->files.n + 1);
	rd->begin_lines[rd->files.n] = rd->begin_line;
	f = &rd->files.v[rd->files.n++];
	f->name = rd->name;
	f->len = rd->data.len;
	f->data = xmalloc(f->len + 1);
	memcpy(f->data, strbuf_str(&rd->data), f->len);
	f->data[f->len] = '\0';
	rd->name = NULL;
	return 0;
}

/* A line of the open block: base64, or (at the line's start) a kernel message to skip. */
static int reader_data(struct log_reader *rd, const char *msg, unsigned lineno, struct parse_error *err)
{
	size_t n = strlen(msg);

	/* The console ends lines with \r\n; printk lines ("[  12.3] ...") are not the script's. */
	while (n && (msg[n - 1] == '\r' || msg[n - 1] == ' '))
		n--;
	if (n == 0 || msg[0] == '[')
		return 0;
	if (base64_decode_append(&rd->data, msg, n) < 0) {
		parse_error_set(err, lineno, 0, "block '%s' (begun on line %u): not base64", rd->name, rd->begin_line);
		return -EINVAL;
	}
	if (rd->data.len > rd->size) {
		parse_error_set(err, lineno, 0, "block '%s' is longer than the %llu bytes announced on line %u",
				rd->name, rd->size, rd->begin_line);
		return -EINVAL;
	}
	return 0;
}

struct block_ref {
	const char *name;
	unsigned line;
};

static int block_ref_cmp(const void *a, const void *b)
{
	const struct block_ref *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	return c ? c : (x->line > y->line) - (x->line < y->line);
}

/*
 * A block given twice: the first line (in the log's order) that repeats
 * a name. Sorted once, not searched at every block: a log of many blocks
 * stays linear (n log n) in them.
 */
static int blocks_distinct(const struct log_reader *rd, struct parse_error *err)
{
	struct block_ref *refs = xcalloc(rd->files.n ? rd->files.n : 1, sizeof(*refs));
	const struct block_ref *twice = NULL;

	for (size_t i = 0; i < rd->files.n; i++)
		refs[i] = (struct block_ref){ rd->files.v[i].name, rd->begin_lines[i] };
	qsort(refs, rd->files.n, sizeof(*refs), block_ref_cmp);
	for (size_t i = 1; i < rd->files.n; i++)
		if (!strcmp(refs[i].name, refs[i - 1].name) && (!twice || refs[i].line < twice->line))
			twice = &refs[i];
	if (twice)
		parse_error_set(err, twice->line, 0, "block '%s' is given twice", twice->name);
	free(refs);
	return twice ? -EINVAL : 0;
}

int lava_log_files(const char *log, size_t len, struct lava_files *ret, struct parse_error *err)
{
	struct log_reader rd = { .data = STRBUF_INIT };
	const char *p = log, *end = log + len;
	unsigned lineno = 0;
	int r = 0;

	while (p < end && r == 0) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
		char *msg = NULL;

		lineno++;
		r = target_message(p, n, &msg, err, lineno);
		if (r == 0 && msg) {
			if (!strncmp(msg, "bootab-lava-begin ", 18))
				r = reader_begin(&rd, msg, lineno, err);
			else if (!strncmp(msg, "bootab-lava-end ", 16))
				r = reader_end(&rd, msg, lineno, err);
			else if (rd.name)
				r = reader_data(&rd, msg, lineno, err);
		}
		free(msg);
		p += n + (nl ? 1 : 0);
	}
	if (r == 0 && rd.name) {
		parse_error_set(err, rd.begin_line, 0, "block '%s' has no end: the log stops inside it", rd.name);
		r = -EINVAL;
	}
	if (r == 0)
		r = blocks_distinct(&rd, err);
	free(rd.name);
	free(rd.begin_lines);
	strbuf_release(&rd.data);
	if (r < 0) {
		lava_files_release(&rd.files);
		return r;
	}
	*ret = rd.files;
	return 0;
}

int lava_log_job_error(const char *log, size_t len, char **ret)
{
	static const char level[] = "\"lvl\": \"results\"", error_level[] = "\"lvl\": \"error\"";
	const char *p = log, *end = log + len;
	char *found = NULL, *last_error = NULL;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
		bool results = memmem(p, n, level, sizeof(level) - 1) != NULL;
		bool error = !results && memmem(p, n, error_level, sizeof(error_level) - 1) != NULL;
		json_t *rec = (results || error) && n > 3 && !strncmp(p, "- {", 3) ? json_loadb(p + 2, n - 2, 0, NULL) : NULL;
		json_t *msg = json_object_get(rec, "msg");

		if (error && json_is_string(msg)) {
			free(last_error);
			last_error = xstrdup(json_string_value(msg));
		} else if (results && json_is_object(msg) && json_is_string(json_object_get(msg, "error_msg")) &&
			   json_is_string(json_object_get(msg, "case")) &&
			   !strcmp(json_string_value(json_object_get(msg, "case")), "job")) {
			const char *type = json_string_value(json_object_get(msg, "error_type"));

			free(found);
			found = xasprintf("%s%s%s", type ? type : "", type ? " error: " : "",
					  json_string_value(json_object_get(msg, "error_msg")));
		}
		json_decref(rec);
		p += n + (nl ? 1 : 0);
	}
	if (!found)
		found = last_error;
	else
		free(last_error);
	if (!found)
		return -ENOENT;
	if (strlen(found) > LAVA_FIELD_MAX) {
		char *cut = lava_field_dup(found);

		free(found);
		found = cut;
	}
	/* One line: LAVA's messages end in newlines and may hold more. */
	for (char *c = found; *c; c++)
		if (*c == '\n' || *c == '\r')
			*c = ' ';
	for (size_t n = strlen(found); n > 0 && found[n - 1] == ' '; n--)
		found[n - 1] = '\0';
	*ret = found;
	return 0;
}
