/* stats_test: Mann-Whitney U and Welch's t (see stats_test.h). */
#include "stats_test.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"
#include "stats_ci.h"

struct pooled {
	double v;
	int side; /* 0: a, 1: b */
};

static int cmp_pooled(const void *x, const void *y)
{
	double a = ((const struct pooled *)x)->v, b = ((const struct pooled *)y)->v;
	return (a > b) - (a < b);
}

/* Rank sum of side a, the ties term sum(t^3 - t), and the finite counts. */
static bool rank_sums(const double *a, size_t na, const double *b, size_t nb, double *ra, double *ties,
                      size_t *ma, size_t *mb)
{
	struct pooled *p = malloc((na + nb + 1) * sizeof(*p));
	size_t n = 0;
	if (!p)
		return false;
	*ma = *mb = 0;
	for (size_t i = 0; i < na; i++)
		if (isfinite(a[i])) {
			p[n++] = (struct pooled){a[i], 0};
			(*ma)++;
		}
	for (size_t i = 0; i < nb; i++)
		if (isfinite(b[i])) {
			p[n++] = (struct pooled){b[i], 1};
			(*mb)++;
		}
	qsort(p, n, sizeof(*p), cmp_pooled);
	*ra = 0;
	*ties = 0;
	for (size_t i = 0; i < n;) {
		size_t j = i;
		while (j < n && p[j].v == p[i].v)
			j++;
		double t = (double)(j - i), rank = (double)(i + 1 + j) / 2; /* mean of ranks i+1..j */
		for (size_t k = i; k < j; k++)
			if (p[k].side == 0)
				*ra += rank;
		*ties += t * t * t - t;
		i = j;
	}
	free(p);
	return true;
}

/* P(U >= u) under the null for sizes m, n, from the counts f(i, j, k) of
 * arrangements of i and j samples with U = k: the largest value is A's
 * (beating all j of B) or B's, so f(i, j, k) = f(i-1, j, k-j) + f(i, j-1, k).
 * Only additions: the counts stay exact to double precision at 50 per side
 * (the product of Gaussian binomials subtracted, and lost p to
 * cancellation there). Rows of the previous i and the current one. */
static double exact_upper(size_t m, size_t n, double u)
{
	size_t deg = m * n, w = deg + 1;
	double *prev = calloc((n + 1) * w, sizeof(*prev)), *cur = calloc((n + 1) * w, sizeof(*cur));
	double total = 0, upper = 0;
	if (!prev || !cur) {
		free(prev);
		free(cur);
		return NAN;
	}
	for (size_t j = 0; j <= n; j++)
		prev[j * w] = 1; /* i = 0: one arrangement, U = 0 */
	for (size_t i = 1; i <= m; i++) {
		memset(cur, 0, (n + 1) * w * sizeof(*cur));
		cur[0] = 1; /* j = 0 */
		for (size_t j = 1; j <= n; j++)
			for (size_t k = 0; k <= i * j; k++)
				cur[j * w + k] = (k >= j ? prev[j * w + k - j] : 0) + cur[(j - 1) * w + k];
		double *t = prev;
		prev = cur;
		cur = t;
	}
	for (size_t k = 0; k <= deg; k++) {
		total += prev[n * w + k];
		if ((double)k >= u - 1e-9)
			upper += prev[n * w + k];
	}
	free(prev);
	free(cur);
	return upper / total;
}

bool stats_mann_whitney(const double *a, size_t na, const double *b, size_t nb, enum stats_mw_method method,
                        struct stats_test *out)
{
	double ra, ties;
	size_t m, n;
	out->stat = out->df = out->p = NAN;
	out->exact = false;
	if (!rank_sums(a, na, b, nb, &ra, &ties, &m, &n) || m == 0 || n == 0)
		return false;
	double ua = ra - (double)m * (double)(m + 1) / 2, ub = (double)m * (double)n - ua;
	double big = ua > ub ? ua : ub;
	out->stat = ua;
	bool exact = method == STATS_MW_EXACT ||
	             (method == STATS_MW_AUTO && m <= STATS_MW_EXACT_MAX && n <= STATS_MW_EXACT_MAX);
	if (exact && ties > 0) {
		if (method == STATS_MW_EXACT)
			return false;
		exact = false;
	}
	if (exact) {
		out->exact = true;
		out->p = fmax(0.0, fmin(1.0, 2 * exact_upper(m, n, big)));
		return isfinite(out->p);
	}
	double N = (double)(m + n), mu = (double)m * (double)n / 2;
	double var = (double)m * (double)n / 12 * ((N + 1) - (N > 1 ? ties / (N * (N - 1)) : 0));
	if (!(var > 0)) {
		out->p = 1; /* every value equal */
		return true;
	}
	double z = (big - mu - 0.5) / sqrt(var);
	out->p = fmin(1.0, 2 * (1 - stats_normal_cdf(z)));
	return true;
}

