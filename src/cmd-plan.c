#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "commands.h"
#include "judge/compare.h"
#include "judge/history.h"
#include "lib/escape.h"
#include "lib/alloc.h"
#include "lib/strbuf.h"
#include "lib/parse-number.h"
#include "lib/file.h"
#include "cli/log.h"
#include "fleet/ansible-inventory.h"
#include "plan/plan.h"
#include "lib/escape.h"
#include "campaign/touch.h"
#include "cli/target-args.h"
#include "target/target.h"

static const char cmd_plan_usage[] =
	"usage: bootab plan [--from CAMPAIGN_DIR] [--effect PCT [--history FILE]]\n"
	"                   [--touch | --target T [--root DIR] [--connect-timeout S]]\n"
	"                   PLAN.ini\n"
	"\n"
	"Checks a campaign plan and prints what the campaign will do: the boot\n"
	"order, the managed args, the patterns the costs bootab finds ignore, the\n"
	"rows on every boot and an estimate of how long it takes. Every error names\n"
	"the file, line and key. bootab-plan(5) describes the file. With --from, a\n"
	"finished campaign's side directories, the estimate uses the reboot and rep\n"
	"times that campaign measured.\n"
	"\n"
	"With --effect, it also prints how many boots per mode the plan needs to find\n"
	"an effect of PCT % with 80 % power at alpha = 0.05 (boot-level t-test), from\n"
	"the boot-to-boot and rep-to-rep noise measured by a finished campaign (its\n"
	"side directories) or a machine's history, and, from the campaign's measured\n"
	"reboot and rep durations, the best reps per boot. docs/statistics.md says how.\n"
	"\n"
	"With --touch (the plan's target) or --target T, it reads the box's standing\n"
	"boot before anything changes and says, per mode, what each arg can change\n"
	"there, with a warning where it can change nothing (pti=off where PTI is off,\n"
	"mitigations=off where no CPU vulnerability applies, nosmt without SMT,\n"
	"iommu=pt where the watched device is identity already; docs/proof.md).\n"
	"--root DIR reads a tree for --target local.\n"
	"\n"
	"exit status: 0 valid, 2 invalid or unreadable\n";

/* A reboot on a real box: firmware, bootloader, kernel, services. */
#define REBOOT_ESTIMATE_S 90

static void print_duration(unsigned long s)
{
	if (s >= 3600)
		printf("%luh%02lum", s / 3600, s % 3600 / 60);
	else if (s >= 60)
		printf("%lum%02lus", s / 60, s % 60);
	else
		printf("%lus", s);
}

/* Reads "5", "5%" or "5.0 %" as 5; > 0 and < 1000. */
static int parse_effect(const char *s, double *ret)
{
	const char *end;
	double v;

	if (number_scan_double(s, 0, 1000, &v, &end) < 0 || v == 0 || v == 1000)
		return -EINVAL;
	while (*end == ' ')
		end++;
	if (*end == '%')
		end++;
	if (*end)
		return -EINVAL;
	*ret = v;
	return 0;
}

/* The noise source: the side directories of a finished campaign, or a history. */
struct noise {
	struct side *sides;
	size_t n_sides;
	struct compare_result res;
	bool have_res;
	struct history history;
	const char *what;
};

static int noise_from_campaign(const char *dir, struct noise *nz)
{
	struct strlist warnings = STRLIST_INIT;
	struct compare_options o = { .stat = STAT_MEAN, .loud_pct = COMPARE_LOUD_PCT_DEFAULT };
	char **names = NULL;
	int r;

	r = dir_list(dir, &names, NULL);
	if (r < 0) {
		log_error("--from: cannot read '%s': %s", dir, errno_string(r));
		return r;
	}
	for (char **n = names; *n; n++) {
		char *path = path_join(dir, *n);

		/* A campaign directory holds its plan and report next to the sides. */
		if (path_is_dir(path) && side_recorded(path)) {
			nz->sides = xrealloc(nz->sides, (nz->n_sides + 1) * sizeof(*nz->sides));
			if (side_load(path, &nz->sides[nz->n_sides], &warnings) == 0)
				nz->n_sides++;
		}
		free(path);
	}
	strv_free(names);
	for (size_t i = 0; i < warnings.n; i++)
		log_warning("%s", warnings.items[i]);
	strlist_release(&warnings);
	if (nz->n_sides < 2) {
		log_error("--from: '%s' holds %zu side directories with meta.json; it takes two or more", dir,
			  nz->n_sides);
		return -EINVAL;
	}
	warnings = (struct strlist)STRLIST_INIT;
	r = compare_sides(nz->sides, nz->n_sides, &o, &nz->res, &warnings);
	strlist_release(&warnings);
	if (r < 0) {
		log_error("--from: cannot compare the sides of '%s': %s", dir, errno_string(r));
		return r;
	}
	nz->have_res = true;
	return 0;
}

static int noise_from_history(const char *file, struct noise *nz)
{
	struct parse_error err = PARSE_ERROR_INIT;
	int r = history_load(file, &nz->history, &err);

	if (r < 0) {
		char *msg = parse_error_format(&err);

		log_error("--history: %s", msg);
		free(msg);
	}
	parse_error_release(&err);
	return r;
}

