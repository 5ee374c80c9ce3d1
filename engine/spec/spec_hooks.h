/* spec_hooks: the Lua side of a scenario: the state for hooks, `!lua`
 * values and the matrix filter. Works on struct spec (spec_types.h), so
 * spec.c uses it without spec_hooks including spec.h back. */
#ifndef BENCHGRID_SPEC_HOOKS_H
#define BENCHGRID_SPEC_HOOKS_H

#include <stdbool.h>

#include "diag.h"
#include "node.h"
#include "spec_types.h"

/* Create the Lua state when the scenario uses hooks, !lua or filter. */
void spec_hooks_load_lua(struct spec *s, struct diag *d);
void spec_hooks_free_lua(struct spec *s);
/* Replace every `!lua` scalar of tree (in place) by its value for params. */
int spec_hooks_eval_lua(const struct spec *s, struct node *tree, const struct node *params, struct diag *d);
/* The matrix filter, for matrix_opts. */
int spec_hooks_filter(void *spec, const struct node *expr, const struct node *params, bool *keep,
                      struct diag *d);
/* Does the tree contain a scalar tagged !lua? */
bool spec_hooks_has_lua(const struct node *n);

#endif
