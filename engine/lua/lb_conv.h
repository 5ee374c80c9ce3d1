/* lb_conv: scenario nodes <-> Lua values. */
#ifndef BENCHGRID_LB_CONV_H
#define BENCHGRID_LB_CONV_H

#include <lua.h>

#include "diag.h"
#include "node.h"

/* Push a node as a typed Lua value (params and options): unquoted scalars
 * that are integers, numbers, booleans, sizes (bytes) or durations (seconds)
 * become numbers and booleans; everything else a string; maps and sequences
 * tables. */
void lb_push_node(lua_State *S, const struct node *n);
/* Push a table of a NODE_MAP's values, typed. */
void lb_push_params(lua_State *S, const struct node *params);
/* Limits of lb_to_node: tables nested at most LB_MAX_DEPTH deep, at most
 * LB_MAX_VALUES values in all (a table shared many times counts each time). */
#define LB_MAX_DEPTH  100
#define LB_MAX_VALUES 100000

/* Convert the Lua value at idx into a node at pos; NULL with an error in d:
 * a table that contains itself, one nested deeper than LB_MAX_DEPTH or with
 * more than LB_MAX_VALUES values in all is refused. */
struct node *lb_to_node(lua_State *S, int idx, const struct src_pos *pos, const char *what, struct diag *d);

#endif
