/* test_util: small helpers shared by the cmocka tests. */
#ifndef BENCHGRID_TEST_UTIL_H
#define BENCHGRID_TEST_UTIL_H

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
