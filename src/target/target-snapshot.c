/* A snapshot of the box: snapshot.sh, kernel-id.sh and inventory.sh run at once, each one's records parsed. */
#include "target/target.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/alloc.h"
#include "lib/strbuf.h"
#include "target/target-internal.h"
#include "kernel/notes.h"
#include "kernel/snapshot.h"

const char *const target_snapshot_scripts[] = { "snapshot", "kernel-id", "inventory", NULL };

/* Whether a snapshot's output ends in its closing "end" line (a line of its own). */
static bool ends_in_end(const struct process_result *snap)
{
	return snap->out_len >= 4 && !strcmp(snap->out + snap->out_len - 4, "end\n") &&
	       (snap->out_len == 4 || snap->out[snap->out_len - 5] == '\n');
}

/*
 * A script's output (kernel-id.sh's or inventory.sh's) added to *out; a
 * script that failed is an error. res is released.
 */
static int script_take(struct target *t, const char *script, struct process_result *res, struct strbuf *out)
{
	if (res->exit_code != 0 || res->out_truncated) {
		char *why = target_last_line(res->err);

		target_set_error(t, "%s on '%s' failed (exit %d): %s", script, t->spec, res->exit_code,
				 res->out_truncated ? "output too long" : *why ? why : "no message");
		free(why);
		process_result_release(res);
		return -EIO;
	}
	strbuf_add(out, res->out, res->out_len);
	process_result_release(res);
	return 0;
}

/* script run alone, its records added to *out as script_take() does. */
static int script_append(struct target *t, const char *script, const char *const *args, bool as_root,
			 struct strbuf *out)
{
	struct process_result res;
	int r = target_run_script(t, script, args, NULL, 0, as_root, 120000, &res);

	return r < 0 ? r : script_take(t, script, &res, out);
}

