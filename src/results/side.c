#include "results/side.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "kernel/cmdline.h"
#include "kernel/proof.h"
#include "kernel/snapshot.h"
#include "lib/alloc.h"
#include "lib/escape.h"
#include "lib/parse-number.h"
#include "lib/file.h"
#include "lib/parse-error.h"
#include "lib/strbuf.h"
#include "lib/timestamp.h"
#include "parsers/parser.h"

char *side_mode_from_label(const char *label)
{
	size_t n = strlen(label);

	while (n > 0 && isdigit((unsigned char)label[n - 1]))
		n--;
	/* A label made only of digits is its own mode. */
	return n ? xstrndup(label, n) : xstrdup(label);
}

/*
 * Names grouped as side_modes groups modes: names[k] is side k's; *ret_index
 * (when not NULL, the caller's) maps each name to its group's number.
 */
static void group_names(const char *const *names, size_t n, struct side_modes *ret, json_t **ret_index)
{
	json_t *index = json_object();
	size_t *count = xcalloc(n + 1, sizeof(*count)), *fill = xcalloc(n + 1, sizeof(*fill));
	struct side_modes m = { .of = xcalloc(n + 1, sizeof(*m.of)), .start = xcalloc(n + 2, sizeof(*m.start)),
				.sides = xcalloc(n + 1, sizeof(*m.sides)) };

	for (size_t k = 0; k < n; k++) {
		json_t *g = json_object_get(index, names[k]);

		if (!g) {
			g = json_integer((json_int_t)m.n++);
			/* Names are bytes to compare, not text: no UTF-8 check. */
			json_object_set_new_nocheck(index, names[k], g);
		}
		m.of[k] = (size_t)json_integer_value(g);
		count[m.of[k]]++;
	}
	for (size_t g = 0; g < m.n; g++)
		m.start[g + 1] = m.start[g] + count[g];
	for (size_t k = 0; k < n; k++)
		m.sides[m.start[m.of[k]] + fill[m.of[k]]++] = k;
	free(count);
	free(fill);
	if (ret_index)
		*ret_index = index;
	else
		json_decref(index);
	*ret = m;
}

void side_modes_index(const struct side *sides, size_t n, struct side_modes *ret)
{
	const char **names = xcalloc(n + 1, sizeof(*names));

	for (size_t k = 0; k < n; k++)
		names[k] = sides[k].mode;
	group_names(names, n, ret, NULL);
	free(names);
}

size_t side_modes_first(const struct side_modes *modes, size_t g)
{
	return modes->sides[modes->start[g]];
}

size_t side_modes_count(const struct side_modes *modes, size_t g)
{
	return modes->start[g + 1] - modes->start[g];
}

void side_modes_release(struct side_modes *modes)
{
	free(modes->of);
	free(modes->start);
	free(modes->sides);
	*modes = (struct side_modes){ 0 };
}

/* The first side labelled the len bytes of name, from labels (the labels' index); -1 when none is. */
static long label_find(json_t *labels, const struct side_modes *groups, const char *name, size_t len)
{
	char *key = xstrndup(name, len);
	json_t *g = json_object_get(labels, key);

	free(key);
	return g ? (long)side_modes_first(groups, (size_t)json_integer_value(g)) : -1;
}

/* Whether some side is labelled prefix (len bytes) followed by "1" exactly. */
static bool series_starts_at_one(json_t *labels, const char *prefix, size_t len)
{
	char *key = xasprintf("%.*s1", (int)len, prefix);
	bool found = json_object_get(labels, key) != NULL;

	free(key);
	return found;
}

static int side_index_cmp(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	return (x > y) - (x < y);
}

/*
 * Whether label (len bytes) is a repeat of a side labelled m, a proper
 * prefix of it; *ret_series is set when it reads as one of a numbered
 * series instead.
 */
static bool label_extends(const char *label, size_t len, const char *m, json_t *labels, bool *ret_series)
{
	static const char *const suffixes[] = { "-again", "_again", "-repeat", "_repeat", NULL };
	size_t ml = strlen(m);
	const char *rest = label + ml;
	bool separated = false;

	if (ml >= len || strncmp(label, m, ml))
		return false;
	for (const char *const *sfx = suffixes; *sfx; sfx++)
		if (!strcmp(rest, *sfx))
			return true;
	if (*rest == '-' || *rest == '_' || *rest == '.') {
		rest++;
		separated = true;
	}
	if (!*rest)
		return false;
	/* run1 and run10 are two numbers, not a label and its repeat. */
	if (!separated && isdigit((unsigned char)m[ml - 1]))
		return false;
	while (isdigit((unsigned char)*rest))
		rest++;
	if (*rest)
		return false;
	/* stem1, stem2, ... stemN is a numbered series of modes, even beside a side called stem. */
	if (!separated && series_starts_at_one(labels, m, ml)) {
		*ret_series = true;
		return false;
	}
	return true;
}