bool stats_welch(const double *a, size_t na, const double *b, size_t nb, struct stats_test *out)
{
	struct stats sa, sb;
	out->stat = out->df = out->p = NAN;
	out->exact = false;
	stats_compute(a, na, &sa);
	stats_compute(b, nb, &sb);
	if (sa.n < 2 || sb.n < 2)
		return false;
	double qa = sa.stddev * sa.stddev / (double)sa.n, qb = sb.stddev * sb.stddev / (double)sb.n;
	double se2 = qa + qb;
	if (!(se2 > 0)) {
		out->stat = sb.mean == sa.mean ? 0 : copysign(INFINITY, sb.mean - sa.mean);
		out->p = sb.mean == sa.mean ? 1 : 0;
		return true;
	}
	out->stat = (sb.mean - sa.mean) / sqrt(se2);
	out->df = se2 * se2 / (qa * qa / (double)(sa.n - 1) + qb * qb / (double)(sb.n - 1));
	out->p = fmin(1.0, 2 * (1 - stats_t_cdf(fabs(out->stat), out->df)));
	return true;
}

/* Mean and sum of squared deviations of the logs of v's finite values;
 * false when one is <= 0. */
static bool log_ss(const double *v, size_t n, double *mean, double *ss, size_t *m)
{
	double sum = 0;
	*m = 0;
	*mean = *ss = 0;
	for (size_t i = 0; i < n; i++) {
		if (!isfinite(v[i]))
			continue;
		if (!(v[i] > 0))
			return false;
		sum += log(v[i]);
		(*m)++;
	}
	if (!*m)
		return true;
	*mean = sum / (double)*m;
	for (size_t i = 0; i < n; i++)
		if (isfinite(v[i]))
			*ss += (log(v[i]) - *mean) * (log(v[i]) - *mean);
	return true;
}

bool stats_runs_log_t(const double *a, size_t na, const double *b, size_t nb, const struct stats_group *g,
                      size_t ng, double level, struct stats_runs_test *out)
{
	double ma, mb, ssa, ssb, mg, ssg;
	size_t ka, kb, kg;
	*out = (struct stats_runs_test){
	    .ratio = NAN, .lo = NAN, .hi = NAN, .t = NAN, .df = NAN, .p = NAN, .s = NAN};
	if (!log_ss(a, na, &ma, &ssa, &ka) || !log_ss(b, nb, &mb, &ssb, &kb) || !ka || !kb)
		return false;
	double ss = ssa + ssb, df = (double)(ka - 1) + (double)(kb - 1);
	for (size_t i = 0; i < ng; i++) {
		if (!log_ss(g[i].v, g[i].n, &mg, &ssg, &kg))
			return false;
		if (kg) {
			ss += ssg;
			df += (double)(kg - 1);
			out->ng += kg;
		}
	}
	out->na = ka;
	out->nb = kb;
	if (df < 1)
		return false;
	double d = mb - ma, se = sqrt(ss / df) * sqrt(1.0 / (double)ka + 1.0 / (double)kb);
	out->s = sqrt(ss / df);
	out->df = df;
	out->ratio = exp(d);
	if (!(se > 0)) {
		out->t = d == 0 ? 0 : copysign(INFINITY, d);
		out->p = d == 0 ? 1 : 0;
		out->lo = out->hi = out->ratio;
		return true;
	}
	double q = stats_t_quantile(1 - (1 - level) / 2, df);
	out->t = d / se;
	out->p = fmin(1.0, 2 * (1 - stats_t_cdf(fabs(out->t), df)));
	out->lo = exp(d - q * se);
	out->hi = exp(d + q * se);
	return true;
}
