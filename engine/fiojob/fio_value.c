/* fio_value: fio's sizes, times and booleans (see fio_value.h). */
#include "fio_value.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* The number part: decimal (with an optional fraction) or 0x hex. Returns
 * the text after it, or NULL. */
static const char *parse_number(const char *s, double *out, bool *is_int, uint64_t *iv)
{
	char *end;
	while (isspace((unsigned char)*s))
		s++;
	if (*s == '-' || *s == '+')
		return NULL;
	errno = 0;
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		*iv = strtoull(s + 2, &end, 16);
		if (end == s + 2 || errno)
			return NULL;
		*is_int = true;
		*out = (double)*iv;
		return end;
	}
	if (!isdigit((unsigned char)*s) && *s != '.')
		return NULL;
	*iv = strtoull(s, &end, 10);
	if (errno)
		return NULL;
	*is_int = *end != '.';
	*out = strtod(s, &end);
	if (end == s)
		return NULL;
	return end;
}

int fio_parse_size(const char *s, unsigned kb_base, uint64_t *out, char *err, size_t errlen)
{
	double v;
	bool is_int;
	uint64_t iv;
	const char *u = parse_number(s, &v, &is_int, &iv);
	if (!u) {
		snprintf(err, errlen, "'%s' is not a size", s);
		return -1;
	}
	char suf[8] = "";
	size_t k = 0;
	for (; *u && !isspace((unsigned char)*u); u++) {
		if (k + 1 >= sizeof(suf)) {
			snprintf(err, errlen, "unknown unit in '%s'", s);
			return -1;
		}
		suf[k++] = (char)tolower((unsigned char)*u);
	}
	suf[k] = 0;
	while (isspace((unsigned char)*u))
		u++;
	if (*u) {
		snprintf(err, errlen, "'%s' is not a size", s);
		return -1;
	}
	/* fio 3.33 swaps the base only for the full "Xib" form: "ki" is "k"
	 * (checked against the fio binary: the HOWTO's "4ki" examples are not
	 * what it does). A trailing 'b' alone means bytes. */
	bool iec = k == 3 && suf[1] == 'i' && suf[2] == 'b';
	if (iec || (k == 2 && (suf[1] == 'i' || suf[1] == 'b')))
		suf[k = 1] = 0;
	if (k == 1 && suf[0] == 'b')
		suf[k = 0] = 0;
	if (k > 1) {
		snprintf(err, errlen, "unknown unit '%s' in '%s'", suf, s);
		return -1;
	}
	unsigned power = 0;
	if (k) {
		const char *p = strchr("kmgtp", suf[0]);
		if (!p || !suf[0]) {
			snprintf(err, errlen, "unknown unit '%s' in '%s'", suf, s);
			return -1;
		}
		power = (unsigned)(p - "kmgtp") + 1;
	}
	/* kb_base=1024: k is 1024 and ki 1000 (fio's compatibility mode);
	 * kb_base=1000: k is 1000 and ki 1024 (SI and IEC). */
	uint64_t base = (kb_base == 1000) == iec ? 1024 : 1000;
	uint64_t mult = 1;
	for (unsigned i = 0; i < power; i++)
		mult *= base;
	if (is_int) {
		if (iv > UINT64_MAX / mult) {
			snprintf(err, errlen, "'%s' is too large", s);
			return -1;
		}
		*out = iv * mult;
		return 0;
	}
	double b = v * (double)mult;
	if (b >= 1.8e19 || b != (double)(uint64_t)b) {
		snprintf(err, errlen, "'%s' is not a whole number of bytes", s);
		return -1;
	}
	*out = (uint64_t)b;
	return 0;
}

int fio_parse_time(const char *s, uint64_t default_us, uint64_t *out_us, char *err, size_t errlen)
{
	double v;
	bool is_int;
	uint64_t iv;
	const char *u = parse_number(s, &v, &is_int, &iv);
	if (!u) {
		snprintf(err, errlen, "'%s' is not a time", s);
		return -1;
	}
	char suf[8] = "";
	size_t k = 0;
	for (; *u && !isspace((unsigned char)*u) && k + 1 < sizeof(suf); u++)
		suf[k++] = (char)tolower((unsigned char)*u);
	suf[k] = 0;
	static const struct {
		const char *name;
		uint64_t us;
	} units[] = {
	    {"d", 86400000000ull}, {"h", 3600000000ull}, {"m", 60000000ull}, {"s", 1000000}, {"sec", 1000000},
	    {"ms", 1000},          {"msec", 1000},       {"us", 1},          {"usec", 1}};
	uint64_t mult = 0;
	if (!k)
		mult = default_us;
	for (size_t i = 0; !mult && i < sizeof(units) / sizeof(units[0]); i++)
		if (!strcmp(suf, units[i].name))
			mult = units[i].us;
	while (isspace((unsigned char)*u))
		u++;
	if (!mult || *u) {
		snprintf(err, errlen, "unknown time unit in '%s' (d, h, m, s, ms, us)", s);
		return -1;
	}
	double t = v * (double)mult;
	if (t >= 1.8e19 || t != (double)(uint64_t)t) {
		snprintf(err, errlen, "'%s' is not a whole number of microseconds", s);
		return -1;
	}
	*out_us = (uint64_t)t;
	return 0;
}

int fio_parse_bool(const char *s, bool *out)
{
	if (!strcmp(s, "1") || !strcmp(s, "0")) {
		*out = s[0] == '1';
		return 0;
	}
	return -1;
}

int fio_parse_uint(const char *s, uint64_t *out)
{
	char *end;
	if (!isdigit((unsigned char)*s))
		return -1;
	errno = 0;
	unsigned long long v = strtoull(s, &end, 0);
	if (errno || *end)
		return -1;
	*out = v;
	return 0;
}

void fio_format_size(uint64_t bytes, char *buf, size_t len)
{
	static const char *const names[] = {"TiB", "GiB", "MiB", "KiB"};
	for (int i = 0; i < 4; i++) {
		uint64_t u = 1ull << (10 * (4 - i));
		if (bytes && bytes % u == 0) {
			snprintf(buf, len, "%" PRIu64 "%s", bytes / u, names[i]);
			return;
		}
	}
	snprintf(buf, len, "%" PRIu64, bytes);
}

void fio_format_time(uint64_t us, char *buf, size_t len)
{
	static const struct {
		const char *name;
		uint64_t us;
	} units[] = {{"h", 3600000000ull}, {"min", 60000000ull}, {"s", 1000000}, {"ms", 1000}};
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (us && us % units[i].us == 0) {
			snprintf(buf, len, "%" PRIu64 "%s", us / units[i].us, units[i].name);
			return;
		}
	snprintf(buf, len, us ? "%" PRIu64 "us" : "%" PRIu64, us);
}
