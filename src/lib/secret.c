#include "lib/secret.h"

#include <errno.h>
#include <sys/prctl.h>
#include <sys/resource.h>

static unsigned held;
static int saved_dumpable;
static struct rlimit saved_core;

int secret_hold(void)
{
	struct rlimit none;
	int dumpable;

	if (held) {
		held++;
		return 0;
	}
	dumpable = prctl(PR_GET_DUMPABLE, 0, 0, 0, 0);
	if (dumpable < 0 || getrlimit(RLIMIT_CORE, &saved_core) < 0)
		return -errno;
	/*
	 * Both, or neither: the limit alone would leave ptrace, /proc/PID/mem
	 * and a core_pattern pipe (which ignores the limit) open. The soft
	 * limit only: the hard one stays, so it can be put back unprivileged.
	 */
	none = (struct rlimit){ 0, saved_core.rlim_max };
	if (prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) < 0)
		return -errno;
	if (setrlimit(RLIMIT_CORE, &none) < 0) {
		int r = -errno;

		prctl(PR_SET_DUMPABLE, dumpable, 0, 0, 0);
		return r;
	}
	saved_dumpable = dumpable;
	held = 1;
	return 0;
}

void secret_release(void)
{
	if (!held || --held)
		return;
	setrlimit(RLIMIT_CORE, &saved_core);
	prctl(PR_SET_DUMPABLE, saved_dumpable, 0, 0, 0);
}
