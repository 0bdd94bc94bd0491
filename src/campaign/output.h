#ifndef BOOTAB_CAMPAIGN_OUTPUT_H
#define BOOTAB_CAMPAIGN_OUTPUT_H

#include <stdbool.h>

/*
 * Where an output the user names (report -o FILE, snapshot -o DIR) may
 * not go: into a campaign directory, whose files are the boots' results,
 * the plan and the journal. A campaign directory is campaign_dir (when not
 * NULL: the one being reported) or any directory holding a plan.ini with a
 * journal (a campaign) or with a boxes file (a fleet).
 */

/*
 * Whether path, once its links and ".." are resolved, lies inside a
 * campaign directory without being one of allowed (names directly in that
 * directory; NULL: none). For is_dir, path itself is the directory written
 * into. Returns 0 when it may be written, -EPERM when not, with
 * *ret_campaign the campaign directory (as the user would write it: its
 * resolved path; the caller's), or -errno when path's directory cannot be
 * resolved (the write would fail anyway: the caller may go on and let it).
 */
int campaign_output_check(const char *path, bool is_dir, const char *campaign_dir,
			  const char *const *allowed, char **ret_campaign);

#endif
