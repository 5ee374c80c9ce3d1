/* spec_steps: steps that run beside others (docs/scenario.md, "Steps that
 * overlap").
 *
 * A scenario writes a group of steps that start together as one step with
 * `parallel: {until: all|first, steps: [...]}`, and a step that runs beside
 * the cell's next foreground steps with `background: true`. At load the
 * groups are flattened: each group is replaced by its steps, in order, each
 * marked with the internal keys SPEC_STEP_GROUP (the group's name, at the
 * group's position), SPEC_STEP_UNTIL ("all" or "first"), SPEC_STEP_TOTALS
 * (present when the group has group_reporting: true) and SPEC_STEP_INDEX
 * (the group's index in steps:, which tells two groups apart: an unnamed
 * group's default name may equal another's explicit one). Keys starting
 * with x- are dropped by the loader, so no scenario can write these. Every
 * reader of a cell's steps (check, plan, estimate, the reference checks,
 * the runner) thus sees a flat list of steps, each with one workload. */
#ifndef BENCHGRID_SPEC_STEPS_H
#define BENCHGRID_SPEC_STEPS_H

#include <stdbool.h>
#include <stddef.h>

#include "diag.h"
#include "node.h"

#define SPEC_STEP_GROUP  "x-parallel"
#define SPEC_STEP_UNTIL  "x-until"
#define SPEC_STEP_INDEX  "x-parallel-index"
#define SPEC_STEP_TOTALS "x-group-reporting"

/* Replace root's parallel: groups by their steps (see above) and check the
 * new keys: errors with file:line:col in d; -EINVAL or 0. */
int spec_steps_flatten(struct node *root, struct diag *d);

/* The group of a (flattened) step, NULL when it runs alone; *first: the
 * group ends when its first step ends. */
const char *spec_step_group(const struct node *step, bool *first);
/* The index of a (flattened) step's group in the scenario's steps:, -1
 * when it runs alone: the steps of one group have the same one. */
long spec_step_group_index(const struct node *step);
/* The step's group has group_reporting: true (its io steps get one total
 * result, named after the group: model/group_total.h). */
bool spec_step_group_totals(const struct node *step);
/* background: true (read leniently: check reports a bad value). */
bool spec_step_background(const struct node *step);

#endif
