/* test_pgb_ycsb: YCSB's generators (pgb_ycsb_rand.h) against YCSB's
 * published numbers and by chi-square: zeta(n, 0.99) sums checked against
 * values computed apart (python, double sums), YCSB's constant
 * 26.46902820178302 = zeta(10^10, 0.99) by a partial sum plus an
 * Euler-Maclaurin tail, fnvhash64 vectors ("user6284781860667377211" is
 * YCSB's key of record 0), the first items' probabilities 1/zeta(n) and
 * 2^-0.99/zeta(n), a chi-square test of 400000 zipfian draws against Gray's
 * method's own distribution (and the same draws failing it against a
 * uniform one: the test can fail), and the most popular key of the
 * scrambled and latest generators. Fixed seeds: the result is the same on
 * every run. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <cmocka.h>

#include "pgb_rand.h"
#include "pgb_ycsb_rand.h"

#define THETA 0.99
#define DRAWS 400000

static void test_zeta(void **state)
{
	(void)state;
	/* sum(i**-0.99 for i in range(1, n+1)) in python */
	assert_true(fabs(pgb_ycsb_zeta(0, 1000, THETA, 0) - 7.728953217284729) < 1e-12);
	assert_true(fabs(pgb_ycsb_zeta(0, 100000, THETA, 0) - 12.778338062551246) < 1e-10);
	/* incremental, as YCSB extends zeta when items are added */
	double z500 = pgb_ycsb_zeta(0, 500, THETA, 0);
	assert_true(fabs(pgb_ycsb_zeta(500, 1000, THETA, z500) - 7.728953217284729) < 1e-12);
	/* YCSB's ZETAN is zeta(10^10): 10^6 terms, then the tail from 10^6 to
	 * 10^10 by Euler-Maclaurin (integral, half end terms, f'/12) */
	const double n0 = 1e6, n = 1e10, s = THETA;
	double head = pgb_ycsb_zeta(0, (int64_t)n0, s, 0);
	double tail = (pow(n, 1 - s) - pow(n0, 1 - s)) / (1 - s) + (pow(n, -s) - pow(n0, -s)) / 2 +
	              (-s * pow(n, -s - 1) + s * pow(n0, -s - 1)) / 12;
	double z = head + tail;
	if (fabs(z - PGB_YCSB_ZETAN) > 1e-9 * PGB_YCSB_ZETAN)
		fail_msg("zeta(10^10, 0.99) = %.14f, YCSB's constant %.14f", z, PGB_YCSB_ZETAN);
	/* and not zeta(10^16), which later YCSB versions pair it with */
	double tail16 = (pow(1e16, 1 - s) - pow(n0, 1 - s)) / (1 - s);
	assert_true(head + tail16 > 45.0);
}

static void test_fnv(void **state)
{
	(void)state;
	/* python: FNV-1a 64 over the 8 little-endian bytes, abs() as signed */
	assert_true(pgb_ycsb_fnv64(0) == 6284781860667377211LL);
	assert_true(pgb_ycsb_fnv64(1) == 8517097267634966620LL);
	assert_true(pgb_ycsb_fnv64(42) == 55488592825689361LL);
	assert_true(pgb_ycsb_fnv64(1000000) == 1011632231655643464LL);
}

/* P(draw <= k) of Gray's method over n items with zeta(n) = zn, derived
 * from its definition: 0 below u = 1/zn, 1 below u1 = (1 + 0.5^theta)/zn,
 * else floor(n (eta u - eta + 1)^(1/(1-theta))) <= k. */
static double gray_cdf(int64_t k, int64_t n, double zn)
{
	double u1 = (1 + pow(0.5, THETA)) / zn;
	double eta = (1 - pow(2.0 / n, 1 - THETA)) / (1 - (1 + pow(2.0, -THETA)) / zn);
	double uk = (pow((double)(k + 1) / n, 1 - THETA) - 1 + eta) / eta;
	double c = (k >= 0 ? 1 / zn : 0) + (k >= 1 ? u1 - 1 / zn : 0);
	if (uk > u1)
		c += (uk < 1 ? uk : 1) - u1;
	return k >= n - 1 ? 1.0 : c;
}

/* Chi-square of counts against probabilities p (buckets merged from the
 * tail until each expects >= 20); *df gets the degrees of freedom. */
static double chi_square(const int64_t *cnt, const double *p, int n, int64_t total, int *df)
{
	double chi = 0, e = 0, o = 0;
	int buckets = 0;
	for (int i = 0; i < n; i++) {
		e += p[i] * total;
		o += cnt[i];
		if (e >= 20 || i == n - 1) {
			chi += (o - e) * (o - e) / e;
			buckets++;
			e = o = 0;
		}
	}
	*df = buckets - 1;
	return chi;
}

/* chi-square's 0.999 quantile (Wilson-Hilferty) */
static double chi_crit(int df)
{
	double a = 2.0 / (9 * df);
	return df * pow(1 - a + 3.09 * sqrt(a), 3);
}

