#include "results/side-write.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "lib/alloc.h"
#include "lib/file.h"
#include "lib/parse-number.h"
#include "lib/strbuf.h"
#include "parsers/parser.h"
#include "parsers/perf-stat.h"
#include "results/run-records.h"
#include "results/side.h"

/* A row's counters over its reps: what each event gave (docs/results-format.md, "Counters"). */
struct counter_note {
	char *event;
	char *unit;
	size_t counted, not_counted, not_supported;
	double running_min;     /* the lowest pcnt-running of a rep that counted */
	bool user_only;         /* perf fell back to user space ("cycles:u") */
};

struct counter_notes {
	struct counter_note *v;
	size_t n, alloc;
	size_t reps_without;    /* reps of the row that left no perf output */
	bool no_perf;           /* the box has no perf */
	bool no_rapl;           /* energy = on, and the box has no RAPL zone */
};

static void counter_notes_release(struct counter_notes *notes)
{
	for (size_t i = 0; i < notes->n; i++) {
		free(notes->v[i].event);
		free(notes->v[i].unit);
	}
	free(notes->v);
}

static struct counter_note *counter_note_of(struct counter_notes *notes, const char *event, const char *unit)
{
	struct counter_note *c;

	for (size_t i = 0; i < notes->n; i++)
		if (!strcmp(notes->v[i].event, event))
			return &notes->v[i];
	GROW(notes->v, notes->alloc, notes->n + 1);
	c = &notes->v[notes->n++];
	memset(c, 0, sizeof(*c));
	c->event = xstrdup(event);
	c->unit = xstrdup(unit);
	c->running_min = 100;
	return c;
}

static int write_text(const char *dir, const char *name, const char *data, size_t len)
{
	char *path = path_join(dir, name);
	int r = file_write_atomic(path, data, len, 0644);

	free(path);
	return r;
}

/* Keeps the first failure: a side with a missing file must not get its meta.json. */
static void keep_error(int *first, int r)
{
	if (r < 0 && *first == 0)
		*first = r;
}

/* The results file's records for row: its reps (copies), its idle gate, whether the gate skipped it. */
static size_t row_reps(const struct run_records *recs, const char *row, struct rep_record **ret,
		       char *gate, size_t gate_size, long *gate_s, bool *skipped)
{
	struct rep_record *reps = NULL;
	size_t n = 0, alloc = 0;

	*skipped = strlist_find(&recs->skipped, row) >= 0;
	*gate_s = -1;
	snprintf(gate, gate_size, "%s", "");
	for (size_t i = 0; i < recs->n_reps; i++)
		if (!strcmp(recs->reps[i].row, row)) {
			GROW(reps, alloc, n + 1);
			reps[n++] = recs->reps[i];
		}
	for (size_t i = 0; i < recs->n_gates; i++)
		if (!strcmp(recs->gates[i].row, row)) {
			snprintf(gate, gate_size, "%s", recs->gates[i].state);
			*gate_s = recs->gates[i].seconds;
		}
	*ret = reps;
	return n;
}

static json_t *json_string_n(const char *s, size_t n)
{
	json_t *j = json_stringn(s, n);

	/* Target output that is not UTF-8 is kept in the raw files, not here. */
	return j ? j : json_null();
}

static void metric_better_override(struct metric_set *set, const struct side_row *row)
{
	if (!row->has_better)
		return;
	for (size_t i = 0; i < set->n_metrics; i++)
		if (!set->metrics[i].counter)
			set->metrics[i].better = row->better_lower ? BETTER_LOWER : BETTER_HIGHER;
}

/* A KTAP row's checks: counts by outcome and the failed checks' names. */
static json_t *checks_json(const struct metric_set *set)
{
	json_t *j = json_object(), *failed = json_array();

	for (size_t o = 0; o < CHECK_OUTCOMES; o++)
		json_object_set_new(j, check_outcome_name((enum check_outcome)o), json_integer((json_int_t)set->checks[o]));
	for (size_t i = 0; i < set->n_failed; i++)
		json_array_append_new(failed, json_string_n(set->failed[i], strlen(set->failed[i])));
	json_object_set_new(j, "failures", failed);
	return j;
}

