/* pgb_init: pgbench's data set (pgbench -i) through libpq.
 *
 * Drops and creates pgbench's four tables with pgbench's exact columns
 * (pgbench_branches, pgbench_tellers, pgbench_accounts, pgbench_history),
 * loads scale branches, 10*scale tellers and 100000*scale accounts (history
 * stays empty), then runs VACUUM ANALYZE on each table and adds the primary
 * keys (and, when asked, pgbench's foreign keys). The client-side load streams
 * text COPY ... FREEZE in large buffers; server_side generates the rows
 * with generate_series in the server, as pgbench -I G does.
 *
 * Metrics (seconds): init_s (whole run) and the phases init_drop_s,
 * init_create_s, init_load_s, init_vacuum_s, init_pkeys_s (and init_fkeys_s
 * with foreign_keys). Info "pgbench.scale" records the scale loaded. */
#ifndef BENCHGRID_PGB_INIT_H
#define BENCHGRID_PGB_INIT_H

#include <signal.h>
#include "diag.h"
#include "pgb_init_opts.h"
#include "result.h"

/* Run the whole initialisation against `conninfo`. On failure: result_fail()
 * with the failing statement and the server's message, and a negative errno.
 * Invalid options (scale < 1, fillfactor out of range) add to d and give
 * -EINVAL. */
int pgb_init_run(const char *conninfo, const struct pgb_init_opts *o, struct step_result *res,
                 struct diag *d);

/* The same, ended early: when *stop becomes non-zero (may be NULL) or after
 * `timeout` seconds (0 = none) the running statement is cancelled and the
 * run fails with "stopped" / "timed out after N s". */
int pgb_init_run_ctl(const char *conninfo, const struct pgb_init_opts *o, volatile sig_atomic_t *stop,
                     double timeout, struct step_result *res, struct diag *d);

#endif
