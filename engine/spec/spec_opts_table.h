/* spec_opts_table: the options of the scenario's top level, of a step's
 * common keys, of matrix: and of profiles: (see base/opt_table.h). */
#ifndef BENCHGRID_SPEC_OPTS_TABLE_H
#define BENCHGRID_SPEC_OPTS_TABLE_H

#include "opt_table.h"

extern const struct opt_table spec_top_table;      /* "scenario" */
extern const struct opt_table spec_step_table;     /* "step": the keys besides the workload's */
extern const struct opt_table spec_parallel_table; /* "parallel": a group of steps */
extern const struct opt_table spec_matrix_table;   /* "matrix" */
extern const struct opt_table spec_profile_table;  /* "profiles" */

#endif
