/* test_io_lat: latency over time in the io step (engine/workloads/io/io_lat.c):
 * the inline bucket index agrees with hist's; the monitor's interval
 * histograms (sum of the jobs' cumulative buckets minus the previous sum)
 * hold exactly the values recorded in between, also while writer threads
 * record concurrently (no value lost or counted twice); the percentiles of
 * an interval are ordered and within the histogram's error; the per-I/O log
 * keeps every record across chunks; the histogram log and the latency log
 * written through a directory fd are RFC 4180 CSV whose counts add up. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <fcntl.h>
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cell.h"
#include "hist.h"
#include "io_job.h"
#include "io_lat.h"
#include "result.h"
#include "test_util.h"

static uint64_t rng_state = 0x2545f4914f6cdd1dull;

static uint64_t rng(void)
{
	return test_rng(&rng_state);
}

/* a latency-like value: 1 us .. ~16 ms, log-uniform */
static uint64_t rand_lat(void)
{
	unsigned sh = 10 + (unsigned)(rng() % 14);
	return (1ull << sh) + rng() % (1ull << sh);
}

static void test_index_agrees(void **state)
{
	(void)state;
	for (uint64_t v = 0; v < 100000; v++)
		assert_int_equal(io_lat_index(v), hist_bucket_index(v));
	for (unsigned b = 0; b < 64; b++) {
		uint64_t p = 1ull << b;
		assert_int_equal(io_lat_index(p), hist_bucket_index(p));
		assert_int_equal(io_lat_index(p - 1), hist_bucket_index(p - 1));
		assert_int_equal(io_lat_index(p + 1), hist_bucket_index(p + 1));
	}
	for (int i = 0; i < 1000000; i++) {
		uint64_t v = rng() >> (rng() % 64);
		assert_int_equal(io_lat_index(v), hist_bucket_index(v));
	}
	assert_int_equal(io_lat_index(UINT64_MAX), HIST_NBUCKETS - 1);
}

static struct io_job *make_jobs(unsigned n, bool log)
{
	struct io_job *jobs = calloc(n, sizeof(*jobs));
	struct io_opts o;
	memset(&o, 0, sizeof(o));
	o.lat_log = log;
	for (unsigned i = 0; i < n; i++)
		assert_int_equal(io_lat_job_setup(&jobs[i], &o), 0);
	return jobs;
}

static void free_jobs(struct io_job *jobs, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		io_lat_job_free(&jobs[i]);
	free(jobs);
}

/* Three jobs, three intervals: each interval's difference is exactly the
 * histogram of the values recorded in it, in either direction. */
