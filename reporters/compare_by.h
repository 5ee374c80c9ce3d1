/* compare_by: `benchgrid compare DIR --by P`, the cells of one run that
 * differ only in one parameter (see compare_by.c). */
#ifndef BENCHGRID_COMPARE_BY_H
#define BENCHGRID_COMPARE_BY_H

#include <stdbool.h>
#include <stdio.h>

#include "compare_metric.h"
#include "compare_render.h"
#include "diag.h"

/* The same between the cells of one run that differ only in o->by: each
 * against the cell with the parameter's first value (the baseline). */
int rep_compare_by(const char *dir, const struct compare_opts *o, FILE *out, struct diag *d,
                   struct cmp_outcome *res);

#endif
