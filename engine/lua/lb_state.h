/* lb_state: the state behind a struct lb, shared by the bridge's files: the
 * allocator with a ceiling, the time budget, protected calls whose errors
 * point into the scenario. Not a public header (it needs lua.h).
 *
 * Budget: a count hook runs every LB_HOOK_COUNT VM instructions and compares
 * the monotonic clock with the call's deadline. Once past it, the hook
 * switches itself to fire on every instruction and raises an error each
 * time, so an error handler or pcall in the user's code gets at most one
 * instruction before the stop is raised again; the stop reaches our
 * lua_pcall. The same hook also runs at every function call (LUA_MASKCALL),
 * so that a loop of long C calls (string.rep, s:upper() on 100 MiB) is
 * checked before each of them rather than once per 1000 of them. The hook
 * never fires inside a C function: the pattern functions, which can
 * backtrack for hours in one call, check the budget themselves
 * (lb_pattern.h, through lb_budget_check), and so do the library functions
 * whose loops the caller sizes at will, table.move and the like
 * (lb_safelib.h); the rest of the library is linear in data the memory
 * limit bounds. Finalizers, which Lua runs with hooks off, are refused
 * (lb_safelib.h).
 *
 * Stop: the embedder's flag (lb_set_stop; the runner's SIGINT/SIGTERM flag)
 * is looked at in the same places as the clock; once set, the call is
 * stopped the same way, and so is every call made while it stays set.
 *
 * Positions: the message handler walks the stack to the innermost frame of a
 * user chunk (chunk names starting with '@': the scenario or a hooks file;
 * the embedded library uses '=' names and is skipped) and records its line. */
#ifndef BENCHGRID_LB_STATE_H
#define BENCHGRID_LB_STATE_H

#include <lauxlib.h>
#include <lua.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>

#include "diag.h"

struct lb {
	lua_State *S;
	char *file;                  /* scenario file as given */
	char *dir;                   /* its folder ("." when none) */
	char *name;                  /* the scenario name (from lb_setup; until then the file base name) */
	double budget;               /* seconds per top-level call */
	double deadline;             /* monotonic seconds */
	bool expired;                /* the running call passed its deadline */
	bool stopped;                /* the running call saw the stop flag set */
	volatile sig_atomic_t *stop; /* the embedder's stop flag, or NULL */
	bool running;                /* inside a top-level call */
	/* The running call may have side effects (bench.sh, run:write): set
	 * only by lb_pcall_hook, for the hook functions and parsers that `run`
	 * calls. Loading hooks, `!lua` values and `filter:` run without it, so
	 * that `check` and `plan` never start a process or write a file. */
	bool effects;
	size_t mem, mem_limit;
	void (*log)(void *ud, const char *level, const char *msg); /* see lb_set_log */
	void *log_ud;
	/* Filled by the message handler for the error of the last call. */
	struct src_pos err_pos;
	char *err_trace;
	/* Objects handed to Lua are valid only during the call they were made
	 * for; they remember this generation and check it. */
	unsigned gen;
	/* Set while before_cell runs: cell:skip() writes here. */
	bool in_before_cell;
	bool skip;
	char *skip_reason;
};

/* The lua_Alloc of every state: ud is the struct lb, whose mem_limit caps
 * the total so a runaway table or string.rep cannot take the machine's
 * memory. */
void *lb_alloc(void *ud, void *ptr, size_t osize, size_t nsize);
/* The lb that owns a lua_State (stored in its extra space). */
struct lb *lb_of(lua_State *S);

/* Call the function below nargs arguments on the stack with the budget and
 * the traceback handler. On error: add a diag (at the Lua position when one
 * is known, else at `fallback`) prefixed with `what`, pop everything, return
 * -EINVAL (-ETIME when the budget ran out). On success nres results stay. */
int lb_pcall(struct lb *B, int nargs, int nres, const char *what, const struct src_pos *fallback,
             struct diag *d);

/* lb_pcall for a hook function or a parser, called only by `run`: the call
 * may use bench.sh and run:write. */
int lb_pcall_hook(struct lb *B, int nargs, int nres, const char *what, const struct src_pos *fallback,
                  struct diag *d);
/* In a C function that has side effects: raise a Lua error naming `call`
 * unless the running call allows them (see `effects`). */
void lb_need_effects(lua_State *S, const char *call);

/* Inside a top-level call: when the deadline has passed or the stop flag
 * is set, raise the stop (an error that every later instruction raises
 * again, so it cannot be caught); otherwise return. For C functions that
 * may run long; reads the clock, so call it every few thousand steps. */
void lb_budget_check(lua_State *S);

/* Strip Lua's "chunk:line: " prefix from a message. */
const char *lb_strip_where(const char *msg);
/* The column of the first non-blank character of a file's line, 1-based (1
 * when the file cannot be read); *at_col_char (may be NULL) receives the
 * character at column col of that line, 0 when there is none. */
int lb_line_indent(const char *file, int line, char *at_col_char, int col);

#endif
