/*
 * A side's meta.json (side-meta.c, side_meta_parse()).
 *
 * Properties: every warning names the file; what loads, written back as
 * meta.json (jansson, %.17g reals) and loaded again, loads without a
 * warning and gives the same mode, versions and rows.
 */
#include "fuzz-common.h"

#include <jansson.h>

#include "results/side.h"
#include "stats/stats.h"

static json_t *side_to_json(const struct side *side)
{
	json_t *root = json_object(), *versions = json_object(), *rows = json_array();

	json_object_set_new(root, "mode", json_string(side->mode));
	for (size_t i = 0; i < side->n_versions; i++)
		json_object_set_new(versions, side->versions[i].name, json_string(side->versions[i].value));
	json_object_set_new(root, "versions", versions);
	for (size_t i = 0; i < side->n_rows; i++) {
		const struct row *r = &side->rows[i];
		json_t *row = json_object(), *metrics = json_array();

		json_object_set_new(row, "name", json_string(r->name));
		json_object_set_new(row, "kind", json_string(r->kind == ROW_CHECK ? "check" : "bench"));
		if (r->has_rc)
			json_object_set_new(row, "rc", json_integer(r->rc));
		if (r->has_stat)
			json_object_set_new(row, "stat", json_string(stat_kind_name(r->stat)));
		json_object_set_new(row, "by_run", json_boolean(r->by_run));
		for (size_t k = 0; k < r->metrics.n_metrics; k++) {
			const struct metric *m = &r->metrics.metrics[k];
			json_t *jm = json_object(), *samples = json_array();

			json_object_set_new(jm, "name", json_string(m->name));
			json_object_set_new(jm, "better", json_string(m->better == BETTER_LOWER ? "lower" : "higher"));
			if (m->unit)
				json_object_set_new(jm, "unit", json_string(m->unit));
			for (size_t s = 0; s < m->n_samples; s++)
				json_array_append_new(samples, json_real(m->samples[s]));
			json_object_set_new(jm, "samples", samples);
			json_array_append_new(metrics, jm);
		}
		json_object_set_new(row, "metrics", metrics);
		json_array_append_new(rows, row);
	}
	json_object_set_new(root, "rows", rows);
	return root;
}

static void same_side(const struct side *a, const struct side *b)
{
	FUZZ_ASSERT(!strcmp(a->mode, b->mode), "mode '%s', then '%s'", a->mode, b->mode);
	FUZZ_ASSERT(a->n_versions == b->n_versions, "versions differ");
	for (size_t i = 0; i < a->n_versions; i++)
		FUZZ_ASSERT(!strcmp(a->versions[i].name, b->versions[i].name) &&
			    !strcmp(a->versions[i].value, b->versions[i].value), "version %zu differs", i);
	FUZZ_ASSERT(a->n_rows == b->n_rows, "%zu rows, then %zu", a->n_rows, b->n_rows);
	for (size_t i = 0; i < a->n_rows; i++) {
		const struct row *x = &a->rows[i], *y = &b->rows[i];

		FUZZ_ASSERT(!strcmp(x->name, y->name) && x->kind == y->kind && x->has_rc == y->has_rc &&
			    (!x->has_rc || x->rc == y->rc) && x->has_stat == y->has_stat &&
			    (!x->has_stat || x->stat == y->stat) && x->by_run == y->by_run,
			    "row '%s' differs", x->name);
		FUZZ_ASSERT(x->metrics.n_metrics == y->metrics.n_metrics, "row '%s': metrics differ", x->name);
		for (size_t k = 0; k < x->metrics.n_metrics; k++) {
			const struct metric *m = &x->metrics.metrics[k], *n = &y->metrics.metrics[k];

			FUZZ_ASSERT(!strcmp(m->name, n->name) && m->better == n->better &&
				    fuzz_str_equal(m->unit, n->unit) && m->n_samples == n->n_samples,
				    "metric '%s' differs", m->name);
			for (size_t s = 0; s < m->n_samples; s++)
				FUZZ_ASSERT(m->samples[s] == n->samples[s], "metric '%s' sample %zu differs",
					    m->name, s);
		}
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct side side = { 0 }, again = { 0 };
	struct strlist warnings = STRLIST_INIT, warnings_again = STRLIST_INIT;
	json_t *doc;
	char *text;

	side.mode = xstrdup("label");
	again.mode = xstrdup("label");
	side_meta_parse("side/meta.json", (const char *)data, size, &side, &warnings);
	for (size_t i = 0; i < warnings.n; i++)
		FUZZ_ASSERT(!strncmp(warnings.items[i], "side/meta.json", 14), "warning without the file: %s",
			    warnings.items[i]);

	doc = side_to_json(&side);
	text = json_dumps(doc, JSON_COMPACT | JSON_REAL_PRECISION(17));
	FUZZ_ASSERT(text, "the side cannot be written as JSON");
	side_meta_parse("side/meta.json", text, strlen(text), &again, &warnings_again);
	FUZZ_ASSERT(warnings_again.n == 0, "written back, it warns: %s\n%s", warnings_again.items[0], text);
	same_side(&side, &again);

	free(text);
	json_decref(doc);
	strlist_release(&warnings);
	strlist_release(&warnings_again);
	side_release(&side);
	side_release(&again);
	return 0;
}
