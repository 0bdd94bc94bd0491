#include "judge/history.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <gsl/gsl_cdf.h>
#include <jansson.h>

#include "lib/alloc.h"
#include "lib/file.h"
#include "lib/json-text.h"
#include "lib/lockfile.h"
#include "lib/strbuf.h"

#define HISTORY_FORMAT "bootab-history"

char *history_default_path(const char *machine_id)
{
	const char *xdg = getenv("XDG_DATA_HOME"), *home = getenv("HOME");
	char *file = xasprintf("bootab/history/%s.json", machine_id), *base, *path;

	/* The XDG Base Directory spec: a relative XDG_DATA_HOME is to be ignored. */
	if (xdg && xdg[0] == '/')
		base = xstrdup(xdg);
	else if (home && home[0] == '/')
		base = path_join(home, ".local/share");
	else {
		free(file);
		return NULL;
	}
	path = path_join(base, file);
	free(base);
	free(file);
	return path;
}

const char *history_sides_machine(const struct side *sides, size_t n, struct strlist *warnings)
{
	const char *id = n ? sides[0].machine_id : NULL;

	for (size_t k = 1; k < n; k++) {
		if (!sides[k].machine_id || !id) {
			id = NULL;
			continue;
		}
		if (strcmp(sides[k].machine_id, id)) {
			if (warnings)
				strlist_addf(warnings, "%s and %s ran on different machines (%s, %s): no history is used",
					     sides[0].label, sides[k].label, id, sides[k].machine_id);
			return NULL;
		}
	}
	return id;
}

int history_open(const struct side *sides, size_t n, const char *arg, bool required, char **ret_path,
		 struct history *ret, char **ret_error, struct strlist *warnings)
{
	struct parse_error err = PARSE_ERROR_INIT;
	struct history history = HISTORY_INIT;
	const char *machine = history_sides_machine(sides, n, warnings);
	char *path = NULL;
	int r;

	if (arg && path_is_dir(arg)) {
		char *name;

		if (!machine) {
			*ret_error = xstrdup("a directory needs the sides' machine_id (meta.json); name a file instead");
			return -EINVAL;
		}
		name = xasprintf("%s.json", machine);
		path = path_join(arg, name);
		free(name);
	} else if (arg) {
		path = xstrdup(arg);
	} else if (machine) {
		path = history_default_path(machine);
	}
	if (!path) {
		if (required) {
			*ret_error = xstrdup(machine ? "neither XDG_DATA_HOME nor HOME is an absolute path"
						     : "the sides do not name their machine (meta.json machine_id)");
			return -EINVAL;
		}
		return 0;
	}
	r = history_load(path, &history, &err);
	if (r == -ENOENT) {
		history = (struct history)HISTORY_INIT;
		history.machine_id = machine ? xstrdup(machine) : NULL;
		r = 0;
	}
	if (r < 0) {
		char *msg = parse_error_format(&err);

		parse_error_release(&err);
		free(path);
		/* A broken default file does not stop the work that did not ask for it. */
		if (!arg && !required) {
			strlist_addf(warnings, "%s, ignoring the history", msg);
			free(msg);
			return 0;
		}
		*ret_error = msg;
		return -EINVAL;
	}
	parse_error_release(&err);
	if (machine && history.machine_id && strcmp(machine, history.machine_id)) {
		*ret_error = xasprintf("%s is the history of machine %s, but the sides ran on %s", path,
				       history.machine_id, machine);
		history_release(&history);
		free(path);
		return -EINVAL;
	}
	if (!history.machine_id && machine)
		history.machine_id = xstrdup(machine);
	*ret = history;
	*ret_path = path;
	return 1;
}

void history_entry_release(struct history_entry *e)
{
	for (size_t i = 0; i < e->n_metrics; i++) {
		free(e->metrics[i].row);
		free(e->metrics[i].metric);
		free(e->metrics[i].boots);
	}
	free(e->metrics);
	free(e->key);
	free(e->recorded);
	free(e->kind);
	memset(e, 0, sizeof(*e));
}

void history_release(struct history *h)
{
	for (size_t i = 0; i < h->n_entries; i++)
		history_entry_release(&h->entries[i]);
	free(h->entries);
	free(h->machine_id);
	memset(h, 0, sizeof(*h));
}

