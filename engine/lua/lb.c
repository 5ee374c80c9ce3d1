/* lb: the Lua state, its sandbox, the time budget, error positions, chunk
 * loading, `!lua` expressions and filters (see lb.h).
 *
 * Budget: a count hook runs every LB_HOOK_COUNT VM instructions and compares
 * CLOCK_MONOTONIC with the call's deadline. Once past it, the hook switches
 * itself to fire on every instruction and raises an error each time, so an
 * error handler or pcall in the user's code gets at most one instruction
 * before the stop is raised again; the stop reaches our lua_pcall.
 *
 * Positions: the message handler walks the stack to the innermost frame of a
 * user chunk (chunk names starting with '@': the scenario or a hooks file;
 * the embedded library uses '=' names and is skipped) and records its line;
 * hooks blocks are compiled with leading newlines so that Lua's line numbers
 * are the YAML file's. */
#include "lb_priv.h"

#include <errno.h>
#include <lualib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define LB_HOOK_COUNT 1000
#define LB_MEM_LIMIT  ((size_t)512 << 20)

static const char *const lb_parser_names[] = {"dd", "pgbench", "fio", "hdparm", "bench.sh", NULL};
static const char *const lb_parser_modules[] = {"parsers.dd",     "parsers.pgbench", "parsers.fio",
                                                "parsers.hdparm", "parsers.benchsh", NULL};

double lb_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

struct lb *lb_of(lua_State *S)
{
	return *(struct lb **)lua_getextraspace(S);
}

/* Allocator with a ceiling so a runaway table or string.rep cannot take the
 * machine's memory. */
static void *lb_alloc(void *ud, void *ptr, size_t osize, size_t nsize)
{
	struct lb *B = ud;
	if (!ptr)
		osize = 0;
	if (nsize == 0) {
		free(ptr);
		B->mem -= osize;
		return NULL;
	}
	if (nsize > osize && B->mem + (nsize - osize) > B->mem_limit)
		return NULL;
	void *p = realloc(ptr, nsize);
	if (p)
		B->mem = B->mem - osize + nsize;
	return p;
}

static void lb_count_hook(lua_State *S, lua_Debug *ar)
{
	(void)ar;
	struct lb *B = lb_of(S);
	if (!B->expired) {
		if (lb_now() < B->deadline)
			return;
		B->expired = true;
	}
	/* From now on, every instruction of every thread that runs raises. */
	lua_sethook(S, lb_count_hook, LUA_MASKCOUNT | LUA_MASKLINE, 1);
	lua_pushfstring(S, "stopped: the Lua time budget of %f s ran out", B->budget);
	lua_error(S);
}

/* Strip Lua's "chunk:line: " prefix from a message. */
static const char *lb_strip_where(const char *msg)
{
	const char *p = msg;
	while (*p && *p != ':' && *p != '\n')
		p++;
	if (*p != ':' || p[1] < '0' || p[1] > '9')
		return msg;
	p++;
	while (*p >= '0' && *p <= '9')
		p++;
	if (p[0] == ':' && p[1] == ' ')
		return p + 2;
	return msg;
}

/* The column of the first non-blank character of a file's line, 1-based;
 * 1 when the file cannot be read. */
static int lb_line_indent(const char *file, int line, char *at_col_char, int col)
{
	FILE *f = file ? fopen(file, "r") : NULL;
	int ind = 1;
	if (at_col_char)
		*at_col_char = 0;
	if (!f)
		return 1;
	char buf[4096];
	int ln = 0;
	while (fgets(buf, sizeof(buf), f)) {
		if (++ln < line)
			continue;
		while (buf[ind - 1] == ' ' || buf[ind - 1] == '\t')
			ind++;
		if (at_col_char && col >= 1 && (size_t)col <= strlen(buf))
			*at_col_char = buf[col - 1];
		break;
	}
	fclose(f);
	return ind;
}

