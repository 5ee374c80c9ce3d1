/* lb_expr: `!lua "expr"` values and the matrix `filter:`. */
#ifndef BENCHGRID_LB_EXPR_H
#define BENCHGRID_LB_EXPR_H

#include <stdbool.h>

#include "diag.h"
#include "node.h"

struct lb;

/* Evaluate a `!lua "expr"` scalar with the cell's params (a NODE_MAP, may be
 * NULL) as read-only globals, typed: sizes in bytes, durations in seconds,
 * numbers, booleans, strings. Functions defined in hooks are visible too.
 * *out is a new scalar at expr's position: a number as text, a string
 * (quoted), or true/false; nil, tables and functions are errors. */
int lb_eval(struct lb *L, const struct node *expr, const struct node *params, struct node **out,
            struct diag *d);
/* The matrix `filter:`: the expression must give true or false. */
int lb_filter(struct lb *L, const struct node *expr, const struct node *params, bool *keep, struct diag *d);

#endif
