/*
 * The lab's directory and its image: where the lab lives, which guest
 * it holds, the builder script that makes it (bootab lab build), named
 * boxes made from it, and whether it is built.
 */

#include "lab/lab-internal.h"

#include <errno.h>
#include <limits.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lib/alloc.h"
#include "lib/file.h"

extern char **environ;

static const char *const built_files[] = {
	"vmlinuz", "initrd", "esp.img", "vars.fd", "data.img", "stamp",
	"keys/id_ed25519", "known_hosts", NULL,
};

static const char *const built_files_debian[] = {
	"disk.img", "vars.fd", "data.img", "stamp", "guest", "keys/id_ed25519", "known_hosts", NULL,
};

int lab_guest_parse(const char *name, enum lab_guest *ret)
{
	if (!strcmp(name, "busybox"))
		*ret = LAB_GUEST_BUSYBOX;
	else if (!strcmp(name, "debian"))
		*ret = LAB_GUEST_DEBIAN;
	else
		return -EINVAL;
	return 0;
}

enum lab_guest lab_guest_read(const char *dir)
{
	char *p = path_join(dir, "guest"), *data = NULL;
	size_t len = 0;
	enum lab_guest g = LAB_GUEST_BUSYBOX;

	if (file_read(p, 64, &data, &len) == 0 && len >= 6 && !strncmp(data, "debian", 6) &&
	    (len == 6 || data[6] == '\n'))
		g = LAB_GUEST_DEBIAN;
	free(data);
	free(p);
	return g;
}

int lab_dir_resolve_guest(enum lab_guest guest, char **ret_dir)
{
	const char *v = getenv("BOOTAB_LAB_DIR");
	const char *name = guest == LAB_GUEST_DEBIAN ? "lab-debian" : "lab";

	if (v && *v) {
		*ret_dir = xstrdup(v);
		return 0;
	}
	v = getenv("XDG_CACHE_HOME");
	if (v && *v) {
		*ret_dir = xasprintf("%s/bootab/%s", v, name);
		return 0;
	}
	v = getenv("HOME");
	if (v && *v) {
		*ret_dir = xasprintf("%s/.cache/bootab/%s", v, name);
		return 0;
	}
	return -ENOENT;
}

int lab_dir_resolve(char **ret_dir)
{
	return lab_dir_resolve_guest(LAB_GUEST_BUSYBOX, ret_dir);
}

