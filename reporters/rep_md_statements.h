/* rep_md_statements: the "Per-statement latencies" section of report.md:
 * for every pgbench step run with `report_statements` (pgbench -r), one
 * table of its statements (number and SQL text) by cell, so a latency
 * is never shown without the statement it belongs to. */
#ifndef BENCHGRID_REP_MD_STATEMENTS_H
#define BENCHGRID_REP_MD_STATEMENTS_H

#include "rep_md_doc.h"

void rep_md_statements(struct rep_ctx *cx, struct md *m);

#endif
