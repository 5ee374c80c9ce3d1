/* test_group_total: a parallel group's total (model/group_total.h) from
 * crafted members: I/Os and bytes add up over the longest member's seconds
 * (per direction, as fio's group_reporting), the latency percentiles of the
 * members' merged distributions match the exact ones of all their samples
 * within the coarse histogram's 3.2 %, the mean is weighted by I/Os, and a
 * failed member makes no total. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "group_total.h"
#include "hist.h"
#include "test_util.h"

static uint64_t rng_state = 0x2545f4914f6cdd1dull;

static uint64_t rng(void)
{
	return test_rng(&rng_state);
}

/* A one-way io member: n latencies from lo to lo + span ns over secs
 * seconds, written into all (the union) at *nall; its figures as the io
 * step writes them, its distribution as lat_hist text. */
static void member(struct step_result *r, const char *name, const char *rw, size_t n, uint64_t lo,
                   uint64_t span, double secs, uint64_t *all, size_t *nall)
{
	result_init(r, name, "io");
	struct hist *h = malloc(sizeof(*h));
	assert_non_null(h);
	hist_init(h);
	for (size_t i = 0; i < n; i++) {
		uint64_t v = lo + rng() % span;
		hist_record(h, v);
		all[(*nall)++] = v;
	}
	struct hist_text t = {0};
	hist_text_add(&t, 0, secs, h->bucket);
	bool rd = strstr(rw, "read") != NULL;
	result_info(r, rd ? "read.lat_hist" : "write.lat_hist", "%s", hist_text_str(&t));
	result_info(r, "rw", "%s", rw);
	result_info(r, "bs", "4096");
	result_metric(r, "seconds", secs, "s");
	result_metric(r, "iops", (double)n / secs, "IOPS");
	result_metric(r, "bytes", 4096.0 * (double)n, "bytes");
	result_metric(r, "lat_mean_us", hist_mean(h) / 1e3, "us");
	result_metric(r, "lat_min_us", (double)hist_min(h) / 1e3, "us");
	result_metric(r, "lat_max_us", (double)hist_max(h) / 1e3, "us");
	result_metric(r, "cpu_usr", rd ? 12 : 30, "%");
	result_metric(r, "disk_util_pct", secs, "%");
	hist_text_free(&t);
	free(h);
}

static double get(const struct step_result *r, const char *name)
{
	const struct metric *m = result_get(r, name);
	assert_non_null(m);
	return m->value;
}

static uint64_t exact_pct(const uint64_t *v, size_t n, double pct)
{
	size_t rank = (size_t)ceil(pct / 100.0 * (double)n);
	return v[(rank < 1 ? 1 : rank > n ? n : rank) - 1];
}

