/* exec_metrics: the metrics an exec step can write, for `check`: its own
 * two, and with `parse:` whatever the parser reads from the output, which
 * only the output tells (a parser's names depend on the tool's text); and
 * its headline rule (model/headline.h): a rate its parser gave (tps, iops,
 * mb_s), else its parser's first metric, then a p99; else elapsed_s. */
#ifndef BENCHGRID_EXEC_METRICS_H
#define BENCHGRID_EXEC_METRICS_H

#include "workload_metrics.h"

extern const struct workload_metrics exec_metric_names;

#endif
