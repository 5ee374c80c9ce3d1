/* target_cost: what one target costs a plan, as its kind says
 * (fixtures/fs/target_ops.h: `estimate`) and spec's estimate reads it
 * (spec/estimate_target.h). Here because spec may not include fixtures. */
#ifndef BENCHGRID_TARGET_COST_H
#define BENCHGRID_TARGET_COST_H

#include <stdbool.h>
#include <stdint.h>

#include "node.h"

struct target_cost {
	bool mkfs;        /* the target makes a file system (counted in plan's set-ups) */
	uint64_t bytes;   /* bytes it takes in the work directory (a loop image) */
	bool outside;     /* it takes space elsewhere (image_dir:, path:) */
	bool holds_files; /* the cell's files, and a server's data, land in the work directory */
};

/* The cost of target t (an interpolated map; raw_io: an io step uses
 * file: "@device"). c is zeroed by the caller. */
typedef void (*target_cost_fn)(const struct node *t, bool raw_io, struct target_cost *c);

#endif
