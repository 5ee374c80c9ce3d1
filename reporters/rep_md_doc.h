/* rep_md_doc: report.md while it is written, and what its sections share. */
#ifndef BENCHGRID_REP_MD_DOC_H
#define BENCHGRID_REP_MD_DOC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "expect_row.h"
#include "node.h"
#include "rep_file.h"
#include "rep_group.h"
#include "rep_ops.h"

struct md {
	struct rep_file rf; /* rf.f writes to memory (buf), see rep_md.c */
	FILE *file;         /* report.md.tmp while rf.f is the memory stream */
	char *buf;
	size_t len;
	/* The head of report.md (title, notes, description, run facts, and at
	 * the end the Reproduction section), in memory before buf. */
	FILE *head;
	char *hbuf;
	size_t hlen;
	struct expect_result exp; /* expect: evaluated at the end (n 0 without) */
	struct rep_strs params;
	struct rep_strs vary; /* the parameters that tell cells apart (rep_varying_params) */
	int nchart;
	bool bad_config;
	/* Written for report.html (rep_html.c): charts kept in svgs, and the marks of
	 * rep_md_mark() in the text, which the HTML writer turns into attributes,
	 * links and folds. report.md never has them. */
	bool html;
	struct diag *real_d; /* html: the caller's diag; cx->d is a quiet one */
	struct diag quiet;   /* html: report.md already said what is wrong */
	char **svgs;         /* html: the charts drawn, by their svg:N mark */
	size_t nsvg;
};

/* The marks of html mode, each "\x01KIND:TEXT\x02" (rep_html_md.c):
 *   v:NUMBER   the table cell's full-precision value (data-v, for sorting)
 *   a:N        the table cell links to the details of cell N
 *   id:N       the table row is the details of cell N (its anchor)
 *   details:S  a fold with summary S starts (on a line of its own)
 *   /details   the fold ends
 *   svg:N      chart N (m->svgs[N]) here, on a line of its own
 *   multiples:S, /multiples   small multiples (a figure with caption S) */
void rep_md_mark(const struct md *m, FILE *f, const char *kind, const char *text);
/* The v: mark of a number (nothing for NaN or outside html mode). */
void rep_md_mark_value(const struct md *m, FILE *f, double v);
/* The v: mark of a parameter value that is a number, size or duration
 * (rep_value_number), so report.html sorts 512kB < 16MB < 1GB; nothing for
 * other text, which sorts as text. */
void rep_md_mark_param(const struct md *m, FILE *f, const char *value);
/* The a: mark of the cell numbered n (run_cell.index; nothing for n < 0). */
void rep_md_mark_cell(const struct md *m, FILE *f, long n);

/* "mean ± half-width of its 95% confidence interval" (3 samples or more),
 * "mean (min to max)" for 2, the mean alone for one, for people. */
void rep_md_fmt_metric(const struct metric_summary *m, char *buf, size_t len);
/* Header cells " NAME |" for each of names (the parameters of a table). */
void rep_md_param_heads(FILE *f, const struct rep_strs *names);
/* Row cells " VALUE |" of cell c for each of names, with their sort marks. */
void rep_md_param_cells(const struct md *m, FILE *f, const struct run_cell *c, const struct rep_strs *names);
/* The |---|---| line under a table header of ncols columns. */
void rep_md_row_sep(FILE *f, size_t ncols);
/* The rest of a table's header row after its first cell (already written):
 * " cell |" for each of cells, the line's end and the separator row. */
void rep_md_head_rest(FILE *f, char *const *cells, size_t n);
/* Is p a parameter of the run? */
bool rep_md_param_known(const struct md *m, const char *p);
/* report: names a parameter the run lacks: an error at cfg's key, and a
 * note in place of the table or chart. */
void rep_md_unknown_param(struct md *m, struct rep_ctx *cx, const struct node *cfg, const char *key,
                          const char *p);
/* Distinct values of param among the cells of a group, sorted by value. */
void rep_md_group_values(const struct run *r, const struct rep_group *g, const char *param,
                         struct rep_strs *out);
/* The unit of step.metric in the first cell that has it, or "". */
const char *rep_md_unit_of(struct rep_ctx *cx, const char *step, const char *metric);

#endif
