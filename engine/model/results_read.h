/* results_read: results.json and journal lines back into the model (for
 * `benchgrid report DIR`, `compare` and resuming a run). */
#ifndef BENCHGRID_RESULTS_READ_H
#define BENCHGRID_RESULTS_READ_H

#include <jansson.h>
#include <stddef.h>

#include "diag.h"
#include "node.h"
#include "run_cells.h"

/* Read results.json into r (initialised by the call). */
int results_read_json(struct run *r, const char *path, struct diag *d);
/* Parse one journal line back into c (initialised by the call). */
int results_cell_parse_line(const char *line, size_t len, struct run_cell *c, struct diag *d);

/* Fill r (or c) from a parsed tree; r and c are initialised by the call.
 * name is the file named in errors. */
int results_from_json(struct run *r, const json_t *v, const char *name, struct diag *d);
int results_cell_from_json(const json_t *v, struct run_cell *c, const char *name, struct diag *d);
/* A JSON value as a scenario node: numbers and true/false become unquoted
 * scalars (a real in its shortest form), strings quoted ones. */
struct node *results_node_from_json(const json_t *v, const char *name);

#endif
