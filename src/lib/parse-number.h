#ifndef BOOTAB_LIB_PARSE_NUMBER_H
#define BOOTAB_LIB_PARSE_NUMBER_H

#include <stdbool.h>

/*
 * Checked number parsing: the one place that calls strtol() and strtod().
 * A number starts at s itself (an optional '+' or '-', then a digit; for
 * doubles also '.'): no leading blanks, no "0x" prefix in base 16. Errors
 * are -EINVAL (no number there, or bytes after it for the *_parse forms)
 * and -ERANGE (outside [min, max], or past what a long or a finite double
 * holds); *ret and *ret_end are written only on success.
 */

/* A leading integer in base (10 or 16); *ret_end points after it. */
int number_scan_long(const char *s, int base, long min, long max, long *ret, const char **ret_end);
/* The whole of s as a decimal integer. */
int number_parse_long(const char *s, long min, long max, long *ret);

/* Whether s is one or more decimal digits and nothing else (no sign). */
bool number_is_digits(const char *s);

/* A leading finite number (strtod's syntax; an underflow reads as the tiny value); *ret_end after it. */
int number_scan_double(const char *s, double min, double max, double *ret, const char **ret_end);
/* The whole of s as a finite number. */
int number_parse_double(const char *s, double min, double max, double *ret);

#endif
