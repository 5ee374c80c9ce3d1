/* spec_check: validate one cell's interpolated tree.
 *
 * spec knows the shape of a step (name, record, timeout, one workload key)
 * but not what a workload, a target, a server, a knob or a report accepts:
 * the modules that do sit above spec. So they register their checks here
 * at start (run/validators.c does it for all of them), and spec_check_cell()
 * walks the table: the steps first, then each validator in the order of
 * registration. */
#ifndef BENCHGRID_SPEC_CHECK_H
#define BENCHGRID_SPEC_CHECK_H

#include "diag.h"
#include "node.h"
#include "spec_types.h"

/* Checks the options of one workload (the value under its step key): 0, or
 * -EINVAL with positioned errors in d. */
typedef int (*spec_step_check_fn)(const struct node *opts, struct diag *d);

/* Checks the sections it owns in a cell's tree (target, targets, postgres,
 * sysctl, queue) or in the scenario (report, expect): 0, or -EINVAL with
 * positioned errors in d. */
typedef int (*spec_validator_fn)(const struct node *cell, const struct node *scenario, struct diag *d);

/* A step kind: the key that names it in a step and its check (may be NULL).
 * Registering a name twice keeps the first; -ENOSPC when the table is full. */
int spec_check_add_step_kind(const char *name, spec_step_check_fn check);
/* A validator; registering one twice keeps the first; -ENOSPC when full. */
int spec_check_add_validator(spec_validator_fn check);

/* Validate one cell's interpolated tree: every step and section. */
int spec_check_cell(const struct spec *s, const struct node *tree, struct diag *d);

/* A step's `when:` in a cell's tree (v: ${...} and !lua evaluated) as a
 * boolean in *run; orig: the same `when:` as the scenario writes it. A
 * !lua predicate must give a Lua boolean: its number or string is refused,
 * not read as yes/no/1/0. NULL, or what is wrong ("a number is not a
 * predicate", ...). */
const char *spec_check_when(const struct node *v, const struct node *orig, bool *run);

#endif
