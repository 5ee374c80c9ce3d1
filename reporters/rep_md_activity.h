/* rep_md_activity: the "Server activity" section of report.md, from what the
 * server activity sampler recorded during pgbench and exec steps
 * (engine/fixtures/pg/pg_activity.h, docs/server-activity.md):
 *
 *   - per step, a chart of the server's tps over time (pg_tps, first
 *     repetition, one line per cell) with the checkpoints marked: a dotted
 *     line at each sample whose interval counted one (pg_checkpoints);
 *   - a table of the buffers written by each writer (checkpointer,
 *     background writer, backends), the checkpoints and the WAL, per cell
 *     and step (means over the repetitions);
 *   - a table of the top wait events per cell and step, as the average
 *     number of backends in each wait over the samples. */
#ifndef BENCHGRID_REP_MD_ACTIVITY_H
#define BENCHGRID_REP_MD_ACTIVITY_H

#include "rep_md_doc.h"

/* Nothing when no step recorded server activity; 0 or a negative errno
 * when a chart cannot be written. */
int rep_md_activity(struct rep_ctx *cx, struct md *m);

#endif
