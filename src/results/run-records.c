#include "results/run-records.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/alloc.h"
#include "lib/parse-number.h"
#include "lib/strbuf.h"
#include "lib/timestamp.h"

/* The box's clock as the last clock record gave it. */
struct box_clock {
	bool known;
	long ticks;             /* its uptime in hundredths of a second */
	long epoch;             /* and date's seconds since the epoch then */
};

/* A counters or energy record, kept until every rep record is read. */
struct rep_note {
	const char *row;
	unsigned rep;
	enum { NOTE_NO_PERF, NOTE_NO_RAPL, NOTE_ZONE } kind;
	/* NOTE_ZONE: the zone, which reading (neither: a zone named, no reading), its microjoules and range */
	enum { READ_BEFORE, READ_AFTER, READ_NEITHER } when;
	char zone[64], name[64];
	long uj, max;
};

/* What the records read so far leave to the next. */
struct parse_state {
	struct box_clock clock;
	struct rep_note *notes;
	size_t n_notes, alloc_notes;
};

#define MAX_FIELDS 8

/* Splits line (written into) at its spaces into its first MAX_FIELDS fields; the rest is not read. */
static size_t split(char *line, char **f)
{
	size_t n = 0;

	while (n < MAX_FIELDS) {
		f[n++] = line;
		line = strchr(line, ' ');
		if (!line)
			break;
		*line++ = '\0';
	}
	return n;
}

/*
 * A record's time into buf: ticks through the clock, an older runner's
 * RFC 3339 text as it is. "" (and counted) for ticks the clock cannot
 * place.
 */
static void read_time(struct run_records *recs, const struct box_clock *clock, const char *s,
		      char buf[RUN_TIME_SIZE])
{
	long ticks;

	buf[0] = '\0';
	if (!number_is_digits(s)) {
		if (strlen(s) < RUN_TIME_SIZE)
			strcpy(buf, s);
		return;
	}
	if (!clock->known || number_parse_long(s, 0, LONG_MAX, &ticks) < 0) {
		recs->untimed++;
		return;
	}
	/* Rounded down: a tick before the clock's is in the second before it. */
	long d = ticks - clock->ticks, secs = d >= 0 ? d / 100 : -((-d + 99) / 100);

	if (timestamp_format_utc((long long)clock->epoch + secs, buf) < 0)
		recs->untimed++;
}

static const char *word(struct run_records *recs, const char *s)
{
	strlist_add(&recs->words, s);
	return recs->words.items[recs->words.n - 1];
}

static bool parse_long(const char *s, long min, long max, long *ret)
{
	return number_parse_long(s, min, max, ret) == 0;
}

static void rep_line(struct run_records *recs, const struct box_clock *clock, char **f, size_t n)
{
	struct rep_record r = { .hundredths = -1 };
	long rep, rc;

	/* rep ROW REP RC START END SECONDS [HUNDREDTHS] */
	if (n < 7 || !*f[1] || !parse_long(f[2], 0, UINT_MAX, &rep) || !parse_long(f[3], INT_MIN, INT_MAX, &rc) ||
	    !parse_long(f[6], LONG_MIN, LONG_MAX, &r.seconds))
		return;
	if (n > 7 && !parse_long(f[7], LONG_MIN, LONG_MAX, &r.hundredths))
		r.hundredths = -1;
	r.rep = (unsigned)rep;
	r.rc = (int)rc;
	read_time(recs, clock, f[4], r.start);
	read_time(recs, clock, f[5], r.end);
	r.row = word(recs, f[1]);
	GROW(recs->reps, recs->alloc_reps, recs->n_reps + 1);
	recs->reps[recs->n_reps++] = r;
}

static void gate_line(struct run_records *recs, char **f, size_t n)
{
	struct gate_record g = { .hundredths = -1 };

	/* gate ROW ok|timeout SECONDS [HUNDREDTHS] */
	if (n < 4 || !*f[1])
		return;
	if (!parse_long(f[3], LONG_MIN, LONG_MAX, &g.seconds))
		return;
	if (n > 4 && !parse_long(f[4], LONG_MIN, LONG_MAX, &g.hundredths))
		g.hundredths = -1;
	g.row = word(recs, f[1]);
	g.state = word(recs, f[2]);
	GROW(recs->gates, recs->alloc_gates, recs->n_gates + 1);
	recs->gates[recs->n_gates++] = g;
}

/* "start TIME LOAD...": the time, then the rest of the line as it is. */
static void start_line(struct run_records *recs, const struct box_clock *clock, const char *line)
{
	const char *t = line + 6, *sp = strchr(t, ' ');
	char *first = sp ? xstrndup(t, (size_t)(sp - t)) : xstrdup(t), buf[RUN_TIME_SIZE];

	recs->has_start = true;
	read_time(recs, clock, first, buf);
	if (*buf)
		recs->start = xasprintf("%s%s", buf, sp ? sp : "");
	free(first);
}

static bool rep_number(const char *s, unsigned *ret)
{
	long v;

	if (!parse_long(s, 0, UINT_MAX, &v))
		return false;
	*ret = (unsigned)v;
	return true;
}

static void add_note(struct run_records *recs, struct parse_state *st, struct rep_note *note, const char *row)
{
	note->row = word(recs, row);
	GROW(st->notes, st->alloc_notes, st->n_notes + 1);
	st->notes[st->n_notes++] = *note;
}

