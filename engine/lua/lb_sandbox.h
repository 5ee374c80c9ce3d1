/* lb_sandbox: what a scenario's Lua code may use.
 *
 * Only base (without dofile/loadfile; `load` is text-only), string (without
 * dump), table, math, utf8, coroutine and a few os time functions are
 * visible, plus the shipped library (lua/, and the C modules of lb_lib.h)
 * and the `bench` table (lb_api.h). Chunks load as text only. Reading an
 * undefined global is an error. */
#ifndef BENCHGRID_LB_SANDBOX_H
#define BENCHGRID_LB_SANDBOX_H

#include <lua.h>
#include <stddef.h>

#include "lb_state.h"

/* Open the sandbox in B's fresh state. */
void lb_sandbox_open(struct lb *B);
/* require(name): the C modules, the embedded library, then NAME.lua (dots
 * become slashes) in the scenario's folder. No package.path. */
int lb_require(lua_State *S);
/* A whole file a scenario names (a module, hooks_file), NUL-terminated,
 * malloc'd, read under safe_file.h's rules; NULL with errno and the reason
 * (naming the file and the rule) in err on failure. */
char *lb_read_file(const char *path, size_t *len, char *err, size_t errlen);

#endif
