/* rep_metric_axis: an axis of a pivot or chart taken from metric names.
 *
 * A step that measures one thing at several settings records one metric
 * per setting (dd's sweep: mb_s_4k, mb_s_8k, ...). Writing the varying part
 * as {NAME} in the metric (`value: "ddsweep.mb_s_{bs}k"`) makes NAME an axis
 * like a parameter: `rows: bs` or `x: bs`, its values the parts that the
 * step's metric names have there ("4", "8", ...), sorted as numbers or sizes
 * when they all are. */
#ifndef BENCHGRID_REP_METRIC_AXIS_H
#define BENCHGRID_REP_METRIC_AXIS_H

#include <stdbool.h>
#include <stddef.h>

#include "rep_group.h"
#include "rep_ops.h"

struct metric_axis {
	char name[64];    /* NAME of {NAME} */
	char prefix[128]; /* the metric name before it */
	char suffix[64];  /* and after it */
};

/* Does `metric` (the part after "step.") hold one {NAME}? false when it holds
 * none; *bad (when not NULL) is set when the braces are malformed (two
 * placeholders, an empty or unclosed one, or parts too long). */
bool metric_axis_parse(const char *metric, struct metric_axis *ax, bool *bad);
/* The metric of the axis at `value` ("mb_s_" "4" "k"). */
void metric_axis_metric(const struct metric_axis *ax, const char *value, char *buf, size_t len);
/* The axis's values among the metrics of `step` in the cells of group g,
 * sorted by value. */
void metric_axis_values(const struct rep_ctx *cx, const struct rep_group *g, const char *step,
                        const struct metric_axis *ax, struct rep_strs *out);

#endif
