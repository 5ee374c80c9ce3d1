/* rep_config: the `report:` section: pivot tables and charts of report.md,
 * and which reports are written.
 *
 *   report:
 *     pivot:  {rows: P, cols: Q, value: step.metric, stat: mean, where: {...}, title: T}
 *     charts: {x: P or time, y: step.metric, series: Q, kind: line|bar, where: {...}, title: T}
 * Each of pivot and charts is one map or a list of maps; formats (one
 * name or a list: the reports written, rep.h) is checked here too. */
#ifndef BENCHGRID_REP_CONFIG_H
#define BENCHGRID_REP_CONFIG_H

#include <stddef.h>

#include "diag.h"
#include "node.h"

struct pivot_cfg {
	const char *rows, *cols, *value, *stat, *title;
	const struct node *where;
};

struct chart_cfg {
	const char *x, *y, *series, *title;
	int kind; /* -1 auto, 0 line, 1 bar */
	const struct node *where;
};

/* Validate a `report:` section (pivot, charts, formats) with positions. */
int rep_check_config(const struct node *report, struct diag *d);

/* Read one pivot or chart entry: 0, or -EINVAL with errors in d. */
int rep_config_pivot(const struct node *n, struct pivot_cfg *p, struct diag *d);
int rep_config_chart(const struct node *n, struct chart_cfg *c, struct diag *d);
/* The entries of pivot or charts: one map or a list of maps. */
size_t rep_config_count(const struct node *n);
const struct node *rep_config_at(const struct node *n, size_t i);

#endif
