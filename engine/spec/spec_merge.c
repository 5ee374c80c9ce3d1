/* spec_merge: the deep merge of included files (see spec_merge.h). */
#include "spec_merge.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static size_t key_index(const struct node *map, const char *key)
{
	for (size_t i = 0; i < map->n; i++)
		if (!strcmp(map->keys[i], key))
			return i;
	return map->n;
}

/* Put over's value k in base's slot i (taking it), with its position. */
static void replace(struct node *base, size_t i, struct node *over, size_t k)
{
	node_free(base->items[i]);
	base->items[i] = over->items[k];
	base->kpos[i] = over->kpos[k];
	over->items[k] = NULL;
}

/* A matrix key in both files: only identical values may meet (an axis
 * that replaced another would silently change the sweep). */
static int merge_matrix_key(struct node *base, size_t i, struct node *over, size_t k, struct diag *d)
{
	if (node_equal(base->items[i], over->items[k])) {
		replace(base, i, over, k);
		return 0;
	}
	const struct src_pos *bp = &base->kpos[i];
	diag_error(d, &over->kpos[k],
	           "matrix: '%s' is defined in %s:%d:%d too, with other values; an including file may "
	           "add matrix axes but not replace one (remove one of them, or make them identical)",
	           over->keys[k], bp->file ? bp->file : "?", bp->line, bp->col);
	diag_add(d, DIAG_NOTE, bp, "the other '%s' of the matrix", base->keys[i]);
	return -EINVAL;
}

static int merge_maps(struct node *base, struct node *over, int level, bool in_matrix, struct diag *d)
{
	int bad = 0;
	base->pos = over->pos; /* the map as the including file writes it */
	if (over->tag) {
		free(base->tag);
		base->tag = strdup(over->tag);
	}
	for (size_t k = 0; k < over->n; k++) {
		size_t i = key_index(base, over->keys[k]);
		struct node *ov = over->items[k];
		if (i == base->n) {
			node_map_put(base, over->keys[k], &over->kpos[k], ov);
			over->items[k] = NULL;
			continue;
		}
		struct node *bv = base->items[i];
		bool matrix = level == 0 && !strcmp(over->keys[k], "matrix");
		if (in_matrix || (matrix && (bv->kind != NODE_MAP || ov->kind != NODE_MAP))) {
			if (merge_matrix_key(base, i, over, k, d) < 0)
				bad = -EINVAL;
		} else if (bv->kind == NODE_MAP && ov->kind == NODE_MAP) {
			base->kpos[i] = over->kpos[k];
			if (merge_maps(bv, ov, level + 1, matrix, d) < 0)
				bad = -EINVAL;
		} else {
			replace(base, i, over, k);
		}
	}
	return bad;
}

int spec_merge(struct node *base, struct node *over, struct diag *d)
{
	int rc = merge_maps(base, over, 0, false, d);
	node_free(over);
	return rc;
}
