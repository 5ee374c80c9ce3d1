/* lb_api: the objects hooks see (see lb_api.h). */
#include "lb_api.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "clock.h"
#include "lb_conv.h"
#include "results_write.h"
#include "spawn.h"

extern char **environ;

#define LB_RESULT_MT "benchgrid.result"

/* --- result objects --- */

struct lb_result_ud {
	struct step_result *r;
	unsigned gen;
};

static struct step_result *lb_check_result(lua_State *S, int idx)
{
	struct lb_result_ud *u = luaL_checkudata(S, idx, LB_RESULT_MT);
	if (!u->r || u->gen != lb_of(S)->gen)
		luaL_error(S, "this result object is no longer valid (it was kept after its hook returned)");
	return u->r;
}

void lb_push_result(struct lb *B, struct step_result *res)
{
	struct lb_result_ud *u = lua_newuserdatauv(B->S, sizeof(*u), 0);
	u->r = res;
	u->gen = B->gen;
	luaL_setmetatable(B->S, LB_RESULT_MT);
}

static int lb_result_metric(lua_State *S)
{
	struct step_result *r = lb_check_result(S, 1);
	const char *name = luaL_checkstring(S, 2);
	lua_Number v = luaL_checknumber(S, 3);
	const char *unit = luaL_optstring(S, 4, "");
	if (!*name)
		return luaL_error(S, "result:metric: the name is empty");
	result_metric(r, name, v, unit);
	return 0;
}

static int lb_result_sample(lua_State *S)
{
	struct step_result *r = lb_check_result(S, 1);
	const char *name = luaL_checkstring(S, 2);
	const char *unit = luaL_optstring(S, 3, "");
	result_sample(r, name, unit, luaL_checknumber(S, 4), luaL_checknumber(S, 5));
	return 0;
}

static int lb_result_info(lua_State *S)
{
	struct step_result *r = lb_check_result(S, 1);
	const char *k = luaL_checkstring(S, 2);
	result_info(r, k, "%s", luaL_tolstring(S, 3, NULL));
	return 0;
}

static int lb_result_fail(lua_State *S)
{
	struct step_result *r = lb_check_result(S, 1);
	result_fail(r, "%s", luaL_checkstring(S, 2));
	return 0;
}

static int lb_result_get(lua_State *S)
{
	struct step_result *r = lb_check_result(S, 1);
	const struct metric *m = result_get(r, luaL_checkstring(S, 2));
	if (!m)
		return 0;
	lua_pushnumber(S, m->value);
	lua_pushstring(S, m->unit ? m->unit : "");
	return 2;
}

/* result:metrics() -> {name = {value = v, unit = u}, ...} */
static int lb_result_metrics(lua_State *S)
{
	struct step_result *r = lb_check_result(S, 1);
	lua_createtable(S, 0, (int)r->nm);
	for (size_t i = 0; i < r->nm; i++) {
		lua_createtable(S, 0, 2);
		lua_pushnumber(S, r->m[i].value);
		lua_setfield(S, -2, "value");
		lua_pushstring(S, r->m[i].unit ? r->m[i].unit : "");
		lua_setfield(S, -2, "unit");
		lua_setfield(S, -2, r->m[i].name);
	}
	return 1;
}

static const luaL_Reg lb_result_methods[] = {{"metric", lb_result_metric},
                                             {"sample", lb_result_sample},
                                             {"info", lb_result_info},
                                             {"fail", lb_result_fail},
                                             {"get", lb_result_get},
                                             {"metrics", lb_result_metrics},
                                             {NULL, NULL}};

static int lb_result_index(lua_State *S)
{
	struct step_result *r = lb_check_result(S, 1);
	const char *k = luaL_checkstring(S, 2);
	for (const luaL_Reg *m = lb_result_methods; m->name; m++) {
		if (!strcmp(k, m->name)) {
			lua_pushcfunction(S, m->func);
			return 1;
		}
	}
	if (!strcmp(k, "step"))
		lua_pushstring(S, r->step);
	else if (!strcmp(k, "workload"))
		lua_pushstring(S, r->workload);
	else if (!strcmp(k, "ok"))
		lua_pushboolean(S, !r->failed);
	else if (!strcmp(k, "error"))
		lua_pushstring(S, r->error);
	else if (!strcmp(k, "elapsed"))
		lua_pushnumber(S, r->elapsed);
	else {
		const struct metric *m = result_get(r, k);
		if (m)
			lua_pushnumber(S, m->value);
		else
			lua_pushnil(S);
	}
	return 1;
}

