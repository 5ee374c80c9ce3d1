/* io_metrics: the latency figures every io result carries (mean, min,
 * p50, p90, p99, p99.9, max in us), named PREFIX_mean_us ... from one
 * histogram: the data I/Os' `lat_*`, metadata operations' `lat_*`, and the
 * paced I/Os' `sched_lat_*`. */
#ifndef BENCHGRID_IO_METRICS_H
#define BENCHGRID_IO_METRICS_H

#include "hist.h"
#include "result.h"
#include "workload_metrics.h"

/* Every metric an io step can write (the per-direction read.* and write.*
 * of mixed I/O included), for `check`. */
extern const struct workload_metrics io_metric_names;

void io_lat_metrics(struct step_result *res, const char *prefix, const struct hist *h);

#endif
