/* hash: FNV-1a, 64 bits: stable ids and hash tables (not for security). */
#ifndef BENCHGRID_HASH_H
#define BENCHGRID_HASH_H

#include <stddef.h>
#include <stdint.h>

#define HASH_FNV1A_INIT 1469598103934665603ULL

/* Continue hash h over n bytes. Start with HASH_FNV1A_INIT. */
uint64_t hash_fnv1a(uint64_t h, const void *p, size_t n);
/* FNV-1a of a NUL-terminated string (without the NUL). */
uint64_t hash_str(const char *s);

#endif
