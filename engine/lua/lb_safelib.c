/* lb_safelib: library functions that obey the budget, and setmetatable
 * without finalizers (see lb_safelib.h). The table functions follow Lua
 * 5.4's ltablib.c in their checks, messages and order of accesses. */
#include "lb_safelib.h"

#include <lauxlib.h>
#include <limits.h>
#include <stdbool.h>
#include <string.h>

#include "lb_state.h"

#define LS_CHECK 4096       /* elements between two looks at the clock */
#define LS_CHUNK (1u << 20) /* bytes string.rep copies between two looks */
#define LS_PIECE (1u << 16) /* bytes of a chunk load() compiles between two looks */

/* What a table argument must offer when it is not a table. */
#define LS_R 1 /* __index */
#define LS_W 2 /* __newindex */
#define LS_L 4 /* __len */

/* A call that starts once the budget is spent stops at once; later, the
 * clock is read every LS_CHECK steps (ls_tick). */
static unsigned ls_begin(lua_State *S)
{
	const struct lb *B = lb_of(S);
	if (B->running && (B->expired || B->stopped || (B->stop && *B->stop)))
		lb_budget_check(S);
	return LS_CHECK;
}

static void ls_tick(lua_State *S, unsigned *left)
{
	if (--*left == 0) {
		*left = LS_CHECK;
		lb_budget_check(S);
	}
}

static bool ls_has_field(lua_State *S, const char *key, int n)
{
	lua_pushstring(S, key);
	return lua_rawget(S, -n) != LUA_TNIL;
}

/* A table, or a value whose metatable has the metamethods `what` needs. */
static void ls_check_table(lua_State *S, int arg, int what)
{
	if (lua_type(S, arg) == LUA_TTABLE)
		return;
	int n = 1;
	if (lua_getmetatable(S, arg) && (!(what & LS_R) || ls_has_field(S, "__index", ++n)) &&
	    (!(what & LS_W) || ls_has_field(S, "__newindex", ++n)) &&
	    (!(what & LS_L) || ls_has_field(S, "__len", ++n)))
		lua_pop(S, n);
	else
		luaL_checktype(S, arg, LUA_TTABLE); /* raises */
}

static lua_Integer ls_len(lua_State *S, int arg, int what)
{
	ls_check_table(S, arg, what | LS_L);
	return luaL_len(S, arg);
}

/* table.move(a1, f, e, t [, a2]) */
static int ls_move(lua_State *S)
{
	lua_Integer f = luaL_checkinteger(S, 2);
	lua_Integer e = luaL_checkinteger(S, 3);
	lua_Integer t = luaL_checkinteger(S, 4);
	int tt = !lua_isnoneornil(S, 5) ? 5 : 1;
	ls_check_table(S, 1, LS_R);
	ls_check_table(S, tt, LS_W);
	if (e >= f) {
		luaL_argcheck(S, f > 0 || e < LUA_MAXINTEGER + f, 3, "too many elements to move");
		lua_Integer n = e - f + 1;
		luaL_argcheck(S, t <= LUA_MAXINTEGER - n + 1, 4, "destination wrap around");
		unsigned left = ls_begin(S);
		/* Forwards unless the ranges overlap with the destination after
		 * the source in the same table. */
		if (t > e || t <= f || (tt != 1 && !lua_compare(S, 1, tt, LUA_OPEQ))) {
			for (lua_Integer i = 0; i < n; i++) {
				ls_tick(S, &left);
				lua_geti(S, 1, f + i);
				lua_seti(S, tt, t + i);
			}
		} else {
			for (lua_Integer i = n - 1; i >= 0; i--) {
				ls_tick(S, &left);
				lua_geti(S, 1, f + i);
				lua_seti(S, tt, t + i);
			}
		}
	}
	lua_pushvalue(S, tt);
	return 1;
}

