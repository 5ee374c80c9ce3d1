/* exec_opts_table: the options of the `exec:` step (see base/opt_table.h). */
#ifndef BENCHGRID_EXEC_OPTS_TABLE_H
#define BENCHGRID_EXEC_OPTS_TABLE_H

#include "opt_table.h"

extern const struct opt_table exec_opt_table; /* "exec" */

#endif
