/* lb_api: the objects hooks see of benchgrid.
 *
 * cell:   a table {index, id, params} with method skip(reason); cell.NAME is
 *         a shortcut for cell.params.NAME (an unknown name is an error).
 * result: a userdata over a struct step_result: result.NAME reads a metric
 *         (nil when absent); fields step, workload, ok, error, elapsed;
 *         methods metric(name, value[, unit]), sample(name, unit, t, v),
 *         info(key, value), fail(msg), get(name), metrics().
 *         It is valid only during the call it was made for.
 * run:    {outdir, scenario, file} with method write(name, text) into outdir.
 * bench:  log(level, ...), sh(cmd) -> status, stdout, stderr; env; version.
 * Values of parameters and options are typed as lb_push_node describes. */
#ifndef BENCHGRID_LB_API_H
#define BENCHGRID_LB_API_H

#include "cell.h"
#include "lb_state.h"
#include "result.h"

/* Register the object metatables and the `bench` global. */
void lb_api_open(struct lb *B);
/* A result object for res (valid during this call only). */
void lb_push_result(struct lb *B, struct step_result *res);
/* A cell object (nil for NULL). */
void lb_push_cell(struct lb *B, const struct cell *c);
/* The run object given to finish(). */
void lb_push_run(struct lb *B, const char *outdir);

#endif
