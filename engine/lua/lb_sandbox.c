/* lb_sandbox: the globals a scenario's Lua code sees, and require (see
 * lb_sandbox.h). */
#include "lb_sandbox.h"

#include <errno.h>
#include <lualib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lb_api.h"
#include "lb_embed.h"
#include "lb_lib.h"
#include "lb_pattern.h"
#include "lb_safelib.h"
#include "safe_file.h"

/* __index of the global table: reading an undefined global is an error. */
static int lb_strict_index(lua_State *S)
{
	const char *k = lua_tostring(S, 2);
	return luaL_error(S, "undefined global '%s'", k ? k : luaL_typename(S, 2));
}

/* load(chunk [, name [, mode [, env]]]): text only, strings only; the
 * default environment is the sandbox's global table. */
static int lb_load(lua_State *S)
{
	size_t len;
	const char *s = lua_tolstring(S, 1, &len);
	if (!s || lua_type(S, 1) != LUA_TSTRING)
		return luaL_error(S, "load: only strings can be loaded here");
	const char *name = luaL_optstring(S, 2, "=(load)");
	const char *mode = luaL_optstring(S, 3, "t");
	if (strchr(mode, 'b') && !strchr(mode, 't'))
		return luaL_error(S, "load: binary chunks are not allowed");
	int has_env = !lua_isnone(S, 4);
	if (lb_safelib_load(S, s, len, name, "t") != LUA_OK) {
		lua_pushnil(S);
		lua_insert(S, -2);
		return 2;
	}
	if (has_env) {
		lua_pushvalue(S, 4);
		if (!lua_setupvalue(S, -2, 1))
			lua_pop(S, 1);
	}
	return 1;
}

/* print(...): to the log at level info. */
static int lb_print(lua_State *S)
{
	struct lb *B = lb_of(S);
	int n = lua_gettop(S);
	lua_pushliteral(S, "");
	for (int i = 1; i <= n; i++) {
		if (i > 1)
			lua_pushliteral(S, "\t");
		luaL_tolstring(S, i, NULL);
		lua_concat(S, i > 1 ? 3 : 2);
	}
	const char *msg = lua_tostring(S, -1);
	if (B->log)
		B->log(B->log_ud, "info", msg);
	else
		fprintf(stderr, "lua: info: %s\n", msg);
	return 0;
}

static const struct lb_module *lb_find_module(const char *name)
{
	for (size_t i = 0; i < lb_nmodules; i++)
		if (!strcmp(lb_modules[i].name, name))
			return &lb_modules[i];
	return NULL;
}