/*
 * The label sides[k] is a repeat of: an earlier or later side's label it
 * extends, else NULL. *ret_series is set when the label was read as one of
 * a numbered series (stem1, stem2, ...) although a side is labelled stem.
 * labels and groups: the sides' labels indexed (group_names()).
 */
static const char *repeat_of(const struct side *sides, size_t k, json_t *labels, const struct side_modes *groups,
			     bool *ret_series)
{
	const char *label = sides[k].label, *ret = NULL;
	size_t len = strlen(label), n_found = 0;
	/*
	 * The labels it can extend are its prefixes that some side has: each
	 * prefix's first side, tried in side order (sides labelled alike read
	 * the same).
	 */
	size_t *found = xcalloc(len + 1, sizeof(*found));

	for (size_t ml = 0; ml < len; ml++) {
		long j = label_find(labels, groups, label, ml);

		if (j >= 0)
			found[n_found++] = (size_t)j;
	}
	qsort(found, n_found, sizeof(*found), side_index_cmp);
	for (size_t f = 0; f < n_found && !ret; f++)
		if (label_extends(label, len, sides[found[f]].label, labels, ret_series))
			ret = sides[found[f]].label;
	free(found);
	return ret;
}

/* Whether a label ends in digits that follow a letter: one of a numbered series such as pt2 or run10. */
static bool numbered(const char *label)
{
	size_t n = strlen(label), d = n;

	while (d > 0 && isdigit((unsigned char)label[d - 1]))
		d--;
	return d > 0 && d < n && isalpha((unsigned char)label[d - 1]);
}

void side_infer_modes(struct side *sides, size_t n, struct strlist *warnings)
{
	struct strbuf repeats = STRBUF_INIT, series = STRBUF_INIT;
	size_t n_numbered = 0;
	const char **names = xcalloc(n + 1, sizeof(*names));
	struct side_modes groups;
	json_t *labels;

	for (size_t k = 0; k < n; k++)
		names[k] = sides[k].label;
	group_names(names, n, &groups, &labels);
	for (size_t k = 0; k < n; k++) {
		const size_t *same = &groups.sides[groups.start[groups.of[k]]];
		const char *of;
		bool in_series = false;

		for (size_t i = 0; same[i] < k; i++)
			strlist_addf(warnings, "sides %s and %s are both called '%s': label them apart "
				     "with --side LABEL=DIR", sides[same[i]].dir, sides[k].dir, sides[k].label);
		if (sides[k].mode_recorded)
			continue;
		n_numbered += numbered(sides[k].label);
		of = repeat_of(sides, k, labels, &groups, &in_series);
		free(sides[k].mode);
		sides[k].mode = xstrdup(of ? of : sides[k].label);
		if (of)
			strbuf_addf(&repeats, "%s%s of %s", repeats.len ? ", " : "", sides[k].label, of);
		if (in_series)
			strbuf_addf(&series, "%s%s", series.len ? ", " : "", sides[k].label);
		if (of && strchr(sides[k].label, '.'))
			strlist_addf(warnings, "side %s: mode '%s' inferred from its label, a repeat of side %s",
				     sides[k].label, of, of);
	}
	/* Labels alone can be read two ways when several of them are numbered: say how they were read. */
	if (series.len)
		strlist_addf(warnings, "sides %s are a numbered series from 1: each is a mode of its own, not a repeat; "
			     "--mode LABEL=MODE says otherwise", series.buf);
	if (repeats.len && (n_numbered > 1 || series.len))
		strlist_addf(warnings, "taken as repeats from their labels: %s; --mode LABEL=MODE says otherwise",
			     repeats.buf);
	strbuf_release(&repeats);
	strbuf_release(&series);
	side_modes_release(&groups);
	json_decref(labels);
	free(names);
}

