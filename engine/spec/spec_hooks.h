/* spec_hooks: where the scenario checker reaches into optional modules
 * (the Lua bridge, target/postgres/knob validation). Kept apart from spec.c
 * so the loader stays independent of those modules. */
#ifndef BENCHGRID_SPEC_HOOKS_H
#define BENCHGRID_SPEC_HOOKS_H

#include "spec.h"
#include "matrix.h"

/* Create the Lua state when the scenario uses hooks, !lua or filter. */
void spec_hooks_load_lua(struct spec *s, struct diag *d);
void spec_hooks_free_lua(struct spec *s);
/* Replace every `!lua` scalar of tree (in place) by its value for params. */
int spec_hooks_eval_lua(const struct spec *s, struct node *tree, const struct node *params, struct diag *d);
/* The matrix filter, for matrix_opts. */
int spec_hooks_filter(void *spec, const struct node *expr, const struct node *params, bool *keep,
                      struct diag *d);
/* Validate target, targets, postgres, sysctl and queue of one cell. */
int spec_hooks_check_sections(const struct spec *s, const struct node *tree, struct diag *d);
/* Does the tree contain a scalar tagged !lua? */
bool spec_hooks_has_lua(const struct node *n);

#endif
