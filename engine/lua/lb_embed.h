/* lb_embed: the shipped Lua library (lua/), embedded at build time by
 * cmake/lua_embed.cmake into the generated lb_embed.c. */
#ifndef BENCHGRID_LB_EMBED_H
#define BENCHGRID_LB_EMBED_H

#include <stddef.h>

struct lb_module {
	const char *name; /* "stats", "parsers.dd" */
	const char *src;
	size_t len;
};
extern const struct lb_module lb_modules[];
extern const size_t lb_nmodules;

#endif
