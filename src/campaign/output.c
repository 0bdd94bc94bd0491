#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "campaign/output.h"
#include "lib/alloc.h"
#include "lib/file.h"

/* Whether the resolved directory dir holds name. */
static bool holds(const char *dir, const char *name)
{
	char *p = path_join(dir, name);
	bool yes = path_exists(p);

	free(p);
	return yes;
}

static bool is_campaign_dir(const char *dir, const char *campaign_real)
{
	if (campaign_real && !strcmp(dir, campaign_real))
		return true;
	return holds(dir, "plan.ini") && (holds(dir, "journal") || holds(dir, "boxes"));
}

/*
 * The resolved form of path's longest leading part that exists (path
 * itself when it does), links and ".." gone; *ret_rest points at what
 * follows that part in path ("" when path exists). NULL on an error other
 * than a missing part.
 */
static char *resolve_existing(const char *path, const char **ret_rest)
{
	char *head = xstrdup(path);
	size_t len = strlen(head);

	for (;;) {
		char *real = realpath(len ? head : ".", NULL);
		char *slash;

		if (real || errno != ENOENT) {
			*ret_rest = path + len + (path[len] == '/');
			free(head);
			return real;
		}
		slash = strrchr(head, '/');
		if (!slash) {
			len = 0;
		} else {
			len = (size_t)(slash - head);
			if (!len) {
				/* Only "/" is left; it exists. */
				free(head);
				*ret_rest = path + 1;
				return xstrdup("/");
			}
		}
		head[len] = '\0';
	}
}

static bool name_allowed(const char *name, const char *const *allowed)
{
	for (size_t i = 0; allowed && allowed[i]; i++)
		if (!strcmp(name, allowed[i]))
			return true;
	return false;
}

int campaign_output_check(const char *path, bool is_dir, const char *campaign_dir,
			  const char *const *allowed, char **ret_campaign)
{
	char *campaign_real = campaign_dir ? realpath(campaign_dir, NULL) : NULL;
	char *real, *dir, *name = NULL;
	const char *rest;
	int r = 0;

	real = resolve_existing(path, &rest);
	if (!real) {
		r = -errno;
		free(campaign_real);
		return r;
	}
	if (!is_dir && *rest && !strchr(rest, '/')) {
		/* A new file in an existing directory. */
		name = xstrdup(rest);
		dir = real;
	} else if (is_dir || *rest) {
		/* A directory written into, or a path below real still to be made. */
		dir = real;
	} else {
		char *slash = strrchr(real, '/');

		name = xstrdup(slash + 1);
		dir = slash == real ? xstrdup("/") : xstrndup(real, (size_t)(slash - real));
		free(real);
	}
	for (char *d = xstrdup(dir);;) {
		char *slash;

		if (is_campaign_dir(d, campaign_real)) {
			if (!name || strcmp(d, dir) || !name_allowed(name, allowed)) {
				*ret_campaign = d;
				d = NULL;
				r = -EPERM;
			}
			free(d);
			break;
		}
		if (!strcmp(d, "/")) {
			free(d);
			break;
		}
		slash = strrchr(d, '/');
		if (slash == d)
			slash[1] = '\0';
		else
			*slash = '\0';
	}
	free(dir);
	free(name);
	free(campaign_real);
	return r;
}
