/* rep_md_ci: report.md's "Confidence intervals" section: for each cell and
 * each step's headline metrics (cell_summary.h), n, the mean with the
 * half-width of its 95% interval and the median with its 95% bootstrap
 * interval, or why an interval is missing (n < 2, n < 5). Written only when
 * some headline metric has at least 2 samples. docs/statistics.md. */
#ifndef BENCHGRID_REP_MD_CI_H
#define BENCHGRID_REP_MD_CI_H

#include "rep_md_doc.h"

void rep_md_ci(struct rep_ctx *cx, struct md *m);

#endif
