/* stats_ci: confidence and prediction intervals (see stats_ci.h). */
#include "stats_ci.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"

uint64_t stats_rng_next(uint64_t *state)
{
	uint64_t z = (*state += UINT64_C(0x9e3779b97f4a7c15));
	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

/* A uniform index in [0, m): the top 53 bits as a fraction of m. */
static size_t rng_index(uint64_t *state, size_t m)
{
	double u = (double)(stats_rng_next(state) >> 11) * 0x1.0p-53;
	size_t i = (size_t)(u * (double)m);
	return i < m ? i : m - 1;
}

/* Continued fraction of the incomplete beta function, evaluated by the
 * modified Lentz method (converges fast for x < (a+1)/(a+b+2)). */
static double beta_cont_frac(double a, double b, double x)
{
	const double tiny = 1e-300;
	double c = 1, d = 1 - (a + b) * x / (a + 1), h;
	if (fabs(d) < tiny)
		d = tiny;
	d = 1 / d;
	h = d;
	for (int m = 1; m <= 500; m++) {
		double m2 = 2.0 * m;
		double num = m * (b - m) * x / ((a - 1 + m2) * (a + m2));
		d = 1 + num * d;
		c = 1 + num / c;
		d = 1 / (fabs(d) < tiny ? tiny : d);
		c = fabs(c) < tiny ? tiny : c;
		h *= d * c;
		num = -(a + m) * (a + b + m) * x / ((a + m2) * (a + 1 + m2));
		d = 1 + num * d;
		c = 1 + num / c;
		d = 1 / (fabs(d) < tiny ? tiny : d);
		c = fabs(c) < tiny ? tiny : c;
		double step = d * c;
		h *= step;
		if (fabs(step - 1) < 1e-15)
			break;
	}
	return h;
}

/* Regularized incomplete beta I_x(a, b). */
static double inc_beta(double a, double b, double x)
{
	if (x <= 0)
		return 0;
	if (x >= 1)
		return 1;
	double front = exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log1p(-x));
	if (x < (a + 1) / (a + b + 2))
		return front * beta_cont_frac(a, b, x) / a;
	return 1 - front * beta_cont_frac(b, a, 1 - x) / b;
}

static bool is_normal_df(double df)
{
	return !isfinite(df) || df > 1e7;
}

/* P(T > t) for t >= 0: half of I_{df/(df+t^2)}(df/2, 1/2). Kept as the
 * upper tail so that quantiles near 1 keep their precision. */
static double t_upper(double t, double df)
{
	if (is_normal_df(df))
		return 0.5 * erfc(t / sqrt(2.0));
	return 0.5 * inc_beta(df / 2, 0.5, df / (df + t * t));
}

double stats_normal_cdf(double z)
{
	return 0.5 * erfc(-z / sqrt(2.0));
}

double stats_t_cdf(double t, double df)
{
	if (isnan(t) || isnan(df) || df <= 0)
		return NAN;
	double up = t_upper(fabs(t), df);
	return t >= 0 ? 1 - up : up;
}

double stats_t_quantile(double p, double df)
{
	if (isnan(p) || isnan(df) || df <= 0 || p <= 0 || p >= 1)
		return p == 0 ? -INFINITY : p == 1 ? INFINITY : NAN;
	if (p < 0.5)
		return -stats_t_quantile(1 - p, df);
	if (p == 0.5)
		return 0;
	/* Bisection on the upper tail: t_upper falls from 0.5 at 0 to 0. */
	double tail = 1 - p, lo = 0, hi = 1;
	while (t_upper(hi, df) > tail && hi < 1e300)
		hi *= 2;
	for (int i = 0; i < 400 && hi - lo > 1e-13 * hi; i++) {
		double mid = 0.5 * (lo + hi);
		if (t_upper(mid, df) > tail)
			lo = mid;
		else
			hi = mid;
	}
	return 0.5 * (lo + hi);
}

double stats_normal_quantile(double p)
{
	return stats_t_quantile(p, INFINITY);
}

/* Mean and sample standard deviation of the finite values; false below 2. */
static bool mean_sd(const double *v, size_t n, double *mean, double *sd, size_t *m)
{
	struct stats st;
	stats_compute(v, n, &st);
	*m = st.n;
	*mean = st.mean;
	*sd = st.stddev;
	return st.n >= 2;
}

bool stats_mean_ci(const double *v, size_t n, double level, double *half)
{
	double mean, sd;
	size_t m;
	*half = NAN;
	if (!mean_sd(v, n, &mean, &sd, &m) || !(level > 0 && level < 1))
		return false;
	*half = stats_t_quantile(1 - (1 - level) / 2, (double)(m - 1)) * sd / sqrt((double)m);
	return true;
}

bool stats_prediction_interval(const double *v, size_t n, double level, double *lo, double *hi)
{
	double mean, sd;
	size_t m;
	*lo = *hi = NAN;
	if (!mean_sd(v, n, &mean, &sd, &m) || !(level > 0 && level < 1))
		return false;
	double w = stats_t_quantile(1 - (1 - level) / 2, (double)(m - 1)) * sd * sqrt(1 + 1.0 / (double)m);
	*lo = mean - w;
	*hi = mean + w;
	return true;
}