static void test_interval_merge(void **state)
{
	(void)state;
	enum { NJ = 3, NI = 3 };
	struct io_job *jobs = make_jobs(NJ, false);
	uint64_t *cur = calloc(HIST_NBUCKETS, 8), *prev[2], *diff = calloc(HIST_NBUCKETS, 8);
	prev[0] = calloc(HIST_NBUCKETS, 8);
	prev[1] = calloc(HIST_NBUCKETS, 8);
	struct hist *ref = malloc(sizeof(*ref)), *ivl = malloc(sizeof(*ivl));
	struct hist *all = malloc(sizeof(*all)), *sum = malloc(sizeof(*sum));
	hist_init(all);
	hist_init(sum);
	for (int k = 0; k < NI; k++) {
		struct hist refd[2];
		(void)refd;
		for (int rd = 0; rd < 2; rd++) {
			hist_init(ref);
			unsigned n = 1000 + (unsigned)(rng() % 5000) * (unsigned)(k + 1);
			uint64_t vmax = 0;
			for (unsigned i = 0; i < n; i++) {
				uint64_t v = rand_lat();
				if (k == 1 && i == 7)
					v = 123456789; /* a spike in the second interval */
				io_lat_count(jobs[i % NJ].lat_ivl[rd], NULL, rd, v, 0, 4096, 0);
				hist_record(ref, v);
				hist_record(all, v);
				if (v > vmax)
					vmax = v;
			}
			io_lat_take(jobs, NJ, rd, cur, prev[rd], diff);
			io_lat_ivl_hist(ivl, diff);
			hist_merge(sum, ivl);
			assert_int_equal(ivl->count, n);
			assert_memory_equal(ivl->bucket, ref->bucket, sizeof(ref->bucket));
			uint64_t p50 = hist_percentile(ivl, 50), p99 = hist_percentile(ivl, 99);
			uint64_t mx = hist_max(ivl);
			assert_true(p50 <= p99 && p99 <= mx);
			/* as hist's own percentiles, up to the clamp to the exact min/max */
			assert_true(fabs((double)p50 - (double)hist_percentile(ref, 50)) <=
			            0.004 * (double)p50);
			assert_true(fabs((double)p99 - (double)hist_percentile(ref, 99)) <=
			            0.004 * (double)p99);
			assert_true(fabs((double)mx - (double)vmax) <= 0.004 * (double)vmax);
			if (k == 1)
				assert_true(mx > 122000000 && mx < 125000000);
		}
	}
	/* nothing in between: empty intervals */
	for (int rd = 0; rd < 2; rd++) {
		io_lat_take(jobs, NJ, rd, cur, prev[rd], diff);
		io_lat_ivl_hist(ivl, diff);
		assert_int_equal(ivl->count, 0);
	}
	assert_int_equal(sum->count, all->count);
	assert_memory_equal(sum->bucket, all->bucket, sizeof(all->bucket));
	free(ref);
	free(ivl);
	free(all);
	free(sum);
	free(cur);
	free(diff);
	free(prev[0]);
	free(prev[1]);
	free_jobs(jobs, NJ);
}

struct writer {
	struct io_job *job;
	uint64_t n;
	uint64_t seed;
	uint64_t *ref; /* the writer's own bucket counts */
	int done;
};

static void *writer_run(void *arg)
{
	struct writer *w = arg;
	uint64_t s = w->seed;
	for (uint64_t i = 0; i < w->n; i++) {
		s ^= s >> 12;
		s ^= s << 25;
		s ^= s >> 27;
		uint64_t v = (s * 2685821657736338717ull) >> (40 + s % 20);
		io_lat_count(w->job->lat_ivl[i & 1], NULL, i & 1, v, 0, 4096, 0);
		w->ref[io_lat_index(v)]++;
	}
	__atomic_store_n(&w->done, 1, __ATOMIC_RELEASE);
	return NULL;
}

/* Writers record while the monitor takes intervals as fast as it can: the
 * intervals add up to exactly what was recorded, bucket by bucket. */
static void test_concurrent(void **state)
{
	(void)state;
	enum { NJ = 2 };
	struct io_job *jobs = make_jobs(NJ, false);
	struct writer w[NJ];
	pthread_t t[NJ];
	uint64_t *cur = calloc(HIST_NBUCKETS, 8), *diff = calloc(HIST_NBUCKETS, 8);
	uint64_t *prev[2] = {calloc(HIST_NBUCKETS, 8), calloc(HIST_NBUCKETS, 8)};
	uint64_t *got = calloc(HIST_NBUCKETS, 8);
	for (unsigned i = 0; i < NJ; i++) {
		w[i] = (struct writer){&jobs[i], 3000000, 0x1234567ull + i, calloc(HIST_NBUCKETS, 8), 0};
		assert_int_equal(pthread_create(&t[i], NULL, writer_run, &w[i]), 0);
	}
	unsigned takes = 0;
	for (;;) {
		bool done = true;
		for (unsigned i = 0; i < NJ; i++)
			done = done && __atomic_load_n(&w[i].done, __ATOMIC_ACQUIRE);
		for (int rd = 0; rd < 2; rd++) {
			io_lat_take(jobs, NJ, rd, cur, prev[rd], diff);
			for (unsigned k = 0; k < HIST_NBUCKETS; k++)
				got[k] += diff[k];
		}
		takes++;
		if (done)
			break;
	}
	/* the last take above came after every writer had finished */
	for (unsigned i = 0; i < NJ; i++)
		pthread_join(t[i], NULL);
	for (unsigned k = 0; k < HIST_NBUCKETS; k++) {
		uint64_t want = 0;
		for (unsigned i = 0; i < NJ; i++)
			want += w[i].ref[k];
		assert_int_equal(got[k], want);
	}
	assert_true(takes > 1);
	for (unsigned i = 0; i < NJ; i++)
		free(w[i].ref);
	free(cur);
	free(diff);
	free(prev[0]);
	free(prev[1]);
	free(got);
	free_jobs(jobs, NJ);
}

