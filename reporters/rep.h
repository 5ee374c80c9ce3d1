/* rep: the reporters behind one small interface, and their shared helpers.
 *
 * A reporter is a row in a table of reporter_ops: begin() once, cell() for
 * every cell of the run in index order, end() once (also after an error, with
 * ok=false, so it can remove its temporary file). Each writes its file(s) in
 * the output directory as NAME.tmp, then fsync and rename, so an interrupted
 * `benchgrid report` never leaves half a report behind.
 *
 *   csv         results.csv     one row per cell and step (docs/results.md)
 *   timeseries  timeseries.csv  one row per cell, repetition, step and time
 *   markdown    report.md       + chart-N.svg files it links
 *
 * results.json is not a reporter: it is the source `benchgrid report DIR`
 * reads, written by results_write_json(). */
#ifndef BENCHGRID_REP_H
#define BENCHGRID_REP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "diag.h"
#include "node.h"
#include "results.h"

struct rep_ctx {
	const struct run *run;
	struct cell_summary **sum; /* one per run->cells[i] */
	const char *outdir;
	struct diag *d;
	void *priv; /* the reporter's own state */
};

struct reporter_ops {
	const char *name;
	const char *file; /* main output file name */
	int (*begin)(struct rep_ctx *cx);
	int (*cell)(struct rep_ctx *cx, size_t i); /* run->cells[i] with sum[i] */
	int (*end)(struct rep_ctx *cx, bool ok);
};

extern const struct reporter_ops rep_csv_ops, rep_timeseries_ops, rep_md_ops;

/* NULL-terminated table of all reporters. */
const struct reporter_ops *const *rep_all(void);
const struct reporter_ops *rep_find(const char *name);

/* Run every reporter over r into outdir (which must exist). Returns 0, a
 * negative errno for I/O failures, or -EINVAL when part of `report:` or
 * `expect:` is invalid (the rest is still written; errors are in d). */
int rep_write_all(const struct run *r, const char *outdir, struct diag *d);
/* Run one reporter. */
int rep_write_one(const struct reporter_ops *ops, const struct run *r, const char *outdir, struct diag *d);

/* Validate a `report:` section (pivot, charts) with positions. */
int rep_check_config(const struct node *report, struct diag *d);

/* Compare two result directories (or results.json files): Markdown to out. */
int rep_compare(const char *a, const char *b, FILE *out, struct diag *d);

/* ---- helpers shared by the reporters ---- */

/* Atomic output file: open outdir/name.tmp; commit fsyncs and renames. */
struct rep_file {
	FILE *f;
	char *tmp, *path;
};
int rep_file_open(struct rep_file *rf, const char *outdir, const char *name, struct diag *d);
int rep_file_commit(struct rep_file *rf, struct diag *d);
void rep_file_abort(struct rep_file *rf);

/* A number as the shortest text that reads back to the same double; "" for
 * NaN/inf. */
void rep_fmt_exact(double v, char *buf, size_t len);
/* A number for people: 4 significant digits, no exponent below 1e15. */
void rep_fmt_human(double v, char *buf, size_t len);
/* One CSV field, RFC 4180 (quoted when it holds , " CR LF or edge spaces). */
void rep_csv_field(FILE *f, const char *s);
/* Text for a Markdown table cell: | escaped, newlines as spaces. */
void rep_md_cell(FILE *f, const char *s);

/* Two parameter values are equal: same text, or same number, size or
 * duration ("4k" = "4096" = "4KiB", "1s" = "1000ms"). */
bool rep_value_equal(const char *a, const char *b);
/* Cell matches `where` (a map param -> value or list of values); NULL
 * matches every cell. */
bool rep_cell_matches(const struct run_cell *c, const struct node *where);

/* Ordered unique strings. */
struct rep_strs {
	char **v;
	size_t n, cap;
};
void rep_strs_add(struct rep_strs *s, const char *x); /* no-op if present */
long rep_strs_find(const struct rep_strs *s, const char *x);
void rep_strs_free(struct rep_strs *s);
/* Sort by number, size or duration when every entry has one, else keep
 * first-seen order. */
void rep_strs_sort_values(struct rep_strs *s);

/* Parameter names of all cells in first-seen order. */
void rep_param_names(const struct run *r, struct rep_strs *out);

/* Cells matching `where`, split into groups by the values of the parameters
 * that vary among them and are not in `used` (so a pivot or chart is drawn
 * once per combination of the other parameters). */
struct rep_group {
	char *label;   /* "clients=10, sb=2MB", "" when nothing else varies */
	size_t *cells; /* indices into run->cells */
	size_t n;
};
int rep_group_cells(const struct run *r, const struct node *where, const char *const *used, size_t nused,
                    struct rep_group **out, size_t *nout);
void rep_groups_free(struct rep_group *g, size_t n);

/* Statistic of a metric summary by name: mean (default), median, min, max,
 * stddev, cv, n. */
double rep_stat(const struct metric_summary *m, const char *stat);

#endif
