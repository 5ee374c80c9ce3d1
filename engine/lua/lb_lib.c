/* lb_lib: the C modules of the shipped Lua library (see lb_lib.h). */
#include "lb_lib.h"

#include <jansson.h>
#include <lauxlib.h>
#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "stats.h"
#include "units.h"

/* ---- json ---- */

static void push_json(lua_State *S, const json_t *v, int null_idx)
{
	const char *key;
	json_t *item;
	size_t i;
	luaL_checkstack(S, 3, "json: nested too deeply");
	switch (json_typeof(v)) {
	case JSON_OBJECT:
		lua_createtable(S, 0, (int)json_object_size(v));
		json_object_foreach((json_t *)v, key, item)
		{
			push_json(S, item, null_idx);
			lua_setfield(S, -2, key);
		}
		break;
	case JSON_ARRAY:
		lua_createtable(S, (int)json_array_size(v), 0);
		json_array_foreach(v, i, item)
		{
			push_json(S, item, null_idx);
			lua_rawseti(S, -2, (lua_Integer)i + 1);
		}
		break;
	case JSON_STRING: lua_pushlstring(S, json_string_value(v), json_string_length(v)); break;
	case JSON_INTEGER: lua_pushinteger(S, (lua_Integer)json_integer_value(v)); break;
	case JSON_REAL: lua_pushnumber(S, json_real_value(v)); break;
	case JSON_TRUE: lua_pushboolean(S, 1); break;
	case JSON_FALSE: lua_pushboolean(S, 0); break;
	default: lua_pushvalue(S, null_idx); break;
	}
}

/* json.decode(text [, start]) -> value, next_position. The error names the
 * line and column in text (not from start). */
static int lib_json_decode(lua_State *S)
{
	size_t len;
	const char *s = luaL_checklstring(S, 1, &len);
	lua_Integer start = luaL_optinteger(S, 2, 1);
	luaL_argcheck(S, start >= 1 && (size_t)start <= len + 1, 2, "start is out of range");
	size_t off = (size_t)start - 1;
	size_t flags = JSON_DECODE_ANY | JSON_DISABLE_EOF_CHECK | JSON_ALLOW_NUL;
	json_error_t err;
	json_t *v = json_loadb(s + off, len - off, flags, &err);
	if (!v && json_error_code(&err) == json_error_numeric_overflow) /* an integer past 64 bits */
		v = json_loadb(s + off, len - off, flags | JSON_DECODE_INT_AS_REAL, &err);
	if (!v) {
		int line = 1, col = 1;
		for (size_t i = 0; i < off; i++, col++)
			if (s[i] == '\n')
				line++, col = 0;
		int eline = err.line > 0 ? err.line : 1, ecol = err.column > 0 ? err.column : 1;
		return luaL_error(S, "json: line %d, col %d: %s", line + eline - 1,
		                  eline == 1 ? col - 1 + ecol : ecol, err.text);
	}
	push_json(S, v, lua_upvalueindex(1));
	json_decref(v);
	lua_pushinteger(S, start + err.position);
	return 2;
}

static int lib_json_null_tostring(lua_State *S)
{
	lua_pushliteral(S, "null");
	return 1;
}

static int open_json(lua_State *S)
{
	lua_createtable(S, 0, 2);
	lua_newtable(S); /* json.null: a sentinel, so that arrays keep their length */
	lua_createtable(S, 0, 1);
	lua_pushcfunction(S, lib_json_null_tostring);
	lua_setfield(S, -2, "__tostring");
	lua_setmetatable(S, -2);
	lua_pushvalue(S, -1);
	lua_setfield(S, -3, "null");
	lua_pushcclosure(S, lib_json_decode, 1);
	lua_setfield(S, -2, "decode");
	return 1;
}

/* ---- units ---- */

static int fail(lua_State *S, const char *msg)
{
	lua_pushnil(S);
	lua_pushstring(S, msg);
	return 2;
}

static void push_whole(lua_State *S, double x)
{
	lua_Integer i;
	if (lua_numbertointeger(x, &i))
		lua_pushinteger(S, i);
	else
		lua_pushnumber(S, x);
}

static int lib_units_size(lua_State *S)
{
	char err[256];
	uint64_t v;
	if (lua_type(S, 1) == LUA_TNUMBER) {
		double x = lua_tonumber(S, 1);
		if (!(x >= 0) || x != floor(x))
			return fail(
			    S, lua_pushfstring(S, "'%s' is not a whole number of bytes", lua_tostring(S, 1)));
		push_whole(S, x);
		return 1;
	}
	if (lua_type(S, 1) != LUA_TSTRING)
		return fail(S, lua_pushfstring(S, "'%s' is not a size", luaL_tolstring(S, 1, NULL)));
	if (units_parse_size(lua_tostring(S, 1), &v, err, sizeof(err)) < 0)
		return fail(S, err);
	if (v <= (uint64_t)LUA_MAXINTEGER)
		lua_pushinteger(S, (lua_Integer)v);
	else
		lua_pushnumber(S, (lua_Number)v);
	return 1;
}

static int lib_units_duration(lua_State *S)
{
	char err[256];
	double v;
	if (lua_type(S, 1) == LUA_TNUMBER) {
		lua_pushnumber(S, lua_tonumber(S, 1));
		return 1;
	}
	if (lua_type(S, 1) != LUA_TSTRING)
		return fail(S, lua_pushfstring(S, "'%s' is not a duration", luaL_tolstring(S, 1, NULL)));
	if (units_parse_duration(lua_tostring(S, 1), &v, err, sizeof(err)) < 0)
		return fail(S, err);
	lua_pushnumber(S, v);
	return 1;
}

