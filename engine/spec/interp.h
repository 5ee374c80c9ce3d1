/* interp: `${name}` interpolation in scenario values.
 *
 * `${name}` is replaced by the variable's text; `$${` stands for a literal
 * `${`. A value that is exactly "${x}" is replaced by a copy of x's node, so
 * it keeps x's type (a number stays a number, a quoted string a string).
 * Names may contain dots (`target.path`). Scalars tagged `!lua` are left
 * alone: Lua evaluates them. An undefined name is an error at the position of
 * the `${`.
 *
 * What references copy is taken from a spec_budget (the one aliases and
 * includes use, spec_load.h): a 1 MB variable referenced 400 times would
 * otherwise cost 400 MB per cell. A reference that goes over it, and an
 * allocation that fails, is an error, never a silently shorter text. */
#ifndef BENCHGRID_INTERP_H
#define BENCHGRID_INTERP_H

#include <stdbool.h>
#include "diag.h"
#include "node.h"

struct spec_budget;

/* Return the value of `name`, or NULL when undefined. Set *defer to leave
 * `${name}` untouched (a name known only at run time). */
typedef const struct node *(*interp_lookup_fn)(void *ud, const char *name, bool *defer);

/* Interpolate one scalar text; *out is malloc'd. *whole is set to the node
 * of a value that is exactly "${x}" (caller clones it), else NULL. The
 * bytes references copy are taken from b. */
int interp_text(const char *text, const struct src_pos *pos, bool quoted, interp_lookup_fn fn, void *ud,
                struct spec_budget *b, char **out, const struct node **whole, struct diag *d);

/* A deep copy of tmpl with every scalar interpolated, taking what references
 * copy from b. NULL on error. */
struct node *interp_tree(const struct node *tmpl, interp_lookup_fn fn, void *ud, struct spec_budget *b,
                         struct diag *d);

/* A budget for one expansion (a cell's sections, the matrix's values) of a
 * scenario whose tree is root: SPEC_ALIAS_FACTOR times its size, at least
 * SPEC_ALIAS_MIN, as for aliases. */
void interp_budget_for(struct spec_budget *b, const struct node *root);

/* Does the text contain a `${` reference? */
bool interp_has_ref(const char *text);

#endif
