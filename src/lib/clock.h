#ifndef BOOTAB_LIB_CLOCK_H
#define BOOTAB_LIB_CLOCK_H

/*
 * Elapsed time within this process, from CLOCK_MONOTONIC: for timeouts and
 * durations only, never compared across machines or boots.
 */
double clock_now_s(void);
/* Wall-clock seconds since the epoch (CLOCK_REALTIME): for times that span a reboot. */
double clock_wall_s(void);
/* Sleeps s seconds (restarting after signals only if the full time is wanted). */
void clock_sleep_s(double s);

#endif
