/* test_stats_ci: Student's t quantiles against table values, the intervals
 * of the mean and of the next value, the seeded bootstrap of the median and
 * of a ratio of medians. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "cell_summary.h"
#include "results_write.h"
#include "stats_ci.h"
#include "stats_test.h"

#define assert_near(a, b, eps) assert_near_(a, b, eps, #a, __LINE__)
static void assert_near_(double a, double b, double eps, const char *what, int line)
{
	if (!(fabs(a - b) <= eps))
		fail_msg("line %d: %s = %.17g, expected %.17g", line, what, a, b);
}

#define N(a) (sizeof(a) / sizeof((a)[0]))

static void test_t_table(void **state)
{
	/* Two-sided 95% critical values from any t table. */
	assert_near(stats_t_quantile(0.975, 1), 12.706, 5e-4);
	assert_near(stats_t_quantile(0.975, 2), 4.303, 5e-4);
	assert_near(stats_t_quantile(0.975, 4), 2.776, 5e-4);
	assert_near(stats_t_quantile(0.975, 10), 2.228, 5e-4);
	assert_near(stats_t_quantile(0.975, 30), 2.042, 5e-4);
	assert_near(stats_t_quantile(0.975, 1e9), 1.960, 5e-4);
	assert_near(stats_t_quantile(0.975, INFINITY), 1.959964, 1e-6);
	/* 99%, 90%, one-sided 95% */
	assert_near(stats_t_quantile(0.995, 5), 4.032, 5e-4);
	assert_near(stats_t_quantile(0.95, 8), 1.860, 5e-4);
	assert_near(stats_t_quantile(0.9995, 1), 636.619, 5e-3);
	/* symmetry, the middle, bad input */
	assert_near(stats_t_quantile(0.025, 4), -stats_t_quantile(0.975, 4), 1e-12);
	assert_near(stats_t_quantile(0.5, 3), 0, 0);
	assert_true(isnan(stats_t_quantile(0.975, 0)));
	assert_true(isnan(stats_t_quantile(NAN, 3)));
	/* the CDF inverts the quantile; df = 1 is Cauchy: 0.5 + atan(t)/pi */
	assert_near(stats_t_cdf(stats_t_quantile(0.9, 7), 7), 0.9, 1e-10);
	assert_near(stats_t_cdf(1.5, 1), 0.5 + atan(1.5) / M_PI, 1e-12);
	assert_near(stats_t_cdf(-1.5, 1), 0.5 - atan(1.5) / M_PI, 1e-12);
	/* df = 2 has a closed form too: 0.5 + t / (2 sqrt(2 + t^2)) */
	assert_near(stats_t_cdf(0.7, 2), 0.5 + 0.7 / (2 * sqrt(2 + 0.49)), 1e-12);
	assert_near(stats_normal_cdf(1.959963984540054), 0.975, 1e-12);
	assert_near(stats_normal_quantile(0.841344746068543), 1.0, 1e-9);
	(void)state;
}

static void test_mean_ci(void **state)
{
	/* mean 5, sample sd sqrt(32/7), n 8, t(0.975, 7) = 2.364624 */
	const double v[] = {2, 4, 4, 4, NAN, 5, 5, 7, 9};
	double half, lo, hi;
	assert_true(stats_mean_ci(v, N(v), 0.95, &half));
	assert_near(half, 2.364624 * sqrt(32.0 / 7.0) / sqrt(8.0), 1e-5);
	assert_true(stats_prediction_interval(v, N(v), 0.95, &lo, &hi));
	assert_near(hi - 5, 2.364624 * sqrt(32.0 / 7.0) * sqrt(1 + 1.0 / 8), 1e-5);
	assert_near(5 - lo, hi - 5, 1e-12);
	/* one finite sample: no interval */
	const double one[] = {3, NAN};
	assert_false(stats_mean_ci(one, N(one), 0.95, &half));
	assert_true(isnan(half));
	assert_false(stats_prediction_interval(one, N(one), 0.95, &lo, &hi));
	assert_true(isnan(lo) && isnan(hi));
	/* identical samples: zero width */
	const double same[] = {7, 7, 7};
	assert_true(stats_mean_ci(same, N(same), 0.95, &half));
	assert_near(half, 0, 0);
	(void)state;
}

