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

/* What the results store's earlier runs of a pair's cells are looked up
 * with (struct cmp_hist_key), shared by the pairs of one comparison. */
struct cmp_hist_ctx {
	const char *scenario;    /* the runs' scenario name */
	double before;           /* started before this: the baseline's (A's) start */
	const char *const *skip; /* the ids of the runs compared */
	size_t nskip;
};

struct cmp_pair {
	const struct run_cell *a, *b;
	/* Several runs per side: the same cell in each run of the side
	 * (as[0] == a, bs[0] == b); NULL and 0: one run, a and b. */
	const struct run_cell *const *as, *const *bs;
	size_t nas, nbs;
	const char *host_a, *host_b;     /* where a and b ran, for the store's runs */
	const struct cmp_hist_ctx *hist; /* NULL: no store lookup */
	char *label;                     /* Markdown: the pair in its verdict line */
	char *row_head;                  /* Markdown table cells before the metric: "0 | `id` | fs=ext4" */
};

/* The outcome of a comparison with a threshold. */
struct cmp_outcome {
	bool failed; /* a metric failed --fail-above (exit 1) */
	size_t held; /* metrics over the threshold on within-run noise only, not failed */
};

/* head: the table's first header cells, e.g. "# | id | cell" (ncols of
 * them). Returns 0 or -ENOMEM/-EIO; *res (may be NULL) as rep_compare_sides. */
int cmp_render(FILE *out, const struct cmp_pair *p, size_t n, const struct compare_opts *o, const char *head,
               size_t ncols, struct cmp_outcome *res);

void cmp_pairs_free(struct cmp_pair *p, size_t n);
/* A cell id into Markdown as text of its own: a plain id (letters, digits,
 * '_', '-': every id benchgrid writes) as it is, in a code span when code;
 * any other (results.json edited by hand) as rep_md_text, no code span. */
void cmp_md_id(FILE *f, const char *id, bool code);

#endif
