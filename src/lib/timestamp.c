#include "lib/timestamp.h"

#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

/* Reads exactly n digits. */
static bool digits(const char **p, int n, int *ret)
{
	int v = 0;

	for (int i = 0; i < n; i++) {
		if (!isdigit((unsigned char)(*p)[i]))
			return false;
		v = v * 10 + ((*p)[i] - '0');
	}
	*p += n;
	*ret = v;
	return true;
}

static bool expect(const char **p, const char *any)
{
	for (; *any; any++)
		if (**p == *any) {
			(*p)++;
			return true;
		}
	return false;
}

int timestamp_parse_rfc3339(const char *s, double *ret)
{
	return timestamp_parse(s, 0, ret);
}

int timestamp_parse(const char *s, unsigned flags, double *ret)
{
	static const int mdays[] = { 31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
	int year, mon, day, hour, min, sec, oh = 0, om = 0, sign = 0;
	double frac = 0, scale = 0.1;
	struct tm tm = { 0 };
	const char *p = s;
	time_t t;

	if (!s || !digits(&p, 4, &year) || !expect(&p, "-") || !digits(&p, 2, &mon) ||
	    !expect(&p, "-") || !digits(&p, 2, &day) || !expect(&p, "Tt ") ||
	    !digits(&p, 2, &hour) || !expect(&p, ":") || !digits(&p, 2, &min) ||
	    !expect(&p, ":") || !digits(&p, 2, &sec))
		return -EINVAL;
	if (*p == '.') {
		p++;
		if (!isdigit((unsigned char)*p))
			return -EINVAL;
		for (; isdigit((unsigned char)*p); p++, scale /= 10)
			frac += (*p - '0') * scale;
	}
	if (expect(&p, "Zz")) {
		sign = 0;
	} else if (*p == '+' || *p == '-') {
		sign = *p++ == '-' ? -1 : 1;
		if (!digits(&p, 2, &oh))
			return -EINVAL;
		if (!((flags & TIMESTAMP_BASIC_OFFSET) && isdigit((unsigned char)*p)) && !expect(&p, ":"))
			return -EINVAL;
		if (!digits(&p, 2, &om) || oh > 23 || om > 59)
			return -EINVAL;
	} else {
		return -EINVAL;
	}
	/* A leap second (60) is accepted as RFC 3339 allows. */
	if ((*p && !((flags & TIMESTAMP_TRAILING) && *p == ' ')) || mon < 1 || mon > 12 || day < 1 || day > mdays[mon - 1] || hour > 23 || min > 59 || sec > 60)
		return -EINVAL;
	/* February 29th only in a leap year (RFC 3339, appendix C). */
	if (mon == 2 && day == 29 && !(year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)))
		return -EINVAL;
	tm.tm_year = year - 1900;
	tm.tm_mon = mon - 1;
	tm.tm_mday = day;
	tm.tm_hour = hour;
	tm.tm_min = min;
	tm.tm_sec = sec;
	/* -1 is also 1969-12-31T23:59:59Z: only errno tells an overflow. */
	errno = 0;
	t = timegm(&tm);
	if (t == (time_t)-1 && errno)
		return -EINVAL;
	*ret = (double)t + frac - sign * (oh * 3600.0 + om * 60.0);
	return 0;
}

int timestamp_format_utc(long long t, char buf[TIMESTAMP_UTC_SIZE])
{
	time_t tt = (time_t)t;
	struct tm tm;
	char text[64];

	buf[0] = '\0';
	if (t < TIMESTAMP_UTC_MIN || t > TIMESTAMP_UTC_MAX || !gmtime_r(&tt, &tm))
		return -ERANGE;
	/* The year in four digits where strftime's %Y would print 999. */
	snprintf(text, sizeof(text), "%04d-%02d-%02dT%02d:%02d:%02dZ", tm.tm_year + 1900, tm.tm_mon + 1,
		 tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec);
	memcpy(buf, text, TIMESTAMP_UTC_SIZE - 1);
	buf[TIMESTAMP_UTC_SIZE - 1] = '\0';
	return 0;
}
