/* compare_metric: one metric of one cell, A's repeats against B's.
 *
 * The figure is the ratio of medians B/A with its 95% percentile bootstrap
 * interval (stats_ci.h: n >= 5 per side). Whether the difference is real:
 * Mann-Whitney U (stats_test.h) when both sides have at least
 * CMP_MW_MIN_N repeats, else Welch's t (n >= 2 per side; flagged, since it
 * assumes normal samples), else no test. The verdict is "faster" /
 * "slower" for metrics with a speed direction (stats_unit_direction: rates
 * higher is faster, durations lower is faster), "higher" / "lower" for
 * others, when p < alpha; else "no significant difference".
 *
 * Which noise: repetitions inside one run vary less than runs do (a run
 * shares its machine state, its file system, its warm-up), so the tests
 * above, on the repetitions, understate the noise between two runs and
 * call an unchanged scenario slower. cmp_metric_between replaces them by
 * the between-run test (stats_runs_log_t: each run's median, on a log
 * scale) when a spread between runs is known: from at least CMP_HIST_MIN
 * earlier runs of the cell in the results store, or from several runs on
 * each side; else the judgement stays the within-run one, marked
 * CMP_NOISE_WITHIN, and cmp_metric_gates does not fail a threshold on it
 * unless trusted. */
#ifndef BENCHGRID_COMPARE_METRIC_H
#define BENCHGRID_COMPARE_METRIC_H

#include <stdbool.h>
#include <stddef.h>

#include "stats_test.h"

#define CMP_MW_MIN_N 5
/* Earlier runs of a cell the store needs to give its spread. */
#define CMP_HIST_MIN 3

enum cmp_test { CMP_TEST_NONE, CMP_TEST_MW, CMP_TEST_WELCH, CMP_TEST_RUNS };
/* The noise a judgement was made against. */
enum cmp_noise { CMP_NOISE_WITHIN, CMP_NOISE_STORE, CMP_NOISE_RUNS };
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
	enum cmp_noise noise;
	size_t runs_a, runs_b; /* runs on each side (1 when one folder per side) */
	size_t nhist;          /* earlier runs from the store in the spread */
	double df;             /* degrees of freedom of the between-run spread */
};

/* Compare the samples a[0..na), b[0..nb) of a metric with unit `unit`. */
void cmp_metric_compute(const double *a, size_t na, const double *b, size_t nb, const char *unit,
                        double alpha, struct cmp_metric *out);
/* The between-run judgement: ra[0..ka), rb[0..kb) one value per run of
 * each side (the run's median), hist[0..nh) groups of earlier runs' values
 * of the cells from the store (each group its own cell; a group of fewer
 * than CMP_HIST_MIN runs is not used). When a spread is known (every group
 * used, or ka >= 2 and kb >= 2) and every value is > 0, m's medians (the
 * geometric means of the runs' medians when a side has several), ratio,
 * interval, test, p, verdict and worse become the between-run test's;
 * else m keeps the within-run judgement of cmp_metric_compute. m->noise
 * says which. */
void cmp_metric_between(struct cmp_metric *m, const double *ra, size_t ka, const double *rb, size_t kb,
                        const struct stats_group *hist, size_t nh, double alpha);
/* "faster", "slower", "higher", "lower", "no significant difference",
 * "too few repetitions". */
const char *cmp_verdict_name(enum cmp_verdict v);
/* "U", "Welch", "t" (between runs), "-". */
const char *cmp_test_name(enum cmp_test t);
/* Is the difference significant and worse by more than `threshold` (a
 * fraction)? */
bool cmp_metric_fails(const struct cmp_metric *m, double threshold);
/* Does it fail a --fail-above gate: cmp_metric_fails, and judged against
 * the noise between runs, or trust_within (--trust-within-run-noise)? */
bool cmp_metric_gates(const struct cmp_metric *m, double threshold, bool trust_within);
/* Is m one of the metrics a --fail-above gate judges (one of its family of
 * tests): a speed direction, a p, and judged against the noise between
 * runs or trust_within? */
bool cmp_metric_gate_judged(const struct cmp_metric *m, bool trust_within);
/* Holm-Bonferroni over p[0..n): reject[i] is set when p[i] is rejected at
 * family-wise level alpha (the i-th smallest p against alpha / (n - i),
 * stopping at the first that is not). Returns the number rejected. */
size_t cmp_holm(const double *p, size_t n, double alpha, bool *reject);

struct cmp_html; /* compare_html.h */

/* The options of a comparison (compare.h). */
struct compare_opts {
	double alpha;                      /* significance level, default 0.05 */
	bool all;                          /* every metric, not only each step's headline ones */
	double fail_above;                 /* fraction (0.05 = 5%); NaN: no threshold */
	const char *by;                    /* the parameter for compare DIR --by */
	bool trust_within;                 /* --trust-within-run-noise: gate on within-run noise too */
	size_t window;                     /* at most this many earlier runs from the store (default 5) */
	const struct cmp_history *history; /* the results store, or NULL */
	struct cmp_html *html;             /* compare.html's rows are kept here, or NULL */
};

/* The earlier runs of one cell, for its between-run spread. */
struct cmp_hist_key {
	const char *scenario, *cell_id, *host, *step, *metric;
	/* the cell's fact `fingerprint` (its resolved target, settings and
	 * steps): runs of another configuration under the same name and cell
	 * (a -D that throttled the device) are not its noise; NULL: any */
	const char *fingerprint;
	double before;           /* runs started before this (unix seconds) */
	const char *const *skip; /* run ids left out: the runs compared */
	size_t nskip, max;       /* at most max runs, the latest */
};
/* Where earlier runs come from (the cli's results store: reporters do not
 * open it). values: 0 with *v (malloc'd, one value per run: the run's
 * median) and *n, or -1 (the error is the caller's to report: it prints
 * nothing and judges without). where: the store, for the text. */
struct cmp_history {
	int (*values)(void *ctx, const struct cmp_hist_key *k, double **v, size_t *n);
	void *ctx;
	const char *where;
};
void compare_opts_init(struct compare_opts *o);

/* Parse "5%", "5" (percent) into a fraction; false on bad text. */
bool cmp_parse_percent(const char *s, double *out);

#endif