/* The log keeps every record, across chunks, in order. */
static void test_log_chunks(void **state)
{
	(void)state;
	struct io_job *jobs = make_jobs(1, true);
	uint64_t n = 200000; /* several 1 MiB chunks of 32-byte records */
	for (uint64_t i = 0; i < n; i++)
		io_lat_count(jobs[0].lat_ivl[i % 3 == 0], jobs[0].lat_log, i % 3 == 0, 1000 + i, i * 4096,
		             4096, 5000 + i);
	struct io_lat_log *l = jobs[0].lat_log;
	assert_int_equal(l->dropped, 0);
	assert_non_null(l->head);
	assert_true(l->head != l->tail);
	free_jobs(jobs, 1);
}

static char *read_all(int dfd, const char *name)
{
	int fd = openat(dfd, name, O_RDONLY);
	assert_true(fd >= 0);
	size_t cap = 1 << 20, n = 0;
	char *buf = malloc(cap);
	ssize_t r;
	while ((r = read(fd, buf + n, cap - n - 1)) > 0) {
		n += (size_t)r;
		if (n + 1 == cap)
			buf = realloc(buf, cap *= 2);
	}
	close(fd);
	buf[n] = 0;
	return buf;
}

/* The monitor with hist_log and lat_log over two jobs and three intervals,
 * written through a directory fd: the files' rows add up to what was
 * recorded, the log is in time order over both jobs, lines end in CRLF. */
static void test_logs_written(void **state)
{
	(void)state;
	enum { NJ = 2 };
	struct io_job *jobs = make_jobs(NJ, true);
	struct io_opts o;
	memset(&o, 0, sizeof(o));
	o.rw = IO_RW_RANDRW;
	o.lat_log = true;
	o.hist_log = 0.1;
	struct io_shared sh;
	memset(&sh, 0, sizeof(sh));
	sh.t0 = 1000000000ull;
	sh.measure_start = sh.t0 + 50000000ull; /* a 50 ms ramp */
	struct io_lat_mon *m = io_lat_mon_new(jobs, NJ, &o, &sh);
	assert_non_null(m);
	assert_int_equal(io_lat_hist_due(m), sh.measure_start + 100000000ull);
	uint64_t now = sh.measure_start, total = 0;
	for (int k = 0; k < 3; k++) {
		for (int i = 0; i < 1000; i++) {
			now += 89000; /* 89 us apart: 1000 per 89 ms */
			unsigned j = (unsigned)i % NJ;
			bool rd = k != 1 || i % 2; /* the second interval: writes too */
			io_lat_count(jobs[j].lat_ivl[rd], jobs[j].lat_log, rd, rand_lat(), (uint64_t)i * 4096,
			             4096, now - j * 1000);
			total++;
		}
		io_lat_hist_tick(m, now, false); /* not due yet in the first two */
		now += 15000000ull;
		io_lat_hist_tick(m, now, false);
	}
	io_lat_hist_tick(m, now, true); /* nothing after the last interval */

	char dir[] = "/tmp/test_io_lat.XXXXXX";
	assert_non_null(mkdtemp(dir));
	int dfd = open(dir, O_RDONLY | O_DIRECTORY);
	struct cell cell;
	memset(&cell, 0, sizeof(cell));
	struct step_ctx cx;
	memset(&cx, 0, sizeof(cx));
	cx.cell = &cell;
	cx.cell_dir = dir;
	cx.cell_dirfd = dfd;
	cx.step_name = "a step/x";
	struct step_result res;
	result_init(&res, "a step/x", "io");
	assert_int_equal(io_lat_write(m, &cx, &res), 0);
	assert_false(res.failed);

	char *lat = read_all(dfd, "a_step_x.lat.csv");
	char *line = strtok(lat, "\n");
	assert_string_equal(line, "time_s,job,dir,lat_us,bytes,offset\r");
	uint64_t rows = 0;
	double last = -1;
	while ((line = strtok(NULL, "\n"))) {
		assert_int_equal(line[strlen(line) - 1], '\r');
		double t = strtod(line, NULL);
		assert_true(t >= last);
		last = t;
		rows++;
	}
	assert_int_equal(rows, total);
	free(lat);

	char *hl = read_all(dfd, "a_step_x.hist.csv");
	line = strtok(hl, "\n");
	assert_string_equal(line, "start_s,end_s,dir,bucket,low_ns,high_ns,count\r");
	uint64_t sum = 0, empty = 0;
	while ((line = strtok(NULL, "\n"))) {
		assert_int_equal(line[strlen(line) - 1], '\r');
		const char *c = strrchr(line, ',');
		sum += strtoull(c + 1, NULL, 10);
		if (strstr(line, ",write,,,,0\r"))
			empty++;
	}
	assert_int_equal(sum, total);
	assert_int_equal(empty, 2); /* the first and the third interval had no writes */
	free(hl);

	unlinkat(dfd, "a_step_x.lat.csv", 0);
	unlinkat(dfd, "a_step_x.hist.csv", 0);
	close(dfd);
	rmdir(dir);
	result_free(&res);
	io_lat_mon_free(m);
	free_jobs(jobs, NJ);
}

