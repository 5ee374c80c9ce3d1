/* lb_api: what hooks see of benchgrid, and the hook calls (see lb.h).
 *
 * cell:   a table {index, id, params} with method skip(reason); cell.NAME is
 *         a shortcut for cell.params.NAME (an unknown name is an error).
 * result: a userdata over a struct step_result: result.NAME reads a metric
 *         (nil when absent); fields step, workload, ok, error, elapsed;
 *         methods metric(name, value[, unit]), sample(name, unit, t, v),
 *         info(key, value), fail(msg), get(name), metrics().
 *         It is valid only during the call it was made for.
 * run:    {outdir, scenario} with method write(name, text) into outdir.
 * bench:  log(level, ...), sh(cmd) -> status, stdout, stderr; env.
 * Values of parameters and options are typed as lb_push_node describes. */
#include "lb_priv.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "units.h"
#include "spawn.h"

extern char **environ;

#define LB_RESULT_MT "benchgrid.result"

/* --- nodes <-> Lua values --- */

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

struct node *lb_to_node(lua_State *S, int idx, const struct src_pos *pos, const char *what, struct diag *d)
{
	idx = lua_absindex(S, idx);
	char buf[64];
	struct node *n;
	switch (lua_type(S, idx)) {
	case LUA_TNUMBER:
		if (!isfinite(lua_tonumber(S, idx))) {
			diag_error(d, pos, "%s: gave %s, which is not a usable number", what,
			           lua_tostring(S, idx));
			return NULL;
		}
		lb_fmt_number(S, idx, buf, sizeof(buf));
		return node_new_scalar(buf, pos);
	case LUA_TBOOLEAN: return node_new_scalar(lua_toboolean(S, idx) ? "true" : "false", pos);
	case LUA_TSTRING:
		n = node_new_scalar(lua_tostring(S, idx), pos);
		if (n)
			n->quoted = true;
		return n;
	case LUA_TTABLE: {
		/* A table with only 1..n keys is a sequence, otherwise a map. */
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
		if (len > 0 && (size_t)len == count) {
			n = node_new(NODE_SEQ, pos);
			for (lua_Integer i = 1; n && i <= len; i++) {
				lua_rawgeti(S, idx, i);
				struct node *it = lb_to_node(S, -1, pos, what, d);
				lua_pop(S, 1);
				if (!it) {
					node_free(n);
					return NULL;
				}
				node_seq_push(n, it);
			}
			return n;
		}
		if (!strkeys) {
			diag_error(d, pos, "%s: a table must be a list or have only string keys", what);
			return NULL;
		}
		n = node_new(NODE_MAP, pos);
		lua_pushnil(S);
		while (n && lua_next(S, idx)) {
			struct node *it = lb_to_node(S, -1, pos, what, d);
			if (!it) {
				lua_pop(S, 2);
				node_free(n);
				return NULL;
			}
			node_map_put(n, lua_tostring(S, -2), pos, it);
			lua_pop(S, 1);
		}
		return n;
	}
	default:
		diag_error(d, pos, "%s: gave %s; expected a number, a string or a boolean", what,
		           lua_isnoneornil(S, idx) ? "nil" : luaL_typename(S, idx));
		return NULL;
	}
}

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

static void lb_push_cell(struct lb *B, const struct cell *c)
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
	if (!*name || name[0] == '/' || strstr(name, "..") || strchr(name, '\\'))
		return luaL_error(S, "run:write: '%s' must be a plain name inside the output folder", name);
	lua_getfield(S, 1, "outdir");
	const char *dir = lua_tostring(S, -1);
	if (!dir)
		return luaL_error(S, "run:write: no output folder");
	char path[4096];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return luaL_error(S, "run:write: cannot create %s: %s", path, strerror(errno));
	size_t off = 0;
	while (off < len) {
		ssize_t w = write(fd, text + off, len - off);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			int e = errno;
			close(fd);
			return luaL_error(S, "run:write: %s: %s", path, strerror(e));
		}
		off += (size_t)w;
	}
	if (close(fd) < 0)
		return luaL_error(S, "run:write: %s: %s", path, strerror(errno));
	lua_pushstring(S, path);
	return 1;
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
 * rest of the call's budget; the process group is killed when it runs out. */
