#include "report/timeline.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "lib/alloc.h"
#include "lib/timestamp.h"

/* A span longer than this is a clock that jumped, not a boot. */
#define TIMELINE_MAX_SPAN_S (7 * 24 * 3600.0)

int timeline_time_parse(const char *s, double *ret)
{
	return timestamp_parse(s, TIMESTAMP_BASIC_OFFSET | TIMESTAMP_TRAILING, ret);
}

static bool time_of(const json_t *obj, const char *key, double *ret)
{
	return timeline_time_parse(json_string_value(json_object_get(obj, key)), ret) == 0;
}

static struct timeline_span *add_span(struct timeline_lane *lane, enum timeline_kind kind, double start,
				      double end, const char *row)
{
	struct timeline_span *s;

	if (!(end >= start) || end - start > TIMELINE_MAX_SPAN_S)
		return NULL;
	GROW(lane->spans, lane->alloc_spans, lane->n_spans + 1);
	s = &lane->spans[lane->n_spans++];
	memset(s, 0, sizeof(*s));
	s->kind = kind;
	s->start = start;
	s->end = end;
	s->row = row ? xstrdup(row) : NULL;
	return s;
}

static void add_rows(const json_t *rows, struct timeline_lane *lane)
{
	size_t i;
	json_t *r;

	json_array_foreach(rows, i, r) {
		const char *name = json_string_value(json_object_get(r, "name"));
		const char *kind = json_string_value(json_object_get(r, "kind"));
		json_t *wait = json_object_get(r, "idle_wait_s"), *reps = json_object_get(r, "reps"), *jrep;
		struct timeline_span *s;
		double start, end;
		size_t k;

		if (!name || !time_of(r, "start", &start) || !time_of(r, "end", &end))
			continue;
		if (json_is_number(wait) && json_number_value(wait) > 0)
			add_span(lane, TIMELINE_GATE, start - json_number_value(wait), start, name);
		s = add_span(lane, kind && !strcmp(kind, "check") ? TIMELINE_CHECK : TIMELINE_ROW, start, end, name);
		if (!s)
			continue;
		s->rc = (int)json_integer_value(json_object_get(r, "rc"));
		if (!json_is_array(reps))
			continue;
		json_array_foreach(reps, k, jrep) {
			double t;

			if (k == 0 || !time_of(jrep, "start", &t) || t <= s->start || t >= s->end)
				continue;
			GROW(s->reps, s->alloc_reps, s->n_reps + 1);
			s->reps[s->n_reps++] = t;
		}
	}
}

static int span_cmp(const void *a, const void *b)
{
	const struct timeline_span *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return (int)x->kind - (int)y->kind;
}

size_t timeline_lane_from_meta(const json_t *meta, struct timeline_lane *lane)
{
	json_t *reboot;
	double snap, rows_start, rows_end, written;
	bool have_snap, have_start, have_end;

	if (!json_is_object(meta))
		return 0;
	reboot = json_object_get(meta, "reboot_s");
	have_snap = time_of(meta, "target_time", &snap);
	have_start = time_of(meta, "rows_start", &rows_start);
	have_end = time_of(meta, "rows_end", &rows_end);
	if (have_snap && json_is_number(reboot) && json_number_value(reboot) > 0)
		add_span(lane, TIMELINE_REBOOT, snap - json_number_value(reboot), snap, NULL);
	if (have_snap && have_start)
		add_span(lane, TIMELINE_SETUP, snap, rows_start, NULL);
	if (json_is_array(json_object_get(meta, "rows")))
		add_rows(json_object_get(meta, "rows"), lane);
	/* "time" is the controller's clock: used only when it agrees with the target's. */
	if (have_end && time_of(meta, "time", &written) && written - rows_end < 3600)
		add_span(lane, TIMELINE_FETCH, rows_end, written, NULL);
	if (lane->n_spans > 1)
		qsort(lane->spans, lane->n_spans, sizeof(*lane->spans), span_cmp);
	return lane->n_spans;
}

bool timeline_lane_bounds(const struct timeline_lane *lane, double *ret_start, double *ret_end)
{
	double lo = INFINITY, hi = -INFINITY;

	if (lane->n_spans == 0)
		return false;
	for (size_t i = 0; i < lane->n_spans; i++) {
		lo = fmin(lo, lane->spans[i].start);
		hi = fmax(hi, lane->spans[i].end);
	}
	*ret_start = lo;
	*ret_end = hi;
	return true;
}

const char *timeline_kind_name(enum timeline_kind kind)
{
	switch (kind) {
	case TIMELINE_REBOOT:
		return "reboot";
	case TIMELINE_SETUP:
		return "verify";
	case TIMELINE_GATE:
		return "gate";
	case TIMELINE_ROW:
		return "row";
	case TIMELINE_CHECK:
		return "check";
	case TIMELINE_FETCH:
	default:
		return "fetch";
	}
}

void timeline_lane_release(struct timeline_lane *lane)
{
	for (size_t i = 0; i < lane->n_spans; i++) {
		free(lane->spans[i].row);
		free(lane->spans[i].reps);
	}
	free(lane->spans);
	memset(lane, 0, sizeof(*lane));
}