/* The value of the first record KEY<TAB>VALUE in out (the caller's), or NULL. */
static char *record_value(const char *out, const char *key)
{
	size_t n = strlen(key);

	for (const char *p = out; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
		if (!strncmp(p, key, n) && p[n] == '\t')
			return xstrndup(p + n + 1, strcspn(p + n + 1, "\n"));
	return NULL;
}

/* The GNU build id kernel-id.sh's kernel_notes record holds, or NULL. */
static char *notes_build_id(const char *out)
{
	char *hex = record_value(out, "kernel_notes"), *id = NULL;
	unsigned char *notes;
	size_t len;

	if (hex && hex_decode(hex, &notes, &len) == 0) {
		if (kernel_notes_build_id(notes, len, &id) < 0)
			id = NULL;
		free(notes);
	}
	free(hex);
	return id;
}

/*
 * kernel-id.sh's records into *out, from its run in res: with memos that
 * run was its part before the config. When a memo is of this very kernel
 * (the release snapshot.sh read, the build id in the notes), the memo's
 * config records, marked as read on that boot, stand for the config part;
 * otherwise that part runs now. Both ways the records come in the order
 * of one whole run.
 */
static int kernel_id_take(struct target *t, bool as_root, const struct target_snapshot_options *o,
			  struct process_result *res, const char *snapshot_out, struct strbuf *out)
{
	static const char *const config[] = { "config", NULL };
	const struct snapshot_config_memo *memo = NULL;
	char *release, *id;
	int r;

	r = script_take(t, target_snapshot_scripts[1], res, out);
	if (r < 0 || !o || !o->n_memos)
		return r;
	release = record_value(snapshot_out, "kernel");
	id = notes_build_id(out->buf);
	for (size_t i = 0; release && id && i < o->n_memos && !memo; i++)
		if (!strcmp(o->memos[i].build_id, id) && !strcmp(o->memos[i].kernel, release))
			memo = &o->memos[i];
	free(release);
	free(id);
	if (!memo)
		return script_append(t, target_snapshot_scripts[1], config, as_root, out);
	snapshot_config_memo_records(memo, out);
	return 0;
}

static int snapshot_run(struct target *t, const char *const *args, bool as_root,
			const struct target_snapshot_options *o, struct snapshot *ret, char **ret_raw,
			struct parse_error *err);

int target_snapshot(struct target *t, const char *const *args, bool as_root,
		    struct snapshot *ret, char **ret_raw, struct parse_error *err)
{
	return target_snapshot_with(t, args, as_root, NULL, ret, ret_raw, err);
}

int target_snapshot_with(struct target *t, const char *const *args, bool as_root,
			 const struct target_snapshot_options *o, struct snapshot *ret, char **ret_raw,
			 struct parse_error *err)
{
	int r;

	/* The scripts in one session. */
	target_batch_begin(t);
	r = snapshot_run(t, args, as_root, o, ret, ret_raw, err);
	target_batch_end(t);
	return r;
}

/*
 * The three outputs, each parsed on its own, into *ret; the raw text
 * (snapshot.out's) is their records in the order of the scripts, with
 * snapshot.sh's closing "end" line last.
 */
static int snapshot_read(struct target *t, const struct snapshot_text *texts, size_t n, struct snapshot *ret,
			 char **ret_raw, struct parse_error *err)
{
	size_t which = 0, len;
	int r = snapshot_parse_scripts(texts, n, ret, err, &which);

	if (r < 0) {
		char *name = xasprintf("%s output from '%s'", target_snapshot_scripts[which], t->spec);

		parse_error_set_file(err, name);
		free(name);
		return r;
	}
	/* The raw output is kept with the boot's results (snapshot.out). */
	ret->raw = snapshot_join_scripts(texts, n, &len);
	if (ret_raw)
		*ret_raw = xstrndup(ret->raw, len);
	return 0;
}

static int snapshot_run(struct target *t, const char *const *args, bool as_root,
			const struct target_snapshot_options *o, struct snapshot *ret, char **ret_raw,
			struct parse_error *err)
{
	static const char *const first[] = { "noconfig", NULL }, *const nolog_args[] = { "nolog", NULL };
	bool whole = !o || !o->sysfs_only, nolog = false, devices = whole && !(o && o->no_devices);
	struct process_result runs[4], res;
	struct strbuf kernel = STRBUF_INIT, inventory = STRBUF_INIT;
	struct target_job jobs[4];
	size_t n = devices ? 3 : whole ? 2 : 1, parts = 1;
	bool beside = o && o->beside && o->beside_ret;
	int r = 0;

	/* The kernel's records and the devices come from scripts of their own
	 * (one SSH command line has room for one script: dropbear takes at
	 * most 9000 bytes), run beside snapshot.sh; nolog leaves the device
	 * inventory's kernel log out as well. */
	for (size_t i = 0; args && args[i]; i++)
		nolog |= !strcmp(args[i], "nolog");
	jobs[0] = (struct target_job){ target_snapshot_scripts[0], args, as_root };
	jobs[1] = (struct target_job){ target_snapshot_scripts[1], o && o->n_memos ? first : NULL, as_root };
	jobs[2] = (struct target_job){ target_snapshot_scripts[2], nolog ? nolog_args : NULL, as_root };
	if (beside)
		jobs[n] = *o->beside;
	r = target_run_scripts(t, n + beside, jobs, 120000, runs);
	if (r < 0)
		return r;
	if (beside) {
		process_result_release(o->beside_ret);
		*o->beside_ret = runs[n];
	}
	res = runs[0];
	if (res.exit_code != 0) {
		char *why = target_last_line(res.err);

		target_set_error(t, "snapshot on '%s' failed (exit %d): %s", t->spec, res.exit_code,
				 *why ? why : "no message");
		free(why);
		r = -EIO;
	} else if (res.out_truncated) {
		target_set_error(t, "snapshot output from '%s' is too long", t->spec);
		r = -EFBIG;
	} else if (whole && ends_in_end(&res)) {
		/* A snapshot without its last line is read alone, for the parser to refuse. */
		r = kernel_id_take(t, as_root, o, &runs[1], res.out, &kernel);
		parts = 2;
		if (r == 0 && devices) {
			r = script_take(t, target_snapshot_scripts[2], &runs[2], &inventory);
			parts = 3;
		}
	}
	for (size_t i = 1; i < n; i++)
		process_result_release(&runs[i]);
	if (r == 0) {
		const struct snapshot_text texts[] = {
			{ res.out, res.out_len }, { kernel.buf, kernel.len }, { inventory.buf, inventory.len }
		};

		r = snapshot_read(t, texts, parts, ret, ret_raw, err);
	}
	strbuf_release(&kernel);
	strbuf_release(&inventory);
	process_result_release(&res);
	return r;
}
