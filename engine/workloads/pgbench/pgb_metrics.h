/* pgb_metrics: every metric a pgbench step can write, for `check`. */
#ifndef BENCHGRID_PGB_METRICS_H
#define BENCHGRID_PGB_METRICS_H

#include "workload_metrics.h"

extern const struct workload_metrics pgb_metric_names;

#endif
