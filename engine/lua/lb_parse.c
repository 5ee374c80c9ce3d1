/* lb_parse: tool output into metrics (see lb_parse.h). */
#include "lb_parse.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "lb_api.h"
#include "lb_sandbox.h"
#include "lb_state.h"

static const char *const lb_parser_names[] = {"dd", "pgbench", "fio", "hdparm", "bench.sh", "sysbench", NULL};
static const char *const lb_parser_modules[] = {
    "parsers.dd",      "parsers.pgbench",  "parsers.fio", "parsers.hdparm",
    "parsers.benchsh", "parsers.sysbench", NULL};

const char *const *lb_shipped_parsers(void)
{
	return lb_parser_names;
}

bool lb_is_shipped_parser(const char *parser)
{
	for (int i = 0; lb_parser_names[i]; i++)
		if (!strcmp(lb_parser_names[i], parser))
			return true;
	return false;
}

int lb_parse_output(struct lb *B, const char *parser, const struct src_pos *at, const char *out, size_t len,
                    struct step_result *res, struct diag *d)
{
	lua_State *S = B->S;
	char what[128];
	int mod = -1;
	for (int i = 0; lb_parser_names[i]; i++)
		if (!strcmp(lb_parser_names[i], parser))
			mod = i;
	/* Shipped parsers name themselves in their messages. */
	snprintf(what, sizeof(what), mod >= 0 ? "parse" : "parse: %s", parser);
	if (mod >= 0) {
		lua_pushcfunction(S, lb_require);
		lua_pushstring(S, lb_parser_modules[mod]);
		if (lb_pcall(B, 1, 1, what, at, d) < 0)
			return -EINVAL;
		if (lua_istable(S, -1)) {
			lua_getfield(S, -1, "parse");
			lua_remove(S, -2);
		}
	} else {
		lua_pushglobaltable(S);
		lua_pushstring(S, parser);
		lua_rawget(S, -2);
		lua_remove(S, -2);
	}
	if (!lua_isfunction(S, -1)) {
		lua_pop(S, 1);
		diag_error(d, at,
		           "parse: '%s' is neither a shipped parser (dd, pgbench, fio, hdparm, bench.sh, "
		           "sysbench) nor "
		           "a function "
		           "defined in hooks",
		           parser);
		return -ENOENT;
	}
	lua_pushlstring(S, out ? out : "", out ? len : 0);
	lb_push_result(B, res);
	if (lb_pcall_hook(B, 2, 1, what, at, d) < 0)
		return -EINVAL;
	/* A returned table {name = value | {value, unit}} adds metrics too. */
	if (lua_istable(S, -1)) {
		lua_pushnil(S);
		while (lua_next(S, -2)) {
			if (lua_type(S, -2) == LUA_TSTRING) {
				const char *name = lua_tostring(S, -2);
				if (lua_isnumber(S, -1)) {
					result_metric(res, name, lua_tonumber(S, -1), "");
				} else if (lua_istable(S, -1)) {
					lua_rawgeti(S, -1, 1);
					lua_rawgeti(S, -2, 2);
					if (lua_isnumber(S, -2))
						result_metric(res, name, lua_tonumber(S, -2),
						              lua_isstring(S, -1) ? lua_tostring(S, -1) : "");
					lua_pop(S, 2);
				}
			}
			lua_pop(S, 1);
		}
	}
	lua_pop(S, 1);
	return 0;
}
