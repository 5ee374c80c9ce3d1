/* clock: see clock.h. */
#include "clock.h"

#include <time.h>

static double clock_read(clockid_t id)
{
	struct timespec ts;
	clock_gettime(id, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

double clock_mono(void)
{
	return clock_read(CLOCK_MONOTONIC);
}

int64_t clock_mono_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

double clock_wall(void)
{
	return clock_read(CLOCK_REALTIME);
}
