/*
 * A parsed plan: the boots it makes in its order, what its modes and rows
 * ask for, and plan_release(). Reading the file is plan-parse.c's.
 */
#include "plan/plan.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_rng.h>

#include "kernel/cmdline.h"
#include "lib/alloc.h"
#include "lib/strvec.h"
#include "results/side-write.h"

bool plan_is_lava(const struct plan *plan)
{
	return plan->target && !strcmp(plan->target, "lava");
}

bool plan_is_fleet(const struct plan *plan)
{
	return plan->targets.n || plan->inventory;
}

const char *plan_row_perf(const struct plan *plan, const struct plan_row *row)
{
	if (row->check || row->perf_off)
		return NULL;
	return row->perf ? row->perf : plan->perf;
}

bool plan_row_perf_system(const struct plan *plan, const struct plan_row *row)
{
	return row->has_perf_scope ? row->perf_system : plan->perf_system;
}

bool plan_row_energy(const struct plan *plan, const struct plan_row *row)
{
	return !row->check && (row->has_energy ? row->energy : plan->energy);
}

static struct side_row side_row_of(const struct plan *plan, const struct plan_row *row)
{
	return (struct side_row){
		.name = row->name, .check = row->check, .reps = row->reps, .timeout_s = row->timeout_s,
		.parser = row->parser, .selector = row->selector,
		.metric = row->metric, .pattern = row->pattern, .unit = row->unit,
		.has_better = row->has_better, .better_lower = row->better_lower,
		.stat = row->has_stat ? row->stat : STAT_MEAN, .stats = row->stats, .n_stats = row->n_stats,
		.by_run = row->by_run,
		.perf = plan_row_perf(plan, row), .perf_system = plan_row_perf_system(plan, row),
		.energy = plan_row_energy(plan, row),
	};
}

void plan_side(const struct plan *plan, struct side_plan *ret)
{
	ret->n_rows = plan->n_rows;
	ret->rows = xcalloc(plan->n_rows + 1, sizeof(*ret->rows));
	for (size_t i = 0; i < plan->n_rows; i++)
		ret->rows[i] = side_row_of(plan, &plan->rows[i]);
	ret->n_versions = plan->n_versions;
	ret->versions = xcalloc(plan->n_versions + 1, sizeof(*ret->versions));
	for (size_t i = 0; i < plan->n_versions; i++)
		ret->versions[i] = plan->versions[i].name;
}

void plan_side_release(struct side_plan *side)
{
	free(side->rows);
	free(side->versions);
}

const struct plan_mode *plan_find_mode(const struct plan *plan, const char *name)
{
	for (size_t i = 0; i < plan->n_modes; i++)
		if (!strcmp(plan->modes[i].name, name))
			return &plan->modes[i];
	return NULL;
}

static size_t mode_index(const struct plan *plan, const char *name)
{
	return (size_t)(plan_find_mode(plan, name) - plan->modes);
}

/* A folded design's runs boot in odd rounds, their fold-over in even ones; every other mode in each. */
static bool mode_in_round(const struct plan *plan, size_t mode, unsigned round)
{
	const struct plan_mode *m = &plan->modes[mode];

	if (!m->design_run || !plan->design.folded)
		return true;
	return (m->run >= plan->design.base_runs) == (round % 2 == 0);
}

static void push(struct plan_boot **boots, size_t *n, size_t *alloc, size_t mode, unsigned round)
{
	GROW(*boots, *alloc, *n + 1);
	(*boots)[*n] = (struct plan_boot){ .mode = mode, .round = round };
	(*n)++;
}

size_t plan_boots(const struct plan *plan, struct plan_boot **ret_boots)
{
	struct plan_boot *boots = NULL;
	size_t n = 0, alloc = 0, m = plan->n_modes;
	unsigned *seen;

	switch (plan->order_kind) {
	case ORDER_LIST:
		for (size_t i = 0; i < plan->order_list.n; i++)
			push(&boots, &n, &alloc, mode_index(plan, plan->order_list.items[i]), 1);
		break;
	case ORDER_AA:
		/* rounds + 1 boots of the first mode: rounds boot-to-boot differences. */
		for (unsigned r = 1; r <= plan->rounds + 1; r++)
			push(&boots, &n, &alloc, 0, r);
		break;
	case ORDER_ABBA:
		for (unsigned r = 1; r <= plan->rounds; r++) {
			for (size_t i = 0; i < m; i++)
				if (mode_in_round(plan, i, r))
					push(&boots, &n, &alloc, i, r);
			for (size_t i = m; i-- > 0;)
				if (mode_in_round(plan, i, r))
					push(&boots, &n, &alloc, i, r);
		}
		break;
	case ORDER_RANDOM: {
		gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
		size_t *perm = xmalloc(m * sizeof(*perm));

		gsl_rng_set(rng, plan->seed);
		for (unsigned r = 1; r <= plan->rounds; r++) {
			for (size_t i = 0; i < m; i++)
				perm[i] = i;
			/* Fisher-Yates with the recorded seed. */
			for (size_t i = m; i > 1; i--) {
				size_t j = gsl_rng_uniform_int(rng, i);
				size_t t = perm[i - 1];

				perm[i - 1] = perm[j];
				perm[j] = t;
			}
			for (size_t i = 0; i < m; i++)
				if (mode_in_round(plan, perm[i], r))
					push(&boots, &n, &alloc, perm[i], r);
		}
		/* The first mode also opens and closes the campaign, for the drift. */
		if (n == 0 || boots[0].mode != 0) {
			GROW(boots, alloc, n + 1);
			memmove(boots + 1, boots, n * sizeof(*boots));
			boots[0] = (struct plan_boot){ .mode = 0, .round = 1 };
			n++;
		}
		push(&boots, &n, &alloc, 0, plan->rounds);
		free(perm);
		gsl_rng_free(rng);
		break;
	}
	case ORDER_DEFAULT:
	default:
		for (unsigned r = 1; r <= plan->rounds; r++)
			for (size_t i = 0; i < m; i++)
				if (mode_in_round(plan, i, r))
					push(&boots, &n, &alloc, i, r);
		push(&boots, &n, &alloc, 0, plan->rounds);
		break;
	}
	seen = xcalloc(m, sizeof(*seen));
	for (size_t i = 0; i < n; i++) {
		unsigned k = ++seen[boots[i].mode];

		boots[i].label = k == 1 ? xstrdup(plan->modes[boots[i].mode].name)
					: xasprintf("%s%u", plan->modes[boots[i].mode].name, k);
	}
	free(seen);
	*ret_boots = boots;
	return n;
}

