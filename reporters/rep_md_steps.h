/* rep_md_steps: report.md's "Steps" section: per step name its metrics in
 * tables of at most STEP_TABLE_COLS metric columns, by group (throughput and
 * latency; CPU and system; device; PostgreSQL), folded in report.html;
 * cells its when: skipped noted under them. */
#ifndef BENCHGRID_REP_MD_STEPS_H
#define BENCHGRID_REP_MD_STEPS_H

#include "rep_md_doc.h"

void rep_md_steps(struct rep_ctx *cx, struct md *m);

#endif