struct row_noise {
	const char *metric;
	struct stats_components c;
	double c_boot, c_rep;       /* seconds; NaN when not measured */
	double c_idle;              /* the row's idle wait, seconds; 0 when none was measured */
};

static double mean_of(double sum, size_t n)
{
	return n ? sum / (double)n : NAN;
}

/* Boot and rep costs of row name, from the campaign's meta.json times. */
static void row_costs(const struct noise *nz, const char *name, double *ret_boot, double *ret_rep,
		      double *ret_idle)
{
	double reboot = 0, idle = 0, rep = 0;
	size_t n_reboot = 0, n_idle = 0, n_rep = 0;

	for (size_t k = 0; k < nz->n_sides; k++) {
		const struct row *r = side_find_row(&nz->sides[k], name);

		if (nz->sides[k].has_reboot) {
			reboot += nz->sides[k].reboot_s;
			n_reboot++;
		}
		if (!r)
			continue;
		if (r->has_idle_wait) {
			idle += r->idle_wait_s;
			n_idle++;
		}
		for (size_t i = 0; i < r->n_rep_s; i++)
			rep += r->rep_s[i];
		n_rep += r->n_rep_s;
	}
	*ret_boot = n_reboot ? mean_of(reboot, n_reboot) + (n_idle ? mean_of(idle, n_idle) : 0) : NAN;
	if (ret_idle)
		*ret_idle = n_idle ? mean_of(idle, n_idle) : 0;
	*ret_rep = mean_of(rep, n_rep);
}

static void print_sd(double var)
{
	if (!isfinite(var))
		printf(" %8s", "-");
	else
		printf(" %7.2f%%", 100 * sqrt(var));
}

static void print_boots(unsigned n)
{
	if (n)
		printf(" %10u", n);
	else
		printf(" %10s", ">1000");
}

/*
 * rounds = auto at an effect of d (log) with boot means varying by tau2:
 * the chance of a claim by the ceiling and the rounds it takes on average,
 * from the design's boundaries under a normal law (the boot-level t has few
 * degrees of freedom at the first looks, so the campaign's power is a
 * little lower; bench/method measures it).
 */
static void print_auto(const struct plan *plan, double d, double tau2)
{
	double info[PLAN_MAX_ROUNDS_MAX], z[PLAN_MAX_ROUNDS_MAX], p[PLAN_MAX_ROUNDS_MAX], power = 0, rounds = 0;
	unsigned k = plan->max_rounds;

	if (!(tau2 > 0))
		return;
	for (unsigned j = 1; j <= k; j++)
		info[j - 1] = 1 / (tau2 * (1.0 / j + 1.0 / (j + 1)));
	if (stats_gs_bounds(info, k, COMPARE_ALPHA_DEFAULT, COMPARE_SEQ_SPENDING, z) < 0 ||
	    stats_gs_crossing(info, k, z, fabs(d), p) < 0)
		return;
	for (unsigned j = 1; j <= k; j++) {
		power += p[j - 1];
		/* Round 1 has one boot per mode: no test there without a history. */
		rounds += (j < 2 ? 2 : j) * p[j - 1];
	}
	rounds += k * (1 - power);
	printf("    rounds = auto: %.0f%% power by round %u, %.1f rounds on average (%.0f boots; normal approximation)\n",
	       100 * power, k, rounds, rounds * (double)plan->n_modes + 1);
}

/*
 * Box time of the plan's design for row pr at 80 % power (n boots per mode
 * at its reps), and of the cheapest design: the reps per boot (1 to 50)
 * whose boots, at 80 % power, take the least box time; a campaign of b
 * boots per mode boots b x modes + 1 times (the first mode closes it).
 * Reboots from the campaign's timings, else assumed (said); without rep
 * timings no time is estimated.
 */
static void print_design_cost(const struct plan_row *pr, const struct row_noise *rn, double d, size_t n_modes,
			      unsigned n)
{
	double c_boot = rn->c_boot;
	struct stats_design best;
	int r;

	if (isnan(rn->c_rep) || !(rn->c.sigma_b2 >= 0) || !(rn->c.sigma_w2 >= 0)) {
		printf("    box time: not estimated (this row's reps were not timed: bootab plan --from a campaign that timed them)\n");
		return;
	}
	if (isnan(c_boot))
		c_boot = REBOOT_ESTIMATE_S;
	r = stats_cheapest_design(d, rn->c.sigma_b2, rn->c.sigma_w2, n_modes, c_boot, rn->c_rep, 50, 1000, &best);
	printf("    box time at 80%% power: this plan, %u boots per mode x %u reps: ", n, pr->reps);
	if (n)
		print_duration((unsigned long)lround(stats_design_seconds(n, n_modes, pr->reps, c_boot, rn->c_rep)));
	else
		printf("more than 1000 boots");
	if (r == 0) {
		printf("; the cheapest, %u x %u: ", best.boots, best.reps);
		print_duration((unsigned long)lround(best.seconds));
	}
	printf("%s\n", isnan(rn->c_boot) ? "; a reboot assumed to take 90s (none measured)" : "");
}