static void test_bootstrap_median(void **state)
{
	const double v[] = {10.2, 9.8, 10.5, 10.1, 9.9, 10.0, 10.4, 9.7, 12.0};
	double lo, hi, lo2, hi2;
	assert_true(stats_median_ci_bootstrap(v, N(v), 0.95, 42, 2000, &lo, &hi));
	/* the interval holds the median and stays inside the samples */
	assert_true(lo <= 10.1 && 10.1 <= hi);
	assert_true(lo >= 9.7 && hi <= 12.0);
	assert_true(lo < hi);
	/* the same seed gives the same interval, bit for bit */
	assert_true(stats_median_ci_bootstrap(v, N(v), 0.95, 42, 2000, &lo2, &hi2));
	assert_true(lo == lo2 && hi == hi2);
	/* NaN samples are dropped before resampling: same draws, same interval */
	const double w[] = {10.2, NAN, 9.8, 10.5, 10.1, 9.9, 10.0, NAN, 10.4, 9.7, 12.0};
	assert_true(stats_median_ci_bootstrap(w, N(w), 0.95, 42, 2000, &lo2, &hi2));
	assert_true(lo == lo2 && hi == hi2);
	/* a wider level gives a wider (or equal) interval */
	assert_true(stats_median_ci_bootstrap(v, N(v), 0.99, 42, 2000, &lo2, &hi2));
	assert_true(lo2 <= lo && hi2 >= hi);
	/* fewer than 5 samples: not meaningful */
	assert_false(stats_median_ci_bootstrap(v, 4, 0.95, 42, 2000, &lo, &hi));
	assert_true(isnan(lo) && isnan(hi));
	(void)state;
}

static void test_bootstrap_ratio(void **state)
{
	const double a[] = {100, 101, 99, 100.5, 99.5, 100.2};
	const double b[] = {120, 121, 119, 120.5, 119.5, 120.3};
	double r, lo, hi, r2, lo2, hi2;
	assert_true(stats_median_ratio_ci(a, N(a), b, N(b), 0.95, 7, 2000, &r, &lo, &hi));
	assert_near(r, 120.15 / 100.1, 1e-12);
	assert_true(lo <= r && r <= hi);
	assert_true(lo > 1.17 && hi < 1.23); /* well separated: a tight interval around 1.2 */
	assert_true(stats_median_ratio_ci(a, N(a), b, N(b), 0.95, 7, 2000, &r2, &lo2, &hi2));
	assert_true(r == r2 && lo == lo2 && hi == hi2);
	/* A resample whose median of A is 0 (about a third of them here) has
	 * no finite ratio: the interval is unbounded above, not narrowed to
	 * the finite ones (which were all 1: "1.000-1.000") */
	const double za[] = {0, 0, 1, 1, 1}, ones[] = {1, 1, 1, 1, 1};
	assert_true(stats_median_ratio_ci(za, N(za), ones, N(ones), 0.95, 7, 2000, &r, &lo, &hi));
	assert_near(r, 1, 0);
	assert_near(lo, 1, 0);
	assert_true(isinf(hi) && hi > 0);
	/* 0/0 in a resample: no interval */
	assert_false(stats_median_ratio_ci(za, N(za), za, N(za), 0.95, 7, 2000, &r, &lo, &hi));
	assert_near(r, 1, 0);
	assert_true(isnan(lo) && isnan(hi));
	/* too few samples: the ratio, no interval */
	assert_false(stats_median_ratio_ci(a, 3, b, N(b), 0.95, 7, 2000, &r, &lo, &hi));
	assert_near(r, 120.15 / 100, 1e-12);
	assert_true(isnan(lo) && isnan(hi));
	(void)state;
}

