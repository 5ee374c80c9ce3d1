/* store_schema: the migrations, one entry per schema version. */
#include "store_schema.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

/* The SQL that both SQLite and PostgreSQL run: TEXT, BIGINT and DOUBLE
 * PRECISION columns, no generated keys (every key is benchgrid's own id). */
static const char *const v1[] = {
    "CREATE TABLE runs (run_id TEXT PRIMARY KEY, scenario TEXT NOT NULL, scenario_file TEXT,"
    " scenario_hash TEXT, description TEXT, host TEXT, started DOUBLE PRECISION NOT NULL,"
    " finished DOUBLE PRECISION, planned_cells BIGINT, repeat_count BIGINT, warmup BIGINT,"
    " tool_version TEXT, output_dir TEXT, stored_at DOUBLE PRECISION)",
    "CREATE INDEX runs_by_scenario ON runs (scenario, started)",
    "CREATE TABLE cells (run_id TEXT NOT NULL REFERENCES runs (run_id) ON DELETE CASCADE,"
    " cell_id TEXT NOT NULL, cell_index BIGINT, label TEXT, host TEXT, status TEXT, error TEXT,"
    " started DOUBLE PRECISION, elapsed DOUBLE PRECISION, setup_fs_s DOUBLE PRECISION,"
    " setup_pg_s DOUBLE PRECISION, setup_data_s DOUBLE PRECISION, PRIMARY KEY (run_id, cell_id))",
    "CREATE TABLE params (run_id TEXT NOT NULL, cell_id TEXT NOT NULL, name TEXT NOT NULL,"
    " value TEXT, PRIMARY KEY (run_id, cell_id, name),"
    " FOREIGN KEY (run_id, cell_id) REFERENCES cells (run_id, cell_id) ON DELETE CASCADE)",
    "CREATE TABLE steps (run_id TEXT NOT NULL, cell_id TEXT NOT NULL, rep BIGINT NOT NULL,"
    " step_index BIGINT NOT NULL, step TEXT NOT NULL, workload TEXT, failed BIGINT, error TEXT,"
    " started DOUBLE PRECISION, elapsed DOUBLE PRECISION, PRIMARY KEY (run_id, cell_id, rep, step_index),"
    " FOREIGN KEY (run_id, cell_id) REFERENCES cells (run_id, cell_id) ON DELETE CASCADE)",
    "CREATE TABLE metrics (run_id TEXT NOT NULL, cell_id TEXT NOT NULL, step TEXT NOT NULL,"
    " metric TEXT NOT NULL, unit TEXT, value DOUBLE PRECISION, n BIGINT, stddev DOUBLE PRECISION,"
    " median DOUBLE PRECISION, min_value DOUBLE PRECISION, max_value DOUBLE PRECISION,"
    " PRIMARY KEY (run_id, cell_id, step, metric),"
    " FOREIGN KEY (run_id, cell_id) REFERENCES cells (run_id, cell_id) ON DELETE CASCADE)",
    "CREATE INDEX metrics_by_name ON metrics (step, metric)",
    "CREATE TABLE samples (run_id TEXT NOT NULL, cell_id TEXT NOT NULL, step TEXT NOT NULL,"
    " metric TEXT NOT NULL, rep BIGINT NOT NULL, value DOUBLE PRECISION,"
    " PRIMARY KEY (run_id, cell_id, step, metric, rep),"
    " FOREIGN KEY (run_id, cell_id, step, metric) REFERENCES metrics (run_id, cell_id, step, metric)"
    " ON DELETE CASCADE)",
    "CREATE TABLE facts (run_id TEXT NOT NULL, cell_id TEXT NOT NULL, key TEXT NOT NULL, value TEXT,"
    " PRIMARY KEY (run_id, cell_id, key),"
    " FOREIGN KEY (run_id, cell_id) REFERENCES cells (run_id, cell_id) ON DELETE CASCADE)",
    "CREATE TABLE environment (run_id TEXT NOT NULL REFERENCES runs (run_id) ON DELETE CASCADE,"
    " key TEXT NOT NULL, value TEXT, PRIMARY KEY (run_id, key))",
    NULL,
};

/* migrations[i] brings version i to version i + 1. Version 2 is one more
 * entry here; never edit an entry once released. */
static const store_migration migrations[] = {v1};
#define NMIGRATIONS (sizeof(migrations) / sizeof(migrations[0]))

int store_schema_latest(void)
{
	return (int)NMIGRATIONS;
}

const store_migration *store_schema_migrations(size_t *n)
{
	*n = NMIGRATIONS;
	return migrations;
}

static int max_row(void *arg, int ncol, const char *const *vals)
{
	*(int *)arg = ncol > 0 && vals[0] ? atoi(vals[0]) : 0;
	return 1;
}

int store_schema_version(struct store *s)
{
	int has = sdb_has_table(s, "schema_version");
	if (has <= 0)
		return has;
	int v = 0;
	if (sdb_exec(s, "SELECT max(version) FROM schema_version", 0, NULL, max_row, &v) < 0)
		return -1;
	return v;
}

/* Apply the migrations above `from` up to `target` and record each. */
static int apply(struct store *s, const store_migration *list, int from, int target)
{
	for (int v = from; v < target; v++) {
		for (const char *const *q = list[v]; *q; q++)
			if (sdb_exec(s, *q, 0, NULL, NULL, NULL) < 0)
				return -1;
		char ver[16], at[32];
		snprintf(ver, sizeof(ver), "%d", v + 1);
		snprintf(at, sizeof(at), "%lld", (long long)time(NULL));
		const char *p[] = {ver, at};
		if (sdb_exec(s, "INSERT INTO schema_version (version, applied) VALUES ($1, $2)", 2, p, NULL,
		             NULL) < 0)
			return -1;
	}
	return 0;
}

int store_schema_migrate(struct store *s, int target)
{
	return store_schema_migrate_list(s, migrations, NMIGRATIONS, target);
}

int store_schema_migrate_list(struct store *s, const store_migration *list, size_t n, int target)
{
	if (target > (int)n) {
		snprintf(s->err, sizeof(s->err), "no migration to schema version %d", target);
		return -1;
	}
	if (sdb_begin(s) < 0)
		return -1;
	/* PostgreSQL: two first runs would both create the tables; the lock
	 * (released at commit) makes the second wait and then see version 1.
	 * SQLite's BEGIN IMMEDIATE is that lock already. */
	if (s->kind == STORE_PG &&
	    sdb_exec(s, "SELECT pg_advisory_xact_lock(7351642398)", 0, NULL, NULL, NULL) < 0)
		goto fail;
	if (sdb_exec(s,
	             "CREATE TABLE IF NOT EXISTS schema_version (version BIGINT PRIMARY KEY,"
	             " applied DOUBLE PRECISION)",
	             0, NULL, NULL, NULL) < 0)
		goto fail;
	int have = store_schema_version(s);
	if (have < 0)
		goto fail;
	if (have > (int)n) {
		snprintf(
		    s->err, sizeof(s->err),
		    "the store's schema is version %d, newer than this benchgrid's %d: use a newer benchgrid",
		    have, (int)n);
		goto fail;
	}
	if (have < target && apply(s, list, have, target) < 0)
		goto fail;
	return sdb_commit(s);
fail:
	sdb_rollback(s);
	return -1;
}
