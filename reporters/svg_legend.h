/* svg_legend: the layout of a chart's legend (svg.c draws it): one entry per
 * series, its label wrapped at spaces into lines of at most LEGEND_COLS
 * bytes, at most LEGEND_LINES lines (the last ends in an ellipsis when the
 * label is longer), so that no label is cut where it tells the series apart
 * and the legend's width is bounded; and the height each entry takes, so
 * that svg.c can make the image taller than a tall legend (never cut off). */
#ifndef BENCHGRID_SVG_LEGEND_H
#define BENCHGRID_SVG_LEGEND_H

#include <stdbool.h>
#include <stddef.h>

/* The first entry's baseline LEGEND_TOP below the legend's top;
 * LEGEND_STEP from an entry's last line to the next entry, LEGEND_LINE
 * between the lines of one; LEGEND_DESCENT below a baseline. */
enum {
	LEGEND_COLS = 30,
	LEGEND_LINES = 6,
	LEGEND_TOP = 6,
	LEGEND_STEP = 18,
	LEGEND_LINE = 15,
	LEGEND_DESCENT = 6
};

/* The lines of label l: line k is len[k] bytes from l + at[k]; *cut: the
 * label did not fit (its last line takes an ellipsis). Never splits a UTF-8
 * character. */
size_t svg_legend_wrap(const char *l, size_t at[LEGEND_LINES], size_t len[LEGEND_LINES], bool *cut);
/* From the baseline of an entry of nl lines to the next entry's. */
double svg_legend_entry_h(size_t nl);

#endif