static void test_cell_summary_fields(void **state)
{
	/* a cell of 6 repetitions of one step with one metric */
	struct metric m[6];
	struct step_result sr[6];
	struct run_rep reps[6];
	struct run_cell c;
	memset(&c, 0, sizeof(c));
	for (int i = 0; i < 6; i++) {
		memset(&sr[i], 0, sizeof(sr[i]));
		memset(&reps[i], 0, sizeof(reps[i]));
		m[i] = (struct metric){.name = (char *)"tps", .unit = (char *)"tps", .value = 100 + i};
		sr[i].step = (char *)"s";
		sr[i].m = &m[i];
		sr[i].nm = 1;
		reps[i].steps = &sr[i];
		reps[i].nsteps = 1;
	}
	c.reps = reps;
	c.nreps = 6;
	struct cell_summary *s = run_cell_summarize(&c);
	assert_non_null(s);
	const struct metric_summary *ms = cell_summary_metric(s, "s", "tps");
	assert_non_null(ms);
	double half;
	stats_mean_ci(ms->v, ms->n, 0.95, &half);
	assert_near(ms->ci_half, half, 0);
	assert_true(ms->med_lo <= 102.5 && ms->med_hi >= 102.5);
	cell_summary_free(s);
	/* below 5 repetitions: no median interval; one: no mean interval */
	c.nreps = 4;
	s = run_cell_summarize(&c);
	ms = cell_summary_metric(s, "s", "tps");
	assert_true(isfinite(ms->ci_half) && isnan(ms->med_lo) && isnan(ms->med_hi));
	cell_summary_free(s);
	c.nreps = 1;
	s = run_cell_summarize(&c);
	ms = cell_summary_metric(s, "s", "tps");
	assert_true(isnan(ms->ci_half));
	cell_summary_free(s);
	(void)state;
}

/* The bootstrap of the median is left out where nothing needs it: the
 * runner's rewrites of results.json while a run is going (once per cell,
 * for every cell: quadratic in the cells) and its warnings; the final file
 * and a journal line carry it. */
static json_t *tps_summary(json_t *cell)
{
	json_t *step = json_array_get(json_object_get(cell, "summary"), 0);
	return json_object_get(json_object_get(step, "metrics"), "tps");
}

static void test_median_ci_when_needed(void **state)
{
	struct metric m[6];
	struct step_result sr[6];
	struct run_rep reps[6];
	struct run r;
	run_init(&r);
	struct run_cell *c = calloc(1, sizeof(*c));
	assert_non_null(c);
	run_cell_init(c);
	for (int i = 0; i < 6; i++) {
		memset(&sr[i], 0, sizeof(sr[i]));
		memset(&reps[i], 0, sizeof(reps[i]));
		m[i] = (struct metric){.name = (char *)"tps", .unit = (char *)"tps", .value = 100 + i};
		sr[i].step = (char *)"s";
		sr[i].m = &m[i];
		sr[i].nm = 1;
		reps[i].steps = &sr[i];
		reps[i].nsteps = 1;
	}
	c->reps = reps;
	c->nreps = 6;
	struct cell_summary *s = run_cell_summarize_opt(c, false);
	const struct metric_summary *ms = cell_summary_metric(s, "s", "tps");
	assert_true(isfinite(ms->ci_half) && isnan(ms->med_lo) && isnan(ms->med_hi));
	cell_summary_free(s);
	r.cells = c;
	r.ncells = 1;
	for (int pass = 0; pass < 2; pass++) {
		r.in_progress = pass == 0;
		json_t *o = results_run_json(&r);
		json_t *tps = tps_summary(json_array_get(json_object_get(o, "cells"), 0));
		assert_non_null(json_object_get(tps, "ci_half"));
		if (pass == 0)
			assert_null(json_object_get(tps, "median_lo"));
		else
			assert_non_null(json_object_get(tps, "median_lo"));
		json_decref(o);
	}
	r.in_progress = true;
	json_t *cell = results_cell_json(c); /* a journal line: complete */
	assert_non_null(json_object_get(tps_summary(cell), "median_lo"));
	json_decref(cell);
	(void)state;
	/* The reps are this function's; the rest is freed as a run frees it. */
	c->reps = NULL;
	c->nreps = 0;
	r.cells = NULL;
	r.ncells = 0;
	run_cell_free(c);
	free(c);
	run_free(&r);
}

