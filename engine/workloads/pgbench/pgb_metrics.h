/* pgb_metrics: every metric a pgbench step can write, for `check`, and
 * its headline rule (model/headline.h): tps, lat_p99_ms. */
#ifndef BENCHGRID_PGB_METRICS_H
#define BENCHGRID_PGB_METRICS_H

#include "workload_metrics.h"

extern const struct workload_metrics pgb_metric_names;

#endif