int side_assign_modes(struct side *sides, size_t n, const struct strlist *assignments,
		      struct strlist *warnings, char **ret_error)
{
	for (size_t a = 0; a < assignments->n; a++) {
		const char *text = assignments->items[a], *eq = strchr(text, '=');
		size_t label_len = eq ? (size_t)(eq - text) : 0;
		struct side *found = NULL;

		for (size_t k = 0; k < n && eq; k++) {
			if (strlen(sides[k].label) != label_len || strncmp(sides[k].label, text, label_len))
				continue;
			if (found) {
				*ret_error = xasprintf("--mode %s: two sides are labelled '%.*s' (%s and %s): "
						       "label them apart with --side LABEL=DIR", text, (int)label_len,
						       text, found->dir, sides[k].dir);
				return -EINVAL;
			}
			found = &sides[k];
		}
		if (!found) {
			*ret_error = xasprintf("--mode %s: no side is labelled '%.*s'", text, (int)label_len, text);
			return -EINVAL;
		}
		if (found->mode_recorded && strcmp(found->mode, eq + 1))
			strlist_addf(warnings, "side %s: mode '%s' from --mode, not meta.json's '%s'", found->label,
				     eq + 1, found->mode);
		free(found->mode);
		found->mode = xstrdup(eq + 1);
		found->mode_recorded = true;
	}
	return 0;
}

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

static struct row *side_add_row(struct side *side, const char *name, const char *source)
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

/* A version is printed in reports: printable, one line, not a novel. */
static bool version_value_valid(const char *value)
{
	if (strlen(value) > 1024)
		return false;
	for (const char *p = value; *p; p++)
		if (!isprint((unsigned char)*p))
			return false;
	return true;
}

static int load_meta_metrics(const char *file, size_t ri, json_t *jmetrics, struct row *row,
			     struct strlist *warnings)
{
	struct metric_set set = METRIC_SET_INIT;
	size_t mi;
	json_t *jm;

	if (!json_is_array(jmetrics)) {
		strlist_addf(warnings, "%s: rows[%zu].metrics: not an array: row '%s' cannot be read", file, ri, row->name);
		return -EINVAL;
	}
	json_array_foreach(jmetrics, mi, jm) {
		const char *name = json_string_value(json_object_get(jm, "name"));
		const char *better = json_string_value(json_object_get(jm, "better"));
		const char *unit = json_string_value(json_object_get(jm, "unit"));
		json_t *samples = json_object_get(jm, "samples"), *js;
		enum metric_better b = BETTER_HIGHER;
		size_t si;

		if (!name || !metric_text_valid(name, false)) {
			strlist_addf(warnings, "%s: rows[%zu].metrics[%zu].name: missing, or not UTF-8 text of at most %d bytes without control characters: row '%s' cannot be read",
				     file, ri, mi, METRIC_NAME_MAX, row->name);
			goto fail;
		}
		if (unit && !metric_text_valid(unit, true)) {
			strlist_addf(warnings, "%s: rows[%zu].metrics[%zu].unit: not UTF-8 text of at most %d bytes without control characters: row '%s' cannot be read",
				     file, ri, mi, METRIC_NAME_MAX, row->name);
			goto fail;
		}
		if (better && !strcmp(better, "lower"))
			b = BETTER_LOWER;
		else if (better && strcmp(better, "higher")) {
			strlist_addf(warnings, "%s: rows[%zu].metrics[%zu].better: '%s' is not 'higher' or 'lower': row '%s' cannot be read",
				     file, ri, mi, better, row->name);
			goto fail;
		}
		if (!json_is_array(samples) || json_array_size(samples) == 0) {
			strlist_addf(warnings, "%s: rows[%zu].metrics[%zu].samples: missing or empty: row '%s' cannot be read",
				     file, ri, mi, row->name);
			goto fail;
		}
		json_array_foreach(samples, si, js) {
			double v = json_number_value(js);

			if (!json_is_number(js) || !isfinite(v)) {
				strlist_addf(warnings, "%s: rows[%zu].metrics[%zu].samples[%zu]: not a number: row '%s' cannot be read",
					     file, ri, mi, si, row->name);
				goto fail;
			}
			if (!metric_sample_valid(v)) {
				strlist_addf(warnings, "%s: rows[%zu].metrics[%zu].samples[%zu]: %g is beyond what bootab computes with (|x| <= %g): row '%s' cannot be read",
					     file, ri, mi, si, v, METRIC_SAMPLE_MAX, row->name);
				goto fail;
			}
			metric_set_add_sample(&set, name, b, unit, v);
		}
		/* A perf counter of the row's command (docs/results-format.md, "Counters"). */
		if (json_is_string(json_object_get(jm, "counter")))
			metric_set_find(&set, name)->counter =
				!strcmp(json_string_value(json_object_get(jm, "counter")), "rapl") ? "rapl" : "perf";
	}
	metric_set_merge(&row->metrics, &set);
	metric_set_release(&set);
	return 0;
fail:
	metric_set_release(&set);
	return -EINVAL;
}

