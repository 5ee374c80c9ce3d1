/* io_dist: the generators of random_distribution and the bssplit table
 * (see io_dist.h). The per-I/O cost is one call per random I/O, and only
 * when a distribution is set. */
#include "io_dist.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* xorshift64*, the generators' own */
static inline uint64_t io_dist_rand(uint64_t *s)
{
	uint64_t x = *s;
	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*s = x;
	return x * 2685821657736338717ull;
}

/* A uniform double in [0, 1). */
static inline double io_dist_u(uint64_t *rng)
{
	return (double)(io_dist_rand(rng) >> 11) * 0x1.0p-53;
}

double io_dist_zeta(uint64_t n, double theta)
{
	const uint64_t exact = 1000000;
	double z = 0;
	uint64_t m = n < exact ? n : exact;
	for (uint64_t i = m; i >= 1; i--) /* small terms first */
		z += pow((double)i, -theta);
	if (n > m) /* sum of i^-theta, i = m+1..n ~ integral over [m+0.5, n+0.5] */
		z += (pow((double)n + 0.5, 1 - theta) - pow((double)m + 0.5, 1 - theta)) / (1 - theta);
	return z;
}

static void io_dist_scatter_init(struct io_dist_state *s)
{
	unsigned bits = 0;
	while (bits < 64 && (1ull << bits) < s->n)
		bits++;
	s->mask = bits >= 64 ? UINT64_MAX : (1ull << bits) - 1;
	s->shift = bits / 2 ? bits / 2 : 1;
	s->key = io_dist_rand(&s->rng);
}

/* A bijection of [0, mask]: xor with the key, odd multiplications and
 * xor-shifts, each invertible modulo a power of two. */
static inline uint64_t io_dist_mix(const struct io_dist_state *s, uint64_t x)
{
	x = (x ^ s->key) & s->mask;
	x = (x * 0x9e3779b97f4a7c15ull) & s->mask;
	x ^= x >> s->shift;
	x = (x * 0xc2b2ae3d27d4eb4full) & s->mask;
	x ^= x >> s->shift;
	return x;
}

uint64_t io_dist_scatter(const struct io_dist_state *s, uint64_t rank)
{
	/* cycle walking: the orbit of rank < n comes back below n */
	uint64_t x = io_dist_mix(s, rank);
	while (x >= s->n)
		x = io_dist_mix(s, x);
	return x;
}

static void io_dist_zones_init(struct io_dist_state *s, const struct io_dist_opts *o)
{
	unsigned pct = 0, cum = 0;
	for (unsigned z = 0; z < o->nzones; z++) {
		for (unsigned k = 0; k < o->zone_io[z] && pct < 100; k++)
			s->zone_of_pct[pct++] = (unsigned char)z;
		uint64_t a = s->n * cum / 100, b = s->n * (cum + o->zone_range[z]) / 100;
		cum += o->zone_range[z];
		if (b <= a) { /* fewer blocks than zones: at least one each */
			a = a < s->n ? a : s->n - 1;
			b = a + 1;
		}
		s->zone_start[z] = a;
		s->zone_len[z] = b - a;
	}
	while (pct < 100) /* parse guarantees a sum of 100 */
		s->zone_of_pct[pct++] = (unsigned char)(o->nzones - 1);
}

int io_dist_init(struct io_dist_state *s, const struct io_dist_opts *o, uint64_t n, uint64_t seed)
{
	memset(s, 0, sizeof(*s));
	if (n < 1)
		return -EINVAL;
	s->kind = o->kind;
	s->n = n;
	uint64_t x = (seed + 0xd157) * 0x9e3779b97f4a7c15ull;
	x ^= x >> 31;
	x *= 0xd6e8feb86659fd93ull;
	x ^= x >> 32;
	s->rng = x ? x : 1; /* xorshift must not start at 0 */
	io_dist_scatter_init(s);
	switch (o->kind) {
	case IO_DIST_ZIPF:
		/* Gray et al., "Quickly generating billion-record synthetic
		 * databases" (SIGMOD 1994), as fio's lib/zipf.c uses it */
		s->theta = o->param;
		s->zetan = io_dist_zeta(n, s->theta);
		s->zeta2 = 1.0 + pow(0.5, s->theta);
		s->alpha = 1.0 / (1.0 - s->theta);
		s->eta = (1.0 - pow(2.0 / (double)n, 1.0 - s->theta)) / (1.0 - s->zeta2 / s->zetan);
		break;
	case IO_DIST_PARETO: s->pareto_pow = log(o->param) / log(1.0 - o->param); break;
	case IO_DIST_NORMAL:
		if (o->param > 0) {
			s->sd = (uint64_t)ceil((double)n * o->param / 100.0);
			if (s->sd > n / 2)
				s->sd = n / 2;
		}
		break;
	case IO_DIST_ZONED: io_dist_zones_init(s, o); break;
	default: return -EINVAL;
	}
	return 0;
}

static uint64_t io_dist_zipf(struct io_dist_state *s)
{
	double u = io_dist_u(&s->rng), z = u * s->zetan;
	if (z < 1.0)
		return 0;
	if (z < s->zeta2)
		return 1;
	double v = (double)s->n * pow(s->eta * u - s->eta + 1.0, s->alpha);
	uint64_t r = v < (double)s->n ? (uint64_t)v : s->n - 1;
	return r;
}

/* fio's "normal": the mean of 12 uniform draws of [0, n] (rounded up), then
 * a uniform deviation of width sigma% of n, halved until it stays inside. */
static uint64_t io_dist_normal(struct io_dist_state *s)
{
	uint64_t sum = 0;
	for (int i = 0; i < 12; i++)
		sum += io_dist_rand(&s->rng) % (s->n + 1);
	int64_t v = (int64_t)((sum + 11) / 12);
	if (s->sd) {
		int64_t dev = (int64_t)(io_dist_rand(&s->rng) % s->sd) - (int64_t)(s->sd / 2);
		while (dev && (v + dev >= (int64_t)s->n || v + dev < 0))
			dev /= 2;
		v += dev;
	}
	return (uint64_t)v % s->n;
}

uint64_t io_dist_rank(struct io_dist_state *s)
{
	switch (s->kind) {
	case IO_DIST_ZIPF: return io_dist_zipf(s);
	case IO_DIST_PARETO: return (uint64_t)((double)(s->n - 1) * pow(io_dist_u(&s->rng), s->pareto_pow));
	case IO_DIST_NORMAL: return io_dist_normal(s);
	case IO_DIST_ZONED: {
		unsigned z = s->zone_of_pct[io_dist_rand(&s->rng) % 100];
		return s->zone_start[z] + io_dist_rand(&s->rng) % s->zone_len[z];
	}
	default: return io_dist_rand(&s->rng) % s->n;
	}
}
