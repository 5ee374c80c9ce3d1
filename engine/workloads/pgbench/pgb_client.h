/* pgb_client: the clients and threads of a pgbench load (pgb_client.c),
 * as pgb_run.c sets them up, starts, watches and collects them.
 *
 * Each thread owns its clients and its figures; the calling thread reads
 * only the published counters (ntx_pub, latsum_pub) while it runs. */
#ifndef BENCHGRID_PGB_CLIENT_H
#define BENCHGRID_PGB_CLIENT_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <libpq-fe.h>
#include "clock.h"
#include "hist.h"
#include "pgb_eval.h"
#include "pgb_rand.h"
#include "pgb_run_cfg.h"
#include "pgb_retry.h"
#include "pgb_script.h"

struct pgb_run_cfg;

/* A client's place in its state machine (pgbc_run drives it until it has
 * to wait; the thread's epoll loop brings it back). pgbench 15 splits the
 * same path into more states (CSTATE_*); here one state stands for each
 * kind of wait, and the steps in between happen inside pgbc_run. */
enum pgbc_state {
	/* Between two transactions: the first state and the one after each
	 * transaction. Ends the client (CS_DONE) when its transaction count is
	 * reached, the duration is over or the run is aborted. With a rate it
	 * takes the next start from the thread's Poisson schedule: a start
	 * already later than the latency limit is counted as skipped and the
	 * next one taken, a start in the future waits in CS_THROTTLE. Otherwise
	 * it picks a script by weight, connects when each transaction has its
	 * own connection, prepares the script's statements when the protocol
	 * is prepared, and goes to CS_CMD. */
	CS_CHOOSE,
	/* Waiting for the scheduled start of its next transaction (`rate:`);
	 * then starts it as CS_CHOOSE does. The transaction's latency counts
	 * from the schedule, not from the end of this wait. */
	CS_THROTTLE,
	/* Running the script's commands from `cmd` on, as many as need no
	 * wait: \set at once, a meta-command through pgb_meta; a \sleep goes to
	 * CS_SLEEP; an SQL statement is sent and goes to CS_WAIT (inside a
	 * pipeline it stays here: its results are read at \endpipeline). After
	 * the last command the transaction's latency is recorded and the client
	 * goes back to CS_CHOOSE (disconnecting first when each transaction has
	 * its own connection). */
	CS_CMD,
	/* In a \sleep until `wake`; then the next command, in CS_CMD. */
	CS_SLEEP,
	/* Waiting for the server's results of one statement, or of a whole
	 * pipeline (`pipe_wait`, at \endpipeline). All results in: the next
	 * command, in CS_CMD. A serialization failure or deadlock (retryable)
	 * inside a transaction block sends ROLLBACK and goes to CS_ROLLBACK;
	 * outside one it is decided at once, as after the ROLLBACK. Any other
	 * error aborts the whole run. */
	CS_WAIT,
	/* Waiting for the ROLLBACK of a failed try; then pgb_retry decides: the
	 * transaction again from its first command (CS_CMD), ended as failed
	 * (CS_CHOOSE), or the client stops (CS_DONE). */
	CS_ROLLBACK,
	/* Finished: its connection is closed and its thread no longer counts it
	 * as active. Final. */
	CS_DONE
};

struct pgbc_thread;

struct pgbc_client {
	struct pgbc_thread *th;
	int id;
	enum pgbc_state state;
	PGconn *conn;
	int sock;
	struct pgb_rng rng;
	int script, cmd;
	int64_t ntx;
	int64_t sched, txn_begin, cmd_begin, wake; /* ns */
	bool *prepared;                            /* per script, on the current connection */
	struct pgb_val *vars;
	bool err_retry;   /* the statement failed with a retryable error */
	bool rolled_back; /* the transaction sent a ROLLBACK command */
	char *qbuf;       /* simple protocol: the statement with values */
	size_t qcap;
	char pval[PGB_MAX_PARAMS][32];
	const char *pv[PGB_MAX_PARAMS];
	size_t pvlen[PGB_MAX_PARAMS]; /* strlen of each pv */
	/* retries, latency limit, logs (pgb_retry.c, pgb_log.c) */
	struct pgb_retry_client rt;