/* A test suite's checks: {"passed": N, ..., "failures": ["suite.test", ...]}. */
static void load_meta_checks(const char *file, size_t ri, json_t *jc, struct row *row, struct strlist *warnings)
{
	struct metric_set set = METRIC_SET_INIT;
	json_t *failures = json_object_get(jc, "failures"), *jf;
	size_t i;

	if (!json_is_object(jc) || (failures && !json_is_array(failures))) {
		strlist_addf(warnings, "%s: rows[%zu].checks: not an object with a failures list, ignoring them", file, ri);
		return;
	}
	for (size_t o = 0; o < CHECK_OUTCOMES; o++) {
		json_t *n = json_object_get(jc, check_outcome_name((enum check_outcome)o));

		if (o == CHECK_FAILED)
			continue;
		if (n && (!json_is_integer(n) || json_integer_value(n) < 0 || json_integer_value(n) > 100000000)) {
			strlist_addf(warnings, "%s: rows[%zu].checks.%s: not a count, ignoring the checks", file, ri,
				     check_outcome_name((enum check_outcome)o));
			metric_set_release(&set);
			return;
		}
		set.checks[o] = n ? (size_t)json_integer_value(n) : 0;
	}
	set.has_checks = true;
	json_array_foreach(failures, i, jf) {
		const char *name = json_string_value(jf);

		if (!name || !row_name_valid(name)) {
			strlist_addf(warnings, "%s: rows[%zu].checks.failures[%zu]: not a printable name, ignoring the checks",
				     file, ri, i);
			metric_set_release(&set);
			return;
		}
		metric_set_add_check(&set, CHECK_FAILED, name);
	}
	metric_set_merge_checks(&row->metrics, &set);
	metric_set_release(&set);
}

/*
 * A reboot or an idle wait of meta.json: at most a year, so sums and means
 * over many sides stay finite (1e308 twice was "reboots at infs").
 */
#define SIDE_SECONDS_MAX (366.0 * 86400)

static bool seconds_valid(double s)
{
	return s >= 0 && s <= SIDE_SECONDS_MAX;
}

/* Rep durations and the idle wait: what `bootab plan --from` costs a rep and a boot at. */
static void load_meta_times(const char *file, size_t ri, json_t *jr, struct row *row,
			    struct strlist *warnings)
{
	json_t *reps = json_object_get(jr, "reps"), *rep;
	json_t *idle = json_object_get(jr, "idle_wait_s");
	size_t i;

	if (json_is_number(idle) && seconds_valid(json_number_value(idle))) {
		row->has_idle_wait = true;
		row->idle_wait_s = json_number_value(idle);
	} else if (idle && !json_is_null(idle)) {
		strlist_addf(warnings, "%s: rows[%zu].idle_wait_s: not a number of seconds from 0 to %.0f, ignoring it", file,
			     ri, SIDE_SECONDS_MAX);
	}
	if (!json_is_array(reps))
		return;
	row->rep_s = xcalloc(json_array_size(reps) ? json_array_size(reps) : 1, sizeof(*row->rep_s));
	json_array_foreach(reps, i, rep) {
		json_t *js = json_object_get(rep, "start"), *je = json_object_get(rep, "end");
		double start, end;

		if (!js && !je)
			continue;
		if (timestamp_parse_rfc3339(json_string_value(js), &start) < 0 ||
		    timestamp_parse_rfc3339(json_string_value(je), &end) < 0 || end < start) {
			strlist_addf(warnings, "%s: rows[%zu].reps[%zu]: start/end are not RFC 3339 times in order, ignoring them",
				     file, ri, i);
			continue;
		}
		row->rep_s[row->n_rep_s++] = end - start;
	}
}

static void load_meta_rows(const char *file, json_t *jrows, struct side *side,
			   struct strlist *warnings)
{
	size_t ri;
	json_t *jr;

