#include "lib/parse-number.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

static bool digit(char c, int base)
{
	return (c >= '0' && c <= '9') ||
	       (base == 16 && ((c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')));
}

int number_scan_long(const char *s, int base, long min, long max, long *ret, const char **ret_end)
{
	const char *p = s + (*s == '+' || *s == '-');
	char *end;
	long v;

	/* strtol would skip blanks and take a second "0x" in base 16. */
	if (!digit(*p, base) || (base == 16 && p[0] == '0' && (p[1] == 'x' || p[1] == 'X')))
		return -EINVAL;
	errno = 0;
	v = strtol(s, &end, base);
	if (errno == ERANGE || v < min || v > max)
		return -ERANGE;
	*ret = v;
	if (ret_end)
		*ret_end = end;
	return 0;
}

int number_parse_long(const char *s, long min, long max, long *ret)
{
	const char *end;
	long v;
	int r = number_scan_long(s, 10, min, max, &v, &end);

	if (r < 0)
		return r;
	if (*end)
		return -EINVAL;
	*ret = v;
	return 0;
}

int number_scan_double(const char *s, double min, double max, double *ret, const char **ret_end)
{
	const char *p = s + (*s == '+' || *s == '-');
	char *end;
	double v;

	if (!digit(*p, 10) && !(*p == '.' && digit(p[1], 10)))
		return -EINVAL;
	v = strtod(s, &end);
	if (!isfinite(v) || v < min || v > max)
		return -ERANGE;
	*ret = v;
	if (ret_end)
		*ret_end = end;
	return 0;
}

int number_parse_double(const char *s, double min, double max, double *ret)
{
	const char *end;
	double v;
	int r = number_scan_double(s, min, max, &v, &end);

	if (r < 0)
		return r;
	if (*end)
		return -EINVAL;
	*ret = v;
	return 0;
}

bool number_is_digits(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!digit(*s, 10))
			return false;
	return true;
}
