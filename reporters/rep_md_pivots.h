/* rep_md_pivots: the "Pivot tables" section of report.md: for each
 * report.pivot entry, rows x cols of one step.metric, one table per
 * combination of the other parameters that vary. */
#ifndef BENCHGRID_REP_MD_PIVOTS_H
#define BENCHGRID_REP_MD_PIVOTS_H

#include "rep_md_doc.h"

void rep_md_pivots(struct rep_ctx *cx, struct md *m, const struct node *pv);

#endif
