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

#endif
