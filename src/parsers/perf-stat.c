/*
 * perf stat -j: tools/perf/util/stat-display.c prints each event as one
 * JSON object on a line of its own, with "counter-value" (a number in a
 * string, or "<not counted>" / "<not supported>"), "unit", "event",
 * "event-runtime", "pcnt-running" (how much of the run the event held a
 * hardware counter: below 100 perf multiplexed it and scaled the count),
 * "metric-value" and "metric-unit" (perf's derived ratio), "variance" with
 * -r, and the aggregation's keys ("cpu", "core", "socket", "die", "node",
 * "thread", "aggregate-number", "interval", "cgroup") when asked for. With
 * -o FILE the file starts with "# started on DATE" and a blank line. The
 * keys are read by name, so their order does not matter.
 */
#include "parsers/perf-stat.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "lib/alloc.h"
#include "lib/parse-number.h"
#include "stats/metric.h"

const char *perf_counter_state_name(enum perf_counter_state state)
{
	switch (state) {
	case PERF_NOT_COUNTED:
		return "not counted";
	case PERF_NOT_SUPPORTED:
		return "not supported";
	case PERF_COUNTED:
		break;
	}
	return NULL;
}

bool perf_event_user_only(const char *event, const char *asked)
{
	size_t n = strlen(event);

	if (n < 3 || strcmp(event + n - 2, ":u"))
		return false;
	for (const char *p = asked; *p;) {
		size_t w = strcspn(p, ",");

		if (w == n && !strncmp(p, event, n))
			return false;
		p += w + (p[w] ? 1 : 0);
	}
	return true;
}

void perf_stat_release(struct perf_stat *stat)
{
	for (size_t i = 0; i < stat->n_counters; i++) {
		free(stat->counters[i].event);
		free(stat->counters[i].unit);
	}
	free(stat->counters);
	stat->counters = NULL;
	stat->n_counters = 0;
}

static struct perf_counter *find_counter(struct perf_stat *stat, const char *event)
{
	for (size_t i = 0; i < stat->n_counters; i++)
		if (!strcmp(stat->counters[i].event, event))
			return &stat->counters[i];
	return NULL;
}

/* "counter-value": the count, or the state perf printed instead of one. */
static int read_value(const json_t *jv, enum perf_counter_state *ret_state, double *ret_value, const char **ret_why)
{
	const char *text = json_string_value(jv);
	const char *end;
	double v;

	if (json_is_number(jv)) {
		v = json_number_value(jv);
	} else if (!text) {
		*ret_why = "\"counter-value\" is missing or neither a string nor a number";
		return -EINVAL;
	} else if (!strcmp(text, "<not counted>")) {
		*ret_state = PERF_NOT_COUNTED;
		return 0;
	} else if (!strcmp(text, "<not supported>")) {
		*ret_state = PERF_NOT_SUPPORTED;
		return 0;
	} else if (number_scan_double(text, 0, METRIC_SAMPLE_MAX, &v, &end) < 0 || *end) {
		*ret_why = "\"counter-value\" is not a count, <not counted> or <not supported>";
		return -EINVAL;
	}
	if (!metric_sample_valid(v) || v < 0) {
		*ret_why = "\"counter-value\" is negative or beyond what bootab computes with";
		return -EINVAL;
	}
	*ret_state = PERF_COUNTED;
	*ret_value = v;
	return 0;
}

/* One line's object into stat; 1 when it was an event, 0 when skipped. */
static int add_line(struct perf_stat *stat, const json_t *doc, const char **ret_why)
{
	const json_t *jevent = json_object_get(doc, "event"), *jrun = json_object_get(doc, "pcnt-running");
	const char *event = json_string_value(jevent), *unit = json_string_value(json_object_get(doc, "unit"));
	enum perf_counter_state state = PERF_COUNTED;
	double value = 0, running = 100;
	struct perf_counter *c;

	if (!json_is_object(doc)) {
		*ret_why = "not a JSON object";
		return -EINVAL;
	}
	if (!jevent)
		return 0;
	if (!event || !*event || !metric_text_valid(event, false)) {
		*ret_why = "\"event\" is not a name";
		return -EINVAL;
	}
	if (unit && !metric_text_valid(unit, true)) {
		*ret_why = "\"unit\" is not text";
		return -EINVAL;
	}
	if (read_value(json_object_get(doc, "counter-value"), &state, &value, ret_why) < 0)
		return -EINVAL;
	if (jrun) {
		running = json_number_value(jrun);
		if (!json_is_number(jrun) || !(running >= 0 && running <= 100)) {
			*ret_why = "\"pcnt-running\" is not a share from 0 to 100";
			return -EINVAL;
		}
	}
	c = find_counter(stat, event);
	if (!c) {
		if (stat->n_counters >= PERF_STAT_MAX_COUNTERS) {
			*ret_why = "more events than bootab keeps (256)";
			return -EINVAL;
		}
		stat->counters = xrealloc(stat->counters, (stat->n_counters + 1) * sizeof(*stat->counters));
		c = &stat->counters[stat->n_counters++];
		c->event = xstrdup(event);
		c->unit = xstrdup(unit ? unit : "");
		c->state = state;
		c->value = value;
		c->running_pct = running;
		return 1;
	}
	/* The same event again (per CPU, per interval): one count. */
	if (c->state == PERF_COUNTED && state == PERF_COUNTED)
		c->value += value;
	else if (state != PERF_COUNTED)
		c->state = state;
	if (running < c->running_pct)
		c->running_pct = running;
	if (!metric_sample_valid(c->value)) {
		*ret_why = "the counts of one event add up beyond what bootab computes with";
		return -EINVAL;
	}
	return 1;
}

int perf_stat_parse(const char *data, size_t len, struct perf_stat *ret, struct parse_error *err)
{
	struct perf_stat stat = PERF_STAT_INIT;
	unsigned line = 0;
	size_t off = 0;

	while (off < len) {
		const char *p = data + off, *nl = memchr(p, '\n', len - off);
		size_t n = nl ? (size_t)(nl - p) : len - off, lead = 0;
		const char *why = NULL;
		json_error_t jerr;
		json_t *doc;
		int r;

		line++;
		off += n + (nl ? 1 : 0);
		while (lead < n && (p[lead] == ' ' || p[lead] == '\t' || p[lead] == '\r'))
			lead++;
		if (lead == n || p[lead] == '#')
			continue;
		doc = json_loadb(p, n, JSON_REJECT_DUPLICATES, &jerr);
		if (!doc) {
			parse_error_set(err, line, (unsigned)jerr.column, "not perf stat -j output: %s", jerr.text);
			perf_stat_release(&stat);
			return -EINVAL;
		}
		r = add_line(&stat, doc, &why);
		json_decref(doc);
		if (r < 0) {
			parse_error_set(err, line, 0, "perf stat -j: %s", why);
			perf_stat_release(&stat);
			return -EINVAL;
		}
	}
	if (!stat.n_counters) {
		parse_error_set(err, line, 0, "perf stat -j: no event in the output");
		return -EINVAL;
	}
	*ret = stat;
	return 0;
}
