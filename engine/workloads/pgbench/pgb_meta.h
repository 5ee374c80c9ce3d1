/* pgb_meta: the meta commands a client runs besides \set and \sleep (which
 * stay in pgb_client.c's hot path): \if blocks, \gset/\aset on results,
 * \shell/\setshell.
 * Pipelines are pgb_pipeline.c's. */
#ifndef BENCHGRID_PGB_META_H
#define BENCHGRID_PGB_META_H

#include <libpq-fe.h>
#include "pgb_client.h"

/* The functions below, for pgb_client.c (struct pgbc_meta_ops). */
extern const struct pgbc_meta_ops pgbm_ops;

/* Run meta command cmd (c->cmd) other than \set and \sleep. 0: the client
 * goes on at c->cmd (advanced or jumped); 1: it waits (c->state set); -1:
 * the run failed (pgbc_fail). */
int pgbm_exec(struct pgbc_client *c, const struct pgb_script *sc, const struct pgb_cmd *cmd);

/* A successful result of an SQL command with \gset or \aset: \aset stores
 * it now, \gset keeps the last one for pgbm_gset_end. Returns the result
 * for the caller to clear (NULL when kept). */
PGresult *pgbm_result(struct pgbc_client *c, const struct pgb_script *sc, const struct pgb_cmd *cmd,
                      PGresult *r);

/* All results of a \gset command are in: exactly one row, or the run
 * fails. 0 or -1 (pgbc_fail). */
int pgbm_gset_end(struct pgbc_client *c, const struct pgb_script *sc, const struct pgb_cmd *cmd);

#endif
