/*
 * bench/method/fleet: how often the verdicts pooled over machines are wrong.
 *
 * Simulates fleets whose truth is known: k machines, each with its own
 * campaign in bootab's default order with `rounds = b` (A B A B ... A, as
 * bench/method does), its own baseline, its own boot and rep noise and its
 * own true effect. Every machine's campaign goes through compare_sides(),
 * the fleet through fleet_judge(): the code `bootab report --fleet` reports
 * from. Per cell it prints, for
 *   pooled         the pooled CI excludes 0 (claim rate; CI coverage of the
 *                  machines' mean true effect)
 *   heterogeneity  the heterogeneity test says the effect differs between
 *                  machines (p < FLEET_HETEROGENEITY_ALPHA)
 *   any            the fleet verdict claims something (counts or differs)
 * the claim rate and its Monte-Carlo standard error, as CSV.
 *
 *   usage: fleet [--quick] [--draws N] [--cell K,B,NOISE,EFFECT,DELTA]
 * NOISE: equal (sigma_b 1 %, sigma_w 1 % on every machine) or mixed (machine
 * i: sigma_b 0.5/1/2/4 %, sigma_w 0.5/2/1 %, by i mod 4 and i mod 3);
 * EFFECT: equal (delta on every machine), spread (delta + N(0, 2 %) per
 * machine, drawn again for every fleet) or split (8 % on the first third of
 * the machines, 0 on the rest; DELTA ignored). docs/fleet.md has the table.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "judge/compare.h"
#include "judge/fleet.h"
#include "lib/alloc.h"
#include "results/side.h"
#include "stats/stats.h"

#define METRICS_PER_CALL 16
#define REPS 5
#define TAU 2.0                 /* % : the spread of the effect in "spread" cells */
#define SPLIT_EFFECT 8.0        /* % : the effect on a third of the machines in "split" cells */

enum noise { N_EQUAL, N_MIXED };
enum effect { E_EQUAL, E_SPREAD, E_SPLIT };
static const char *const noise_names[] = { "equal", "mixed" };
static const char *const effect_names[] = { "equal", "spread", "split" };

struct cell {
	unsigned k, boots;
	enum noise noise;
	enum effect effect;
	double delta;           /* % */
};

enum method { M_POOLED, M_HET, M_ANY, N_METHODS };
static const char *const method_names[N_METHODS] = { "pooled", "heterogeneity", "any" };

struct tally {
	unsigned long draws, claims, ci_n, covered;
};

struct machine {
	double mu, sb, sw;      /* baseline (log), noise (log units) */
	struct side *sides;
	size_t n_sides;
};

static void machine_init(struct machine *m, const struct cell *c, unsigned i)
{
	static const double sbs[] = { 0.5, 1, 2, 4 }, sws[] = { 0.5, 2, 1 };
	char name[32];

	m->mu = log(50.0 + 30.0 * i);
	m->sb = (c->noise == N_EQUAL ? 1 : sbs[i % 4]) / 100;
	m->sw = (c->noise == N_EQUAL ? 1 : sws[i % 3]) / 100;
	m->n_sides = 2 * c->boots + 1;
	m->sides = xcalloc(m->n_sides, sizeof(*m->sides));
	for (size_t s = 0; s < m->n_sides; s++) {
		struct side *sd = &m->sides[s];
		size_t nth = s / 2 + 1;

		sd->mode = xstrdup(s % 2 ? "b" : "a");
		sd->label = nth == 1 ? xstrdup(sd->mode) : xasprintf("%s%zu", sd->mode, nth);
		sd->dir = xstrdup(sd->label);
		sd->boot_id = xasprintf("%u-%zx", i, s);
		for (unsigned r = 0; r < METRICS_PER_CALL; r++) {
			struct row *row;

			GROW(sd->rows, sd->alloc_rows, sd->n_rows + 1);
			row = &sd->rows[sd->n_rows++];
			memset(row, 0, sizeof(*row));
			snprintf(name, sizeof(name), "m%u", r);
			row->name = xstrdup(name);
			row->source = xstrdup(name);
			for (unsigned x = 0; x < REPS; x++)
				metric_set_add_sample(&row->metrics, "x", BETTER_HIGHER, "", 1);
		}
	}
}

