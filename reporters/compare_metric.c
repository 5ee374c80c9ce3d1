/* compare_metric: one metric, A against B (see compare_metric.h). */
#include "compare_metric.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"
#include "stats_ci.h"
#include "stats_test.h"

static size_t finite_count(const double *v, size_t n)
{
	size_t m = 0;
	for (size_t i = 0; i < n; i++)
		m += isfinite(v[i]) != 0;
	return m;
}

/* "slower" by how much, from the ratio (see struct cmp_metric). */
static void set_worse(struct cmp_metric *m)
{
	m->worse = 0;
	/* A's median 0 (a latency of 0 that grew): no ratio, yet a significant
	 * regression; worse without bound, so any threshold fails it. */
	if (m->verdict == CMP_SLOWER)
		m->worse = !isfinite(m->ratio) ? INFINITY : m->dir > 0 ? 1 - m->ratio : m->ratio - 1;
	if (m->worse < 0)
		m->worse = 0;
}

static double geo_mean(const double *v, size_t n)
{
	double s = 0;
	size_t k = 0;
	for (size_t i = 0; i < n; i++)
		if (isfinite(v[i]) && v[i] > 0) {
			s += log(v[i]);
			k++;
		}
	return k ? exp(s / (double)k) : NAN;
}

/* The verdict of a significant difference: which way the medians moved
 * (the means when the medians are equal). */
static enum cmp_verdict moved(const struct cmp_metric *m, const double *a, size_t na, const double *b,
                              size_t nb)
{
	double up = m->med_b - m->med_a;
	if (up == 0) {
		struct stats sa, sb;
		stats_compute(a, na, &sa);
		stats_compute(b, nb, &sb);
		up = sb.mean - sa.mean;
	}
	if (up == 0)
		return CMP_SAME;
	if (m->dir == 0)
		return up > 0 ? CMP_HIGHER : CMP_LOWER;
	return (up > 0) == (m->dir > 0) ? CMP_FASTER : CMP_SLOWER;
}

void cmp_metric_compute(const double *a, size_t na, const double *b, size_t nb, const char *unit,
                        double alpha, struct cmp_metric *out)
{
	struct stats_test t;
	memset(out, 0, sizeof(*out));
	out->na = finite_count(a, na);
	out->nb = finite_count(b, nb);
	out->med_a = stats_median(a, na);
	out->med_b = stats_median(b, nb);
	out->dir = stats_unit_direction(unit ? unit : "");
	out->p = NAN;
	stats_median_ratio_ci(a, na, b, nb, STATS_CI_LEVEL, STATS_BOOT_SEED, STATS_BOOT_RESAMPLES,
	                      &out->ratio, &out->lo, &out->hi);
	if (out->na >= CMP_MW_MIN_N && out->nb >= CMP_MW_MIN_N &&
	    stats_mann_whitney(a, na, b, nb, STATS_MW_AUTO, &t)) {
		out->test = CMP_TEST_MW;
		out->p = t.p;
	} else if (stats_welch(a, na, b, nb, &t)) {
		out->test = CMP_TEST_WELCH;
		out->p = t.p;
	}
	if (out->test == CMP_TEST_NONE)
		out->verdict = CMP_UNTESTED;
	else if (out->p < alpha)
		out->verdict = moved(out, a, na, b, nb);
	else
		out->verdict = CMP_SAME;
	out->noise = CMP_NOISE_WITHIN;
	out->runs_a = out->runs_b = 1;
	out->df = NAN;
	set_worse(out);
}

void cmp_metric_between(struct cmp_metric *m, const double *ra, size_t ka, const double *rb, size_t kb,
                        const struct stats_group *hist, size_t nh, double alpha)
{
	struct stats_runs_test t;
	size_t nhist = 0;
	bool store = nh > 0;
	m->runs_a = ka;
	m->runs_b = kb;
	for (size_t i = 0; i < nh; i++) {
		store &= hist[i].n >= CMP_HIST_MIN;
		nhist += hist[i].n;
	}
	if (!store && !(ka >= 2 && kb >= 2))
		return;
	if (!stats_runs_log_t(ra, ka, rb, kb, store ? hist : NULL, store ? nh : 0, STATS_CI_LEVEL, &t))
		return; /* a value <= 0: no log scale, the within-run judgement stays */
	m->noise = store ? CMP_NOISE_STORE : CMP_NOISE_RUNS;
	m->nhist = store ? nhist : 0;
	m->df = t.df;
	m->test = CMP_TEST_RUNS;
	m->p = t.p;
	m->ratio = t.ratio;
	m->lo = t.lo;
	m->hi = t.hi;
	if (ka > 1 || kb > 1) {
		m->med_a = geo_mean(ra, ka);
		m->med_b = geo_mean(rb, kb);
	}
	if (!(m->p < alpha) || t.ratio == 1)
		m->verdict = CMP_SAME;
	else if (m->dir == 0)
		m->verdict = t.ratio > 1 ? CMP_HIGHER : CMP_LOWER;
	else
		m->verdict = (t.ratio > 1) == (m->dir > 0) ? CMP_FASTER : CMP_SLOWER;
	set_worse(m);
}

const char *cmp_verdict_name(enum cmp_verdict v)
{
	switch (v) {
	case CMP_FASTER: return "faster";
	case CMP_SLOWER: return "slower";
	case CMP_HIGHER: return "higher";
	case CMP_LOWER: return "lower";
	case CMP_UNTESTED: return "too few repetitions";
	case CMP_SAME: break;
	}
	return "no significant difference";
}

const char *cmp_test_name(enum cmp_test t)
{
	return t == CMP_TEST_MW ? "U" : t == CMP_TEST_WELCH ? "Welch" : t == CMP_TEST_RUNS ? "t" : "-";
}

bool cmp_metric_fails(const struct cmp_metric *m, double threshold)
{
	return m->verdict == CMP_SLOWER && m->worse > threshold;
}

bool cmp_metric_gates(const struct cmp_metric *m, double threshold, bool trust_within)
{
	return cmp_metric_fails(m, threshold) && (m->noise != CMP_NOISE_WITHIN || trust_within);
}

bool cmp_metric_gate_judged(const struct cmp_metric *m, bool trust_within)
{
	return m->dir != 0 && m->test != CMP_TEST_NONE && isfinite(m->p) &&
	       (m->noise != CMP_NOISE_WITHIN || trust_within);
}

size_t cmp_holm(const double *p, size_t n, double alpha, bool *reject)
{
	for (size_t i = 0; i < n; i++)
		reject[i] = false;
	/* step down from the smallest p; n is a table's rows, so a selection
	 * of the next smallest each time is enough */
	for (size_t k = 0; k < n; k++) {
		size_t best = n;
		for (size_t i = 0; i < n; i++)
			if (!reject[i] && (best == n || p[i] < p[best]))
				best = i;
		if (!(p[best] < alpha / (double)(n - k)))
			return k;
		reject[best] = true;
	}
	return n;
}

bool cmp_parse_percent(const char *s, double *out)
{
	char *end;
	if (!s || !*s)
		return false;
	double v = strtod(s, &end);
	if (end == s || !isfinite(v) || v < 0)
		return false;
	if (*end == '%')
		end++;
	if (*end)
		return false;
	*out = v / 100;
	return true;
}

void compare_opts_init(struct compare_opts *o)
{
	o->alpha = 0.05;
	o->all = false;
	o->fail_above = NAN;
	o->by = NULL;
	o->trust_within = false;
	o->window = 5;
	o->history = NULL;
	o->html = NULL;
}
