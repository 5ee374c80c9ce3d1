/* clock: the one place benchgrid reads the time.
 *
 * clock_mono() is for durations and deadlines (never jumps); clock_wall()
 * is for timestamps written into results (may jump with NTP). */
#ifndef BENCHGRID_CLOCK_H
#define BENCHGRID_CLOCK_H

/* Seconds since an arbitrary fixed point (CLOCK_MONOTONIC). */
double clock_mono(void);
/* Seconds since the Unix epoch (CLOCK_REALTIME). */
double clock_wall(void);

#endif
