/* pgb_vacuum: what pgbench does before a run unless given -n (the step's
 * `vacuum: true`, the default).
 *
 * pgbench 15 (src/bin/pgbench/pgbench.c, main(), after reading the scale and
 * before starting its threads and its clock) runs, each through
 * tryExecuteStatement on its own connection:
 *     vacuum pgbench_branches
 *     vacuum pgbench_tellers
 *     truncate pgbench_history
 * A statement that fails (no pgbench tables for a custom script) is reported
 * ("(ignoring this error and continuing anyway)") and the run goes on. The
 * time it takes is not part of the measured run. */
#ifndef BENCHGRID_PGB_VACUUM_H
#define BENCHGRID_PGB_VACUUM_H

#include <libpq-fe.h>
#include "result.h"

/* Run the three statements on c, in pgbench's order. A failed one adds a
 * "warning" info to res and the next one still runs. Records info
 * "pgbench.vacuum" ("done", or "N of 3 statements failed") and
 * "pgbench.vacuum_s" (seconds spent). Returns the number that failed. */
int pgb_vacuum(PGconn *c, struct step_result *res);

#endif
