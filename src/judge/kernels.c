#include "judge/kernels.h"

#include <stdlib.h>
#include <string.h>

#include "lib/alloc.h"

static bool str_equal(const char *a, const char *b)
{
	return a && b ? !strcmp(a, b) : a == b;
}

bool kernel_same(const struct side_kernel *a, const struct side_kernel *b)
{
	if (!str_equal(a->release, b->release))
		return false;
	if (a->build_id && b->build_id)
		return !strcmp(a->build_id, b->build_id);
	return true;
}

const char *kernel_option_change_name(enum kernel_option_change change)
{
	switch (change) {
	case KERNEL_OPTION_CHANGED:
		return "changed";
	case KERNEL_OPTION_UNSET:
		return "unset";
	case KERNEL_OPTION_ADDED:
	default:
		return "added";
	}
}

static void add_diff(struct kernel_pair *p, const char *option, size_t len, const char *from, const char *to)
{
	enum kernel_option_change change = from && to ? KERNEL_OPTION_CHANGED
					   : from ? KERNEL_OPTION_UNSET : KERNEL_OPTION_ADDED;

	GROW(p->diffs, p->alloc_diffs, p->n_diffs + 1);
	p->diffs[p->n_diffs++] = (struct kernel_option_diff){
		change, xstrndup(option, len), from ? xstrdup(from) : NULL, to ? xstrdup(to) : NULL,
	};
	if (change == KERNEL_OPTION_CHANGED)
		p->n_changed++;
	else if (change == KERNEL_OPTION_UNSET)
		p->n_unset++;
	else
		p->n_added++;
}

/* Changed values first (what a reader asks about), then unset, then added. */
static int diff_cmp(const void *x, const void *y)
{
	const struct kernel_option_diff *a = x, *b = y;

	if (a->change != b->change)
		return (int)a->change - (int)b->change;
	return strcmp(a->option, b->option);
}

/* "CONFIG_A=y" lines ordered by option name (the part before '='). */
static int line_cmp(const void *x, const void *y)
{
	const char *a = *(const char *const *)x, *b = *(const char *const *)y;
	size_t na = strcspn(a, "="), nb = strcspn(b, "=");
	int c = strncmp(a, b, na < nb ? na : nb);

	return c ? c : (na > nb) - (na < nb);
}

static const char **sorted_lines(const struct side_kernel *k)
{
	const char **v = xcalloc(k->n_config + 1, sizeof(char *));

	for (size_t i = 0; i < k->n_config; i++)
		v[i] = k->config[i];
	qsort(v, k->n_config, sizeof(char *), line_cmp);
	return v;
}

/* Options set on one side only, or set to different values, by name: one merge of the sorted configs. */
static void config_diff(const struct side_kernel *a, const struct side_kernel *b, struct kernel_pair *p)
{
	const char **x = sorted_lines(a), **y = sorted_lines(b);
	size_t i = 0, j = 0;

	while (i < a->n_config || j < b->n_config) {
		int c = i == a->n_config ? 1 : j == b->n_config ? -1 : line_cmp(&x[i], &y[j]);
		const char *ex = i < a->n_config ? x[i] + strcspn(x[i], "=") : NULL;
		const char *ey = j < b->n_config ? y[j] + strcspn(y[j], "=") : NULL;

		if (c < 0) {
			add_diff(p, x[i], (size_t)(ex - x[i]), ex + 1, NULL);
			i++;
		} else if (c > 0) {
			add_diff(p, y[j], (size_t)(ey - y[j]), NULL, ey + 1);
			j++;
		} else {
			if (strcmp(ex, ey))
				add_diff(p, x[i], (size_t)(ex - x[i]), ex + 1, ey + 1);
			i++;
			j++;
		}
	}
	free(x);
	free(y);
	if (p->n_diffs)
		qsort(p->diffs, p->n_diffs, sizeof(*p->diffs), diff_cmp);
}

void kernel_compare(const struct side *sides, size_t n_sides, struct kernel_compare *ret)
{
	struct kernel_compare kc = { .same = true };

	for (size_t k = 0; k < n_sides; k++) {
		kc.recorded = kc.recorded || sides[k].kernel.release;
		if (k && !kernel_same(&sides[0].kernel, &sides[k].kernel))
			kc.same = false;
	}
	if (!kc.recorded) {
		kc.same = false;
		*ret = kc;
		return;
	}
	/* Every other kernel against the first side's, once per kernel. */
	for (size_t k = 1; k < n_sides; k++) {
		struct kernel_pair *p;
		bool seen = kernel_same(&sides[0].kernel, &sides[k].kernel);

		for (size_t i = 0; i < kc.n_pairs && !seen; i++)
			seen = kernel_same(&sides[kc.pairs[i].to].kernel, &sides[k].kernel);
		if (seen || !sides[k].kernel.release)
			continue;
		GROW(kc.pairs, kc.alloc_pairs, kc.n_pairs + 1);
		p = &kc.pairs[kc.n_pairs++];
		memset(p, 0, sizeof(*p));
		p->from = 0;
		p->to = k;
		p->configs = sides[0].kernel.config && sides[k].kernel.config;
		if (p->configs)
			config_diff(&sides[0].kernel, &sides[k].kernel, p);
	}
	/* A mode's later boot on the same release but another build: a rebuild in the middle. */
	for (size_t k = 1; k < n_sides; k++) {
		for (size_t j = 0; j < k; j++) {
			const struct side_kernel *a = &sides[j].kernel, *b = &sides[k].kernel;

			if (strcmp(sides[j].mode, sides[k].mode) || !str_equal(a->release, b->release) ||
			    !a->build_id || !b->build_id || !strcmp(a->build_id, b->build_id))
				continue;
			GROW(kc.rebuilds, kc.alloc_rebuilds, kc.n_rebuilds + 1);
			kc.rebuilds[kc.n_rebuilds++] = (struct kernel_rebuild){ j, k };
			break;
		}
	}
	*ret = kc;
}

void kernel_compare_release(struct kernel_compare *kc)
{
	for (size_t i = 0; i < kc->n_pairs; i++) {
		for (size_t d = 0; d < kc->pairs[i].n_diffs; d++) {
			free(kc->pairs[i].diffs[d].option);
			free(kc->pairs[i].diffs[d].from);
			free(kc->pairs[i].diffs[d].to);
		}
		free(kc->pairs[i].diffs);
	}
	free(kc->pairs);
	free(kc->rebuilds);
	memset(kc, 0, sizeof(*kc));
}
