/* test_io_device: the options of raw devices, trim, precondition and steady
 * state (io_devopts), and steady state's criteria against fio's formulas
 * (steadystate.c: the least-squares slope in percent of the mean per
 * second, and the largest distance from the mean in percent of it). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "io_opts.h"
#include "io_ss.h"
#include "spec.h"

static int parse(const char *yaml, struct io_opts *o)
{
	struct diag d;
	diag_init(&d);
	struct node *n = spec_load_string("opts.yaml", yaml, &d);
	assert_non_null(n);
	int r = io_opts_parse(n, o, &d);
	node_free(n);
	diag_free(&d);
	return r;
}

static void test_parse(void **state)
{
	(void)state;
	struct io_opts o;
	assert_int_equal(
	    parse("{file: \"@device\", rw: randtrim, fsync_on_close: true, precondition: {}}", &o), 0);
	assert_true(o.dev.device);
	assert_true(o.dev.fsync_on_close);
	assert_false(o.dev.size_given);
	assert_int_equal(o.rw, IO_RW_RANDTRIM);
	assert_true(io_rw_trims(o.rw) && io_rw_writes(o.rw) && io_rw_random(o.rw));
	assert_true(o.dev.precondition);
	assert_int_equal(o.dev.precond_passes, 1);
	assert_false(o.dev.ss.on);

	assert_int_equal(parse("{size: 8M, precondition: {passes: 3}, runtime: 2m, interval: 0.5s,"
	                       " steady_state: {metric: bw, slope: 0.3%, duration: 60s, ramp: 10s}}",
	                       &o),
	                 0);
	assert_true(o.dev.size_given);
	assert_false(o.dev.device);
	assert_int_equal(o.dev.precond_passes, 3);
	assert_true(o.dev.ss.on && o.dev.ss.bw && o.dev.ss.slope);
	assert_true(fabs(o.dev.ss.limit - 0.3) < 1e-12);
	assert_true(o.dev.ss.dur == 60 && o.dev.ss.ramp == 10);

	assert_int_equal(parse("{runtime: 1m, steady_state: {range: 10%, duration: 20s}}", &o), 0);
	assert_true(o.dev.ss.on && !o.dev.ss.bw && !o.dev.ss.slope && o.dev.ss.limit == 10);
	assert_int_equal(parse("{runtime: 1m, steady_state: {range: 0%, duration: 20s}}", &o), -EINVAL);
	assert_int_equal(parse("{runtime: 1m, steady_state: {range: 10%}}", &o), -EINVAL);
	assert_int_equal(parse("{runtime: 1m, interval: 1s, steady_state: {range: 10%, duration: 1s}}", &o),
	                 -EINVAL);
	assert_int_equal(parse("{rw: trim, sync: end}", &o), -EINVAL);
}

/* fio's slope criterion over y[0..n-1], x = 0..n-1 (steadystate.c). */
static double fio_slope_pct(const double *y, int n)
{
	double sum_x = 0, sum_x_sq = 0, sum_y = 0, sum_xy = 0;
	for (int i = 0; i < n; i++) {
		sum_x += i;
		sum_x_sq += (double)i * i;
		sum_y += y[i];
		sum_xy += i * y[i];
	}
	double slope = (sum_xy - sum_x * sum_y / n) / (sum_x_sq - sum_x * sum_x / n);
	return fabs(100.0 * slope / (sum_y / n));
}

static double fio_range_pct(const double *y, int n)
{
	double mean = 0, dev = 0;
	for (int i = 0; i < n; i++)
		mean += y[i] / n;
	for (int i = 0; i < n; i++)
		dev = fmax(dev, fabs(y[i] - mean));
	return 100.0 * dev / mean;
}

/* Feed samples of 1 s, the first ending at t = 1; returns the sample index
 * (0-based) at which it was reached, or -1. */
static int feed(struct io_ss *ss, const double *y, int n)
{
	for (int i = 0; i < n; i++)
		if (io_ss_add(ss, i + 1.0, 1.0, y[i], y[i]))
			return i;
	return -1;
}

static void test_ss_slope(void **state)
{
	(void)state;
	struct io_opts o;
	assert_int_equal(parse("{runtime: 1m, steady_state: {slope: 0.5%, duration: 5s, ramp: 2s}}", &o), 0);
	/* growing 1% a second, then flat */
	double y[20];
	for (int i = 0; i < 20; i++)
		y[i] = i < 10 ? 1000 * (1 + 0.01 * i) : 1090;
	struct io_ss ss;
	assert_int_equal(io_ss_init(&ss, &o), 0);
	int at = feed(&ss, y, 20);
	/* the first window (after the 2 s ramp) whose fio criterion is < 0.5% */
	int want = -1;
	for (int end = 2 + 5 - 1; end < 20 && want < 0; end++)
		if (fio_slope_pct(y + end - 4, 5) < 0.5)
			want = end;
	assert_true(want > 0);
	assert_int_equal(at, want);
	assert_true(fabs(ss.criterion - fio_slope_pct(y + want - 4, 5)) < 1e-9);
	assert_true(ss.reached && ss.at == want + 1.0);
	struct step_result res;
	result_init(&res, "s", "io");
	io_ss_metrics(&ss, &res);
	result_free(&res);

	/* growing all along: never */
	for (int i = 0; i < 20; i++)
		y[i] = 1000 * (1 + 0.01 * i);
	assert_int_equal(io_ss_init(&ss, &o), 0);
	assert_int_equal(feed(&ss, y, 20), -1);
	assert_false(ss.reached);
	assert_true(fabs(ss.criterion - fio_slope_pct(y + 15, 5)) < 1e-9);
	free(ss.y);
}

static void test_ss_range(void **state)
{
	(void)state;
	struct io_opts o;
	assert_int_equal(parse("{runtime: 1m, steady_state: {range: 10%, duration: 4s}}", &o), 0);
	double y[] = {500, 100, 110, 90, 100, 100, 104, 96, 100};
	struct io_ss ss;
	assert_int_equal(io_ss_init(&ss, &o), 0);
	/* {100, 110, 90, 100}: exactly 10%, not below it; {110, 90, 100, 100}: 10% too;
	 * {90, 100, 100, 104}: mean 98.5, 8.6% */
	int at = feed(&ss, y, 9);
	assert_int_equal(at, 6);
	assert_true(fabs(ss.criterion - fio_range_pct(y + 3, 4)) < 1e-9);
	free(ss.y);
	/* a partial sample and samples inside the ramp do not count */
	assert_int_equal(parse("{runtime: 1m, steady_state: {range: 10%, duration: 2s, ramp: 3s}}", &o), 0);
	assert_int_equal(io_ss_init(&ss, &o), 0);
	assert_false(io_ss_add(&ss, 1, 1, 100, 100));
	assert_false(io_ss_add(&ss, 3, 1, 100, 100));
	assert_false(io_ss_add(&ss, 4, 1, 100, 100));
	assert_false(io_ss_add(&ss, 4.5, 0.5, 100, 100));
	assert_true(io_ss_add(&ss, 5.5, 1, 100, 100));
	free(ss.y);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_parse),
	    cmocka_unit_test(test_ss_slope),
	    cmocka_unit_test(test_ss_range),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