static void test_mann_whitney(void **state)
{
	struct stats_test t;
	/* scipy.stats.mannwhitneyu's documented example (from Conover):
	 * males vs females, U1 = 17, exact p = 0.1111111111111111 (14 of the
	 * 126 arrangements are as extreme), asymptotic p = 0.11134688653314041. */
	const double males[] = {19, 22, 16, 29, 24}, females[] = {20, 11, 17, 12};
	assert_true(stats_mann_whitney(males, N(males), females, N(females), STATS_MW_AUTO, &t));
	assert_near(t.stat, 17, 0);
	assert_true(t.exact);
	assert_near(t.p, 0.1111111111111111, 1e-12);
	assert_true(stats_mann_whitney(males, N(males), females, N(females), STATS_MW_NORMAL, &t));
	assert_false(t.exact);
	assert_near(t.p, 0.11134688653314041, 1e-12);
	/* swapping the sides gives U2 = 20 - 17 and the same p */
	assert_true(stats_mann_whitney(females, N(females), males, N(males), STATS_MW_AUTO, &t));
	assert_near(t.stat, 3, 0);
	assert_near(t.p, 0.1111111111111111, 1e-12);
	/* completely separated 5 vs 5: 2 of C(10,5) = 252 arrangements */
	const double lo5[] = {1, 2, 3, 4, 5}, hi5[] = {6, 7, 8, 9, 10};
	assert_true(stats_mann_whitney(lo5, 5, hi5, 5, STATS_MW_AUTO, &t));
	assert_near(t.stat, 0, 0);
	assert_near(t.p, 2.0 / 252, 1e-15);
	/* 3 vs 3 can never be below 2 / C(6,3) = 0.1 */
	assert_true(stats_mann_whitney(lo5, 3, hi5, 3, STATS_MW_AUTO, &t));
	assert_near(t.p, 0.1, 1e-15);
	/* ties, worked by hand: pooled 1 2 2 2 3 3 3 4 5, ranks 1, 3 (x3),
	 * 6 (x3), 8, 9; R_a = 1+3+3+6 = 13, U_a = 13 - 10 = 3; ties term
	 * 2 * (27 - 3) = 48; var = 20/12 * (10 - 48/72) = 15.5556;
	 * z = (17 - 10 - 0.5) / 3.944 = 1.64805; p = 0.0993422. */
	const double ta[] = {1, 2, 2, 3}, tb[] = {2, 3, 3, 4, 5};
	assert_true(stats_mann_whitney(ta, N(ta), tb, N(tb), STATS_MW_AUTO, &t));
	assert_false(t.exact);
	assert_near(t.stat, 3, 0);
	assert_near(t.p, 0.0993422, 1e-6);
	assert_false(stats_mann_whitney(ta, N(ta), tb, N(tb), STATS_MW_EXACT, &t));
	/* all equal: no evidence at all */
	const double same[] = {4, 4, 4, 4, 4};
	assert_true(stats_mann_whitney(same, 5, same, 5, STATS_MW_AUTO, &t));
	assert_near(t.p, 1, 0);
	/* exact and normal agree for larger samples without ties */
	double x[30], y[30];
	for (int i = 0; i < 30; i++) {
		x[i] = i * 1.0;
		y[i] = i * 1.0 + 7.5;
	}
	struct stats_test e;
	assert_true(stats_mann_whitney(x, 30, y, 30, STATS_MW_EXACT, &e));
	assert_true(stats_mann_whitney(x, 30, y, 30, STATS_MW_NORMAL, &t));
	assert_near(e.p, t.p, 0.002);
	assert_true(e.p < 0.05);
	/* 40 to 50 per side: the exact p stays a probability (a product of
	 * Gaussian binomials with subtractions went negative there) */
	double x45[45], y45[45];
	for (int i = 0; i < 45; i++) {
		x45[i] = i;
		y45[i] = 100 + i;
	}
	assert_true(stats_mann_whitney(x45, 45, y45, 45, STATS_MW_EXACT, &e));
	double c9045 = 1; /* C(90, 45) */
	for (int i = 1; i <= 45; i++)
		c9045 = c9045 * (45 + i) / i;
	assert_true(e.p > 0);
	assert_near(e.p / (2 / c9045), 1, 1e-9);
	for (int shift = 0; shift <= 50; shift += 5) {
		double x50[50], y40[40];
		for (int i = 0; i < 50; i++)
			x50[i] = i;
		for (int i = 0; i < 40; i++)
			y40[i] = i + shift + 0.5;
		assert_true(stats_mann_whitney(x50, 50, y40, 40, STATS_MW_EXACT, &e));
		assert_true(stats_mann_whitney(x50, 50, y40, 40, STATS_MW_NORMAL, &t));
		assert_true(e.p >= 0 && e.p <= 1);
		assert_near(e.p, t.p, 0.003);
	}
	(void)state;
}

