/* The latency element's model in virtual time (fixtures/latdev/lat_sched):
 * service times, sequential detection, queue depth, the write cache and
 * its drain, flushes, busy time; its parameters' text; latency_util; and
 * the scenario keys (devmodel/dm_latency). The real server is tested in
 * tests/integration/latdev.sh. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "diag.h"
#include "dm_latency.h"
#include "dm_spec.h"
#include "lat_sched.h"
#include "latdev.h"
#include "node.h"
#include "spec.h"

#define MS 1000000ULL

static struct lat_params model(uint64_t write_ns, unsigned qd, uint64_t cache)
{
	return (struct lat_params){true, 2 * MS, write_ns, MS / 10, write_ns, 3 * MS, qd, cache};
}

static void test_params_text(void **st)
{
	(void)st;
	struct lat_params p = model(5 * MS, 4, 65536), q;
	char line[512];
	lat_params_format(&p, line, sizeof(line));
	assert_int_equal(lat_params_parse(line, &q), 0);
	assert_true(q.armed);
	assert_int_equal(q.read_ns, p.read_ns);
	assert_int_equal(q.write_ns, p.write_ns);
	assert_int_equal(q.seq_read_ns, p.seq_read_ns);
	assert_int_equal(q.seq_write_ns, p.seq_write_ns);
	assert_int_equal(q.flush_ns, p.flush_ns);
	assert_int_equal(q.queue_depth, 4);
	assert_int_equal(q.cache_bytes, 65536);
	assert_int_equal(lat_params_parse("armed=1 qd=0", &q), -EINVAL);
	assert_int_equal(lat_params_parse("armed=1 speed=3", &q), -EINVAL);
	assert_int_equal(lat_params_parse("armed=x", &q), -EINVAL);
}

/* QD1: a backlog of writes completes one service time apart; QD2 twice as fast. */
static void test_queue_depth(void **st)
{
	(void)st;
	struct lat_sched s = {0};
	for (unsigned qd = 1; qd <= 2; qd++) {
		struct lat_params p = model(5 * MS, qd, 0);
		lat_sched_reset(&s, &p, 1000);
		uint64_t last = 0;
		for (int i = 0; i < 10; i++) /* random offsets: never sequential */
			last = lat_sched_submit(&s, 1000, LAT_WRITE, (uint64_t)(i * 7 + 3) * 8192, 4096);
		assert_int_equal(last - 1000, 50 * MS / qd);
		/* half way, every slot has been busy all along */
		assert_int_equal(lat_sched_busy(&s, 1000 + 20 * MS / qd), 20 * MS);
		assert_int_equal(lat_sched_busy(&s, 1000 + 100 * MS), 50 * MS);
	}
	lat_sched_free(&s);
}

static void test_sequential_and_idle(void **st)
{
	(void)st;
	struct lat_sched s = {0};
	struct lat_params p = model(5 * MS, 1, 0);
	lat_sched_reset(&s, &p, 0);
	/* reads: the first random, the next contiguous (seq_read 0.1 ms) */
	assert_int_equal(lat_sched_submit(&s, 0, LAT_READ, 4096, 4096), 2 * MS);
	assert_int_equal(lat_sched_submit(&s, 10 * MS, LAT_READ, 8192, 4096), 10 * MS + MS / 10);
	/* an idle device starts a request at its arrival */
	assert_int_equal(lat_sched_submit(&s, 20 * MS, LAT_WRITE, 0, 4096), 25 * MS);
	/* a flush without a write cache takes a slot for flush_ns */
	assert_int_equal(lat_sched_submit(&s, 30 * MS, LAT_FLUSH, 0, 0), 33 * MS);
	assert_int_equal(lat_sched_busy(&s, 40 * MS), 2 * MS + MS / 10 + 5 * MS + 3 * MS);
	/* disarmed: at once, whatever the request */
	struct lat_params off = {.queue_depth = 1};
	lat_sched_reset(&s, &off, 50 * MS);
	assert_int_equal(lat_sched_submit(&s, 51 * MS, LAT_WRITE, 0, 1 << 20), 51 * MS);
	assert_int_equal(lat_sched_submit(&s, 52 * MS, LAT_FLUSH, 0, 0), 52 * MS);
	assert_int_equal(s.nreq[LAT_WRITE], 2);
	lat_sched_free(&s);
}