static int lb_result_newindex(lua_State *S)
{
	return luaL_error(
	    S, "result.%s: results are read-only; add a metric with result:metric(name, value, unit)",
	    lua_tostring(S, 2) ? lua_tostring(S, 2) : "?");
}

static int lb_result_tostring(lua_State *S)
{
	struct lb_result_ud *u = luaL_checkudata(S, 1, LB_RESULT_MT);
	lua_pushfstring(S, "result(%s)", u->r && u->gen == lb_of(S)->gen ? u->r->step : "stale");
	return 1;
}

/* --- cell objects --- */

static int lb_cell_skip(lua_State *S)
{
	struct lb *B = lb_of(S);
	luaL_checktype(S, 1, LUA_TTABLE);
	const char *why = luaL_optstring(S, 2, "skipped by before_cell");
	if (!B->in_before_cell)
		return luaL_error(S, "cell:skip() works only in before_cell");
	B->skip = true;
	free(B->skip_reason);
	B->skip_reason = strdup(why);
	return 0;
}

/* cell.NAME: a parameter, or an error naming the parameters. */
static int lb_cell_index(lua_State *S)
{
	const char *k = lua_tostring(S, 2);
	lua_getfield(S, 1, "params");
	if (lua_istable(S, -1)) {
		lua_pushvalue(S, 2);
		if (lua_rawget(S, -2) != LUA_TNIL)
			return 1;
	}
	return luaL_error(S, "cell has no field or parameter '%s'", k ? k : "?");
}

void lb_push_cell(struct lb *B, const struct cell *c)
{
	lua_State *S = B->S;
	if (!c) {
		lua_pushnil(S);
		return;
	}
	lua_createtable(S, 0, 4);
	lua_pushinteger(S, (lua_Integer)c->index);
	lua_setfield(S, -2, "index");
	lua_pushstring(S, c->id);
	lua_setfield(S, -2, "id");
	lb_push_params(S, c->params);
	lua_setfield(S, -2, "params");
	lua_pushcfunction(S, lb_cell_skip);
	lua_setfield(S, -2, "skip");
	lua_getfield(S, LUA_REGISTRYINDEX, "lb.cell_mt");
	lua_setmetatable(S, -2);
}

/* --- run (finish) --- */

static int lb_run_write(lua_State *S)
{
	luaL_checktype(S, 1, LUA_TTABLE);
	const char *name = luaL_checkstring(S, 2);
	size_t len;
	const char *text = luaL_checklstring(S, 3, &len);
	lb_need_effects(S, "run:write");
	if (!*name || strchr(name, '/') || strstr(name, "..") || strchr(name, '\\'))
		return luaL_error(S, "run:write: '%s' must be a plain name inside the output folder", name);
	lua_getfield(S, 1, "outdir");
	const char *dir = lua_tostring(S, -1);
	if (!dir)
		return luaL_error(S, "run:write: no output folder");
	char path[4096];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	/* The output folder's rules (run/outdir.h): through the folder's fd,
	 * a fresh O_EXCL|O_NOFOLLOW file renamed over name, so a link planted
	 * at name is replaced, never followed. */
	int dirfd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (dirfd < 0)
		return luaL_error(S, "run:write: cannot open the output folder %s: %s", dir, strerror(errno));
	int rc = results_file_write(dirfd, name, text, len);
	close(dirfd);
	if (rc < 0)
		return luaL_error(S, "run:write: cannot write %s: %s", path, strerror(-rc));
	lua_pushstring(S, path);
	return 1;
}

void lb_push_run(struct lb *B, const char *outdir)
{
	lua_State *S = B->S;
	lua_createtable(S, 0, 3);
	lua_pushstring(S, outdir);
	lua_setfield(S, -2, "outdir");
	lua_pushstring(S, B->name);
	lua_setfield(S, -2, "scenario");
	lua_pushstring(S, B->file);
	lua_setfield(S, -2, "file");
	lua_pushcfunction(S, lb_run_write);
	lua_setfield(S, -2, "write");
}

/* --- bench --- */

