/* rep_md_pivots: see rep_md_pivots.h. */
#include "rep_md_pivots.h"

#include <string.h>

#include "rep_config.h"
#include "rep_fmt.h"

void rep_md_pivots(struct rep_ctx *cx, struct md *m, const struct node *pv)
{
	const struct run *r = cx->run;
	FILE *f = m->rf.f;
	char buf[128];

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
		if (!rep_md_param_known(m, p.rows)) {
			rep_md_unknown_param(m, cx, cfg, "rows", p.rows);
			continue;
		}
		if (p.cols && !rep_md_param_known(m, p.cols)) {
			rep_md_unknown_param(m, cx, cfg, "cols", p.cols);
			continue;
		}
		const char *used[] = {p.rows, p.cols};
		struct rep_group *g;
		size_t ng;
		if (rep_group_cells(r, p.where, used, 2, &g, &ng) < 0)
			continue;
		const char *unit = rep_md_unit_of(cx, step, metric);
		for (size_t gi = 0; gi < ng; gi++) {
			struct rep_strs rows = {0}, cols = {0};
			rep_md_group_values(r, &g[gi], p.rows, &rows);
			if (p.cols)
				rep_md_group_values(r, &g[gi], p.cols, &cols);
			else
				rep_strs_add(&cols, p.value);
			fputs("### ", f);
			rep_md_cell(f, p.title ? p.title : p.value);
			if (*unit)
				fprintf(f, " (%s)", unit);
			if (p.stat && strcmp(p.stat, "mean") != 0)
				fprintf(f, ", %s", p.stat);
			if (*g[gi].label) {
				fputs(" — ", f);
				rep_md_cell(f, g[gi].label);
			}
			fputs("\n\n| ", f);
			rep_md_cell(f, p.rows);
			if (p.cols) {
				fputs(" \\ ", f);
				rep_md_cell(f, p.cols);
			}
			fputs(" |", f);
			rep_md_head_rest(f, cols.v, cols.n);
			for (size_t ri = 0; ri < rows.n; ri++) {
				fputs("| ", f);
				rep_md_cell(f, rows.v[ri]);
				fputs(" |", f);
				for (size_t c = 0; c < cols.n; c++) {
					snprintf(buf, sizeof(buf), "-");
					for (size_t k = 0; k < g[gi].n; k++) {
						size_t ci = g[gi].cells[k];
						const struct run_cell *cell = &r->cells[ci];
						if (strcmp(run_cell_param(cell, p.rows)
						               ? run_cell_param(cell, p.rows)
						               : "",
						           rows.v[ri]) != 0)
							continue;
						if (p.cols && strcmp(run_cell_param(cell, p.cols)
						                         ? run_cell_param(cell, p.cols)
						                         : "",
						                     cols.v[c]) != 0)
							continue;
						const struct metric_summary *ms =
						    cell_summary_metric(cx->sum[ci], step, metric);
						const struct step_summary *ss =
						    cell_summary_step(cx->sum[ci], step);
						if (ms && (!p.stat || strcmp(p.stat, "mean") == 0))
							rep_md_fmt_metric(ms, buf, sizeof(buf));
						else if (ms)
							rep_fmt_human(rep_stat(ms, p.stat), buf, sizeof(buf));
						else if ((ss && ss->failed) || cell->status == RUN_FAILED)
							snprintf(buf, sizeof(buf), "failed");
						break;
					}
					fprintf(f, " %s |", buf);
				}
				fputc('\n', f);
			}
			fputc('\n', f);
			rep_strs_free(&rows);
			rep_strs_free(&cols);
		}
		if (ng == 0)
			fprintf(f, "*(no cell matches the pivot of %s)*\n\n", p.value);
		rep_groups_free(g, ng);
	}
}
