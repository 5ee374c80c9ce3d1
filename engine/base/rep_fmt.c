/* rep_fmt: numbers for people and exact numbers (see rep_fmt.h). */
#include "rep_fmt.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

void rep_fmt_exact(double v, char *buf, size_t len)
{
	if (!isfinite(v)) {
		buf[0] = '\0';
		return;
	}
	/* Whole numbers without an exponent: 400, not 4e+02. */
	if (v == trunc(v) && fabs(v) < 1e15) {
		snprintf(buf, len, "%.0f", v);
		return;
	}
	for (int prec = 1; prec <= 17; prec++) {
		snprintf(buf, len, "%.*g", prec, v);
		if (strtod(buf, NULL) == v)
			return;
	}
}

void rep_fmt_human(double v, char *buf, size_t len)
{
	if (!isfinite(v)) {
		snprintf(buf, len, "-");
		return;
	}
	double a = fabs(v);
	if (a == 0)
		snprintf(buf, len, "0");
	else if (a >= 1e15 || a < 1e-4)
		snprintf(buf, len, "%.3e", v);
	else if (a >= 1000)
		snprintf(buf, len, "%.0f", v);
	else {
		/* 4 significant digits, trailing zeros dropped. */
		int dec = 3 - (int)floor(log10(a));
		snprintf(buf, len, "%.*f", dec < 0 ? 0 : dec, v);
		if (strchr(buf, '.')) {
			char *e = buf + strlen(buf) - 1;
			while (*e == '0')
				*e-- = '\0';
			if (*e == '.')
				*e = '\0';
		}
	}
}

void rep_fmt_quantity(double v, const char *unit, char *buf, size_t len)
{
	static const struct {
		const char *name;
		double secs;
	} times[] = {{"ns", 1e-9}, {"us", 1e-6}, {"ms", 1e-3}, {"s", 1}};
	char num[48];
	size_t nt = sizeof(times) / sizeof(times[0]), k = nt;
	for (size_t i = 0; unit && i < nt; i++)
		if (strcmp(unit, times[i].name) == 0)
			k = i;
	if (k < nt && isfinite(v) && v != 0) {
		double secs = v * times[k].secs;
		size_t best = 0; /* the largest unit in which |v| >= 1 */
		for (size_t i = 0; i < nt; i++)
			if (fabs(secs) / times[i].secs >= 1 - 1e-12)
				best = i;
		v = secs / times[best].secs;
		unit = times[best].name;
	}
	rep_fmt_human(v, num, sizeof(num));
	if (unit && *unit && isfinite(v))
		snprintf(buf, len, "%s %s", num, unit);
	else
		snprintf(buf, len, "%s", num);
}

void rep_fmt_bound(double v, char *buf, size_t len)
{
	if (isinf(v))
		snprintf(buf, len, "%s", v < 0 ? "-inf" : "inf");
	else
		rep_fmt_human(v, buf, len);
}