static void print_row_noise(const struct plan *plan, const struct plan_row *pr, const struct row_noise *rn, double d,
			    size_t n_modes, unsigned *worst, bool *unreachable)
{
	double reps = pr->reps, tau2 = rn->c.sigma_b2 + rn->c.sigma_w2 / reps;
	double best = stats_best_reps(rn->c_boot, rn->c_rep, rn->c.sigma_w2, rn->c.sigma_b2, 100);
	unsigned n;

	/* Without a split into sigma_b and sigma_w, the boot means' own variance. */
	if (isnan(tau2))
		tau2 = rn->c.boot_var;
	n = stats_boots_needed(d, tau2, n_modes, 0.05, 0.80, 1000);
	printf("  %-12s %-16s", pr->name, rn->metric);
	print_sd(rn->c.sigma_b2);
	print_sd(rn->c.sigma_w2);
	printf(" %4u", pr->reps);
	print_boots(n);
	if (isnan(best)) {
		printf(" %10s %10s", "-", "-");
	} else {
		printf(" %10.0f", best);
		print_boots(stats_boots_needed(d, rn->c.sigma_b2 + rn->c.sigma_w2 / best, n_modes, 0.05, 0.80, 1000));
	}
	if (isnan(rn->c_boot))
		printf(" %8s", "-");
	else
		printf(" %8.0f", rn->c_boot);
	if (isnan(rn->c_rep))
		printf(" %8s\n", "-");
	else
		printf(" %8.1f\n", rn->c_rep);
	if (plan->rounds_auto)
		print_auto(plan, d, tau2);
	print_design_cost(pr, rn, d, n_modes, n);
	if (!n)
		*unreachable = true;
	else if (n > *worst)
		*worst = n;
}

static double measured_reboot_s(const struct noise *nz, size_t *ret_n)
{
	double sum = 0;

	*ret_n = 0;
	for (size_t k = 0; k < nz->n_sides; k++)
		if (nz->sides[k].has_reboot) {
			sum += nz->sides[k].reboot_s;
			(*ret_n)++;
		}
	return mean_of(sum, *ret_n);
}

/* What each row needs found: stats_campaign_design()'s needs and each row's times (NaN rep: not timed). */
struct design_needs {
	struct stats_need *needs;
	size_t n;
	double *idle, *rep;
	bool untimed, timed;       /* a row's reps were (not) timed */
};

static void need_add(struct design_needs *dn, size_t row, double d, const struct row_noise *rn)
{
	if (!(rn->c.sigma_b2 >= 0) || !(rn->c.sigma_w2 >= 0))
		return;
	/* A row whose reps were not timed counts no time: the fewest reps that reach the boots. */
	dn->untimed |= isnan(rn->c_rep);
	dn->timed |= !isnan(rn->c_rep);
	dn->idle[row] = rn->c_idle;
	dn->rep[row] = isnan(rn->c_rep) ? 0 : rn->c_rep;
	dn->needs = xrealloc(dn->needs, (dn->n + 1) * sizeof(*dn->needs));
	dn->needs[dn->n++] = (struct stats_need){ row, d, rn->c.sigma_b2, rn->c.sigma_w2 };
}

/* Boots per mode as the plan's order counts them: abba boots each mode twice a round. */
static void print_rounds_key(const struct plan *plan, unsigned boots)
{
	if (plan->order_kind == ORDER_LIST)
		printf("  order = (a list with %u boots of each mode, the first mode's also closing it)\n", boots);
	else if (plan->order_kind == ORDER_ABBA)
		printf("  rounds = %u\n", (boots + 1) / 2);
	else
		printf("  rounds = %u\n", boots);
}

/*
 * The design to copy: the cheapest campaign (stats_campaign_design()) that
 * finds the effect in every measured metric of every row with 80 % power,
 * as the plan's keys; a row whose reps were not timed at the fewest reps
 * that reach its boots, and no time counted for them.
 */
static bool print_recommended(const struct plan *plan, double effect, const struct noise *nz,
			      const struct design_needs *dn)
{
	size_t n_reboots = 0;
	double reboot = nz->n_sides ? measured_reboot_s(nz, &n_reboots) : NAN, t;
	unsigned boots, *reps;
	bool ok;

	if (!dn->timed)
		return false;
	reps = xcalloc(plan->n_rows, sizeof(*reps));
	ok = stats_campaign_design(dn->needs, dn->n, dn->idle, dn->rep, plan->n_rows,
				   isnan(reboot) ? REBOOT_ESTIMATE_S : reboot, plan->n_modes, 50, 1000, &boots, reps,
				   &t) == 0;
	if (ok) {
		printf("recommended: the cheapest design that finds %+.1f%% in every measured row with 80%% power: %u boots per mode, ",
		       effect, boots);
		print_duration((unsigned long)lround(t));
		printf(" of box time%s%s; in the plan:\n  [campaign]\n",
		       isnan(reboot) ? ", a reboot assumed to take 90s (none measured)" : "",
		       dn->untimed ? ", untimed rows' reps not counted" : "");
		if (plan->rounds_auto)
			printf("  # rounds = auto with max_rounds = %u stops earlier when the effect is larger\n", boots);
		print_rounds_key(plan, boots);
		for (size_t i = 0; i < plan->n_rows; i++)
			if (reps[i])
				printf("  [row \"%s\"]\n  reps = %u\n", plan->rows[i].name, reps[i]);
	}
	free(reps);
	return ok;
}

