/* compare_metric: one metric of one cell, A's repeats against B's.
 *
 * The figure is the ratio of medians B/A with its 95% percentile bootstrap
 * interval (stats_ci.h: n >= 5 per side). Whether the difference is real:
 * Mann-Whitney U (stats_test.h) when both sides have at least
 * CMP_MW_MIN_N repeats, else Welch's t (n >= 2 per side; flagged, since it
 * assumes normal samples), else no test. The verdict is "faster" /
 * "slower" for metrics with a speed direction (stats_unit_direction: rates
 * higher is faster, durations lower is faster), "higher" / "lower" for
 * others, when p < alpha; else "no significant difference". */
#ifndef BENCHGRID_COMPARE_METRIC_H
#define BENCHGRID_COMPARE_METRIC_H

#include <stdbool.h>
#include <stddef.h>

#define CMP_MW_MIN_N 5

enum cmp_test { CMP_TEST_NONE, CMP_TEST_MW, CMP_TEST_WELCH };
enum cmp_verdict { CMP_SAME, CMP_FASTER, CMP_SLOWER, CMP_HIGHER, CMP_LOWER, CMP_UNTESTED };

struct cmp_metric {
	size_t na, nb;        /* finite samples */
	double med_a, med_b;  /* medians */
	double ratio, lo, hi; /* median(B) / median(A) and its interval (NaN when not known) */
	enum cmp_test test;
	double p; /* two-sided p-value; NaN without a test */
	int dir;  /* +1 higher is better, -1 lower is better, 0 neither */
	enum cmp_verdict verdict;
	/* how much worse B is, as a fraction (0.12 = 12% worse), 0 when not
	 * worse or no direction, INFINITY when slower without a ratio (A's
	 * median 0) */
	double worse;
};

/* Compare the samples a[0..na), b[0..nb) of a metric with unit `unit`. */
void cmp_metric_compute(const double *a, size_t na, const double *b, size_t nb, const char *unit,
                        double alpha, struct cmp_metric *out);
/* "faster", "slower", "higher", "lower", "no significant difference",
 * "too few repetitions". */
const char *cmp_verdict_name(enum cmp_verdict v);
/* "U", "Welch", "-". */
const char *cmp_test_name(enum cmp_test t);
/* Is the difference significant and worse by more than `threshold` (a
 * fraction)? */
bool cmp_metric_fails(const struct cmp_metric *m, double threshold);

/* The options of a comparison (compare.h). */
struct compare_opts {
	double alpha;      /* significance level, default 0.05 */
	bool all;          /* every metric, not only each step's headline ones */
	double fail_above; /* fraction (0.05 = 5%); NaN: no threshold */
	const char *by;    /* the parameter for compare DIR --by */
};
void compare_opts_init(struct compare_opts *o);

/* Parse "5%", "5" (percent) into a fraction; false on bad text. */
bool cmp_parse_percent(const char *s, double *out);

#endif