static int field_error(struct parse_error *err, const char *path, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int field_error(struct parse_error *err, const char *path, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	parse_error_set_file(err, path);
	parse_error_set(err, 0, 0, "%s", strbuf_str(&sb));
	strbuf_release(&sb);
	return -EINVAL;
}

static const char *string_field(json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));

	return s && *s ? s : NULL;
}

static int load_metric(const char *path, size_t ei, size_t mi, json_t *jm, struct history_metric *m,
		       struct parse_error *err)
{
	json_t *boots = json_object_get(jm, "boots"), *jb;
	const char *row = string_field(jm, "row"), *metric = string_field(jm, "metric");
	size_t bi;

	if (!row || !metric)
		return field_error(err, path, "entries[%zu].metrics[%zu]: row and metric must be non-empty strings", ei, mi);
	if (!json_is_array(boots))
		return field_error(err, path, "entries[%zu].metrics[%zu].boots: not an array", ei, mi);
	m->boots = xcalloc(json_array_size(boots) + 1, sizeof(*m->boots));
	json_array_foreach(boots, bi, jb) {
		json_t *mean = json_object_get(jb, "mean_log"), *n = json_object_get(jb, "n");
		json_t *ss = json_object_get(jb, "ss_log");

		if (!json_is_number(mean) || !isfinite(json_number_value(mean)) || !json_is_integer(n) ||
		    json_integer_value(n) < 1 || json_integer_value(n) > INT_MAX || !json_is_number(ss) ||
		    !(json_number_value(ss) >= 0) || !isfinite(json_number_value(ss))) {
			free(m->boots);
			m->boots = NULL;
			return field_error(err, path, "entries[%zu].metrics[%zu].boots[%zu]: needs mean_log (number), n (integer >= 1) and ss_log (number >= 0)",
					   ei, mi, bi);
		}
		m->boots[bi] = (struct stats_boot){ .mean = json_number_value(mean),
						    .n = (size_t)json_integer_value(n),
						    .ss = json_number_value(ss) };
	}
	m->n_boots = json_array_size(boots);
	m->row = xstrdup(row);
	m->metric = xstrdup(metric);
	return 0;
}

static int load_entry(const char *path, size_t ei, json_t *je, struct history_entry *e,
		      struct parse_error *err)
{
	json_t *metrics = json_object_get(je, "metrics"), *jm;
	const char *key = string_field(je, "key");
	size_t mi;

	if (!json_is_object(je))
		return field_error(err, path, "entries[%zu]: not an object", ei);
	if (!key)
		return field_error(err, path, "entries[%zu].key: missing or not a string", ei);
	if (!json_is_array(metrics))
		return field_error(err, path, "entries[%zu].metrics: not an array", ei);
	e->metrics = xcalloc(json_array_size(metrics) + 1, sizeof(*e->metrics));
	json_array_foreach(metrics, mi, jm) {
		int r = load_metric(path, ei, mi, jm, &e->metrics[e->n_metrics], err);

		if (r < 0) {
			history_entry_release(e);
			return r;
		}
		e->n_metrics++;
	}
	e->key = xstrdup(key);
	e->recorded = xstrdup(string_field(je, "recorded") ? string_field(je, "recorded") : "");
	e->kind = xstrdup(string_field(je, "kind") ? string_field(je, "kind") : "repeat");
	return 0;
}

int history_load(const char *path, struct history *ret, struct parse_error *err)
{
	struct history h = HISTORY_INIT;
	json_error_t jerr;
	json_t *root = NULL, *entries, *je;
	const char *format, *machine;
	char *data = NULL;
	size_t len, ei;
	int r;

	r = file_read(path, FILE_READ_MAX, &data, &len);
	if (r < 0) {
		parse_error_set_file(err, path);
		/* file_read() says -EINVAL for a device, a FIFO or a directory. */
		parse_error_set(err, 0, 0, "%s", r == -EINVAL ? "not a regular file: a history is a JSON file"
					   : r == -EFBIG ? "larger than a history bootab reads" : strerror(-r));
		return r;
	}
	root = json_loadb(data, len, JSON_REJECT_DUPLICATES, &jerr);
	free(data);
	if (!root) {
		parse_error_set_file(err, path);
		parse_error_set(err, (unsigned)jerr.line, (unsigned)jerr.column, "%s", jerr.text);
		return -EINVAL;
	}
	format = string_field(root, "format");
	if (!format || strcmp(format, HISTORY_FORMAT)) {
		r = field_error(err, path, "format: not a bootab history (\"%s\")", HISTORY_FORMAT);
		goto out;
	}
	if (json_integer_value(json_object_get(root, "format_version")) != 1) {
		r = field_error(err, path, "format_version: only version 1 is known");
		goto out;
	}
	entries = json_object_get(root, "entries");
	if (!json_is_array(entries)) {
		r = field_error(err, path, "entries: not an array");
		goto out;
	}
	machine = string_field(root, "machine_id");
	h.machine_id = machine ? xstrdup(machine) : NULL;
	json_array_foreach(entries, ei, je) {
		GROW(h.entries, h.alloc_entries, h.n_entries + 1);
		memset(&h.entries[h.n_entries], 0, sizeof(h.entries[0]));
		r = load_entry(path, ei, je, &h.entries[h.n_entries], err);
		if (r < 0) {
			history_release(&h);
			goto out;
		}
		h.n_entries++;
	}
	*ret = h;
	r = 0;
out:
	json_decref(root);
	return r;
}