static void print_effect(const struct plan *plan, double effect, const struct noise *nz)
{
	double d = log1p(effect / 100);
	unsigned worst = 0;
	bool any = false, unreachable = false, recommended;
	struct design_needs dn = { NULL, 0, xcalloc(plan->n_rows + 1, sizeof(double)),
				   xcalloc(plan->n_rows + 1, sizeof(double)), false, false };

	printf("\nboots per mode to find %+.1f%% with 80%% power (alpha 0.05, boot-level t over %zu modes),\n",
	       effect, plan->n_modes);
	printf("from %s:\n", nz->what);
	printf("  %-12s %-16s %8s %8s %4s %10s %10s %10s %8s %8s\n", "row", "metric", "sigma_b", "sigma_w", "reps",
	       "boots", "best reps", "boots", "boot s", "rep s");
	for (size_t i = 0; i < plan->n_rows; i++) {
		const struct plan_row *pr = &plan->rows[i];
		bool found = false;

		if (pr->check)
			continue;
		for (size_t m = 0; nz->have_res && m < nz->res.n_metrics; m++) {
			const struct compare_metric *cm = &nz->res.metrics[m];
			struct row_noise rn = { cm->metric, cm->components, NAN, NAN, 0 };

			if (strcmp(cm->row, pr->name) || !cm->has_components)
				continue;
			row_costs(nz, pr->name, &rn.c_boot, &rn.c_rep, &rn.c_idle);
			found = true;
			print_row_noise(plan, pr, &rn, d, plan->n_modes, &worst, &unreachable);
			if (!cm->counter)
				need_add(&dn, i, d, &rn);
		}
		for (size_t e = 0; !nz->have_res && e < nz->history.n_entries; e++) {
			const struct history_entry *he = &nz->history.entries[e];

			for (size_t m = 0; m < he->n_metrics; m++) {
				struct stats_group *g;
				struct row_noise rn = { he->metrics[m].metric, { 0 }, NAN, NAN, 0 };
				size_t ng;
				bool seen = false;

				if (strcmp(he->metrics[m].row, pr->name))
					continue;
				/* Each metric once: from the first entry that has it, over all entries. */
				for (size_t e2 = 0; e2 < e && !seen; e2++)
					for (size_t m2 = 0; m2 < nz->history.entries[e2].n_metrics; m2++)
						seen |= !strcmp(nz->history.entries[e2].metrics[m2].row, pr->name) &&
							!strcmp(nz->history.entries[e2].metrics[m2].metric, he->metrics[m].metric);
				if (seen)
					continue;
				ng = history_groups(&nz->history, pr->name, he->metrics[m].metric, NULL, &g);
				stats_variance_components(g, ng, &rn.c);
				free(g);
				found = true;
				print_row_noise(plan, pr, &rn, d, plan->n_modes, &worst, &unreachable);
				need_add(&dn, i, d, &rn);
			}
		}
		if (!found)
			printf("  %-12s no measurement of this row\n", pr->name);
		any |= found;
	}
	recommended = any && !unreachable && print_recommended(plan, effect, nz, &dn);
	free(dn.needs);
	free(dn.idle);
	free(dn.rep);
	if (!any || recommended)
		return;
	if (unreachable)
		printf("a row needs more than 1000 boots per mode: the effect is too small for its boot-to-boot noise\n");
	else if (worst && !plan->rounds_auto)
		printf("suggested: rounds = %u (the row that needs the most boots; boots at the plan's reps)\n", worst);
	else if (worst && worst > plan->max_rounds)
		printf("suggested: max_rounds = %u (a fixed design needs %u rounds for the row that needs the most boots)\n",
		       worst < PLAN_MAX_ROUNDS_MAX ? worst : PLAN_MAX_ROUNDS_MAX, worst);
}

/* What each mode can change on the target, from its standing boot. */
static int print_touch(const struct plan *plan, const struct target_args *to)
{
	struct parse_error err = PARSE_ERROR_INIT;
	struct strbuf text = STRBUF_INIT;
	struct strlist warnings = STRLIST_INIT;
	struct snapshot standing;
	struct target *t = NULL;
	int r = target_args_open(to, &t);

	if (r < 0)
		return r;
	r = touch_snapshot(t, plan, false, NULL, NULL, &standing, &err);
	if (r < 0) {
		if (r == -EINVAL) {
			char *msg = parse_error_format(&err);

			log_error("%s", msg);
			free(msg);
		} else {
			log_error("%s", target_error(t));
		}
	} else {
		touch_map_format(plan, &standing, &text, &warnings);
		printf("\n%s", text.buf);
		fflush(stdout);
		for (size_t i = 0; i < warnings.n; i++)
			log_warning("%s", warnings.items[i]);
		snapshot_release(&standing);
	}
	target_close(t);
	strbuf_release(&text);
	strlist_release(&warnings);
	parse_error_release(&err);
	return r;
}