	if (!json_is_array(jrows)) {
		strlist_addf(warnings, "%s: rows: not an array, ignoring", file);
		return;
	}
	json_array_foreach(jrows, ri, jr) {
		const char *name = json_string_value(json_object_get(jr, "name"));
		const char *kind = json_string_value(json_object_get(jr, "kind"));
		const char *stat = json_string_value(json_object_get(jr, "stat"));
		json_t *rc = json_object_get(jr, "rc");
		json_t *metrics = json_object_get(jr, "metrics");
		struct row *row;

		if (!name || !row_name_valid(name)) {
			strlist_addf(warnings, "%s: rows[%zu].name: missing or not a printable string: the row cannot be read",
				     file, ri);
			side->unreadable_rows++;
			continue;
		}
		if (side_find_row(side, name)) {
			strlist_addf(warnings, "%s: rows[%zu]: row '%s' appears twice, ignoring the second",
				     file, ri, name);
			continue;
		}
		if (kind && strcmp(kind, "bench") && strcmp(kind, "check")) {
			strlist_addf(warnings, "%s: rows[%zu].kind: '%s' is not 'bench' or 'check': row '%s' cannot be read",
				     file, ri, kind, name);
			side->unreadable_rows++;
			continue;
		}
		row = side_add_row(side, name, file);
		row->kind = kind && !strcmp(kind, "check") ? ROW_CHECK : ROW_BENCH;
		if (json_is_integer(rc)) {
			row->has_rc = true;
			row->rc = (int)json_integer_value(rc);
		} else if (rc && !json_is_null(rc)) {
			strlist_addf(warnings, "%s: rows[%zu].rc: not an integer, ignoring it", file, ri);
		}
		row->by_run = json_is_true(json_object_get(jr, "by_run"));
		if (stat) {
			if (stat_kind_from_name(stat, &row->stat) == 0)
				row->has_stat = true;
			else
				strlist_addf(warnings, "%s: rows[%zu].stat: unknown statistic '%s', using the default",
					     file, ri, stat);
		}
		if (json_is_array(json_object_get(jr, "stats")) && row->has_stat) {
			json_t *js;
			size_t si;

			json_array_foreach(json_object_get(jr, "stats"), si, js) {
				enum stat_kind k;
				bool seen = false;

				if (!json_is_string(js) || stat_kind_from_name(json_string_value(js), &k) < 0) {
					strlist_addf(warnings, "%s: rows[%zu].stats[%zu]: not a statistic, ignoring it", file, ri, si);
					continue;
				}
				for (size_t j = 0; j < row->n_stats; j++)
					seen |= row->stats[j] == k;
				if (!seen && row->n_stats < STAT_KINDS)
					row->stats[row->n_stats++] = k;
			}
			/* stat is the first of them, whatever the list's order. */
			if (row->n_stats && row->stats[0] != row->stat) {
				for (size_t j = 1; j < row->n_stats; j++)
					if (row->stats[j] == row->stat) {
						row->stats[j] = row->stats[0];
						break;
					}
				row->stats[0] = row->stat;
			}
		}
		if (metrics && load_meta_metrics(file, ri, metrics, row, warnings) < 0) {
			metric_set_release(&row->metrics);
			side->unreadable_rows++;
		}
		if (json_object_get(jr, "checks"))
			load_meta_checks(file, ri, json_object_get(jr, "checks"), row, warnings);
		load_meta_times(file, ri, jr, row, warnings);
	}
}

/* What says which boot and machine this was, and how long its reboot took. */
/* A printable string of at most max bytes from o.key (NULL and no warning when absent or null). */
static char *meta_string(const char *file, json_t *o, const char *key, size_t max, bool hex,
			 struct strlist *warnings)
{
	json_t *v = json_object_get(o, key);
	const char *s = json_string_value(v);
	bool ok = s && *s && strlen(s) <= max;

	for (const char *p = s; ok && *p; p++)
		ok = hex ? isxdigit((unsigned char)*p) : isprint((unsigned char)*p);
	if (ok)
		return xstrdup(s);
	if (v && !json_is_null(v))
		strlist_addf(warnings, "%s: %s: not %s, ignoring it", file, key,
			     hex ? "a hexadecimal id" : "a printable string");
	return NULL;
}

static void load_meta_kernel(const char *file, json_t *root, struct side_kernel *k, struct strlist *warnings)
{
	json_t *package = json_object_get(root, "kernel_package"), *config = json_object_get(root, "kernel_config");

	k->release = meta_string(file, root, "kernel", 128, false, warnings);
	k->version = meta_string(file, root, "kernel_version", 256, false, warnings);
	k->build_id = meta_string(file, root, "kernel_build_id", 128, true, warnings);
	if (json_is_object(package))
		k->package = meta_string(file, package, "name", 256, false, warnings);
	if (json_is_object(config))
		k->config_sha256 = meta_string(file, config, "sha256", 64, true, warnings);
}