static void test_zipfian_chi_square(void **state)
{
	(void)state;
	enum { N = 1000 };
	double zn = pgb_ycsb_zeta(0, N, THETA, 0);
	static int64_t cnt[N];
	static double p[N], pu[N];
	struct pgb_rng r;
	pgb_rng_seed(&r, 20261207);
	for (int i = 0; i < DRAWS; i++) {
		int64_t v = pgb_ycsb_zipf_draw(&r, N, zn);
		assert_true(v >= 0 && v < N);
		cnt[v]++;
	}
	/* the first two items: exactly Zipf's 1/zeta and 2^-theta/zeta */
	double p0 = 1 / zn, p1 = pow(2, -THETA) / zn;
	double sd0 = sqrt(p0 * (1 - p0) / DRAWS), sd1 = sqrt(p1 * (1 - p1) / DRAWS);
	if (fabs((double)cnt[0] / DRAWS - p0) > 4 * sd0 || fabs((double)cnt[1] / DRAWS - p1) > 4 * sd1)
		fail_msg("first items: %.5f %.5f, want %.5f %.5f", (double)cnt[0] / DRAWS,
		         (double)cnt[1] / DRAWS, p0, p1);
	for (int k = 0; k < N; k++) {
		p[k] = gray_cdf(k, N, zn) - gray_cdf(k - 1, N, zn);
		pu[k] = 1.0 / N;
	}
	int df;
	double chi = chi_square(cnt, p, N, DRAWS, &df);
	print_message("zipfian n=%d: chi-square %.1f, df %d, 0.999 quantile %.1f\n", N, chi, df,
	              chi_crit(df));
	if (chi > chi_crit(df))
		fail_msg("zipfian: chi-square %.1f > %.1f (df %d)", chi, chi_crit(df), df);
	/* the same test rejects a wrong distribution */
	chi = chi_square(cnt, pu, N, DRAWS, &df);
	assert_true(chi > 100 * chi_crit(df));
}

static void test_scrambled_and_latest(void **state)
{
	(void)state;
	enum { N = 1000 };
	static int64_t cnt[N], cl[N];
	struct pgb_rng r;
	pgb_rng_seed(&r, 7);
	for (int i = 0; i < DRAWS; i++) {
		int64_t v = pgb_ycsb_scrambled(&r, 100, 100 + N - 1);
		assert_true(v >= 100 && v < 100 + N);
		cnt[v - 100]++;
		v = pgb_ycsb_latest(&r, 5, 5 + N - 1);
		assert_true(v >= 5 && v < 5 + N);
		cl[v - 5]++;
	}
	int top = 0, ltop = 0;
	for (int i = 0; i < N; i++) {
		top = cnt[i] > cnt[top] ? i : top;
		ltop = cl[i] > cl[ltop] ? i : ltop;
	}
	/* the scrambled head: item 0 lands on fnvhash64(0) mod n with its
	 * 1/ZETAN, plus about 1/n of the rest sharing the bucket */
	assert_int_equal(top, pgb_ycsb_fnv64(0) % N);
	double f = (double)cnt[top] / DRAWS;
	if (f < 1 / PGB_YCSB_ZETAN - 0.002 || f > 1 / PGB_YCSB_ZETAN + 0.005)
		fail_msg("scrambled head %.5f, 1/zetan %.5f", f, 1 / PGB_YCSB_ZETAN);
	/* latest: the newest (ub) the most popular, with 1/zeta(n) */
	assert_int_equal(ltop, N - 1);
	double zn = pgb_ycsb_zeta(0, N, THETA, 0);
	assert_true(fabs((double)cl[N - 1] / DRAWS - 1 / zn) < 4 * sqrt(1 / zn / DRAWS));
	assert_true(cl[N - 2] > cl[N - 3] && cl[N - 3] > cl[N - 50]);
	/* growing n extends zeta: the head's share follows the new zeta */
	int64_t hits = 0;
	for (int i = 0; i < DRAWS; i++)
		hits += pgb_ycsb_latest(&r, 0, 99999) == 99999;
	zn = pgb_ycsb_zeta(0, 100000, THETA, 0);
	assert_true(fabs((double)hits / DRAWS - 1 / zn) < 4 * sqrt(1 / zn / DRAWS));
}

static void test_insert_sequence(void **state)
{
	(void)state;
	pgb_ycsb_seq_reset(0);
	assert_true(pgb_ycsb_insert_last(1000) == 999);
	assert_true(pgb_ycsb_insert_next(1000) == 1000);
	assert_true(pgb_ycsb_insert_next(1000) == 1001);
	assert_true(pgb_ycsb_insert_last(1000) == 1001);
	pgb_ycsb_seq_reset(5); /* rows an earlier run inserted */
	assert_true(pgb_ycsb_insert_last(10) == 14);
	assert_true(pgb_ycsb_insert_next(10) == 15);
	pgb_ycsb_seq_reset(-3); /* fewer rows than records: from records */
	assert_true(pgb_ycsb_insert_next(10) == 10);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_zeta),
	    cmocka_unit_test(test_fnv),
	    cmocka_unit_test(test_zipfian_chi_square),
	    cmocka_unit_test(test_scrambled_and_latest),
	    cmocka_unit_test(test_insert_sequence),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
