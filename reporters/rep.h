/* rep: the reporters, run over a finished run.
 *
 *   csv          results.csv     one row per cell and step (docs/results.md)
 *   timeseries   timeseries.csv  one row per cell, repetition, step and time
 *   markdown     report.md       + chart-N.svg files it links
 *   html         report.html     the same sections in one self-contained page
 *   expect-json  expect.json     the verdicts of `expect:`, for programs
 *   junit        junit.xml       expectations and failed cells as JUnit test
 *                                cases, for CI (not written by default)
 *
 * `report: {formats: [...]}` names the ones to write; without it every one
 * but junit runs (the table: rep_table.h). results.json is not a reporter:
 * it is the source `benchgrid report DIR` reads, written by
 * results_write_json(). */
#ifndef BENCHGRID_REP_H
#define BENCHGRID_REP_H

#include <stdbool.h>

#include "diag.h"
#include "rep_ops.h"
#include "results.h"

/* The reporter named report_format_values[i] (report_opts_table.h), and
 * whether it runs when report.formats is absent; NULL-terminated. */
extern const struct reporter_ops *const rep_format_ops[];
extern const bool rep_format_default[];

/* Run the reporters r->report_cfg's `formats` selects (default: those of
 * rep_format_default) over r into outdir (which must exist). Returns 0, a
 * negative errno for I/O failures, or -EINVAL when part of `report:` or
 * `expect:` is invalid, an unknown format too (the rest is still written;
 * errors are in d). */
int rep_write_all(const struct run *r, const char *outdir, struct diag *d);

#endif
