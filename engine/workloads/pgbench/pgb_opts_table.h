/* pgb_opts_table: the options of the `pgbench:` step (see base/opt_table.h). */
#ifndef BENCHGRID_PGB_OPTS_TABLE_H
#define BENCHGRID_PGB_OPTS_TABLE_H

#include "opt_table.h"

extern const struct opt_table pgb_opt_table;    /* "pgbench" */
extern const struct opt_table pgb_script_table; /* "pgbench.script": a script as a map */

extern const char *const pgb_builtin_values[];  /* the builtin scripts */
extern const char *const pgb_protocol_values[]; /* in the order of the protocols */
extern const char *const pgb_connect_values[];

#endif
