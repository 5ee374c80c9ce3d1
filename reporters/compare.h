/* compare: two runs side by side (`benchgrid compare A B`), or the cells of
 * one run that differ only in one parameter (`benchgrid compare DIR --by P`).
 * docs/statistics.md describes the statistics, docs/results.md the output. */
#ifndef BENCHGRID_COMPARE_H
#define BENCHGRID_COMPARE_H

#include <stdbool.h>
#include <stdio.h>

#include "compare_metric.h"
#include "compare_render.h"
#include "results.h"
#include "diag.h"

/* Compare two result directories (or results.json files): per shared cell
 * and metric, the medians, their ratio B/A with its bootstrap interval, a
 * significance test and a verdict; one verdict line per cell. *failed (may
 * be NULL) is set when a metric got significantly worse by more than
 * o->fail_above. Returns 0 or a negative errno (with a diagnostic in d). */
int rep_compare_runs(const char *a, const char *b, const struct compare_opts *o, FILE *out, struct diag *d,
                     bool *failed);
/* The same with several runs per side (pa[0..na), pb[0..nb)): cells are
 * those of pa[0] and pb[0]; a cell's repetitions in every run of a side
 * count, and with at least 2 runs on each side their spread judges the
 * difference (compare_metric.h). *res (may be NULL): the threshold's
 * outcome. */
int rep_compare_sides(const char *const *pa, size_t na, const char *const *pb, size_t nb,
                      const struct compare_opts *o, FILE *out, struct diag *d, struct cmp_outcome *res);
/* rep_compare_runs with the default options. */
int rep_compare(const char *a, const char *b, FILE *out, struct diag *d);
/* Where a cell ran, as the results store records it: its fact host, else
 * the run's machine.host (NULL when neither). */
const char *compare_store_host(const struct run *r, const struct run_cell *c);
/* Read DIR/results.json, or the file PATH itself. */
int compare_load(const char *path, struct run *r, struct diag *d);

#endif
