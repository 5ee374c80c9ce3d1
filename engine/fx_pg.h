/* fx_pg: the PostgreSQL server of a scenario (the `postgres:` section).
 *
 * A managed server is initdb'd into <data_parent_dir>/pgdata (WAL and
 * tablespaces optionally on other targets), configured through one file
 * `benchgrid.conf` included from postgresql.conf, and started as the server
 * user (postgres, or run_as) with `postgres -D`, listening only on a private
 * unix-socket directory /tmp/benchgrid-pg-XXXXXX on a free port number. Start
 * waits until PQping says the server accepts connections; when the server
 * exits instead, the error carries the tail of its log.
 *
 * One struct fx_pg lives across the cells of a run and is reused: a cell whose
 * section differs only in settings gets a reload (or a restart when a changed
 * setting has pg_settings.context = 'postmaster'); anything that shapes the
 * cluster itself (binaries, user, data location, wal_dir, tablespaces,
 * initdb_options) gives a fresh initdb. pgbench data (`init:`) is reloaded only
 * when its options changed, after an initdb, or with `fresh: true`.
 *
 * `external: "conninfo"` uses an existing server instead: nothing is started
 * or changed; the wanted settings are compared with the server's values.
 *
 * Every started server is recorded in the state journal ("pg-stop") so that
 * `benchgrid cleanup` can stop it after the run was killed. */
#ifndef BENCHGRID_FX_PG_H
#define BENCHGRID_FX_PG_H

#include "diag.h"
#include "node.h"
#include "result.h"

struct fx_pg;

/* Maps a target name used by wal_dir / tablespaces to its mounted path;
 * NULL for an unknown name. */
typedef const char *(*fx_pg_resolve_fn)(void *ud, const char *name);

/* Validate a `postgres:` section (types, ranges, names) without touching the
 * system. Errors carry positions. 0 or -EINVAL. */
int fx_pg_check(const struct node *section, struct diag *d);

/* Bring the server to the state the cell's (interpolated) section asks for.
 * *pg is NULL for the first cell, afterwards the previous cell's server, which
 * is reused, restarted, reloaded or replaced (see the top of this file).
 * data_parent_dir: where the data directory is created (the cell's target
 * directory; unused with external). cell_dir: where the server log and
 * initdb's output are written (NULL: next to the data directory).
 *
 * facts receives info "pg.reuse" (initdb | restart | reload | reused |
 * external), "pg.initdb_because", "pg.changed", "pg.version", "pg.bin_dir",
 * "pg.server_version", "pg.block_size", "pg.wal_block_size",
 * "pg.setting.<name>" (each setting read back with SHOW), "pg.data" (loaded |
 * reused | none), "pg.log", "pg.log_from", "pg.datadir", "pg.conninfo",
 * "warning"s, and metrics pg_initdb_s, pg_start_s, pg_restart_s, and init_*
 * from the data load (docs/sections/postgres.md lists them all).
 *
 * On failure returns a negative errno with the reason in d (the server log's
 * tail when the server did not start). *pg may then be NULL (nothing left) or
 * still hold the server: the caller calls fx_pg_stop(*pg) when done either
 * way. */
int fx_pg_prepare(struct fx_pg **pg, const struct node *section, const char *data_parent_dir,
                  const char *cell_dir, fx_pg_resolve_fn resolve_target, void *ud, struct step_result *facts,
                  struct diag *d);

/* libpq connection string of the server ("host=... port=... dbname=..."). */
const char *fx_pg_conninfo(const struct fx_pg *pg);
/* The server log file (NULL for an external server). */
const char *fx_pg_logfile(const struct fx_pg *pg);
/* Fast shutdown (pg_ctl stop -m fast), kill any orphaned server process,
 * remove the directories it created (data, WAL, tablespaces, socket), free.
 * The log file is kept. NULL is a no-op. External servers are left alone. */
void fx_pg_stop(struct fx_pg *pg);
/* 1 when the postmaster is still running (external: answers PQping). */
int fx_pg_alive(const struct fx_pg *pg);

#endif
