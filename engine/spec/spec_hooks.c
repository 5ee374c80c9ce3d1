/* spec_hooks: the Lua bridge for a scenario (see spec_hooks.h). */
#include "spec_hooks.h"

#include <errno.h>
#include <string.h>

#include "lb.h"

bool spec_hooks_has_lua(const struct node *n)
{
	if (!n)
		return false;
	if (n->tag && !strcmp(n->tag, "!lua"))
		return true;
	for (size_t i = 0; i < n->n; i++)
		if (spec_hooks_has_lua(n->items[i]))
			return true;
	return false;
}

void spec_hooks_load_lua(struct spec *s, struct diag *d)
{
	const struct node *root = s->root;
	const struct node *hooks = node_get(root, "hooks"), *hooks_file = node_get(root, "hooks_file");
	if (!hooks && !hooks_file && !spec_hooks_has_lua(root))
		return;
	double budget = 0; /* 0: the bridge's default (10 s per call) */
	const struct node *b = node_get(root, "lua_budget");
	if (b && node_as_duration(b, "lua_budget", false, &budget, d) < 0)
		return;
	s->lua = lb_new(s->file, budget, d);
	if (!s->lua)
		return;
	const char *file = NULL;
	if (hooks_file && node_as_string(hooks_file, "hooks_file", &file, d) < 0)
		return;
	if (hooks && hooks->kind != NODE_SCALAR) {
		diag_error(d, &hooks->pos, "hooks: expected Lua code (a literal block: hooks: |), found %s",
		           node_kind_name(hooks->kind));
		return;
	}
	if (hooks || file)
		lb_load_hooks(s->lua, hooks, file, hooks_file ? &hooks_file->pos : NULL, d);
}

void spec_hooks_free_lua(struct spec *s)
{
	if (s->lua)
		lb_free(s->lua);
	s->lua = NULL;
}

/* What Lua sees as globals: the variables, then the cell's parameters. */
static struct node *lua_globals(const struct spec *s, const struct node *params)
{
	struct node *g = s->vars ? node_clone(s->vars) : node_new(NODE_MAP, NULL);
	for (size_t i = 0; params && i < params->n; i++)
		node_map_put(g, params->keys[i], &params->kpos[i], node_clone(params->items[i]));
	return g;
}

static int eval_lua_tree(const struct spec *s, struct node *tree, const struct node *globals, struct diag *d);

int spec_hooks_eval_lua(const struct spec *s, struct node *tree, const struct node *params, struct diag *d)
{
	if (!spec_hooks_has_lua(tree))
		return 0;
	struct node *g = lua_globals(s, params);
	int rc = eval_lua_tree(s, tree, g, d);
	node_free(g);
	return rc;
}

static int eval_lua_tree(const struct spec *s, struct node *tree, const struct node *params, struct diag *d)
{
	if (!tree)
		return 0;
	int bad = 0;
	for (size_t i = 0; i < tree->n; i++) {
		struct node *it = tree->items[i];
		if (it->kind == NODE_SCALAR && it->tag && !strcmp(it->tag, "!lua")) {
			struct node *out = NULL;
			if (!s->lua || lb_eval(s->lua, it, params, &out, d) < 0) {
				bad = -EINVAL;
				continue;
			}
			node_free(it);
			tree->items[i] = out;
		} else if (eval_lua_tree(s, it, params, d) < 0) {
			bad = -EINVAL;
		}
	}
	return bad;
}

int spec_hooks_filter(void *spec, const struct node *expr, const struct node *params, bool *keep,
                      struct diag *d)
{
	struct spec *s = spec;
	*keep = true;
	if (!s->lua) {
		diag_error(d, &expr->pos, "matrix filter: the Lua state could not be created");
		return -EINVAL;
	}
	struct node *g = lua_globals(s, params);
	int rc = lb_filter(s->lua, expr, g, keep, d);
	node_free(g);
	return rc;
}
