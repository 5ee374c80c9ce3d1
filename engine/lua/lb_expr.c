/* lb_expr: `!lua` values and matrix filters (see lb_expr.h). */
#include "lb_expr.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lb_conv.h"
#include "lb_state.h"

/* __index of an expression's environment: the cell's parameters (upvalue
 * 1), then the sandbox globals; anything else is an error. */
static int lb_expr_index(lua_State *S)
{
	const char *k = lua_tostring(S, 2);
	lua_pushvalue(S, 2);
	if (lua_rawget(S, lua_upvalueindex(1)) != LUA_TNIL)
		return 1;
	lua_pushglobaltable(S);
	lua_pushvalue(S, 2);
	if (lua_rawget(S, -2) != LUA_TNIL)
		return 1;
	return luaL_error(S, "undefined name '%s': not a parameter of this cell nor a global", k ? k : "?");
}

static int lb_readonly(lua_State *S)
{
	return luaL_error(S, "cannot assign '%s': parameters are read-only in expressions",
	                  lua_tostring(S, 2) ? lua_tostring(S, 2) : "?");
}

/* Compile `expr` and push it with an environment of params; 0 or -EINVAL. */
static int lb_push_expr(struct lb *B, const struct node *expr, const struct node *params, const char *what,
                        struct diag *d)
{
	lua_State *S = B->S;
	if (!expr || expr->kind != NODE_SCALAR) {
		diag_error(d, expr ? &expr->pos : NULL, "%s: expected a Lua expression in quotes", what);
		return -EINVAL;
	}
	const char *t = expr->text;
	size_t n = strlen(t);
	char *src = malloc(n + 16);
	if (!src)
		return -ENOMEM;
	snprintf(src, n + 16, "return %s\n", t);
	int rc = luaL_loadbufferx(S, src, strlen(src), "=expression", "t");
	free(src);
	if (rc != LUA_OK) {
		diag_error(d, &expr->pos, "%s: Lua syntax error in '%s': %s", what, t,
		           lb_strip_where(lua_tostring(S, -1)));
		lua_pop(S, 1);
		return -EINVAL;
	}
	/* An empty proxy, so that every assignment reaches __newindex. */
	lua_newtable(S);
	lua_newtable(S);
	lb_push_params(S, params);
	lua_pushcclosure(S, lb_expr_index, 1);
	lua_setfield(S, -2, "__index");
	lua_pushcfunction(S, lb_readonly);
	lua_setfield(S, -2, "__newindex");
	lua_setmetatable(S, -2);
	lua_setupvalue(S, -2, 1);
	return 0;
}

/* An expression failed inside a function it called (a hook's line was
 * reported): also point at the expression. */
static int lb_expr_note(const struct node *expr, size_t n0, int rc, struct diag *d)
{
	if (n0 < d->n && d->v[n0].pos.line != expr->pos.line)
		diag_add(d, DIAG_NOTE, &expr->pos, "called from the expression \"%s\"", expr->text);
	return rc;
}

/* Push and call expr: its one result is on the stack, or a negative errno
 * with errors that point at the expression, not inside a hook it may call. */
static int lb_run_expr(struct lb *B, const struct node *expr, const struct node *params, const char *what,
                       struct diag *d)
{
	if (lb_push_expr(B, expr, params, what, d) < 0)
		return -EINVAL;
	size_t n0 = d->n;
	int rc = lb_pcall(B, 0, 1, what, &expr->pos, d);
	return rc < 0 ? lb_expr_note(expr, n0, rc, d) : 0;
}

int lb_eval(struct lb *B, const struct node *expr, const struct node *params, struct node **out,
            struct diag *d)
{
	lua_State *S = B->S;
	*out = NULL;
	int rc = lb_run_expr(B, expr, params, "!lua", d);
	if (rc < 0)
		return rc;
	char what[300];
	snprintf(what, sizeof(what), "!lua \"%s\"", expr->text);
	*out = lb_to_node(S, -1, &expr->pos, what, d);
	lua_pop(S, 1);
	if (*out && (*out)->kind != NODE_SCALAR) {
		diag_error(d, &expr->pos, "%s: gave a table; expected a number, a string or a boolean", what);
		node_free(*out);
		*out = NULL;
	}
	return *out ? 0 : -EINVAL;
}

int lb_filter(struct lb *B, const struct node *expr, const struct node *params, bool *keep, struct diag *d)
{
	lua_State *S = B->S;
	int rc = lb_run_expr(B, expr, params, "filter", d);
	if (rc < 0)
		return rc;
	if (!lua_isboolean(S, -1)) {
		diag_error(d, &expr->pos, "filter: \"%s\" gave a %s; expected true or false", expr->text,
		           luaL_typename(S, -1));
		lua_pop(S, 1);
		return -EINVAL;
	}
	*keep = lua_toboolean(S, -1);
	lua_pop(S, 1);
	return 0;
}
