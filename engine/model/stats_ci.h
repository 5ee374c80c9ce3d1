/* stats_ci: confidence and prediction intervals over the repeats of a metric.
 *
 * - Mean: mean ± t(1-(1-level)/2, n-1) * s / sqrt(n), Student's t with the
 *   sample standard deviation (n-1); needs n >= 2 finite samples.
 * - Prediction interval of the next value: mean ± t * s * sqrt(1 + 1/n);
 *   needs n >= 2. This is the range a new run of the same cell should fall
 *   in, wider than the interval of the mean (history uses it).
 * - Median: percentile bootstrap. `resamples` times, draw n samples with
 *   replacement (splitmix64 seeded with `seed`, so the same input and seed
 *   give the same interval on every machine), take each resample's median;
 *   the interval is the (1-level)/2 and 1-(1-level)/2 quantiles (linear
 *   interpolation) of those medians. Needs n >= 5: with fewer samples the
 *   resampled medians take only a handful of values and the interval says
 *   nothing. cell_summary uses STATS_BOOT_RESAMPLES and STATS_BOOT_SEED.
 * - Ratio of medians b/a with a bootstrap interval: a and b are resampled
 *   independently (n >= 5 each), same percentile method.
 * NaN and infinite samples are ignored everywhere. Every function returns
 * false (outputs NaN) when there are too few samples or memory runs out. */
#ifndef BENCHGRID_STATS_CI_H
#define BENCHGRID_STATS_CI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define STATS_CI_LEVEL       0.95
#define STATS_BOOT_RESAMPLES 2000
#define STATS_BOOT_SEED      UINT64_C(0x62656e6368677264) /* "benchgrd" */
#define STATS_BOOT_MIN_N     5

/* Student's t distribution with df degrees of freedom (df > 0; df = INFINITY
 * or above 1e7 is the standard normal): the CDF and its inverse. */
double stats_t_cdf(double t, double df);
double stats_t_quantile(double p, double df);
/* Standard normal CDF and inverse. */
double stats_normal_cdf(double z);
double stats_normal_quantile(double p);

/* Half-width of the level (e.g. 0.95) confidence interval of the mean. */
bool stats_mean_ci(const double *v, size_t n, double level, double *half);
/* Interval for the next value drawn from the same distribution. */
bool stats_prediction_interval(const double *v, size_t n, double level, double *lo, double *hi);
/* Percentile bootstrap interval of the median. */
bool stats_median_ci_bootstrap(const double *v, size_t n, double level, uint64_t seed, int resamples,
                               double *lo, double *hi);
/* median(b) / median(a) and its percentile bootstrap interval. The ratio is
 * set whenever both medians exist and a's is not 0; the interval needs
 * STATS_BOOT_MIN_N samples on each side. A resample whose median of a is
 * 0 counts as an infinite ratio (a bound may be +-INFINITY); when one is
 * 0/0 there is no interval (false, NaN bounds). */
bool stats_median_ratio_ci(const double *a, size_t na, const double *b, size_t nb, double level,
                           uint64_t seed, int resamples, double *ratio, double *lo, double *hi);

/* The next number of a splitmix64 sequence (state advanced). */
uint64_t stats_rng_next(uint64_t *state);

#endif