/* Message handler: record where in the user's code the error happened and a
 * traceback; leave the message (string form) on the stack. */
static int lb_msgh(lua_State *S)
{
	struct lb *B = lb_of(S);
	const char *msg = lua_tostring(S, 1);
	if (!msg) {
		if (luaL_callmeta(S, 1, "__tostring") && lua_type(S, -1) == LUA_TSTRING)
			msg = lua_tostring(S, -1);
		else
			msg = lua_pushfstring(S, "(error object is a %s value)", luaL_typename(S, 1));
	}
	B->err_pos.line = 0;
	lua_Debug ar;
	for (int lv = 0; lua_getstack(S, lv, &ar); lv++) {
		if (!lua_getinfo(S, "Sl", &ar) || ar.currentline <= 0 || ar.source[0] != '@')
			continue;
		B->err_pos.file = diag_intern(ar.source + 1);
		B->err_pos.line = ar.currentline;
		B->err_pos.col = lb_line_indent(ar.source + 1, ar.currentline, NULL, 0);
		break;
	}
	free(B->err_trace);
	luaL_traceback(S, S, NULL, 1);
	B->err_trace = strdup(lua_tostring(S, -1));
	lua_pop(S, 1);
	lua_pushstring(S, msg);
	return 1;
}

/* Keep only the traceback lines that name user chunks, indented. */
static void lb_note_trace(struct lb *B, struct diag *d)
{
	if (!B->err_trace)
		return;
	char out[2048];
	size_t o = 0;
	int kept = 0;
	for (char *line = B->err_trace; *line;) {
		char *nl = strchr(line, '\n');
		size_t len = nl ? (size_t)(nl - line) : strlen(line);
		const char *t = line;
		while (*t == '\t' || *t == ' ')
			t++;
		bool user = strncmp(t, "[C]", 3) && strncmp(t, "stack traceback", 15) && *t && t[0] != '(' &&
		            (t[0] != 'l' || strncmp(t, "lua/", 4));
		if (user && o + len + 4 < sizeof(out)) {
			o += snprintf(out + o, sizeof(out) - o, "\n  %.*s", (int)(line + len - t), t);
			kept++;
		}
		if (!nl)
			break;
		line = nl + 1;
	}
	if (kept > 1)
		diag_add(d, DIAG_NOTE, NULL, "Lua traceback:%s", out);
}

int lb_pcall(struct lb *B, int nargs, int nres, const char *what, const struct src_pos *fallback,
             struct diag *d)
{
	lua_State *S = B->S;
	int base = lua_gettop(S) - nargs;
	lua_pushcfunction(S, lb_msgh);
	lua_insert(S, base);
	bool outer = !B->running;
	if (outer) {
		B->running = true;
		B->expired = false;
		B->deadline = lb_now() + B->budget;
		lua_sethook(S, lb_count_hook, LUA_MASKCOUNT, LB_HOOK_COUNT);
	}
	int rc = lua_pcall(S, nargs, nres, base);
	bool expired = B->expired;
	if (outer) {
		lua_sethook(S, NULL, 0, 0);
		B->running = false;
		B->expired = false;
		B->gen++; /* objects made for this call go stale */
	}
	lua_remove(S, base);
	if (rc == LUA_OK)
		return 0;
	const char *msg = lua_tostring(S, -1);
	if (!msg)
		msg = "(error object is not a string)";
	const struct src_pos *at = B->err_pos.line > 0 ? &B->err_pos : fallback;
	if (expired) {
		diag_error(d, at, "%s: stopped after the Lua time budget of %g s (an endless loop?)", what,
		           B->budget);
	} else if (rc == LUA_ERRMEM) {
		diag_error(d, at, "%s: out of memory (the Lua limit is %zu MiB)", what, B->mem_limit >> 20);
	} else {
		diag_error(d, at, "%s: %s", what, lb_strip_where(msg));
		lb_note_trace(B, d);
	}
	lua_pop(S, 1);
	B->err_pos.line = 0;
	return expired ? -ETIME : -EINVAL;
}

