#include "base/parse.h"
#include "base/util.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

int decimal_prefix(const char *s, double *out, const char **end)
{
	size_t n = 0, digits = 0;
	int dot = 0;
	for (; s && s[n]; n++)
		if (s[n] >= '0' && s[n] <= '9')
			digits++;
		else if (s[n] == '.' && !dot)
			dot = 1;
		else
			break;
	/* converted from a copy: strtod on s itself would read on into
	 * "1e3" or "1.5e-2" */
	char num[64];
	if (!digits || n >= sizeof(num))
		return -1;
	memcpy(num, s, n);
	num[n] = '\0';
	errno = 0;
	double v = strtod(num, NULL);
	if (errno || !isfinite(v))
		return -1;
	*out = v;
	if (end)
		*end = s + n;
	return 0;
}

int decimal_parse(const char *s, double *out)
{
	const char *end;
	double v;
	if (decimal_prefix(s, &v, &end) < 0 || *end)
		return -1;
	*out = v;
	return 0;
}

int parse_whole(const char *s, long *out)
{
	char *end;
	errno = 0;
	long v = strtol(s, &end, 10);
	/* strtol skips blanks and takes '+': -n ' 3' is not a number */
	if (!((*s >= '0' && *s <= '9') || (*s == '-' && s[1] >= '0' && s[1] <= '9')) || errno ||
	    end == s || *end)
		return -1;
	*out = v;
	return 0;
}

int parse_whole_arg(const char *opt, const char *s, long min, long *out, char *err, size_t errlen)
{
	long v;
	if (parse_whole(s, &v) < 0)
		return errf(err, errlen, "%s %s: not a whole number", opt, s);
	if (v < min)
		return errf(err, errlen, "%s %s: must be at least %ld", opt, s, min);
	*out = v;
	return 0;
}

int parse_size(const char *s, uint64_t *out)
{
	/* the number by the options' one rule (decimal_prefix), then a suffix */
	const char *end;
	double v;
	if (!s || decimal_prefix(s, &v, &end) < 0)
		return -1;
	const char *num_end = end;
	double mul = 1;
	switch (*end) {
	case 'k':
	case 'K':
		mul = 1024.0;
		end++;
		break;
	case 'm':
	case 'M':
		mul = 1024.0 * 1024;
		end++;
		break;
	case 'g':
	case 'G':
		mul = 1024.0 * 1024 * 1024;
		end++;
		break;
	case 't':
	case 'T':
		mul = 1024.0 * 1024 * 1024 * 1024;
		end++;
		break;
	default:
		break;
	}
	if ((*end == 'i' || *end == 'I') && mul > 1 && (end[1] == 'B' || end[1] == 'b'))
		end += 2;
	else if ((*end == 'B' || *end == 'b') && mul > 1)
		end++;
	if (*end)
		return -1;
	/* A whole number is counted exactly: a double holds only 53 bits, so
	 * "9007199254740993" would otherwise come back one byte short. */
	if (strspn(s, "0123456789") == (size_t)(num_end - s)) {
		errno = 0;
		unsigned long long n = strtoull(s, NULL, 10);
		uint64_t m = (uint64_t)mul;
		if (errno || (m && n > UINT64_MAX / m))
			return -1;
		*out = (uint64_t)n * m;
		return 0;
	}
	double bytes = v * mul;
	if (bytes >= 18446744073709551615.0 || bytes != floor(bytes))
		return -1;
	*out = (uint64_t)bytes;
	return 0;
}

int parse_size_arg(const char *opt, const char *s, uint64_t *out, char *err, size_t errlen)
{
	uint64_t v;
	if (parse_size(s, &v) < 0)
		return errf(err, errlen, "%s %s: not a size (use e.g. 512M, 4G)", opt, s);
	if (v == 0)
		return errf(err, errlen, "%s %s: must be larger than zero", opt, s);
	*out = v;
	return 0;
}

int parse_interval(const char *s, double *out, char *err, size_t errlen)
{
	double v;
	if (decimal_parse(s, &v) < 0)
		return errf(err, errlen, "-i %s: not a number of seconds", s);
	if (v < INTERVAL_MIN || v > INTERVAL_MAX)
		return errf(err, errlen, "-i %s: interval must be between %.2f and %.0f seconds", s,
			    INTERVAL_MIN, INTERVAL_MAX);
	*out = v;
	return 0;
}

int parse_clock(const char *s, double *out)
{
	double v = 0, x;
	const char *end;
	for (int parts = 1; s; parts++) {
		/* [h:]m:ss: whole hours and minutes, seconds and minutes below 60 */
		if (parts > 3 || decimal_prefix(s, &x, &end) < 0 || (parts > 1 && x >= 60))
			return -1;
		v = v * 60 + x;
		if (!*end) {
			*out = v;
			return 0;
		}
		if (*end != ':' || x != floor(x) || !end[1])
			return -1;
		s = end + 1;
	}
	return -1;
}

int parse_speed(const char *s, double *out)
{
	const char *end;
	double v;
	if (decimal_prefix(s, &v, &end) < 0 || (*end && strcmp(end, "x")) ||
	    !(v >= SPEED_MIN && v <= SPEED_MAX))
		return -1;
	*out = v;
	return 0;
}
