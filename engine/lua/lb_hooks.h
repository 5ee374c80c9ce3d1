/* lb_hooks: the hook calls. A hook that is not defined is not called
 * (returns 0). Every function returns 0 or a negative errno and adds an
 * error to d. */
#ifndef BENCHGRID_LB_HOOKS_H
#define BENCHGRID_LB_HOOKS_H

#include <stdbool.h>
#include <stddef.h>

#include "cell.h"
#include "diag.h"
#include "node.h"
#include "result.h"

struct lb;

/* setup(ctx): ctx.scenario, ctx.file, ctx.dir. lb_setup also records the
 * scenario's name for finish's run.scenario, so call it even when there is
 * no setup hook (until then the name is the file's base name). */
int lb_setup(struct lb *L, const char *scenario_name, struct diag *d);
/* before_cell(cell): cell:skip(reason) sets *skip and *skip_reason (malloc'd,
 * free it; NULL when not skipped). */
int lb_before_cell(struct lb *L, const struct cell *c, bool *skip, char **skip_reason, struct diag *d);
/* before_step(step, cell): step.name, step.options (typed). A returned table
 * becomes *override_opts, a new NODE_MAP (caller frees) whose keys replace
 * the step's options; NULL when the hook returned nothing. */
int lb_before_step(struct lb *L, const struct cell *c, const char *step_name, const struct node *step_opts,
                   struct node **override_opts, struct diag *d);
/* after_step(step, result, cell): result.<metric> reads a metric (nil when
 * absent); result:metric(name, value[, unit]) adds one to res. */
int lb_after_step(struct lb *L, const struct cell *c, const char *step_name, struct step_result *res,
                  struct diag *d);
/* after_cell(cell, results): results[i] in step order and results[name]. */
int lb_after_cell(struct lb *L, const struct cell *c, struct step_result *const *results, size_t n,
                  struct diag *d);
/* finish(run): run.outdir, run.scenario (name), run.file, and
 * run:write(relative_name, text) to add a file to outdir. */
int lb_finish(struct lb *L, const char *outdir, struct diag *d);
/* on_error(err, cell): c may be NULL (cell is then nil). */
int lb_on_error(struct lb *L, const struct cell *c, const char *err, struct diag *d);

#endif
