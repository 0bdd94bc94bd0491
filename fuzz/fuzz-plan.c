/*
 * Plan files (src/plan/plan-parse.c).
 *
 * Property: a plan that parses, written out with plan_format() and parsed
 * again, is the same plan (every field but line numbers), and writing it
 * out again gives the same text. Its boot order is computed too: every
 * boot's label is unique and none is a name the results layout reserves;
 * no row name is reserved either; its target is not an ssh option.
 */
#include "fuzz-common.h"

#include "plan/plan.h"
#include "results/side.h"

#define SAME(field) FUZZ_ASSERT(a->field == b->field, "%s differs", #field)
#define SAME_STR(field) FUZZ_ASSERT(fuzz_str_equal(a->field, b->field), "%s differs", #field)

static void same_list(const struct strlist *x, const struct strlist *y, const char *what)
{
	FUZZ_ASSERT(x->n == y->n, "%s: %zu items, then %zu", what, x->n, y->n);
	for (size_t i = 0; i < x->n; i++)
		FUZZ_ASSERT(!strcmp(x->items[i], y->items[i]), "%s[%zu]: '%s', then '%s'", what, i,
			    x->items[i], y->items[i]);
}

static void same_plan(const struct plan *a, const struct plan *b)
{
	SAME_STR(target);
	same_list(&a->targets, &b->targets, "targets");
	SAME_STR(inventory);
	SAME_STR(group);
	SAME_STR(backend);
	SAME(order_kind);
	same_list(&a->order_list, &b->order_list, "order");
	SAME(rounds);
	SAME(seed);
	SAME(has_seed);
	SAME_STR(data_dir);
	SAME(boot_timeout_s);
	SAME(box_timeout_s);
	SAME_STR(power_cycle);
	SAME(oneshot);
	SAME_STR(watch);
	SAME(default_reps);
	FUZZ_ASSERT(!memcmp(&a->idle.load, &b->idle.load, sizeof(double)), "idle.load differs");
	FUZZ_ASSERT(!memcmp(&a->idle.gpu_pct, &b->idle.gpu_pct, sizeof(double)), "idle.gpu differs");
	SAME(idle.checks);
	SAME(idle.interval_s);
	SAME(idle.timeout_s);
	SAME(lava.present);
	SAME_STR(lava.url);
	SAME_STR(lava.device);
	same_list(&a->lava.tags, &b->lava.tags, "lava tags");
	SAME_STR(lava.device_type);
	SAME_STR(lava.arch);
	SAME_STR(lava.token_file);
	SAME_STR(lava.token_env);
	SAME_STR(lava.kernel);
	SAME_STR(lava.initramfs);
	SAME_STR(lava.kernel_args);
	SAME_STR(lava.prompt);
	SAME(lava.job_timeout_s);
	SAME(lava.poll_s);
	same_list(&a->park, &b->park, "park");
	same_list(&a->unpark, &b->unpark, "unpark");
	SAME(n_modes);
	for (size_t i = 0; i < a->n_modes; i++) {
		SAME_STR(modes[i].name);
		SAME_STR(modes[i].args_text);
		FUZZ_ASSERT(fuzz_strv_equal(a->modes[i].args, b->modes[i].args), "mode %zu args", i);
		same_list(&a->modes[i].expects, &b->modes[i].expects, "expect");
	}
	SAME(n_rows);
	for (size_t i = 0; i < a->n_rows; i++) {
		SAME_STR(rows[i].name);
		SAME(rows[i].check);
		SAME_STR(rows[i].command);
		SAME(rows[i].reps);
		SAME(rows[i].parser);
		SAME_STR(rows[i].selector);
		SAME(rows[i].has_better);
		SAME(rows[i].better_lower);
		SAME(rows[i].has_stat);
		if (a->rows[i].has_stat) {
			SAME(rows[i].stat);
			SAME(rows[i].n_stats);
			for (size_t k = 0; k < a->rows[i].n_stats; k++)
				SAME(rows[i].stats[k]);
		}
		SAME_STR(rows[i].metric);
		SAME_STR(rows[i].pattern);
		SAME_STR(rows[i].unit);
		SAME(rows[i].by_run);
		SAME(rows[i].timeout_s);
		SAME_STR(rows[i].user);
	}
	SAME(n_versions);
	for (size_t i = 0; i < a->n_versions; i++) {
		SAME_STR(versions[i].name);
		SAME_STR(versions[i].command);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *input = fuzz_text(data, size), *text, *again;
	struct plan plan, reread;
	struct parse_error err = PARSE_ERROR_INIT;
	struct plan_boot *boots;
	size_t n;

	if (!input)
		return 0;
	if (plan_parse("fuzz.ini", input, &plan, &err) < 0) {
		FUZZ_ASSERT(err.message && err.file, "a refused plan has no message");
		parse_error_release(&err);
		free(input);
		return 0;
	}
	parse_error_release(&err);
	text = plan_format(&plan);
	FUZZ_ASSERT(plan_parse("fuzz.ini", text, &reread, &err) == 0,
		    "the written plan does not parse: %u: %s\n%s", err.line, err.message, text);
	same_plan(&plan, &reread);
	again = plan_format(&reread);
	FUZZ_ASSERT(!strcmp(text, again), "writing the plan twice differs");

	n = plan_boots(&plan, &boots);
	FUZZ_ASSERT(n >= 2 || plan.order_kind == ORDER_LIST, "%zu boots", n);
	for (size_t i = 0; i < n; i++) {
		const char *why;

		FUZZ_ASSERT(boots[i].mode < plan.n_modes, "boot %zu: mode %zu", i, boots[i].mode);
		FUZZ_ASSERT(!results_name_reserved(boots[i].label, &why), "boot %zu: label '%s': %s", i,
			    boots[i].label, why);
		/* Quadratic, but plans are small: at most a few hundred boots. */
		for (size_t j = 0; j < i && n < 2000; j++)
			FUZZ_ASSERT(strcmp(boots[i].label, boots[j].label), "boots %zu and %zu: label '%s'",
				    j, i, boots[i].label);
	}
	for (size_t i = 0; i < plan.n_rows; i++) {
		const char *why;

		FUZZ_ASSERT(!results_name_reserved(plan.rows[i].name, &why), "row '%s': %s",
			    plan.rows[i].name, why);
	}
	FUZZ_ASSERT(!plan.target || plan.target[0] != '-', "target '%s'", plan.target);
	plan_boots_free(boots, n);

	free(text);
	free(again);
	plan_release(&plan);
	plan_release(&reread);
	parse_error_release(&err);
	free(input);
	return 0;
}
