/* test_stats: summary statistics, outlier warnings, nice chart ticks. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "stats.h"
#include "svg.h"

#define assert_near(a, b, eps) assert_near_(a, b, eps, #a, __LINE__)
static void assert_near_(double a, double b, double eps, const char *what, int line)
{
	if (!(fabs(a - b) <= eps))
		fail_msg("line %d: %s = %.17g, expected %.17g", line, what, a, b);
}

#define N(a) (sizeof(a) / sizeof((a)[0]))

static void test_known_values(void **state)
{
	/* The textbook set: mean 5, population sd 2, sample sd sqrt(32/7). */
	const double v[] = {2, 4, 4, 4, 5, 5, 7, 9};
	struct stats s;
	stats_compute(v, N(v), &s);
	assert_int_equal(s.n, 8);
	assert_near(s.mean, 5, 1e-12);
	assert_near(s.stddev, sqrt(32.0 / 7.0), 1e-12);
	assert_near(s.median, 4.5, 1e-12);
	assert_near(s.min, 2, 0);
	assert_near(s.max, 9, 0);
	assert_near(s.cv, sqrt(32.0 / 7.0) / 5, 1e-12);

	/* odd count, unsorted input, negative mean: cv uses |mean| */
	const double w[] = {-3, -1, -2};
	stats_compute(w, N(w), &s);
	assert_near(s.median, -2, 0);
	assert_near(s.stddev, 1, 1e-12);
	assert_near(s.cv, 0.5, 1e-12);

	/* one sample: stddev 0 */
	const double one[] = {42};
	stats_compute(one, 1, &s);
	assert_int_equal(s.n, 1);
	assert_near(s.mean, 42, 0);
	assert_near(s.stddev, 0, 0);
	assert_near(s.cv, 0, 0);

	/* NaN samples (metric missing in a repetition) are skipped */
	const double gaps[] = {1, NAN, 3, INFINITY};
	stats_compute(gaps, N(gaps), &s);
	assert_int_equal(s.n, 2);
	assert_near(s.mean, 2, 0);

	/* nothing finite */
	stats_compute(gaps + 1, 1, &s);
	assert_int_equal(s.n, 0);
	assert_true(isnan(s.mean));

	/* zero mean: cv defined as 0 */
	const double z[] = {-1, 1};
	stats_compute(z, 2, &s);
	assert_near(s.cv, 0, 0);
}