/* --- the sandbox --- */

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
	if (luaL_loadbufferx(S, s, len, name, "t") != LUA_OK) {
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

static char *lb_read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	size_t cap = 4096, n = 0;
	char *buf = malloc(cap + 1);
	size_t r;
	while (buf && (r = fread(buf + n, 1, cap - n, f)) > 0) {
		n += r;
		if (n == cap) {
			char *nb = realloc(buf, cap * 2 + 1);
			if (!nb) {
				free(buf);
				buf = NULL;
				break;
			}
			buf = nb;
			cap *= 2;
		}
	}
	fclose(f);
	if (buf) {
		buf[n] = 0;
		*len = n;
	}
	return buf;
}

/* require(name): the embedded library first, then NAME.lua (dots become
 * slashes) in the scenario's folder. No C modules, no package.path. */
static int lb_require(lua_State *S)
{
	struct lb *B = lb_of(S);
	const char *name = luaL_checkstring(S, 1);
	lua_getfield(S, LUA_REGISTRYINDEX, "lb.loaded");
	if (lua_getfield(S, -1, name) != LUA_TNIL)
		return 1;
	lua_pop(S, 1);
	const struct lb_module *m = lb_find_module(name);
	char chunk[512];
	if (m) {
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
		char *src = lb_read_file(chunk, &len);
		if (!src)
			return luaL_error(S,
			                  "module '%s' not found (looked in the shipped library and for %s)",
			                  name, chunk);
		char cname[520];
		snprintf(cname, sizeof(cname), "@%s", chunk);
		int rc = luaL_loadbufferx(S, src, len, cname, "t");
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

static void lb_open_sandbox(struct lb *B)
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

struct lb *lb_new(const char *scenario_file, double budget_s, struct diag *d)
{
	struct lb *B = calloc(1, sizeof(*B));
	if (!B) {
		diag_error(d, NULL, "out of memory");
		return NULL;
	}
	B->file = strdup(scenario_file ? scenario_file : "(scenario)");
	const char *slash = scenario_file ? strrchr(scenario_file, '/') : NULL;
	B->dir = slash ? strndup(scenario_file, slash == scenario_file ? 1 : (size_t)(slash - scenario_file))
	               : strdup(".");
	/* The scenario's name until lb_setup() gives the real one: the file's
	 * base name without its extension. */
	const char *base = slash ? slash + 1 : B->file;
	const char *dot = strrchr(base, '.');
	B->name = dot && dot != base ? strndup(base, (size_t)(dot - base)) : strdup(base);
	B->budget = budget_s > 0 ? budget_s : LB_DEFAULT_BUDGET;
	B->mem_limit = LB_MEM_LIMIT;
	B->S = lua_newstate(lb_alloc, B);
	if (!B->S || !B->file || !B->dir || !B->name) {
		diag_error(d, NULL, "cannot create the Lua state: out of memory");
		lb_free(B);
		return NULL;
	}
	*(struct lb **)lua_getextraspace(B->S) = B;
	lb_open_sandbox(B);
	return B;
}

void lb_free(struct lb *B)
{
	if (!B)
		return;
	if (B->S)
		lua_close(B->S);
	free(B->file);
	free(B->dir);
	free(B->err_trace);
	free(B->skip_reason);
	free(B->name);
	free(B);
}

void lb_set_budget(struct lb *B, double budget_s)
{
	if (budget_s > 0)
		B->budget = budget_s;
}

void lb_set_log(struct lb *B, lb_log_fn fn, void *ud)
{
	B->log = fn;
	B->log_ud = ud;
}

/* Compile and run a user chunk named after `file` whose line 1 is the file's
 * line `first`. */
static int lb_run_chunk(struct lb *B, const char *file, int first, const char *src, size_t len,
                        const char *what, const struct src_pos *at, struct diag *d)
{
	lua_State *S = B->S;
	size_t pad = first > 1 ? (size_t)first - 1 : 0;
	char *text = malloc(pad + len + 1);
	if (!text) {
		diag_error(d, at, "out of memory");
		return -ENOMEM;
	}
	memset(text, '\n', pad);
	memcpy(text + pad, src, len);
	text[pad + len] = 0;
	char cname[1024];
	snprintf(cname, sizeof(cname), "@%s", file);
	int rc = luaL_loadbufferx(S, text, pad + len, cname, "t");
	free(text);
	if (rc != LUA_OK) {
		/* Syntax errors carry "file:LINE:" in the message. */
		const char *msg = lua_tostring(S, -1);
		struct src_pos p = at ? *at : (struct src_pos){0};
		const char *q = msg ? lb_strip_where(msg) : "";
		if (msg && q != msg) {
			const char *colon = q - 2;
			while (colon > msg && colon[-1] >= '0' && colon[-1] <= '9')
				colon--;
			p.file = diag_intern(file);
			p.line = atoi(colon);
			/* "near <eof>" is reported on the line after the last. */
			int last = first;
			for (size_t i = 0; i + 1 < len; i++)
				last += src[i] == '\n';
			if (p.line > last)
				p.line = last;
			p.col = lb_line_indent(file, p.line, NULL, 0);
		}
		diag_error(d, &p, "%s: Lua syntax error: %s", what, q);
		lua_pop(S, 1);
		return -EINVAL;
	}
	return lb_pcall(B, 0, 0, what, at, d);
}

/* The YAML line of a hooks scalar's first content line: its position is the
 * `|` indicator for a block scalar, whose content starts on the next line. */
static int lb_block_first_line(const struct node *n)
{
	char c;
	lb_line_indent(n->pos.file, n->pos.line, &c, n->pos.col);
	if (c == '|' || c == '>')
		return n->pos.line + 1;
	if (c == 0 && strchr(n->text, '\n')) /* source not readable: a block if multi-line */
		return n->pos.line + 1;
	return n->pos.line;
}

int lb_load_hooks(struct lb *B, const struct node *hooks, const char *hooks_file, const struct src_pos *at,
                  struct diag *d)
{
	int rc = 0;
	if (hooks_file && *hooks_file) {
		char path[4096];
		if (hooks_file[0] == '/')
			snprintf(path, sizeof(path), "%s", hooks_file);
		else
			snprintf(path, sizeof(path), "%s/%s", B->dir, hooks_file);
		size_t len;
		char *src = lb_read_file(path, &len);
		if (!src) {
			diag_error(d, at, "hooks_file: cannot read %s: %s", path, strerror(errno));
			return -errno ? -errno : -EIO;
		}
		diag_register_source(diag_intern(path), src, len);
		rc = lb_run_chunk(B, path, 1, src, len, "hooks_file", at, d);
		free(src);
		if (rc < 0)
			return rc;
	}
	if (hooks && hooks->kind != NODE_NULL) {
		if (hooks->kind != NODE_SCALAR) {
			diag_error(d, &hooks->pos,
			           "hooks: expected Lua code (a literal block: `hooks: |`), found a %s",
			           node_kind_name(hooks->kind));
			return -EINVAL;
		}
		const char *file = hooks->pos.file ? hooks->pos.file : B->file;
		rc = lb_run_chunk(B, file, lb_block_first_line(hooks), hooks->text, strlen(hooks->text),
		                  "hooks", &hooks->pos, d);
	}
	return rc;
}

bool lb_has_hook(struct lb *B, const char *name)
{
	lua_State *S = B->S;
	lua_pushglobaltable(S);
	lua_pushstring(S, name);
	bool fn = lua_rawget(S, -2) == LUA_TFUNCTION;
	lua_pop(S, 2);
	return fn;
}

int lb_run_string(struct lb *B, const char *name, const char *src, struct diag *d)
{
	struct src_pos at = {diag_intern(name), 1, 1};
	return lb_run_chunk(B, name, 1, src, strlen(src), "lua", &at, d);
}

/* --- expressions --- */

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

int lb_eval(struct lb *B, const struct node *expr, const struct node *params, struct node **out,
            struct diag *d)
{
	lua_State *S = B->S;
	*out = NULL;
	if (lb_push_expr(B, expr, params, "!lua", d) < 0)
		return -EINVAL;
	/* Errors point at the expression, not inside a hook it may call. */
	size_t n0 = d->n;
	int rc = lb_pcall(B, 0, 1, "!lua", &expr->pos, d);
	if (rc < 0)
		return lb_expr_note(expr, n0, rc, d);
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
	if (lb_push_expr(B, expr, params, "filter", d) < 0)
		return -EINVAL;
	size_t n0 = d->n;
	int rc = lb_pcall(B, 0, 1, "filter", &expr->pos, d);
	if (rc < 0)
		return lb_expr_note(expr, n0, rc, d);
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

/* --- parsers --- */

const char *const *lb_shipped_parsers(void)
{
	return lb_parser_names;
}

bool lb_is_shipped_parser(const char *parser)
{
	for (int i = 0; lb_parser_names[i]; i++)
		if (!strcmp(lb_parser_names[i], parser))
			return true;
	return false;
}

int lb_parse_output(struct lb *B, const char *parser, const struct src_pos *at, const char *out, size_t len,
                    struct step_result *res, struct diag *d)
{
	lua_State *S = B->S;
	char what[128];
	int mod = -1;
	for (int i = 0; lb_parser_names[i]; i++)
		if (!strcmp(lb_parser_names[i], parser))
			mod = i;
	/* Shipped parsers name themselves in their messages. */
	snprintf(what, sizeof(what), mod >= 0 ? "parse" : "parse: %s", parser);
	if (mod >= 0) {
		lua_pushcfunction(S, lb_require);
		lua_pushstring(S, lb_parser_modules[mod]);
		if (lb_pcall(B, 1, 1, what, at, d) < 0)
			return -EINVAL;
		if (lua_istable(S, -1)) {
			lua_getfield(S, -1, "parse");
			lua_remove(S, -2);
		}
	} else {
		lua_pushglobaltable(S);
		lua_pushstring(S, parser);
		lua_rawget(S, -2);
		lua_remove(S, -2);
	}
	if (!lua_isfunction(S, -1)) {
		lua_pop(S, 1);
		diag_error(d, at,
		           "parse: '%s' is neither a shipped parser (dd, pgbench, fio, hdparm, bench.sh) nor "
		           "a function "
		           "defined in hooks",
		           parser);
		return -ENOENT;
	}
	lua_pushlstring(S, out ? out : "", out ? len : 0);
	lb_push_result(B, res);
	if (lb_pcall(B, 2, 1, what, at, d) < 0)
		return -EINVAL;
	/* A returned table {name = value | {value, unit}} adds metrics too. */
	if (lua_istable(S, -1)) {
		lua_pushnil(S);
		while (lua_next(S, -2)) {
			if (lua_type(S, -2) == LUA_TSTRING) {
				const char *name = lua_tostring(S, -2);
				if (lua_isnumber(S, -1)) {
					result_metric(res, name, lua_tonumber(S, -1), "");
				} else if (lua_istable(S, -1)) {
					lua_rawgeti(S, -1, 1);
					lua_rawgeti(S, -2, 2);
					if (lua_isnumber(S, -2))
						result_metric(res, name, lua_tonumber(S, -2),
						              lua_isstring(S, -1) ? lua_tostring(S, -1) : "");
					lua_pop(S, 2);
				}
			}
			lua_pop(S, 1);
		}
	}
	lua_pop(S, 1);
	return 0;
}
