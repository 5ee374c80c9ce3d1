/* pgb_permute: pgbench 15's permute(i, size [, seed]).
 *
 * A pseudorandom bijection of [0, size) chosen by seed, applied to
 * i mod size: six rounds of an odd multiply, XOR and rotate modulo the
 * largest power of two <= size on the lower and (mirrored) upper part of
 * the range, then a random offset modulo size, the round constants drawn
 * from a pg_prng generator seeded with seed. Exactly pgbench's results;
 * size < 2 gives 0. The default seed is the script's :default_seed. */
#ifndef BENCHGRID_PGB_PERMUTE_H
#define BENCHGRID_PGB_PERMUTE_H

#include <stdint.h>

int64_t pgb_permute(int64_t val, int64_t size, int64_t seed);

#endif