static void test_quantiles(void **state)
{
	const double v[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
	assert_near(stats_quantile(v, N(v), 0), 1, 0);
	assert_near(stats_quantile(v, N(v), 1), 10, 0);
	assert_near(stats_quantile(v, N(v), 0.25), 3.25, 1e-12);
	assert_near(stats_mad(v, N(v)), 2.5, 1e-12);
	double lo, hi;
	stats_iqr_fences(v, N(v), &lo, &hi);
	assert_near(lo, 3.25 - 1.5 * 4.5, 1e-12);
	assert_near(hi, 7.75 + 1.5 * 4.5, 1e-12);
}

static void test_outliers(void **state)
{
	struct stats_check c;
	char buf[512];

	/* quiet samples: nothing to say */
	const double quiet[] = {100, 101, 99, 100, 102};
	assert_false(stats_check(quiet, N(quiet), "tps", &c));
	stats_warning_text(&c, N(quiet), "ro.tps", buf, sizeof(buf));
	assert_string_equal(buf, "");

	/* one far sample */
	const double one[] = {10, 10.1, 9.9, 10, 10.2, 30};
	assert_true(stats_check(one, N(one), "MB/s", &c));
	assert_int_equal(c.noutliers, 1);
	assert_int_equal(c.first_outlier, 5);
	assert_false(c.first_slow);
	double z[N(one)];
	stats_modified_z(one, N(one), z);
	assert_true(fabs(z[5]) > STATS_ZSCORE_LIMIT);
	assert_true(fabs(z[0]) < 1);
	stats_warning_text(&c, N(one), "seq.mb_s", buf, sizeof(buf));
	assert_non_null(strstr(buf, "seq.mb_s: 1 of 6 samples is a statistical outlier (first: sample 6)"));

	/* MAD is 0 (most samples equal): the mean absolute deviation stands in */
	double flat[20];
	for (size_t i = 0; i < N(flat); i++)
		flat[i] = 5;
	flat[19] = 9;
	assert_true(stats_check(flat, N(flat), "", &c));
	assert_int_equal(c.first_outlier, 19);
	/* ... but one deviant among five is not enough evidence */
	assert_false(stats_check(flat + 15, 5, "", &c));
	/* n = 3 with an ordinary spread: no alarm (3.5 would flag this) */
	const double triple[] = {100, 104, 130};
	assert_false(stats_check(triple, N(triple), "MB/s", &c));
	const double same[] = {5, 5, 5, 5};
	assert_false(stats_check(same, N(same), "", &c));

	/* too few samples to judge */
	const double two[] = {1, 100};
	assert_false(stats_check(two, N(two), "", &c));
}

static void test_first_slow(void **state)
{
	struct stats_check c;
	char buf[512];

	/* throughput: lower is slower */
	const double tps[] = {50, 100, 101, 99, 100};
	assert_true(stats_check(tps, N(tps), "tps", &c));
	assert_true(c.first_slow);
	stats_warning_text(&c, N(tps), "ro.tps", buf, sizeof(buf));
	assert_non_null(strstr(buf, "first run was much slower"));

	/* latency: higher is slower */
	const double lat[] = {20, 10, 10.1, 9.9};
	assert_true(stats_check(lat, N(lat), "ms", &c));
	assert_true(c.first_slow);
	/* a fast first latency is not "slow" */
	const double fast[] = {5, 10, 10.1, 9.9};
	stats_check(fast, N(fast), "ms", &c);
	assert_false(c.first_slow);
	/* a high first throughput is not "slow" */
	const double high[] = {150, 100, 101, 99};
	stats_check(high, N(high), "MB/s", &c);
	assert_false(c.first_slow);
	/* within 25% of the slowest other run: not flagged, even when a later
	 * run is an outlier */
	const double mild[] = {1100, 1110, 3000};
	stats_check(mild, N(mild), "tps", &c);
	assert_false(c.first_slow);
	/* not a speed: no judgement */
	const double cpu[] = {10, 50, 51, 49};
	stats_check(cpu, N(cpu), "%", &c);
	assert_false(c.first_slow);
	stats_check(cpu, N(cpu), "", &c);
	assert_false(c.first_slow);
	assert_int_equal(stats_unit_direction("MiB/s"), 1);
	assert_int_equal(stats_unit_direction("IOPS"), 1);
	assert_int_equal(stats_unit_direction("ms"), -1);
	assert_int_equal(stats_unit_direction("bytes"), 0);
	assert_int_equal(stats_unit_direction("/s"), 0);
	assert_true(stats_unit_lower_is_better("us"));
	assert_false(stats_unit_lower_is_better("MB/s"));
	assert_false(stats_unit_lower_is_better(NULL));
}

static void test_nice_ticks(void **state)
{
	struct svg_ticks t;
	svg_nice_ticks(0, 97, 6, &t);
	assert_near(t.start, 0, 0);
	assert_near(t.step, 20, 1e-12);
	assert_int_equal(t.n, 6); /* 0..100 */

	svg_nice_ticks(0, 2263, 6, &t);
	assert_near(t.step, 500, 1e-9);
	assert_int_equal(t.n, 6); /* 0..2500 */

	svg_nice_ticks(0.31, 0.87, 6, &t);
	assert_near(t.step, 0.2, 1e-12);
	assert_near(t.start, 0.2, 1e-12);
	assert_true(t.start + t.step * (t.n - 1) >= 0.87 - 1e-12);

	/* a flat line still gets an axis */
	svg_nice_ticks(5, 5, 6, &t);
	assert_true(t.n >= 2 && t.step > 0);
	assert_true(t.start <= 5 && t.start + t.step * (t.n - 1) >= 5);

	assert_near(svg_nice_number(0.73, false), 1, 1e-12);
	assert_near(svg_nice_number(34, true), 25, 1e-12);
	assert_near(svg_nice_number(40, true), 50, 1e-12);
	assert_near(svg_nice_number(2.4, true), 2.5, 1e-12);

	char buf[32];
	svg_tick_label(25000, 5000, buf, sizeof(buf));
	assert_string_equal(buf, "25k");
	svg_tick_label(2500000, 500000, buf, sizeof(buf));
	assert_string_equal(buf, "2.5M");
	svg_tick_label(0.25, 0.05, buf, sizeof(buf));
	assert_string_equal(buf, "0.25");
	svg_tick_label(1500, 500, buf, sizeof(buf));
	assert_string_equal(buf, "1500");
	svg_tick_label(5, 2.5, buf, sizeof(buf));
	assert_string_equal(buf, "5.0");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_known_values), cmocka_unit_test(test_quantiles),
	    cmocka_unit_test(test_outliers),     cmocka_unit_test(test_first_slow),
	    cmocka_unit_test(test_nice_ticks),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
