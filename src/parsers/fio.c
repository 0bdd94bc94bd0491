/*
 * fio --output-format=json (fio's HOWTO, "Interpreting the output" and
 * "JSON output"). One document per run: "fio version", "jobs": [...], each
 * job with "jobname", "error" and one object per data direction ("read",
 * "write", "trim") holding io_bytes, total_ios, iops, bw (KiB/s) and
 * clat_ns (mean, and percentile keyed "99.000000" unless percentiles are
 * turned off).
 *
 * fio prints text on stdout next to its JSON: notes such as "note: both
 * iodepth >= 1 and synchronous I/O engine are selected" and "fio: ..."
 * errors before it, the normal report around it with
 * --output-format=json,normal. Lines that do not start a JSON document are
 * skipped, and the caller is told how many.
 */
#include "parsers/parser-internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lib/alloc.h"
#include "lib/strbuf.h"

static const char *const directions[] = { "read", "write", "trim" };

bool fio_recognise(const json_t *doc)
{
	return json_is_object(doc) && json_object_get(doc, "fio version") &&
	       json_is_array(json_object_get(doc, "jobs"));
}

size_t fio_json_start(const char *data, size_t len)
{
	size_t pos = 0;

	while (pos < len) {
		if (data[pos] == '{')
			return pos;
		while (pos < len && data[pos] != '\n')
			pos++;
		if (pos < len)
			pos++;
	}
	return len;
}

static bool direction_active(const json_t *dir)
{
	const json_t *bytes = json_object_get(dir, "io_bytes");
	const json_t *ios = json_object_get(dir, "total_ios");

	return (json_is_number(bytes) && json_number_value(bytes) > 0) ||
	       (json_is_number(ios) && json_number_value(ios) > 0);
}

struct fio_doc {
	const char *data;
	size_t offset;                 /* where the document starts */
	struct metric_set *set;
	struct parse_error *err;
	const json_t *doc;
	char *origin;                  /* the job's: fio's version, global and job options */
};

/*
 * Adds one sample read at path from dir ("iops", "clat_ns.mean"). A
 * missing optional value adds nothing; a missing required one, a
 * non-number or a negative number is an error naming jobs[i].dir.path.
 */
static int add_value(struct fio_doc *d, size_t job, const char *dir_name, const json_t *v,
		     const char *path, bool required, const char *name,
		     enum metric_better better, const char *unit)
{
	double x;

	if (!v && !required)
		return 0;
	if (!v || json_sample(v, false, &x) < 0) {
		/* A number that is refused is shown as itself: "is -5", not "is a number". */
		if (json_is_number(v))
			parser_error_at(d->err, d->data, d->offset,
					"fio jobs[%zu].%s.%s is %g, not a number >= 0", job, dir_name, path,
					json_number_value(v));
		else
			parser_error_at(d->err, d->data, d->offset,
					"fio jobs[%zu].%s.%s is %s, not a number >= 0", job, dir_name, path,
					v ? json_type_phrase(v) : "missing");
		return -EINVAL;
	}
	metric_set_origin(metric_set_add_sample(d->set, name, better, unit, x), d->origin);
	return 0;
}

/* "fio version=fio-3.33, rw=randread, bs=4k, ...": what must match for two sides to compare a job. */
static char *job_origin(const json_t *doc, const json_t *job)
{
	const json_t *sets[] = { json_object_get(doc, "global options"), json_object_get(job, "job options") };
	struct strbuf sb = STRBUF_INIT;
	const char *key;
	json_t *v;

	if (json_is_string(json_object_get(doc, "fio version")))
		strbuf_addf(&sb, "fio version=%s", json_string_value(json_object_get(doc, "fio version")));
	for (size_t i = 0; i < 2; i++)
		json_object_foreach((json_t *)sets[i], key, v)
			if (json_is_string(v))
				strbuf_addf(&sb, "%s%s=%s", sb.len ? "\x1f" : "", key, json_string_value(v));
	return strbuf_detach(&sb, NULL);
}

static int add_direction(struct fio_doc *d, size_t job, const char *prefix,
			 const char *dir_name, const json_t *dir)
{
	const json_t *clat = json_object_get(dir, "clat_ns");
	const json_t *percentile = json_object_get(clat, "percentile");
	char *name;
	int r;

	name = xasprintf("%s.iops", prefix);
	r = add_value(d, job, dir_name, json_object_get(dir, "iops"), "iops", true,
		      name, BETTER_HIGHER, "IOPS");
	free(name);
	if (r < 0)
		return r;
	name = xasprintf("%s.bw_kib", prefix);
	r = add_value(d, job, dir_name, json_object_get(dir, "bw"), "bw", true,
		      name, BETTER_HIGHER, "KiB/s");
	free(name);
	if (r < 0)
		return r;
	name = xasprintf("%s.clat_mean_ns", prefix);
	r = add_value(d, job, dir_name, json_object_get(clat, "mean"), "clat_ns.mean", true,
		      name, BETTER_LOWER, "ns");
	free(name);
	if (r < 0)
		return r;
	/* fio leaves "percentile" out with clat_percentiles=0. */
	name = xasprintf("%s.clat_p99_ns", prefix);
	r = add_value(d, job, dir_name, json_object_get(percentile, "99.000000"),
		      "clat_ns.percentile.99.000000", false, name, BETTER_LOWER, "ns");
	free(name);
	return r;
}

