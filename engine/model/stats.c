/* stats: summary statistics and outlier checks (see stats.h). */
#include "stats.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* Sorted copy of the finite values; *m receives their number. */
static double *sorted_finite(const double *v, size_t n, size_t *m)
{
	double *s = malloc((n ? n : 1) * sizeof(*s));
	size_t k = 0;
	if (!s) {
		*m = 0;
		return NULL;
	}
	for (size_t i = 0; i < n; i++)
		if (isfinite(v[i]))
			s[k++] = v[i];
	qsort(s, k, sizeof(*s), cmp_double);
	*m = k;
	return s;
}

static double quantile_sorted(const double *s, size_t m, double q)
{
	if (m == 0)
		return NAN;
	double pos = q * (double)(m - 1);
	size_t lo = (size_t)floor(pos);
	size_t hi = lo + 1 < m ? lo + 1 : lo;
	return s[lo] + (s[hi] - s[lo]) * (pos - (double)lo);
}

double stats_quantile(const double *v, size_t n, double q)
{
	size_t m;
	double *s = sorted_finite(v, n, &m);
	double r = s ? quantile_sorted(s, m, q) : NAN;
	free(s);
	return r;
}

double stats_median(const double *v, size_t n)
{
	return stats_quantile(v, n, 0.5);
}

void stats_compute(const double *v, size_t n, struct stats *out)
{
	size_t m;
	double *s = sorted_finite(v, n, &m);
	double sum = 0, ss = 0;

	out->n = m;
	if (!s || m == 0) {
		out->mean = out->stddev = out->median = out->min = out->max = out->cv = NAN;
		free(s);
		return;
	}
	for (size_t i = 0; i < m; i++)
		sum += s[i];
	out->mean = sum / (double)m;
	for (size_t i = 0; i < m; i++)
		ss += (s[i] - out->mean) * (s[i] - out->mean);
	out->stddev = m > 1 ? sqrt(ss / (double)(m - 1)) : 0;
	out->median = quantile_sorted(s, m, 0.5);
	out->min = s[0];
	out->max = s[m - 1];
	out->cv = out->mean != 0 ? out->stddev / fabs(out->mean) : 0;
	free(s);
}

double stats_mad(const double *v, size_t n)
{
	size_t m;
	double *s = sorted_finite(v, n, &m);
	if (!s || m == 0) {
		free(s);
		return NAN;
	}
	double med = quantile_sorted(s, m, 0.5);
	for (size_t i = 0; i < m; i++)
		s[i] = fabs(s[i] - med);
	qsort(s, m, sizeof(*s), cmp_double);
	double r = quantile_sorted(s, m, 0.5);
	free(s);
	return r;
}

void stats_modified_z(const double *v, size_t n, double *z)
{
	double med = stats_median(v, n), mad = stats_mad(v, n);
	double scale;

	if (isfinite(mad) && mad > 0) {
		scale = mad / 0.6745;
	} else {
		/* MAD is 0: use the mean absolute deviation (scaled to agree
		 * with a normal distribution) so lone deviants still show. */
		double sum = 0;
		size_t m = 0;
		for (size_t i = 0; i < n; i++)
			if (isfinite(v[i])) {
				sum += fabs(v[i] - med);
				m++;
			}
		scale = m ? 1.253314 * sum / (double)m : 0;
	}
	for (size_t i = 0; i < n; i++)
		z[i] = (scale > 0 && isfinite(v[i])) ? (v[i] - med) / scale : 0;
}

void stats_iqr_fences(const double *v, size_t n, double *lo, double *hi)
{
	double q1 = stats_quantile(v, n, 0.25), q3 = stats_quantile(v, n, 0.75);
	*lo = q1 - 1.5 * (q3 - q1);
	*hi = q3 + 1.5 * (q3 - q1);
}

bool stats_unit_lower_is_better(const char *unit)
{
	static const char *const durations[] = {"s", "ms", "us", "ns", "min", "h", NULL};
	if (!unit)
		return false;
	for (size_t i = 0; durations[i]; i++)
		if (strcmp(unit, durations[i]) == 0)
			return true;
	return false;
}

int stats_unit_direction(const char *unit)
{
	static const char *const rates[] = {"tps", "iops", "IOPS", "qps", "ops", NULL};
	size_t n = unit ? strlen(unit) : 0;
	if (stats_unit_lower_is_better(unit))
		return -1;
	if (n > 2 && strcmp(unit + n - 2, "/s") == 0)
		return 1;
	for (size_t i = 0; n && rates[i]; i++)
		if (strcmp(unit, rates[i]) == 0)
			return 1;
	return 0;
}

bool stats_check(const double *v, size_t n, const char *unit, struct stats_check *out)
{
	memset(out, 0, sizeof(*out));
	size_t finite = 0;
	for (size_t i = 0; i < n; i++)
		finite += isfinite(v[i]) != 0;
	if (finite < 3)
		return false;

	double *z = malloc(n * sizeof(*z));
	if (!z)
		return false;
	stats_modified_z(v, n, z);
	for (size_t i = 0; i < n; i++)
		if (fabs(z[i]) > STATS_ZSCORE_LIMIT) {
			if (out->noutliers++ == 0)
				out->first_outlier = i;
		}
	free(z);

	/* The first run is slower than every other run by a clear margin. */
	int dir = stats_unit_direction(unit);
	if (isfinite(v[0]) && dir != 0) {
		bool lower_better = dir < 0;
		double slowest = NAN;
		for (size_t i = 1; i < n; i++)
			if (isfinite(v[i]) &&
			    (isnan(slowest) || (lower_better ? v[i] > slowest : v[i] < slowest)))
				slowest = v[i];
		if (isfinite(slowest) && slowest != 0) {
			double worse = lower_better ? (v[0] - slowest) / fabs(slowest)
			                            : (slowest - v[0]) / fabs(slowest);
			out->first_slow = worse > STATS_FIRST_SLOW_FRAC;
		}
	}
	return out->noutliers > 0 || out->first_slow;
}

void stats_warning_text(const struct stats_check *c, size_t n, const char *metric, char *buf, size_t len)
{
	int k = snprintf(buf, len, "%s:", metric);
	if (k < 0 || (size_t)k >= len)
		return;
	if (c->noutliers > 0)
		k += snprintf(buf + k, len - (size_t)k,
		              " %zu of %zu samples %s statistical outlier%s (first: sample %zu)",
		              c->noutliers, n, c->noutliers == 1 ? "is a" : "are",
		              c->noutliers == 1 ? "" : "s", c->first_outlier + 1);
	if (k < 0 || (size_t)k >= len)
		return;
	if (c->first_slow)
		k += snprintf(buf + k, len - (size_t)k,
		              "%s the first run was much slower than the rest (cold caches? "
		              "consider `warmup:`)",
		              c->noutliers ? ";" : "");
	else if (c->noutliers)
		k += snprintf(buf + k, len - (size_t)k, " (a busy machine? consider more repeats)");
	if (k >= 0 && (size_t)k < len && c->noutliers == 0 && !c->first_slow)
		buf[0] = '\0';
}
