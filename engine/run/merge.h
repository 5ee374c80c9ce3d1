/* merge: the results of a sweep whose shares ran on several hosts into one
 * output directory (`benchgrid merge DIR`, see share.h for the files).
 *
 * Every planned cell of plan.tsv is looked up in every journal of DIR
 * (journal.jsonl and every shards/I-of-N.jsonl; a cell finished twice keeps the run
 * that started last). The missing and failed cells are listed with their
 * share and host; a share still running (its journal locked) is named.
 * Then results.json, results.csv, timeseries.csv and report.md are written
 * as a local run writes them, with the run's facts from the earliest share. */
#ifndef BENCHGRID_MERGE_H
#define BENCHGRID_MERGE_H

#include <stdbool.h>

#include "diag.h"

/* 0 when every planned cell finished ok and everything was written, 1 when
 * a cell is missing or failed or a file could not be written (what could be
 * is), -EINVAL when DIR is not a run's directory (nothing written). */
int merge_run(const char *outdir, bool quiet, struct diag *d);

#endif
