/* estimate: the seconds a cell's steps declare (runtime:, duration:), for
 * the ETA of a run and the time limit of a Slurm task. Steps that declare
 * no duration count 0: callers add their own margin. */
#ifndef BENCHGRID_ESTIMATE_H
#define BENCHGRID_ESTIMATE_H

#include <stdint.h>

#include "cell.h"
#include "node.h"
#include "spec.h"

/* The durations declared anywhere under n (a steps: list), summed. */
double estimate_declared_seconds(const struct node *steps);
/* One cell: its interpolated steps' declared seconds x (repeat + warmup). */
double estimate_cell_seconds(const struct spec *s, const struct cell *c, int64_t repeat, int64_t warmup);

#endif