int history_save(const struct history *h, const char *path)
{
	json_t *root = json_object(), *entries = json_array();
	char *dir, *slash, *text;
	int r;

	for (size_t i = 0; i < h->n_entries; i++) {
		const struct history_entry *e = &h->entries[i];
		json_t *je = json_object(), *metrics = json_array();

		for (size_t m = 0; m < e->n_metrics; m++) {
			json_t *jm = json_object(), *boots = json_array();

			for (size_t b = 0; b < e->metrics[m].n_boots; b++) {
				const struct stats_boot *bt = &e->metrics[m].boots[b];

				json_array_append_new(boots, json_pack("{s:f,s:I,s:f}", "mean_log", bt->mean,
								       "n", (json_int_t)bt->n, "ss_log", bt->ss));
			}
			json_object_set_new(jm, "row", json_string(e->metrics[m].row));
			json_object_set_new(jm, "metric", json_string(e->metrics[m].metric));
			json_object_set_new(jm, "boots", boots);
			json_array_append_new(metrics, jm);
		}
		json_object_set_new(je, "key", json_string(e->key));
		json_object_set_new(je, "recorded", json_string(e->recorded));
		json_object_set_new(je, "kind", json_string(e->kind));
		json_object_set_new(je, "metrics", metrics);
		json_array_append_new(entries, je);
	}
	json_object_set_new(root, "format", json_string(HISTORY_FORMAT));
	json_object_set_new(root, "format_version", json_integer(1));
	json_object_set_new(root, "machine_id", h->machine_id ? json_string(h->machine_id) : json_null());
	json_object_set_new(root, "entries", entries);
	text = json_text(root, JSON_INDENT(1) | JSON_PRESERVE_ORDER | JSON_ENSURE_ASCII);
	json_decref(root);
	if (!text)
		return -ENOMEM;
	dir = xstrdup(path);
	slash = strrchr(dir, '/');
	r = 0;
	if (slash && slash != dir) {
		*slash = '\0';
		r = dir_create_all(dir, 0755);
	}
	free(dir);
	if (r == 0) {
		size_t len = strlen(text);

		text[len] = '\n';
		r = file_write_atomic(path, text, len + 1, 0644);
		text[len] = '\0';
	}
	free(text);
	return r;
}

char *history_campaign_key(const struct side *sides, size_t n_sides)
{
	struct strbuf sb = STRBUF_INIT;
	bool ids = true;

	for (size_t k = 0; k < n_sides; k++)
		if (!strcmp(sides[k].mode, sides[0].mode) && !sides[k].boot_id)
			ids = false;
	for (size_t k = 0; k < n_sides; k++) {
		char *real;

		if (strcmp(sides[k].mode, sides[0].mode))
			continue;
		if (sb.len)
			strbuf_addch(&sb, ',');
		if (ids) {
			strbuf_addstr(&sb, sides[k].boot_id);
			continue;
		}
		real = realpath(sides[k].dir, NULL);
		strbuf_addstr(&sb, real ? real : sides[k].dir);
		free(real);
	}
	return strbuf_detach(&sb, NULL);
}

