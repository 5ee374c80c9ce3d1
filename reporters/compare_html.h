/* compare_html: compare.html, the page `benchgrid compare` writes beside
 * its Markdown (docs/reports.md, "compare.html").
 *
 * cmp_render hands compare_chart the pairs and every row it judged
 * (through compare_opts.html); the command then writes the
 * page from the Markdown it printed (cmp_html_write): the same text turned
 * into HTML by rep_html_md (so the verdicts, the noise lines and the
 * threshold read exactly as in the Markdown, and the tables sort), with a
 * section of charts drawn here before the table of metrics: a forest plot
 * of B/A with its 95% intervals sorted by effect (compare_forest), and per
 * metric the medians of A and B as bars with their intervals
 * (compare_bars). One self-contained file under report.html's
 * Content-Security-Policy; no script is needed to see the charts. */
#ifndef BENCHGRID_COMPARE_HTML_H
#define BENCHGRID_COMPARE_HTML_H

#include <stddef.h>

#include "compare_chart.h"
#include "diag.h"

/* The page from md[0..len) (the Markdown the command printed) into the file
 * path, written whole (rep_file: a temporary file, O_NOFOLLOW, renamed).
 * 0 or a negative errno with the error in d. */
int cmp_html_write(const struct cmp_html *h, const char *md, size_t len, const char *path, struct diag *d);

#endif
