/* pgb_metrics: the names wl_pgbench.c, pgb_fail_opts.c and, for an init:
 * step, pgdata/pgb_init.c write (see pgb_metrics.h). */
#include "pgb_metrics.h"

#include <stddef.h>

static const char *const names[] = {
    /* the load (wl_pgbench.c) */
    "tps", "transactions", "failed", "lat_mean_ms", "lat_stddev_ms", "lat_p50_ms", "lat_p90_ms", "lat_p95_ms",
    "lat_p99_ms", "lat_max_ms", "duration_s", "conn_mean_ms",
    /* several scripts: per script (script_NAME_tps, ..._lat_p99_ms, ..._rollbacks) */
    "script_*",
    /* builtin tpcc-like: new-orders per minute, committed and all; rollbacks */
    "nopm", "tpmc", "new_order_rollback_pct",
    /* report_statements: one per statement of the scripts */
    "stmt*_ms",
    /* the database's counters around the load */
    "cache_hit_ratio", "blks_read", "xact_commit", "deadlocks", "temp_bytes", "wal_bytes",
    /* failures, retries, latency limit (pgb_fail_opts.c) */
    "retried", "retries", "serialization_failures", "deadlock_failures", "late", "skipped",
    /* an init: step's phases (pgb_init.c) */
    "init_s", "init_drop_s", "init_create_s", "init_load_s", "init_vacuum_s", "init_pkeys_s", "init_fkeys_s",
    "init_rows", NULL};

static const char *const series[] = {"tps", "lat_ms", NULL};

/* Transactions per second, then the p99 latency. */
static size_t pgb_headline(const struct step_result *r, const char **out, size_t max)
{
	size_t n = 0;
	headline_add(r, "tps", out, &n, max);
	headline_add(r, "lat_p99_ms", out, &n, max);
	return n;
}

const struct workload_metrics pgb_metric_names = {
    .names = names, .series = series, .server_activity = true, .headline = pgb_headline};
