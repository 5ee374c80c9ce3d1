/* results: the model of one run, its statistics, and results.json.
 *
 * One include for the users of the model (the runner, the CLI, the
 * reporters): the run and its cells (run_cells.h), statistics over the
 * repetitions (cell_summary.h), and results.json and the runner's journal
 * lines written (results_write.h) and read back (results_read.h). */
#ifndef BENCHGRID_RESULTS_H
#define BENCHGRID_RESULTS_H

#include "cell_summary.h"
#include "results_read.h"
#include "results_write.h"
#include "run_cells.h"

#endif