static json_t *metrics_json(const struct metric_set *set)
{
	json_t *arr = json_array();

	for (size_t i = 0; i < set->n_metrics; i++) {
		const struct metric *m = &set->metrics[i];
		json_t *samples = json_array();

		for (size_t k = 0; k < m->n_samples; k++)
			json_array_append_new(samples, json_real(m->samples[k]));
		json_t *jm = json_pack("{s:s, s:s, s:s, s:o}", "name", m->name, "better",
				       m->better == BETTER_LOWER ? "lower" : "higher", "unit", m->unit, "samples", samples);

		if (m->counter)
			json_object_set_new(jm, "counter", json_string(m->counter));
		json_array_append_new(arr, jm);
	}
	return arr;
}

/* What row is: its kind, parser, statistics, pattern. */
static void row_describe(json_t *jr, const struct side_row *row)
{
	json_object_set_new(jr, "name", json_string(row->name));
	json_object_set_new(jr, "kind", json_string(row->check ? "check" : "bench"));
	if (!row->check) {
		json_object_set_new(jr, "parser", json_string(parser_kind_name(row->parser)));
		if (row->selector)
			json_object_set_new(jr, "selector", json_string(row->selector));
		json_object_set_new(jr, "stat", json_string(stat_kind_name(row->stat)));
		if (row->n_stats > 1) {
			json_t *stats = json_array();

			for (size_t k = 0; k < row->n_stats; k++)
				json_array_append_new(stats, json_string(stat_kind_name(row->stats[k])));
			json_object_set_new(jr, "stats", stats);
		}
		if (row->pattern) {
			json_object_set_new(jr, "pattern", json_string(row->pattern));
			json_object_set_new(jr, "metric", json_string(row->metric));
		}
		json_object_set_new(jr, "by_run", json_boolean(row->by_run));
	}
}

/* Rep rep's output (file name, in the side) through the row's parser into set; a problem is said in jrep. */
static void rep_parse(const struct side_record *rec, const struct side_row *row, const struct rep_record *rep,
		      const struct fetched_file *out, const char *name, struct metric_set *set, json_t *jrep,
		      struct strlist *warnings)
{
	struct parse_error perr = PARSE_ERROR_INIT, pwarn = PARSE_ERROR_INIT;
	struct parser_regex regex = { row->metric, row->pattern, row->unit,
				      row->better_lower ? BETTER_LOWER : BETTER_HIGHER };
	int r = row->parser == PARSER_REGEX
		? parser_parse_regex(&regex, out->data, out->len, set, &perr, &pwarn)
		: parser_parse(row->parser, row->selector, out->data, out->len, set, &perr, &pwarn);

	if (r < 0) {
		char *msg;

		parse_error_set_file(&perr, name);
		msg = parse_error_format(&perr);
		strlist_addf(warnings, "%s: row %s rep %u: %s (raw output kept)", rec->label,
			     row->name, rep->rep, msg);
		json_object_set_new(jrep, "parse_error", json_string(msg));
		free(msg);
	} else if (pwarn.message) {
		char *msg;

		parse_error_set_file(&pwarn, name);
		msg = parse_error_format(&pwarn);
		json_object_set_new(jrep, "parse_warning", json_string(msg));
		free(msg);
	}
	parse_error_release(&perr);
	parse_error_release(&pwarn);
}

/*
 * A rep's counters (ROW.REP.perf, kept as rows/ROW/rep-N.perf): each event
 * counted becomes a sample of the metric of its name, marked a counter;
 * one perf could not count is stated in jrep and notes, never a zero.
 */
static void rep_counters(const char *dir, const struct side_record *rec, const struct side_row *row,
			 const char *rel, const struct rep_record *rep, struct metric_set *set, json_t *jrep,
			 struct counter_notes *notes, struct strlist *warnings, int *write_error)
{
	const char *asked = row->perf;
	char *perf_name = xasprintf("%s.%u.perf", row->name, rep->rep), *kept = xasprintf("%s/rep-%u.perf", rel, rep->rep);
	const struct fetched_file *perf = fetch_find(rec->fetch, perf_name);
	struct perf_stat stat = PERF_STAT_INIT;
	struct parse_error perr = PARSE_ERROR_INIT;
	json_t *jc;