static bool is_regular_file(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

int lab_builder_find(const char *exe, char **ret_path)
{
	static const char *const relative[] = {
		"../lab/build.sh", "lab/build.sh", "../share/bootab/lab/build.sh", NULL,
	};
	const char *source = getenv("BOOTAB_LAB_SOURCE");
	char resolved[PATH_MAX], *slash;

	if (source && *source) {
		char *p = path_join(source, "build.sh");

		if (!is_regular_file(p)) {
			free(p);
			return -ENOENT;
		}
		*ret_path = p;
		return 0;
	}
	if (!realpath(exe ? exe : "/proc/self/exe", resolved))
		return -errno;
	slash = strrchr(resolved, '/');
	if (!slash)
		return -ENOENT;
	*slash = '\0';
	for (size_t i = 0; relative[i]; i++) {
		char *p = path_join(resolved, relative[i]), canonical[PATH_MAX];

		if (is_regular_file(p) && realpath(p, canonical)) {
			free(p);
			*ret_path = xstrdup(canonical);
			return 0;
		}
		free(p);
	}
	return -ENOENT;
}

/* The script next to the builder: build-debian.sh, box.sh. */
static char *sibling_script(const char *builder, const char *name)
{
	const char *slash = strrchr(builder, '/');

	return slash ? xasprintf("%.*s/%s", (int)(slash - builder), builder, name) : xstrdup(name);
}

/*
 * Runs bash script [--force] in this process group with our environment,
 * but for the BOOTAB_LAB_* variables, which come from extra (NULL-ended
 * "NAME=VALUE" strings).
 */
static int run_lab_script(const char *script, bool force, const char *const *extra, int *ret_exit)
{
	const char *argv[] = { "bash", script, force ? "--force" : NULL, NULL };
	const char **envp;
	size_t n = 0, k = 0, m = 0;
	pid_t pid;
	int status, r;

	while (environ[n])
		n++;
	while (extra[m])
		m++;
	envp = xcalloc(n + m + 1, sizeof(*envp));
	for (size_t i = 0; i < n; i++)
		if (strncmp(environ[i], "BOOTAB_LAB_DIR=", 15) && strncmp(environ[i], "BOOTAB_LAB_BOOTAB=", 18) &&
		    strncmp(environ[i], "BOOTAB_LAB_BOX", 14) && strncmp(environ[i], "BOOTAB_LAB_RUNNING=", 19))
			envp[k++] = environ[i];
	for (size_t i = 0; i < m; i++)
		envp[k++] = extra[i];
	envp[k] = NULL;
	/* posix_spawn keeps the child in our process group: Ctrl-C ends both. */
	r = posix_spawnp(&pid, "bash", NULL, NULL, (char *const *)argv, (char *const *)envp);
	free(envp);
	if (r)
		return -r;
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -errno;
	if (WIFEXITED(status))
		*ret_exit = WEXITSTATUS(status);
	else
		*ret_exit = 128 + WTERMSIG(status);
	return 0;
}

int lab_build(const char *dir, const char *builder, enum lab_guest guest, bool force, int *ret_exit)
{
	char *script = guest == LAB_GUEST_DEBIAN ? sibling_script(builder, "build-debian.sh") : xstrdup(builder);
	char *lab = xasprintf("BOOTAB_LAB_DIR=%s", dir), *self = NULL, exe[PATH_MAX];
	const char *extra[3] = { lab, NULL, NULL };
	int r;

	/* The Debian guest carries this very binary (target = local inside it). */
	if (realpath("/proc/self/exe", exe)) {
		self = xasprintf("BOOTAB_LAB_BOOTAB=%s", exe);
		extra[1] = self;
	}
	r = run_lab_script(script, force, extra, ret_exit);
	free(self);
	free(lab);
	free(script);
	return r;
}

bool lab_box_name_valid(const char *name)
{
	size_t n = strlen(name);

	if (n == 0 || n > LAB_BOX_NAME_MAX || name[0] == '-')
		return false;
	for (size_t i = 0; i < n; i++)
		if (!((name[i] >= 'a' && name[i] <= 'z') || (name[i] >= '0' && name[i] <= '9') || name[i] == '-'))
			return false;
	return true;
}

char *lab_box_dir(const char *lab_dir, const char *name)
{
	return xasprintf("%s/boxes/%s", lab_dir, name);
}

int lab_box_make(const char *lab_dir, const char *name, const char *builder, bool force, int *ret_exit)
{
	char *script = sibling_script(builder, "box.sh"), *box = lab_box_dir(lab_dir, name);
	char *lab = xasprintf("BOOTAB_LAB_DIR=%s", lab_dir), *box_env = xasprintf("BOOTAB_LAB_BOX=%s", box);
	char *name_env = xasprintf("BOOTAB_LAB_BOX_NAME=%s", name);
	struct lab_status st;
	const char *extra[5] = { lab, box_env, name_env, NULL, NULL };
	int r;

	lab_status_read(lab_dir, &st);
	if (st.running)
		extra[3] = "BOOTAB_LAB_RUNNING=1";
	r = run_lab_script(script, force, extra, ret_exit);
	free(name_env);
	free(box_env);
	free(lab);
	free(box);
	free(script);
	return r;
}

bool lab_is_built(const char *dir)
{
	const char *const *files = lab_guest_read(dir) == LAB_GUEST_DEBIAN ? built_files_debian : built_files;

	for (size_t i = 0; files[i]; i++) {
		char *p = path_join(dir, files[i]);
		bool ok = path_exists(p);

		free(p);
		if (!ok)
			return false;
	}
	return true;
}
