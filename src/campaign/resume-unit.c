#include "campaign/resume-unit.h"

#include <errno.h>
#include <stdio.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/alloc.h"
#include "lib/file.h"
#include "lib/process.h"
#include "lib/strbuf.h"

#define UNIT_DIR "/etc/systemd/system"
#define UNIT_PATH UNIT_DIR "/" RESUME_UNIT_NAME
#define WANTS_DIR UNIT_DIR "/multi-user.target.wants"
#define LINK_PATH WANTS_DIR "/" RESUME_UNIT_NAME
#define OWNER_KEY "X-Bootab-Campaign="
#define UNIT_MAX (64 * 1024)

static bool has_control(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			return true;
	return false;
}

char *resume_unit_quote(const char *word, enum resume_unit_word kind)
{
	struct strbuf sb = STRBUF_INIT;

	if (has_control(word) || (kind == RESUME_UNIT_EXEC && strpbrk(word, "\\\"")))
		return NULL;
	strbuf_addch(&sb, '"');
	for (const char *p = word; *p; p++) {
		switch (*p) {
		case '\\':
		case '"':
			strbuf_addch(&sb, '\\');
			strbuf_addch(&sb, *p);
			break;
		case '%':
			strbuf_addstr(&sb, "%%");
			break;
		case '$':
			strbuf_addstr(&sb, kind == RESUME_UNIT_ARG ? "$$" : "$");
			break;
		default:
			strbuf_addch(&sb, *p);
		}
	}
	strbuf_addch(&sb, '"');
	return strbuf_detach(&sb, NULL);
}

/* A value written as is after KEY=: one line that does not continue. */
static bool plain_value_ok(const char *s)
{
	size_t n = strlen(s);

	return n > 0 && !has_control(s) && s[n - 1] != '\\';
}

char *resume_unit_text(const struct resume_unit *u)
{
	struct strbuf sb = STRBUF_INIT;

	if (!u->argv || !u->argv[0] || u->argv[0][0] != '/' || !u->campaign_dir ||
	    u->campaign_dir[0] != '/' || !plain_value_ok(u->campaign_dir) || !u->campaign_name ||
	    !plain_value_ok(u->campaign_name))
		return NULL;
	strbuf_addf(&sb,
		    "# bootab: continues the campaign in %s after each reboot it makes\n"
		    "# (target = local). bootab removes this unit when the campaign ends;\n"
		    "# to stop the campaign for good: systemctl disable --now " RESUME_UNIT_NAME "\n"
		    "[Unit]\n"
		    "Description=bootab: resume campaign %s\n"
		    "Wants=network-online.target\n"
		    "After=network-online.target time-sync.target\n"
		    OWNER_KEY "%s\n"
		    "\n"
		    "[Service]\n"
		    "Type=exec\n",
		    u->campaign_dir, u->campaign_name, u->campaign_dir);
	for (size_t i = 0; u->env && u->env[i]; i++) {
		char *q = resume_unit_quote(u->env[i], RESUME_UNIT_ENV);

		if (!q || !strchr(u->env[i], '=') || u->env[i][0] == '=') {
			free(q);
			strbuf_release(&sb);
			return NULL;
		}
		strbuf_addf(&sb, "Environment=%s\n", q);
		free(q);
	}
	strbuf_addstr(&sb, "ExecStart=");
	for (size_t i = 0; u->argv[i]; i++) {
		char *q = resume_unit_quote(u->argv[i], i ? RESUME_UNIT_ARG : RESUME_UNIT_EXEC);

		if (!q) {
			strbuf_release(&sb);
			return NULL;
		}
		strbuf_addstr(&sb, i ? " " : "");
		strbuf_addstr(&sb, q);
		free(q);
	}
	/*
	 * KillMode=process: the rows run in their own unit or session and must
	 * not die with bootab; progress goes to the journal (journalctl -u).
	 */
	strbuf_addstr(&sb,
		      "\n"
		      "KillMode=process\n"
		      "StandardOutput=journal\n"
		      "StandardError=journal\n"
		      "\n"
		      "[Install]\n"
		      "WantedBy=multi-user.target\n");
	return strbuf_detach(&sb, NULL);
}