static int lb_bench_sh(lua_State *S)
{
	struct lb *B = lb_of(S);
	const char *cmd = luaL_checkstring(S, 1);
	const char *argv[] = {"/bin/sh", "-c", cmd, NULL};
	double left = B->running ? B->deadline - lb_now() : B->budget;
	if (left <= 0)
		left = 0.001;
	struct spawn_run p = {
	    .c = {.argv = argv, .out_fd = -1, .err_fd = -1}, .timeout = left, .max_capture = 16 << 20};
	int rc = spawn_run(&p);
	if (rc < 0) {
		spawn_run_free(&p);
		return luaL_error(S, "bench.sh: cannot run '%s': %s", cmd, strerror(-rc));
	}
	if (p.timed_out) {
		spawn_run_free(&p);
		B->expired = true; /* the count hook raises the stop from here on */
		return luaL_error(S, "bench.sh: '%s' was killed: the Lua time budget of %f s ran out", cmd,
		                  B->budget);
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

/* --- hook calls --- */

/* Push global function `name`; false (nothing pushed) when not defined.
 * *def receives where it was defined, for errors without a better place. */
static bool lb_hook_begin(struct lb *B, const char *name, struct src_pos *def)
{
	lua_State *S = B->S;
	lua_pushglobaltable(S);
	lua_pushstring(S, name);
	if (lua_rawget(S, -2) != LUA_TFUNCTION) {
		lua_pop(S, 2);
		return false;
	}
	lua_remove(S, -2);
	lua_Debug ar;
	lua_pushvalue(S, -1);
	*def = (struct src_pos){0};
	if (lua_getinfo(S, ">S", &ar) && ar.source[0] == '@' && ar.linedefined > 0)
		*def = (struct src_pos){diag_intern(ar.source + 1), ar.linedefined, 1};
	return true;
}

int lb_setup(struct lb *B, const char *scenario_name, struct diag *d)
{
	if (scenario_name) {
		char *n = strdup(scenario_name);
		if (n) {
			free(B->name);
			B->name = n;
		}
	}
	struct src_pos def;
	if (!lb_hook_begin(B, "setup", &def))
		return 0;
	lua_State *S = B->S;
	lua_createtable(S, 0, 3);
	lua_pushstring(S, B->name);
	lua_setfield(S, -2, "scenario");
	lua_pushstring(S, B->file);
	lua_setfield(S, -2, "file");
	lua_pushstring(S, B->dir);
	lua_setfield(S, -2, "dir");
	return lb_pcall(B, 1, 0, "setup", &def, d);
}

int lb_before_cell(struct lb *B, const struct cell *c, bool *skip, char **skip_reason, struct diag *d)
{
	*skip = false;
	if (skip_reason)
		*skip_reason = NULL;
	struct src_pos def;
	if (!lb_hook_begin(B, "before_cell", &def))
		return 0;
	lb_push_cell(B, c);
	B->in_before_cell = true;
	B->skip = false;
	int rc = lb_pcall(B, 1, 0, "before_cell", &def, d);
	B->in_before_cell = false;
	if (rc == 0 && B->skip) {
		*skip = true;
		if (skip_reason)
			*skip_reason = B->skip_reason;
		else
			free(B->skip_reason);
		B->skip_reason = NULL;
	}
	free(B->skip_reason);
	B->skip_reason = NULL;
	return rc;
}

static void lb_push_step(struct lb *B, const char *name, const struct node *opts)
{
	lua_State *S = B->S;
	lua_createtable(S, 0, 2);
	lua_pushstring(S, name);
	lua_setfield(S, -2, "name");
	lb_push_params(S, opts);
	lua_setfield(S, -2, "options");
}

int lb_before_step(struct lb *B, const struct cell *c, const char *step_name, const struct node *step_opts,
                   struct node **override_opts, struct diag *d)
{
	*override_opts = NULL;
	struct src_pos def;
	if (!lb_hook_begin(B, "before_step", &def))
		return 0;
	lua_State *S = B->S;
	lb_push_step(B, step_name, step_opts);
	lb_push_cell(B, c);
	int rc = lb_pcall(B, 2, 1, "before_step", &def, d);
	if (rc < 0)
		return rc;
	if (lua_isnil(S, -1)) {
		lua_pop(S, 1);
		return 0;
	}
	if (!lua_istable(S, -1)) {
		diag_error(d, &def, "before_step: returned a %s; expected a table of step options or nothing",
		           luaL_typename(S, -1));
		lua_pop(S, 1);
		return -EINVAL;
	}
	const struct src_pos *at = step_opts ? &step_opts->pos : &def;
	struct node *n = lb_to_node(S, -1, at, "before_step", d);
	lua_pop(S, 1);
	if (!n)
		return -EINVAL;
	if (n->kind != NODE_MAP) {
		if (n->kind == NODE_SEQ || n->n) {
			diag_error(d, &def,
			           "before_step: returned a list; expected a table of option = value");
			node_free(n);
			return -EINVAL;
		}
		node_free(n); /* {} reads as an empty list */
		n = node_new(NODE_MAP, at);
	}
	/* Overrides carry the position of the option they replace. */
	for (size_t i = 0; i < n->n; i++) {
		const struct node *old = node_get(step_opts, n->keys[i]);
		if (old) {
			n->items[i]->pos = old->pos;
			n->kpos[i] = *node_key_pos(step_opts, n->keys[i]);
		}
	}
	*override_opts = n;
	return 0;
}

int lb_after_step(struct lb *B, const struct cell *c, const char *step_name, struct step_result *res,
                  struct diag *d)
{
	struct src_pos def;
	if (!lb_hook_begin(B, "after_step", &def))
		return 0;
	lb_push_step(B, step_name, NULL);
	lb_push_result(B, res);
	lb_push_cell(B, c);
	return lb_pcall(B, 3, 0, "after_step", &def, d);
}

int lb_after_cell(struct lb *B, const struct cell *c, struct step_result *const *results, size_t n,
                  struct diag *d)
{
	struct src_pos def;
	if (!lb_hook_begin(B, "after_cell", &def))
		return 0;
	lua_State *S = B->S;
	lb_push_cell(B, c);
	lua_createtable(S, (int)n, (int)n);
	for (size_t i = 0; i < n; i++) {
		lb_push_result(B, results[i]);
		if (results[i]->step) {
			lua_pushvalue(S, -1);
			lua_setfield(S, -3, results[i]->step);
		}
		lua_rawseti(S, -2, (lua_Integer)i + 1);
	}
	return lb_pcall(B, 2, 0, "after_cell", &def, d);
}

int lb_finish(struct lb *B, const char *outdir, struct diag *d)
{
	struct src_pos def;
	if (!lb_hook_begin(B, "finish", &def))
		return 0;
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
	return lb_pcall(B, 1, 0, "finish", &def, d);
}

int lb_on_error(struct lb *B, const struct cell *c, const char *err, struct diag *d)
{
	struct src_pos def;
	if (!lb_hook_begin(B, "on_error", &def))
		return 0;
	lua_pushstring(B->S, err ? err : "");
	lb_push_cell(B, c);
	return lb_pcall(B, 2, 0, "on_error", &def, d);
}
