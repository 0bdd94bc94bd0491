#include "campaign/screen-report.h"

#include <errno.h>
#include <stdlib.h>

#include "lib/alloc.h"

int screen_report_build(const struct plan *plan, const struct compare_result *res, double alpha,
			struct screen_result *ret)
{
	size_t k = plan->n_factors;
	const char **names, **args;
	long *side_run;

	if (!k)
		return -ENOENT;
	names = xcalloc(k, sizeof(*names));
	args = xcalloc(k, sizeof(*args));
	side_run = xcalloc(res->n_sides + 1, sizeof(*side_run));
	for (size_t f = 0; f < k; f++) {
		names[f] = plan->factors[f].name;
		args[f] = plan->factors[f].args_text;
	}
	for (size_t s = 0; s < res->n_sides; s++) {
		const struct plan_mode *pm = res->sides[s].mode ? plan_find_mode(plan, res->sides[s].mode) : NULL;

		side_run[s] = pm && pm->design_run ? (long)pm->run : -1;
	}
	screen_build(&plan->design, names, args, side_run, res, alpha, ret);
	free(names);
	free(args);
	free(side_run);
	return 0;
}