/* The finite values of v, copied; *m their number. */
static double *finite_copy(const double *v, size_t n, size_t *m)
{
	double *x = malloc((n ? n : 1) * sizeof(*x));
	*m = 0;
	if (!x)
		return NULL;
	for (size_t i = 0; i < n; i++)
		if (isfinite(v[i]))
			x[(*m)++] = v[i];
	return x;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* The k-th smallest (0-based) of a resample given as counts over the
 * sorted values x; *pos and *cum carry the walk between calls with a
 * growing k. */
static double kth(const double *x, const size_t *cnt, size_t k, size_t *pos, size_t *cum)
{
	while (*cum + cnt[*pos] <= k)
		*cum += cnt[(*pos)++];
	return x[*pos];
}

/* The median of one resample of the sorted x[0..m): the draws are counted
 * per value (cnt[0..m)), so the median is a walk over the counts, with no
 * sort and no allocation (results.json recomputes every cell's intervals
 * at each write). */
static double resample_median(const double *x, size_t m, size_t *cnt, uint64_t *rng)
{
	size_t pos = 0, cum = 0;
	memset(cnt, 0, m * sizeof(*cnt));
	for (size_t i = 0; i < m; i++)
		cnt[rng_index(rng, m)]++;
	if (m % 2)
		return kth(x, cnt, m / 2, &pos, &cum);
	double lo = kth(x, cnt, m / 2 - 1, &pos, &cum);
	return (lo + kth(x, cnt, m / 2, &pos, &cum)) / 2;
}

/* The (1-level)/2 and 1-(1-level)/2 quantiles of v[0..n) (NaNs left out,
 * infinities kept; sorted in place once), linear interpolation as stats_quantile. */
static bool percentile_bounds(double *v, size_t n, double level, double *lo, double *hi)
{
	size_t m = 0;
	for (size_t i = 0; i < n; i++)
		if (!isnan(v[i]))
			v[m++] = v[i];
	if (m == 0)
		return false;
	qsort(v, m, sizeof(*v), cmp_double);
	double q[2] = {(1 - level) / 2, 1 - (1 - level) / 2}, out[2];
	for (int k = 0; k < 2; k++) {
		double p = q[k] * (double)(m - 1);
		size_t i = (size_t)floor(p), j = i + 1 < m ? i + 1 : i;
		/* an infinite bound stays infinite (and inf - inf is no NaN) */
		out[k] = v[i] == v[j] || p == (double)i ? v[i] : v[i] + (v[j] - v[i]) * (p - (double)i);
	}
	*lo = out[0];
	*hi = out[1];
	return true;
}

static bool all_equal(const double *x, size_t m)
{
	for (size_t i = 1; i < m; i++)
		if (x[i] != x[0])
			return false;
	return true;
}

bool stats_median_ci_bootstrap(const double *v, size_t n, double level, uint64_t seed, int resamples,
                               double *lo, double *hi)
{
	size_t m;
	double *x = finite_copy(v, n, &m);
	size_t *cnt = malloc((n ? n : 1) * sizeof(*cnt));
	double *meds = resamples > 0 ? malloc((size_t)resamples * sizeof(*meds)) : NULL;
	bool ok = x && cnt && meds && m >= STATS_BOOT_MIN_N && level > 0 && level < 1;
	if (ok)
		qsort(x, m, sizeof(*x), cmp_double);
	*lo = *hi = NAN;
	if (ok && all_equal(x, m)) {
		*lo = *hi = x[0]; /* every resample is the same: skip the work */
	} else if (ok) {
		uint64_t rng = seed;
		for (int r = 0; r < resamples; r++)
			meds[r] = resample_median(x, m, cnt, &rng);
		percentile_bounds(meds, (size_t)resamples, level, lo, hi);
	}
	free(x);
	free(cnt);
	free(meds);
	return ok;
}

bool stats_median_ratio_ci(const double *a, size_t na, const double *b, size_t nb, double level,
                           uint64_t seed, int resamples, double *ratio, double *lo, double *hi)
{
	size_t ma, mb;
	double *xa = finite_copy(a, na, &ma), *xb = finite_copy(b, nb, &mb);
	size_t *cnt = malloc((na + nb + 1) * sizeof(*cnt));
	double *rs = resamples > 0 ? malloc((size_t)resamples * sizeof(*rs)) : NULL;
	bool ok = false, undefined = false;
	*ratio = *lo = *hi = NAN;
	if (xa && xb && cnt && ma && mb) {
		qsort(xa, ma, sizeof(*xa), cmp_double);
		qsort(xb, mb, sizeof(*xb), cmp_double);
		double meda = stats_median(xa, ma), medb = stats_median(xb, mb);
		if (meda != 0)
			*ratio = medb / meda;
	}
	if (rs && isfinite(*ratio) && ma >= STATS_BOOT_MIN_N && mb >= STATS_BOOT_MIN_N && level > 0 &&
	    level < 1) {
		uint64_t rng = seed;
		for (int r = 0; r < resamples; r++) {
			double ra = resample_median(xa, ma, cnt, &rng);
			double rb = resample_median(xb, mb, cnt, &rng);
			/* A resampled median of A of 0: the ratio is without bound
			 * (dropping it would narrow the interval); 0/0 has no value. */
			rs[r] = ra != 0 ? rb / ra : rb > 0 ? INFINITY : rb < 0 ? -INFINITY : NAN;
			undefined |= isnan(rs[r]);
		}
		ok = !undefined && percentile_bounds(rs, (size_t)resamples, level, lo, hi);
		if (!ok)
			*lo = *hi = NAN;
	}
	free(xa);
	free(xb);
	free(cnt);
	free(rs);
	return ok;
}
