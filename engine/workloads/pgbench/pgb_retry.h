/* pgb_retry: what a client does, as pgbench 15, about serialization
 * failures (40001) and deadlocks (40P01), the latency limit and the logs.
 *
 * A failed try is rolled back (pgb_client.c) and, while max_tries, the
 * latency limit and the duration allow, the transaction runs again from its
 * first command with the random state it had at its start, so that it draws
 * the same numbers (pgbench saves and restores the client's generator the
 * same way). Otherwise it ends as failed, counted by the kind of its last
 * error. A transaction above the latency limit is late; with a rate, a
 * transaction whose scheduled start is already more than the limit in the
 * past is skipped (not run, counted, and logged as "skipped").
 *
 * Each client and thread carries a small block of these (pgb_client.h); the
 * client's state machine calls in at a transaction's start and end and on
 * an error, and only when one of the options is on (struct
 * pgb_retry_thread.on), so that the default run pays one branch. */
#ifndef BENCHGRID_PGB_RETRY_H
#define BENCHGRID_PGB_RETRY_H

#include <stdbool.h>
#include <stdint.h>
#include <libpq-fe.h>
#include "pgb_fail_opts.h"
#include "pgb_rand.h"

/* A client's part. */
struct pgb_retry_client {
	struct pgb_rng rng_saved; /* the client's generator at the transaction's start */
	int64_t t_start;          /* when the transaction really started (ns): lag = t_start - scheduled */
	int64_t tries;            /* tries of the current transaction, from 1 */
	int estatus;              /* enum pgb_txn_status of the last retryable error */
};

/* A thread's part. */
struct pgb_retry_thread {
	bool on;                  /* one of the options is on: the client calls pgb_retry_txn_* */
	struct pgb_log_file *log; /* this thread's log, or NULL */
	int64_t retried, retries, fail_ser, fail_dl, late, skipped;
};

enum pgb_retry_verdict {
	PGB_RETRY_FAIL,  /* end the transaction as failed */
	PGB_RETRY_AGAIN, /* run it again from its first command (pgb_retry_again) */
	PGB_RETRY_STOP,  /* the duration is over: stop the client, the transaction is not counted */
};

/* One ended (or skipped) transaction, as the client knows it. */
struct pgb_retry_end {
	int client, script;
	int64_t txn_no;          /* the client's count including this one (skipped, failed too) */
	int64_t sched_ns;        /* its latency counts from here (the scheduled start with a rate) */
	int64_t end_ns;          /* now */
	int64_t thread_start_ns; /* for the first interval of an aggregated log */
	bool failed, skipped;
};

/* Set up thread `idx`'s part before it starts. */
void pgb_retry_thread_init(struct pgb_retry_thread *t, const struct pgb_fail_cfg *f, int idx,
                           struct pgb_rng *sample);
/* A transaction starts: keep the generator, first try. */
void pgb_retry_txn_begin(struct pgb_retry_client *r, const struct pgb_rng *rng, int64_t t_start);
/* A statement failed with a serialization failure or a deadlock: remember
 * which, and with verbose_errors write pgbench's line
 * "client C got an error in command N (SQL) of script S; MESSAGE". */
void pgb_retry_note_error(struct pgb_retry_client *r, const struct pgb_fail_cfg *f, const PGresult *res,
                          int client, int cmd, int script);
/* After the rollback of a failed try: again, failed (counted by kind) or
 * stop. latency_ns: since the transaction's scheduled start; time_over: the
 * duration has passed. */
enum pgb_retry_verdict pgb_retry_decide(struct pgb_retry_client *r, struct pgb_retry_thread *t,
                                        const struct pgb_fail_cfg *f, int client, int64_t latency_ns,
                                        bool time_over);
/* Before running the transaction again: the next try, the generator as it
 * was at the start. */
void pgb_retry_again(struct pgb_retry_client *r, struct pgb_rng *rng);
/* A transaction ended or was skipped: retries, late, the log. */
void pgb_retry_txn_end(struct pgb_retry_client *r, struct pgb_retry_thread *t, const struct pgb_fail_cfg *f,
                       const struct pgb_retry_end *e);
/* The thread has ended at end_ns: its log's last intervals, its counts
 * added to out. */
void pgb_retry_thread_end(struct pgb_retry_thread *t, const struct pgb_fail_cfg *f, int64_t thread_start_ns,
                          int64_t end_ns, struct pgb_fail_out *out);

#endif
