/* rep_md_charts: the "Charts" section of report.md: for each
 * report.charts entry, chart-N.svg files (a metric over time, or against a
 * parameter), linked from the report. */
#ifndef BENCHGRID_REP_MD_CHARTS_H
#define BENCHGRID_REP_MD_CHARTS_H

#include "rep_md_doc.h"

struct svg_chart;

/* Write ch as the next chart-N.svg and link it from report.md. */
int rep_md_write_svg(struct rep_ctx *cx, struct md *m, const struct svg_chart *ch);

/* 0, or a negative errno when a chart cannot be written. */
int rep_md_charts(struct rep_ctx *cx, struct md *m, const struct node *chs);

#endif
