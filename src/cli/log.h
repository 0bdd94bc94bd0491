#ifndef BOOTAB_CLI_LOG_H
#define BOOTAB_CLI_LOG_H

/*
 * Messages from commands to stderr, prefixed "bootab: ". Only cmd-*.c and
 * main.c use these; code below them returns errors instead.
 */
void log_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* A problem that does not stop the work; the text should end in ", ignoring" where it applies. */
void log_warning(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Progress and information. */
void log_info(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Logs one line at a campaign's level (0 info, 1 warning, 2 error): a say() for campaign_options. */
void log_campaign_line(void *ctx, int level, const char *line);

/* strerror() of a negative errno as returned by library calls. */
const char *errno_string(int negative_errno);

#endif
