/* estimate_target: what a target costs plan's estimate. The target kinds
 * (fixtures/fs/target_ops.h) are above spec, so their `estimate` is
 * registered at start (run/validators.c). */
#ifndef BENCHGRID_ESTIMATE_TARGET_H
#define BENCHGRID_ESTIMATE_TARGET_H

#include <stdbool.h>

#include "node.h"
#include "target_cost.h"

/* fn prices every target from now on; without one, a target costs nothing. */
void estimate_set_target_cost(target_cost_fn fn);

/* The cost of target t (NULL: the default target), as its kind says. */
struct target_cost estimate_target_cost(const struct node *t, bool raw_io);

#endif
