/* pgb_rand: random numbers for pgbench scripts.
 *
 * A per-client xoshiro256** generator (seeded through splitmix64) and the
 * four distributions of pgbench's script functions, with pgbench's
 * semantics: every result is an integer in [lb, ub].
 *   uniform       random(lb, ub): each value equally likely (unbiased, by
 *                 Lemire's multiply-and-reject method).
 *   exponential   random_exponential(lb, ub, p), p > 0: the value at
 *                 lb + floor((ub-lb+1) * -ln(cut + (1-cut) u) / p), cut =
 *                 e^-p, so lower values are more likely; p is the inverse of
 *                 the decay over the range.
 *   gaussian      random_gaussian(lb, ub, p), p >= 2: a normal deviate (Box-
 *                 Muller) truncated to [-p, p) and mapped onto the range;
 *                 mean is the middle, standard deviation (ub-lb+1)/(2p).
 *   zipfian       random_zipfian(lb, ub, s), 1.001 <= s <= 1000: value k
 *                 (1-based rank) with probability proportional to 1/k^s, by
 *                 Devroye's rejection method (no precomputed tables).
 * Parameter limits are checked by the caller (pgb_script), as pgbench
 * reports them as script errors. */
#ifndef BENCHGRID_PGB_RAND_H
#define BENCHGRID_PGB_RAND_H

#include <stdint.h>

#define PGB_GAUSSIAN_MIN 2.0
#define PGB_ZIPF_MIN     1.001
#define PGB_ZIPF_MAX     1000.0

struct pgb_rng {
	uint64_t s[4];
};

void pgb_rng_seed(struct pgb_rng *r, uint64_t seed);
uint64_t pgb_rng_u64(struct pgb_rng *r);
/* Uniform in [0, 1). */
double pgb_rng_double(struct pgb_rng *r);

int64_t pgb_rand_uniform(struct pgb_rng *r, int64_t lb, int64_t ub);
int64_t pgb_rand_exponential(struct pgb_rng *r, int64_t lb, int64_t ub, double p);
int64_t pgb_rand_gaussian(struct pgb_rng *r, int64_t lb, int64_t ub, double p);
int64_t pgb_rand_zipfian(struct pgb_rng *r, int64_t lb, int64_t ub, double s);

#endif
