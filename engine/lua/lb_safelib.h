/* lb_safelib: the standard library functions that the time budget could
 * not otherwise reach, replaced in the sandbox (lb_state.h says how the
 * budget works).
 *
 * The count hook fires between VM instructions and at calls, never inside
 * a C function. Functions whose loop count a caller chooses freely, with
 * no data behind it, could run for hours in one call: table.move({}, 1,
 * 2^50, 1, {}), or table.insert(t, 1, x) on a table whose __len says 2^50.
 * The replacements do what Lua 5.4's do (same results, same errors) and
 * check the budget and the stop flag every few thousand steps:
 *   table.move, table.insert, table.remove, table.concat, string.rep
 *   table.sort: Lua's own, always with a comparator; a comparator is a
 *     call, so the hook checks the budget at each comparison
 *   load: compiles its text a piece at a time (lb_safelib_load), checking
 *     between pieces (Lua's parser takes seconds for 100 MiB of code)
 * The rest of the library is bounded by its data, which the memory limit
 * bounds (docs/sections/lua.md gives the figures): at most about a second
 * for one call on the largest string that fits.
 *
 * Finalizers: Lua runs __gc metamethods with hooks off, in whatever call
 * happens to collect garbage, and at lua_close; a finalizer's endless loop
 * would hang `check` and the end of `run` beyond any budget or signal. So
 * setmetatable refuses a metatable with a __gc field. (Lua marks an object
 * for finalization only when the metatable it is given has __gc then: a
 * field added later does nothing. The C side gives its own metatables a
 * __metatable field, so that none can be reached and changed from Lua.) */
#ifndef BENCHGRID_LB_SAFELIB_H
#define BENCHGRID_LB_SAFELIB_H

#include <lua.h>

/* Replace the functions above in the opened libraries `table`, `string`
 * and the global setmetatable. */
void lb_safelib_open(lua_State *S);

/* luaL_loadbufferx for text a running call gives (load): the budget and
 * the stop flag are checked every 64 KiB compiled; a stop is the load's
 * error, and the next instruction raises it again (lb_state.h). */
int lb_safelib_load(lua_State *S, const char *text, size_t len, const char *name, const char *mode);

#endif
