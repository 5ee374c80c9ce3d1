/* journal: what --resume reads back from an output directory.
 *
 *   journal.jsonl  one line per finished cell, appended and fsync'd; a torn
 *                  last line (kill -9 in the middle of a write) is dropped
 *   plan.tsv       every planned cell with a fingerprint of everything
 *                  that decides how it runs (its tree, repeat, warmup)
 * A resumed run skips the cells of the journal, and refuses to when a
 * finished cell's fingerprint changed. */
#ifndef BENCHGRID_JOURNAL_H
#define BENCHGRID_JOURNAL_H

#include <stdint.h>
#include <stdio.h>

#include "cell.h"
#include "diag.h"
#include "results.h"
#include "spec.h"

/* Write OUTDIR/plan.tsv: 0 or a negative errno. */
int journal_write_plan(const char *outdir, const struct spec *s, const struct cell *cells, size_t n,
                       int64_t repeat, int64_t warmup);
/* On resume: every cell of run that is still planned must run the same way
 * now, or its old figures would be mixed with new ones. 0 or a negative
 * errno with errors in d. */
int journal_check_plan(const char *outdir, const struct run *run, const struct spec *s,
                       const struct cell *cells, size_t n, int64_t repeat, int64_t warmup, struct diag *d);
/* Read the cells of journal path into run (a cell finished twice keeps the
 * newest) and cut a torn last line. The number of cells read (0 when there
 * is no journal) or a negative errno. */
int journal_load(struct run *run, const char *path, struct diag *d);
/* Append a finished cell, flushed and fsync'd: 0 or a negative errno. */
int journal_append(FILE *journal, const struct run_cell *rc);

#endif
