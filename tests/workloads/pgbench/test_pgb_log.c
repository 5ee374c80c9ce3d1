/* pgb_log: pgbench 15's log lines, written for synthetic transactions with
 * a fixed clock: per transaction (with and without lag and retries, failed,
 * skipped), aggregated (interval boundaries, empty intervals, the columns
 * of options that are off, the unfinished last interval left out), and the
 * sampling rate. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "pgb_log.h"

#define S     1000000000LL
#define EPOCH 1700000000LL

struct fixture {
	char dir[64];
	struct step_ctx cx;
	struct step_result res;
	struct pgb_fail_cfg f;
};

static void start(struct fixture *x, struct pgb_fail_cfg f, int nthreads)
{
	snprintf(x->dir, sizeof(x->dir), "/tmp/test_pgb_log.XXXXXX");
	assert_non_null(mkdtemp(x->dir));
	x->cx = (struct step_ctx){.cell_dir = x->dir, .step_name = "st ep"};
	result_init(&x->res, "st ep", "pgbench");
	x->f = f;
	assert_int_equal(pgb_log_start(&x->f, &x->cx, nthreads, &x->res), 0);
	assert_int_equal(x->f.nlogs, nthreads);
	x->f.epoch_shift_ns = EPOCH * S; /* monotonic 0 = the epoch second EPOCH */
}

/* End the run and return the file of thread 0 (malloc'd), then clean up. */
static char *finish(struct fixture *x, int nthreads)
{
	char path[128], *buf = calloc(1, 1 << 22);

	assert_int_equal(pgb_log_end(&x->f, &x->cx, &x->res), 0);
	assert_false(x->res.failed);
	for (int i = nthreads - 1; i >= 0; i--) {
		snprintf(path, sizeof(path), "%s/st_ep.log.%d", x->dir, i);
		FILE *fp = fopen(path, "r");

		assert_non_null(fp);
		size_t n = fread(buf, 1, (1 << 22) - 1, fp);

		buf[n] = '\0';
		fclose(fp);
		unlink(path);
	}
	rmdir(x->dir);
	result_free(&x->res);
	return buf;
}

static struct pgb_log_txn txn(int client, int64_t no, int64_t end_ns, int64_t lat_us, int64_t lag_us,
                              int64_t tries, enum pgb_txn_status st)
{
	return (struct pgb_log_txn){.client = client,
	                            .txn_no = no,
	                            .script = 1,
	                            .end_ns = end_ns,
	                            .lat_ns = lat_us * 1000 + 999, /* truncated to us, as pgbench's */
	                            .lag_ns = lag_us * 1000,
	                            .tries = tries,
	                            .status = st};
}

static void test_raw(void **state)
{
	(void)state;
	struct fixture x;
	struct pgb_log_txn t;

	start(&x, (struct pgb_fail_cfg){.log = true, .max_tries = 1}, 1);
	t = txn(0, 1, S + S / 2, 2345, 0, 1, PGB_TXN_OK);
	pgb_log_txn(&x.f.logs[0], &x.f, 0, &t);
	t = txn(3, 2, 2 * S + 5000, 0, 0, 1, PGB_TXN_SERIALIZATION);
	pgb_log_txn(&x.f.logs[0], &x.f, 0, &t);
	char *out = finish(&x, 1);

	/* time_us is not zero-padded, as pgbench's */
	assert_string_equal(out, "0 1 2345 1 1700000001 500000\n"
	                         "3 2 failed 1 1700000002 5\n");
	free(out);

	/* with a rate (lag column), retries (max_tries 3) and failure kinds */
	start(
	    &x,
	    (struct pgb_fail_cfg){.log = true, .max_tries = 3, .throttled = true, .failures_detailed = true},
	    1);
	t = txn(0, 1, S, 1500, 40, 2, PGB_TXN_OK);
	pgb_log_txn(&x.f.logs[0], &x.f, 0, &t);
	t = txn(0, 2, S, 0, 0, 3, PGB_TXN_DEADLOCK);
	pgb_log_txn(&x.f.logs[0], &x.f, 0, &t);
	t = txn(0, 3, S, 0, 0, 1, PGB_TXN_SKIPPED);
	pgb_log_txn(&x.f.logs[0], &x.f, 0, &t);
	out = finish(&x, 1);
	assert_string_equal(out, "0 1 1500 1 1700000001 0 40 1\n"
	                         "0 2 deadlock 1 1700000001 0 0 2\n"
	                         "0 3 skipped 1 1700000001 0 0 0\n");
	free(out);
}

