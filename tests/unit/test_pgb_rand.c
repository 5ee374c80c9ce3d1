/* Statistical tests of the pgbench random functions with a fixed seed:
 * every value in range, and mean (and spread) as the distribution says. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <math.h>
#include <stdio.h>
#include <cmocka.h>

#include "pgb_rand.h"

#define N 200000

static void check_close(const char *what, double got, double want, double rel)
{
	if (fabs(got - want) > rel * fabs(want))
		fail_msg("%s: got %.4f, want %.4f within %.1f%%", what, got, want, rel * 100);
}

static void test_uniform(void **state)
{
	(void)state;
	struct pgb_rng r;
	double sum = 0;
	int64_t cnt[10] = {0};

	pgb_rng_seed(&r, 42);
	for (int i = 0; i < N; i++) {
		int64_t v = pgb_rand_uniform(&r, -5, 4);

		assert_true(v >= -5 && v <= 4);
		cnt[v + 5]++;
		sum += v;
	}
	check_close("uniform mean", sum / N + 100, -0.5 + 100, 0.0005);
	for (int k = 0; k < 10; k++)
		check_close("uniform bucket", (double)cnt[k], N / 10.0, 0.03);
	/* the extremes of the range and a degenerate range */
	assert_int_equal(pgb_rand_uniform(&r, 7, 7), 7);
	int64_t v = pgb_rand_uniform(&r, INT64_MIN, INT64_MAX);
	(void)v;
	double d = 0;

	for (int i = 0; i < 1000; i++) {
		double u = pgb_rng_double(&r);

		assert_true(u >= 0.0 && u < 1.0);
		d += u;
	}
	check_close("double mean", d / 1000, 0.5, 0.05);
}

static void test_exponential(void **state)
{
	(void)state;
	struct pgb_rng r;
	double sum = 0, p = 5.0;

	pgb_rng_seed(&r, 7);
	for (int i = 0; i < N; i++) {
		int64_t v = pgb_rand_exponential(&r, 1, 1000, p);

		assert_true(v >= 1 && v <= 1000);
		sum += v;
	}
	/* f in [0,1) with density p e^(-p f) / (1 - e^-p); value 1 + floor(1000 f) */
	double ef = 1.0 / p - exp(-p) / (1.0 - exp(-p));

	check_close("exponential mean", sum / N, 1 + 1000 * ef - 0.5, 0.01);
}

static void test_gaussian(void **state)
{
	(void)state;
	struct pgb_rng r;
	double sum = 0, sq = 0, p = 2.5;

	pgb_rng_seed(&r, 11);
	for (int i = 0; i < N; i++) {
		int64_t v = pgb_rand_gaussian(&r, 1, 1000, p);

		assert_true(v >= 1 && v <= 1000);
		sum += v;
		sq += (double)v * v;
	}
	double mean = sum / N, sd = sqrt(sq / N - mean * mean);
	/* standard normal truncated to [-p, p) */
	double phi = exp(-p * p / 2) / sqrt(2 * M_PI), mass = erf(p / sqrt(2));
	double sdz = sqrt(1 - 2 * p * phi / mass);

	check_close("gaussian mean", mean, 500.5, 0.01);
	check_close("gaussian stddev", sd, 1000 / (2 * p) * sdz, 0.02);
}

static void test_zipfian(void **state)
{
	(void)state;
	struct pgb_rng r;
	double s = 1.5, sum = 0, h = 0, hm = 0;
	int64_t ones = 0;

	pgb_rng_seed(&r, 3);
	for (int i = 0; i < N; i++) {
		int64_t v = pgb_rand_zipfian(&r, 10, 1009, s);

		assert_true(v >= 10 && v <= 1009);
		sum += v - 9;
		ones += v == 10;
	}
	for (int k = 1; k <= 1000; k++) {
		h += pow(k, -s);
		hm += k * pow(k, -s);
	}
	check_close("zipfian mean rank", sum / N, hm / h, 0.03);
	check_close("zipfian P(rank 1)", (double)ones / N, 1 / h, 0.02);
	assert_int_equal(pgb_rand_zipfian(&r, 5, 5, 2.0), 5);
}

static void test_seed(void **state)
{
	(void)state;
	struct pgb_rng a, b;

	pgb_rng_seed(&a, 99);
	pgb_rng_seed(&b, 99);
	for (int i = 0; i < 100; i++)
		assert_true(pgb_rng_u64(&a) == pgb_rng_u64(&b));
	pgb_rng_seed(&b, 100);
	assert_true(pgb_rng_u64(&a) != pgb_rng_u64(&b));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_uniform),  cmocka_unit_test(test_exponential),
	    cmocka_unit_test(test_gaussian), cmocka_unit_test(test_zipfian),
	    cmocka_unit_test(test_seed),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
