/* lb: the Lua 5.4 bridge (hooks, `!lua` expressions, matrix filters, parsers).
 *
 * One sandboxed lua_State per scenario (lb_sandbox.h says what it holds). Lua
 * runs only at scenario, cell and step boundaries, never per I/O or per
 * transaction. Every call goes through lua_pcall with a traceback handler;
 * a call that runs longer than the budget (default 10 s), or that runs
 * when the embedder's stop flag is set, is stopped (lb_state.h says how).
 *
 * Errors name the scenario's own line: the hooks block is compiled with the
 * YAML line of its first content line as its line 1, so Lua's line k is the
 * file's line (first + k - 1), and diagnostics carry that position.
 *
 * This header is the bridge's whole public API: the state's life cycle here,
 * the hook calls (lb_hooks.h), expressions and filters (lb_expr.h) and the
 * output parsers (lb_parse.h). Every function returns 0 or a negative errno
 * and adds an error to d. */
#ifndef BENCHGRID_LB_H
#define BENCHGRID_LB_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>

#include "diag.h"
#include "lb_expr.h"
#include "lb_hooks.h"
#include "lb_parse.h"
#include "node.h"

#define LB_DEFAULT_BUDGET 10.0 /* seconds per hook call */

struct lb;

/* A sandboxed state for one scenario. scenario_file names the scenario (for
 * positions and for require's folder); budget_s <= 0 means the default. */
struct lb *lb_new(const char *scenario_file, double budget_s, struct diag *d);
void lb_free(struct lb *L);

/* Change the per-call budget (seconds, > 0). */
void lb_set_budget(struct lb *L, double budget_s);

/* The flag a signal handler sets when benchgrid must stop (the runner's
 * SIGINT/SIGTERM flag), or NULL. While it is non-zero, the running Lua call
 * is stopped within milliseconds (also inside string.find and the other
 * pattern functions, and a bench.sh command is killed), and every call made
 * while it stays set fails at once; both return -EINTR with "stopped:
 * benchgrid is stopping". The flag must outlive the state. */
void lb_set_stop(struct lb *L, volatile sig_atomic_t *flag);

/* Where bench.log() and print() go; default: stderr as "lua: LEVEL: msg".
 * level is "debug", "info", "warn" or "error". */
typedef void (*lb_log_fn)(void *ud, const char *level, const char *msg);
void lb_set_log(struct lb *L, lb_log_fn fn, void *ud);

/* Load hooks: the `hooks:` scalar (a literal block, may be NULL) and/or a
 * hooks file (may be NULL; relative to the scenario's folder; `at` is the
 * position of the hooks_file option, for errors). Both may be given: the
 * file runs first, then the inline block. */
int lb_load_hooks(struct lb *L, const struct node *hooks, const char *hooks_file, const struct src_pos *at,
                  struct diag *d);
/* Is `name` a global function after loading the hooks? */
bool lb_has_hook(struct lb *L, const char *name);

/* Run Lua source text as a chunk named `name` (tests, `benchgrid lua`). */
int lb_run_string(struct lb *L, const char *name, const char *src, struct diag *d);

#endif
