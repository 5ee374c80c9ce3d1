/* rep_md_headline: what report.md and report.html open with (issue 31).
 *
 *   ## Headline    one row per cell: #, the parameters that vary, and each
 *                  step's headline metrics (cell_summary.h's one rule:
 *                  throughput and p99 latency), so the result is read
 *                  before the 30-50 columns of the step tables.
 *
 * And the report a run gets with no `report:` block: for each parameter
 * with two or more values, a pivot and a chart of each step's first
 * headline metric (the rate), rows and x by that parameter, columns and
 * series by the next one. Bars for values that are not plain numbers
 * (sizes too) or fewer than three of them, lines otherwise. */
#ifndef BENCHGRID_REP_MD_HEADLINE_H
#define BENCHGRID_REP_MD_HEADLINE_H

#include <stdio.h>

#include "rep_md_doc.h"

/* The Headline section into f (report.md's head); nothing when no step
 * has a headline metric. */
void rep_md_headline(struct rep_ctx *cx, struct md *m, FILE *f);

/* The default `report:` map (pivot and charts) for a run without one, or
 * NULL when nothing varies or nothing has a headline. node_free() it. */
struct node *rep_md_default_report(struct rep_ctx *cx, const struct md *m);

#endif