int history_add(struct history *h, struct history_entry *e)
{
	size_t kept = 0;

	/* A metric with one boot holds no boot-to-boot difference. */
	for (size_t m = 0; m < e->n_metrics; m++) {
		if (e->metrics[m].n_boots >= 2) {
			e->metrics[kept++] = e->metrics[m];
			continue;
		}
		free(e->metrics[m].row);
		free(e->metrics[m].metric);
		free(e->metrics[m].boots);
	}
	e->n_metrics = kept;
	if (!kept) {
		history_entry_release(e);
		return -ENODATA;
	}
	for (size_t i = 0; i < h->n_entries; i++)
		if (!strcmp(h->entries[i].key, e->key)) {
			history_entry_release(&h->entries[i]);
			h->entries[i] = *e;
			memset(e, 0, sizeof(*e));
			return 0;
		}
	GROW(h->entries, h->alloc_entries, h->n_entries + 1);
	h->entries[h->n_entries++] = *e;
	memset(e, 0, sizeof(*e));
	return 0;
}

int history_record_locked(struct history *history, const char *path, struct history_entry *entry)
{
	struct parse_error err = PARSE_ERROR_INIT;
	struct history fresh = HISTORY_INIT;
	char *dir = xstrdup(path), *slash = strrchr(dir, '/'), *lock_path = NULL;
	bool any = false;
	int r = 0, fd = -1;

	for (size_t m = 0; m < entry->n_metrics; m++)
		any |= entry->metrics[m].n_boots >= 2;
	if (!any) {
		history_entry_release(entry);
		free(dir);
		return -ENODATA;
	}
	/* DIR/.NAME.lock: hidden beside the file, where a listing of histories does not see it. */
	if (slash) {
		*slash = '\0';
		lock_path = xasprintf("%s/.%s.lock", slash == dir ? "" : dir, slash + 1);
		if (slash != dir)
			r = dir_create_all(dir, 0755);
	} else {
		lock_path = xasprintf(".%s.lock", path);
	}
	free(dir);
	if (r == 0)
		r = lockfile_wait(lock_path, &fd);
	free(lock_path);
	if (r == 0) {
		r = history_load(path, &fresh, &err);
		if (r == -ENOENT) {
			fresh = (struct history)HISTORY_INIT;
			r = 0;
		}
	}
	if (r == 0 && fresh.machine_id && history->machine_id && strcmp(fresh.machine_id, history->machine_id))
		r = -EINVAL;
	if (r == 0 && !fresh.machine_id && history->machine_id)
		fresh.machine_id = xstrdup(history->machine_id);
	if (r == 0)
		r = history_add(&fresh, entry);
	if (r == 0)
		r = history_save(&fresh, path);
	if (fd >= 0)
		close(fd);
	parse_error_release(&err);
	history_entry_release(entry);
	if (r < 0) {
		history_release(&fresh);
		return r;
	}
	history_release(history);
	*history = fresh;
	return 0;
}

void history_campaign_ids(const struct side *sides, size_t n_sides, struct strlist *ret)
{
	for (size_t k = 0; k < n_sides; k++) {
		char *real = realpath(sides[k].dir, NULL);

		if (sides[k].boot_id)
			strlist_add(ret, sides[k].boot_id);
		strlist_add(ret, real ? real : sides[k].dir);
		free(real);
	}
}

/* Whether key (boot names joined with ',') names one of skip's boots. */
static bool key_holds(const char *key, const struct strlist *skip)
{
	const char *p = key;

	while (skip && *p) {
		const char *comma = strchr(p, ',');
		size_t len = comma ? (size_t)(comma - p) : strlen(p);

		for (size_t i = 0; i < skip->n; i++)
			if (strlen(skip->items[i]) == len && !strncmp(skip->items[i], p, len))
				return true;
		if (!comma)
			break;
		p = comma + 1;
	}
	return false;
}

struct entry_age {
	size_t entry;           /* index in the history */
	size_t metric;          /* index in the entry */
	const char *recorded;
};

/* Newest first: later recorded time, then later in the file. */
static int cmp_newest(const void *a, const void *b)
{
	const struct entry_age *x = a, *y = b;
	int c = strcmp(y->recorded, x->recorded);

	if (c)
		return c;
	return (y->entry > x->entry) - (y->entry < x->entry);
}

static int cmp_file_order(const void *a, const void *b)
{
	const struct entry_age *x = a, *y = b;

	return (x->entry > y->entry) - (x->entry < y->entry);
}

/*
 * The entries that judge row/metric: those holding it with two boots or
 * more and none of skip's boots, the HISTORY_MAX_ENTRIES newest of them,
 * in file order. Returns their number; *ret_found is the caller's.
 */
