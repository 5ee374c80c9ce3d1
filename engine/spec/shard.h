/* shard: split the run order of a plan into n shares for several hosts
 * (`run --shard i/n`, `plan --shards n`, `slurm`).
 *
 * A share keeps whole run-order groups: consecutive cells that reuse a
 * fixture (the same filesystem, hence the same server) stay together, so
 * fixture reuse still works inside a share. When nothing is worth keeping
 * (no loop or device target and no postgres:), every cell is its own group.
 * Groups go to shares largest first, each to the share with the fewest cells
 * so far (ties: the lower share), so the split is a pure function of the
 * plan: every host computes the same shares. With split_groups, every cell
 * is its own group (more setups: the plan shows how many). */
#ifndef BENCHGRID_SHARD_H
#define BENCHGRID_SHARD_H

#include <stdbool.h>
#include <stddef.h>

#include "cell.h"
#include "spec.h"

struct shard_plan {
	size_t nshards;
	size_t ngroups;      /* run-order groups that were distributed */
	size_t *share_of;    /* per cell of the run order: its share, 0..nshards-1 */
	size_t *ncells;      /* per share: cells */
	size_t *setups;      /* per share: fixture set-ups (a new filesystem or server) */
	size_t setups_whole; /* set-ups of the plan run as one share */
	bool cheap;          /* nothing costly to set up: every cell is a group */
};

/* Split cells (in run order, as plan_build left them) into nshards >= 1
 * shares. 0, or -ENOMEM. */
int shard_plan_build(const struct spec *s, const struct cell *cells, size_t n, size_t nshards,
                     bool split_groups, struct shard_plan *sp);
void shard_plan_free(struct shard_plan *sp);

/* Parse `--shard` (i/n, 0 <= i < n, or "auto") with `--shards N` (0 when not
 * given). auto reads SLURM_ARRAY_TASK_ID and SLURM_ARRAY_TASK_COUNT (n is
 * --shards when given: a resubmission of some tasks counts fewer), or
 * JOB_COMPLETION_INDEX (a Kubernetes Indexed Job) with n from --shards.
 * Returns 0 with *i and *n set, or -EINVAL with a message in err. */
int shard_parse(const char *arg, size_t shards_opt, size_t *i, size_t *n, char *err, size_t errlen);

#endif