static int lb_bench_log(lua_State *S)
{
	struct lb *B = lb_of(S);
	const char *lv = luaL_checkstring(S, 1);
	static const char *const levels[] = {"debug", "info", "warn", "error", NULL};
	int ok = 0;
	for (int i = 0; levels[i]; i++)
		ok |= !strcmp(lv, levels[i]);
	if (!ok)
		return luaL_error(S, "bench.log: level must be debug, info, warn or error, not '%s'", lv);
	int n = lua_gettop(S);
	lua_pushliteral(S, "");
	for (int i = 2; i <= n; i++) {
		if (i > 2)
			lua_pushliteral(S, " ");
		luaL_tolstring(S, i, NULL);
		lua_concat(S, i > 2 ? 3 : 2);
	}
	const char *msg = lua_tostring(S, -1);
	if (B->log)
		B->log(B->log_ud, lv, msg);
	else
		fprintf(stderr, "lua: %s: %s\n", lv, msg);
	return 0;
}

/* bench.sh(cmd) -> status, stdout, stderr. Runs /bin/sh -c cmd within the
 * rest of the call's budget; the process group is killed when it runs out or
 * when the stop flag is set. */
static int lb_bench_sh(lua_State *S)
{
	struct lb *B = lb_of(S);
	const char *cmd = luaL_checkstring(S, 1);
	lb_need_effects(S, "bench.sh");
	lb_budget_check(S); /* nothing starts once the budget is spent */
	const char *argv[] = {"/bin/sh", "-c", cmd, NULL};
	double left = B->running ? B->deadline - clock_mono() : B->budget;
	if (left <= 0)
		left = 0.001;
	struct spawn_run p = {.c = {.argv = argv, .out_fd = -1, .err_fd = -1},
	                      .timeout = left,
	                      .stop = B->stop,
	                      .max_capture = 16 << 20};
	int rc = spawn_run(&p);
	if (rc < 0) {
		spawn_run_free(&p);
		return luaL_error(S, "bench.sh: cannot run '%s': %s", cmd, strerror(-rc));
	}
	if (p.stopped || p.timed_out) {
		spawn_run_free(&p);
		/* Stop at once, so that a loop around pcall(bench.sh, ...) does
		 * not start the command again. */
		B->stopped |= p.stopped;
		B->expired |= !p.stopped;
		lb_budget_check(S);
		return luaL_error(S, "bench.sh: '%s' was killed", cmd);
	}
	lua_pushinteger(S, p.status);
	lua_pushlstring(S, p.out ? p.out : "", p.nout);
	lua_pushlstring(S, p.err ? p.err : "", p.nerr);
	spawn_run_free(&p);
	return 3;
}

void lb_api_open(struct lb *B)
{
	lua_State *S = B->S;
	luaL_newmetatable(S, LB_RESULT_MT);
	lua_pushcfunction(S, lb_result_index);
	lua_setfield(S, -2, "__index");
	lua_pushcfunction(S, lb_result_newindex);
	lua_setfield(S, -2, "__newindex");
	lua_pushcfunction(S, lb_result_tostring);
	lua_setfield(S, -2, "__tostring");
	lua_pushliteral(S, "result");
	lua_setfield(S, -2, "__metatable");
	lua_pop(S, 1);

	lua_newtable(S);
	lua_pushcfunction(S, lb_cell_index);
	lua_setfield(S, -2, "__index");
	/* Out of Lua's reach: a __gc added to it would make every later cell
	 * an object with a finalizer (lb_safelib.h). */
	lua_pushliteral(S, "cell");
	lua_setfield(S, -2, "__metatable");
	lua_setfield(S, LUA_REGISTRYINDEX, "lb.cell_mt");

	lua_newtable(S);
	lua_pushcfunction(S, lb_bench_log);
	lua_setfield(S, -2, "log");
	lua_pushcfunction(S, lb_bench_sh);
	lua_setfield(S, -2, "sh");
	lua_newtable(S);
	for (char **e = environ; e && *e; e++) {
		const char *eq = strchr(*e, '=');
		if (!eq)
			continue;
		lua_pushlstring(S, *e, (size_t)(eq - *e));
		lua_pushstring(S, eq + 1);
		lua_rawset(S, -3);
	}
	lua_setfield(S, -2, "env");
	lua_pushliteral(S, BENCHGRID_VERSION);
	lua_setfield(S, -2, "version");
	lua_setglobal(S, "bench");
}