static bool lb_valid_modname(const char *name)
{
	if (!*name || *name == '.')
		return false;
	for (const char *p = name; *p; p++) {
		bool ok = (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
		          *p == '_' || *p == '-' || (*p == '.' && p[1] != '.' && p[1]);
		if (!ok)
			return false;
	}
	return true;
}

char *lb_read_file(const char *path, size_t *len, char *err, size_t errlen)
{
	/* safe_file's rules: a module or hooks_file named by a scenario is a
	 * regular file, not a link, at most SAFE_FILE_TEXT_MAX, readable by
	 * everyone (a private file is not read, so no syntax error quotes it) */
	return safe_file_read(path, 0, SAFE_FILE_TEXT_MAX, len, err, errlen);
}

int lb_require(lua_State *S)
{
	struct lb *B = lb_of(S);
	const char *name = luaL_checkstring(S, 1);
	lua_getfield(S, LUA_REGISTRYINDEX, "lb.loaded");
	if (lua_getfield(S, -1, name) != LUA_TNIL)
		return 1;
	lua_pop(S, 1);
	lua_CFunction open = lb_lib_find(name);
	const struct lb_module *m = open ? NULL : lb_find_module(name);
	char chunk[512];
	if (open) {
		lua_pushcfunction(S, open);
	} else if (m) {
		snprintf(chunk, sizeof(chunk), "=lua/%s.lua", name);
		if (luaL_loadbufferx(S, m->src, m->len, chunk, "t") != LUA_OK)
			return lua_error(S);
	} else {
		if (!lb_valid_modname(name))
			return luaL_error(S, "require: bad module name '%s'", name);
		char rel[256];
		snprintf(rel, sizeof(rel), "%s", name);
		for (char *p = rel; *p; p++)
			if (*p == '.')
				*p = '/';
		snprintf(chunk, sizeof(chunk), "%s/%s.lua", B->dir, rel);
		size_t len;
		char err[1024];
		char *src = lb_read_file(chunk, &len, err, sizeof(err));
		if (!src && errno == ENOENT)
			return luaL_error(S,
			                  "module '%s' not found (looked in the shipped library and for %s)",
			                  name, chunk);
		if (!src)
			return luaL_error(S, "require '%s': %s", name, err);
		char cname[520];
		snprintf(cname, sizeof(cname), "@%s", chunk);
		int rc = lb_safelib_load(S, src, len, cname, "t"); /* compiling obeys the budget */
		free(src);
		if (rc != LUA_OK)
			return lua_error(S);
	}
	lua_pushstring(S, name);
	lua_call(S, 1, 1);
	if (lua_isnil(S, -1)) {
		lua_pop(S, 1);
		lua_pushboolean(S, 1);
	}
	lua_pushvalue(S, -1);
	lua_setfield(S, -3, name);
	return 1;
}

void lb_sandbox_open(struct lb *B)
{
	lua_State *S = B->S;
	static const luaL_Reg libs[] = {{LUA_GNAME, luaopen_base},
	                                {LUA_STRLIBNAME, luaopen_string},
	                                {LUA_TABLIBNAME, luaopen_table},
	                                {LUA_MATHLIBNAME, luaopen_math},
	                                {LUA_UTF8LIBNAME, luaopen_utf8},
	                                {LUA_COLIBNAME, luaopen_coroutine},
	                                {NULL, NULL}};
	for (const luaL_Reg *l = libs; l->name; l++) {
		luaL_requiref(S, l->name, l->func, 1);
		lua_pop(S, 1);
	}
	/* os: only the clock functions, taken from a private copy. */
	luaL_requiref(S, LUA_OSLIBNAME, luaopen_os, 0);
	lua_newtable(S);
	static const char *const os_keep[] = {"time", "clock", "date", "difftime", NULL};
	for (int i = 0; os_keep[i]; i++) {
		lua_getfield(S, -2, os_keep[i]);
		lua_setfield(S, -2, os_keep[i]);
	}
	lua_setglobal(S, "os");
	lua_pop(S, 1);

	static const char *const drop[] = {"dofile", "loadfile", NULL};
	for (int i = 0; drop[i]; i++) {
		lua_pushnil(S);
		lua_setglobal(S, drop[i]);
	}
	lua_getglobal(S, "string");
	lua_pushnil(S);
	lua_setfield(S, -2, "dump");
	lua_pop(S, 1);
	lb_pattern_open(S); /* find, match, gmatch, gsub that obey the budget */
	lb_safelib_open(S); /* table.move & co. under the budget; no __gc */
	lua_register(S, "load", lb_load);
	lua_register(S, "print", lb_print);
	lua_register(S, "require", lb_require);
	lua_newtable(S);
	lua_setfield(S, LUA_REGISTRYINDEX, "lb.loaded");

	lb_api_open(B);

	/* The library as globals too: stats, units, json. */
	static const char *const pre[] = {"stats", "units", "json", NULL};
	for (int i = 0; pre[i]; i++) {
		lua_pushcfunction(S, lb_require);
		lua_pushstring(S, pre[i]);
		if (lua_pcall(S, 1, 1, 0) == LUA_OK)
			lua_setglobal(S, pre[i]);
		else
			lua_pop(S, 1); /* reported when someone requires it */
	}

	lua_pushglobaltable(S);
	lua_newtable(S);
	lua_pushcfunction(S, lb_strict_index);
	lua_setfield(S, -2, "__index");
	lua_setmetatable(S, -2);
	lua_pop(S, 1);
}
