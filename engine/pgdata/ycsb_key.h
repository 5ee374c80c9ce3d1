/* ycsb_key: YCSB's record names, shared by the usertable loader
 * (ycsb_init.c) and the ycsb-like scripts' ycsb_hash() (workloads/pgbench):
 * record k is "user" + fnvhash64(k) (YCSB's insertorder=hashed), fnvhash64
 * being YCSB's Utils.fnvhash64: FNV-1a 64 over the value's 8 bytes, low
 * byte first, then Java's Math.abs of the signed result. */
#ifndef BENCHGRID_YCSB_KEY_H
#define BENCHGRID_YCSB_KEY_H

#include <stdint.h>

static inline int64_t ycsb_fnv64(int64_t v)
{
	uint64_t h = 0xCBF29CE484222325ULL, x = (uint64_t)v;
	for (int i = 0; i < 8; i++) {
		h ^= x & 0xff;
		x >>= 8;
		h *= 1099511628211ULL;
	}
	int64_t s = (int64_t)h;
	return s < 0 && s != INT64_MIN ? -s : s;
}

#endif
