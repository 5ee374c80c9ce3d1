/* pgb_rand: generators and distributions for pgbench scripts (see pgb_rand.h). */
#include "pgb_rand.h"

#include <math.h>

static inline uint64_t pgbr_rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

static uint64_t pgbr_splitmix(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

void pgb_rng_seed(struct pgb_rng *r, uint64_t seed)
{
	for (int i = 0; i < 4; i++)
		r->s[i] = pgbr_splitmix(&seed);
}

uint64_t pgb_rng_u64(struct pgb_rng *r)
{
	uint64_t *s = r->s;
	uint64_t out = pgbr_rotl(s[1] * 5, 7) * 9;
	uint64_t t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = pgbr_rotl(s[3], 45);
	return out;
}

double pgb_rng_double(struct pgb_rng *r)
{
	/* 53 random bits: every double in [0,1) on the 2^-53 grid */
	return (double)(pgb_rng_u64(r) >> 11) * 0x1.0p-53;
}

/* Uniform in [0, n) for n >= 1, without modulo bias. */
static uint64_t pgbr_below(struct pgb_rng *r, uint64_t n)
{
	unsigned __int128 m = (unsigned __int128)pgb_rng_u64(r) * n;
	uint64_t lo = (uint64_t)m;

	if (lo < n) {
		uint64_t thresh = -n % n;

		while (lo < thresh) {
			m = (unsigned __int128)pgb_rng_u64(r) * n;
			lo = (uint64_t)m;
		}
	}
	return (uint64_t)(m >> 64);
}

int64_t pgb_rand_uniform(struct pgb_rng *r, int64_t lb, int64_t ub)
{
	if (ub <= lb)
		return lb;
	uint64_t span = (uint64_t)ub - (uint64_t)lb;

	if (span == UINT64_MAX)
		return (int64_t)pgb_rng_u64(r);
	return (int64_t)((uint64_t)lb + pgbr_below(r, span + 1));
}

/* lb + floor(width * f) for f in [0, 1), clamped against rounding at the top. */
static int64_t pgbr_scale(int64_t lb, int64_t ub, double f)
{
	double width = (double)ub - (double)lb + 1.0;
	int64_t off = (int64_t)(width * f);

	if (off > ub - lb)
		off = ub - lb;
	return lb + off;
}

int64_t pgb_rand_exponential(struct pgb_rng *r, int64_t lb, int64_t ub, double p)
{
	double cut = exp(-p);
	/* u in (0, 1] keeps the log finite; f lands in [0, 1) */
	double u = 1.0 - pgb_rng_double(r);
	double f = -log(cut + (1.0 - cut) * u) / p;

	return pgbr_scale(lb, ub, f);
}

int64_t pgb_rand_gaussian(struct pgb_rng *r, int64_t lb, int64_t ub, double p)
{
	double z;

	do {
		double u1 = 1.0 - pgb_rng_double(r); /* (0, 1] */
		double u2 = pgb_rng_double(r);

		z = sqrt(-2.0 * log(u1)) * sin(2.0 * M_PI * u2);
	} while (z < -p || z >= p);
	return pgbr_scale(lb, ub, (z + p) / (2.0 * p));
}

/* Devroye, Non-Uniform Random Variate Generation (1986), p. 550: a Zipf
 * variate on 1..inf by rejection from a Pareto-like proposal, retried while
 * it lands above n. */
int64_t pgb_rand_zipfian(struct pgb_rng *r, int64_t lb, int64_t ub, double s)
{
	int64_t n = ub - lb + 1;

	if (n <= 1)
		return lb;
	double b = pow(2.0, s - 1.0);

	for (;;) {
		double u = 1.0 - pgb_rng_double(r); /* (0, 1]: pow(0, -x) is inf */
		double v = pgb_rng_double(r);
		double x = floor(pow(u, -1.0 / (s - 1.0)));
		double t = pow(1.0 + 1.0 / x, s - 1.0);

		if (x <= (double)n && v * x * (t - 1.0) / (b - 1.0) <= t / b)
			return lb + (int64_t)x - 1;
	}
}