	if (!perf) {
		notes->reps_without++;
		notes->no_perf |= rep->no_perf;
		json_object_set_new(jrep, "counters_problem",
				    json_string(rep->no_perf ? "perf is not installed on the box" : "perf wrote no output"));
		goto out;
	}
	keep_error(write_error, write_text(dir, kept, perf->data, perf->len));
	json_object_set_new(jrep, "perf", json_string(kept));
	if (perf_stat_parse(perf->data, perf->len, &stat, &perr) < 0) {
		char *msg;

		parse_error_set_file(&perr, kept);
		msg = parse_error_format(&perr);
		strlist_addf(warnings, "%s: row %s rep %u: %s (raw output kept)", rec->label, row->name, rep->rep, msg);
		json_object_set_new(jrep, "counters_problem", json_string(msg));
		notes->reps_without++;
		free(msg);
		goto out;
	}
	jc = json_array();
	for (size_t i = 0; i < stat.n_counters; i++) {
		const struct perf_counter *pc = &stat.counters[i];
		struct counter_note *note = counter_note_of(notes, pc->event, pc->unit);
		json_t *j = json_pack("{s:s}", "event", pc->event);

		if (pc->state == PERF_COUNTED) {
			/* Only a rep whose command ran to its end measured what the row did. */
			if (rep->rc == 0)
				metric_set_add_sample(set, pc->event, BETTER_LOWER, pc->unit, pc->value)->counter = "perf";
			note->counted++;
			if (pc->running_pct < note->running_min)
				note->running_min = pc->running_pct;
			json_object_set_new(j, "value", json_real(pc->value));
			json_object_set_new(j, "unit", json_string(pc->unit));
			json_object_set_new(j, "running_pct", json_real(pc->running_pct));
		} else {
			if (pc->state == PERF_NOT_COUNTED)
				note->not_counted++;
			else
				note->not_supported++;
			json_object_set_new(j, "state", json_string(perf_counter_state_name(pc->state)));
		}
		if (perf_event_user_only(pc->event, asked)) {
			note->user_only = true;
			json_object_set_new(j, "user_only", json_true());
		}
		json_array_append_new(jc, j);
	}
	json_object_set_new(jrep, "counters", jc);
out:
	perf_stat_release(&stat);
	parse_error_release(&perr);
	free(perf_name);
	free(kept);
}

/* The row's counters in meta.json ("counters") and one line of meta.txt. */
static void row_counters(json_t *jr, struct strbuf *txt, const struct side_row *row,
			 const struct counter_notes *notes)
{
	json_t *j = json_object(), *events = json_array();

	json_object_set_new(j, "events", json_string(row->perf));
	json_object_set_new(j, "scope", json_string(row->perf_system ? "system" : "command"));
	strbuf_addf(txt, "counters %s (%s):", row->name, row->perf_system ? "system-wide" : "its command");
	if (notes->no_perf)
		strbuf_addstr(txt, " perf is not installed on the box;");
	for (size_t i = 0; i < notes->n; i++) {
		const struct counter_note *c = &notes->v[i];
		json_t *e = json_pack("{s:s, s:I, s:I, s:I}", "event", c->event, "reps_counted", (json_int_t)c->counted,
				      "reps_not_counted", (json_int_t)c->not_counted,
				      "reps_not_supported", (json_int_t)c->not_supported);

		strbuf_addf(txt, "%s %s", i ? "," : "", c->event);
		if (c->counted) {
			json_object_set_new(e, "running_pct_min", json_real(c->running_min));
			if (c->running_min < 100)
				strbuf_addf(txt, " (counting %.0f %% of the run at least: multiplexed, scaled by perf)", c->running_min);
		}
		if (c->not_supported)
			strbuf_addf(txt, " not supported (%zu rep%s)", c->not_supported, c->not_supported == 1 ? "" : "s");
		if (c->not_counted)
			strbuf_addf(txt, " not counted (%zu rep%s)", c->not_counted, c->not_counted == 1 ? "" : "s");
		if (c->user_only) {
			json_object_set_new(e, "user_only", json_true());
			strbuf_addstr(txt, " user space only (perf_event_paranoid)");
		}
		json_array_append_new(events, e);
	}
	if (notes->reps_without)
		strbuf_addf(txt, "%s %zu rep%s without counters", notes->n ? ";" : "", notes->reps_without,
			    notes->reps_without == 1 ? "" : "s");
	strbuf_addch(txt, '\n');
	json_object_set_new(j, "per_event", events);
	json_object_set_new(jr, "counters", j);
}

