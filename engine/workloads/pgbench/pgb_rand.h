/* pgb_rand: random numbers for pgbench scripts, draw for draw pgbench 15's.
 *
 * The generator is PostgreSQL's pg_prng: xoroshiro128** 1.0 (Blackman and
 * Vigna) with a 128-bit state filled from a 64-bit seed by two splitmix64
 * steps. With the same seed a benchgrid run draws the same numbers as
 * `pgbench --random-seed`, per client and per function, because both the
 * distributions and the seeding below are pgbench's:
 *   uniform       random(lb, ub): lb + an offset in [0, ub-lb] by bitmask
 *                 rejection (pg_prng_uint64_range: the top bits of a draw,
 *                 redrawn while above the range; no draw when lb == ub).
 *   exponential   random_exponential(lb, ub, p), p > 0: lb + (int)((ub-lb+1)
 *                 * -ln(cut + (1-cut) u) / p), cut = e^-p, u in (0, 1].
 *   gaussian      random_gaussian(lb, ub, p), p >= 2: Box-Muller (one sine
 *                 deviate from two draws), redrawn until in [-p, p), mapped
 *                 onto the range.
 *   zipfian       random_zipfian(lb, ub, s), 1.001 <= s <= 1000: Devroye's
 *                 rejection method, retried while above the range.
 *   poisson       the `rate` schedule: -ln(u) * center + 0.5 truncated, in
 *                 pgbench's microseconds.
 * Doubles are 52-bit: (draw >> 12) * 2^-52, in [0, 1).
 * Parameter limits are checked by the caller, as pgbench reports them as
 * script errors.
 *
 * Seeding (pgbench's main()): a base sequence is seeded with the run's seed;
 * each further generator is seeded with the next draw of the base, in this
 * order: every client's function generator (client 0 first), then
 * :default_seed (one draw, unless the script defines it), then for each
 * thread its choose (script choice), throttle (`rate` schedule) and sample
 * (log sampling) generators. Thread i runs a contiguous block of clients,
 * the earlier threads taking one more when they do not divide evenly;
 * there are never more threads than clients. :random_seed is the seed
 * itself, as a signed 64-bit value. */
#ifndef BENCHGRID_PGB_RAND_H
#define BENCHGRID_PGB_RAND_H

#include <stdbool.h>
#include <stdint.h>

#define PGB_GAUSSIAN_MIN 2.0
#define PGB_ZIPF_MIN     1.001
#define PGB_ZIPF_MAX     1000.0

/* pg_prng_state */
struct pgb_rng {
	uint64_t s0, s1;
};

/* pg_prng_seed */
void pgb_rng_seed(struct pgb_rng *r, uint64_t seed);

/* pg_prng_uint64: one step of xoroshiro128** */
static inline uint64_t pgb_rng_u64(struct pgb_rng *r)
{
	uint64_t s0 = r->s0, sx = r->s1 ^ s0;
	uint64_t m = s0 * 5;
	uint64_t out = ((m << 7) | (m >> 57)) * 9;

	r->s0 = ((s0 << 24) | (s0 >> 40)) ^ sx ^ (sx << 16);
	r->s1 = (sx << 37) | (sx >> 27);
	return out;
}

/* pg_prng_double: uniform in [0, 1), 52 bits. */
double pgb_rng_double(struct pgb_rng *r);
/* pg_prng_uint64_range: uniform in [lo, hi]; lo (and no draw) if hi <= lo. */
uint64_t pgb_rng_range(struct pgb_rng *r, uint64_t lo, uint64_t hi);

int64_t pgb_rand_uniform(struct pgb_rng *r, int64_t lb, int64_t ub);
int64_t pgb_rand_exponential(struct pgb_rng *r, int64_t lb, int64_t ub, double p);
int64_t pgb_rand_gaussian(struct pgb_rng *r, int64_t lb, int64_t ub, double p);
int64_t pgb_rand_zipfian(struct pgb_rng *r, int64_t lb, int64_t ub, double s);
/* getPoissonRand: a delay >= 0 whose mean is center (pgbench: microseconds). */
int64_t pgb_rand_poisson(struct pgb_rng *r, double center);
/* pgbench's per-thread mean delay between scheduled transactions, in
 * microseconds, for `rate` transactions per second over nthreads threads. */
double pgb_rand_throttle_us(double rate, int nthreads);

/* The generators of one thread. */
struct pgb_thread_rngs {
	struct pgb_rng choose, throttle, sample;
};

/* pgbench's base_random_sequence: each next() seeds one generator with the
 * base's next draw (initRandomState); default_seed() is the one plain draw
 * for :default_seed. Call them in pgbench's order (see above). */
struct pgb_seeder {
	struct pgb_rng base;
};

void pgb_seeder_init(struct pgb_seeder *s, uint64_t seed);
void pgb_seeder_next(struct pgb_seeder *s, struct pgb_rng *out);
int64_t pgb_seeder_default_seed(struct pgb_seeder *s);

/* The run's generators from one seed, in pgbench's order (see above).
 * clients[nclients], threads[nthreads] (nthreads already <= nclients);
 * *default_seed is drawn unless default_seed_defined (then left alone). */
void pgb_rand_seed_run(uint64_t seed, int nclients, int nthreads, bool default_seed_defined,
                       struct pgb_rng *clients, struct pgb_thread_rngs *threads, int64_t *default_seed);
/* The number of clients of thread i, and its first client. */
int pgb_rand_thread_nclients(int nclients, int nthreads, int i);
int pgb_rand_thread_first(int nclients, int nthreads, int i);

#endif