static size_t judging_entries(const struct history *h, const char *row, const char *metric,
			      const struct strlist *skip, struct entry_age **ret_found)
{
	struct entry_age *found = NULL;
	size_t n = 0, alloc = 0;

	for (size_t i = 0; h && i < h->n_entries; i++) {
		const struct history_entry *e = &h->entries[i];

		if (key_holds(e->key, skip))
			continue;
		for (size_t m = 0; m < e->n_metrics; m++) {
			if (strcmp(e->metrics[m].row, row) || strcmp(e->metrics[m].metric, metric) ||
			    e->metrics[m].n_boots < 2)
				continue;
			GROW(found, alloc, n + 1);
			found[n++] = (struct entry_age){ i, m, e->recorded ? e->recorded : "" };
			break;
		}
	}
	if (n > HISTORY_MAX_ENTRIES) {
		qsort(found, n, sizeof(*found), cmp_newest);
		n = HISTORY_MAX_ENTRIES;
		qsort(found, n, sizeof(*found), cmp_file_order);
	}
	*ret_found = found;
	return n;
}

size_t history_groups(const struct history *h, const char *row, const char *metric,
		      const struct strlist *skip, struct stats_group **ret_groups)
{
	struct entry_age *found;
	struct stats_group *g;
	size_t n = judging_entries(h, row, metric, skip, &found);

	g = n ? xcalloc(n, sizeof(*g)) : NULL;
	for (size_t i = 0; i < n; i++) {
		const struct history_metric *hm = &h->entries[found[i].entry].metrics[found[i].metric];

		g[i] = (struct stats_group){ hm->boots, hm->n_boots };
	}
	free(found);
	*ret_groups = g;
	return n;
}

void history_metric_slots(const struct history *h, const char *row, const char *metric,
			  const struct strlist *skip, const struct history_metric **ret)
{
	struct entry_age *found;
	size_t n = judging_entries(h, row, metric, skip, &found);

	for (size_t i = 0; h && i < h->n_entries; i++)
		ret[i] = NULL;
	for (size_t i = 0; i < n; i++)
		ret[found[i].entry] = &h->entries[found[i].entry].metrics[found[i].metric];
	free(found);
}

/*
 * The false-claim rate of the history t on a box whose boot-mean sd is f
 * times its history's, when the history judges only below limit: the
 * chance that the ratio stays under limit times the chance that a test
 * trusting the history claims. The history's variance is taken as known
 * and the campaign's own left out of the pooled one: both err on the side
 * of more false claims.
 */
static double box_false_claims(double limit, double f, const double *law, double z)
{
	double x = limit / (f * f * law[0]);
	double below = isinf(law[2]) ? gsl_cdf_chisq_P(x * law[1], law[1]) : gsl_cdf_fdist_P(x, law[1], law[2]);

	return below * 2 * gsl_cdf_ugaussian_Q(z / f);
}

static double box_worst(double limit, const double *law, double z)
{
	double worst = 0;

	/* Beyond f = 8 the ratio is far above any limit this returns. */
	for (double f = 1; f <= 8; f += 0.01)
		worst = fmax(worst, box_false_claims(limit, f, law, z));
	return worst;
}

double history_box_limit(double expected, double df, double df_history, double alpha)
{
	static double cached[4], cached_limit;
	double z, lo = 1e-4, hi = 1e4, law[3];

	if (!(expected > 0) || !(df > 0) || !(df_history > 2) || !(alpha > 0 && alpha < 0.5))
		return NAN;
	if (expected == cached[0] && df == cached[1] && df_history == cached[2] && alpha == cached[3])
		return cached_limit;
	/* The ratio is law[0] x F(law[1], law[2]), or law[0] x chi-square(law[1]) / law[1]. */
	law[0] = isinf(df_history) ? expected : expected * (df_history - 2) / df_history;
	law[1] = df;
	law[2] = df_history;
	z = gsl_cdf_ugaussian_Qinv(alpha / 2);
	/* The worst rate grows with the limit: bisect on it (log scale). */
	for (int i = 0; i < 40; i++) {
		double mid = sqrt(lo * hi);

		if (box_worst(mid, law, z) > 2 * alpha)
			hi = mid;
		else
			lo = mid;
	}
	cached[0] = expected;
	cached[1] = df;
	cached[2] = df_history;
	cached[3] = alpha;
	cached_limit = lo;
	return lo;
}