/* "t/s" -> "t", "IOPS" -> "IO": the unit of work a rate counts; NULL when unit is no rate. */
static char *work_unit(const char *unit)
{
	size_t n = strlen(unit);

	if (!strcmp(unit, "IOPS") || !strcmp(unit, "iops"))
		return xstrdup("IO");
	if (n > 2 && !strcmp(unit + n - 2, "/s"))
		return xstrndup(unit, n - 2);
	return NULL;
}

/* A rate the rep measured: its metric's name and unit (borrowed) and the rep's value. */
struct rep_rate {
	const char *name, *unit;
	double value;
};

/*
 * A rep's energy (energy = on): per RAPL zone the joules the counter moved
 * across the rep (once wrapped: plus max_energy_range_uj) and the average
 * watts over the rep's length, samples of the metrics "NAME energy" (J)
 * and "NAME power" (W), marked as counters; and for each rate the rep
 * measured (t/s, IOPS), the energy per unit of work of the first zone (the
 * package): joules / (rate x the rep's length). rates[] are the row's
 * metrics that got one sample from this rep.
 */
static void rep_energy(const struct rep_record *rep, struct metric_set *set, const struct rep_rate *rates,
		       size_t n_rates, json_t *jrep, bool *ret_none)
{
	const struct energy_zone *zones = rep->zones;
	size_t n = rep->n_zones;
	double seconds = rep->hundredths > 0 ? rep->hundredths / 100.0 : (double)rep->seconds;
	json_t *jz = json_array();

	*ret_none |= rep->no_rapl;
	for (size_t i = 0; i < n; i++) {
		const struct energy_zone *z = &zones[i];
		long delta = z->after - z->before;
		json_t *j = json_pack("{s:s, s:s}", "zone", z->zone, "name", z->name);
		char *metric;

		if (z->before < 0 || z->after < 0) {
			json_object_set_new(j, "state", json_string("unreadable (needs root)"));
			json_array_append_new(jz, j);
			continue;
		}
		if (delta < 0 && z->max > 0) {
			delta += z->max;
			json_object_set_new(j, "wrapped", json_true());
		}
		json_object_set_new(j, "joules", json_real((double)delta / 1e6));
		if (rep->rc == 0 && delta >= 0) {
			metric = xasprintf("%s energy", z->name);
			metric_set_add_sample(set, metric, BETTER_LOWER, "J", (double)delta / 1e6)->counter = "rapl";
			free(metric);
			if (seconds > 0) {
				metric = xasprintf("%s power", z->name);
				metric_set_add_sample(set, metric, BETTER_LOWER, "W", (double)delta / 1e6 / seconds)->counter = "rapl";
				free(metric);
				json_object_set_new(j, "watts", json_real((double)delta / 1e6 / seconds));
			}
			for (size_t k = 0; i == 0 && k < n_rates && seconds > 0; k++) {
				char *unit = work_unit(rates[k].unit), *per_unit;
				double work = rates[k].value * seconds;

				if (!unit || !(work > 0)) {
					free(unit);
					continue;
				}
				metric = xasprintf("%s energy per %s of %s", z->name, unit, rates[k].name);
				per_unit = xasprintf("J/%s", unit);
				metric_set_add_sample(set, metric, BETTER_LOWER, per_unit, (double)delta / 1e6 / work)->counter = "rapl";
				free(metric);
				free(per_unit);
				free(unit);
			}
		}
		json_array_append_new(jz, j);
	}
	if (n)
		json_object_set_new(jrep, "energy", jz);
	else
		json_decref(jz);
}

