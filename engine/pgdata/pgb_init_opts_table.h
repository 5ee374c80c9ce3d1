/* pgb_init_opts_table: the options of `init:` (pgbench -i), under
 * postgres: and in a pgbench step (see base/opt_table.h). */
#ifndef BENCHGRID_PGB_INIT_OPTS_TABLE_H
#define BENCHGRID_PGB_INIT_OPTS_TABLE_H

#include "opt_table.h"

extern const struct opt_table pgb_init_opt_table; /* "pgdata.init" */
extern const char *const pgb_init_method_values[];
extern const char *const pgb_init_kind_values[]; /* pgbench, tpcc, ycsb */

#endif
