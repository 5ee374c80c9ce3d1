/* plan: expand a scenario into its cells, validate every cell, print them. */
#ifndef BENCHGRID_PLAN_H
#define BENCHGRID_PLAN_H

#include <stdbool.h>
#include <stdio.h>
#include "cell.h"
#include "spec.h"

enum plan_format { PLAN_TABLE, PLAN_TSV, PLAN_JSON };

/* Expand the matrix and check each distinct cell configuration. Returns 0,
 * or -EINVAL with errors in d. */
int plan_build(struct spec *s, struct cell **cells, size_t *n, struct diag *d);

/* Order cells so that those sharing fixtures run one after another. */
void plan_order(struct cell *cells, size_t n);

/* What cell i of the run order sets up anew: "target", "target+pg",
 * "pg settings" (same filesystem, other server settings) or "-". */
void plan_fixture_changes(const struct cell *cells, size_t i, bool has_pg, bool loads, char *buf, size_t len);

void plan_print(const struct spec *s, const struct cell *cells, size_t n, enum plan_format f, FILE *out);

#endif