/* table.insert(t, [pos,] v) */
static int ls_insert(lua_State *S)
{
	lua_Integer e = ls_len(S, 1, LS_R | LS_W);
	e = (lua_Integer)((lua_Unsigned)e + 1u); /* the first empty slot */
	lua_Integer pos;
	switch (lua_gettop(S)) {
	case 2: pos = e; break;
	case 3: {
		pos = luaL_checkinteger(S, 2);
		luaL_argcheck(S, (lua_Unsigned)pos - 1u < (lua_Unsigned)e, 2, "position out of bounds");
		unsigned left = ls_begin(S);
		for (lua_Integer i = e; i > pos; i--) {
			ls_tick(S, &left);
			lua_geti(S, 1, i - 1);
			lua_seti(S, 1, i);
		}
		break;
	}
	default: return luaL_error(S, "wrong number of arguments to 'insert'");
	}
	lua_seti(S, 1, pos);
	return 0;
}

/* table.remove(t [, pos]) */
static int ls_remove(lua_State *S)
{
	lua_Integer size = ls_len(S, 1, LS_R | LS_W);
	lua_Integer pos = luaL_optinteger(S, 2, size);
	if (pos != size) /* Lua 5.4 names argument #1 here, and so do we */
		luaL_argcheck(S, (lua_Unsigned)pos - 1u <= (lua_Unsigned)size, 1, "position out of bounds");
	lua_geti(S, 1, pos);
	unsigned left = ls_begin(S);
	for (; pos < size; pos++) {
		ls_tick(S, &left);
		lua_geti(S, 1, pos + 1);
		lua_seti(S, 1, pos);
	}
	lua_pushnil(S);
	lua_seti(S, 1, pos);
	return 1;
}

static void ls_concat_field(lua_State *S, luaL_Buffer *b, lua_Integer i)
{
	lua_geti(S, 1, i);
	if (!lua_isstring(S, -1))
		luaL_error(S, "invalid value (%s) at index %I in table for 'concat'", luaL_typename(S, -1),
		           (LUAI_UACINT)i);
	luaL_addvalue(b);
}

/* table.concat(list [, sep [, i [, j]]]) */
static int ls_concat(lua_State *S)
{
	lua_Integer last = ls_len(S, 1, LS_R);
	size_t lsep;
	const char *sep = luaL_optlstring(S, 2, "", &lsep);
	lua_Integer i = luaL_optinteger(S, 3, 1);
	last = luaL_optinteger(S, 4, last);
	luaL_Buffer b;
	luaL_buffinit(S, &b);
	unsigned left = ls_begin(S);
	for (; i < last; i++) {
		ls_tick(S, &left);
		ls_concat_field(S, &b, i);
		luaL_addlstring(&b, sep, lsep);
	}
	if (i == last)
		ls_concat_field(S, &b, i);
	luaL_pushresult(&b);
	return 1;
}

/* The default order of table.sort, as a function: a call, at which the
 * hook checks the budget. */
static int ls_less(lua_State *S)
{
	lua_pushboolean(S, lua_compare(S, 1, 2, LUA_OPLT));
	return 1;
}

/* table.sort(list [, comp]): Lua's sort (upvalue 1) with a comparator. */
static int ls_sort(lua_State *S)
{
	/* Lua's checks, here, so that their errors name table.sort. */
	lua_Integer n = ls_len(S, 1, LS_R | LS_W);
	if (n <= 1)
		return 0;
	luaL_argcheck(S, n < INT_MAX, 1, "array too big");
	if (lua_isnoneornil(S, 2)) {
		lua_settop(S, 1);
		lua_pushcfunction(S, ls_less);
	} else {
		luaL_checktype(S, 2, LUA_TFUNCTION);
		lua_settop(S, 2);
	}
	lua_pushvalue(S, lua_upvalueindex(1));
	lua_insert(S, 1);
	lua_call(S, 2, 0);
	return 0;
}

/* string.rep(s, n [, sep]): s, then n - 1 times sep .. s, written as one
 * unit and then by doubling what is written, a chunk at a time. */
