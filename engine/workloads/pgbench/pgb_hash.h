/* pgb_hash: pgbench 15's hash functions for scripts.
 *
 * hash(v [, seed]) is hash_murmur2; the default seed is the script's
 * :default_seed. Both give pgbench's exact 64-bit results (two's-complement
 * wrap-around, as pgbench is built with -fwrapv).
 *   pgb_hash_murmur2  MurmurHash64A of the 8 bytes of v (Appleby's mixing).
 *   pgb_hash_fnv1a    FNV-1a over the 8 bytes of v, lowest byte first, with
 *                     the offset basis XORed with the seed. */
#ifndef BENCHGRID_PGB_HASH_H
#define BENCHGRID_PGB_HASH_H

#include <stdint.h>

int64_t pgb_hash_murmur2(int64_t v, int64_t seed);
int64_t pgb_hash_fnv1a(int64_t v, int64_t seed);

#endif
