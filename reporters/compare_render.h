/* compare_render: the body of a comparison, for pairs of cells (A, B):
 * the statistics line, one verdict line per pair, the table of metrics,
 * the geometric means of B/A and, with a threshold, whether any metric
 * failed it. Used by compare A B (shared cells) and compare DIR --by P
 * (a baseline cell against each cell that differs in P). */
#ifndef BENCHGRID_COMPARE_RENDER_H
#define BENCHGRID_COMPARE_RENDER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "compare_metric.h"
#include "results.h"

struct cmp_pair {
	const struct run_cell *a, *b;
	char *label;    /* Markdown: the pair in its verdict line */
	char *row_head; /* Markdown table cells before the metric: "0 | `id` | fs=ext4" */
};

/* head: the table's first header cells, e.g. "# | id | cell" (ncols of
 * them). Returns 0 or -ENOMEM/-EIO; *failed as rep_compare_runs. */
int cmp_render(FILE *out, const struct cmp_pair *p, size_t n, const struct compare_opts *o, const char *head,
               size_t ncols, bool *failed);

void cmp_pairs_free(struct cmp_pair *p, size_t n);
/* A cell id into Markdown as text of its own: a plain id (letters, digits,
 * '_', '-': every id benchgrid writes) as it is, in a code span when code;
 * any other (results.json edited by hand) as rep_md_text, no code span. */
void cmp_md_id(FILE *f, const char *id, bool code);

#endif