/* A time of the results file into j; one without a UTC time is left out. */
static void time_set(json_t *j, const char *key, const char *time)
{
	if (*time)
		json_object_set_new(j, key, json_string(time));
}

/* One rep of row: its output kept in the side (rows/ROW/rep-N.out, .err), its record, its metrics into set. */
static json_t *rep_json(const char *dir, const struct side_record *rec, const struct side_row *row, const char *rel,
			const struct rep_record *rep, struct metric_set *set, struct counter_notes *notes,
			struct strlist *warnings, int *write_error)
{
	char name[300], err_path[300], *out_name = xasprintf("%s.%u.out", row->name, rep->rep);
	char *err_name = xasprintf("%s.%u.err", row->name, rep->rep);
	const struct fetched_file *out = fetch_find(rec->fetch, out_name);
	const struct fetched_file *err = fetch_find(rec->fetch, err_name);
	bool timed_out = (rep->rc == 124 || rep->rc == 143 || rep->rc == 137) &&
			 rep->seconds >= (long)row->timeout_s;
	json_t *jrep = json_object();

	snprintf(name, sizeof(name), "%s/rep-%u.out", rel, rep->rep);
	if (out)
		keep_error(write_error, write_text(dir, name, out->data, out->len));
	json_object_set_new(jrep, "rep", json_integer(rep->rep));
	json_object_set_new(jrep, "rc", json_integer(rep->rc));
	time_set(jrep, "start", rep->start);
	time_set(jrep, "end", rep->end);
	json_object_set_new(jrep, "seconds", json_integer(rep->seconds));
	json_object_set_new(jrep, "out", json_string(name));
	if (timed_out)
		json_object_set_new(jrep, "timed_out", json_true());
	if (err) {
		snprintf(err_path, sizeof(err_path), "%s/rep-%u.err", rel, rep->rep);
		keep_error(write_error, write_text(dir, err_path, err->data, err->len));
		json_object_set_new(jrep, "err", json_string(err_path));
	}
	if (rep->rc != 0)
		strlist_addf(warnings, "%s: %s %s rep %u %s (rc=%d)", rec->label,
			     row->check ? "check" : "row", row->name, rep->rep,
			     timed_out ? "timed out" : "failed", rep->rc);
	size_t before_n = set->n_metrics, *before = xcalloc(before_n + 1, sizeof(*before));

	for (size_t i = 0; i < before_n; i++)
		before[i] = set->metrics[i].n_samples;
	/* A test suite exits non-zero when a test fails: its output says which. */
	if (!row->check && out && (rep->rc == 0 || row->parser == PARSER_KTAP))
		rep_parse(rec, row, rep, out, name, set, jrep, warnings);
	if (row->energy) {
		/* The rates this rep measured: one sample each from its output. */
		struct rep_rate *rates = xcalloc(set->n_metrics + 1, sizeof(*rates));
		size_t n_rates = 0;

		for (size_t i = 0; i < set->n_metrics; i++) {
			const struct metric *m = &set->metrics[i];

			if (!m->counter && m->n_samples == (i < before_n ? before[i] : 0) + 1)
				rates[n_rates++] = (struct rep_rate){ m->name, m->unit, m->samples[m->n_samples - 1] };
		}
		rep_energy(rep, set, rates, n_rates, jrep, &notes->no_rapl);
		free(rates);
	}
	free(before);
	if (row->perf)
		rep_counters(dir, rec, row, rel, rep, set, jrep, notes, warnings, write_error);
	free(out_name);
	free(err_name);
	return jrep;
}

