#ifndef BOOTAB_LIB_TIMESTAMP_H
#define BOOTAB_LIB_TIMESTAMP_H

/*
 * Parses an RFC 3339 date-time ("2025-03-01T10:42:07Z",
 * "2025-03-01T11:42:07.250+01:00"; a space or lower-case t/z is accepted
 * as RFC 3339 section 5.6 allows) into seconds since the epoch, UTC.
 * Returns 0, or -EINVAL for anything else (*ret untouched).
 */
int timestamp_parse_rfc3339(const char *s, double *ret);

enum {
	TIMESTAMP_BASIC_OFFSET = 1 << 0,   /* also "+0100", as date +%z prints it */
	TIMESTAMP_TRAILING = 1 << 1,       /* a blank and anything after it may follow */
};

/* timestamp_parse_rfc3339() with the TIMESTAMP_* leniencies in flags. */
int timestamp_parse(const char *s, unsigned flags, double *ret);

/* The first and the last second a four-digit year holds: 0000-01-01T00:00:00Z, 9999-12-31T23:59:59Z. */
#define TIMESTAMP_UTC_MIN (-62167219200LL)
#define TIMESTAMP_UTC_MAX 253402300799LL

/* Room for timestamp_format_utc()'s text and its NUL. */
#define TIMESTAMP_UTC_SIZE 21

/*
 * Seconds since the epoch as an RFC 3339 UTC time, "2026-12-03T07:12:33Z",
 * into buf. Returns 0, or -ERANGE for a time outside the four-digit years
 * (TIMESTAMP_UTC_MIN to TIMESTAMP_UTC_MAX; buf is then "").
 */
int timestamp_format_utc(long long t, char buf[TIMESTAMP_UTC_SIZE]);

#endif