static void test_read_beside_write(void **state)
{
	(void)state;
	size_t nall = 0;
	uint64_t *all = malloc(30000 * sizeof(*all)), *rd = malloc(30000 * sizeof(*rd));
	assert_non_null(all);
	assert_non_null(rd);
	struct step_result a, b, tot;
	/* reads of 20-120 us over 2 s, writes of 5-25 us over 1 s */
	member(&a, "reader", "randread", 20000, 20000, 100000, 2.0, all, &nall);
	memcpy(rd, all, nall * sizeof(*rd));
	size_t nrd = nall;
	member(&b, "writer", "randwrite", 6000, 5000, 20000, 1.0, all, &nall);
	const struct step_result *m[] = {&a, &b};
	result_init(&tot, "g", "io");
	assert_int_equal(group_total(m, 2, &tot), 0);

	/* fio: each direction over its own longest runtime; the whole over
	 * the longest of all */
	assert_true(fabs(get(&tot, "read.iops") - 10000) < 1e-6);
	assert_true(fabs(get(&tot, "write.iops") - 6000) < 1e-6);
	assert_true(fabs(get(&tot, "iops") - 13000) < 1e-6);
	assert_true(fabs(get(&tot, "bytes") - 4096.0 * 26000) < 1e-3);
	assert_true(fabs(get(&tot, "read.bytes") - 4096.0 * 20000) < 1e-3);
	assert_true(fabs(get(&tot, "seconds") - 2.0) < 1e-9);
	assert_true(fabs(get(&tot, "mb_s") - 4096.0 * 26000 / 2 / 1e6) < 1e-6);
	assert_true(fabs(get(&tot, "write.mib_s") - 4096.0 * 6000 / 1048576.0) < 1e-6);

	/* the mean weighted by I/Os, the extremes exact */
	double want_mean = (get(&a, "lat_mean_us") * 20000 + get(&b, "lat_mean_us") * 6000) / 26000;
	assert_true(fabs(get(&tot, "lat_mean_us") - want_mean) < 1e-6);
	assert_true(fabs(get(&tot, "lat_min_us") - get(&b, "lat_min_us")) < 1e-9);
	assert_true(fabs(get(&tot, "lat_max_us") - get(&a, "lat_max_us")) < 1e-9);
	assert_true(fabs(get(&tot, "read.lat_min_us") - get(&a, "lat_min_us")) < 1e-9);

	/* percentiles of the union, and of the reads alone */
	qsort(all, nall, sizeof(*all), test_cmp_u64);
	qsort(rd, nrd, sizeof(*rd), test_cmp_u64);
	static const struct {
		const char *name;
		double pct;
	} p[] = {{"lat_p50_us", 50}, {"lat_p90_us", 90}, {"lat_p99_us", 99}, {"lat_p999_us", 99.9}};
	for (size_t k = 0; k < sizeof(p) / sizeof(p[0]); k++) {
		double want = (double)exact_pct(all, nall, p[k].pct) / 1e3, got = get(&tot, p[k].name);
		assert_true(fabs(got - want) <= 0.032 * want);
		char rname[32];
		snprintf(rname, sizeof(rname), "read.%s", p[k].name);
		want = (double)exact_pct(rd, nrd, p[k].pct) / 1e3;
		got = get(&tot, rname);
		assert_true(fabs(got - want) <= 0.032 * want);
	}
	/* the writes' p50 is below the reads' least: the union is not one member */
	assert_true(get(&tot, "write.lat_p50_us") < get(&a, "lat_min_us"));

	/* the process's CPU: the largest member's; the monitor's: the longest's */
	assert_true(fabs(get(&tot, "cpu_usr") - 30) < 1e-9);
	assert_true(fabs(get(&tot, "disk_util_pct") - 2.0) < 1e-9);
	assert_string_equal(result_info_get(&tot, "group_total_of"), "reader, writer");
	assert_string_equal(result_info_get(&tot, "rw"), "randrw");
	assert_string_equal(result_info_get(&tot, "bs"), "4096");
	result_free(&a);
	result_free(&b);
	result_free(&tot);
	free(all);
	free(rd);
}

/* Two readers: one direction, so no read.* (the unprefixed figures are
 * the reads'), as a one-way step has none. */
static void test_one_way(void **state)
{
	(void)state;
	size_t nall = 0;
	uint64_t *all = malloc(4000 * sizeof(*all));
	assert_non_null(all);
	struct step_result a, b, tot;
	member(&a, "r1", "randread", 1000, 1000, 1000, 1.0, all, &nall);
	member(&b, "r2", "read", 2000, 1000, 1000, 1.0, all, &nall);
	const struct step_result *m[] = {&a, &b};
	result_init(&tot, "g", "io");
	assert_int_equal(group_total(m, 2, &tot), 0);
	assert_true(fabs(get(&tot, "iops") - 3000) < 1e-6);
	assert_null(result_get(&tot, "read.iops"));
	assert_null(result_get(&tot, "write.iops"));
	assert_string_equal(result_info_get(&tot, "rw"), "rw"); /* not every member is random */
	result_free(&tot);

	/* no distribution kept: no percentiles, and a warning says why */
	result_info(&a, "read.lat_hist", "%s", "not a histogram");
	result_init(&tot, "g", "io");
	assert_int_equal(group_total(m, 2, &tot), 0);
	assert_null(result_get(&tot, "lat_p99_us"));
	assert_non_null(result_get(&tot, "lat_mean_us"));
	assert_non_null(strstr(result_info_get(&tot, "warning"), "no latency percentiles"));
	result_free(&tot);

	/* a failed member: no total */
	result_fail(&b, "io: boom");
	result_init(&tot, "g", "io");
	assert_int_equal(group_total(m, 2, &tot), -1);
	assert_non_null(strstr(tot.error, "step r2 failed"));
	result_free(&tot);
	result_free(&a);
	result_free(&b);
	free(all);
}

