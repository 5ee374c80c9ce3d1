/* run_order: how the repetitions of a sweep are scheduled.
 *
 *   repeat: N                          N recorded runs of every cell
 *   repeat: {min: 3, max: 15, until: 2%, metrics: [ro.tps]}
 *                                      runs until the 95% confidence interval
 *                                      of the mean of each metric is within
 *                                      `until` percent of the mean, at least
 *                                      min and at most max times
 *   run_order: grouped | interleave | random
 *   run_order_seed: N                  the shuffle of `random` (else --seed,
 *                                      else the clock; always recorded)
 *
 * The sequence of (cell, repetition) slots is a pure function of the cells,
 * the number of repetitions, the order and the seed, so `plan` shows what a
 * run does and what it costs in set-ups. */
#ifndef BENCHGRID_RUN_ORDER_H
#define BENCHGRID_RUN_ORDER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cell.h"
#include "diag.h"
#include "node.h"

enum run_order { RUN_ORDER_GROUPED, RUN_ORDER_INTERLEAVE, RUN_ORDER_RANDOM };

/* The names of enum run_order, NULL-terminated. */
extern const char *const run_order_names[];

/* The `repeat:` section in either form. A plain count N is min = max = N
 * with until_pct 0. */
struct repeat_spec {
	int64_t min, max;
	double until_pct; /* > 0: stop when converged; 0: always max */
	char **metrics;   /* "step.metric" names, or none: headline metrics */
	size_t nmetrics;
	uint64_t fingerprint; /* what --resume compares: N itself for a count */
};

/* Read `repeat:` of the scenario's root (absent: 1). Errors at the node's
 * position; 0 or -EINVAL. */
int repeat_spec_read(const struct node *root, struct repeat_spec *r, struct diag *d);
void repeat_spec_free(struct repeat_spec *r);

/* Read `run_order:` and `run_order_seed:` of the root: *has_seed tells
 * whether a seed was given. 0 or -EINVAL. */
int run_order_read(const struct node *root, enum run_order *o, bool *has_seed, uint64_t *seed,
                   struct diag *d);

/* One slot: repetition `rep` (0-based) of cell `cell` (an index of the
 * cells array given to run_order_build). */
struct run_slot {
	size_t cell;
	size_t rep;
};

/* The slots of cells `which[0..n)` (indices into the caller's cells, in run
 * order) with `reps` repetitions each: grouped runs every repetition of a
 * cell before the next cell; interleave runs repetition 1 of every cell,
 * then repetition 2, ...; random shuffles all slots (splitmix64 from seed,
 * Fisher-Yates) and numbers each cell's repetitions in the order they come.
 * n * reps slots into *nslots; NULL when out of memory (or nothing). */
struct run_slot *run_order_build(const size_t *which, size_t n, size_t reps, enum run_order o, uint64_t seed,
                                 size_t *nslots);

/* What a sequence costs: set-ups assume that consecutive slots whose cells
 * share a filesystem (fs_key) keep it, and a server (pg_key) too. */
struct run_order_cost {
	size_t setups;   /* a new filesystem or server (as shard.h counts) */
	size_t switches; /* a slot of another cell than the one before: its
	                  * before-cell set-up runs again (and `reinit: per-cell`
	                  * loads the data again) */
};
void run_order_cost(const struct cell *cells, const struct run_slot *seq, size_t nslots, bool has_pg,
                    struct run_order_cost *cost);

/* For `plan`, when the scenario sets run_order: one line "# run order:
 * ..." with the repetitions, slots, set-ups and cell set-ups of its order,
 * and what grouped would cost (root: the scenario's). Nothing when the keys are bad (check reports
 * them). */
void run_order_print_cost(const struct node *root, const struct cell *cells, size_t n, FILE *out);

#endif