static void test_welch(void **state)
{
	struct stats_test t;
	/* By hand: a mean 11.5, var 5/3; b mean 15, var 2.5;
	 * se^2 = 5/12 + 1/2 = 11/12, t = 3.5 / sqrt(11/12) = 3.655631,
	 * df = (11/12)^2 / ((5/12)^2/3 + (1/2)^2/4) = 6.980769. With 7 degrees
	 * of freedom the two-sided p lies between t(0.9975) = 4.029 and
	 * t(0.995) = 3.499, so 0.005 < p < 0.01. */
	const double a[] = {10, 12, 11, 13}, b[] = {14, 15, 13, 16, 17};
	assert_true(stats_welch(a, N(a), b, N(b), &t));
	assert_near(t.stat, 3.655631, 1e-6);
	assert_near(t.df, 6.980769, 1e-6);
	assert_true(t.p > 0.005 && t.p < 0.01);
	assert_near(t.p, 2 * (1 - stats_t_cdf(t.stat, t.df)), 1e-15);
	/* the other way round: t changes sign */
	assert_true(stats_welch(b, N(b), a, N(a), &t));
	assert_near(t.stat, -3.655631, 1e-6);
	/* no spread at all */
	const double c1[] = {5, 5, 5}, c2[] = {6, 6, 6};
	assert_true(stats_welch(c1, 3, c2, 3, &t));
	assert_near(t.p, 0, 0);
	assert_true(stats_welch(c1, 3, c1, 3, &t));
	assert_near(t.p, 1, 0);
	/* one sample on a side: no test */
	assert_false(stats_welch(a, 1, b, N(b), &t));
	assert_true(isnan(t.p));
	(void)state;
}

