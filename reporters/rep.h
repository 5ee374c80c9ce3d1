/* rep: the reporters, run over a finished run.
 *
 *   csv         results.csv     one row per cell and step (docs/results.md)
 *   timeseries  timeseries.csv  one row per cell, repetition, step and time
 *   markdown    report.md       + chart-N.svg files it links
 *   html        report.html     the same sections in one self-contained page
 *
 * results.json is not a reporter: it is the source `benchgrid report DIR`
 * reads, written by results_write_json(). */
#ifndef BENCHGRID_REP_H
#define BENCHGRID_REP_H

#include "diag.h"
#include "rep_ops.h"
#include "results.h"

/* NULL-terminated table of all reporters. */
const struct reporter_ops *const *rep_all(void);
const struct reporter_ops *rep_find(const char *name);

/* Run every reporter over r into outdir (which must exist). Returns 0, a
 * negative errno for I/O failures, or -EINVAL when part of `report:` or
 * `expect:` is invalid (the rest is still written; errors are in d). */
int rep_write_all(const struct run *r, const char *outdir, struct diag *d);
/* Run one reporter. */
int rep_write_one(const struct reporter_ops *ops, const struct run *r, const char *outdir, struct diag *d);

#endif
