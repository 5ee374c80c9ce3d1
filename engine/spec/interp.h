/* interp: `${name}` interpolation in scenario values.
 *
 * `${name}` is replaced by the variable's text; `$${` stands for a literal
 * `${`. A value that is exactly "${x}" is replaced by a copy of x's node, so
 * it keeps x's type (a number stays a number, a quoted string a string).
 * Names may contain dots (`target.path`). Scalars tagged `!lua` are left
 * alone: Lua evaluates them. An undefined name is an error at the position of
 * the `${`. */
#ifndef BENCHGRID_INTERP_H
#define BENCHGRID_INTERP_H

#include <stdbool.h>
#include "diag.h"
#include "node.h"

/* Return the value of `name`, or NULL when undefined. Set *defer to leave
 * `${name}` untouched (a name known only at run time). */
typedef const struct node *(*interp_lookup_fn)(void *ud, const char *name, bool *defer);

/* Interpolate one scalar text; *out is malloc'd. *whole is set to the node
 * of a value that is exactly "${x}" (caller clones it), else NULL. */
int interp_text(const char *text, const struct src_pos *pos, bool quoted, interp_lookup_fn fn, void *ud,
                char **out, const struct node **whole, struct diag *d);

/* A deep copy of tmpl with every scalar interpolated. NULL on error. */
struct node *interp_tree(const struct node *tmpl, interp_lookup_fn fn, void *ud, struct diag *d);

/* Does the text contain a `${` reference? */
bool interp_has_ref(const char *text);

#endif
