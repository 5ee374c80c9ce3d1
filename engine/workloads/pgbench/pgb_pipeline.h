/* pgb_pipeline: \startpipeline and \endpipeline on libpq's pipeline mode.
 * Inside a pipeline the client sends each SQL command without waiting;
 * \endpipeline sends a sync and waits for every result, as pgbench 15. */
#ifndef BENCHGRID_PGB_PIPELINE_H
#define BENCHGRID_PGB_PIPELINE_H

#include "pgb_client.h"

/* \startpipeline: 0, or -1 (pgbc_fail). */
int pgbp_start(struct pgbc_client *c, const struct pgb_script *sc, const struct pgb_cmd *cmd);
/* \endpipeline: 1 (the client waits for the results), or -1. */
int pgbp_end(struct pgbc_client *c, const struct pgb_script *sc, const struct pgb_cmd *cmd);
/* Input while waiting at \endpipeline: 1 when every result is in and the
 * client goes on at the next command, 0 when it waits more, -1 on error. */
int pgbp_input(struct pgbc_client *c);

#endif
