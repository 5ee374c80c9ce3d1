/* spec_hooks: validation and Lua evaluation that involve other modules. */
#include "spec_hooks.h"

#include <errno.h>
#include <string.h>

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
	(void)s;
	(void)d;
}

void spec_hooks_free_lua(struct spec *s)
{
	(void)s;
}

static int no_lua(const struct node *n, struct diag *d)
{
	if (!n)
		return 0;
	if (n->tag && !strcmp(n->tag, "!lua")) {
		diag_error(d, &n->pos, "!lua values need the Lua bridge, which this build lacks");
		return -EINVAL;
	}
	int bad = 0;
	for (size_t i = 0; i < n->n; i++)
		if (no_lua(n->items[i], d) < 0)
			bad = -EINVAL;
	return bad;
}

int spec_hooks_eval_lua(const struct spec *s, struct node *tree, const struct node *params, struct diag *d)
{
	(void)s;
	(void)params;
	return no_lua(tree, d);
}

int spec_hooks_filter(void *spec, const struct node *expr, const struct node *params, bool *keep,
                      struct diag *d)
{
	(void)spec;
	(void)params;
	*keep = true;
	diag_error(d, &expr->pos, "matrix filter needs the Lua bridge, which this build lacks");
	return -EINVAL;
}

static int check_map(const struct node *n, const char *what, struct diag *d)
{
	if (n && n->kind != NODE_MAP && n->kind != NODE_NULL) {
		diag_error(d, &n->pos, "%s: expected a map, found %s", what, node_kind_name(n->kind));
		return -EINVAL;
	}
	return 0;
}

int spec_hooks_check_sections(const struct spec *s, const struct node *tree, struct diag *d)
{
	(void)s;
	int bad = 0;
	static const char *const secs[] = {"target", "targets", "postgres", "sysctl", "queue", NULL};
	for (int i = 0; secs[i]; i++)
		if (check_map(node_get(tree, secs[i]), secs[i], d) < 0)
			bad = -EINVAL;
	return bad;
}
