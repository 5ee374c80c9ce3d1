/* lb_lib: the modules of the shipped Lua library that are written in C, so
 * that Lua and the engine share one implementation:
 *   json        json.decode(text [, start]) -> value, next_position, over
 *               jansson; json.null stands for null (arrays keep their
 *               length); errors say "json: line L, col C: ...".
 *   core.units  parse_size, parse_duration, format_size, format_duration of
 *               engine/base/units.c (lua/units.lua wraps it).
 *   core.stats  sum, mean, median, stddev, min, max, percentile over a list,
 *               by engine/model/stats.c (lua/stats.lua wraps it). */
#ifndef BENCHGRID_LB_LIB_H
#define BENCHGRID_LB_LIB_H

#include <lua.h>

/* The opener of the C module called name, NULL when there is none. */
lua_CFunction lb_lib_find(const char *name);

#endif
