#include "stats/metric.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lib/alloc.h"
#include "lib/escape.h"

bool metric_text_valid(const char *name, bool allow_empty)
{
	size_t len = strlen(name);

	return (len || allow_empty) && len <= METRIC_NAME_MAX && utf8_printable(name, len);
}

bool metric_sample_valid(double v)
{
	return isfinite(v) && fabs(v) <= METRIC_SAMPLE_MAX;
}

/* FNV-1a. */
static size_t name_hash(const char *name)
{
	uint64_t h = 14695981039346656037u;

	for (const unsigned char *p = (const unsigned char *)name; *p; p++)
		h = (h ^ *p) * 1099511628211u;
	return (size_t)h;
}

static void index_insert(struct metric_set *set, size_t i)
{
	size_t mask = set->index_size - 1, slot = name_hash(set->metrics[i].name) & mask;

	while (set->index[slot])
		slot = (slot + 1) & mask;
	set->index[slot] = i + 1;
}

/* A new table at most half full (a lookup probes a few slots), every metric in it. */
static void index_rebuild(struct metric_set *set)
{
	free(set->index);
	set->index_size = set->index_size ? 2 * set->index_size : 64;
	while (2 * set->n_metrics > set->index_size)
		set->index_size *= 2;
	set->index = xcalloc(set->index_size, sizeof(*set->index));
	for (size_t i = 0; i < set->n_metrics; i++)
		index_insert(set, i);
}

struct metric *metric_set_find(const struct metric_set *set, const char *name)
{
	size_t mask, slot;

	if (!set->index) {
		for (size_t i = 0; i < set->n_metrics; i++)
			if (!strcmp(set->metrics[i].name, name))
				return &set->metrics[i];
		return NULL;
	}
	mask = set->index_size - 1;
	for (slot = name_hash(name) & mask; set->index[slot]; slot = (slot + 1) & mask)
		if (!strcmp(set->metrics[set->index[slot] - 1].name, name))
			return &set->metrics[set->index[slot] - 1];
	return NULL;
}

struct metric *metric_set_add_sample(struct metric_set *set, const char *name,
				     enum metric_better better, const char *unit,
				     double value)
{
	struct metric *m = metric_set_find(set, name);

	if (!m) {
		GROW(set->metrics, set->alloc_metrics, set->n_metrics + 1);
		m = &set->metrics[set->n_metrics++];
		memset(m, 0, sizeof(*m));
		m->name = xstrdup(name);
		m->better = better;
		m->unit = xstrdup(unit ? unit : "");
		/* A handful of metrics is searched in order; past that, by hash. */
		if (set->index && 2 * set->n_metrics <= set->index_size)
			index_insert(set, set->n_metrics - 1);
		else if (set->index || set->n_metrics > 16)
			index_rebuild(set);
	}
	GROW(m->samples, m->alloc_samples, m->n_samples + 1);
	m->samples[m->n_samples++] = value;
	return m;
}

const char *check_outcome_name(enum check_outcome outcome)
{
	switch (outcome) {
	case CHECK_PASSED:
		return "passed";
	case CHECK_FAILED:
		return "failed";
	case CHECK_SKIPPED:
		return "skipped";
	case CHECK_XFAIL:
		return "xfail";
	default:
		return "unknown";
	}
}

void metric_set_add_check(struct metric_set *set, enum check_outcome outcome, const char *name)
{
	set->has_checks = true;
	if ((unsigned)outcome >= CHECK_OUTCOMES)
		outcome = CHECK_FAILED;
	set->checks[outcome]++;
	if (outcome != CHECK_FAILED)
		return;
	GROW(set->failed, set->alloc_failed, set->n_failed + 1);
	set->failed[set->n_failed++] = xstrdup(name ? name : "");
}

void metric_set_origin(struct metric *m, const char *origin)
{
	if (!m->origin && origin)
		m->origin = xstrdup(origin);
}

void metric_set_merge(struct metric_set *dst, const struct metric_set *src)
{
	for (size_t i = 0; i < src->n_metrics; i++) {
		const struct metric *m = &src->metrics[i];

		for (size_t j = 0; j < m->n_samples; j++)
			{
			struct metric *d = metric_set_add_sample(dst, m->name, m->better, m->unit, m->samples[j]);

			if (m->counter)
				d->counter = m->counter;
			if (m->origin)
				metric_set_origin(d, m->origin);
		}
	}
	metric_set_merge_checks(dst, src);
}

void metric_set_merge_checks(struct metric_set *dst, const struct metric_set *src)
{
	if (!src->has_checks)
		return;
	dst->has_checks = true;
	for (size_t k = 0; k < CHECK_OUTCOMES; k++)
		if (k != CHECK_FAILED)
			dst->checks[k] += src->checks[k];
	for (size_t i = 0; i < src->n_failed; i++)
		metric_set_add_check(dst, CHECK_FAILED, src->failed[i]);
	/* A failure counted without a name (none is made so) still counts. */
	if (src->checks[CHECK_FAILED] > src->n_failed)
		dst->checks[CHECK_FAILED] += src->checks[CHECK_FAILED] - src->n_failed;
}

void metric_set_release(struct metric_set *set)
{
	for (size_t i = 0; i < set->n_metrics; i++) {
		free(set->metrics[i].name);
		free(set->metrics[i].origin);
		free(set->metrics[i].unit);
		free(set->metrics[i].samples);
	}
	free(set->metrics);
	free(set->index);
	for (size_t i = 0; i < set->n_failed; i++)
		free(set->failed[i]);
	free(set->failed);
	*set = (struct metric_set)METRIC_SET_INIT;
}