/* What the plan is: its counts, target, backend, history, managed args; a random order's seed, chosen here when the plan has none. */
static void print_plan_header(const char *file, struct plan *plan, const struct fleet *fleet, size_t n_checks)
{
	char **managed;

	printf("plan %s: modes %zu, rows %zu, checks %zu, versions %zu\n", file, plan->n_modes,
	       plan->n_rows - n_checks, n_checks, plan->n_versions);
	if (fleet->n) {
		printf("target: a fleet of %zu boxes\n", fleet->n);
		for (size_t i = 0; i < fleet->n; i++) {
			printf("  box %s: ", fleet->boxes[i].name);
			text_escape_write(stdout, fleet->boxes[i].destination, strlen(fleet->boxes[i].destination), 0, NULL);
			putchar('\n');
		}
	} else if (plan_is_lava(plan)) {
		const struct plan_lava *l = &plan->lava;

		/* [lava]'s values were checked when the plan was read: no control characters. */
		printf("target: lava: every boot a job of %s on device type %s, device %s, tags", l->url, l->device_type,
		       l->device ? l->device : "any");
		for (size_t i = 0; i < l->tags.n; i++)
			printf(" %s", l->tags.items[i]);
		printf("%s\n  deploys %s and %s; command line %s, then the mode's args\n", l->tags.n ? "" : " none",
		       l->kernel, l->initramfs, l->kernel_args);
	} else {
		printf("target: %s\n", plan->target ? plan->target : "(not set)");
	}
	if (!plan_is_lava(plan))
		printf("backend: %s\noneshot: %s\n",
		       plan->backend,
		       plan->oneshot == ONESHOT_ON ? "on" : plan->oneshot == ONESHOT_OFF ? "off" : "auto");
	if (plan->watch)
		printf("watch: %s\n", plan->watch);
	printf("history: %s\n", plan->history_off ? "off (none read, none recorded)"
			       : plan->history ? plan->history
			       : "$XDG_DATA_HOME/bootab/history/MACHINE_ID.json (the machine's default)");
	managed = plan_managed_args(plan);
	/* Managed by name: the plan owns every value of each. */
	printf("managed args:");
	for (char **a = managed; *a; a++)
		printf(" %.*s", (int)strcspn(*a, "="), *a);
	printf("%s\n", managed[0] ? "" : " (none)");
	strv_free(managed);
	/* What the costs bootab finds on its own will not blame on a mode (judge/costs.h). */
	printf("costs found by bootab: every side against every boot of mode %s; %s\n", plan->modes[0].name,
	       plan->ignore.n ? "not reported when they match:" : "no ignore patterns");
	for (size_t i = 0; i < plan->ignore.n; i++) {
		char *pattern = text_escape(plan->ignore.items[i]);

		printf("  ignore %s\n", pattern);
		free(pattern);
	}

	if (plan->order_kind == ORDER_RANDOM && !plan->has_seed) {
		/* A random order is only worth its name if it can be repeated: say the seed. */
		plan->seed = (unsigned long)time(NULL) & 0xffffffffUL;
		plan->has_seed = true;
		printf("seed: %lu, chosen now (add 'seed = %lu' to [campaign] to keep this order)\n", plan->seed,
		       plan->seed);
	} else if (plan->order_kind == ORDER_RANDOM) {
		printf("seed: %lu\n", plan->seed);
	}
}

/* The boots in their order, each with its mode's args or kernel and what it expects. */
static void print_boot_order(const struct plan *plan, const struct plan_boot *boots, size_t n)
{
	printf("\nboot order (%zu boots%s):\n", n, plan->rounds_auto ? ", at most: rounds = auto" : "");
	for (size_t i = 0; i < n; i++) {
		const struct plan_mode *m = &plan->modes[boots[i].mode];

		if (!plan_has_kernels(plan))
			printf("  %2zu  %-16s %s\n", i + 1, boots[i].label,
			       *m->args_text ? m->args_text : "(the standing kernel defaults)");
		else
			printf("  %2zu  %-16s kernel %s%s%s\n", i + 1, boots[i].label,
			       m->kernel ? m->kernel : "(the standing one)",
			       *m->args_text ? ", args " : " (its default args)", m->args_text);
		for (size_t e = 0; e < m->expects.n; e++)
			printf("      %-16s expect %s\n", "", m->expects.items[e]);
	}
}

/* What rounds > 1 do with the design: alternate it with its fold-over, or repeat it, and why. */
static void print_design_rounds(const struct plan *plan)
{
	const struct design *d = &plan->design;

	if (d->folded) {
		printf("  rounds alternate the design (odd rounds) and its fold-over (even rounds: foldNN is runNN with\n"
		       "    every factor reversed, fold01 every factor on)\n");
		return;
	}
	if (plan->rounds_auto || plan->rounds < 2)
		return;
	if (d->kind == DESIGN_FULL)
		printf("  rounds repeat the design: a full factorial's fold-over is its own runs\n");
	else if (design_foldable(d))
		printf("  rounds repeat the design: order = aa takes no fold-over\n");
	else if (d->resolution >= 5)
		printf("  rounds repeat the design: resolution %s already keeps main effects and two-factor interactions clear\n",
		       design_resolution_name(d->resolution));
	else
		printf("  rounds repeat the design: its fold-over is its own runs (every word of its defining relation has even length)\n");
}

