/* ref_check: `check` of what `report:`, `expect:` and a step's `headline:`
 * refer to.
 *
 * A pivot's rows and cols and a chart's x and series must be parameters of
 * the matrix (or the axis a metric name carries, `{bs}`; a chart's x may be
 * `time`); a pivot's value, a chart's y and every step.metric of `expect:`
 * must name a step of the cell and a metric that step's kind can write (its
 * workload's table, workload_table.h), or one every step carries (the
 * monitor's sys_*_pct, disk_*, disk.NAME.*, the device models' model.NAME.*,
 * the server activity's pg_* for pgbench and exec steps) or one the Lua
 * hooks add with result:metric("NAME", ...). An exec step with `parse:` and
 * a hook that names its metric with anything but a string literal may write
 * any name: those are not checked; nor are step names when a step's name
 * takes ${...} or !lua (other cells name other steps). A step's
 * `headline:` names are metrics of that step by the same rules. Errors with
 * positions and did-you-mean. */
#ifndef BENCHGRID_REF_CHECK_H
#define BENCHGRID_REF_CHECK_H

#include "diag.h"
#include "node.h"

/* A validator (spec_check.h): 0, or -EINVAL with errors in d. */
int ref_check(const struct node *cell, const struct node *scenario, struct diag *d);

#endif
