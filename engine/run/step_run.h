/* step_run: run the steps of one repetition of a cell: options, the
 * before_step and after_step hooks, the system monitor, the timeout, and the
 * step's result into the cell's record. */
#ifndef BENCHGRID_STEP_RUN_H
#define BENCHGRID_STEP_RUN_H

#include <stddef.h>

#include "cell.h"
#include "results.h"
#include "run_env.h"

#include "step_one.h" /* STEPS_*, step_run_first_error */

/* Run every step of `tree` once. rep < 0: a warmup run (not recorded).
 * Returns STEPS_*; a failed step stops the repetition and sets rc's status. */
int step_run_rep(struct run_env *E, const struct cell *c, const struct node *tree, struct run_cell *rc,
                 long rep, const char *cell_dir);

#endif
