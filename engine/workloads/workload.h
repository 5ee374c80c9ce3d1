/* workload: the table of step kinds (io, pgbench, exec).
 *
 * A step is a map with a name, common options (record, timeout) and exactly
 * one workload key whose value is that workload's options map. Adding a
 * workload is one new file defining a `struct workload_ops` and one row in
 * run/workload_table.c. Options are validated twice: at `check` time on every cell's
 * interpolated step (check), and again when the step runs (run), so a value
 * that only becomes known at run time is still validated with its position. */
#ifndef BENCHGRID_WORKLOAD_H
#define BENCHGRID_WORKLOAD_H

#include "cell.h"
#include "diag.h"
#include "node.h"
#include "result.h"

#define WORKLOAD_OPS_VERSION 1

struct workload_ops {
	int version;      /* WORKLOAD_OPS_VERSION */
	const char *name; /* the step key: "io", "pgbench", "exec" */
	const char *help; /* one line for `benchgrid --help` */
	/* Validate `opts` (the value under the workload key). Add errors with
	 * positions to d; return 0 or -EINVAL. Must not touch the system. */
	int (*check)(const struct node *opts, struct diag *d);
	/* Run the step. Fill res with metrics and series. On a run-time failure,
	 * call result_fail() with a clear message and return a negative errno.
	 * Bad options found only now go to d (with positions) and return -EINVAL. */
	int (*run)(const struct node *opts, const struct step_ctx *cx, struct step_result *res,
	           struct diag *d);
};

#endif
