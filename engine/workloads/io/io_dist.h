/* io_dist: where random I/O goes (`random_distribution`) and how large each
 * I/O is (`bssplit`), with fio's semantics (docs/steps/io.md, "Access
 * distributions and block-size splits").
 *
 * Without either option nothing here runs: random offsets come from the
 * permutation in io_job.h and every I/O is `bs` long. With a distribution,
 * each random I/O draws a rank in [0, nblocks) from it (zipf, pareto, normal
 * as fio's lib/zipf.c and lib/gauss.c define them; zoned: a zone by its
 * share of the I/O, then a uniform block inside the zone) and, for zipf,
 * pareto and normal, scatters the rank over the file with a fixed keyed
 * bijection (fio uses a hash, which can merge two ranks on one block). */
#ifndef BENCHGRID_IO_DIST_H
#define BENCHGRID_IO_DIST_H

#include <stdint.h>

#include "io_dist_types.h"

/* Set up a generator over n ranks; 0 or -ENOMEM / -EINVAL. */
int io_dist_init(struct io_dist_state *s, const struct io_dist_opts *o, uint64_t n, uint64_t seed);
/* The next rank, before scattering (zipf, pareto, normal) / the block (zoned). */
uint64_t io_dist_rank(struct io_dist_state *s);
/* Rank -> block: the scatter (a bijection of [0, n)); identity for zoned. */
uint64_t io_dist_scatter(const struct io_dist_state *s, uint64_t rank);
/* The next block. */
static inline uint64_t io_dist_block(struct io_dist_state *s)
{
	uint64_t r = io_dist_rank(s);
	return s->kind == IO_DIST_ZONED ? r : io_dist_scatter(s, r);
}

/* zeta(n, theta) = sum 1/i^theta, i = 1..n (exact to 1e6 terms, then the
 * midpoint integral of the tail). */
double io_dist_zeta(uint64_t n, double theta);

#endif
