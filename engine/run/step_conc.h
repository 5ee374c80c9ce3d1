/* step_conc: the steps of a repetition when some run beside others: the
 * steps of a parallel: group start together, each on its own thread; a
 * background: true step starts and the next steps start beside it, and it
 * is stopped when the cell's foreground steps have ended (spec_steps.h).
 *
 * The calling thread watches them (every 20 ms): a signal stops them all;
 * a step that fails stops every other running step (they keep what they
 * measured, marked stopped); the first step of an `until: first` group that
 * ends stops its siblings. A stopped step is not failed: its figures cover
 * what it ran. Each step gets its own stop flag (struct step_ctx.stop); its
 * workload times itself out (step_ctx.timeout), the watcher stops it a
 * second later if it does not. Hooks, progress lines and the record stay
 * on the calling thread.
 *
 * The series of steps that overlap share one clock: their t counts seconds
 * from the start of the first step of the overlap (info `clock`), so a
 * chart can put their series on one time axis; each step says what it
 * overlapped (info `overlapped`), the cell what ran together (fact
 * `steps.overlap`). */
#ifndef BENCHGRID_STEP_CONC_H
#define BENCHGRID_STEP_CONC_H

#include <stdbool.h>

#include "cell.h"
#include "results.h"
#include "run_env.h"

/* Does this steps: list hold a group or a background step? */
bool step_conc_wanted(const struct node *steps);
/* Run the steps of the cell's tree, one repetition (rep < 0: a warm-up);
 * STEPS_*. */
int step_conc_rep(struct run_env *E, const struct cell *c, const struct node *tree, struct run_cell *rc,
                  long rep, const char *cell_dir);

#endif
