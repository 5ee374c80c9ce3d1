/* pgb_estimate: what a pgbench step will do, for plan's estimate
 * (workload_ops.estimate, base/step_estimate.h): with init:, a data load at
 * its scale; else its duration, else its transactions (10 a client by
 * default, as pgbench's -t) at the schedule's rate or the last stored
 * run's tps (step_estimate.tps_metric); and whether it may
 * change rows (a builtin other than select-only, a script with a statement
 * that writes, a script file, which plan does not read). */
#ifndef BENCHGRID_PGB_ESTIMATE_H
#define BENCHGRID_PGB_ESTIMATE_H

#include "step_estimate.h"

void pgb_estimate(const struct node *opts, struct step_estimate *e);

#endif
