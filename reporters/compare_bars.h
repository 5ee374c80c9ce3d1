/* compare_bars: compare.html's bars of A and B (compare_bars.c). */
#ifndef BENCHGRID_COMPARE_BARS_H
#define BENCHGRID_COMPARE_BARS_H

#include <stdio.h>

#include "compare_chart.h"

/* Inline SVG into f: for metric ref (step.metric), the medians of A and B
 * of each pair that has it, with their intervals. */
void cmp_bars_svg(FILE *f, const struct cmp_html *h, const char *ref);

#endif
