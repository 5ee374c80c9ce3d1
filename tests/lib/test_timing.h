/* test_timing: judge a wall-clock feature (a time budget, a stop flag, a
 * timeout) by the time the thread was actually given after its deadline
 * (issue 26).
 *
 * A loaded machine can hold a ready thread off every CPU for seconds, so a
 * fixed wall-clock margin past a deadline fails there though nothing is
 * wrong. The kernel counts that wait: the second field of
 * /proc/self/task/TID/schedstat is the time the thread spent on a run queue,
 * ready but not running. The wall time after the deadline less the wait
 * after it is what the code itself took to stop (running, or sleeping as it
 * chose to), and that is what a margin bounds.
 *
 * The deadline is marked from another thread (a marker sleeping until it,
 * or the thread that sets a stop flag), which reads the timed thread's wait
 * at that moment. A marker that is itself late only shortens the part
 * judged: a check can miss an overshoot on a very busy machine, never fail
 * without one. Without schedstat the timed thread's CPU time stands in (for
 * a thread that spins, the same; for one that sleeps, stricter). */
#ifndef BENCHGRID_TEST_TIMING_H
#define BENCHGRID_TEST_TIMING_H

#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "test_util.h"

struct stopwatch {
	long tid;                           /* the timed thread */
	clockid_t cpu;                      /* its CPU clock */
	double wall0;                       /* stopwatch_start */
	double mark_in;                     /* the marker's delay after wall0 */
	pthread_t marker;                   /* stopwatch_mark_in's thread */
	bool marking;                       /* it runs */
	double mark_wall;                   /* the deadline as marked: when, */
	double mark_runq;                   /* the timed thread's run-queue wait then (-1: none), */
	double mark_cpu;                    /* and its CPU time */
	double end_wall, end_runq, end_cpu; /* stopwatch_stop */
};

/* Seconds thread tid has waited on a run queue; -1 without schedstat. */
static inline double thread_runq_s(long tid)
{
	char path[64];
	snprintf(path, sizeof(path), "/proc/self/task/%ld/schedstat", tid);
	FILE *f = fopen(path, "re");
	if (!f)
		return -1;
	unsigned long long run, wait;
	int n = fscanf(f, "%llu %llu", &run, &wait);
	fclose(f);
	return n == 2 ? (double)wait / 1e9 : -1;
}

static inline double clock_s(clockid_t c)
{
	struct timespec ts;
	clock_gettime(c, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Record the deadline now (from any thread). */
static inline void stopwatch_mark(struct stopwatch *s)
{
	s->mark_runq = thread_runq_s(s->tid);
	s->mark_cpu = clock_s(s->cpu);
	s->mark_wall = now(); /* after the reads: never early */
}

/* Start timing the calling thread; its deadline is unmarked (the start). */
static inline void stopwatch_start(struct stopwatch *s)
{
	s->tid = (long)syscall(SYS_gettid);
	if (pthread_getcpuclockid(pthread_self(), &s->cpu))
		s->cpu = CLOCK_THREAD_CPUTIME_ID;
	s->marking = false;
	s->wall0 = now();
	stopwatch_mark(s);
}

static inline void *stopwatch_marker(void *arg)
{
	struct stopwatch *s = arg;
	double at = s->wall0 + s->mark_in;
	struct timespec ts = {(time_t)at, (long)((at - (double)(time_t)at) * 1e9)};
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL))
		;
	stopwatch_mark(s);
	return NULL;
}

/* Mark the deadline `secs` after stopwatch_start, from a thread of its own.
 * 0, or -1 when no thread could be started. */
static inline int stopwatch_mark_in(struct stopwatch *s, double secs)
{
	s->mark_in = secs;
	s->marking = pthread_create(&s->marker, NULL, stopwatch_marker, s) == 0;
	return s->marking ? 0 : -1;
}

/* The timed thread stopped: read the clocks, then wait for the marker. */
static inline void stopwatch_stop(struct stopwatch *s)
{
	s->end_runq = thread_runq_s(s->tid);
	s->end_cpu = clock_s(s->cpu);
	s->end_wall = now();
	if (s->marking)
		pthread_join(s->marker, NULL);
	s->marking = false;
}

/* Wall seconds from start to stop. */
static inline double stopwatch_wall(const struct stopwatch *s)
{
	return s->end_wall - s->wall0;
}

/* Seconds from the marked deadline to the stop that the timed thread was
 * not held off a CPU (0 when the mark came after the stop). *waited gets
 * the wait on a run queue in that time (0 without schedstat). */
static inline double stopwatch_given(const struct stopwatch *s, double *waited)
{
	*waited = 0;
	if (s->mark_wall >= s->end_wall)
		return 0;
	if (s->mark_runq >= 0 && s->end_runq >= 0) {
		*waited = s->end_runq - s->mark_runq;
		return s->end_wall - s->mark_wall - *waited;
	}
	return s->end_cpu - s->mark_cpu;
}

#endif
