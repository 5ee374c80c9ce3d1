/* rep_config: the `report:` section: pivot tables and charts of report.md,
 * and which reports are written.
 *
 *   report:
 *     pivot:  {rows: P, cols: Q, value: step.metric, stat: mean, where: {...}, title: T}
 *     charts: {x: P or time, y: step.metric or [several], series: Q,
 *              kind: line|bar|cdf|histogram|heatmap|percentiles, log: x|y|both,
 *              where: {...}, title: T}
 * Each of pivot and charts is one map or a list of maps; formats (one
 * name or a list: the reports written, rep.h) is checked here too. */
#ifndef BENCHGRID_REP_CONFIG_H
#define BENCHGRID_REP_CONFIG_H

#include <stdbool.h>
#include <stddef.h>

#include "diag.h"
#include "node.h"

struct pivot_cfg {
	const char *rows, *cols, *value, *stat, *title;
	const struct node *where;
};

enum { CHART_MAX_Y = 8 };

/* kind: the index in report_kind_values */
enum chart_kind {
	CHART_AUTO = -1,
	CHART_LINE,
	CHART_BAR,
	CHART_CDF,
	CHART_HISTOGRAM,
	CHART_HEATMAP,
	CHART_PERCENTILES
};

struct chart_cfg {
	const char *x, *y, *series, *title; /* y: the first of ys */
	const char *ys[CHART_MAX_Y];        /* y: one step.metric, or a list */
	size_t ny;
	int kind;        /* enum chart_kind */
	bool xlog, ylog; /* log: x, y or both */
	const struct node *where;
};

/* The latency kinds draw the distribution behind a latency metric. */
static inline bool chart_kind_latency(int kind)
{
	return kind >= CHART_CDF;
}

/* Validate a `report:` section (pivot, charts, formats) with positions. */
int rep_check_config(const struct node *report, struct diag *d);

/* Read one pivot or chart entry: 0, or -EINVAL with errors in d. */
int rep_config_pivot(const struct node *n, struct pivot_cfg *p, struct diag *d);
int rep_config_chart(const struct node *n, struct chart_cfg *c, struct diag *d);
/* The entries of pivot or charts: one map or a list of maps. */
size_t rep_config_count(const struct node *n);
const struct node *rep_config_at(const struct node *n, size_t i);

#endif
