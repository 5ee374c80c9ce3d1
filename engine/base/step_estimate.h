/* step_estimate: what one step says it will do, read from its options
 * alone (no process, no file), for plan's estimate.
 *
 * Each workload fills one from its own options (workload_ops.estimate), so
 * only the folder that owns the options reads them; spec/estimate_cell
 * prices it with the rates of this machine (estimate_rates.h). It lives in
 * base because both sides use it and neither may include the other.
 *
 * The readers below are lenient on purpose: the tree was validated before,
 * and a value that is still not what its option wants (a run-time ${...})
 * reads as absent, which prices it at the option's default. */
#ifndef BENCHGRID_STEP_ESTIMATE_H
#define BENCHGRID_STEP_ESTIMATE_H

#include <stdbool.h>

#include "node.h"

struct step_estimate {
	/* What the figure rests on, shown by plan: "runtime", "duration",
	 * "size", "transactions", "init" (a static string); NULL: the options
	 * declare nothing that gives a time ("not declared"). */
	const char *basis;
	double seconds;      /* seconds the options declare (runtime, duration, ramp) */
	double bytes;        /* bytes moved, priced at the io rate */
	double transactions; /* transactions over all clients, priced at the tps */
	double rate;         /* the schedule's transactions per second, 0 none */
	double load_scale;   /* pgbench data loaded at this scale, priced at the load rate; 0 none */
	double file_bytes;   /* bytes of the files it makes in the cell's target */
	bool files_kept;     /* they stay after the step (else the next step's replace them) */
	bool writes_db;      /* it may change rows of the server's database */
	bool raw_device;     /* it opens the target's block device raw (no file system) */
	/* The metric of its results that counts transactions per second (a
	 * static string, "tps"): plan prices its transactions at that metric's
	 * mean in the scenario's last stored run. NULL: none. */
	const char *tps_metric;
};

/* The text of a scalar, or NULL. */
const char *est_text(const struct node *n);
/* Is n the scalar s? */
bool est_is(const struct node *n, const char *s);
/* A duration in seconds, bytes, or a number > 0; dflt when absent or not one. */
double est_seconds(const struct node *n, double dflt);
double est_bytes(const struct node *n, double dflt);
double est_number(const struct node *n, double dflt);
/* true, yes or on. */
bool est_true(const struct node *n);

#endif