static json_t *row_json(const char *dir, const struct side_record *rec, const struct run_records *recs,
			const struct side_row *row, struct strbuf *txt, struct strlist *warnings, int *write_error)
{
	struct metric_set set = METRIC_SET_INIT;
	struct counter_notes notes = { 0 };
	struct rep_record *reps;
	json_t *jr = json_object(), *jreps = json_array(), *problems = json_array();
	char gate[40], *rowdir, *rel;
	long gate_s;
	bool skipped;
	size_t n = row_reps(recs, row->name, &reps, gate, sizeof(gate), &gate_s, &skipped);
	int rc = 0;

	rel = xasprintf("rows/%s", row->name);
	rowdir = path_join(dir, rel);
	keep_error(write_error, dir_create_all(rowdir, 0755));
	row_describe(jr, row);
	json_object_set_new(jr, "reps_planned", json_integer(row->reps));
	if (gate_s >= 0) {
		json_object_set_new(jr, "idle_gate", json_string(gate));
		json_object_set_new(jr, "idle_wait_s", json_integer(gate_s));
	}
	if (skipped) {
		strlist_addf(warnings, "%s: row %s skipped: the idle gate timed out", rec->label, row->name);
		json_array_append_new(problems, json_string("skipped: the idle gate timed out"));
	}
	for (size_t i = 0; i < n; i++) {
		if (reps[i].rc != 0)
			rc = reps[i].rc;
		json_array_append_new(jreps, rep_json(dir, rec, row, rel, &reps[i], &set, &notes, warnings, write_error));
	}
	if (n == 0 && !skipped) {
		strlist_addf(warnings, "%s: row %s has no recorded rep", rec->label, row->name);
		json_array_append_new(problems, json_string("no rep was recorded"));
	}
	/* A one-number output's metric is the row itself. */
	metric_better_override(&set, row);
	if (n) {
		json_object_set_new(jr, "rc", json_integer(rc));
		time_set(jr, "start", reps[0].start);
		time_set(jr, "end", reps[n - 1].end);
	}
	if (!row->check)
		json_object_set_new(jr, "metrics", metrics_json(&set));
	if (set.has_checks)
		json_object_set_new(jr, "checks", checks_json(&set));
	if (row->perf && n)
		row_counters(jr, txt, row, &notes);
	json_object_set_new(jr, "reps", jreps);
	if (json_array_size(problems))
		json_object_set_new(jr, "problems", problems);
	else
		json_decref(problems);
	if (n)
		strbuf_addf(txt, "%s rc=%d%s%s\n", row->name, rc, *reps[n - 1].end ? " " : "", reps[n - 1].end);
	else
		strbuf_addf(txt, "%s %s\n", row->name, skipped ? "skipped (idle gate timed out)" : "not run");
	metric_set_release(&set);
	counter_notes_release(&notes);
	free(reps);
	free(rowdir);
	free(rel);
	return jr;
}

/* The boot's own facts in meta.json: the format, the campaign, which boot, how it came up and was checked. */
static void meta_boot(json_t *meta, const struct side_record *rec)
{
	json_object_set_new(meta, "format", json_string("bootab-results"));
	json_object_set_new(meta, "format_version", json_integer(1));
	json_object_set_new(meta, "campaign", json_string(rec->campaign));
	json_object_set_new(meta, "label", json_string(rec->label));
	json_object_set_new(meta, "mode", json_string(rec->mode));
	json_object_set_new(meta, "boot_index", json_integer((json_int_t)rec->boot_index + 1));
	json_object_set_new(meta, "boots", json_integer((json_int_t)rec->n_boots));
	json_object_set_new(meta, "round", json_integer(rec->round));
	if (rec->boot_id_before)
		json_object_set_new(meta, "boot_id_before", json_string(rec->boot_id_before));
	if (rec->reboot_s >= 0)
		json_object_set_new(meta, "reboot_s", json_real(round(rec->reboot_s * 10) / 10));
	if (rec->boot_method)
		json_object_set_new(meta, "boot_method", json_string(rec->boot_method));
	json_object_set_new(meta, "verify", json_string(rec->verify_summary ? rec->verify_summary : "not run"));
	if (rec->proof)
		json_object_set_new(meta, "proof", json_deep_copy(rec->proof));
}