static char *in_root(const char *root, const char *path)
{
	if (!root || !*root || !strcmp(root, "/"))
		return xstrdup(path);
	return xasprintf("%s%s", root, path);
}

int resume_unit_owner(const char *root, char **ret_dir)
{
	char *path = in_root(root, UNIT_PATH), *data = NULL;
	size_t len;
	int r = file_read(path, UNIT_MAX, &data, &len);

	free(path);
	if (r < 0)
		return r;
	r = -EINVAL;
	for (char *line = data; line && *line;) {
		char *nl = strchr(line, '\n');

		if (nl)
			*nl = '\0';
		if (!strncmp(line, OWNER_KEY, strlen(OWNER_KEY)) && line[strlen(OWNER_KEY)] == '/') {
			*ret_dir = xstrdup(line + strlen(OWNER_KEY));
			r = 0;
			break;
		}
		line = nl ? nl + 1 : NULL;
	}
	free(data);
	return r;
}

/* Tells a running systemd that unit files changed; nothing to do in a tree or without systemd. */
static void daemon_reload(const char *root)
{
	static const char *const argv[] = { "systemctl", "daemon-reload", NULL };
	struct process_options po = { .timeout_ms = 60000 };
	struct process_result res;

	if ((root && *root && strcmp(root, "/")) || !path_is_dir("/run/systemd/system"))
		return;
	if (process_run(argv, &po, &res) == 0)
		process_result_release(&res);
}

int resume_unit_install(const char *root, const struct resume_unit *u, char **ret_other)
{
	char *text = resume_unit_text(u), *owner = NULL;
	char *unit_dir = in_root(root, UNIT_DIR), *unit = in_root(root, UNIT_PATH);
	char *wants = in_root(root, WANTS_DIR), *link = in_root(root, LINK_PATH);
	int r;

	if (!text) {
		r = -EINVAL;
		goto out;
	}
	r = resume_unit_owner(root, &owner);
	if (r == 0 && strcmp(owner, u->campaign_dir)) {
		*ret_other = owner;
		owner = NULL;
		r = -EBUSY;
		goto out;
	}
	if (r == -EINVAL) {
		/* A file of that name that is not ours: never overwritten. */
		r = -EEXIST;
		goto out;
	}
	r = dir_create_all(unit_dir, 0755);
	if (r == 0)
		r = file_write_atomic(unit, text, strlen(text), 0644);
	if (r == 0)
		r = dir_create_all(wants, 0755);
	if (r == 0) {
		/* The link systemctl enable makes: absolute, to the unit's path on the box. */
		char *tmp = xasprintf("%s.tmp-bootab", link);

		unlink(tmp);
		if (symlink(UNIT_PATH, tmp) < 0 || rename(tmp, link) < 0) {
			r = -errno;
			unlink(tmp);
		}
		free(tmp);
	}
	if (r == 0)
		daemon_reload(root);
out:
	free(owner);
	free(text);
	free(unit_dir);
	free(unit);
	free(wants);
	free(link);
	return r;
}

int resume_unit_remove(const char *root, const char *campaign_dir)
{
	char *owner = NULL, *unit = in_root(root, UNIT_PATH), *link = in_root(root, LINK_PATH);
	int r = resume_unit_owner(root, &owner);

	if (r == -ENOENT) {
		r = 0;
		goto out;
	}
	if (r == -EINVAL || (r == 0 && strcmp(owner, campaign_dir))) {
		r = -EBUSY;
		goto out;
	}
	if (r < 0)
		goto out;
	if (unlink(link) < 0 && errno != ENOENT) {
		r = -errno;
		goto out;
	}
	if (unlink(unit) < 0 && errno != ENOENT) {
		r = -errno;
		goto out;
	}
	daemon_reload(root);
out:
	free(owner);
	free(unit);
	free(link);
	return r;
}
