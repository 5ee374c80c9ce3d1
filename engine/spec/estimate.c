/* estimate: declared step durations (see estimate.h). */
#include "estimate.h"

#include <string.h>

#include "units.h"

double estimate_declared_seconds(const struct node *n)
{
	double sum = 0;
	if (!n)
		return 0;
	if (n->kind == NODE_MAP)
		for (size_t i = 0; i < n->n; i++) {
			double t;
			if ((!strcmp(n->keys[i], "runtime") || !strcmp(n->keys[i], "duration")) &&
			    n->items[i]->kind == NODE_SCALAR &&
			    units_parse_duration(n->items[i]->text, &t, NULL, 0) == 0)
				sum += t;
			else
				sum += estimate_declared_seconds(n->items[i]);
		}
	else if (n->kind == NODE_SEQ)
		for (size_t i = 0; i < n->n; i++)
			sum += estimate_declared_seconds(n->items[i]);
	return sum;
}

double estimate_cell_seconds(const struct spec *s, const struct cell *c, int64_t repeat, int64_t warmup)
{
	struct diag d;
	diag_init(&d);
	struct node *tree = spec_cell_tree(s, c, true, &d);
	/* A tree that cannot be built (a run-time value) falls back to the
	 * scenario's steps as written. */
	double t = estimate_declared_seconds(node_get(tree ? tree : s->root, "steps"));
	node_free(tree);
	diag_free(&d);
	return t * (double)(repeat + warmup);
}
