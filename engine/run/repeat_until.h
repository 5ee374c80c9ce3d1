/* repeat_until: when `repeat: {min, max, until}` has run a cell enough.
 *
 * After each recorded repetition from the min-th on, the 95% confidence
 * interval of the mean (Student's t, model/stats_ci.h) of every watched
 * metric must be within until_pct percent of its mean. The watched metrics
 * are `metrics:` (STEP.METRIC), else each recorded step's headline metric:
 * mb_s, else iops, else tps, else (exec) the first metric other than
 * exit_status and elapsed_s, else elapsed_s. */
#ifndef BENCHGRID_REPEAT_UNTIL_H
#define BENCHGRID_REPEAT_UNTIL_H

#include <stdbool.h>
#include <stddef.h>

#include "results.h"
#include "run_order.h"

/* The headline metric of a step result, or NULL when it has none. */
const char *repeat_headline_metric(const struct step_result *r);

/* Has rc converged? *worst_pct: the widest half-width as a percent of its
 * mean (NaN when some metric has too few samples), worst: its name. */
bool repeat_converged(const struct repeat_spec *rs, const struct run_cell *rc, double *worst_pct, char *worst,
                      size_t len);

#endif
