/* pgb_fail_opts: the pgbench step's options for failures, retries, the
 * latency limit and the transaction logs (pgbench 15's --max-tries,
 * --failures-detailed, --verbose-errors, -L, -l, --aggregate-interval,
 * --sampling-rate), their checks, and the metrics they add.
 *
 * The clients apply them in pgb_retry.c; the logs are written by pgb_log.c. */
#ifndef BENCHGRID_PGB_FAIL_OPTS_H
#define BENCHGRID_PGB_FAIL_OPTS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include "diag.h"
#include "node.h"
#include "result.h"

struct pgb_log_file;
struct pgb_log_set;

struct pgb_fail_cfg {
	int64_t max_tries;        /* tries per transaction; 0 (zeroed) or 1: no retry; -1: unbounded */
	int64_t latency_limit_ns; /* 0 = none */
	bool failures_detailed;   /* serialization and deadlock failures told apart */
	bool verbose_errors;      /* every failure and retry to the step's stderr log */
	bool log;                 /* transaction logs, one file per thread */
	int64_t agg_interval;     /* seconds; 0 = one line per transaction */
	double sampling_rate;     /* share of transactions logged; 0 = all */
	bool throttled;           /* the step has a rate: schedule lag in the logs, skips */
	/* set while the step runs (pgb_log_start) */
	int64_t epoch_shift_ns;    /* wall clock minus monotonic clock */
	FILE *err_log;             /* verbose_errors' lines: the step's stderr log */
	struct pgb_log_file *logs; /* one per thread when `log` */
	int nlogs;
	struct pgb_log_set *set; /* the files and their directory (pgb_log.c) */
};

/* What the threads counted, summed (pgb_run_out.fail). */
struct pgb_fail_out {
	int64_t retried;                /* transactions retried at least once */
	int64_t retries;                /* retries in all */
	int64_t serialization_failures; /* failed transactions, by their last error */
	int64_t deadlock_failures;
	int64_t late;    /* completed above the latency limit */
	int64_t skipped; /* not started: already late when scheduled (rate with latency_limit) */
};

/* Are failed transactions retried (pgbench: max_tries is not 1)? */
static inline bool pgb_fail_retries(const struct pgb_fail_cfg *f)
{
	return f->max_tries < 0 || f->max_tries > 1;
}

/* Read and check the options of the step's map `opts` into f (zeroed
 * first; the YAML's max_tries 0 is -1 here). `duration` is the step's duration (0: a count of
 * transactions), `rate` its rate (0: none). Errors at the option's
 * file:line:col; 0 or -EINVAL. */
int pgb_fail_opts_parse(const struct node *opts, double duration, double rate, struct pgb_fail_cfg *f,
                        struct diag *d);

/* The counts as metrics: retried and retries when max_tries is not 1,
 * serialization_failures and deadlock_failures with failures_detailed,
 * late with a latency limit, skipped with a latency limit and a rate. */
void pgb_fail_metrics(const struct pgb_fail_cfg *f, const struct pgb_fail_out *o, struct step_result *res);

#endif