static void machine_release(struct machine *m)
{
	for (size_t s = 0; s < m->n_sides; s++)
		side_release(&m->sides[s]);
	free(m->sides);
}

/* One draw of every machine: METRICS_PER_CALL independent fleets. */
static void fleet_draw(const struct cell *c, struct machine *ms, gsl_rng *rng, struct tally *t)
{
	struct compare_options o = { .stat = STAT_MEAN, .loud_pct = COMPARE_LOUD_PCT_DEFAULT };
	struct compare_result *res = xcalloc(c->k, sizeof(*res));
	const struct compare_result **rp = xcalloc(c->k, sizeof(*rp));
	const char **names = xcalloc(c->k, sizeof(*names));
	double truth[METRICS_PER_CALL] = { 0 };
	struct strlist w = STRLIST_INIT;
	struct fleet_result f;

	for (unsigned i = 0; i < c->k; i++) {
		struct machine *m = &ms[i];

		for (unsigned r = 0; r < METRICS_PER_CALL; r++) {
			double eff;

			if (c->effect == E_SPLIT)
				eff = i < c->k / 3 ? log1p(SPLIT_EFFECT / 100) : 0;
			else if (c->effect == E_SPREAD)
				eff = log1p(c->delta / 100) + gsl_ran_gaussian_ziggurat(rng, TAU / 100);
			else
				eff = log1p(c->delta / 100);
			/* Spread cells: the truth is the law's mean; split: these machines' mean. */
			truth[r] += (c->effect == E_SPREAD ? log1p(c->delta / 100) : eff) / c->k;
			for (size_t s = 0; s < m->n_sides; s++) {
				double *x = m->sides[s].rows[r].metrics.metrics[0].samples;
				double u = gsl_ran_gaussian_ziggurat(rng, m->sb) + (s % 2 ? eff : 0);

				for (unsigned x_i = 0; x_i < REPS; x_i++)
					x[x_i] = exp(m->mu + u + gsl_ran_gaussian_ziggurat(rng, m->sw));
			}
		}
		if (compare_sides(m->sides, m->n_sides, &o, &res[i], &w) < 0) {
			fprintf(stderr, "fleet: compare_sides failed\n");
			exit(2);
		}
		rp[i] = &res[i];
		names[i] = "m";
	}
	if (fleet_judge(rp, names, NULL, c->k, COMPARE_ALPHA_DEFAULT, &f, &w) < 0) {
		fprintf(stderr, "fleet: fleet_judge failed\n");
		exit(2);
	}
	for (size_t r = 0; r < f.n_metrics; r++) {
		const struct fleet_metric *fm = &f.metrics[r];
		unsigned idx = (unsigned)atoi(fm->row + 1);
		bool pooled_claim = fm->pool_status == 0 && (fm->pool.test.lo > 0 || fm->pool.test.hi < 0);

		t[M_POOLED].draws++;
		t[M_POOLED].claims += pooled_claim;
		if (fm->pool_status == 0) {
			t[M_POOLED].ci_n++;
			t[M_POOLED].covered += fm->pool.test.lo <= truth[idx] && truth[idx] <= fm->pool.test.hi;
		}
		if (fm->pool.has_heterogeneity) {
			t[M_HET].draws++;
			t[M_HET].claims += fm->verdict == FLEET_DIFFERS;
		}
		t[M_ANY].draws++;
		t[M_ANY].claims += fm->verdict == FLEET_COUNTS || fm->verdict == FLEET_DIFFERS;
	}
	fleet_result_release(&f);
	for (unsigned i = 0; i < c->k; i++)
		compare_result_release(&res[i]);
	free(res);
	free(rp);
	free(names);
	strlist_release(&w);
}

static unsigned long cell_seed(const struct cell *c)
{
	unsigned long h = 1000003UL;

	h = h * 31 + c->k;
	h = h * 31 + c->boots;
	h = h * 31 + (unsigned long)c->noise;
	h = h * 31 + (unsigned long)c->effect;
	h = h * 31 + (unsigned long)llround(c->delta * 10);
	return h & 0xffffffffUL;
}

