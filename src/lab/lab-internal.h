#ifndef BOOTAB_LAB_INTERNAL_H
#define BOOTAB_LAB_INTERNAL_H

#include <stdbool.h>
#include <sys/types.h>
#include <time.h>

#include "lab/lab.h"
#include "lib/alloc.h"

/*
 * What the files of the lab share; nothing outside src/lab/ includes this.
 * lab.c runs the guest (QEMU), lab-image.c is the lab's directory and
 * image, lab-ssh.c reaches the guest, lab-console.c reads its serial
 * console, lab-watch.c is the reset watcher beside each QEMU.
 */

static inline long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static inline void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	/* An interrupting signal ends the nap early; callers re-check. */
	nanosleep(&ts, NULL);
}

/* DIR/run/NAME: the files that mean something while QEMU runs. The caller's. */
static inline char *run_path(const char *dir, const char *name)
{
	return xasprintf("%s/run/%s", dir, name);
}

/* Starts the reset watcher for the QEMU just started: detached, no descriptor of ours. */
void lab_watch_start(const char *dir);

/*
 * Whether the serial log grew a LAB_READY_MARKER line past *offset; moves
 * *offset to the last complete line read.
 */
bool lab_serial_marker_seen(const char *dir, off_t *offset);

/*
 * Whether what the console printed past from (the log being size bytes
 * long) shows a stopped boot; sets *ret_halt to its line.
 */
bool lab_console_stopped(const char *log, off_t from, off_t size, char **ret_halt);

#endif
