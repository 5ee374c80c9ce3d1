/* stats: summary statistics over the repeats of one metric.
 *
 * `repeat: N` gives N samples of every metric of a cell; the reports show the
 * mean (the metric's value), the sample standard deviation (n-1), median,
 * min, max, n and the coefficient of variation (stddev / |mean|, 0 when the
 * mean is 0). NaN samples (metric missing in one repeat) are skipped.
 *
 * Like hyperfine, stats_check() warns about suspicious samples:
 *   - outliers by the modified z-score (Iglewicz and Hoaglin):
 *       M_i = 0.6745 * (x_i - median) / MAD,  outlier when |M_i| > 14
 *     (hyperfine's limit: Iglewicz and Hoaglin's 3.5 flags one sample of
 *     almost every triple, since with n = 3 the MAD is the smaller gap);
 *     when the MAD is 0 (more than half the samples equal) the mean absolute
 *     deviation times 1.2533 stands in for it; when that is 0 too, nothing is
 *     an outlier. Needs n >= 3.
 *   - the first sample is much slower than the rest: slower than the
 *     slowest of the others by more than STATS_FIRST_SLOW_FRAC (25%) of
 *     that value (cold caches). Only for speed units (stats_unit_direction):
 *     durations, where higher is slower, and rates (MB/s, tps, iops), where
 *     lower is slower. Needs n >= 3.
 * stats_iqr_fences() gives Tukey's fences (Q1 - 1.5 IQR, Q3 + 1.5 IQR) for
 * callers that want the IQR rule instead. */
#ifndef BENCHGRID_STATS_H
#define BENCHGRID_STATS_H

#include <stdbool.h>
#include <stddef.h>

#define STATS_ZSCORE_LIMIT    14.0
#define STATS_FIRST_SLOW_FRAC 0.25

struct stats {
	size_t n; /* finite samples used */
	double mean, stddev, median, min, max, cv;
};

/* Compute over v[0..n); non-finite values are skipped. With no finite value
 * every field but n is NaN. */
void stats_compute(const double *v, size_t n, struct stats *out);

/* Median of v[0..n) (finite values only); NaN when none. */
double stats_median(const double *v, size_t n);

/* Linear-interpolated quantile q in [0,1] (finite values only). */
double stats_quantile(const double *v, size_t n, double q);

/* Median absolute deviation from the median. */
double stats_mad(const double *v, size_t n);

/* Modified z-score of every sample into z[0..n) (0 when undefined). */
void stats_modified_z(const double *v, size_t n, double *z);

/* Tukey's fences. */
void stats_iqr_fences(const double *v, size_t n, double *lo, double *hi);

struct stats_check {
	size_t noutliers;     /* samples with |modified z| > STATS_ZSCORE_LIMIT */
	size_t first_outlier; /* index of the first of them */
	bool first_slow;      /* first sample much slower than the rest */
};

/* Fill `out` for v[0..n) with the unit deciding what "slower" means. Returns
 * true when there is anything to warn about. */
bool stats_check(const double *v, size_t n, const char *unit, struct stats_check *out);

/* Lower values are better for this unit (durations). */
bool stats_unit_lower_is_better(const char *unit);
/* -1: lower is faster (durations: s, ms, us, ns, min, h); +1: higher is
 * faster (rates: tps, iops, IOPS, qps, anything ending in "/s"); 0: not a
 * speed (%, bytes, counts), so no "first run slower" judgement. */
int stats_unit_direction(const char *unit);

/* One-line warning text for a metric, "" when nothing to say. */
void stats_warning_text(const struct stats_check *c, size_t n, const char *metric, char *buf, size_t len);

#endif
