#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "campaign/internal.h"
#include "campaign/progress.h"
#include "results/fetch.h"
#include "results/side-write.h"
#include "lib/alloc.h"
#include "lib/clock.h"
#include "lib/file.h"
#include "lib/process.h"
#include "lib/strlist.h"
#include "results/run-records.h"
#include "results/side.h"
#include "target/target.h"

int campaign_fetch_file(struct campaign *c, size_t k, bool quiet)
{
	char *tmp = xasprintf("%s/.fetch-%s.tmp-XXXXXX", c->dir, c->boots[k].label);
	int fd = mkostemp(tmp, O_CLOEXEC), r = 0;

	if (fd < 0) {
		r = -errno;
		if (!quiet) {
			campaign_say(c, CAMPAIGN_ERROR, "boot %zu %s: cannot create %s for the results: %s", k + 1,
				     c->boots[k].label, tmp, strerror(-r));
			c->res->data_error = true;
		}
	} else {
		/* Nameless from the start: nothing is left behind whatever stops the campaign. */
		unlink(tmp);
	}
	free(tmp);
	return fd < 0 ? r : fd;
}

/* The fetch stream in fd, parsed from a mapping of it. */
static int parse_fetch_file(int fd, struct fetch *ret, struct parse_error *err)
{
	struct stat st;
	void *map = NULL;
	int r;

	if (fstat(fd, &st) < 0)
		return -errno;
	if (st.st_size > 0 && (map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0)) == MAP_FAILED)
		return -errno;
	r = fetch_parse(map ? map : "", map ? (size_t)st.st_size : 0, ret, err);
	if (map)
		munmap(map, (size_t)st.st_size);
	return r;
}

/*
 * Boot k's results: the stream the watch carried (carried_fd, when >= 0:
 * taken), else run-fetch.sh's, written to a nameless file in the campaign
 * directory as it comes (a boot's results can be larger than memory holds
 * comfortably) and parsed from a mapping of it. Returns 0 and *ret, or
 * -errno (said).
 */
static int fetch_to_disk(struct campaign *c, size_t k, const char *dir, int carried_fd, struct fetch *ret)
{
	char *limit = xasprintf("%llu", FETCH_FILE_LIMIT);
	const char *args[] = { dir, limit, NULL };
	struct parse_error err = PARSE_ERROR_INIT;
	struct process_result res;
	int fd, r;

	if (carried_fd >= 0) {
		r = parse_fetch_file(carried_fd, ret, &err);
		close(carried_fd);
		if (r == 0)
			goto out;
		campaign_say(c, CAMPAIGN_WARNING, "boot %zu %s: the results the watch carried do not parse (%s): fetching them again",
			     k + 1, c->boots[k].label, err.message ? err.message : strerror(-r));
		parse_error_release(&err);
	}
	campaign_progress(c, k, "fetching results");
	fd = r = campaign_fetch_file(c, k, false);
	if (fd < 0)
		goto out;
	r = target_run_script_to_fd(c->target, "run-fetch", args, false, 3600000, fd, &res);
	if (r < 0 || res.exit_code != 0) {
		campaign_say(c, CAMPAIGN_ERROR, "boot %zu %s: fetching %s failed: %s", k + 1, c->boots[k].label, dir,
		    r < 0 ? target_error(c->target) : res.err);
		if (r == 0)
			process_result_release(&res);
		r = r < 0 ? r : -EIO;
		close(fd);
		goto out;
	}
	process_result_release(&res);
	r = parse_fetch_file(fd, ret, &err);
	close(fd);
	if (r < 0 && err.message)
		campaign_say(c, CAMPAIGN_ERROR, "boot %zu %s: the results from %s do not parse: line %u: %s", k + 1,
		    c->boots[k].label, dir, err.line, err.message);
	else if (r < 0)
		campaign_say(c, CAMPAIGN_ERROR, "boot %zu %s: cannot read the results fetched from %s: %s", k + 1,
			     c->boots[k].label, dir, strerror(-r));
out:
	parse_error_release(&err);
	free(limit);
	return r;
}

static void add_times(struct campaign *c, const struct fetch *f)
{
	const struct fetched_file *results = fetch_find(f, "results");
	struct run_records recs;

	/* The hundredths when the runner recorded them, else the whole seconds. */
	run_records_parse(results ? results->data : NULL, &recs);
	for (size_t i = 0; i < recs.n_gates; i++)
		c->res->gate_s += recs.gates[i].hundredths >= 0 ? (double)recs.gates[i].hundredths / 100
								: (double)recs.gates[i].seconds;
	for (size_t i = 0; i < recs.n_reps; i++)
		c->res->rows_s += recs.reps[i].hundredths >= 0 ? (double)recs.reps[i].hundredths / 100
							       : (double)recs.reps[i].seconds;
	run_records_release(&recs);
}

