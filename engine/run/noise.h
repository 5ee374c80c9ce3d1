/* noise: what else the machine did while a step ran, so that a report can
 * say when a figure was measured on a busy machine.
 *
 * Sampled at the step's start, every monitor interval and at its end
 * (monitor.c drives it), and added to the step's info:
 *   noise.load1_start, noise.load1_max  1-minute load average (/proc/loadavg)
 *   noise.cpus                          online CPUs, to read the load by
 *   noise.steal_pct                     CPU steal over the step (/proc/stat),
 *                                       percent of all CPUs' time
 *   noise.foreign_cpu_pct               CPU time of processes that are
 *                                       neither benchgrid's (its descendants:
 *                                       steps, the managed server) nor in the
 *                                       run's cgroup, nor kernel threads,
 *                                       percent of all CPUs' time
 *   noise.foreign_top                   the busiest of them, "comm (pid) X%"
 *   noise.psi_mem_some_avg10            the largest `some avg10` of
 *                                       /proc/pressure/memory, or
 *                                       "unavailable" (no PSI)
 * Processes that start and end between two samples are not seen. */
#ifndef BENCHGRID_NOISE_H
#define BENCHGRID_NOISE_H

#include "result.h"

struct noise;

/* The first sample; NULL when out of memory. */
struct noise *noise_start(void);
/* Another sample (from the monitor's thread; not thread-safe per noise). */
void noise_sample(struct noise *n);
/* The last sample, the info above into res (when not NULL), free n. */
void noise_stop(struct noise *n, struct step_result *res);

#endif
