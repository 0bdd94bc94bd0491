#ifndef BOOTAB_LIB_TIMESTAMP_H
#define BOOTAB_LIB_TIMESTAMP_H

/*
 * Parses an RFC 3339 date-time ("2025-03-01T10:42:07Z",
 * "2025-03-01T11:42:07.250+01:00"; a space or lower-case t/z is accepted
 * as RFC 3339 section 5.6 allows) into seconds since the epoch, UTC.
 * Returns 0, or -EINVAL for anything else (*ret untouched).
 */
int timestamp_parse_rfc3339(const char *s, double *ret);

#endif
