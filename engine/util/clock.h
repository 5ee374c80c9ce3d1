/* clock: the one place benchgrid reads the time.
 *
 * clock_mono() is for durations and deadlines (never jumps); clock_wall()
 * is for timestamps written into results (may jump with NTP). */
#ifndef BENCHGRID_CLOCK_H
#define BENCHGRID_CLOCK_H

#include <stdint.h>
#include <time.h>

/* Seconds since an arbitrary fixed point (CLOCK_MONOTONIC). */
double clock_mono(void);

struct timespec;
/* A clock_mono() time as an absolute CLOCK_MONOTONIC timespec (for
 * pthread_cond_timedwait on a condition whose clock is monotonic). */
void clock_mono_timespec(double mono, struct timespec *ts);
/* Nanoseconds since the same point as clock_mono(), exact (a double loses
 * nanoseconds after ~104 days of uptime): for per-I/O latencies. */
static inline int64_t clock_mono_ns(void)
{
	/* Inline: it is read twice per I/O and per transaction. */
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}
/* Seconds since the Unix epoch (CLOCK_REALTIME). */
double clock_wall(void);

#endif
