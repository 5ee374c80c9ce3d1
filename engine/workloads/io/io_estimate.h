/* io_estimate: what an io step will do, for plan's estimate
 * (workload_ops.estimate, base/step_estimate.h): a runtime (and its ramp),
 * else the bytes it moves, files read being written first (prepare: auto);
 * the bytes of its files in the target, kept or not; file: "@device" uses
 * the target's device raw. A metadata operation (op:) or a raw device
 * without size: declares no time. */
#ifndef BENCHGRID_IO_ESTIMATE_H
#define BENCHGRID_IO_ESTIMATE_H

#include "step_estimate.h"

void io_estimate(const struct node *opts, struct step_estimate *e);

#endif
