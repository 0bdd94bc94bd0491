#ifndef BOOTAB_CAMPAIGN_PROGRESS_H
#define BOOTAB_CAMPAIGN_PROGRESS_H

#include <stdbool.h>
#include <stddef.h>

#include "campaign/campaign.h"

/*
 * What every step of a campaign shares, below the step machine: lines to
 * the command's say(), the progress line of a boot, the stop flag, the
 * data directory's room and a boot's run directory on the target. The
 * step files include this; it calls none of them.
 */

struct campaign;

/* One line to the say() of o (nothing when it has none). */
void campaign_tell(const struct campaign_options *o, enum campaign_level level, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* One line to the say() of the campaign's command. */
void campaign_say(const struct campaign *c, enum campaign_level level, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* "[00:03:12] boot 2/5 strict: ..." with an ETA once a boot is done. */
void campaign_progress(const struct campaign *c, size_t k, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Whether a signal asked the campaign to stop. */
bool campaign_interrupted(const struct campaign *c);
/* 0 when the data directory takes a boot's results, else -errno (said). */
int campaign_check_data_dir(struct campaign *c, const char *when);
/* Boot k's run directory on the target; the caller's. */
char *campaign_remote_dir(const struct campaign *c, size_t k);

#endif
