/* tpcc_init: TPC-C's nine tables for W warehouses through libpq (the data
 * of the pgbench step's builtin tpcc-like; `init: {kind: tpcc}`).
 *
 * Drops and creates warehouse, district, customer, history, new_order,
 * orders, order_line, item and stock with TPC-C's columns (clause 1.3) and
 * loads them at TPC-C's initial cardinalities and value rules (clause 4.3.3):
 * per warehouse 10 districts, 30000 customers and history rows, 30000
 * orders (the last 900 of each district undelivered, with new_order rows),
 * about 300000 order lines (5 to 15 per order) and 100000 stock rows; 100000
 * items in all. Four connections load in parallel, each its own tables in
 * one transaction (truncate, then text COPY ... FREEZE, as pgbench -i), then
 * each runs VACUUM ANALYZE and adds its tables' primary keys and the two
 * secondary indexes the transactions need (customer by last name, orders by
 * customer).
 *
 * Metrics (seconds): init_s, init_drop_s, init_create_s, init_load_s,
 * init_vacuum_s, init_pkeys_s, and init_rows (rows loaded). Info
 * "tpcc.warehouses". */
#ifndef BENCHGRID_TPCC_INIT_H
#define BENCHGRID_TPCC_INIT_H

#include <signal.h>
#include "diag.h"
#include "pgb_init_opts.h"
#include "result.h"

/* As pgb_init_run_ctl (pgb_init.h), for o->tpcc. */
int tpcc_init_run(const char *conninfo, const struct pgb_init_opts *o, volatile sig_atomic_t *stop,
                  double timeout, struct step_result *res, struct diag *d);

#endif
