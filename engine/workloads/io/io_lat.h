/* io_lat: latency over time for the io step (docs/steps/io.md, "Latency
 * over time and latency logs").
 *
 * Hot path (io_lat_count in io_lat_rec.h, inline, called by io_done for each
 * measured I/O):
 * each job counts its latencies in one cumulative bucket array per direction
 * (engine/model/hist's bucket layout), with relaxed atomic stores: a single
 * writer, no locked read-modify-write, no lock. The monitor thread sums the jobs'
 * arrays and subtracts its previous sum: the difference is the histogram of
 * the I/Os completed since, so no I/O is lost or counted twice, however the
 * reads of the monitor interleave with the workers' stores (each counter only
 * grows). With `lat_log: true` the job also appends a 32-byte record to its
 * own buffer (chunks of 1 MiB, allocated as needed), written out after the
 * run. */
#ifndef BENCHGRID_IO_LAT_H
#define BENCHGRID_IO_LAT_H

#include <stdbool.h>
#include <stdint.h>

#include "hist.h"
#include "io_lat_rec.h"

struct io_opts;
struct io_job;
struct io_shared;
struct step_ctx;
struct step_result;

/* A job's bucket arrays (both directions) and, with lat_log, its log;
 * 0 or -ENOMEM. */
int io_lat_job_setup(struct io_job *j, const struct io_opts *o);
void io_lat_job_free(struct io_job *j);

/* The monitor's side: NULL when out of memory (the step then has no latency
 * series). sh gives t0 and measure_start once the workers are released. */
struct io_lat_mon *io_lat_mon_new(struct io_job *jobs, unsigned njobs, const struct io_opts *o,
                                  const struct io_shared *sh);
void io_lat_mon_free(struct io_lat_mon *m);

/* The series' samples at t (seconds since t0) for the I/Os since the
 * previous call: {read,write}_lat_{p50,p99,max}_us, for each direction that
 * had I/O in the interval. */
void io_lat_series(struct io_lat_mon *m, struct step_result *res, double t);
/* The step's tail since the last io_lat_series, too short for a sample of
 * its own (io's last partial interval under a quarter `interval`): its
 * I/Os go into {read,write}.lat_hist as a last, shorter interval [previous
 * t, t) (its times say how long), with no series points. */
void io_lat_tail(struct io_lat_mon *m, double t);

/* hist_log: when the next histogram is due (CLOCK_MONOTONIC ns), or
 * UINT64_MAX; io_lat_hist_tick takes it when now has reached it, or, with
 * final, the rest of the run. */
uint64_t io_lat_hist_due(const struct io_lat_mon *m);
void io_lat_hist_tick(struct io_lat_mon *m, uint64_t now, bool final);

/* Write STEP.lat.csv and STEP.hist.csv into the cell's directory. 0, or a
 * negative errno with the step failed. */
int io_lat_write(struct io_lat_mon *m, const struct step_ctx *cx, struct step_result *res);

/* Exposed for the unit tests: the interval histogram from a difference of
 * bucket counts (min and max are the middles of the outer buckets). */
void io_lat_ivl_hist(struct hist *h, const uint64_t *diff);
/* Sum the jobs' buckets of one direction into cur, put cur - prev into diff
 * and cur into prev. */
void io_lat_take(struct io_job *jobs, unsigned njobs, bool rd, uint64_t *cur, uint64_t *prev, uint64_t *diff);

#endif
