/* compare_forest: compare.html's forest plot of B/A (compare_forest.c). */
#ifndef BENCHGRID_COMPARE_FOREST_H
#define BENCHGRID_COMPARE_FOREST_H

#include <stddef.h>
#include <stdio.h>

#include "compare_chart.h"

/* Inline SVG into f: one row per row of h with a ratio, largest |log B/A|
 * first. Returns the number of rows drawn (0: nothing written). */
size_t cmp_forest_svg(FILE *f, const struct cmp_html *h);

#endif
