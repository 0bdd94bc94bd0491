#ifndef BOOTAB_LIB_TTY_H
#define BOOTAB_LIB_TTY_H

/*
 * Reads one line from the controlling terminal (/dev/tty) with echo off,
 * after writing prompt to the terminal (not to stdout or stderr). The
 * terminal's settings are restored, also on error. Returns 0 and the line
 * without its newline (the caller wipes it with explicit_bzero and frees
 * it), -ENOTTY when there is no terminal, -ECANCELED on end of input,
 * -E2BIG past 1023 bytes (what was read is wiped), -EINTR when SIGINT,
 * SIGTERM, SIGHUP or SIGQUIT came during the prompt: the terminal is
 * restored first, then the signal is raised again for the handler that was
 * there before (the default action ends the process, echo back on).
 */
int tty_read_secret(const char *prompt, char **ret_secret);

/*
 * The columns text written to fd may use: when fd is a terminal, COLUMNS
 * (a number from 20 to 1000) or else the terminal's own width; 0 when fd
 * is no terminal or neither is known (the caller's default applies).
 */
unsigned tty_columns(int fd);

#endif
