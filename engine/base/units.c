/* units: parse and format sizes and durations (see units.h). */
#include "units.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static void set_err(char *err, size_t len, const char *fmt, const char *arg)
{
	if (err && len)
		snprintf(err, len, fmt, arg);
}

/* Split "  12.5kB" into a number (digits and at most one dot) and a suffix.
 * Returns false when there is no number or the number is malformed. */
static bool split_number(const char *s, double *num, const char **suffix, bool *has_dot, char *err,
                         size_t len)
{
	const char *p = s;
	while (isspace((unsigned char)*p))
		p++;
	if (*p == '-') {
		set_err(err, len, "negative value '%s'", s);
		return false;
	}
	if (*p == '+')
		p++;
	const char *start = p;
	int dots = 0, digits = 0;
	while (isdigit((unsigned char)*p) || *p == '.') {
		if (*p == '.')
			dots++;
		else
			digits++;
		p++;
	}
	if (!digits || dots > 1) {
		set_err(err, len, "'%s' is not a number with an optional unit", s);
		return false;
	}
	char buf[64];
	size_t n = (size_t)(p - start);
	if (n >= sizeof(buf)) {
		set_err(err, len, "number too long in '%s'", s);
		return false;
	}
	memcpy(buf, start, n);
	buf[n] = 0;
	*num = strtod(buf, NULL);
	*has_dot = dots > 0;
	while (*p == ' ')
		p++;
	*suffix = p;
	return true;
}

/* Size suffixes, case-insensitive; each is a power of 1024. */
static int size_shift(const char *suf)
{
	static const struct {
		const char *name;
		int shift;
	} tab[] = {
	    {"", 0},    {"b", 0},    {"k", 10}, {"kb", 10}, {"kib", 10}, {"m", 20},
	    {"mb", 20}, {"mib", 20}, {"g", 30}, {"gb", 30}, {"gib", 30}, {"t", 40},
	    {"tb", 40}, {"tib", 40}, {"p", 50}, {"pb", 50}, {"pib", 50},
	};
	size_t n = strlen(suf);
	while (n && isspace((unsigned char)suf[n - 1]))
		n--;
	for (size_t i = 0; i < sizeof(tab) / sizeof(tab[0]); i++)
		if (strlen(tab[i].name) == n && strncasecmp(tab[i].name, suf, n) == 0)
			return tab[i].shift;
	return -1;
}

int units_parse_size(const char *s, uint64_t *out, char *err, size_t errlen)
{
	double num;
	const char *suf;
	bool dot;
	if (!s || !split_number(s, &num, &suf, &dot, err, errlen))
		return -EINVAL;
	int shift = size_shift(suf);
	if (shift < 0) {
		set_err(err, errlen, "unknown size unit '%s' (use k, M, G, T or KiB, MiB, GiB, TiB)", suf);
		return -EINVAL;
	}
	if (!dot) {
		/* Exact integer path: doubles lose precision above 2^53. */
		const char *p = s;
		while (isspace((unsigned char)*p) || *p == '+')
			p++;
		errno = 0;
		unsigned long long v = strtoull(p, NULL, 10);
		if (errno == ERANGE || (shift && v > (UINT64_MAX >> shift))) {
			set_err(err, errlen, "size '%s' is too large", s);
			return -ERANGE;
		}
		*out = (uint64_t)v << shift;
		return 0;
	}
	double bytes = ldexp(num, shift);
	if (bytes >= 18446744073709551616.0) {
		set_err(err, errlen, "size '%s' is too large", s);
		return -ERANGE;
	}
	if (bytes != floor(bytes)) {
		set_err(err, errlen, "size '%s' is not a whole number of bytes", s);
		return -EINVAL;
	}
	*out = (uint64_t)bytes;
	return 0;
}