/* Whether the complete side in dir (its meta.json) was recorded on boot boot_id. */
static bool side_is_of_boot(const char *dir, const char *boot_id)
{
	struct strlist warnings = STRLIST_INIT;
	struct side side;
	bool same = false;

	if (side_load(dir, &side, &warnings) == 0) {
		same = side.boot_id && boot_id && !strcmp(side.boot_id, boot_id);
		side_release(&side);
	}
	strlist_release(&warnings);
	return same;
}

int campaign_write_side(struct campaign *c, size_t k, const struct snapshot *snap, const char *verify_summary,
			const struct fetch *f)
{
	char *side = path_join(c->dir, c->boots[k].label), *now;
	struct strlist warnings = STRLIST_INIT;
	struct side_plan asked;
	struct side_record rec;
	int r;

	add_times(c, f);
	now = time_now_iso8601();
	plan_side(&c->plan, &asked);
	rec = (struct side_record){
		.plan = &asked, .campaign = c->name, .target = c->plan.target,
		.boot_index = k, .n_boots = c->n_boots, .label = c->boots[k].label,
		.mode = c->plan.modes[c->boots[k].mode].name, .round = c->boots[k].round,
		.boot_id_before = c->progress[k].boot_id_before,
		.reboot_s = c->progress[k].lava_job ? -1 : c->progress[k].reboot_s,
		.boot_method = !c->progress[k].boot_id_before ? NULL
			       : !strcmp(c->plan.backend, "kexec") ? "kexec" : "reboot",
		.snapshot_time = now, .snapshot = snap, .fetch = f, .verify_summary = verify_summary,
		.proof = c->progress[k].proof,
	};
	r = side_write(side, &rec, &warnings);
	if (r == -EEXIST) {
		/* The campaign stopped after the side was written, before the journal said so. */
		if (side_is_of_boot(side, c->progress[k].boot_id)) {
			campaign_progress(c, k, "results already in %s (written before the campaign stopped)", side);
			r = 0;
		} else {
			campaign_set_aside(c, k);
			r = side_write(side, &rec, &warnings);
		}
	}
	free(now);
	plan_side_release(&asked);
	for (size_t i = 0; i < warnings.n; i++)
		campaign_say(c, CAMPAIGN_WARNING, "%s", warnings.items[i]);
	strlist_release(&warnings);
	if (r < 0) {
		campaign_say(c, CAMPAIGN_ERROR, "boot %zu %s: cannot write %s: %s (its rows are done; fetched again on --resume)",
		    k + 1, c->boots[k].label, side, strerror(-r));
		c->res->data_error = true;
		free(side);
		return r;
	}
	campaign_progress(c, k, "results in %s", side);
	free(side);
	r = campaign_journal_step(c, k, STEP_DONE, NULL);
	c->done_at = clock_now_s();
	c->done_this_run++;
	return r;
}

int campaign_fetch(struct campaign *c, size_t k, const struct snapshot *snap, const char *verify_summary,
		   int carried_fd)
{
	char *dir = campaign_remote_dir(c, k);
	struct fetch f;
	int r;

	r = fetch_to_disk(c, k, dir, carried_fd, &f);
	if (r < 0)
		goto out;
	for (size_t i = 0; i < f.n_skipped; i++)
		campaign_say(c, CAMPAIGN_WARNING, "boot %zu %s: %s is %llu bytes, over the %llu-byte limit of one fetched file: not fetched, it stays on the target in %s",
			     k + 1, c->boots[k].label, f.skipped[i].name, f.skipped[i].size, FETCH_FILE_LIMIT, dir);
	r = campaign_write_side(c, k, snap, verify_summary, &f);
	fetch_release(&f);
out:
	free(dir);
	return r;
}

/* A side directory left by a boot that did not finish is moved aside, never mixed in. */
void campaign_set_aside(struct campaign *c, size_t k)
{
	char *side = path_join(c->dir, c->boots[k].label);

	if (path_exists(side)) {
		for (int i = 1; i < 1000; i++) {
			char *to = xasprintf("%s.abandoned-%d", side, i);

			if (!path_exists(to)) {
				if (file_rename(side, to) == 0)
					campaign_say(c, CAMPAIGN_WARNING, "an unfinished %s was moved to %s", side, to);
				free(to);
				break;
			}
			free(to);
		}
	}
	free(side);
}
