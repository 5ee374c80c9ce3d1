/* lb_pattern: string.find, string.match, string.gmatch and string.gsub of
 * the sandbox, written for benchgrid so that they obey the time budget and
 * the stop flag (lb_state.h).
 *
 * Lua's count hook fires between VM instructions only, never inside a C
 * function: the library's own matcher, backtracking on a pattern such as
 * ".-.-.-.-.-.-.-.-.-.-b" against 40 "a"s, runs for hours in one call. This
 * matcher counts its steps (each match attempt, each character a repetition
 * or %b scans, the bytes a plain search compares) and, every few thousand
 * steps, checks the call's deadline and the stop flag; when either is spent
 * it raises the same uncatchable stop as the count hook.
 *
 * The pattern language and the results are Lua 5.4's (manual, section
 * 6.4.1): classes, sets, the quantifiers * + - ?, anchors, captures and
 * position captures, %1-%9, %b and %f; find's init and plain arguments,
 * gmatch's init, gsub's string, table and function replacements and its
 * maximum count. Malformed patterns give Lua's messages. */
#ifndef BENCHGRID_LB_PATTERN_H
#define BENCHGRID_LB_PATTERN_H

#include <lua.h>

/* Replace find, match, gmatch and gsub in the global table `string` (which
 * is also the strings' method table). */
void lb_pattern_open(lua_State *S);

#endif