static void test_runs_log_t(void **state)
{
	struct stats_runs_test t;
	/* Two sides, no earlier runs: the pooled two-sample t test of the logs.
	 * By hand (Python, math only; p by Simpson's rule on the t density):
	 * d = -0.108260862, s = 0.0290283224, df = 4, t = -4.56767476,
	 * p = 0.0102788747; the interval exp(d -+ 2.7764451 se) = 0.840241 to
	 * 0.958434. */
	const double a[] = {100, 104, 98}, b[] = {90, 93, 88};
	assert_true(stats_runs_log_t(a, N(a), b, N(b), NULL, 0, 0.95, &t));
	assert_near(t.ratio, 0.8973934700874091, 1e-12);
	assert_near(t.s, 0.029028322389393974, 1e-12);
	assert_near(t.df, 4, 0);
	assert_near(t.t, -4.567674757855341, 1e-9);
	assert_near(t.p, 0.010278874682625339, 1e-7);
	assert_near(t.lo, 0.8402407275858316, 1e-7);
	assert_near(t.hi, 0.9584337127638909, 1e-7);
	assert_true(t.na == 3 && t.nb == 3 && t.ng == 0);
	/* One run on each side and 4 earlier runs: their spread alone, df 3,
	 * t = log(0.8) / (s sqrt 2) = -3.74381975, p = 0.0332571345 */
	const double one_a[] = {100}, one_b[] = {80}, h[] = {100, 105, 95, 102};
	struct stats_group g = {h, N(h)};
	assert_true(stats_runs_log_t(one_a, 1, one_b, 1, &g, 1, 0.95, &t));
	assert_near(t.ratio, 0.8, 1e-12);
	assert_near(t.s, 0.042145810653218964, 1e-12);
	assert_near(t.df, 3, 0);
	assert_near(t.t, -3.743819750214614, 1e-9);
	assert_near(t.p, 0.03325713446236289, 1e-7);
	assert_near(t.lo, 0.6617764546869385, 1e-7);
	assert_near(t.hi, 0.9670939415678649, 1e-7);
	assert_true(t.ng == 4);
	/* the same earlier runs, a 2% change: p = 0.757 */
	const double near_b[] = {98};
	assert_true(stats_runs_log_t(one_a, 1, near_b, 1, &g, 1, 0.95, &t));
	assert_near(t.p, 0.7569834187765314, 1e-7);
	/* the groups' levels do not matter, only their spread */
	const double h10[] = {1000, 1050, 950, 1020};
	struct stats_group g10 = {h10, N(h10)};
	assert_true(stats_runs_log_t(one_a, 1, one_b, 1, &g10, 1, 0.95, &t));
	assert_near(t.t, -3.743819750214614, 1e-9);
	/* NaN is ignored; no spread: p 0 or 1; too few degrees of freedom, a
	 * value <= 0: no test */
	const double an[] = {100, NAN, 104, 98};
	assert_true(stats_runs_log_t(an, N(an), b, N(b), NULL, 0, 0.95, &t));
	assert_near(t.t, -4.567674757855341, 1e-9);
	const double five[] = {5}, six[] = {6}, flat[] = {3, 3, 3};
	struct stats_group gf = {flat, N(flat)};
	assert_true(stats_runs_log_t(five, 1, five, 1, &gf, 1, 0.95, &t));
	assert_near(t.p, 1, 0);
	assert_true(stats_runs_log_t(five, 1, six, 1, &gf, 1, 0.95, &t));
	assert_near(t.p, 0, 0);
	assert_false(stats_runs_log_t(five, 1, six, 1, NULL, 0, 0.95, &t));
	assert_true(isnan(t.p));
	const double zero[] = {0, 1};
	assert_false(stats_runs_log_t(zero, N(zero), b, N(b), NULL, 0, 0.95, &t));
	(void)state;
}

static void test_headlines(void **state)
{
	struct metric_summary m[5] = {{.name = "lat_p50_us"},
	                              {.name = "iops"},
	                              {.name = "mb_s"},
	                              {.name = "lat_p99_us"},
	                              {.name = "seconds"}};
	struct step_summary ss = {.step = "rr", .m = m, .nm = 5};
	const struct metric_summary *h[HEADLINE_MAX];
	assert_int_equal(step_headlines(&ss, h), 2);
	assert_string_equal(h[0]->name, "mb_s");
	assert_string_equal(h[1]->name, "lat_p99_us");
	assert_true(step_is_headline(&ss, "lat_p99_us"));
	assert_false(step_is_headline(&ss, "iops"));
	/* an exec step without a parser: its duration */
	struct metric_summary e[2] = {{.name = "exit_status"}, {.name = "elapsed_s"}};
	struct step_summary es = {.step = "x", .m = e, .nm = 2};
	assert_int_equal(step_headlines(&es, h), 1);
	assert_string_equal(h[0]->name, "elapsed_s");
	(void)state;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_t_table),
	    cmocka_unit_test(test_mean_ci),
	    cmocka_unit_test(test_bootstrap_median),
	    cmocka_unit_test(test_bootstrap_ratio),
	    cmocka_unit_test(test_cell_summary_fields),
	    cmocka_unit_test(test_median_ci_when_needed),
	    cmocka_unit_test(test_mann_whitney),
	    cmocka_unit_test(test_welch),
	    cmocka_unit_test(test_runs_log_t),
	    cmocka_unit_test(test_headlines),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
