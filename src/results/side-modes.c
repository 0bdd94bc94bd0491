/*
 * Which mode each side is a boot of: meta.json's mode, else inferred from
 * the labels (pt, pt2, pt3 ...), or as the user assigns them; and the
 * sides grouped by mode for the comparison.
 */
#include "results/side.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "lib/alloc.h"
#include "lib/strbuf.h"

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
