/* rep_md_pivots: see rep_md_pivots.h. */
#include "rep_md_pivots.h"

#include <stdlib.h>
#include <string.h>

#include <math.h>

#include "rep_config.h"
#include "rep_fmt.h"
#include "rep_text.h"
#include "rep_hosts.h"
#include "rep_md_repro.h"
#include "rep_metric_axis.h"

/* A pivot whose rows or cols are an axis of metric names (rep_metric_axis.h). */
struct pivot_axis {
	struct metric_axis ax;
	bool rows, cols; /* which dimension is the axis */
};

static void pivot_axis_init(struct pivot_axis *pa, const struct pivot_cfg *p, const char *metric)
{
	memset(pa, 0, sizeof(*pa));
	if (metric_axis_parse(metric, &pa->ax, NULL)) {
		pa->rows = strcmp(pa->ax.name, p->rows) == 0;
		pa->cols = !pa->rows && p->cols && strcmp(pa->ax.name, p->cols) == 0;
	}
}

/* The metric (and its step.metric reference) at (row value, col value). */
static void pivot_metric(const struct pivot_axis *pa, const char *step, const char *metric, const char *row,
                         const char *col, char *name, size_t len, char *ref, size_t reflen)
{
	if (pa->rows || pa->cols)
		metric_axis_metric(&pa->ax, pa->rows ? row : col, name, len);
	else
		snprintf(name, len, "%s", metric);
	snprintf(ref, reflen, "%s.%s", step, name);
}

/* The values of a dimension: a parameter's among the group's cells, or the
 * metric axis's. */
static void pivot_values(struct rep_ctx *cx, const struct rep_group *g, const struct pivot_axis *pa,
                         bool is_axis, const char *step, const char *param, struct rep_strs *out)
{
	if (is_axis)
		metric_axis_values(cx, g, step, &pa->ax, out);
	else
		rep_md_group_values(cx->run, g, param, out);
}

/* The cell of a group at (row value, col value), or -1. */
static long pivot_cell(const struct run *r, const struct rep_group *g, const struct pivot_cfg *p,
                       const struct pivot_axis *pa, const char *row, const char *col)
{
	for (size_t k = 0; k < g->n; k++) {
		const struct run_cell *cell = &r->cells[g->cells[k]];
		const char *rv = run_cell_param(cell, p->rows),
		           *cv = p->cols ? run_cell_param(cell, p->cols) : NULL;
		if (!pa->rows && strcmp(rv ? rv : "", row) != 0)
			continue;
		if (p->cols && !pa->cols && strcmp(cv ? cv : "", col) != 0)
			continue;
		return (long)g->cells[k];
	}
	return -1;
}

/* One value of the pivot: the statistic, "failed" or "-". */
static void pivot_value(struct rep_ctx *cx, const struct pivot_cfg *p, long ci, const char *step,
                        const char *metric, char *buf, size_t len)
{
	snprintf(buf, len, "-");
	if (ci < 0)
		return;
	const struct metric_summary *ms = cell_summary_metric(cx->sum[ci], step, metric);
	const struct step_summary *ss = cell_summary_step(cx->sum[ci], step);
	if (ms && (!p->stat || strcmp(p->stat, "mean") == 0))
		rep_md_fmt_metric(ms, buf, len);
	else if (ms)
		rep_fmt_human(rep_stat(ms, p->stat), buf, len);
	else if ((ss && ss->failed) || cx->run->cells[ci].status == RUN_FAILED)
		snprintf(buf, len, "failed");
}

/* report.html: the value links to its cell's details and sorts by its
 * full precision (rep_md_doc.h). */
static void pivot_marks(struct rep_ctx *cx, const struct md *m, const struct pivot_cfg *p, long ci,
                        const char *step, const char *metric)
{
	if (ci < 0)
		return;
	const struct metric_summary *ms = cell_summary_metric(cx->sum[ci], step, metric);
	rep_md_mark_cell(m, m->rf.f, (long)cx->run->cells[ci].index);
	if (ms)
		rep_md_mark_value(m, m->rf.f, rep_stat(ms, p->stat ? p->stat : "mean"));
}

/* "### title (unit), stat — group": every part escaped. */
static void pivot_heading(FILE *f, const struct pivot_cfg *p, const char *unit, const char *group)
{
	fputs("### ", f);
	rep_md_text(f, p->title ? p->title : p->value);
	if (*unit) {
		fputs(" (", f);
		rep_md_text(f, unit);
		fputc(')', f);
	}
	if (p->stat && strcmp(p->stat, "mean") != 0) {
		fputs(", ", f);
		rep_md_text(f, p->stat);
	}
	if (*group) {
		fputs(" — ", f);
		rep_md_text(f, group);
	}
}

