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

double clock_wall(void)
{
	return clock_read(CLOCK_REALTIME);
}

void clock_mono_timespec(double mono, struct timespec *ts)
{
	ts->tv_sec = (time_t)mono;
	ts->tv_nsec = (long)((mono - (double)ts->tv_sec) * 1e9);
	if (ts->tv_nsec >= 1000000000L) {
		ts->tv_sec++;
		ts->tv_nsec -= 1000000000L;
	}
}
