/* compare: two runs side by side (`benchgrid compare`). */
#ifndef BENCHGRID_COMPARE_H
#define BENCHGRID_COMPARE_H

#include <stdio.h>

#include "diag.h"

/* Compare two result directories (or results.json files): a Markdown table
 * of the cells both share with the ratio B/A of each metric, to out. */
int rep_compare(const char *a, const char *b, FILE *out, struct diag *d);

#endif