/* B5 (review): a tail shorter than a quarter interval gets no series point
 * but its I/Os are in read.lat_hist as a last, shorter interval: the kept
 * intervals add up to every I/O recorded. Before, the tail was lost. */
static void test_tail_kept(void **state)
{
	(void)state;
	struct io_job *jobs = make_jobs(1, false);
	struct io_opts o;
	memset(&o, 0, sizeof(o));
	o.rw = IO_RW_RANDREAD;
	struct io_shared sh;
	memset(&sh, 0, sizeof(sh));
	struct io_lat_mon *m = io_lat_mon_new(jobs, 1, &o, &sh);
	assert_non_null(m);
	struct step_result res;
	result_init(&res, "t", "io");
	for (int i = 0; i < 700; i++)
		io_lat_count(jobs[0].lat_ivl[1], NULL, true, rand_lat(), 0, 4096, 0);
	io_lat_series(m, &res, 1.0); /* a sampled interval [0, 1) */
	assert_true(res.ns > 0);
	size_t points = res.s[0].n;
	for (int i = 0; i < 55; i++)
		io_lat_count(jobs[0].lat_ivl[1], NULL, true, rand_lat(), 0, 4096, 0);
	io_lat_tail(m, 1.2); /* a sliver: no point, kept */
	assert_int_equal(res.s[0].n, points);
	io_lat_tail(m, 1.2); /* nothing new, no empty interval */
	assert_int_equal(io_lat_write(m, NULL, &res), 0);
	const char *text = result_info_get(&res, "read.lat_hist");
	assert_non_null(text);
	assert_null(result_info_get(&res, "write.lat_hist"));
	struct hist_series hs = {0};
	assert_int_equal(hist_series_parse(&hs, text), 0);
	assert_int_equal(hs.nivl, 2);
	assert_int_equal(hs.total, 755);
	assert_true(fabs(hs.t0[1] - 1.0) < 1e-3 && fabs(hs.t1[1] - 1.2) < 1e-3);
	uint64_t last = 0;
	for (unsigned k = 0; k < HIST_COARSE_N; k++)
		last += hs.c[HIST_COARSE_N + k];
	assert_int_equal(last, 55);
	hist_series_free(&hs);
	result_free(&res);
	io_lat_mon_free(m);
	free_jobs(jobs, 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_index_agrees), cmocka_unit_test(test_interval_merge),
	    cmocka_unit_test(test_concurrent),   cmocka_unit_test(test_log_chunks),
	    cmocka_unit_test(test_logs_written), cmocka_unit_test(test_tail_kept),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
