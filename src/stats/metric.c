#include "stats/metric.h"

#include <stdlib.h>
#include <string.h>

#include "lib/alloc.h"

struct metric *metric_set_find(const struct metric_set *set, const char *name)
{
	for (size_t i = 0; i < set->n_metrics; i++)
		if (!strcmp(set->metrics[i].name, name))
			return &set->metrics[i];
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
	}
	GROW(m->samples, m->alloc_samples, m->n_samples + 1);
	m->samples[m->n_samples++] = value;
	return m;
}

void metric_set_merge(struct metric_set *dst, const struct metric_set *src)
{
	for (size_t i = 0; i < src->n_metrics; i++) {
		const struct metric *m = &src->metrics[i];

		for (size_t j = 0; j < m->n_samples; j++)
			metric_set_add_sample(dst, m->name, m->better, m->unit, m->samples[j]);
	}
}

void metric_set_release(struct metric_set *set)
{
	for (size_t i = 0; i < set->n_metrics; i++) {
		free(set->metrics[i].name);
		free(set->metrics[i].unit);
		free(set->metrics[i].samples);
	}
	free(set->metrics);
	set->metrics = NULL;
	set->n_metrics = set->alloc_metrics = 0;
}