/* meta.json's "proof": {"level", "args": [{"arg", "level"}]} (docs/results-format.md). */
static void load_meta_proof(const char *file, const json_t *proof, struct side *side, struct strlist *warnings)
{
	struct strbuf weak = STRBUF_INIT;
	enum proof_level level;
	const json_t *arg;
	size_t i;

	if (!proof || json_is_null(json_object_get(proof, "level")))
		return;
	if (!json_is_object(proof) ||
	    proof_level_parse(json_string_value(json_object_get(proof, "level")), &level) < 0) {
		strlist_addf(warnings, "%s: proof: not a proof level, ignoring it", file);
		return;
	}
	json_array_foreach(json_object_get(proof, "args"), i, arg) {
		const char *a = json_string_value(json_object_get(arg, "arg"));
		enum proof_level l;
		char *reason = NULL;

		if (!a || cmdline_arg_valid(a, &reason) < 0 ||
		    proof_level_parse(json_string_value(json_object_get(arg, "level")), &l) < 0) {
			free(reason);
			strlist_addf(warnings, "%s: proof.args[%zu]: not an arg and a level, ignoring it", file, i);
			continue;
		}
		if (l != PROOF_PROVEN)
			strbuf_addf(&weak, "%s%s %s", weak.len ? ", " : "", a, proof_level_name(l));
	}
	free(side->proof);
	free(side->proof_weak);
	side->proof = xstrdup(proof_level_name(level));
	side->proof_weak = weak.len ? strbuf_detach(&weak, NULL) : NULL;
	strbuf_release(&weak);
}

static void load_meta_boot(const char *file, json_t *root, struct side *side, struct strlist *warnings)
{
	json_t *round = json_object_get(root, "round"), *reboot = json_object_get(root, "reboot_s");
	static const char *const ids[] = { "machine_id", "boot_id" };

	if (json_is_integer(round) && json_integer_value(round) >= 1 && json_integer_value(round) <= 100000)
		side->round = (unsigned)json_integer_value(round);
	else if (round && !json_is_null(round))
		strlist_addf(warnings, "%s: round: not a positive integer, ignoring it", file);
	if (json_is_number(reboot) && seconds_valid(json_number_value(reboot))) {
		side->has_reboot = true;
		side->reboot_s = json_number_value(reboot);
	} else if (reboot && !json_is_null(reboot)) {
		strlist_addf(warnings, "%s: reboot_s: not a number of seconds from 0 to %.0f, ignoring it", file, SIDE_SECONDS_MAX);
	}
	{
		json_t *method = json_object_get(root, "boot_method");
		const char *m = json_string_value(method);

		if (m && (!strcmp(m, "kexec") || !strcmp(m, "reboot")))
			side->kexec = !strcmp(m, "kexec");
		else if (method && !json_is_null(method))
			strlist_addf(warnings, "%s: boot_method: neither \"reboot\" nor \"kexec\", ignoring it", file);
	}
	for (size_t i = 0; i < 2; i++) {
		json_t *v = json_object_get(root, ids[i]);
		char **dst = i == 0 ? &side->machine_id : &side->boot_id;
		const char *s = json_string_value(v);
		bool ok = s && *s && strlen(s) <= 64;

		/* /etc/machine-id and boot_id are hex, boot_id with dashes; they name files. */
		for (const char *p = s; ok && *p; p++)
			ok = isxdigit((unsigned char)*p) || *p == '-';
		if (ok)
			*dst = xstrdup(s);
		else if (v && !json_is_null(v))
			strlist_addf(warnings, "%s: %s: not a hexadecimal id, ignoring it", file, ids[i]);
	}
}

/* What describes the boot besides its kernel: the command line, the IOMMU group types, the load. */
static void load_meta_boot_words(const char *file, json_t *root, struct side *side, struct strlist *warnings)
{
	json_t *iommu = json_object_get(root, "iommu");

	free(side->cmdline);
	side->cmdline = meta_string(file, root, "cmdline", 4096, false, warnings);
	free(side->iommu_summary);
	side->iommu_summary = json_is_object(iommu) ? meta_string(file, iommu, "summary", 1024, false, warnings) : NULL;
	free(side->load);
	side->load = meta_string(file, root, "loadavg", 256, false, warnings);
}

/* The most of a prepare command a report names, bytes. */
#define SIDE_PREPARE_COMMAND_MAX 4096

/*
 * meta.json's "prepare": [{"command", "rc", "output"}], the plan's
 * [prepare] as it ran on this boot. A command that is no string, or an rc
 * that is no exit code, is a warning and that command is left out; the
 * output stays in meta.json (reports name the commands and their codes).
 */
