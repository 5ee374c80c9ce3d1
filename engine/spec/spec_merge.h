/* spec_merge: the deep merge of `include:` (docs/scenario.md, "Including
 * other files").
 *
 * Maps merge key by key, recursively; a list, a scalar or a null of `over`
 * replaces what `base` has; the axes (and zip, exclude, include, filter) of
 * the top-level `matrix:` may be added by over but one defined in both is
 * an error unless both are identical. Every node keeps the position where
 * it was written. */
#ifndef BENCHGRID_SPEC_MERGE_H
#define BENCHGRID_SPEC_MERGE_H

#include "diag.h"
#include "node.h"

/* Merge the top-level map `over` into the top-level map `base`; over is
 * consumed (freed). 0, or -EINVAL with an error at each clash. */
int spec_merge(struct node *base, struct node *over, struct diag *d);

#endif