static int ls_rep(lua_State *S)
{
	size_t l, lsep;
	const char *s = luaL_checklstring(S, 1, &l);
	lua_Integer n = luaL_checkinteger(S, 2);
	const char *sep = luaL_optlstring(S, 3, "", &lsep);
	if (n <= 0 || (l == 0 && lsep == 0)) {
		lua_pushliteral(S, "");
		return 1;
	}
	if (l + lsep < l || l + lsep > (size_t)INT_MAX / (lua_Unsigned)n)
		return luaL_error(S, "resulting string too large");
	size_t total = (size_t)n * l + (size_t)(n - 1) * lsep;
	luaL_Buffer b;
	char *p = luaL_buffinitsize(S, &b, total);
	memcpy(p, s, l);
	if (n > 1) {
		char *unit = p + l; /* sep .. s, n - 1 times */
		size_t u = lsep + l, done = u, all = total - l;
		memcpy(unit, sep, lsep);
		memcpy(unit + lsep, s, l);
		size_t step_max = LS_CHUNK > u ? LS_CHUNK - LS_CHUNK % u : u;
		ls_begin(S);
		while (done < all) {
			size_t k = done < step_max ? done : step_max; /* whole units */
			if (k > all - done)
				k = all - done;
			memcpy(unit + done, unit, k);
			done += k;
			lb_budget_check(S);
		}
	}
	luaL_pushresultsize(&b, total);
	return 1;
}

/* setmetatable(t, mt): Lua's, refusing finalizers (lb_safelib.h says why). */
static int ls_setmetatable(lua_State *S)
{
	int t = lua_type(S, 2);
	luaL_checktype(S, 1, LUA_TTABLE);
	luaL_argexpected(S, t == LUA_TNIL || t == LUA_TTABLE, 2, "nil or table");
	if (t == LUA_TTABLE) {
		lua_pushliteral(S, "__gc");
		bool gc = lua_rawget(S, 2) != LUA_TNIL;
		lua_pop(S, 1);
		if (gc)
			return luaL_error(S, "setmetatable: a metatable with __gc is not allowed: finalizers "
			                     "run outside the Lua time budget (and at exit), where an error "
			                     "or endless loop cannot be stopped; release resources "
			                     "explicitly or with a <close> variable");
	}
	if (luaL_getmetafield(S, 1, "__metatable") != LUA_TNIL)
		return luaL_error(S, "cannot change a protected metatable");
	lua_settop(S, 2);
	lua_setmetatable(S, 1);
	return 1;
}

struct ls_source {
	const char *at;
	size_t left;
};

/* lua_load's reader: the text a piece at a time, the budget checked
 * before each (lua_load compiles in protected mode: an error raised here
 * becomes its result). */
static const char *ls_read(lua_State *S, void *ud, size_t *size)
{
	struct ls_source *src = ud;
	if (!src->left) {
		*size = 0;
		return NULL;
	}
	lb_budget_check(S);
	*size = src->left < LS_PIECE ? src->left : LS_PIECE;
	const char *piece = src->at;
	src->at += *size;
	src->left -= *size;
	return piece;
}

int lb_safelib_load(lua_State *S, const char *text, size_t len, const char *name, const char *mode)
{
	struct ls_source src = {text, len};
	return lua_load(S, ls_read, &src, name, mode);
}

void lb_safelib_open(lua_State *S)
{
	lua_getglobal(S, "table");
	static const luaL_Reg tab[] = {{"move", ls_move},
	                               {"insert", ls_insert},
	                               {"remove", ls_remove},
	                               {"concat", ls_concat},
	                               {NULL, NULL}};
	luaL_setfuncs(S, tab, 0);
	lua_getfield(S, -1, "sort");
	lua_pushcclosure(S, ls_sort, 1);
	lua_setfield(S, -2, "sort");
	lua_pop(S, 1);

	lua_getglobal(S, "string");
	lua_pushcfunction(S, ls_rep);
	lua_setfield(S, -2, "rep");
	lua_pop(S, 1);

	lua_register(S, "setmetatable", ls_setmetatable);
}
