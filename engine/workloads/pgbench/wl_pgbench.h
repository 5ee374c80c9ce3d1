/* wl_pgbench: the `pgbench:` step, a pgbench-compatible load driver on libpq.
 *
 * Runs pgbench's builtin scripts (tpcb-like, simple-update, select-only) or
 * custom scripts in pgbench's syntax against the cell's server
 * (its ${pg.conninfo}), with pgbench's options (protocol, clients, threads,
 * duration or transactions, rate, connect per transaction, progress), and
 * records tps, latency percentiles from a full histogram, per-statement
 * latencies and pg_stat_database / WAL deltas. With `init:` the step loads
 * pgbench's tables instead (pgb_init.h). Reference: docs/steps/pgbench.md. */
#ifndef BENCHGRID_WL_PGBENCH_H
#define BENCHGRID_WL_PGBENCH_H

#include "workload.h"

extern const struct workload_ops wl_pgbench_ops;

#endif