/*
 * "randread", or "randread#2" for the second job of that name in one run
 * (numjobs=2); seen counts the names so far (a hash table: linear in jobs).
 */
static char *job_label(json_t *seen, const char *jobname)
{
	json_int_t same = json_integer_value(json_object_get(seen, jobname));

	json_object_set_new(seen, jobname, json_integer(same + 1));
	return same ? xasprintf("%s#%lld", jobname, (long long)same + 1) : xstrdup(jobname);
}

static int add_job(struct fio_doc *d, const json_t *jobs, size_t job, json_t *seen)
{
	const json_t *obj = json_array_get(jobs, job), *v;
	const json_t *active[3];
	const char *active_names[3];
	size_t n_active = 0;
	char *label;
	int r = 0;

	v = json_object_get(obj, "jobname");
	if (!json_is_string(v) || !json_string_length(v)) {
		parser_error_at(d->err, d->data, d->offset, "fio jobs[%zu] has no jobname", job);
		return -EINVAL;
	}
	label = job_label(seen, json_string_value(v));
	v = json_object_get(obj, "error");
	if (json_is_integer(v) && json_integer_value(v) != 0) {
		parser_error_at(d->err, d->data, d->offset,
				"fio job '%s' (jobs[%zu]) failed with error %lld; its numbers are not results",
				label, job, (long long)json_integer_value(v));
		r = -EINVAL;
		goto out;
	}
	for (size_t i = 0; i < sizeof(directions) / sizeof(directions[0]); i++) {
		const json_t *dir = json_object_get(obj, directions[i]);

		if (json_is_object(dir) && direction_active(dir)) {
			active[n_active] = dir;
			active_names[n_active++] = directions[i];
		}
	}
	if (!n_active) {
		parser_error_at(d->err, d->data, d->offset,
				"fio job '%s' (jobs[%zu]) did no I/O", label, job);
		r = -EINVAL;
		goto out;
	}
	d->origin = job_origin(d->doc, obj);
	for (size_t i = 0; i < n_active && r == 0; i++) {
		char *prefix = n_active > 1 ? xasprintf("%s.%s", label, active_names[i]) : xstrdup(label);

		r = add_direction(d, job, prefix, active_names[i], active[i]);
		free(prefix);
	}
	free(d->origin);
	d->origin = NULL;
out:
	free(label);
	return r;
}

static int add_doc(const char *data, size_t offset, const json_t *doc,
		   struct metric_set *set, struct parse_error *err)
{
	struct fio_doc d = { data, offset, set, err, doc, NULL };
	const json_t *jobs = json_object_get(doc, "jobs");
	json_t *seen;

	if (!fio_recognise(doc)) {
		parser_error_at(err, data, offset,
				"not fio --output-format=json output (no \"fio version\" and \"jobs\")");
		return -EINVAL;
	}
	if (!json_array_size(jobs)) {
		parser_error_at(err, data, offset, "fio output with no jobs");
		return -EINVAL;
	}
	seen = json_object();
	for (size_t i = 0; i < json_array_size(jobs); i++) {
		int r = add_job(&d, jobs, i, seen);

		if (r < 0) {
			json_decref(seen);
			return r;
		}
	}
	json_decref(seen);
	return 0;
}

int fio_parse(const char *data, size_t len, struct metric_set *set,
	      struct parse_error *err, struct parse_error *warning)
{
	struct json_docs docs = JSON_DOCS_INIT(data, len);
	size_t skipped = 0, first_skipped = 0, n_docs = 0;

	while (json_docs_skip_blanks(&docs)) {
		size_t offset, start;
		json_t *doc;
		int r;

		start = docs.pos + fio_json_start(data + docs.pos, len - docs.pos);
		if (start > docs.pos) {
			if (!skipped)
				first_skipped = docs.pos;
			for (size_t i = docs.pos; i < start; i++)
				skipped += data[i] == '\n';
			skipped += data[start - 1] != '\n';
		}
		docs.pos = start;
		if (start == len)
			break;
		r = json_docs_next(&docs, 0, &doc, &offset, err, NULL);
		if (r < 0)
			return r;
		r = add_doc(data, offset, doc, set, err);
		json_decref(doc);
		if (r < 0)
			return r;
		n_docs++;
	}
	if (!n_docs) {
		parse_error_set(err, 0, 0, "no fio JSON output (no line starts with '{')");
		return -EINVAL;
	}
	if (skipped)
		parser_error_at(warning, data, first_skipped,
				"skipped %zu line%s of text around fio's JSON", skipped,
				skipped == 1 ? "" : "s");
	return 0;
}
