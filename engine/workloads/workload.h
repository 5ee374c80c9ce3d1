/* workload: the table of step kinds (io, pgbench, exec).
 *
 * A step is a map with a name, common options (record, timeout) and exactly
 * one workload key whose value is that workload's options map. A workload
 * registers everything it owns in its `struct workload_ops`: its option
 * tables (check, `benchgrid schema`, docs/options.md), the metrics it can
 * write (`check` refuses references to others) and its headline rule,
 * whether the server's activity is sampled during it, whether a step opens
 * the target's block device raw, and what its step costs for plan's
 * estimate. Nothing outside the workload's folder compares its name.
 * Adding a workload is one new folder defining one and one row in
 * run/workload_table.c (docs/architecture.md, "Where to add things").
 *
 * Options are validated twice: at `check` time on every cell's interpolated
 * step (check), and again when the step runs (run), so a value that only
 * becomes known at run time is still validated with its position. */
#ifndef BENCHGRID_WORKLOAD_H
#define BENCHGRID_WORKLOAD_H

#include "cell.h"
#include "diag.h"
#include "node.h"
#include "opt_table.h"
#include "result.h"
#include "step_estimate.h"
#include "workload_metrics.h"

#define WORKLOAD_OPS_VERSION 3

struct workload_ops {
	int version;      /* WORKLOAD_OPS_VERSION */
	const char *name; /* the step key: "io", "pgbench", "exec" */
	const char *help; /* one line for `benchgrid --help` */
	/* Its row in a step's table (`benchgrid schema`): the key (name), its
	 * type, its one-line doc, and `ref` the name of tables[0]. */
	const struct opt_desc *step_row;
	/* Its option tables, NULL-terminated: the map under its key first,
	 * then the tables its rows refer to (`benchgrid schema` lists them in
	 * this order). check reads them too. */
	const struct opt_table *const *tables;
	/* The metrics it can write (workload_metrics.h), also its headline
	 * rule (metrics->headline) and whether the server's activity is
	 * sampled during it (metrics->server_activity). */
	const struct workload_metrics *metrics;
	/* Validate `opts` (the value under the workload key). Add errors with
	 * positions to d; return 0 or -EINVAL. Must not touch the system. */
	int (*check)(const struct node *opts, struct diag *d);
	/* Run the step. Fill res with metrics and series. On a run-time failure,
	 * call result_fail() with a clear message and return a negative errno.
	 * Bad options found only now go to d (with positions) and return -EINVAL. */
	int (*run)(const struct node *opts, const struct step_ctx *cx, struct step_result *res,
	           struct diag *d);
	/* What the step with these options will do, for plan's estimate (e is
	 * zeroed): read from opts alone, leniently (step_estimate.h). NULL: a
	 * step nobody can price, which may write anything. */
	void (*estimate)(const struct node *opts, struct step_estimate *e);
	/* The option that makes a step with these options open the cell's
	 * target's block device raw, with no file system on it (io's
	 * `file: "@device"`), or NULL: the step opens files in the target's
	 * file system (run/raw_device.c: such a target is then used raw, and a
	 * raw target refuses the steps that want files). Read leniently: the
	 * tree is a cell's, maybe not yet checked. NULL hook: its steps open
	 * neither (they talk to a server, or run a command). */
	const struct node *(*opens_device)(const struct node *opts);
	/* With opens_device (required then): how a step asks for the device,
	 * for messages (`file: "@device"`). */
	const char *device_how;
	/* Seconds between the samples of the samplers that run beside the step
	 * (the server's activity), from its options; NULL: every second. */
	double (*sample_every)(const struct node *opts);
};

#endif
