/* io_metrics: the latency figures every io result carries (mean, min,
 * p50, p90, p99, p99.9, max in us), named PREFIX_mean_us ... from one
 * histogram: the data I/Os' `lat_*`, metadata operations' `lat_*`, and the
 * paced I/Os' `sched_lat_*`; the names an io step can write, and its
 * headline rule (model/headline.h):
 *
 *   random and blocks <= 64 KiB      iops, lat_p99_us
 *   sequential or blocks > 64 KiB    mb_s, lat_p99_us
 *
 * read from the infos "rw" (randread, write, ...) and "bs" (bytes; the
 * largest of a bssplit) that wl_io.c records; a result without them
 * (metadata operations, or written before they were) gets the generic
 * rule (headline_generic): mb_s first, or ops_s. */
#ifndef BENCHGRID_IO_METRICS_H
#define BENCHGRID_IO_METRICS_H

#include "hist.h"
#include "result.h"
#include "workload_metrics.h"

/* Every metric an io step can write (the per-direction read.* and write.*
 * of mixed I/O included), for `check`. */
extern const struct workload_metrics io_metric_names;

/* Random I/O at or below this block size is judged by IOPS. */
#define IO_HEADLINE_IOPS_MAX_BS 65536u

/* The rule alone: true when an io step of this pattern is judged by IOPS,
 * false by MB/s (random: randread, randwrite, randrw, randtrim). */
bool io_headline_by_iops(bool random, unsigned long long bs);

void io_lat_metrics(struct step_result *res, const char *prefix, const struct hist *h);

#endif