/* A randrw member (read.* and write.* of its own) beside a reader: each
 * direction sums the reader's reads with the mixed step's reads. */
static void test_mixed_member(void **state)
{
	(void)state;
	size_t nall = 0;
	uint64_t *all = malloc(8000 * sizeof(*all));
	assert_non_null(all);
	struct step_result a, b, tot;
	member(&a, "reader", "randread", 3000, 1000, 1000, 1.0, all, &nall);
	/* the mixed step: 2000 reads and 1000 writes over 2 s */
	struct step_result r, w;
	member(&r, "r", "randread", 2000, 3000, 1000, 2.0, all, &nall);
	member(&w, "w", "randwrite", 1000, 5000, 1000, 2.0, all, &nall);
	result_init(&b, "mixed", "io");
	result_info(&b, "rw", "randrw");
	result_info(&b, "read.lat_hist", "%s", result_info_get(&r, "read.lat_hist"));
	result_info(&b, "write.lat_hist", "%s", result_info_get(&w, "write.lat_hist"));
	result_metric(&b, "seconds", 2.0, "s");
	result_metric(&b, "iops", 1500, "IOPS");
	result_metric(&b, "bytes", 4096.0 * 3000, "bytes");
	result_metric(&b, "lat_mean_us", 3.5, "us");
	result_metric(&b, "lat_min_us", 3.0, "us");
	result_metric(&b, "lat_max_us", 6.0, "us");
	static const char *const dirs[2][2] = {{"read.", "1000"}, {"write.", "500"}};
	for (int d = 0; d < 2; d++) {
		char k[32];
		const struct step_result *src = d ? &w : &r;
		snprintf(k, sizeof(k), "%siops", dirs[d][0]);
		result_metric(&b, k, atof(dirs[d][1]), "IOPS");
		snprintf(k, sizeof(k), "%sbytes", dirs[d][0]);
		result_metric(&b, k, get(src, "bytes"), "bytes");
		static const char *const lat[] = {"lat_mean_us", "lat_min_us", "lat_max_us"};
		for (int l = 0; l < 3; l++) {
			snprintf(k, sizeof(k), "%s%s", dirs[d][0], lat[l]);
			result_metric(&b, k, get(src, lat[l]), "us");
		}
	}
	const struct step_result *m[] = {&a, &b};
	result_init(&tot, "g", "io");
	assert_int_equal(group_total(m, 2, &tot), 0);
	/* reads: 3000 over 1 s and 2000 over 2 s: 5000 I/Os over 2 s */
	assert_true(fabs(get(&tot, "read.iops") - 2500) < 1e-6);
	assert_true(fabs(get(&tot, "write.iops") - 500) < 1e-6);
	assert_true(fabs(get(&tot, "iops") - 3000) < 1e-6);
	assert_true(fabs(get(&tot, "write.lat_min_us") - get(&w, "lat_min_us")) < 1e-9);
	assert_true(get(&tot, "write.lat_p50_us") >= 5.0 * 0.968 &&
	            get(&tot, "write.lat_p50_us") <= 6.0 * 1.032);
	assert_true(get(&tot, "read.lat_p99_us") < 4.0 * 1.032); /* the reads are all under 4 us */
	result_free(&tot);

	/* the mixed step kept no write distribution: the whole has no
	 * percentiles either (they would miss its writes) */
	for (size_t i = 0; i < b.ni; i++)
		if (!strcmp(b.info[i].key, "write.lat_hist")) {
			free(b.info[i].value);
			b.info[i].value = strdup("broken");
		}
	result_init(&tot, "g", "io");
	assert_int_equal(group_total(m, 2, &tot), 0);
	assert_null(result_get(&tot, "lat_p99_us"));
	assert_null(result_get(&tot, "write.lat_p99_us"));
	assert_non_null(result_get(&tot, "read.lat_p99_us"));
	result_free(&tot);
	result_free(&a);
	result_free(&b);
	result_free(&r);
	result_free(&w);
	free(all);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_read_beside_write),
	    cmocka_unit_test(test_one_way),
	    cmocka_unit_test(test_mixed_member),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