static void load_meta_prepare(const char *file, json_t *root, struct side *side, struct strlist *warnings)
{
	json_t *all = json_object_get(root, "prepare"), *one;
	size_t i;

	for (i = 0; i < side->n_prepare; i++)
		free(side->prepare[i].command);
	free(side->prepare);
	side->prepare = NULL;
	side->n_prepare = 0;
	if (!all || json_is_null(all))
		return;
	if (!json_is_array(all)) {
		strlist_addf(warnings, "%s: prepare: not an array, ignoring it", file);
		return;
	}
	side->prepare = xcalloc(json_array_size(all) + 1, sizeof(*side->prepare));
	json_array_foreach(all, i, one) {
		const char *command = json_string_value(json_object_get(one, "command"));
		json_t *rc = json_object_get(one, "rc");
		struct strbuf sb = STRBUF_INIT;

		if (!command || !*command || strlen(command) > SIDE_PREPARE_COMMAND_MAX) {
			strlist_addf(warnings, "%s: prepare[%zu].command: not a string of 1 to %d bytes, ignoring that command",
				     file, i, SIDE_PREPARE_COMMAND_MAX);
			continue;
		}
		if (!json_is_integer(rc) || json_integer_value(rc) < 0 || json_integer_value(rc) > 255) {
			strlist_addf(warnings, "%s: prepare[%zu].rc: not an exit code from 0 to 255, ignoring that command",
				     file, i);
			continue;
		}
		text_escape_append(&sb, command, strlen(command), TEXT_ESCAPE_NEWLINE, NULL);
		side->prepare[side->n_prepare].command = strbuf_detach(&sb, NULL);
		side->prepare[side->n_prepare++].rc = (int)json_integer_value(rc);
	}
}

void side_meta_parse(const char *file, const char *data, size_t len, struct side *side,
		     struct strlist *warnings)
{
	json_error_t jerr;
	json_t *root;

	root = json_loadb(data, len, JSON_REJECT_DUPLICATES, &jerr);
	if (!root) {
		strlist_addf(warnings, "%s:%d:%d: %s, ignoring the file", file, jerr.line, jerr.column,
			     jerr.text);
		free(side->meta_problem);
		side->meta_problem = xasprintf("meta.json: line %d: %s", jerr.line, jerr.text);
		return;
	}
	if (!json_is_object(root)) {
		strlist_addf(warnings, "%s: not a JSON object, ignoring the file", file);
		free(side->meta_problem);
		side->meta_problem = xasprintf("meta.json: line %d: not an object", jerr.line);
	} else {
		side_meta_apply(file, root, side, warnings);
	}
	json_decref(root);
}

void side_meta_apply(const char *file, json_t *root, struct side *side, struct strlist *warnings)
{
	json_t *mode, *versions, *v;
	const char *key;

	/* The document itself, for what reads more of it than the numbers (the HTML page). */
	json_decref(side->meta);
	side->meta = json_incref(root);
	mode = json_object_get(root, "mode");
	if (json_is_string(mode) && row_name_valid(json_string_value(mode))) {
		free(side->mode);
		side->mode = xstrdup(json_string_value(mode));
		side->mode_recorded = true;
	} else if (mode) {
		strlist_addf(warnings, "%s: mode: not a printable string, using '%s'", file,
			     side->mode ? side->mode : "");
	}
	load_meta_boot(file, root, side, warnings);
	load_meta_boot_words(file, root, side, warnings);
	load_meta_prepare(file, root, side, warnings);
	load_meta_kernel(file, root, &side->kernel, warnings);
	load_meta_proof(file, json_object_get(root, "proof"), side, warnings);
	versions = json_object_get(root, "versions");
	if (json_is_object(versions)) {
		json_object_foreach(versions, key, v) {
			if (!row_name_valid(key)) {
				strlist_addf(warnings, "%s: versions: a name is not a printable string, ignoring it",
					     file);
				continue;
			}
			if (!json_is_string(v) || !version_value_valid(json_string_value(v))) {
				strlist_addf(warnings, "%s: versions.%s: not a printable string, ignoring", file,
					     key);
				continue;
			}
			GROW(side->versions, side->alloc_versions, side->n_versions + 1);
			side->versions[side->n_versions].name = xstrdup(key);
			side->versions[side->n_versions].value = xstrdup(json_string_value(v));
			side->n_versions++;
		}
	} else if (versions) {
		strlist_addf(warnings, "%s: versions: not an object, ignoring", file);
	}
	if (json_object_get(root, "rows"))
		load_meta_rows(file, json_object_get(root, "rows"), side, warnings);
	{
		struct parse_error err = PARSE_ERROR_INIT;
		struct inventory inv;

		if (inventory_from_json(root, &inv, &err) == 0) {
			inventory_release(&side->inventory);
			side->inventory = inv;
		} else {
			strlist_addf(warnings, "%s: %s, ignoring the device inventory and kernel log", file,
				     err.message ? err.message : "bad inventory");
		}
		parse_error_release(&err);
	}
}

