/* pgb_ycsb_opts_table: the pgbench step's `ycsb:` options, for builtin
 * ycsb-like (docs/steps/ycsb-like.md). */
#ifndef BENCHGRID_PGB_YCSB_OPTS_TABLE_H
#define BENCHGRID_PGB_YCSB_OPTS_TABLE_H

#include "opt_table.h"

extern const struct opt_table pgb_ycsb_table; /* "pgbench.ycsb" */
extern const char *const pgb_ycsb_workload_values[];
extern const char *const pgb_ycsb_dist_values[];

#endif
