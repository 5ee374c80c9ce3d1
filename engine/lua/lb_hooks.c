/* lb_hooks: the hook calls (see lb_hooks.h). */
#include "lb_hooks.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lb_api.h"
#include "lb_conv.h"
#include "lb_state.h"

/* Push global function `name`; false (nothing pushed) when not defined.
 * *def receives where it was defined, for errors without a better place. */
static bool lb_hook_begin(struct lb *B, const char *name, struct src_pos *def)
{
	lua_State *S = B->S;
	lua_pushglobaltable(S);
	lua_pushstring(S, name);
	if (lua_rawget(S, -2) != LUA_TFUNCTION) {
		lua_pop(S, 2);
		return false;
	}
	lua_remove(S, -2);
	lua_Debug ar;
	lua_pushvalue(S, -1);
	*def = (struct src_pos){0};
	if (lua_getinfo(S, ">S", &ar) && ar.source[0] == '@' && ar.linedefined > 0)
		*def = (struct src_pos){diag_intern(ar.source + 1), ar.linedefined, 1};
	return true;
}

int lb_setup(struct lb *B, const char *scenario_name, struct diag *d)
{
	if (scenario_name) {
		char *n = strdup(scenario_name);
		if (n) {
			free(B->name);
			B->name = n;
		}
	}
	struct src_pos def;
	if (!lb_hook_begin(B, "setup", &def))
		return 0;
	lua_State *S = B->S;
	lua_createtable(S, 0, 3);
	lua_pushstring(S, B->name);
	lua_setfield(S, -2, "scenario");
	lua_pushstring(S, B->file);
	lua_setfield(S, -2, "file");
	lua_pushstring(S, B->dir);
	lua_setfield(S, -2, "dir");
	return lb_pcall_hook(B, 1, 0, "setup", &def, d);
}

int lb_before_cell(struct lb *B, const struct cell *c, bool *skip, char **skip_reason, struct diag *d)
{
	*skip = false;
	if (skip_reason)
		*skip_reason = NULL;
	struct src_pos def;
	if (!lb_hook_begin(B, "before_cell", &def))
		return 0;
	lb_push_cell(B, c);
	B->in_before_cell = true;
	B->skip = false;
	int rc = lb_pcall_hook(B, 1, 0, "before_cell", &def, d);
	B->in_before_cell = false;
	if (rc == 0 && B->skip) {
		*skip = true;
		if (skip_reason)
			*skip_reason = B->skip_reason;
		else
			free(B->skip_reason);
		B->skip_reason = NULL;
	}
	free(B->skip_reason);
	B->skip_reason = NULL;
	return rc;
}

static void lb_push_step(struct lb *B, const char *name, const struct node *opts)
{
	lua_State *S = B->S;
	lua_createtable(S, 0, 2);
	lua_pushstring(S, name);
	lua_setfield(S, -2, "name");
	lb_push_params(S, opts);
	lua_setfield(S, -2, "options");
}

int lb_before_step(struct lb *B, const struct cell *c, const char *step_name, const struct node *step_opts,
                   struct node **override_opts, struct diag *d)
{
	*override_opts = NULL;
	struct src_pos def;
	if (!lb_hook_begin(B, "before_step", &def))
		return 0;
	lua_State *S = B->S;
	lb_push_step(B, step_name, step_opts);
	lb_push_cell(B, c);
	int rc = lb_pcall_hook(B, 2, 1, "before_step", &def, d);
	if (rc < 0)
		return rc;
	if (lua_isnil(S, -1)) {
		lua_pop(S, 1);
		return 0;
	}
	if (!lua_istable(S, -1)) {
		diag_error(d, &def, "before_step: returned a %s; expected a table of step options or nothing",
		           luaL_typename(S, -1));
		lua_pop(S, 1);
		return -EINVAL;
	}
	const struct src_pos *at = step_opts ? &step_opts->pos : &def;
	struct node *n = lb_to_node(S, -1, at, "before_step", d);
	lua_pop(S, 1);
	if (!n)
		return -EINVAL;
	if (n->kind != NODE_MAP) {
		if (n->kind == NODE_SEQ || n->n) {
			diag_error(d, &def,
			           "before_step: returned a list; expected a table of option = value");
			node_free(n);
			return -EINVAL;
		}
		node_free(n); /* {} reads as an empty list */
		n = node_new(NODE_MAP, at);
	}
	/* Overrides carry the position of the option they replace. */
	for (size_t i = 0; i < n->n; i++) {
		const struct node *old = node_get(step_opts, n->keys[i]);
		if (old) {
			n->items[i]->pos = old->pos;
			n->kpos[i] = *node_key_pos(step_opts, n->keys[i]);
		}
	}
	*override_opts = n;
	return 0;
}

int lb_after_step(struct lb *B, const struct cell *c, const char *step_name, struct step_result *res,
                  struct diag *d)
{
	struct src_pos def;
	if (!lb_hook_begin(B, "after_step", &def))
		return 0;
	lb_push_step(B, step_name, NULL);
	lb_push_result(B, res);
	lb_push_cell(B, c);
	return lb_pcall_hook(B, 3, 0, "after_step", &def, d);
}

int lb_after_cell(struct lb *B, const struct cell *c, struct step_result *const *results, size_t n,
                  struct diag *d)
{
	struct src_pos def;
	if (!lb_hook_begin(B, "after_cell", &def))
		return 0;
	lua_State *S = B->S;
	lb_push_cell(B, c);
	lua_createtable(S, (int)n, (int)n);
	for (size_t i = 0; i < n; i++) {
		lb_push_result(B, results[i]);
		if (results[i]->step) {
			lua_pushvalue(S, -1);
			lua_setfield(S, -3, results[i]->step);
		}
		lua_rawseti(S, -2, (lua_Integer)i + 1);
	}
	return lb_pcall_hook(B, 2, 0, "after_cell", &def, d);
}

int lb_finish(struct lb *B, const char *outdir, struct diag *d)
{
	struct src_pos def;
	if (!lb_hook_begin(B, "finish", &def))
		return 0;
	lb_push_run(B, outdir);
	return lb_pcall_hook(B, 1, 0, "finish", &def, d);
}

int lb_on_error(struct lb *B, const struct cell *c, const char *err, struct diag *d)
{
	struct src_pos def;
	if (!lb_hook_begin(B, "on_error", &def))
		return 0;
	lua_pushstring(B->S, err ? err : "");
	lb_push_cell(B, c);
	return lb_pcall_hook(B, 2, 0, "on_error", &def, d);
}
