#include "campaign/progress.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "campaign/internal.h"
#include "lib/alloc.h"
#include "lib/clock.h"
#include "lib/file.h"
#include "lib/strbuf.h"

/* The controller stops before a reboot when its data directory has less free. */
#define MIN_FREE_BYTES ((unsigned long long)64 << 20)

static void vtell(const struct campaign_options *o, enum campaign_level level, const char *fmt, va_list ap)
	__attribute__((format(printf, 3, 0)));

static void vtell(const struct campaign_options *o, enum campaign_level level, const char *fmt, va_list ap)
{
	struct strbuf sb = STRBUF_INIT;

	strbuf_vaddf(&sb, fmt, ap);
	if (o->say)
		o->say(o->say_ctx, level, strbuf_str(&sb));
	strbuf_release(&sb);
}

void campaign_tell(const struct campaign_options *o, enum campaign_level level, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vtell(o, level, fmt, ap);
	va_end(ap);
}

void campaign_say(const struct campaign *c, enum campaign_level level, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vtell(c->o, level, fmt, ap);
	va_end(ap);
}

bool campaign_interrupted(const struct campaign *c)
{
	return c->o->interrupted && *c->o->interrupted;
}

static const char *elapsed(const struct campaign *c, char *buf, size_t size)
{
	double s = clock_now_s() - c->started;

	snprintf(buf, size, "%02d:%02d:%02d", (int)(s / 3600), (int)(s / 60) % 60, (int)s % 60);
	return buf;
}

/* "[00:03:12] boot 2/5 strict: rebooting (ETA 00:09:40)" */
void campaign_progress(const struct campaign *c, size_t k, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	char t[32];
	size_t done = 0;
	va_list ap;

	for (size_t i = 0; i < c->n_boots; i++)
		done += c->progress[i].step == STEP_DONE;
	strbuf_addf(&sb, "[%s] boot %zu/%zu %s: ", elapsed(c, t, sizeof(t)), k + 1, c->n_boots,
		    c->boots[k].label);
	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	if (c->done_this_run > 0 && done < c->n_boots) {
		/* The boots so far set the pace; the current one has run since the last finished. */
		double per = (c->done_at - c->started) / (double)c->done_this_run;
		double left = per * (double)(c->n_boots - done) - (clock_now_s() - c->done_at);

		/* Past the estimate there is nothing honest to say. */
		if (left >= 1)
			strbuf_addf(&sb, " (ETA %02d:%02d:%02d)", (int)(left / 3600), (int)(left / 60) % 60,
				    (int)left % 60);
	}
	campaign_say(c, CAMPAIGN_INFO, "%s", strbuf_str(&sb));
	strbuf_release(&sb);
}

/*
 * Room to record a boot's results: checked when the campaign starts (before
 * anything on the target changes) and before every reboot, so a full or
 * read-only disk stops the campaign while the box is on a known boot.
 */
int campaign_check_data_dir(struct campaign *c, const char *when)
{
	struct statvfs st;
	char *probe = path_join(c->dir, ".write-test");
	int r = file_write_atomic(probe, "ok\n", 3, 0600);

	unlink(probe);
	free(probe);
	if (r < 0) {
		campaign_say(c, CAMPAIGN_ERROR, "the data directory %s is not writable (%s): stopping %s",
		    c->dir, strerror(-r), when);
		c->res->data_error = true;
		return r;
	}
	if (statvfs(c->dir, &st) == 0 &&
	    (unsigned long long)st.f_bavail * st.f_frsize < MIN_FREE_BYTES) {
		c->res->data_error = true;
		campaign_say(c, CAMPAIGN_ERROR, "the data directory %s has %.1f MiB free, less than the 64 MiB a boot's results may need: stopping %s",
		    c->dir, (double)st.f_bavail * (double)st.f_frsize / (1 << 20), when);
		return -ENOSPC;
	}
	return 0;
}

char *campaign_remote_dir(const struct campaign *c, size_t k)
{
	/* A local target in a tree (--root) keeps the run directories in the tree too. */
	const char *root = c->local && c->o->root ? c->o->root : "";

	return xasprintf("%s/var/tmp/bootab/%s/%s", root, c->name, c->boots[k].label);
}
