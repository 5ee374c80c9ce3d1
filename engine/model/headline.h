/* headline: the one rule that names a step's headline metrics (issue 27).
 *
 * A step's headline is what a person reads first of it: report.html's
 * folded step table, report.md's confidence intervals, compare's default
 * metrics and verdict, history's default metric, the convergence of
 * `repeat: {until}`, the run's live figure and its step lines all use it.
 *
 *   the step's `headline:` (info "headline": names, space-separated)
 *   io, random and blocks <= 64 KiB  iops, lat_p99_us
 *   io, sequential or blocks > 64 KiB mb_s, lat_p99_us
 *   pgbench                           tps, lat_p99_ms
 *   exec                              a rate its parser gave (tps, iops,
 *                                     mb_s), else its parser's first
 *                                     metric, else elapsed_s; p99
 *   anything else                     the first of tps, mb_s, iops; p99
 *
 * io steps record what the rule needs as infos "rw" (randread, write, ...)
 * and "bs" (bytes; the largest of a bssplit); a result written before they
 * were (no "rw") keeps the old order: mb_s first. Names the step did not
 * produce are left out. Which names a step's `headline:` may give is
 * `check`'s (run/ref_check.c, from each workload's table of metrics). */
#ifndef BENCHGRID_HEADLINE_H
#define BENCHGRID_HEADLINE_H

#include <stdbool.h>
#include <stddef.h>

#include "result.h"

#define HEADLINE_MAX 8
/* Random I/O at or below this block size is judged by IOPS. */
#define HEADLINE_IOPS_MAX_BS 65536u

/* The io rule alone: true when an io step of this pattern is judged by
 * IOPS, false by MB/s (random: randread, randwrite, randrw, randtrim). */
bool headline_io_by_iops(bool random, unsigned long long bs);
/* The headline metric names of r, into out (at most max, <= HEADLINE_MAX),
 * throughput first; each is a metric r has. Returns how many. The names
 * point into r or static strings. */
size_t headline_names(const struct step_result *r, const char **out, size_t max);

#endif
