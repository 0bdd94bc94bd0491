/*
 * The per-boot script's results file (results/run-records.c).
 *
 * Property: every time read is either the text of an older runner's
 * record, as it stands in the input, or an RFC 3339 UTC time put together
 * from the box's clock; never anything else, and never more times left out
 * than the records hold. Each energy zone is named as in the input, its
 * readings never below -1 (not read).
 */
#include "fuzz-common.h"

#include "lib/timestamp.h"
#include "results/run-records.h"

static void check_time(const char *text, const char *t)
{
	double s;

	FUZZ_ASSERT(!*t || strstr(text, t) || (strlen(t) == TIMESTAMP_UTC_SIZE - 1 &&
						t[TIMESTAMP_UTC_SIZE - 2] == 'Z' && timestamp_parse_rfc3339(t, &s) == 0),
		    "time '%s' is neither the input's nor RFC 3339 UTC", t);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = xstrndup((const char *)data, size);
	struct run_records recs;

	run_records_parse(text, &recs);
	for (size_t i = 0; i < recs.n_reps; i++) {
		FUZZ_ASSERT(*recs.reps[i].row, "a rep of no row");
		check_time(text, recs.reps[i].start);
		check_time(text, recs.reps[i].end);
		for (size_t k = 0; k < recs.reps[i].n_zones; k++) {
			const struct energy_zone *z = &recs.reps[i].zones[k];

			FUZZ_ASSERT(*z->zone && strstr(text, z->zone), "zone '%s' is not the input's", z->zone);
			FUZZ_ASSERT(z->before >= -1 && z->after >= -1 && z->max >= -1, "a reading below -1");
		}
	}
	check_time(text, recs.end);
	if (recs.start)
		FUZZ_ASSERT(recs.has_start, "a start without its record");
	FUZZ_ASSERT(recs.untimed <= 2 * recs.n_reps + 2, "%zu times left out of %zu reps", recs.untimed,
		    recs.n_reps);
	run_records_release(&recs);
	free(text);
	return 0;
}
