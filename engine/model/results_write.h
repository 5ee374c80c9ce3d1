/* results_write: a run as results.json, a cell as one journal line.
 *
 * results.json (format "benchgrid-results", version 1) is the contract; see
 * docs/results.md. It is written as tmp file, fsync, rename, fsync(dir), so a
 * kill at any moment leaves either the old or the new file. The same cell
 * object, on one line, is what the runner's journal appends per finished
 * cell; results_read.h reads both back. */
#ifndef BENCHGRID_RESULTS_WRITE_H
#define BENCHGRID_RESULTS_WRITE_H

#include <jansson.h>
#include <stdio.h>

#include "diag.h"
#include "node.h"
#include "run_cells.h"

/* Write the whole run as results.json: path.tmp, fsync, rename, fsync dir. */
int results_write_json(const struct run *r, const char *path, struct diag *d);
/* One cell as a single-line JSON object followed by '\n' (journal record). */
int results_cell_write_line(FILE *f, const struct run_cell *c);

/* The JSON trees written (new references). */
json_t *results_run_json(const struct run *r);
json_t *results_cell_json(const struct run_cell *c);
/* A scenario node as JSON: maps, sequences; unquoted scalars that are JSON
 * numbers or true/false are written as such, everything else as strings. */
json_t *results_node_json(const struct node *n);

#endif