static void test_aggregate(void **state)
{
	(void)state;
	struct fixture x;
	struct pgb_log_txn t;
	const int64_t t0 = S * 3 / 10; /* the thread starts at .3 s: the first interval at EPOCH */

	start(&x,
	      (struct pgb_fail_cfg){.log = true,
	                            .agg_interval = 1,
	                            .throttled = true,
	                            .latency_limit_ns = 1000000,
	                            .max_tries = 3,
	                            .failures_detailed = true},
	      1);
	t = txn(0, 1, S / 2, 1000, 10, 2, PGB_TXN_OK);
	pgb_log_txn(&x.f.logs[0], &x.f, t0, &t);
	t = txn(1, 1, S * 7 / 10, 0, 0, 3, PGB_TXN_SERIALIZATION);
	pgb_log_txn(&x.f.logs[0], &x.f, t0, &t);
	t = txn(0, 2, S * 22 / 10, 3000, 20, 1, PGB_TXN_OK);
	pgb_log_txn(&x.f.logs[0], &x.f, t0, &t);
	t = txn(0, 3, S * 25 / 10, 0, 0, 1, PGB_TXN_SKIPPED);
	pgb_log_txn(&x.f.logs[0], &x.f, t0, &t);
	t = txn(1, 2, S * 26 / 10, 1000, 30, 1, PGB_TXN_OK);
	pgb_log_txn(&x.f.logs[0], &x.f, t0, &t);
	pgb_log_thread_end(&x.f.logs[0], &x.f, t0, S * 34 / 10);
	char *out = finish(&x, 1);

	/* interval_start n sum sum2 min max lagsum lagsum2 lagmin lagmax skipped retried retries ser dl;
	 * [EPOCH+3, EPOCH+4) is unfinished at 3.4 s: not written */
	assert_string_equal(out, "1700000000 1 1000 1000000 1000 1000 10 100 10 10 0 2 3 1 0\n"
	                         "1700000001 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n"
	                         "1700000002 2 4000 10000000 1000 3000 50 1300 20 30 1 0 0 0 0\n");
	free(out);

	/* options off: their columns are 0 (pgbench 15.18 writes all 15) */
	start(&x, (struct pgb_fail_cfg){.log = true, .agg_interval = 2, .max_tries = 1}, 2);
	t = txn(0, 1, S / 2, 1000, 10, 1, PGB_TXN_OK);
	pgb_log_txn(&x.f.logs[0], &x.f, t0, &t);
	t = txn(0, 2, S, 0, 0, 1, PGB_TXN_SERIALIZATION);
	pgb_log_txn(&x.f.logs[0], &x.f, t0, &t);
	pgb_log_thread_end(&x.f.logs[0], &x.f, t0, S * 21 / 10);
	pgb_log_thread_end(&x.f.logs[1], &x.f, t0, S * 21 / 10);
	out = finish(&x, 2);
	assert_string_equal(out, "1700000000 1 1000 1000000 1000 1000 0 0 0 0 0 0 0 0 0\n");
	free(out);
}

static void test_sampling(void **state)
{
	(void)state;
	struct fixture x;
	int lines = 0;

	struct pgb_rng rng;

	start(&x, (struct pgb_fail_cfg){.log = true, .sampling_rate = 0.25, .max_tries = 1}, 1);
	pgb_rng_seed(&rng, 7);
	x.f.logs[0].sample = &rng;
	for (int i = 0; i < 40000; i++) {
		struct pgb_log_txn t = txn(0, i + 1, S, 100, 0, 1, PGB_TXN_OK);

		pgb_log_txn(&x.f.logs[0], &x.f, 0, &t);
	}
	char *out = finish(&x, 1);

	for (char *p = out; *p; p++)
		lines += *p == '\n';
	free(out);
	/* Binomial(40000, 0.25): 10000 +- 87 (sd); 6 sd */
	if (lines < 9480 || lines > 10520)
		fail_msg("sampled %d of 40000 at 0.25", lines);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_raw),
	    cmocka_unit_test(test_aggregate),
	    cmocka_unit_test(test_sampling),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
