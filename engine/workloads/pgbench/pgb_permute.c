/* pgb_permute: pgbench's permute() (see pgb_permute.h). */
#include "pgb_permute.h"

#include "pgb_rand.h"

/* One invertible step on v in [0, mask]: odd multiply, XOR, rotate left by
 * one within masklen bits (the rotation moves the weak low bits up). */
static uint64_t pgbp_mix(uint64_t v, uint64_t m, uint64_t r, uint64_t mask, int masklen)
{
	v = ((v * m) ^ r) & mask;
	return ((v << 1) & mask) | (v >> (masklen - 1));
}

int64_t pgb_permute(int64_t val, int64_t isize, int64_t seed)
{
	if (isize < 2)
		return 0;

	struct pgb_rng rng;
	uint64_t size = (uint64_t)isize;
	uint64_t v = (uint64_t)val % size;
	int masklen = 63 - __builtin_clzll(size);
	uint64_t mask = (1ull << masklen) - 1;

	pgb_rng_seed(&rng, (uint64_t)seed);
	for (int i = 0; i < 6; i++) {
		/* the draws happen whether or not the value is in the part */
		uint64_t m = (pgb_rng_u64(&rng) & mask) | 1;
		uint64_t r = pgb_rng_u64(&rng) & mask;

		if (v <= mask)
			v = pgbp_mix(v, m, r, mask, masklen);
		m = (pgb_rng_u64(&rng) & mask) | 1;
		r = pgb_rng_u64(&rng) & mask;

		uint64_t t = size - 1 - v;

		if (t <= mask)
			v = size - 1 - pgbp_mix(t, m, r, mask, masklen);
		v = (v + pgb_rng_range(&rng, 0, size - 1)) % size;
	}
	return (int64_t)v;
}