/* The same for meta.txt, after the snapshot's lines. */
static void meta_txt_boot(struct strbuf *txt, const struct side_record *rec)
{
	strbuf_addf(txt, "mode %s (boot %zu of %zu, %s)\nverify %s\n", rec->mode, rec->boot_index + 1,
		    rec->n_boots, rec->label, rec->verify_summary ? rec->verify_summary : "not run");
	if (rec->proof) {
		const json_t *level = json_object_get(rec->proof, "level"), *arg;
		size_t i;

		strbuf_addf(txt, "proof %s", json_is_string(level) ? json_string_value(level) : "(nothing asked)");
		json_array_foreach(json_object_get(rec->proof, "args"), i, arg)
			strbuf_addf(txt, "%s%s %s", i ? ", " : " (", json_string_value(json_object_get(arg, "arg")),
				    json_string_value(json_object_get(arg, "level")));
		strbuf_addstr(txt, json_array_size(json_object_get(rec->proof, "args")) ? ")\n" : "\n");
	}
	if (rec->boot_method && !strcmp(rec->boot_method, "kexec"))
		strbuf_addstr(txt, "boot kexec: no firmware reset; devices and the IOMMU may keep state the previous kernel left\n");
}

/*
 * The boot's [prepare] as campaign_prepare() kept it in the side's
 * prepare.json: each command, its exit code and output, into meta.json
 * ("prepare") and one meta.txt line each.
 */
static void meta_prepare(json_t *meta, struct strbuf *txt, const char *dir)
{
	char *path = path_join(dir, "prepare.json");
	json_t *all = json_load_file(path, JSON_REJECT_DUPLICATES, NULL), *one;
	size_t i;

	free(path);
	if (!json_is_array(all)) {
		json_decref(all);
		return;
	}
	json_array_foreach(all, i, one) {
		const char *command = json_string_value(json_object_get(one, "command"));

		strbuf_addf(txt, "prepare %zu rc=%d: %.*s\n", i + 1, (int)json_integer_value(json_object_get(one, "rc")),
			    (int)strcspn(command ? command : "", "\n"), command ? command : "");
	}
	json_object_set_new(meta, "prepare", all);
}

/* Each version the plan asks for, as the boot recorded it (its first line), into versions and meta.txt. */
static void meta_versions(json_t *versions, struct strbuf *txt, const struct side_record *rec,
			  struct strlist *warnings)
{
	for (size_t i = 0; i < rec->plan->n_versions; i++) {
		const char *name = rec->plan->versions[i];
		char *fname = xasprintf("version.%s", name);
		const struct fetched_file *v = fetch_find(rec->fetch, fname);

		if (v) {
			size_t n = strcspn(v->data, "\n");

			json_object_set_new(versions, name, json_string_n(v->data, n));
			strbuf_addf(txt, "version %s %.*s\n", name, (int)n, v->data);
		} else {
			strlist_addf(warnings, "%s: version %s was not recorded", rec->label, name);
		}
		free(fname);
	}
}

/*
 * energy = on where the box has no RAPL zone, or one whose energy_uj
 * bootab could not read: said once for the side (meta.json "energy",
 * meta.txt, a warning), never a zero.
 */
static void side_energy_note(json_t *meta, struct strbuf *txt, const struct side_record *rec,
			     const struct run_records *recs, struct strlist *warnings)
{
	const char *why = NULL;

	for (size_t i = 0; i < recs->n_reps && !why; i++) {
		const struct rep_record *rep = &recs->reps[i];

		if (rep->no_rapl)
			why = "no RAPL on this box";
		for (size_t k = 0; k < rep->n_zones && !why; k++)
			if (rep->zones[k].before < 0 || rep->zones[k].after < 0)
				why = "RAPL unreadable (energy_uj needs root: run as root or give sudo -n)";
	}
	if (!why)
		return;
	json_object_set_new(meta, "energy", json_string(why));
	strbuf_addf(txt, "energy: %s\n", why);
	strlist_addf(warnings, "%s: energy: %s", rec->label, why);
}