/* "counters ROW REP no-perf" */
static void counters_line(struct run_records *recs, struct parse_state *st, char **f, size_t n)
{
	struct rep_note note = { .kind = NOTE_NO_PERF };

	if (n == 4 && *f[1] && rep_number(f[2], &note.rep) && !strcmp(f[3], "no-perf"))
		add_note(recs, st, &note, f[1]);
}

/* "energy ROW REP none", "energy ROW REP before|after ZONE NAME UJ MAX" ("-": unreadable) */
static void energy_line(struct run_records *recs, struct parse_state *st, char **f, size_t n)
{
	struct rep_note note = { .kind = NOTE_ZONE };

	if (n < 4 || !*f[1] || !rep_number(f[2], &note.rep))
		return;
	if (n == 4 && !strcmp(f[3], "none")) {
		note.kind = NOTE_NO_RAPL;
		add_note(recs, st, &note, f[1]);
		return;
	}
	if (n < 8 || !*f[4] || !*f[5])
		return;
	/* The last field holds the rest of the line. */
	f[7][strcspn(f[7], " ")] = '\0';
	note.when = !strcmp(f[3], "before") ? READ_BEFORE : !strcmp(f[3], "after") ? READ_AFTER : READ_NEITHER;
	snprintf(note.zone, sizeof(note.zone), "%s", f[4]);
	snprintf(note.name, sizeof(note.name), "%s", f[5]);
	if (!parse_long(f[6], 0, LONG_MAX, &note.uj))
		note.uj = -1;
	if (!parse_long(f[7], 0, LONG_MAX, &note.max))
		note.max = -1;
	add_note(recs, st, &note, f[1]);
}

/* A zone note into rep r's zones: the first of a zone names it; each sets its reading and the counter's range. */
static void give_zone(struct rep_record *r, size_t *alloc, const struct rep_note *note)
{
	struct energy_zone *z = NULL;

	for (size_t j = 0; j < r->n_zones && !z; j++)
		if (!strcmp(r->zones[j].zone, note->zone))
			z = &r->zones[j];
	if (!z) {
		GROW(r->zones, *alloc, r->n_zones + 1);
		z = &r->zones[r->n_zones++];
		snprintf(z->zone, sizeof(z->zone), "%s", note->zone);
		snprintf(z->name, sizeof(z->name), "%s", note->name);
		z->before = z->after = -1;
	}
	if (note->when == READ_BEFORE)
		z->before = note->uj;
	else if (note->when == READ_AFTER)
		z->after = note->uj;
	z->max = note->max;
}

/* Gives each note to the rep records of its row and rep, wherever in the file either stands. */
static void give_notes(struct run_records *recs, const struct parse_state *st)
{
	for (size_t i = 0; i < recs->n_reps; i++) {
		struct rep_record *r = &recs->reps[i];
		size_t alloc = 0;

		for (size_t k = 0; k < st->n_notes; k++) {
			const struct rep_note *note = &st->notes[k];

			if (note->rep != r->rep || strcmp(note->row, r->row))
				continue;
			if (note->kind == NOTE_NO_PERF)
				r->no_perf = true;
			else if (note->kind == NOTE_NO_RAPL)
				r->no_rapl = true;
			else
				give_zone(r, &alloc, note);
		}
	}
}

static void clock_line(struct box_clock *clock, char **f, size_t n)
{
	/* clock TICKS EPOCH ("-": date gave no time); an EPOCH past 9999 is no time either. */
	clock->known = n == 3 && number_is_digits(f[1]) && number_is_digits(f[2]) &&
		       parse_long(f[1], 0, LONG_MAX, &clock->ticks) &&
		       parse_long(f[2], 0, TIMESTAMP_UTC_MAX, &clock->epoch);
}

static void record(struct run_records *recs, struct parse_state *st, const char *line, size_t len)
{
	struct box_clock *clock = &st->clock;
	char *copy = xstrndup(line, len), *f[MAX_FIELDS];
	size_t n;

	if (!strncmp(copy, "start ", 6)) {
		if (!recs->has_start)
			start_line(recs, clock, copy);
		free(copy);
		return;
	}
	n = split(copy, f);
	if (!strcmp(f[0], "clock"))
		clock_line(clock, f, n);
	else if (!strcmp(f[0], "rep"))
		rep_line(recs, clock, f, n);
	else if (!strcmp(f[0], "gate"))
		gate_line(recs, f, n);
	else if (!strcmp(f[0], "counters"))
		counters_line(recs, st, f, n);
	else if (!strcmp(f[0], "energy"))
		energy_line(recs, st, f, n);
	else if (!strcmp(f[0], "skip") && n >= 2 && *f[1])
		strlist_add(&recs->skipped, f[1]);
	else if (!strcmp(f[0], "end") && n >= 2 && !recs->has_end) {
		recs->has_end = true;
		read_time(recs, clock, f[1], recs->end);
	}
	free(copy);
}

void run_records_parse(const char *text, struct run_records *ret)
{
	struct parse_state st = { 0 };
	const char *p = text ? text : "";

	memset(ret, 0, sizeof(*ret));
	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);

		record(ret, &st, p, len);
		p += len + (nl ? 1 : 0);
	}
	give_notes(ret, &st);
	free(st.notes);
}

void run_records_release(struct run_records *recs)
{
	free(recs->start);
	for (size_t i = 0; i < recs->n_reps; i++)
		free(recs->reps[i].zones);
	free(recs->reps);
	free(recs->gates);
	strlist_release(&recs->skipped);
	strlist_release(&recs->words);
	memset(recs, 0, sizeof(*recs));
}