static void run_cell(const struct cell *c, unsigned long draws)
{
	struct machine *ms = xcalloc(c->k, sizeof(*ms));
	struct tally t[N_METHODS] = { 0 };
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);

	gsl_rng_set(rng, cell_seed(c));
	for (unsigned i = 0; i < c->k; i++)
		machine_init(&ms[i], c, i);
	for (unsigned long d = 0; d < draws; d += METRICS_PER_CALL)
		fleet_draw(c, ms, rng, t);
	for (int m = 0; m < N_METHODS; m++) {
		double rate;

		if (!t[m].draws)
			continue;
		rate = (double)t[m].claims / (double)t[m].draws;
		printf("%u,%u,%s,%s,%g,%s,%lu,%.4f,%.4f,", c->k, c->boots, noise_names[c->noise],
		       effect_names[c->effect], c->effect == E_SPLIT ? 0 : c->delta, method_names[m], t[m].draws, rate,
		       sqrt(rate * (1 - rate) / (double)t[m].draws));
		if (t[m].ci_n)
			printf("%.4f\n", (double)t[m].covered / (double)t[m].ci_n);
		else
			printf("\n");
	}
	fflush(stdout);
	for (unsigned i = 0; i < c->k; i++)
		machine_release(&ms[i]);
	free(ms);
	gsl_rng_free(rng);
}

int main(int argc, char **argv)
{
	static const unsigned grid_k[] = { 3, 4, 6, 12 }, grid_b[] = { 1, 2, 3, 4 };
	static const unsigned quick_k[] = { 4 }, quick_b[] = { 2 };
	const unsigned *ks = grid_k, *bs = grid_b;
	size_t nk = 4, nb = 4;
	unsigned long draws = 4096;
	struct cell one;
	bool have_one = false;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--quick")) {
			ks = quick_k;
			bs = quick_b;
			nk = nb = 1;
			draws = 1024;
		} else if (!strcmp(argv[i], "--draws") && i + 1 < argc) {
			char *end;

			draws = strtoul(argv[++i], &end, 10);
			if (*end || draws < METRICS_PER_CALL || draws > 10000000) {
				fprintf(stderr, "fleet: --draws: expected a count of at least %d\n", METRICS_PER_CALL);
				return 2;
			}
		} else if (!strcmp(argv[i], "--cell") && i + 1 < argc) {
			char noise[16], effect[16];

			if (sscanf(argv[++i], "%u,%u,%15[a-z],%15[a-z],%lf", &one.k, &one.boots, noise, effect,
				   &one.delta) != 5 || one.k < 2 || one.k > 200 || one.boots < 1 || one.boots > 50 ||
			    (strcmp(noise, "equal") && strcmp(noise, "mixed")) ||
			    (strcmp(effect, "equal") && strcmp(effect, "spread") && strcmp(effect, "split")) ||
			    !(one.delta >= 0 && one.delta < 100)) {
				fprintf(stderr, "fleet: --cell: expected K,BOOTS,equal|mixed,equal|spread|split,DELTA\n");
				return 2;
			}
			one.noise = !strcmp(noise, "mixed") ? N_MIXED : N_EQUAL;
			one.effect = !strcmp(effect, "spread") ? E_SPREAD : !strcmp(effect, "split") ? E_SPLIT : E_EQUAL;
			have_one = true;
		} else {
			fprintf(stderr, "usage: fleet [--quick] [--draws N] [--cell K,BOOTS,NOISE,EFFECT,DELTA]\n");
			return 2;
		}
	}
	printf("machines,boots,noise,effect,delta_pct,method,draws,claim_rate,mc_se,ci_coverage\n");
	if (have_one) {
		run_cell(&one, draws);
		return 0;
	}
	for (size_t a = 0; a < nk; a++)
		for (size_t b = 0; b < nb; b++)
			for (int n = N_EQUAL; n <= N_MIXED; n++) {
				struct cell cells[] = {
					{ ks[a], bs[b], (enum noise)n, E_EQUAL, 0 },
					{ ks[a], bs[b], (enum noise)n, E_EQUAL, 3 },
					{ ks[a], bs[b], (enum noise)n, E_SPREAD, 3 },
					{ ks[a], bs[b], (enum noise)n, E_SPLIT, 0 },
				};

				for (size_t i = 0; i < sizeof(cells) / sizeof(cells[0]); i++)
					run_cell(&cells[i], draws);
			}
	return 0;
}
