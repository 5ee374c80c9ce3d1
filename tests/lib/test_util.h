/* test_util: small helpers shared by the cmocka tests. */
#ifndef BENCHGRID_TEST_UTIL_H
#define BENCHGRID_TEST_UTIL_H

#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include "diag.h"

/* Monotonic seconds, for timing assertions. */
static inline double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* xorshift64*: deterministic random numbers, so that a failure can be
 * reproduced; *state must not be 0. */
static inline uint64_t test_rng(uint64_t *state)
{
	*state ^= *state >> 12;
	*state ^= *state << 25;
	*state ^= *state >> 27;
	return *state * 2685821657736338717ull;
}

/* qsort's comparison of uint64_t values. */
static inline int test_cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

/* All diagnostics as one string, for assertions and failure messages. */
static inline const char *diag_text(const struct diag *d)
{
	static char buf[8192];
	size_t o = 0;
	buf[0] = 0;
	for (size_t i = 0; i < d->n && o < sizeof(buf) - 1; i++) {
		char one[2048];
		diag_format_one(&d->v[i], one, sizeof(one));
		o += (size_t)snprintf(buf + o, sizeof(buf) - o, "%s\n", one);
	}
	return buf;
}

#endif
