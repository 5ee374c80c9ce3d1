/* workload_table: every step kind benchgrid knows (io, pgbench, exec).
 * Adding a workload is one row in workload_table.c: its workload_ops
 * carries everything else (workloads/workload.h). */
#ifndef BENCHGRID_WORKLOAD_TABLE_H
#define BENCHGRID_WORKLOAD_TABLE_H

#include "workload.h"

/* The workload whose key appears in the step map, or NULL. */
const struct workload_ops *workload_find(const char *name);
/* The workload of step st (a map): the first of its keys that names one,
 * with the value under it in *opts; NULL when none does. */
const struct workload_ops *workload_of_step(const struct node *st, const struct node **opts);
/* NULL-terminated list of all workloads. */
const struct workload_ops *const *workload_all(void);
/* The metrics the workload named so can write, or NULL (unknown kind). */
const struct workload_metrics *workload_metrics_of(const char *name);

#endif