	/* meta commands (pgb_meta.c, pgb_pipeline.c) */
	PGresult *gset_res; /* \gset: the last result of the command so far */
	bool in_pipe;       /* between \startpipeline and \endpipeline */
	bool pipe_wait;     /* at \endpipeline, waiting for the results */
};

struct pgbc_shared;

struct pgbc_thread {
	struct pgbc_shared *sh;
	int idx;
	pthread_t tid;
	struct pgbc_client *cl;
	int ncl, nactive;
	int ep;
	int64_t start, end_time, next_sched, finished_at;
	double sched_mean_us;        /* pgbench's throttle_delay */
	struct pgb_thread_rngs rngs; /* pgbench's choose, throttle and sample generators */
	/* read by the progress sampler (relaxed atomics) */
	int64_t ntx_pub, latsum_pub;
	int64_t ntx, failed, latsum, connections, conn_ns;
	struct hist lat;
	/* several scripts: per script, latencies and ROLLBACK-ended transactions */
	struct hist *script_lat;
	int64_t *script_rb;
	double *cmd_ns;
	int64_t *cmd_n;
	/* retries, latency limit, logs (pgb_retry.c, pgb_log.c) */
	struct pgb_retry_thread rt;
};

/* The meta commands beyond \set and \sleep, and \gset's results: run by
 * pgb_meta.c and pgb_pipeline.c, which pgb_run.c hands over here (they
 * build on this module, so it cannot include them); see pgb_meta.h. */
struct pgbc_meta_ops {
	int (*exec)(struct pgbc_client *c, const struct pgb_script *sc, const struct pgb_cmd *cmd);
	PGresult *(*result)(struct pgbc_client *c, const struct pgb_script *sc, const struct pgb_cmd *cmd,
	                    PGresult *r);
	int (*gset_end)(struct pgbc_client *c, const struct pgb_script *sc, const struct pgb_cmd *cmd);
	int (*pipe_input)(struct pgbc_client *c);
};

struct pgbc_shared {
	const struct pgb_run_cfg *cfg;
	const struct pgbc_meta_ops *meta;
	int64_t default_seed; /* :default_seed's value unless define: sets it */
	int *cmd_base;        /* first flat command index of each script */
	int ncmd;
	/* start gate: threads count themselves in when connected, then wait for go */
	pthread_cond_t cond;
	int nready;
	bool go;
	int abort;     /* set once: stop every thread */
	int nfinished; /* threads done */
	pthread_mutex_t lock;
	char error[4096];
};

/* Monotonic nanoseconds (util/clock). */
static inline int64_t pgbc_now(void)
{
	return clock_mono_ns();
}

static inline bool pgbc_aborted(const struct pgbc_shared *sh)
{
	return __atomic_load_n(&sh->abort, __ATOMIC_RELAXED) != 0;
}

/* Record the first fatal error and stop every thread. */
void pgbc_fail(struct pgbc_shared *sh, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Close the client's connection (if any). */
void pgbc_disconnect(struct pgbc_client *c);

/* A thread's body: connect its clients, meet at the start gate, run them. */
void *pgbc_thread_main(void *arg);

/* What an expression of the client's current command is evaluated with. */
static inline struct pgb_eval_ctx pgbc_eval_ctx(struct pgbc_client *c)
{
	const struct pgbc_shared *sh = c->th->sh;

	return (struct pgb_eval_ctx){.vars = c->vars,
	                             .rng = &c->rng,
	                             .script = c->script,
	                             .command = c->cmd,
	                             .default_seed = sh->default_seed,
	                             .debug = sh->cfg->debug,
	                             .debug_arg = sh->cfg->debug_arg};
}

#endif