void plan_boots_free(struct plan_boot *boots, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(boots[i].label);
	free(boots);
}

bool plan_kernel_valid(const char *s, const char **ret_why)
{
	bool path = s[0] == '/';

	if (!*s) {
		*ret_why = "is empty";
		return false;
	}
	if (strlen(s) > 255) {
		*ret_why = "is longer than 255 characters";
		return false;
	}
	for (const char *c = s; *c; c++)
		if (!(isalnum((unsigned char)*c) || strchr("._+~-", *c) || (path && *c == '/'))) {
			*ret_why = path ? "is not a path bootab takes: only letters, digits, / . _ + ~ -"
					: "is not a kernel release (as uname -r prints it) or an absolute /boot path";
			return false;
		}
	if (!path) {
		if (s[0] == '-' || s[0] == '.') {
			*ret_why = "is not a kernel release: it begins with '-' or '.'";
			return false;
		}
		return true;
	}
	if (strncmp(s, "/boot/", 6) || !s[6]) {
		*ret_why = "is a path outside /boot (a kernel image is /boot/NAME)";
		return false;
	}
	for (const char *c = s; *c; c++)
		if (*c == '/' && (!strncmp(c, "/../", 4) || !strcmp(c, "/..") || !strncmp(c, "/./", 3) ||
				  !strcmp(c, "/.") || c[1] == '/' || !c[1])) {
			*ret_why = "is not a plain path (no '.', '..', '//' or trailing '/')";
			return false;
		}
	return true;
}

bool plan_group_name_valid(const char *s)
{
	if (!*s || !strcmp(s, ".") || !strcmp(s, ".."))
		return false;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') ||
		      *s == '_' || *s == '.' || *s == '-'))
			return false;
	return true;
}

bool plan_has_kernels(const struct plan *plan)
{
	for (size_t i = 0; i < plan->n_modes; i++)
		if (plan->modes[i].kernel)
			return true;
	return false;
}

char **plan_managed_args(const struct plan *plan)
{
	struct strvec out = STRVEC_INIT;

	for (size_t i = 0; i < plan->n_modes; i++)
		for (char **a = plan->modes[i].args; a && *a; a++) {
			size_t nl = strcspn(*a, "=");
			bool known = false;

			for (size_t j = 0; j < out.n && !known; j++) {
				size_t ml = strcspn(out.v[j], "=");
				char *x = xstrndup(*a, nl), *y = xstrndup(out.v[j], ml);

				known = cmdline_name_equal(x, y);
				free(x);
				free(y);
			}
			if (!known)
				strvec_push(&out, *a);
		}
	return strvec_detach(&out);
}

void plan_release(struct plan *p)
{
	for (size_t i = 0; i < p->n_modes; i++) {
		free(p->modes[i].name);
		free(p->modes[i].args_text);
		free(p->modes[i].kernel);
		strv_free(p->modes[i].args);
		strlist_release(&p->modes[i].expects);
	}
	for (size_t i = 0; i < p->n_rows; i++) {
		free(p->rows[i].name);
		free(p->rows[i].command);
		free(p->rows[i].selector);
		free(p->rows[i].user);
		free(p->rows[i].metric);
		free(p->rows[i].pattern);
		free(p->rows[i].unit);
		free(p->rows[i].perf);
	}
	for (size_t i = 0; i < p->n_versions; i++) {
		free(p->versions[i].name);
		free(p->versions[i].command);
	}
	for (size_t i = 0; i < p->n_factors; i++) {
		free(p->factors[i].name);
		free(p->factors[i].args_text);
		strv_free(p->factors[i].args);
	}
	free(p->factors);
	design_release(&p->design);
	free(p->modes);
	free(p->rows);
	free(p->versions);
	free(p->file);
	free(p->target);
	strlist_release(&p->targets);
	free(p->inventory);
	free(p->group);
	free(p->backend);
	free(p->data_dir);
	free(p->history);
	free(p->power_cycle);
	free(p->watch);
	free(p->perf);
	strlist_release(&p->order_list);
	strlist_release(&p->park);
	strlist_release(&p->ignore);
	strlist_release(&p->unpark);
	strlist_release(&p->prepare);
	free(p->lava.url);
	free(p->lava.device);
	strlist_release(&p->lava.tags);
	free(p->lava.device_type);
	free(p->lava.arch);
	free(p->lava.token_file);
	free(p->lava.token_env);
	free(p->lava.kernel);
	free(p->lava.initramfs);
	free(p->lava.kernel_args);
	free(p->lava.prompt);
	memset(p, 0, sizeof(*p));
}
