/* stats_test: is the difference between two sets of repeats real?
 *
 * Mann-Whitney U (Wilcoxon rank-sum), two-sided. Makes no assumption about
 * the shape of the distributions (benchmark samples are often skewed, with
 * one slow outlier), and is what asv and Google Benchmark's compare.py use.
 *   U_a = R_a - n_a (n_a + 1) / 2, R_a the sum of a's ranks in the pooled
 *   samples (tied values share the mean of their ranks).
 *   - exact (STATS_MW_AUTO when there are no ties and both sides have at
 *     most STATS_MW_EXACT_MAX samples): the null distribution of U counted
 *     as the coefficients of the Gaussian binomial [n_a + n_b choose n_a]
 *     in q; p = 2 P(U >= max(U_a, U_b)), at most 1;
 *   - normal approximation (ties, or larger samples): mean n_a n_b / 2,
 *     variance n_a n_b / 12 * ((N + 1) - sum(t^3 - t) / (N (N - 1))) over the
 *     groups of t tied values (the ties correction), with the continuity
 *     correction: z = (max(U_a, U_b) - mean - 0.5) / sd, p = 2 (1 - Phi(z)).
 *   These are the choices of scipy.stats.mannwhitneyu (method "exact" and
 *   "asymptotic" with use_continuity=True).
 * Welch's t, two-sided, for samples too small for a rank test (3 against 3
 * repeats cannot give a rank test p below 0.1, 4 against 4 not below
 * 0.029): unequal variances,
 *   t = (mean_b - mean_a) / sqrt(s_a^2/n_a + s_b^2/n_b), Welch-Satterthwaite
 *   degrees of freedom; it assumes roughly normal samples. Both sides
 *   without spread: p = 0 when the means differ, 1 when equal.
 * Between runs, on a log scale (stats_runs_log_t): each run is one value
 * (its median over its repetitions), and the difference of two sides is
 * judged against the spread between runs, not between repetitions. With
 * L the natural log of the values,
 *   s^2 = (SS_a + SS_b + sum_g SS_g) / df,
 *   df  = (n_a - 1) + (n_b - 1) + sum_g (n_g - 1),
 * each SS the sum of squared deviations of a group's L from the group's own
 * mean: the two sides and extra groups g (the same cell's earlier runs from
 * the results store, whose level does not matter, only their spread);
 *   d = mean L_b - mean L_a, se = s sqrt(1/n_a + 1/n_b), t = d / se,
 * two-sided p from Student's t with df; the ratio exp(d) (the ratio of the
 * sides' geometric means) and its interval exp(d -+ t_q se). With one run
 * on each side and k earlier runs this is d / (s sqrt 2) with k - 1 degrees
 * of freedom; with no group, the pooled two-sample t test of the logs.
 * Non-finite samples are ignored. */
#ifndef BENCHGRID_STATS_TEST_H
#define BENCHGRID_STATS_TEST_H

#include <stdbool.h>
#include <stddef.h>

#define STATS_MW_EXACT_MAX 50

enum stats_mw_method { STATS_MW_AUTO, STATS_MW_EXACT, STATS_MW_NORMAL };

struct stats_test {
	double stat; /* U of a (Mann-Whitney) or t (Welch: positive when b's mean is larger) */
	double df;   /* Welch's degrees of freedom; NaN for Mann-Whitney */
	double p;    /* two-sided p-value */
	bool exact;  /* Mann-Whitney: exact distribution used */
};

/* Needs at least one finite sample per side (exact: no ties allowed, else
 * false). */
bool stats_mann_whitney(const double *a, size_t na, const double *b, size_t nb, enum stats_mw_method method,
                        struct stats_test *out);
/* Needs at least two finite samples per side. */
bool stats_welch(const double *a, size_t na, const double *b, size_t nb, struct stats_test *out);

/* The between-run test of two sides' run values (above). */
struct stats_group {
	const double *v;
	size_t n;
};
struct stats_runs_test {
	double ratio, lo, hi; /* exp(d) and its level interval */
	double t, df, p;      /* t: positive when b is larger */
	double s;             /* the pooled standard deviation of the logs */
	size_t na, nb, ng;    /* finite values of a, b and of the groups */
};
/* Needs n_a, n_b >= 1, df >= 1 and every finite value > 0 (else false,
 * NaN outputs). s = 0: p = 0 when the sides differ, 1 when equal. */
bool stats_runs_log_t(const double *a, size_t na, const double *b, size_t nb, const struct stats_group *g,
                      size_t ng, double level, struct stats_runs_test *out);

#endif