/* What the side keeps besides meta.json: the scripts as they ran, their results, snapshot.out, kernel-config. */
static void write_side_sources(const char *dir, const struct side_record *rec, const struct fetched_file *script,
			       const struct fetched_file *results, int *write_error)
{
	char *path;

	path = path_join(dir, "scripts");
	keep_error(write_error, dir_create_all(path, 0755));
	free(path);
	if (script)
		keep_error(write_error, write_text(dir, "scripts/run.sh", script->data, script->len));
	if (results)
		keep_error(write_error, write_text(dir, "scripts/results", results->data, results->len));
	/* The source of meta.json's boot facts: inventory, kernel-log lines, units. */
	if (rec->snapshot->raw)
		keep_error(write_error, write_text(dir, "snapshot.out", rec->snapshot->raw,
						    strlen(rec->snapshot->raw)));
	if (rec->snapshot->config.n) {
		/* The options the boot's kernel config sets, for the report's config differences. */
		struct strbuf kc = STRBUF_INIT;

		for (size_t i = 0; i < rec->snapshot->config.n; i++)
			strbuf_addf(&kc, "%s=%s\n", rec->snapshot->config.v[i].name, rec->snapshot->config.v[i].value);
		keep_error(write_error, write_text(dir, "kernel-config", kc.buf, kc.len));
		strbuf_release(&kc);
	}
}

int side_write(const char *dir, const struct side_record *rec, struct strlist *warnings)
{
	const struct snapshot_context ctx = { .time = rec->snapshot_time, .target = rec->target };
	const struct fetched_file *results = fetch_find(rec->fetch, "results");
	const struct fetched_file *script = fetch_find(rec->fetch, "run.sh");
	struct strbuf txt = STRBUF_INIT;
	struct run_records recs;
	json_t *meta, *rows = json_array(), *versions = json_object();
	char *text;
	int r, write_error = 0;

	if (side_recorded(dir)) {
		json_decref(rows);
		json_decref(versions);
		return -EEXIST;
	}
	r = dir_create_all(dir, 0755);
	if (r < 0) {
		json_decref(rows);
		json_decref(versions);
		return r;
	}

	meta = snapshot_to_json(rec->snapshot, &ctx);
	meta_boot(meta, rec);

	text = snapshot_to_text(rec->snapshot, &ctx);
	strbuf_addstr(&txt, text);
	free(text);
	meta_txt_boot(&txt, rec);

	meta_prepare(meta, &txt, dir);
	meta_versions(versions, &txt, rec, warnings);
	json_object_set_new(meta, "versions", versions);
	run_records_parse(results ? results->data : NULL, &recs);
	if (recs.start) {
		json_object_set_new(meta, "rows_start", json_string_n(recs.start, strlen(recs.start)));
		strbuf_addf(&txt, "start %s\n", recs.start);
	}
	for (size_t i = 0; i < rec->plan->n_rows; i++)
		json_array_append_new(rows, row_json(dir, rec, &recs, &rec->plan->rows[i], &txt, warnings, &write_error));
	json_object_set_new(meta, "rows", rows);
	side_energy_note(meta, &txt, rec, &recs, warnings);
	if (*recs.end) {
		json_object_set_new(meta, "rows_end", json_string_n(recs.end, strlen(recs.end)));
		strbuf_addf(&txt, "end %s\n", recs.end);
	} else if (!recs.has_end) {
		strlist_addf(warnings, "%s: the per-boot script did not record its end", rec->label);
	}
	if (recs.untimed)
		strlist_addf(warnings, "%s: %zu times in the results file come without the box's clock record: left out",
			     rec->label, recs.untimed);
	run_records_release(&recs);

	write_side_sources(dir, rec, script, results, &write_error);
	r = write_error;
	/* iommu.txt, meta.txt, then meta.json: its presence says the side is complete. */
	if (r == 0) {
		char *failed = NULL;

		r = side_write_meta(dir, meta, strbuf_str(&txt), &rec->snapshot->iommu, &failed);
		free(failed);
	}
	json_decref(meta);
	strbuf_release(&txt);
	return r;
}
