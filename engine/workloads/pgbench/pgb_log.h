/* pgb_log: pgbench 15's transaction logs (-l) and the step's stderr log.
 *
 * With `log: true` every thread writes cells/ID/STEP.log.N (N = thread
 * number, from 0), in pgbench 15's formats, so that tools reading
 * pgbench_log.* read them:
 *   per transaction: client_id transaction_no time script_no time_epoch
 *     time_us [schedule_lag] [retries]
 *     (time in us, or "failed" / "serialization" / "deadlock" / "skipped";
 *     lag with a rate; retries when max_tries is not 1)
 *   aggregated (aggregate_interval): interval_start num_transactions
 *     sum_latency sum_latency_2 min_latency max_latency sum_lag sum_lag_2
 *     min_lag max_lag skipped retried retries serialization_failures
 *     deadlock_failures
 *     (all 15 columns always, as pgbench 15.18 writes them; a column whose
 *     option is off is 0: lag without rate, skipped without latency_limit,
 *     retried/retries with max_tries 1, failures without failures_detailed).
 * Like pgbench, an interval's line is written when a later transaction ends
 * or the thread ends; the last, unfinished interval is not written.
 *
 * With verbose_errors, the clients' messages go to cells/ID/STEP.stderr (or
 * to stderr when the step has no cell directory). Files are written as
 * temporary files and renamed at the end (model/results_write.h). */
#ifndef BENCHGRID_PGB_LOG_H
#define BENCHGRID_PGB_LOG_H

#include <stdbool.h>
#include <stdint.h>
#include "cell.h"
#include "pgb_fail_opts.h"
#include "pgb_rand.h"
#include "result.h"

struct results_file;

/* How a transaction ended, for the logs and the counts. */
enum pgb_txn_status { PGB_TXN_OK, PGB_TXN_SERIALIZATION, PGB_TXN_DEADLOCK, PGB_TXN_SKIPPED };

/* One interval's figures (latencies in microseconds, as pgbench). */
struct pgb_log_agg {
	int64_t start_us; /* Unix epoch */
	int64_t cnt, skipped, retried, retries, ser, dl;
	double lat_sum, lat_sum2, lat_min, lat_max;
	double lag_sum, lag_sum2, lag_min, lag_max;
};

/* One thread's log. */
struct pgb_log_file {
	struct results_file *rf; /* model/results_write.h */
	/* the thread's sampling generator (pgbench's ts_sample_rs: with the same
	 * seed, the same transactions are logged); set by pgb_retry_thread_init */
	struct pgb_rng *sample;
	bool agg_on; /* agg.start_us is set */
	struct pgb_log_agg agg;
};

/* One ended (or skipped) transaction. Times are monotonic ns. */
struct pgb_log_txn {
	int client;
	int64_t txn_no; /* the client's count, from 1, skipped and failed included */
	int script;
	int64_t end_ns;
	int64_t lat_ns, lag_ns; /* 0 for failed and skipped transactions */
	int64_t tries;
	enum pgb_txn_status status;
};

/* Before the run: the epoch shift, the stderr log (verbose_errors) and the
 * threads' logs (log). 0, or a negative errno with res failed. */
int pgb_log_start(struct pgb_fail_cfg *f, const struct step_ctx *cx, int nthreads, struct step_result *res);
/* A thread's line (or its share of an interval). thread_start_ns: when the
 * thread started (the first interval begins at that whole second). */
void pgb_log_txn(struct pgb_log_file *lf, const struct pgb_fail_cfg *f, int64_t thread_start_ns,
                 const struct pgb_log_txn *x);
/* At the thread's end: the intervals finished by then. */
void pgb_log_thread_end(struct pgb_log_file *lf, const struct pgb_fail_cfg *f, int64_t thread_start_ns,
                        int64_t end_ns);
/* After the run: rename the files into place and name them in infos. 0, or
 * a negative errno (res failed unless it already was). */
int pgb_log_end(struct pgb_fail_cfg *f, const struct step_ctx *cx, struct step_result *res);

#endif
