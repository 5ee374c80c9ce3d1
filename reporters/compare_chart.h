/* compare_chart: what compare.html's charts draw (compare_html.h): the
 * pairs of a comparison and every row cmp_render judged, kept through
 * compare_opts.html (cmp_html_pairs, cmp_html_pair, cmp_html_row), with the
 * intervals of each side's median; and what the charts share: the colour
 * of a verdict and labels cut to a width. */
#ifndef BENCHGRID_COMPARE_CHART_H
#define BENCHGRID_COMPARE_CHART_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "compare_metric.h"
#include "results.h"

struct cmp_html_row {
	size_t pair;
	char *ref;  /* step.metric */
	char *unit; /* "" when none */
	bool headline;
	struct cmp_metric m;
	/* the 95% intervals of A's and B's medians (NaN: not known, n < 5 or
	 * several runs on a side) */
	double lo_a, hi_a, lo_b, hi_b;
};

struct cmp_html {
	char **label;                   /* per pair, plain text: "0 k=x"; --by: "0->1 k=y" */
	struct cell_summary **sa, **sb; /* per pair (NULL: several runs on a side) */
	size_t np;
	struct cmp_html_row *r;
	size_t nr, cap;
};

void cmp_html_free(struct cmp_html *h);
/* n pairs to come (before their rows). 0 or -ENOMEM. */
int cmp_html_pairs(struct cmp_html *h, size_t n);
/* Pair i: cells a and b (a's id == b's for two runs); several: several
 * runs on a side. 0 or -ENOMEM. */
int cmp_html_pair(struct cmp_html *h, size_t i, const struct run_cell *a, const struct run_cell *b,
                  bool several);
/* One row of pair `pair`, as the Markdown table has it. 0 or -ENOMEM. */
int cmp_html_row(struct cmp_html *h, size_t pair, const char *step, const char *metric, const char *unit,
                 bool headline, const struct cmp_metric *m);
/* The colour of a verdict (the forest's marks, the bars' B). */
const char *cmp_html_colour(enum cmp_verdict v);
/* label into f, XML-escaped, cut to at most max bytes (at a character)
 * with ".." when cut. */
void cmp_html_text(FILE *f, const char *label, size_t max);

#endif
