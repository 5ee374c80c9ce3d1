/* lb_conv: scenario nodes <-> Lua values (see lb_conv.h). */
#include "lb_conv.h"

#include <lauxlib.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "units.h"

static bool lb_is_bool(const char *t, bool *v)
{
	static const char *const yes[] = {"true", "True", "TRUE", NULL}, *const no[] = {"false", "False",
	                                                                                "FALSE", NULL};
	for (int i = 0; yes[i]; i++) {
		if (!strcmp(t, yes[i]))
			return *v = true;
		if (!strcmp(t, no[i]))
			return !(*v = false);
	}
	return false;
}

static void lb_push_scalar(lua_State *S, const struct node *n)
{
	const char *t = n->text;
	int64_t i;
	double f;
	uint64_t sz;
	bool b;
	if (n->quoted || !*t)
		lua_pushstring(S, t);
	else if (units_is_int(t, &i))
		lua_pushinteger(S, i);
	else if (units_is_number(t, &f))
		lua_pushnumber(S, f);
	else if (lb_is_bool(t, &b))
		lua_pushboolean(S, b);
	else if (units_has_size_suffix(t) && units_parse_size(t, &sz, NULL, 0) == 0 && sz <= INT64_MAX)
		lua_pushinteger(S, (lua_Integer)sz);
	else if (units_has_duration_suffix(t) && units_parse_duration(t, &f, NULL, 0) == 0)
		lua_pushnumber(S, f);
	else
		lua_pushstring(S, t);
}

void lb_push_node(lua_State *S, const struct node *n)
{
	luaL_checkstack(S, 4, "nesting too deep");
	if (!n || n->kind == NODE_NULL) {
		lua_pushnil(S);
	} else if (n->kind == NODE_SCALAR) {
		lb_push_scalar(S, n);
	} else if (n->kind == NODE_SEQ) {
		lua_createtable(S, (int)n->n, 0);
		for (size_t i = 0; i < n->n; i++) {
			lb_push_node(S, n->items[i]);
			lua_rawseti(S, -2, (lua_Integer)i + 1);
		}
	} else {
		lua_createtable(S, 0, (int)n->n);
		for (size_t i = 0; i < n->n; i++) {
			lb_push_node(S, n->items[i]);
			lua_setfield(S, -2, n->keys[i]);
		}
	}
}

void lb_push_params(lua_State *S, const struct node *params)
{
	if (params && params->kind == NODE_MAP)
		lb_push_node(S, params);
	else
		lua_newtable(S);
}

/* A number as the shortest text that reads back the same. */
static void lb_fmt_number(lua_State *S, int idx, char *buf, size_t len)
{
	if (lua_isinteger(S, idx)) {
		snprintf(buf, len, "%lld", (long long)lua_tointeger(S, idx));
		return;
	}
	double v = lua_tonumber(S, idx);
	if (v == floor(v) && fabs(v) < 9007199254740992.0) {
		snprintf(buf, len, "%.0f", v);
		return;
	}
	for (int prec = 15; prec <= 17; prec++) {
		snprintf(buf, len, "%.*g", prec, v);
		if (strtod(buf, NULL) == v)
			return;
	}
}

/* The walk of lb_to_node: the tables on the path from the root (for cycles)
 * and the number of values made so far. */
struct lb_walk {
	const void *path[LB_MAX_DEPTH + 1];
	int depth;
	size_t values;
	const struct src_pos *pos;
	const char *what;
	struct diag *d;
};

static struct node *lb_walk_value(lua_State *S, int idx, struct lb_walk *w);

/* A table with only 1..n keys is a sequence, otherwise a map with string
 * keys. */
static struct node *lb_walk_table(lua_State *S, int idx, struct lb_walk *w)
{
	const void *self = lua_topointer(S, idx);
	for (int i = 0; i < w->depth; i++) {
		if (w->path[i] == self) {
			diag_error(w->d, w->pos, "%s: gave a table that contains itself (a cycle)", w->what);
			return NULL;
		}
	}
	if (w->depth >= LB_MAX_DEPTH || !lua_checkstack(S, 4)) {
		diag_error(w->d, w->pos, "%s: gave tables nested deeper than %d levels", w->what,
		           LB_MAX_DEPTH);
		return NULL;
	}
	w->path[w->depth++] = self;
	lua_Integer len = (lua_Integer)lua_rawlen(S, idx);
	size_t count = 0;
	bool strkeys = true;
	lua_pushnil(S);
	while (lua_next(S, idx)) {
		count++;
		if (lua_type(S, -2) != LUA_TSTRING)
			strkeys = false;
		lua_pop(S, 1);
	}
	struct node *n = NULL;
	bool seq = len > 0 && (size_t)len == count;
	if (!seq && !strkeys) {
		diag_error(w->d, w->pos, "%s: a table must be a list or have only string keys", w->what);
		goto out;
	}
	n = node_new(seq ? NODE_SEQ : NODE_MAP, w->pos);
	if (seq) {
		for (lua_Integer i = 1; n && i <= len; i++) {
			lua_rawgeti(S, idx, i);
			struct node *it = lb_walk_value(S, -1, w);
			lua_pop(S, 1);
			if (!it)
				goto fail;
			node_seq_push(n, it);
		}
		goto out;
	}
	lua_pushnil(S);
	while (n && lua_next(S, idx)) {
		struct node *it = lb_walk_value(S, -1, w);
		if (!it) {
			lua_pop(S, 2);
			goto fail;
		}
		node_map_put(n, lua_tostring(S, -2), w->pos, it);
		lua_pop(S, 1);
	}
	goto out;
fail:
	node_free(n);
	n = NULL;
out:
	w->depth--;
	return n;
}

static struct node *lb_walk_value(lua_State *S, int idx, struct lb_walk *w)
{
	idx = lua_absindex(S, idx);
	char buf[64];
	struct node *n;
	if (++w->values > LB_MAX_VALUES) {
		if (w->values == LB_MAX_VALUES + 1)
			diag_error(w->d, w->pos, "%s: gave more than %d values", w->what, LB_MAX_VALUES);
		return NULL;
	}
	switch (lua_type(S, idx)) {
	case LUA_TNUMBER:
		if (!isfinite(lua_tonumber(S, idx))) {
			diag_error(w->d, w->pos, "%s: gave %s, which is not a usable number", w->what,
			           lua_tostring(S, idx));
			return NULL;
		}
		lb_fmt_number(S, idx, buf, sizeof(buf));
		return node_new_scalar(buf, w->pos);
	case LUA_TBOOLEAN: return node_new_scalar(lua_toboolean(S, idx) ? "true" : "false", w->pos);
	case LUA_TSTRING:
		n = node_new_scalar(lua_tostring(S, idx), w->pos);
		if (n)
			n->quoted = true;
		return n;
	case LUA_TTABLE: return lb_walk_table(S, idx, w);
	default:
		diag_error(w->d, w->pos, "%s: gave %s; expected a number, a string or a boolean", w->what,
		           lua_isnoneornil(S, idx) ? "nil" : luaL_typename(S, idx));
		return NULL;
	}
}

struct node *lb_to_node(lua_State *S, int idx, const struct src_pos *pos, const char *what, struct diag *d)
{
	struct lb_walk w = {.pos = pos, .what = what, .d = d};
	return lb_walk_value(S, idx, &w);
}
