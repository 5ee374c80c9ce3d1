/* hash: see hash.h. */
#include "hash.h"

#include <string.h>

uint64_t hash_fnv1a(uint64_t h, const void *p, size_t n)
{
	const unsigned char *b = p;
	for (size_t i = 0; i < n; i++)
		h = (h ^ b[i]) * 1099511628211ULL;
	return h;
}

uint64_t hash_str(const char *s)
{
	return hash_fnv1a(HASH_FNV1A_INIT, s, strlen(s));
}
