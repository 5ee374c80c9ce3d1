/* store_runs: what history's dashboard reads of each stored run besides its
 * metrics: the run's folder (runs.output_dir, for a link to its
 * report.html), the git commit it records, and the cells of a scenario.
 * Read-only, as store_query. */
#ifndef BENCHGRID_STORE_RUNS_H
#define BENCHGRID_STORE_RUNS_H

#include <stddef.h>

#include "store.h"

/* One stored run of a scenario. commit: the value of a fact named
 * `commit` or `*.commit` (a cell's fact or the run's environment) other
 * than benchgrid's own build (`benchgrid.commit`), else that one, else
 * NULL: the software under test first, then benchgrid itself. */
struct store_run_meta {
	char run_id[17];
	double started;
	char *dir;    /* absolute, as recorded; NULL when unknown */
	char *commit; /* NULL when none is recorded */
};

/* Every stored run of scenario, oldest first. 0 (possibly none), or -1
 * with why in err. */
int store_runs_meta(struct store *s, const char *scenario, struct store_run_meta **out, size_t *n, char *err,
                    size_t errlen);
void store_runs_meta_free(struct store_run_meta *m, size_t n);

/* The cells of scenario's stored runs, each "LABEL\tHOST\tRUNS" (the runs
 * that hold it), in the order of the matrix (cell index). 0, or -1 with
 * why in err; free with store_names_free. */
int store_list_cells(struct store *s, const char *scenario, char ***out, size_t *n, char *err, size_t errlen);

/* The headline metrics recorded for scenario's steps (the facts
 * headline.STEP, by the one rule of headline.h): distinct "STEP.METRIC"
 * names over every stored run and cell, by name. Runs stored before the
 * fact was recorded add none. 0, or -1 with why in err; free with
 * store_names_free. */
int store_headlines(struct store *s, const char *scenario, char ***out, size_t *n, char *err, size_t errlen);

#endif
