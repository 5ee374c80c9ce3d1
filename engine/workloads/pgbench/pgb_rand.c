/* pgb_rand: pg_prng and pgbench's distributions and seeding (see pgb_rand.h). */
#include "pgb_rand.h"

#include <math.h>

static uint64_t pgbr_splitmix(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

void pgb_rng_seed(struct pgb_rng *r, uint64_t seed)
{
	r->s0 = pgbr_splitmix(&seed);
	r->s1 = pgbr_splitmix(&seed);
	/* all zeroes is a fixed point: pg_prng substitutes Knuth's LCG constants */
	if (r->s0 == 0 && r->s1 == 0) {
		r->s0 = 0x5851f42d4c957f2dull;
		r->s1 = 0x14057b7ef767814full;
	}
}

double pgb_rng_double(struct pgb_rng *r)
{
	/* pg_prng's ldexp(v >> 12, -52); scaling by a power of two is exact */
	return (double)(pgb_rng_u64(r) >> 12) * 0x1.0p-52;
}

uint64_t pgb_rng_range(struct pgb_rng *r, uint64_t lo, uint64_t hi)
{
	if (hi <= lo)
		return lo;
	uint64_t range = hi - lo, v;
	int shift = __builtin_clzll(range);

	do
		v = pgb_rng_u64(r) >> shift;
	while (v > range);
	return lo + v;
}

int64_t pgb_rand_uniform(struct pgb_rng *r, int64_t lb, int64_t ub)
{
	if (ub <= lb)
		return lb;
	return (int64_t)((uint64_t)lb + pgb_rng_range(r, 0, (uint64_t)ub - (uint64_t)lb));
}

/* lb + (int64)((ub - lb + 1) * f), f in [0, 1): pgbench's own rounding. */
static int64_t pgbr_scale(int64_t lb, int64_t ub, double f)
{
	return lb + (int64_t)((double)(ub - lb + 1) * f);
}

int64_t pgb_rand_exponential(struct pgb_rng *r, int64_t lb, int64_t ub, double p)
{
	double cut = exp(-p);
	double u = 1.0 - pgb_rng_double(r); /* (0, 1] keeps the log finite */

	return pgbr_scale(lb, ub, -log(cut + (1.0 - cut) * u) / p);
}

int64_t pgb_rand_gaussian(struct pgb_rng *r, int64_t lb, int64_t ub, double p)
{
	double z;

	do {
		double u1 = 1.0 - pgb_rng_double(r); /* (0, 1] */
		double u2 = 1.0 - pgb_rng_double(r);

		z = sqrt(-2.0 * log(u1)) * sin(2.0 * M_PI * u2);
	} while (z < -p || z >= p);
	return pgbr_scale(lb, ub, (z + p) / (p * 2.0));
}

/* Devroye, Non-Uniform Random Variate Generation (1986), p. 550: a Zipf
 * variate on 1..inf by rejection from a Pareto-like proposal, retried while
 * it lands above n. u = 0 gives x = inf, which the test rejects. */
int64_t pgb_rand_zipfian(struct pgb_rng *r, int64_t lb, int64_t ub, double s)
{
	int64_t n = ub - lb + 1;

	if (n <= 1)
		return lb;
	double b = pow(2.0, s - 1.0);
	double x;

	for (;;) {
		double u = pgb_rng_double(r);
		double v = pgb_rng_double(r);

		x = floor(pow(u, -1.0 / (s - 1.0)));
		if (x > (double)n) /* tested first (pgbench tests it last): same outcome, cheaper */
			continue;

		double t = pow(1.0 + 1.0 / x, s - 1.0);

		if (v * x * (t - 1.0) / (b - 1.0) <= t / b)
			break;
	}
	return lb - 1 + (int64_t)x;
}

int64_t pgb_rand_poisson(struct pgb_rng *r, double center)
{
	double u = 1.0 - pgb_rng_double(r);

	return (int64_t)(-log(u) * center + 0.5);
}

double pgb_rand_throttle_us(double rate, int nthreads)
{
	double delay = 1000000.0 / rate;

	return delay * nthreads;
}

int pgb_rand_thread_nclients(int nclients, int nthreads, int i)
{
	return nclients / nthreads + (i < nclients % nthreads);
}

int pgb_rand_thread_first(int nclients, int nthreads, int i)
{
	int extra = nclients % nthreads;

	return i * (nclients / nthreads) + (i < extra ? i : extra);
}

void pgb_seeder_init(struct pgb_seeder *s, uint64_t seed)
{
	pgb_rng_seed(&s->base, seed);
}

void pgb_seeder_next(struct pgb_seeder *s, struct pgb_rng *out)
{
	pgb_rng_seed(out, pgb_rng_u64(&s->base));
}

int64_t pgb_seeder_default_seed(struct pgb_seeder *s)
{
	return (int64_t)pgb_rng_u64(&s->base);
}

void pgb_rand_seed_run(uint64_t seed, int nclients, int nthreads, bool default_seed_defined,
                       struct pgb_rng *clients, struct pgb_thread_rngs *threads, int64_t *default_seed)
{
	struct pgb_seeder sd;

	pgb_seeder_init(&sd, seed);
	for (int i = 0; i < nclients; i++)
		pgb_seeder_next(&sd, &clients[i]);
	if (!default_seed_defined)
		*default_seed = pgb_seeder_default_seed(&sd);
	for (int i = 0; i < nthreads; i++) {
		pgb_seeder_next(&sd, &threads[i].choose);
		pgb_seeder_next(&sd, &threads[i].throttle);
		pgb_seeder_next(&sd, &threads[i].sample);
	}
}
