/* ycsb_init: YCSB's usertable, the data of the pgbench step's builtin
 * ycsb-like (docs/steps/ycsb-like.md), loaded by `init: {kind: ycsb}` (the
 * pgbench step's or postgres:'s) through pgb_init_run_ctl's connection.
 *
 * The table is YCSB's JDBC binding's: usertable(ycsb_key varchar(255)
 * primary key, field0 .. field<fields-1> text). Record k (0 .. records-1)
 * is "user" + fnvhash64(k) (ycsb_key.h) with each field field_length
 * random letters and digits (YCSB's are random printable bytes). The rows
 * go in by text COPY FREEZE in one transaction with the TRUNCATE, the
 * primary key is added after the load and the table vacuumed and analyzed,
 * as pgbench -i does for its tables. Metrics: init_drop_s, init_create_s,
 * init_load_s, init_vacuum_s, init_pkeys_s (init_s: the caller); info
 * "ycsb.records", "ycsb.fields", "ycsb.field_length". */
#ifndef BENCHGRID_YCSB_INIT_H
#define BENCHGRID_YCSB_INIT_H

#include <libpq-fe.h>
#include "pgb_init_opts.h"
#include "result.h"

/* Load on connection c; tsq: the quoted tablespace or NULL. 0, or -EIO
 * with res failed (the statement and the server's message). */
int ycsb_init_load(PGconn *c, const struct pgb_init_opts *o, const char *tsq, struct step_result *res);

#endif
