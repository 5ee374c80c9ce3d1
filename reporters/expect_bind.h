/* expect_bind: whether a ratio or order verdict says anything about the
 * devices (issue 28, docs/results.md "Models must bind").
 *
 * A shape check between cells with device models is a test of the model
 * only if the models limited the compared steps. So when a compared cell
 * has models (its fact `models` is on or off), a measured verdict turns
 * INCONCLUSIVE, with the reason in its note, when
 *   - a compared cell with models on had no modelled target at or above
 *     the entry's `bind:` threshold (default 80 %) in the compared step:
 *     the largest STEP.model.NAME.utilisation (the median over repeats) is
 *     below it: "models did not bind: walfs at 42 % of write_iops (cell 3,
 *     step load)";
 *   - a compared cell (either arm) was CPU-bound in the compared step
 *     while other processes took more than NOISE_FOREIGN_PCT of the CPUs
 *     (a busy machine): sys_idle_pct + sys_iowait_pct (the whole
 *     machine's, the monitor's) below EXPECT_CPU_BOUND_PCT and the noise
 *     watch's noise.foreign_cpu_pct above it: "a busy machine: idle +
 *     iowait 1 %, other processes 40 % (cell 3, step load)". Where that
 *     share is not known, a CPU-bound control cell is INCONCLUSIVE
 *     ("CPU-bound: ...").
 * A control cell that is CPU-bound by its own work is what a control arm
 * is (no device limits it) and is judged; a cell whose model bound is
 * judged unless the machine was busy.
 * `bind: none` turns the first off (an entry whose reference cell is not
 * device-limited by design), never the second. Cells without models (no `models` fact:
 * results from before, or a scenario without model:) are never judged. */
#ifndef BENCHGRID_EXPECT_BIND_H
#define BENCHGRID_EXPECT_BIND_H

#include <stdbool.h>
#include <stddef.h>

#include "diag.h"
#include "expect_row.h"
#include "node.h"
#include "results.h"

#define EXPECT_BIND_DEFAULT  0.8
#define EXPECT_CPU_BOUND_PCT 5.0

/* `bind:` (v may be NULL: the default): "80%", a fraction in (0, 1], or
 * none (*thr = 0). 0 or -EINVAL. */
int expect_bind_parse(const struct node *v, double *thr, struct diag *d);

/* Is step `step` of cell c (summary s) conclusive at threshold thr? false
 * with why (the reason of INCONCLUSIVE) when not. */
bool expect_bind_cell(const struct run_cell *c, const struct cell_summary *s, const char *step, double thr,
                      char *why, size_t len);

/* A judged ratio or order row whose verdict came from measured pairs
 * (PASS, FAIL, XPASS, XFAIL): INCONCLUSIVE when a compared cell of a
 * measured pair is not conclusive (above); its note gives why and the
 * verdict the shape alone had. step is the left side's step, to_step the
 * right side's (two metrics of each cell), or NULL: the same. */
void expect_bind_judge(struct expect_row *row, const struct run *r, struct cell_summary *const *sums,
                       const char *step, const char *to_step, double thr);

#endif
