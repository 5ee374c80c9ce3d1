/* cell_run: one cell of the sweep: the before_cell hook, the cell's tree
 * interpolated in three rounds as its fixtures come up (what is known at
 * once; then ${target.path} and friends; then ${pg.conninfo}), warmup and
 * repeat runs of its steps, the after_cell and on_error hooks. */
#ifndef BENCHGRID_CELL_RUN_H
#define BENCHGRID_CELL_RUN_H

#include <stddef.h>

#include "cell.h"
#include "results.h"
#include "run_env.h"

/* Run cell c into rc. Returns STEPS_* (step_run.h). */
int cell_run(struct run_env *E, const struct cell *c, struct run_cell *rc);

/* "name=value name=value" of the cell's parameters, for people. */
void cell_run_label(const struct cell *c, char *buf, size_t len);

#endif