/* A 16 KiB write cache: four 4k writes complete at once, the fifth when the
 * first has drained; a flush waits for the drain, then costs flush_ns. */
static void test_write_cache(void **st)
{
	(void)st;
	struct lat_sched s = {0};
	struct lat_params p = model(5 * MS, 1, 16384);
	lat_sched_reset(&s, &p, 0);
	for (int i = 0; i < 4; i++)
		assert_int_equal(lat_sched_submit(&s, 0, LAT_WRITE, (uint64_t)i * 65536, 4096), 0);
	assert_int_equal(lat_sched_submit(&s, 0, LAT_WRITE, 9 * 65536, 4096), 5 * MS);
	assert_int_equal(lat_sched_submit(&s, 0, LAT_WRITE, 11 * 65536, 4096), 10 * MS);
	/* 6 writes drain by 30 ms; the flush then takes 3 ms */
	assert_int_equal(lat_sched_submit(&s, MS, LAT_FLUSH, 0, 0), 33 * MS);
	/* once drained, writes are fast again */
	assert_int_equal(lat_sched_submit(&s, 40 * MS, LAT_WRITE, 0, 4096), 40 * MS);
	/* a write larger than the cache goes through it to the device */
	assert_int_equal(lat_sched_submit(&s, 100 * MS, LAT_WRITE, 1 << 20, 65536), 105 * MS);
	lat_sched_free(&s);
}

static void test_util(void **st)
{
	(void)st;
	struct latdev_stats a = {.t_ns = 1000 * MS, .busy_ns = 100 * MS, .qd = 2};
	struct latdev_stats b = {.t_ns = 2000 * MS, .busy_ns = 1600 * MS, .qd = 2};
	assert_float_equal(latdev_util(&a, &b), 0.75, 1e-12);
	assert_float_equal(latdev_util(&b, &a), -1, 0);
}

static struct node *load(const char *yaml)
{
	struct diag d;
	diag_init(&d);
	struct node *n = spec_load_string("t.yaml", yaml, &d);
	assert_non_null(n);
	diag_free(&d);
	return n;
}

static void test_keys(void **st)
{
	(void)st;
	struct node *root =
	    load("target: {kind: loop, size: 1GiB,\n"
	         "  model: {write_iops: 100, latency: {read_us: 8.3ms, write_us: 500,\n"
	         "    seq_read_us: 100us, flush_us: 1s, queue_depth: 4, write_cache: 64MB}}}\n");
	struct dm_spec s;
	struct diag d;
	diag_init(&d);
	assert_int_equal(dm_spec_parse(node_get(root, "target"), "target", true, &s, &d), 0);
	assert_true(s.present && s.lat.present);
	assert_float_equal(s.lat.read_s, 8.3e-3, 1e-12);
	assert_float_equal(s.lat.write_s, 500e-6, 1e-12); /* a bare number: microseconds */
	assert_float_equal(s.lat.seq_read_s, 100e-6, 1e-12);
	assert_float_equal(s.lat.seq_write_s, 500e-6, 1e-12); /* defaults to write_us */
	assert_float_equal(s.lat.flush_s, 1, 1e-12);
	assert_int_equal(s.lat.queue_depth, 4);
	assert_int_equal(s.lat.write_cache, 64ULL << 20);
	assert_int_equal(s.base.v[DM_WRITE_IOPS], 100);
	dm_latency_scale(&s.lat, 2);
	assert_float_equal(s.lat.read_s, 4.15e-3, 1e-12);
	assert_int_equal(s.lat.write_cache, 64ULL << 20);
	diag_free(&d);
	node_free(root);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_params_text),
	    cmocka_unit_test(test_queue_depth),
	    cmocka_unit_test(test_sequential_and_idle),
	    cmocka_unit_test(test_write_cache),
	    cmocka_unit_test(test_util),
	    cmocka_unit_test(test_keys),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