static int lib_units_format_size(lua_State *S)
{
	char buf[64];
	double x = luaL_checknumber(S, 1);
	luaL_argcheck(S, x >= 0, 1, "a size is not negative");
	units_format_size(x < 18446744073709551615.0 ? (uint64_t)llround(x) : UINT64_MAX, buf, sizeof(buf));
	lua_pushstring(S, buf);
	return 1;
}

static int lib_units_format_duration(lua_State *S)
{
	char buf[64];
	units_format_duration(luaL_checknumber(S, 1), buf, sizeof(buf));
	lua_pushstring(S, buf);
	return 1;
}

static int open_units(lua_State *S)
{
	static const luaL_Reg fns[] = {{"parse_size", lib_units_size},
	                               {"parse_duration", lib_units_duration},
	                               {"format_size", lib_units_format_size},
	                               {"format_duration", lib_units_format_duration},
	                               {NULL, NULL}};
	luaL_newlib(S, fns);
	return 1;
}

/* ---- stats ---- */

/* The list of numbers at index 1 as a C array (owned by the Lua stack);
 * errors name the function fn and the item. *ints: all are integers. */
static double *numbers(lua_State *S, const char *fn, size_t *n, bool *ints)
{
	if (!lua_istable(S, 1))
		luaL_error(S, "stats.%s: expected a list of numbers, got %s", fn, luaL_typename(S, 1));
	*n = (size_t)luaL_len(S, 1);
	*ints = true;
	double *v = lua_newuserdatauv(S, (*n ? *n : 1) * sizeof(*v), 0);
	for (size_t i = 0; i < *n; i++) {
		if (lua_rawgeti(S, 1, (lua_Integer)i + 1) != LUA_TNUMBER)
			luaL_error(S, "stats.%s: item %d is a %s, not a number", fn, (int)i + 1,
			           luaL_typename(S, -1));
		*ints = *ints && lua_isinteger(S, -1);
		v[i] = lua_tonumber(S, -1);
		lua_pop(S, 1);
	}
	return v;
}

static int lib_stats_sum(lua_State *S)
{
	size_t n;
	bool ints;
	double *v = numbers(S, "sum", &n, &ints), t = 0;
	if (ints) { /* integers add up as integers, as Lua's + does */
		lua_Integer k = 0;
		for (size_t i = 0; i < n; i++)
			k += (lua_Integer)v[i];
		lua_pushinteger(S, k);
		return 1;
	}
	for (size_t i = 0; i < n; i++)
		t += v[i];
	lua_pushnumber(S, t);
	return 1;
}

enum figure { MEAN, MEDIAN, STDDEV, MIN, MAX };

/* One figure of stats_compute(); nil for an empty list. The minimum and
 * maximum of integers are integers. */
static int summary(lua_State *S, const char *fn, enum figure fig)
{
	size_t n;
	bool ints;
	double *v = numbers(S, fn, &n, &ints);
	struct stats st;
	if (n == 0) {
		lua_pushnil(S);
		return 1;
	}
	stats_compute(v, n, &st);
	switch (fig) {
	case MEAN: lua_pushnumber(S, st.mean); break;
	case MEDIAN: lua_pushnumber(S, st.median); break;
	case STDDEV: lua_pushnumber(S, st.stddev); break;
	case MIN: ints ? lua_pushinteger(S, (lua_Integer)st.min) : lua_pushnumber(S, st.min); break;
	case MAX: ints ? lua_pushinteger(S, (lua_Integer)st.max) : lua_pushnumber(S, st.max); break;
	}
	return 1;
}

static int lib_stats_mean(lua_State *S)
{
	return summary(S, "mean", MEAN);
}
static int lib_stats_median(lua_State *S)
{
	return summary(S, "median", MEDIAN);
}
static int lib_stats_stddev(lua_State *S)
{
	return summary(S, "stddev", STDDEV);
}
static int lib_stats_min(lua_State *S)
{
	return summary(S, "min", MIN);
}
static int lib_stats_max(lua_State *S)
{
	return summary(S, "max", MAX);
}

static int lib_stats_percentile(lua_State *S)
{
	size_t n;
	bool ints;
	double *v = numbers(S, "percentile", &n, &ints);
	double p = lua_type(S, 2) == LUA_TNUMBER ? lua_tonumber(S, 2) : -1;
	if (!(p >= 0 && p <= 100))
		return luaL_error(S, "stats.percentile: p must be a number from 0 to 100");
	if (n == 0)
		lua_pushnil(S);
	else
		lua_pushnumber(S, stats_quantile(v, n, p / 100));
	return 1;
}

static int open_stats(lua_State *S)
{
	static const luaL_Reg fns[] = {{"sum", lib_stats_sum},
	                               {"mean", lib_stats_mean},
	                               {"median", lib_stats_median},
	                               {"stddev", lib_stats_stddev},
	                               {"min", lib_stats_min},
	                               {"max", lib_stats_max},
	                               {"percentile", lib_stats_percentile},
	                               {NULL, NULL}};
	luaL_newlib(S, fns);
	return 1;
}

lua_CFunction lb_lib_find(const char *name)
{
	static const struct {
		const char *name;
		lua_CFunction open;
	} mods[] = {{"json", open_json}, {"core.units", open_units}, {"core.stats", open_stats}};
	for (size_t i = 0; i < sizeof(mods) / sizeof(mods[0]); i++)
		if (!strcmp(mods[i].name, name))
			return mods[i].open;
	return NULL;
}
