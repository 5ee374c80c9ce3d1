/* pgb_hash: pgbench's hash_murmur2 and hash_fnv1a (see pgb_hash.h). */
#include "pgb_hash.h"

#define PGBH_FNV_PRIME  0x100000001b3ull
#define PGBH_FNV_OFFSET 0xcbf29ce484222325ull
#define PGBH_MM2_MUL    0xc6a4a7935bd1e995ull
#define PGBH_MM2_ROT    47

int64_t pgb_hash_murmur2(int64_t v, int64_t seed)
{
	/* the initial state mixes in the key length, 8 bytes */
	uint64_t h = (uint64_t)seed ^ (PGBH_MM2_MUL * 8);
	uint64_t k = (uint64_t)v;

	k *= PGBH_MM2_MUL;
	k ^= k >> PGBH_MM2_ROT;
	k *= PGBH_MM2_MUL;
	h ^= k;
	h *= PGBH_MM2_MUL;
	h ^= h >> PGBH_MM2_ROT;
	h *= PGBH_MM2_MUL;
	h ^= h >> PGBH_MM2_ROT;
	return (int64_t)h;
}

int64_t pgb_hash_fnv1a(int64_t v, int64_t seed)
{
	uint64_t h = PGBH_FNV_OFFSET ^ (uint64_t)seed;
	uint64_t bytes = (uint64_t)v;

	for (int i = 0; i < 8; i++) {
		h ^= bytes & 0xff;
		h *= PGBH_FNV_PRIME;
		bytes >>= 8;
	}
	return (int64_t)h;
}