/*
 * [factor] sections: the design, which factors each run sets, what is
 * aliased with what, and the boots one mode per factor would take.
 */
static void print_factors(const struct plan *plan)
{
	const struct design *d = &plan->design;
	const char **names;
	struct strlist aliases = STRLIST_INIT;
	char *what;
	unsigned rounds = plan->rounds_auto ? plan->max_rounds : plan->rounds;

	if (!plan->n_factors)
		return;
	names = xcalloc(plan->n_factors, sizeof(*names));
	for (size_t i = 0; i < plan->n_factors; i++)
		names[i] = plan->factors[i].name;
	what = design_describe(d);
	printf("\ndesign over %zu factors: %s\n", plan->n_factors, what);
	for (size_t m = 0; m < plan->n_modes; m++) {
		const struct plan_mode *pm = &plan->modes[m];
		bool any = false;

		if (!pm->design_run)
			continue;
		printf("  %-16s", pm->name);
		for (size_t i = 0; i < plan->n_factors; i++)
			if (d->levels[pm->run * d->k + i] > 0) {
				printf(" %s", names[i]);
				any = true;
			}
		printf("%s\n", any ? "" : " (every factor off: the standing config)");
	}
	print_design_rounds(plan);
	design_aliases(d, names, &aliases);
	for (size_t i = 0; i < aliases.n; i++)
		printf("  %s\n", aliases.items[i]);
	printf("  cost: %zu boots%s; one mode per factor: %zu boots for the same precision of each main effect\n",
	       rounds * d->base_runs + 1, plan->rounds_auto ? " at most" : "", design_one_factor_boots(d, rounds));
	strlist_release(&aliases);
	free(what);
	free(names);
}

/* rounds = auto: when the campaign stops, and each look's level. */
static void print_rounds_auto(const struct plan *plan, size_t n)
{
	printf("\nrounds = auto: after every round the boot-level tests look; the campaign stops when every test is decided\n"
	       "  (a claim that survives FDR, or the same within its margin), else after round %u (%zu boots).\n"
	       "  Each look claims at its O'Brien-Fleming boundary (alpha 0.05 over every look):",
	       plan->max_rounds, n);
	for (unsigned j = 1; j <= plan->max_rounds; j++)
		printf("%s round %u %.4f", j == 1 ? "" : ",", j,
		       compare_sequential_alpha(j, plan->max_rounds, COMPARE_ALPHA_DEFAULT));
	printf(".\n  Fewest boots: %zu (round 1, with a history to test against), else %zu (round 2).\n",
	       plan->n_modes + 1, 2 * plan->n_modes + 1);
}

/*
 * A row's counters as the run applies them (its own perf, perf_scope and
 * energy, else the campaign's): "perf = cycles,instructions, perf_scope =
 * command; energy = on"; nothing for a row without.
 */
static void print_row_counters(const struct plan *plan, const struct plan_row *r)
{
	const char *perf = plan_row_perf(plan, r);
	bool energy = plan_row_energy(plan, r);

	if (!perf && !energy && !(r->perf_off && plan->perf))
		return;
	printf("        %-16s ", "");
	if (perf)
		printf("perf = %s, perf_scope = %s", perf, plan_row_perf_system(plan, r) ? "system" : "command");
	else if (r->perf_off && plan->perf)
		printf("perf = off");
	printf("%senergy = %s\n", perf || r->perf_off ? "; " : "", energy ? "on" : "off");
}

/* What runs on every boot: prepare, versions, park, rows and checks with their parsers, unpark. */
static void print_every_boot(const struct plan *plan)
{
	printf("\non every boot:\n");
	for (size_t i = 0; i < plan->prepare.n; i++)
		printf("  prepare (root)         %s\n", plan->prepare.items[i]);
	for (size_t i = 0; i < plan->n_versions; i++)
		printf("  version %-14s %s\n", plan->versions[i].name, plan->versions[i].command);
	for (size_t i = 0; i < plan->park.n; i++)
		printf("  park (first boot)      %s\n", plan->park.items[i]);
	for (size_t i = 0; i < plan->n_rows; i++) {
		const struct plan_row *r = &plan->rows[i];

		printf("  %-5s %-16s %s\n", r->check ? "check" : "row", r->name, r->command);
		if (!r->check) {
			struct strbuf stats = STRBUF_INIT;

			strbuf_addstr(&stats, stat_kind_name(r->has_stat ? r->stat : STAT_MEAN));
			for (size_t k = 1; k < r->n_stats; k++)
				strbuf_addf(&stats, ",%s", stat_kind_name(r->stats[k]));
			printf("        %-16s %u rep%s, parser %s%s%s, %s%s, timeout %us\n", "", r->reps,
			       r->reps == 1 ? "" : "s", parser_kind_name(r->parser), r->selector ? " " : "",
			       r->selector ? r->selector : "", strbuf_str(&stats),
			       r->by_run ? ", run by run" : "", r->timeout_s);
			if (r->pattern)
				printf("        %-16s metric '%s' (%s%s%s is better) from each line matching %s\n", "",
				       r->metric, r->unit ? r->unit : "", r->unit ? ", " : "",
				       r->better_lower ? "lower" : "higher", r->pattern);
			print_row_counters(plan, r);
			strbuf_release(&stats);
		}
	}
	for (size_t i = 0; i < plan->unpark.n; i++)
		printf("  unpark (last boot)     %s\n", plan->unpark.items[i]);
}

