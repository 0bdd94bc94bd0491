#ifndef BOOTAB_RESUME_UNIT_H
#define BOOTAB_RESUME_UNIT_H

/*
 * The systemd unit that continues a campaign run on the box itself
 * (target = local) after each reboot the campaign makes:
 * /etc/systemd/system/bootab-resume.service, enabled by the link
 * /etc/systemd/system/multi-user.target.wants/bootab-resume.service (what
 * `systemctl enable` makes). It names its campaign in X-Bootab-Campaign=,
 * so one box runs one local campaign at a time and only that campaign
 * removes it. Paths are taken inside root (NULL or "/": the running
 * system). systemd.service(5) and systemd.syntax(7) give the syntax used.
 */

#define RESUME_UNIT_NAME "bootab-resume.service"

struct resume_unit {
	const char *const *argv;     /* the command that resumes: bootab run ... --resume DIR */
	const char *campaign_dir;    /* absolute */
	const char *campaign_name;
	const char *const *env;      /* NAME=VALUE the command needs (HOME, XDG_DATA_HOME), NULL-terminated */
};

/*
 * The unit file's text; the caller's. NULL when a word cannot be written
 * in a unit file (a control character, or a relative command path).
 */
char *resume_unit_text(const struct resume_unit *unit);

enum resume_unit_word {
	RESUME_UNIT_EXEC,    /* the program: systemd refuses " and \ in it, and expands no $ */
	RESUME_UNIT_ARG,     /* an argument: $ expands, so $$ */
	RESUME_UNIT_ENV,     /* an Environment= assignment: no $ expansion */
};

/*
 * One word as systemd reads it back unchanged (systemd.service(5),
 * "Command lines"; systemd.unit(5), "Specifiers"): in double quotes, with
 * \ and " escaped, % as %%, and $ as $$ in arguments. NULL when systemd
 * cannot take the word (a control character; " or \ in the program).
 * The caller's.
 */
char *resume_unit_quote(const char *word, enum resume_unit_word kind);

/*
 * The campaign directory the installed unit resumes: 0 and *ret_dir (the
 * caller's), -ENOENT when no unit is installed, -EINVAL when the file there
 * is not bootab's.
 */
int resume_unit_owner(const char *root, char **ret_dir);

/*
 * Writes the unit (atomically) and enables it. -EBUSY when a unit of
 * another campaign is installed (*ret_other names its directory, the
 * caller's); -errno on I/O errors.
 */
int resume_unit_install(const char *root, const struct resume_unit *unit, char **ret_other);

/*
 * Disables and removes the unit if it is campaign_dir's. 0 (also when
 * there is none), -EBUSY when it belongs to another campaign, -errno.
 */
int resume_unit_remove(const char *root, const char *campaign_dir);

#endif