int units_parse_duration(const char *s, double *secs, char *err, size_t errlen)
{
	static const struct {
		const char *name;
		double mult;
	} tab[] = {
	    {"", 1},      {"s", 1},  {"sec", 1},  {"ns", 1e-9}, {"us", 1e-6},
	    {"ms", 1e-3}, {"m", 60}, {"min", 60}, {"h", 3600},  {"d", 86400},
	};
	double num;
	const char *suf;
	bool dot;
	if (!s || !split_number(s, &num, &suf, &dot, err, errlen))
		return -EINVAL;
	size_t n = strlen(suf);
	while (n && isspace((unsigned char)suf[n - 1]))
		n--;
	for (size_t i = 0; i < sizeof(tab) / sizeof(tab[0]); i++) {
		if (strlen(tab[i].name) == n && strncasecmp(tab[i].name, suf, n) == 0) {
			double v = num * tab[i].mult;
			if (!isfinite(v) || v > 1e12) {
				set_err(err, errlen, "duration '%s' is too large", s);
				return -ERANGE;
			}
			*secs = v;
			return 0;
		}
	}
	set_err(err, errlen, "unknown duration unit '%s' (use us, ms, s, min or h)", suf);
	return -EINVAL;
}

/* A suffix made only of letters (after the number). */
static const char *letter_suffix(const char *s)
{
	const char *p = s;
	while (isspace((unsigned char)*p) || *p == '+')
		p++;
	if (!isdigit((unsigned char)*p) && *p != '.')
		return NULL;
	while (isdigit((unsigned char)*p) || *p == '.')
		p++;
	while (*p == ' ')
		p++;
	if (!*p)
		return NULL;
	for (const char *q = p; *q; q++)
		if (!isalpha((unsigned char)*q))
			return NULL;
	return p;
}

bool units_has_size_suffix(const char *s)
{
	const char *suf = letter_suffix(s);
	uint64_t v;
	return suf && size_shift(suf) >= 0 && units_parse_size(s, &v, NULL, 0) == 0;
}

bool units_has_duration_suffix(const char *s)
{
	const char *suf = letter_suffix(s);
	double v;
	/* "m" alone reads as a size (fio's 1m = 1 MiB); minutes are "min". */
	if (!suf || strcasecmp(suf, "m") == 0)
		return false;
	return units_parse_duration(s, &v, NULL, 0) == 0;
}

bool units_is_int(const char *s, int64_t *out)
{
	if (!s || !*s)
		return false;
	char *end;
	errno = 0;
	long long v = strtoll(s, &end, 10);
	if (errno || *end || end == s || isspace((unsigned char)*s))
		return false;
	if (out)
		*out = v;
	return true;
}

bool units_is_number(const char *s, double *out)
{
	if (!s || !*s || isspace((unsigned char)*s))
		return false;
	/* Only decimal notation as YAML writes it: no hex, inf or nan. */
	for (const char *p = s; *p; p++)
		if (!(isdigit((unsigned char)*p) || strchr("+-.eE", *p)))
			return false;
	char *end;
	errno = 0;
	double v = strtod(s, &end);
	if (errno || *end || end == s)
		return false;
	if (out)
		*out = v;
	return true;
}

void units_format_size(uint64_t bytes, char *buf, size_t len)
{
	static const char *names[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
	int i = 0;
	double v = (double)bytes;
	while (v >= 1024 && i < 5) {
		v /= 1024;
		i++;
	}
	if (i == 0)
		snprintf(buf, len, "%llu B", (unsigned long long)bytes);
	else if (v == floor(v))
		snprintf(buf, len, "%.0f %s", v, names[i]);
	else
		snprintf(buf, len, "%.1f %s", v, names[i]);
}

void units_format_duration(double secs, char *buf, size_t len)
{
	if (secs < 1e-3)
		snprintf(buf, len, "%.0f us", secs * 1e6);
	else if (secs < 1)
		snprintf(buf, len, "%.0f ms", secs * 1e3);
	else if (secs < 120)
		snprintf(buf, len, "%.3g s", secs);
	else if (secs < 7200)
		snprintf(buf, len, "%.1f min", secs / 60);
	else
		snprintf(buf, len, "%.1f h", secs / 3600);
}
