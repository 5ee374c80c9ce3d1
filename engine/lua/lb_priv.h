/* lb_priv: what lb.c (state, sandbox, budget, errors) and lb_api.c (the
 * objects Lua sees: cell, result, run, bench; the hook calls) share. Not a
 * public header. */
#ifndef BENCHGRID_LB_PRIV_H
#define BENCHGRID_LB_PRIV_H

#include <lua.h>
#include <lauxlib.h>
#include "lb.h"

struct lb {
	lua_State *S;
	char *file;      /* scenario file as given */
	char *dir;       /* its folder ("." when none) */
	char *name;      /* the scenario name (from lb_setup; until then the file base name) */
	double budget;   /* seconds per top-level call */
	double deadline; /* CLOCK_MONOTONIC seconds */
	bool expired;    /* the running call passed its deadline */
	bool running;    /* inside a top-level call */
	size_t mem, mem_limit;
	lb_log_fn log;
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

/* The lb that owns a lua_State (stored in its extra space). */
struct lb *lb_of(lua_State *S);
double lb_now(void);

/* Call the function below nargs arguments on the stack with the budget and
 * the traceback handler. On error: add a diag (at the Lua position when one
 * is known, else at `fallback`) prefixed with `what`, pop everything, return
 * -EINVAL (-ETIME when the budget ran out). On success nres results stay. */
int lb_pcall(struct lb *B, int nargs, int nres, const char *what, const struct src_pos *fallback,
             struct diag *d);

/* Push a node as a typed Lua value (params and options): unquoted scalars
 * that are integers, numbers, booleans, sizes (bytes) or durations (seconds)
 * become numbers and booleans; everything else a string; maps and sequences
 * tables. */
void lb_push_node(lua_State *S, const struct node *n);
/* Push a table of a NODE_MAP's values, typed. */
void lb_push_params(lua_State *S, const struct node *params);
/* Convert the Lua value at idx into a node at pos; NULL with an error in d. */
struct node *lb_to_node(lua_State *S, int idx, const struct src_pos *pos, const char *what, struct diag *d);

/* Register the object metatables and the `bench` table (lb_api.c). */
void lb_api_open(struct lb *B);
/* A result object for res (valid during this call only). */
void lb_push_result(struct lb *B, struct step_result *res);

#endif
