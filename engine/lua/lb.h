/* lb: the Lua 5.4 bridge (hooks, `!lua` expressions, matrix filters, parsers).
 *
 * One sandboxed lua_State per scenario. Lua runs only at scenario, cell and
 * step boundaries, never per I/O or per transaction.
 *
 * Sandbox: only base (without dofile/loadfile; `load` is text-only), string
 * (without dump), table, math, utf8, coroutine and a few os time functions
 * are visible. Chunks load as text only (luaL_loadbufferx mode "t"). Reading
 * an undefined global is an error. `require` finds modules only in the
 * library embedded in the binary (the lua/ folder) and in the scenario folder.
 * Every call goes through lua_pcall with a traceback handler; a call that
 * runs longer than the budget (default 10 s) is stopped: a count hook checks
 * a monotonic deadline and, once it has passed, errors on every instruction,
 * so a pcall inside the hook cannot swallow the stop.
 *
 * Errors name the scenario's own line: the hooks block is compiled with the
 * YAML line of its first content line as its line 1, so Lua's line k is the
 * file's line (first + k - 1), and diagnostics carry that position.
 *
 * Every function returns 0 or a negative errno and adds an error to d. */
#ifndef BENCHGRID_LB_H
#define BENCHGRID_LB_H

#include <stdbool.h>
#include <stddef.h>
#include "cell.h"
#include "diag.h"
#include "node.h"
#include "result.h"

#define LB_DEFAULT_BUDGET 10.0 /* seconds per hook call */

struct lb;

/* A sandboxed state for one scenario. scenario_file names the scenario (for
 * positions and for require's folder); budget_s <= 0 means the default. */
struct lb *lb_new(const char *scenario_file, double budget_s, struct diag *d);
void lb_free(struct lb *L);

/* Change the per-call budget (seconds, > 0). */
void lb_set_budget(struct lb *L, double budget_s);

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

/* Evaluate a `!lua "expr"` scalar with the cell's params (a NODE_MAP, may be
 * NULL) as read-only globals, typed: sizes in bytes, durations in seconds,
 * numbers, booleans, strings. Functions defined in hooks are visible too.
 * *out is a new scalar at expr's position: a number as text, a string
 * (quoted), or true/false; nil, tables and functions are errors. */
int lb_eval(struct lb *L, const struct node *expr, const struct node *params, struct node **out,
            struct diag *d);
/* The matrix `filter:`: the expression must give true or false. */
int lb_filter(struct lb *L, const struct node *expr, const struct node *params, bool *keep, struct diag *d);

/* Hook calls. A hook that is not defined is not called (returns 0).
 * setup(ctx): ctx.scenario, ctx.file, ctx.dir. lb_setup also records the
 * scenario's name for finish's run.scenario, so call it even when there is
 * no setup hook (until then the name is the file's base name). */
int lb_setup(struct lb *L, const char *scenario_name, struct diag *d);
/* before_cell(cell): cell:skip(reason) sets *skip and *skip_reason (malloc'd,
 * free it; NULL when not skipped). */
int lb_before_cell(struct lb *L, const struct cell *c, bool *skip, char **skip_reason, struct diag *d);
/* before_step(step, cell): step.name, step.options (typed). A returned table
 * becomes *override_opts, a new NODE_MAP (caller frees) whose keys replace
 * the step's options; NULL when the hook returned nothing. */
int lb_before_step(struct lb *L, const struct cell *c, const char *step_name, const struct node *step_opts,
                   struct node **override_opts, struct diag *d);
/* after_step(step, result, cell): result.<metric> reads a metric (nil when
 * absent); result:metric(name, value[, unit]) adds one to res. */
int lb_after_step(struct lb *L, const struct cell *c, const char *step_name, struct step_result *res,
                  struct diag *d);
/* after_cell(cell, results): results[i] in step order and results[name]. */
int lb_after_cell(struct lb *L, const struct cell *c, struct step_result *const *results, size_t n,
                  struct diag *d);
/* finish(run): run.outdir, run.scenario (name), run.file, and
 * run:write(relative_name, text) to add a file to outdir. */
int lb_finish(struct lb *L, const char *outdir, struct diag *d);
/* on_error(err, cell): c may be NULL (cell is then nil). */
int lb_on_error(struct lb *L, const struct cell *c, const char *err, struct diag *d);

/* Parse tool output into metrics of res. parser is a shipped parser name
 * ("dd", "pgbench", "fio", "hdparm", "bench.sh") or the name of a function
 * defined in the hooks, called as fn(text, result). at (may be NULL) is the
 * position of the `parse:` option for errors. */
int lb_parse_output(struct lb *L, const char *parser, const struct src_pos *at, const char *out, size_t len,
                    struct step_result *res, struct diag *d);
/* Is parser a shipped parser name? */
bool lb_is_shipped_parser(const char *parser);
/* NULL-terminated list of shipped parser names (for help and errors). */
const char *const *lb_shipped_parsers(void);

/* Run Lua source text as a chunk named `name` (tests, `benchgrid lua`). */
int lb_run_string(struct lb *L, const char *name, const char *src, struct diag *d);

/* The embedded library (generated at build time from lua/). */
struct lb_module {
	const char *name; /* "stats", "parsers.dd" */
	const char *src;
	size_t len;
};
extern const struct lb_module lb_modules[];
extern const size_t lb_nmodules;

#endif
