/* Statistical tests of the pgbench random functions with a fixed seed:
 * every value in range, and mean (and spread) as the distribution says;
 * and known vectors from pgbench 15 itself, which the generator, the
 * distributions, the seeding, hash and permute must reproduce exactly. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <math.h>
#include <stdio.h>
#include <cmocka.h>

#include "pgb_hash.h"
#include "pgb_permute.h"
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

/* The oracle values below were printed by pgbench 15.18 against a throwaway
 * server (tests/lib/pg_server.sh):
 *   pgbench -n -t1 -c1 --random-seed=42 -f oracle.sql
 * with one `\set a debug(EXPR)` per line of oracle.sql, EXPR as in the
 * comments, in this order; pgbench printed `debug(script=0,command=N): int V`.
 * The random*() lines draw in sequence from client 0's generator. */
static void test_pgbench_hash_vectors(void **state)
{
	(void)state;
	assert_true(pgb_hash_fnv1a(12345, 678) == -4997051310545852918);   /* hash_fnv1a(12345, 678) */
	assert_true(pgb_hash_murmur2(12345, 678) == -3461122863905194782); /* hash_murmur2, hash */
	assert_true(pgb_hash_fnv1a(-1, 0) == -8289690350564177859);        /* hash_fnv1a(-1, 0) */
	assert_true(pgb_hash_murmur2(-1, 0) == 4219408603045787357);       /* hash_murmur2(-1, 0) */
	assert_true(pgb_hash_fnv1a(INT64_MAX, -5) == 3002506493379929494); /* hash_fnv1a(max, -5) */
	assert_true(pgb_hash_murmur2(INT64_MIN, 123456789012) == -4343822417486049175);
	assert_true(pgb_permute(3, 10, 5) == 9);
	assert_true(pgb_permute(-7, 1000003, -123) == 226428);
	assert_true(pgb_permute(123456789, INT64_MAX, 42) == 1331827953198864628);
	assert_true(pgb_permute(1, 2, 7) == 1);
	assert_true(pgb_permute(0, 3, 11) == 2);
	assert_true(pgb_permute(5, 1, 3) == 0);
	assert_true(pgb_permute(77, 64, 0) == 57);
}

static void test_pgbench_seed_vectors(void **state)
{
	(void)state;
	struct pgb_rng c[1];
	struct pgb_thread_rngs t[1];
	int64_t ds = 0;

	pgb_rand_seed_run(42, 1, 1, false, c, t, &ds);
	assert_true(ds == 4306334408478191133); /* :default_seed */
	assert_true(pgb_rand_uniform(c, 1, 1000) == 653);
	assert_true(pgb_rand_uniform(c, -1000000000000, 1000000000000) == 794199617960);
	assert_true(pgb_rand_exponential(c, 1, 1000, 2.5) == 350);
	assert_true(pgb_rand_gaussian(c, 1, 1000, 2.5) == 434);
	assert_true(pgb_rand_zipfian(c, 1, 1000, 1.5) == 2);
	assert_true(pgb_rand_zipfian(c, 1, 100000, 1.001) == 158);
	assert_true(pgb_rand_gaussian(c, 1, 1000000, 10) == 567559);
	assert_true(pgb_rand_exponential(c, -50, 50, 0.1) == -18);
	assert_true(pgb_hash_murmur2(42, ds) == 416645645586623766); /* hash(42) */
	assert_true(pgb_permute(42, 1000, ds) == 457);               /* permute(42, 1000) */
	/* --random-seed=18446744073709551615: :random_seed -1, first random(1, 1000) */
	pgb_rand_seed_run(UINT64_MAX, 1, 1, false, c, t, &ds);
	assert_true(ds == 5218942343062937440);
	assert_true(pgb_rand_uniform(c, 1, 1000) == 949);
	/* :default_seed defined by the script: not drawn, the next generators move up */
	struct pgb_rng c2[1];
	struct pgb_thread_rngs t2[1];
	int64_t keep = 5;

	pgb_rand_seed_run(42, 1, 1, true, c2, t2, &keep);
	assert_int_equal(keep, 5);
	pgb_rand_seed_run(42, 1, 1, false, c, t, &ds);
	assert_true(c2[0].s0 == c[0].s0 && c2[0].s1 == c[0].s1);
	assert_true(t2[0].choose.s0 != t[0].choose.s0);
}

/* pgbench -n -t1 -c5 -j2 --random-seed=7 -f a.sql@3 -f b.sql@5, both scripts
 *   \set a debug(:client_id * 10000000000 + random(1, 1000000000))
 * then a.sql `\set s debug(100 + :client_id)`, b.sql the same with 200:
 * clients 0-2 on thread 0, 3-4 on thread 1; with -t1 each thread chooses
 * for its clients in client order. */
static void test_pgbench_clients_threads(void **state)
{
	(void)state;
	static const int64_t want_rand[5] = {890305411, 478278368, 178932704, 209868367, 72631736};
	static const int want_script[5] = {1, 0, 1, 0, 0};
	const int weights[2] = {3, 5};
	struct pgb_rng c[5];
	struct pgb_thread_rngs t[2];
	int64_t ds;

	pgb_rand_seed_run(7, 5, 2, false, c, t, &ds);
	assert_int_equal(pgb_rand_thread_nclients(5, 2, 0), 3);
	assert_int_equal(pgb_rand_thread_nclients(5, 2, 1), 2);
	assert_int_equal(pgb_rand_thread_first(5, 2, 1), 3);
	for (int k = 0; k < 5; k++) {
		struct pgb_rng *ch = &t[k < 3 ? 0 : 1].choose;
		int64_t w = pgb_rand_uniform(ch, 0, 7);
		int s = w < weights[0] ? 0 : 1;

		assert_true(pgb_rand_uniform(&c[k], 1, 1000000000) == want_rand[k]);
		assert_int_equal(s, want_script[k]);
	}
	/* pgbench's block sizes: ceil(remaining clients / remaining threads) */
	for (int n = 1; n <= 40; n++)
		for (int j = 1; j <= n; j++)
			for (int i = 0, dealt = 0; i < j; i++) {
				int size = (n - dealt + j - i - 1) / (j - i);

				assert_int_equal(pgb_rand_thread_first(n, j, i), dealt);
				assert_int_equal(pgb_rand_thread_nclients(n, j, i), size);
				dealt += size;
			}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_uniform),
	    cmocka_unit_test(test_exponential),
	    cmocka_unit_test(test_gaussian),
	    cmocka_unit_test(test_zipfian),
	    cmocka_unit_test(test_seed),
	    cmocka_unit_test(test_pgbench_hash_vectors),
	    cmocka_unit_test(test_pgbench_seed_vectors),
	    cmocka_unit_test(test_pgbench_clients_threads),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