void rep_md_pivots(struct rep_ctx *cx, struct md *m, const struct node *pv)
{
	const struct run *r = cx->run;
	FILE *f = m->rf.f;
	char buf[128], name[256], ref[400];

	if (rep_config_count(pv))
		fputs("## Pivot tables\n\n", f);
	for (size_t pi = 0; pi < rep_config_count(pv); pi++) {
		const struct node *cfg = rep_config_at(pv, pi);
		struct pivot_cfg p;
		char step[128];
		const char *metric;
		if (rep_config_pivot(cfg, &p, cx->d) < 0) {
			m->bad_config = true;
			fputs("*(invalid pivot skipped)*\n\n", f);
			continue;
		}
		results_split_ref(p.value, step, sizeof(step), &metric);
		struct pivot_axis pa;
		pivot_axis_init(&pa, &p, metric);
		if (!pa.rows && !rep_md_param_known(m, p.rows)) {
			rep_md_unknown_param(m, cx, cfg, "rows", p.rows);
			continue;
		}
		if (p.cols && !pa.cols && !rep_md_param_known(m, p.cols)) {
			rep_md_unknown_param(m, cx, cfg, "cols", p.cols);
			continue;
		}
		const char *used[] = {pa.rows ? NULL : p.rows, pa.cols ? NULL : p.cols};
		struct rep_group *g;
		size_t ng;
		if (rep_group_cells(r, p.where, used, 2, &g, &ng) < 0)
			continue;
		for (size_t gi = 0; gi < ng; gi++) {
			struct rep_strs rows = {0}, cols = {0};
			pivot_values(cx, &g[gi], &pa, pa.rows, step, p.rows, &rows);
			if (p.cols)
				pivot_values(cx, &g[gi], &pa, pa.cols, step, p.cols, &cols);
			else
				rep_strs_add(&cols, p.value);
			pivot_metric(&pa, step, metric, rows.n ? rows.v[0] : "", cols.n ? cols.v[0] : "",
			             name, sizeof(name), ref, sizeof(ref));
			const char *unit = rep_md_unit_of(cx, step, name);
			pivot_heading(f, &p, unit, g[gi].label);
			/* a "published" column after each column with a published figure */
			bool *pub = calloc(cols.n ? cols.n : 1, sizeof(*pub));
			struct rep_strs head = {0};
			for (size_t c = 0; pub && c < cols.n; c++) {
				for (size_t ri = 0; ri < rows.n && !pub[c]; ri++) {
					long ci = pivot_cell(r, &g[gi], &p, &pa, rows.v[ri], cols.v[c]);
					pivot_metric(&pa, step, metric, rows.v[ri], cols.v[c], name,
					             sizeof(name), ref, sizeof(ref));
					pub[c] = ci >= 0 && isfinite(rep_md_published(m, (size_t)ci, ref));
				}
				rep_strs_add(&head, cols.v[c]);
				if (pub[c]) {
					snprintf(buf, sizeof(buf), "%s published", p.cols ? cols.v[c] : "");
					rep_strs_add(&head, p.cols ? buf : "published");
				}
			}
			fputs("\n\n", f);
			rep_hosts_warn(f, r, g[gi].cells, g[gi].n, "table");
			fputs("| ", f);
			rep_md_cell(f, p.rows);
			if (p.cols) {
				fputs(" \\ ", f);
				rep_md_cell(f, p.cols);
			}
			fputs(" |", f);
			rep_md_head_rest(f, head.v, head.n);
			for (size_t ri = 0; ri < rows.n; ri++) {
				fputs("| ", f);
				rep_md_mark_param(m, f, rows.v[ri]);
				rep_md_cell(f, rows.v[ri]);
				fputs(" |", f);
				for (size_t c = 0; c < cols.n; c++) {
					long ci = pivot_cell(r, &g[gi], &p, &pa, rows.v[ri], cols.v[c]);
					pivot_metric(&pa, step, metric, rows.v[ri], cols.v[c], name,
					             sizeof(name), ref, sizeof(ref));
					pivot_value(cx, &p, ci, step, name, buf, sizeof(buf));
					fputc(' ', f);
					pivot_marks(cx, m, &p, ci, step, name);
					fprintf(f, "%s |", buf);
					if (!pub || !pub[c])
						continue;
					double v = ci >= 0 ? rep_md_published(m, (size_t)ci, ref) : NAN;
					if (isfinite(v))
						rep_fmt_human(v, buf, sizeof(buf));
					else
						snprintf(buf, sizeof(buf), "-");
					fprintf(f, " %s |", buf);
				}
				fputc('\n', f);
			}
			fputc('\n', f);
			free(pub);
			rep_strs_free(&head);
			rep_strs_free(&rows);
			rep_strs_free(&cols);
		}
		if (ng == 0) {
			fputs("*(no cell matches the pivot of ", f);
			rep_md_text(f, p.value);
			fputs(")*\n\n", f);
		}
		rep_groups_free(g, ng);
	}
}