/* kernel-config: CONFIG_NAME=VALUE lines as side-write wrote them; anything else is a warning. */
static void load_kernel_config(const char *dir, struct side_kernel *k, struct strlist *warnings)
{
	char *file = path_join(dir, "kernel-config"), *data = NULL;
	size_t len, n = 0, bad = 0;
	int r = file_read(file, FILE_READ_MAX, &data, &len);

	if (r == -ENOENT)
		goto out;
	if (r < 0 || strlen(data) != len) {
		strlist_addf(warnings, "%s: %s, ignoring", file, r < 0 ? strerror(-r) : "holds a NUL byte");
		goto out;
	}
	k->config = xcalloc(1, sizeof(char *));
	for (char *p = data; *p;) {
		char *end = strchr(p, '\n'), *eq;
		bool ok;

		if (end)
			*end = '\0';
		eq = strchr(p, '=');
		ok = !strncmp(p, "CONFIG_", 7) && eq && eq > p + 7 && strlen(eq) <= SNAPSHOT_CONFIG_VALUE_KEPT + 1;
		for (const char *c = p; ok && c < eq; c++)
			ok = isalnum((unsigned char)*c) || *c == '_';
		/* Values as snapshot_config_value() keeps them: printable UTF-8 ("café" too). */
		ok = ok && utf8_printable(eq, strlen(eq));
		if (ok) {
			k->config = xrealloc(k->config, (n + 2) * sizeof(char *));
			k->config[n++] = xstrdup(p);
			k->config[n] = NULL;
		} else if (*p) {
			bad++;
		}
		if (!end)
			break;
		p = end + 1;
	}
	k->n_config = n;
	if (bad)
		strlist_addf(warnings, "%s: %zu line%s not CONFIG_NAME=VALUE, ignoring them", file, bad,
			     bad == 1 ? " is" : "s are");
out:
	free(data);
	free(file);
}

/* Without meta.json, a meta.txt is the side's own bench script's (bootab writes both). */
static void load_meta_txt(const char *dir, struct side *side, struct strlist *warnings)
{
	char *file = path_join(dir, "meta.txt"), *data = NULL;
	size_t len;
	int r = file_read(file, FILE_READ_MAX, &data, &len);

	if (r < 0 && r != -ENOENT)
		strlist_addf(warnings, "%s: %s, ignoring", file, r == -EINVAL ? "not a regular file" : strerror(-r));
	else if (r == 0)
		side_meta_txt_parse(file, data, len, side, warnings);
	free(data);
	free(file);
}

static void load_meta(const char *dir, struct side *side, struct strlist *warnings)
{
	char *file = path_join(dir, "meta.json"), *data = NULL;
	size_t len;
	int r;

	r = file_read(file, FILE_READ_MAX, &data, &len);
	if (r == -ENOENT) {
		load_meta_txt(dir, side, warnings);
		goto out;
	}
	if (r < 0) {
		strlist_addf(warnings, "%s: %s, ignoring", file,
			     r == -EINVAL ? "not a regular file" : strerror(-r));
		side->meta_problem = xasprintf("meta.json: %s", strerror(-r));
		goto out;
	}
	side_meta_parse(file, data, len, side, warnings);
	load_kernel_config(dir, &side->kernel, warnings);
out:
	free(data);
	free(file);
}

int side_meta_read(const char *path, char **ret_file, json_t **ret_meta, struct parse_error *err)
{
	char *file = path_is_dir(path) ? path_join(path, "meta.json") : xstrdup(path), *data = NULL;
	json_error_t jerr;
	json_t *meta;
	size_t len;
	int r;

	*ret_file = file;
	r = file_read(file, FILE_READ_MAX, &data, &len);
	if (r < 0)
		return r;
	meta = json_loadb(data, len, JSON_REJECT_DUPLICATES, &jerr);
	free(data);
	parse_error_set_file(err, file);
	if (!meta) {
		parse_error_set(err, jerr.line > 0 ? (unsigned)jerr.line : 0,
				jerr.column > 0 ? (unsigned)jerr.column : 0, "%s", jerr.text);
		return -EINVAL;
	}
	if (!json_is_object(meta)) {
		json_decref(meta);
		parse_error_set(err, 0, 0, "not a JSON object");
		return -EINVAL;
	}
	*ret_meta = meta;
	return 0;
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
	load_meta(dir, &side, warnings);
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