/*
 * The runs a row's tool makes of itself per command, as the command asks
 * (its words split at blanks: a heuristic, the command is the user's sh):
 * llama-bench's -r/--repetitions (5 when not given), hyperfine's
 * -r/--runs (at least 10 when not given, the tool's own minimum). 1 for
 * a tool that runs once; *ret_given: the count was in the command.
 */
static unsigned tool_runs(const struct plan_row *r, bool *ret_given)
{
	bool llama = r->parser == PARSER_LLAMA_BENCH || (r->parser == PARSER_AUTO && strstr(r->command, "llama-bench"));
	bool hyperfine = r->parser == PARSER_HYPERFINE || (r->parser == PARSER_AUTO && strstr(r->command, "hyperfine"));
	const char *p = r->command;
	unsigned runs = llama ? 5 : hyperfine ? 10 : 1;
	bool next = false;

	*ret_given = false;
	if (!llama && !hyperfine)
		return 1;
	while (*(p += strspn(p, " \t\n"))) {
		size_t len = strcspn(p, " \t\n");
		char word[32];

		snprintf(word, sizeof(word), "%.*s", (int)(len < sizeof(word) ? len : sizeof(word) - 1), p);
		p += len;
		if (next) {
			char *end;
			unsigned long v = strtoul(word, &end, 10);

			if (end != word && *end == '\0' && v >= 1 && v <= 100000) {
				runs = (unsigned)v;
				*ret_given = true;
			}
			next = false;
			continue;
		}
		next = !strcmp(word, "-r") || (llama && !strcmp(word, "--repetitions")) ||
		       (hyperfine && !strcmp(word, "--runs"));
	}
	return runs;
}

/*
 * What the design wastes or cannot do, said before the first reboot: reps
 * that multiply a tool's own runs, and one boot per mode with nothing to
 * test it against.
 */
static void warn_design(const struct plan *plan, bool have_history)
{
	for (size_t i = 0; i < plan->n_rows; i++) {
		const struct plan_row *r = &plan->rows[i];
		bool given;
		unsigned runs = r->check ? 1 : tool_runs(r, &given);

		if (runs > 1 && r->reps > 1)
			log_warning("row %s: the tool repeats itself (%u runs%s) and reps = %u: %u runs a boot; runs of one boot share its offset, so past a few they add time, not power: reps = 1, or fewer runs of the tool (bootab plan --effect gives the best reps)",
				    r->name, runs, given ? "" : " by its default", r->reps, runs * r->reps);
	}
	/*
	 * The default history is the box's own, named by its machine-id: only
	 * a run knows whether there is one. Said where it is certain.
	 */
	if (!plan->rounds_auto && plan->rounds == 1 && plan->order_kind != ORDER_AA && plan->n_modes > 1 &&
	    !have_history && plan->history_off)
		log_warning("one boot per mode and history = off: nothing can test this campaign (it can only be screened); rounds = 2 gives every mode a test of its own");
}

/* The mean measured reboot of the campaign's sides (*ret_n of them), NaN when none was measured. */
/*
 * The least a campaign of n boots takes (reboots and idle gates), and the
 * most its rows may take; with --from, the reboot and the rows' reps as
 * that campaign measured them.
 */
static void print_estimate(const struct plan *plan, size_t n, unsigned long row_bound, const struct noise *nz)
{
	unsigned long gates = plan->n_rows, gate_s;
	size_t n_reboots = 0, n_measured = 0;
	double reboot_s = nz->n_sides ? measured_reboot_s(nz, &n_reboots) : NAN, rows_s = 0;

	gate_s = (unsigned long)plan->idle.checks * plan->idle.interval_s;
	if (isnan(reboot_s)) {
		printf("\nestimated duration: at least ");
		print_duration(n * (REBOOT_ESTIMATE_S + gates * gate_s));
		printf(" (%zu reboots at about %ds, %lu idle gates of at least %lus each)\n", n,
		       REBOOT_ESTIMATE_S, n * gates, gate_s);
	} else {
		printf("\nestimated duration: at least ");
		print_duration(n * ((unsigned long)lround(reboot_s) + gates * gate_s));
		printf(" (%zu reboots at %.0fs, the mean of the %zu measured in %s; %lu idle gates of at least %lus each)\n",
		       n, reboot_s, n_reboots, nz->what, n * gates, gate_s);
	}
	for (size_t i = 0; i < plan->n_rows && nz->n_sides; i++) {
		double boot, rep;

		row_costs(nz, plan->rows[i].name, &boot, &rep, NULL);
		if (!isnan(rep)) {
			rows_s += rep * plan->rows[i].reps;
			n_measured++;
		}
	}
	if (n_measured && n_measured == plan->n_rows) {
		printf("  plus the rows' own time, about ");
		print_duration(n * (unsigned long)lround(rows_s));
		printf(" as their reps took in %s, at most ", nz->what);
		print_duration(n * row_bound);
		printf(" by their timeouts\n");
		return;
	}
	printf("  plus the rows' own time, at most ");
	print_duration(n * row_bound);
	printf(" by their timeouts");
	if (n_measured)
		printf(" (%zu of %zu rows measured in %s)", n_measured, plan->n_rows, nz->what);
	printf("\n");
}

