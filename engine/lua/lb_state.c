/* lb_state: allocator, budget, protected calls, error positions (see
 * lb_state.h). */
#include "lb_state.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"

#define LB_HOOK_COUNT 1000

struct lb *lb_of(lua_State *S)
{
	return *(struct lb **)lua_getextraspace(S);
}

/* The allocator with a ceiling (see lb_state.h). */
void *lb_alloc(void *ud, void *ptr, size_t osize, size_t nsize)
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
	lb_budget_check(S);
}

void lb_budget_check(lua_State *S)
{
	struct lb *B = lb_of(S);
	if (!B->running)
		return;
	if (!B->expired && !B->stopped) {
		if (B->stop && *B->stop)
			B->stopped = true;
		else if (clock_mono() < B->deadline)
			return;
		else
			B->expired = true;
	}
	/* From now on, every instruction of every thread that runs raises: this
	 * one, and the main thread, which a coroutine's error returns to (a
	 * `pcall(coroutine.wrap(f))` there would otherwise carry on). */
	lua_sethook(S, lb_count_hook, LUA_MASKCOUNT | LUA_MASKLINE, 1);
	if (S != B->S)
		lua_sethook(B->S, lb_count_hook, LUA_MASKCOUNT | LUA_MASKLINE, 1);
	if (B->stopped)
		lua_pushliteral(S, "stopped: benchgrid is stopping");
	else
		lua_pushfstring(S, "stopped: the Lua time budget of %f s ran out", B->budget);
	lua_error(S);
}

/* Strip Lua's "chunk:line: " prefix from a message. */
const char *lb_strip_where(const char *msg)
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
 * 1 when the file is not a registered scenario text: a chunk's name
 * ("@/some/path", from load() too) never makes benchgrid open a file. */
int lb_line_indent(const char *file, int line, char *at_col_char, int col)
{
	char buf[4096];
	int ind = 1;
	if (at_col_char)
		*at_col_char = 0;
	if (!diag_source_line(file, line, buf, sizeof(buf)))
		return 1;
	while (buf[ind - 1] == ' ' || buf[ind - 1] == '\t')
		ind++;
	if (at_col_char && col >= 1 && (size_t)col <= strlen(buf))
		*at_col_char = buf[col - 1];
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
		B->deadline = clock_mono() + B->budget;
		/* While the stop flag is set, no call runs: its first instruction
		 * raises the stop. */
		B->stopped = B->stop && *B->stop;
		lua_sethook(S, lb_count_hook, LUA_MASKCOUNT | LUA_MASKCALL, B->stopped ? 1 : LB_HOOK_COUNT);
	}
	int rc = lua_pcall(S, nargs, nres, base);
	bool expired = B->expired, stopped = B->stopped;
	if (outer) {
		lua_sethook(S, NULL, 0, 0);
		B->running = false;
		B->expired = false;
		B->stopped = false;
		B->gen++; /* objects made for this call go stale */
	}
	lua_remove(S, base);
	if (rc == LUA_OK && (expired || stopped) && outer) {
		/* The stop was caught (pcall around a coroutine) and the call
		 * returned: it still failed. */
		lua_settop(S, base - 1);
		lua_pushliteral(S, "stopped");
		rc = LUA_ERRRUN;
	}
	if (rc == LUA_OK)
		return 0;
	const char *msg = lua_tostring(S, -1);
	if (!msg)
		msg = "(error object is not a string)";
	const struct src_pos *at = B->err_pos.line > 0 ? &B->err_pos : fallback;
	if (stopped) {
		diag_error(d, at, "%s: stopped: benchgrid is stopping (interrupted by a signal)", what);
	} else if (expired) {
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
	return stopped ? -EINTR : expired ? -ETIME : -EINVAL;
}

int lb_pcall_hook(struct lb *B, int nargs, int nres, const char *what, const struct src_pos *fallback,
                  struct diag *d)
{
	bool was = B->effects;
	B->effects = true;
	int rc = lb_pcall(B, nargs, nres, what, fallback, d);
	B->effects = was;
	return rc;
}

void lb_need_effects(lua_State *S, const char *call)
{
	if (lb_of(S)->effects)
		return;
	luaL_error(S,
	           "%s is not allowed here: the top level of hooks, `!lua` values and `filter:` are "
	           "evaluated by `check` and `plan` too, and must not run commands or write files; call "
	           "it from a hook function (setup, before_cell, ...)",
	           call);
}
