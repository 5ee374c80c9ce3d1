/* test_hist: the log-linear histogram against exact statistics of known
 * samples (percentiles within 1%, exact min/max/mean, merge = one big hist). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "hist.h"
#include "test_util.h"

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

static uint64_t rng(void)
{
	return test_rng(&rng_state);
}

/* nearest-rank percentile of a sorted sample */
static uint64_t exact_pct(const uint64_t *v, size_t n, double pct)
{
	if (pct <= 0)
		return v[0];
	size_t rank = (size_t)ceil(pct / 100.0 * (double)n);
	if (rank < 1)
		rank = 1;
	if (rank > n)
		rank = n;
	return v[rank - 1];
}

static void check_sample(uint64_t *v, size_t n)
{
	struct hist *h = malloc(sizeof(*h));
	assert_non_null(h);
	hist_init(h);
	double sum = 0;
	for (size_t i = 0; i < n; i++) {
		hist_record(h, v[i]);
		sum += (double)v[i];
	}
	qsort(v, n, sizeof(*v), test_cmp_u64);
	assert_int_equal(hist_count(h), n);
	assert_int_equal(hist_min(h), v[0]);
	assert_int_equal(hist_max(h), v[n - 1]);
	assert_true(fabs(hist_mean(h) - sum / (double)n) <= 1e-9 * sum / (double)n);

	static const double pcts[] = {0, 0.1, 1, 10, 25, 50, 75, 90, 95, 99, 99.9, 99.99, 100};
	for (size_t i = 0; i < sizeof(pcts) / sizeof(pcts[0]); i++) {
		double want = (double)exact_pct(v, n, pcts[i]);
		double got = (double)hist_percentile(h, pcts[i]);
		double err = want > 0 ? fabs(got - want) / want : got;
		if (err >= 0.01)
			fail_msg("p%g: hist %.0f exact %.0f (error %.3f%%)", pcts[i], got, want, err * 100);
	}
	free(h);
}

/* latencies spread over six decades (1 us .. 1 s), log-uniform */
static void test_log_uniform(void **state)
{
	(void)state;
	size_t n = 200000;
	uint64_t *v = malloc(n * sizeof(*v));
	for (size_t i = 0; i < n; i++) {
		double u = (double)(rng() >> 11) / (double)(1ull << 53);
		v[i] = (uint64_t)(1000.0 * pow(10.0, 6.0 * u));
	}
	check_sample(v, n);
	free(v);
}

/* a bimodal sample like a cache hit/miss mix, with a far tail */
static void test_bimodal_tail(void **state)
{
	(void)state;
	size_t n = 100003;
	uint64_t *v = malloc(n * sizeof(*v));
	for (size_t i = 0; i < n; i++) {
		uint64_t r = rng();
		if (i % 1000 == 0)
			v[i] = 50000000 + r % 1000000000ull; /* 50 ms .. 1 s */
		else if (r & 1)
			v[i] = 80000 + (r >> 8) % 20000; /* 80-100 us */
		else
			v[i] = 3000 + (r >> 8) % 500; /* 3-3.5 us */
	}
	check_sample(v, n);
	free(v);
}

/* small values are exact; the boundaries between bucket groups are contiguous */
static void test_small_and_geometry(void **state)
{
	(void)state;
	struct hist *h = malloc(sizeof(*h));
	hist_init(h);
	assert_int_equal(hist_count(h), 0);
	assert_int_equal(hist_percentile(h, 50), 0);
	assert_int_equal(hist_min(h), 0);
	for (uint64_t i = 0; i < 200; i++)
		hist_record(h, i);
	assert_int_equal(hist_percentile(h, 50), 99);
	assert_int_equal(hist_percentile(h, 100), 199);
	assert_int_equal(hist_percentile(h, 0), 0);
	assert_true(fabs(hist_mean(h) - 99.5) < 1e-9);
	assert_true(fabs(hist_stddev(h) - sqrt((200.0 * 200.0 - 1) / 12.0)) < 1e-6);

	for (unsigned i = 0; i + 1 < HIST_NBUCKETS; i++) {
		assert_int_equal(hist_bucket_index(hist_bucket_low(i)), i);
		assert_int_equal(hist_bucket_index(hist_bucket_high(i)), i);
		assert_int_equal(hist_bucket_high(i) + 1, hist_bucket_low(i + 1));
		uint64_t lo = hist_bucket_low(i), hi = hist_bucket_high(i);
		/* the midpoint of a bucket is within 0.5% of everything in it */
		if (lo)
			assert_true((double)(hi - lo) / 2.0 / (double)lo < 0.005);
	}
	/* huge values are clamped into the last bucket, max stays exact */
	hist_record(h, UINT64_MAX / 2);
	assert_int_equal(hist_max(h), UINT64_MAX / 2);
	assert_int_equal(hist_percentile(h, 100), UINT64_MAX / 2);
	free(h);
}

/* merging per-thread histograms gives exactly the single-histogram answer */
static void test_merge(void **state)
{
	(void)state;
	struct hist *all = malloc(sizeof(*all)), *part = malloc(4 * sizeof(*part)), *m = malloc(sizeof(*m));
	hist_init(all);
	hist_init(m);
	for (int t = 0; t < 4; t++)
		hist_init(&part[t]);
	for (int i = 0; i < 50000; i++) {
		uint64_t x = 500 + rng() % (1000000 * (uint64_t)(i % 4 + 1));
		hist_record(all, x);
		hist_record(&part[i % 4], x);
	}
	for (int t = 0; t < 4; t++)
		hist_merge(m, &part[t]);
	struct hist empty;
	hist_init(&empty);
	hist_merge(m, &empty);
	assert_int_equal(hist_count(m), hist_count(all));
	assert_int_equal(hist_min(m), hist_min(all));
	assert_int_equal(hist_max(m), hist_max(all));
	assert_true(fabs(hist_mean(m) - hist_mean(all)) < 1e-6);
	assert_true(fabs(hist_stddev(m) - hist_stddev(all)) < 1e-3 * hist_stddev(all));
	for (double p = 0; p <= 100; p += 0.5)
		assert_int_equal(hist_percentile(m, p), hist_percentile(all, p));
	free(all);
	free(part);
	free(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_log_uniform),
	    cmocka_unit_test(test_bimodal_tail),
	    cmocka_unit_test(test_small_and_geometry),
	    cmocka_unit_test(test_merge),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