/* The plan in file and, for a fleet plan, its machines; a problem said, nothing kept. */
static int load_plan(const char *file, struct plan *plan, struct fleet *fleet)
{
	struct parse_error err = PARSE_ERROR_INIT;

	if (plan_load(file, plan, &err) < 0) {
		char *msg = parse_error_format(&err);

		log_error("%s", msg);
		free(msg);
		parse_error_release(&err);
		return -EINVAL;
	}
	parse_error_release(&err);
	if (plan_is_fleet(plan) && fleet_from_plan(plan, fleet, &err) < 0) {
		char *msg = parse_error_format(&err);

		log_error("%s", msg);
		free(msg);
		parse_error_release(&err);
		plan_release(plan);
		return -EINVAL;
	}
	parse_error_release(&err);
	return 0;
}

static int cmd_plan(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "effect", required_argument, NULL, 'e' },
		{ "from", required_argument, NULL, 'f' },
		{ "history", required_argument, NULL, 'H' },
		{ "touch", no_argument, NULL, 'T' },
		TARGET_LONGOPT_TARGET,
		TARGET_LONGOPT_ROOT,
		TARGET_LONGOPT_CONNECT_TIMEOUT,
		{ NULL, 0, NULL, 0 },
	};
	struct plan plan;
	struct fleet fleet = { 0 };
	struct plan_boot *boots;
	struct noise nz = { .history = HISTORY_INIT };
	unsigned long row_bound = 0;
	size_t n, n_checks = 0;
	const char *from = NULL, *history = NULL, *file;
	struct target_args to = TARGET_ARGS_INIT("plan", NULL);
	bool touch = false;
	double effect = NAN;
	int opt, ret = EXIT_USAGE;

	optind = 1;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":", longopts, NULL)) != -1) {
		int t = target_args_take(&to, opt, optarg);

		if (t < 0)
			return EXIT_USAGE;
		if (t > 0)
			continue;
		switch (opt) {
		case 'e':
			if (parse_effect(optarg, &effect) < 0) {
				command_usage_error("plan", "--effect: '%s' is not a percentage above 0", optarg);
				return EXIT_USAGE;
			}
			break;
		case 'f':
			from = optarg;
			break;
		case 'H':
			history = optarg;
			break;
		case 'T':
			touch = true;
			break;
		default:
			return command_option_error("plan", opt, argv);
		}
	}
	if (from && history)
		return command_usage_error("plan", "--from and --history are two sources of the same numbers: give one");
	if (history && isnan(effect))
		return command_usage_error("plan", "--history needs --effect");
	if (argc - optind != 1)
		return command_usage_error("plan", optind == argc ? "no plan file given" : "one plan file only");
	if ((touch && to.spec) || ((to.root || to.connect_timeout_s) && !to.spec)) {
		command_usage_error("plan", "%s", touch ? "--touch reads the plan's target, --target another: give one"
							: "--root and --connect-timeout need --target");
		return EXIT_USAGE;
	}
	if (!isnan(effect) && !from && !history) {
		command_usage_error("plan", "--effect needs the noise it is judged against: --from CAMPAIGN_DIR or --history FILE");
		return EXIT_USAGE;
	}
	file = argv[optind];
	if (load_plan(file, &plan, &fleet) < 0)
		return EXIT_USAGE;

	for (size_t i = 0; i < plan.n_rows; i++) {
		n_checks += plan.rows[i].check;
		row_bound += (unsigned long)plan.rows[i].timeout_s * plan.rows[i].reps;
	}
	if (from || history) {
		nz.what = from ? from : history;
		if ((from ? noise_from_campaign(from, &nz) : noise_from_history(history, &nz)) < 0)
			goto out;
	}
	print_plan_header(file, &plan, &fleet, n_checks);
	n = plan_boots(&plan, &boots);
	print_boot_order(&plan, boots, n);
	print_factors(&plan);
	if (plan.rounds_auto)
		print_rounds_auto(&plan, n);
	print_every_boot(&plan);
	warn_design(&plan, history != NULL);
	print_estimate(&plan, n, row_bound, &nz);
	plan_boots_free(boots, n);
	if (!isnan(effect))
		print_effect(&plan, effect, &nz);
	if (touch && !plan.target) {
		log_error("%s: --touch: [campaign] target is not set", file);
		goto out;
	}
	if (touch || to.spec) {
		if (!to.spec)
			to.spec = plan.target;
		if (print_touch(&plan, &to) < 0)
			goto out;
	}
	ret = EXIT_OK;
out:
	if (nz.have_res)
		compare_result_release(&nz.res);
	for (size_t k = 0; k < nz.n_sides; k++)
		side_release(&nz.sides[k]);
	free(nz.sides);
	history_release(&nz.history);
	fleet_release(&fleet);
	plan_release(&plan);
	return ret;
}

const struct command cmd_plan_entry = {
	.name = "plan",
	.run = cmd_plan,
	.summary = "check a campaign plan and print what it will do",
	.usage = cmd_plan_usage,
};
