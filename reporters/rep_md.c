/* rep_md: report.md and its SVG charts.
 *
 * Sections, in order (docs/results.md):
 *   title, description, run facts (scenario, times, cells, repeat)
 *   ## Environment         machine facts (kernel, CPU, PostgreSQL, ...)
 *   ## Summary             one row per cell: #, id, parameters, status, elapsed
 *   ## Steps               per step name one table: #, parameters, metrics
 *   ## Cell facts          when cells recorded facts (fs type, device, settings)
 *   ## Pivot tables        report.pivot: rows x cols of one step.metric
 *   ## Charts              report.charts: chart-N.svg, linked
 *   ## Published vs measured   the expect: comparison
 *   ## Warnings            outliers and cold first runs over repeats
 *   ## Failed cells        every failed cell with its error
 * The summary rows are written as cells arrive (cell()); the rest at end(). */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "expect.h"
#include "rep.h"
#include "svg.h"
#include "units.h"

struct md {
	struct rep_file rf;
	struct rep_strs params;
	int nchart;
	bool bad_config;
};

/* ---- report: configuration ---- */

static const char *const report_keys[] = {"pivot", "charts", NULL};
static const char *const pivot_keys[] = {"rows", "cols", "value", "stat", "where", "title", NULL};
static const char *const chart_keys[] = {"x", "y", "series", "where", "title", "kind", NULL};
static const char *const stat_names[] = {"mean", "median", "min", "max", "stddev", "cv", "n", NULL};
static const char *const kind_names[] = {"line", "bar", NULL};

struct pivot_cfg {
	const char *rows, *cols, *value, *stat, *title;
	const struct node *where;
};

struct chart_cfg {
	const char *x, *y, *series, *title;
	int kind; /* -1 auto, 0 line, 1 bar */
	const struct node *where;
};

static int opt_str(const struct node *map, const char *key, const char *what, bool required, const char **out,
                   struct diag *d)
{
	const struct node *n = node_get(map, key);
	*out = NULL;
	if (!n) {
		if (required) {
			diag_error(d, &map->pos, "%s: missing '%s'", what, key);
			return -EINVAL;
		}
		return 0;
	}
	char full[128];
	snprintf(full, sizeof(full), "%s.%s", what, key);
	return node_as_string(n, full, out, d);
}

static int check_ref(const struct node *map, const char *key, const char *ref, struct diag *d)
{
	char step[128];
	const char *metric;
	if (ref && !results_split_ref(ref, step, sizeof(step), &metric)) {
		const struct node *n = node_get(map, key);
		diag_error(d, &n->pos, "'%s' must be step.metric (e.g. ro.tps)", ref);
		return -EINVAL;
	}
	return 0;
}

static int check_where(const struct node *w, struct diag *d)
{
	if (w && w->kind != NODE_MAP) {
		diag_error(d, &w->pos, "where must be a map of parameter: value");
		return -EINVAL;
	}
	return 0;
}

static int parse_pivot(const struct node *n, struct pivot_cfg *p, struct diag *d)
{
	int rc = 0, st = 0;
	memset(p, 0, sizeof(*p));
	if (node_check_keys(n, "report.pivot", pivot_keys, d) < 0)
		return -EINVAL;
	rc |= opt_str(n, "rows", "report.pivot", true, &p->rows, d);
	rc |= opt_str(n, "cols", "report.pivot", false, &p->cols, d);
	rc |= opt_str(n, "value", "report.pivot", true, &p->value, d);
	rc |= opt_str(n, "title", "report.pivot", false, &p->title, d);
	if (node_get(n, "stat")) {
		rc |= node_as_enum(node_get(n, "stat"), "report.pivot.stat", stat_names, &st, d);
		p->stat = stat_names[st];
	}
	p->where = node_get(n, "where");
	rc |= check_where(p->where, d);
	if (rc == 0)
		rc = check_ref(n, "value", p->value, d);
	return rc ? -EINVAL : 0;
}

static int parse_chart(const struct node *n, struct chart_cfg *c, struct diag *d)
{
	int rc = 0;
	memset(c, 0, sizeof(*c));
	c->kind = -1;
	if (node_check_keys(n, "report.charts", chart_keys, d) < 0)
		return -EINVAL;
	rc |= opt_str(n, "x", "report.charts", true, &c->x, d);
	rc |= opt_str(n, "y", "report.charts", true, &c->y, d);
	rc |= opt_str(n, "series", "report.charts", false, &c->series, d);
	rc |= opt_str(n, "title", "report.charts", false, &c->title, d);
	if (node_get(n, "kind"))
		rc |= node_as_enum(node_get(n, "kind"), "report.charts.kind", kind_names, &c->kind, d);
	c->where = node_get(n, "where");
	rc |= check_where(c->where, d);
	if (rc == 0)
		rc = check_ref(n, "y", c->y, d);
	return rc ? -EINVAL : 0;
}

/* pivot/charts may be one map or a list of maps. */
static size_t list_len(const struct node *n)
{
	return !n ? 0 : n->kind == NODE_SEQ ? n->n : 1;
}

static const struct node *list_at(const struct node *n, size_t i)
{
	return n->kind == NODE_SEQ ? n->items[i] : n;
}

int rep_check_config(const struct node *report, struct diag *d)
{
	int rc = 0;
	if (!report || report->kind == NODE_NULL)
		return 0;
	if (node_check_keys(report, "report", report_keys, d) < 0)
		return -EINVAL;
	const struct node *pv = node_get(report, "pivot"), *ch = node_get(report, "charts");
	for (size_t i = 0; i < list_len(pv); i++) {
		struct pivot_cfg p;
		if (parse_pivot(list_at(pv, i), &p, d) < 0)
			rc = -EINVAL;
	}
	for (size_t i = 0; i < list_len(ch); i++) {
		struct chart_cfg c;
		if (parse_chart(list_at(ch, i), &c, d) < 0)
			rc = -EINVAL;
	}
	return rc;
}

/* ---- helpers ---- */

static void fmt_time(double t, char *buf, size_t len)
{
	time_t s = (time_t)t;
	struct tm tm;
	if (t <= 0 || !gmtime_r(&s, &tm)) {
		snprintf(buf, len, "-");
		return;
	}
	strftime(buf, len, "%Y-%m-%d %H:%M:%S UTC", &tm);
}

static void fmt_metric(const struct metric_summary *m, char *buf, size_t len)
{
	char a[32], b[32];
	rep_fmt_human(m->st.mean, a, sizeof(a));
	if (m->st.n > 1) {
		rep_fmt_human(m->st.stddev, b, sizeof(b));
		snprintf(buf, len, "%s ± %s", a, b);
	} else {
		snprintf(buf, len, "%s", a);
	}
}

static void md_row_sep(FILE *f, size_t ncols)
{
	fputc('|', f);
	for (size_t i = 0; i < ncols; i++)
		fputs("---|", f);
	fputc('\n', f);
}

static bool param_known(const struct md *m, const char *p)
{
	return p && rep_strs_find(&m->params, p) >= 0;
}

static void unknown_param(struct md *m, struct rep_ctx *cx, const struct node *cfg, const char *key,
                          const char *p)
{
	const struct node *n = node_get(cfg, key);
	diag_error(cx->d, n ? &n->pos : &cfg->pos, "report: '%s' is not a parameter of this run", p);
	fprintf(m->rf.f, "*(skipped: '%s' is not a parameter of this run)*\n\n", p);
	m->bad_config = true;
}

/* ---- begin / cell ---- */

static int md_begin(struct rep_ctx *cx)
{
	const struct run *r = cx->run;
	struct md *m = calloc(1, sizeof(*m));
	char a[64], b[64];
	if (!m)
		return -ENOMEM;
	cx->priv = m;
	rep_param_names(r, &m->params);
	int rc = rep_file_open(&m->rf, cx->outdir, "report.md", cx->d);
	if (rc < 0)
		return rc;
	FILE *f = m->rf.f;

	fputs("# ", f);
	rep_md_cell(f, r->name && *r->name ? r->name : "benchgrid run");
	fputs("\n\n", f);
	if (r->description && *r->description)
		fprintf(f, "%s\n\n", r->description);

	size_t nok = 0, nfail = 0, nskip = 0;
	for (size_t i = 0; i < r->ncells; i++) {
		nok += r->cells[i].status == RUN_OK;
		nfail += r->cells[i].status == RUN_FAILED;
		nskip += r->cells[i].status == RUN_SKIPPED;
	}
	if (r->scenario_file)
		fprintf(f, "- Scenario: `%s`\n", r->scenario_file);
	fmt_time(r->started, a, sizeof(a));
	fmt_time(r->finished, b, sizeof(b));
	fprintf(f, "- Started: %s; finished: %s", a, r->finished > 0 ? b : "not finished");
	if (r->finished > r->started && r->started > 0)
		fprintf(f, " (%.0f s)", r->finished - r->started);
	fputs("\n", f);
	fprintf(f, "- Cells: %zu recorded", r->ncells);
	if (r->nplanned)
		fprintf(f, " of %zu planned", r->nplanned);
	fprintf(f, " (%zu ok, %zu failed, %zu skipped)\n", nok, nfail, nskip);
	if (r->repeat > 1 || r->warmup)
		fprintf(f, "- Repeat: %zu (values are means ± sample standard deviation), warmup: %zu\n",
		        r->repeat, r->warmup);
	fprintf(f, "- Tool: %s\n\n", r->tool_version ? r->tool_version : "benchgrid");

	if (r->env.ni || r->env.nm) {
		fputs("## Environment\n\n| fact | value |\n|---|---|\n", f);
		for (size_t i = 0; i < r->env.ni; i++) {
			fputs("| ", f);
			rep_md_cell(f, r->env.info[i].key);
			fputs(" | ", f);
			rep_md_cell(f, r->env.info[i].value);
			fputs(" |\n", f);
		}
		for (size_t i = 0; i < r->env.nm; i++) {
			rep_fmt_human(r->env.m[i].value, a, sizeof(a));
			fputs("| ", f);
			rep_md_cell(f, r->env.m[i].name);
			fprintf(f, " | %s %s |\n", a, r->env.m[i].unit ? r->env.m[i].unit : "");
		}
		fputc('\n', f);
	}

	fputs("## Summary\n\n| # | id |", f);
	for (size_t i = 0; i < m->params.n; i++) {
		fputc(' ', f);
		rep_md_cell(f, m->params.v[i]);
		fputs(" |", f);
	}
	fputs(" status | elapsed (s) |\n", f);
	md_row_sep(f, m->params.n + 4);
	return 0;
}

static int md_cell(struct rep_ctx *cx, size_t i)
{
	struct md *m = cx->priv;
	const struct run_cell *c = &cx->run->cells[i];
	FILE *f = m->rf.f;
	char buf[64];

	fprintf(f, "| %zu | %s |", c->index, c->id);
	for (size_t k = 0; k < m->params.n; k++) {
		fputc(' ', f);
		rep_md_cell(f, run_cell_param(c, m->params.v[k]));
		fputs(" |", f);
	}
	rep_fmt_human(c->elapsed, buf, sizeof(buf));
	fprintf(f, " %s | %s |\n", run_status_name(c->status), buf);
	return 0;
}

/* ---- end: the sections that need every cell ---- */

static void section_steps(struct rep_ctx *cx, struct md *m)
{
	const struct run *r = cx->run;
	FILE *f = m->rf.f;
	struct rep_strs steps = {0};
	char buf[128];

	for (size_t i = 0; i < r->ncells; i++)
		for (size_t k = 0; k < cx->sum[i]->nsteps; k++)
			rep_strs_add(&steps, cx->sum[i]->steps[k].step);
	if (steps.n)
		fputs("## Steps\n\n", f);
	for (size_t s = 0; s < steps.n; s++) {
		struct rep_strs metrics = {0}, units = {0};
		const char *workload = "";
		for (size_t i = 0; i < r->ncells; i++) {
			const struct step_summary *ss = cell_summary_step(cx->sum[i], steps.v[s]);
			for (size_t j = 0; ss && j < ss->nm; j++) {
				if (rep_strs_find(&metrics, ss->m[j].name) < 0) {
					rep_strs_add(&metrics, ss->m[j].name);
					snprintf(buf, sizeof(buf), "%s", ss->m[j].unit);
					/* units keeps one entry per metric (may repeat) */
					if (units.n == units.cap) {
						size_t cap = units.cap ? units.cap * 2 : 8;
						char **v = realloc(units.v, cap * sizeof(*v));
						if (!v)
							continue;
						units.v = v;
						units.cap = cap;
					}
					units.v[units.n++] = strdup(buf);
				}
			}
			if (ss && !*workload)
				workload = ss->workload;
		}
		fputs("### Step `", f);
		rep_md_cell(f, steps.v[s]);
		fprintf(f, "`%s%s%s\n\n| # |", *workload ? " (" : "", workload, *workload ? ")" : "");
		for (size_t k = 0; k < m->params.n; k++) {
			fputc(' ', f);
			rep_md_cell(f, m->params.v[k]);
			fputs(" |", f);
		}
		fputs(" status |", f);
		for (size_t j = 0; j < metrics.n; j++) {
			fputc(' ', f);
			rep_md_cell(f, metrics.v[j]);
			if (j < units.n && units.v[j] && *units.v[j]) {
				fputs(" (", f);
				rep_md_cell(f, units.v[j]);
				fputc(')', f);
			}
			fputs(" |", f);
		}
		fputc('\n', f);
		md_row_sep(f, 2 + m->params.n + metrics.n);
		for (size_t i = 0; i < r->ncells; i++) {
			const struct run_cell *c = &r->cells[i];
			const struct step_summary *ss = cell_summary_step(cx->sum[i], steps.v[s]);
			if (!ss)
				continue;
			fprintf(f, "| %zu |", c->index);
			for (size_t k = 0; k < m->params.n; k++) {
				fputc(' ', f);
				rep_md_cell(f, run_cell_param(c, m->params.v[k]));
				fputs(" |", f);
			}
			fprintf(f, " %s |", ss->failed ? "failed" : "ok");
			for (size_t j = 0; j < metrics.n; j++) {
				const struct metric_summary *ms =
				    cell_summary_metric(cx->sum[i], steps.v[s], metrics.v[j]);
				if (ms)
					fmt_metric(ms, buf, sizeof(buf));
				else
					snprintf(buf, sizeof(buf), "-");
				fprintf(f, " %s |", buf);
			}
			fputc('\n', f);
		}
		fputc('\n', f);
		rep_strs_free(&metrics);
		rep_strs_free(&units);
	}
	rep_strs_free(&steps);
}

/* A cell's fact as text (info, or metric with unit), "-" when absent. */
static void fact_text(const struct step_result *fa, const char *key, char *out, size_t len)
{
	const char *v = result_info_get(fa, key);
	const struct metric *mt = result_get(fa, key);
	char buf[64];
	if (v) {
		snprintf(out, len, "%s", v);
	} else if (mt) {
		rep_fmt_human(mt->value, buf, sizeof(buf));
		snprintf(out, len, "%s%s%s", buf, mt->unit && *mt->unit ? " " : "", mt->unit ? mt->unit : "");
	} else {
		snprintf(out, len, "-");
	}
}

/* Facts equal in every cell are listed once ("Common to all cells"); the
 * table has only the facts that differ, so it stays readable. */
static void section_facts(struct rep_ctx *cx, struct md *m)
{
	const struct run *r = cx->run;
	FILE *f = m->rf.f;
	struct rep_strs keys = {0}, common = {0}, differ = {0};
	char a[512], b[512];

	for (size_t i = 0; i < r->ncells; i++) {
		for (size_t k = 0; k < r->cells[i].facts.ni; k++)
			rep_strs_add(&keys, r->cells[i].facts.info[k].key);
		for (size_t k = 0; k < r->cells[i].facts.nm; k++)
			rep_strs_add(&keys, r->cells[i].facts.m[k].name);
	}
	if (keys.n == 0)
		return;
	for (size_t k = 0; k < keys.n; k++) {
		bool same = true;
		fact_text(&r->cells[0].facts, keys.v[k], a, sizeof(a));
		for (size_t i = 1; i < r->ncells && same; i++) {
			fact_text(&r->cells[i].facts, keys.v[k], b, sizeof(b));
			same = strcmp(a, b) == 0;
		}
		rep_strs_add(same && r->ncells > 1 ? &common : &differ, keys.v[k]);
	}
	fputs("## Cell facts\n\n", f);
	if (common.n) {
		fputs("Common to all cells:\n\n| fact | value |\n|---|---|\n", f);
		for (size_t k = 0; k < common.n; k++) {
			fact_text(&r->cells[0].facts, common.v[k], a, sizeof(a));
			fputs("| ", f);
			rep_md_cell(f, common.v[k]);
			fputs(" | ", f);
			rep_md_cell(f, a);
			fputs(" |\n", f);
		}
		fputc('\n', f);
	}
	if (differ.n) {
		if (common.n)
			fputs("Per cell:\n\n", f);
		fputs("| # |", f);
		for (size_t k = 0; k < differ.n; k++) {
			fputc(' ', f);
			rep_md_cell(f, differ.v[k]);
			fputs(" |", f);
		}
		fputc('\n', f);
		md_row_sep(f, differ.n + 1);
		for (size_t i = 0; i < r->ncells; i++) {
			fprintf(f, "| %zu |", r->cells[i].index);
			for (size_t k = 0; k < differ.n; k++) {
				fact_text(&r->cells[i].facts, differ.v[k], a, sizeof(a));
				fputc(' ', f);
				rep_md_cell(f, a);
				fputs(" |", f);
			}
			fputc('\n', f);
		}
		fputc('\n', f);
	}
	rep_strs_free(&keys);
	rep_strs_free(&common);
	rep_strs_free(&differ);
}

/* Distinct values of param among the cells of a group, sorted by value. */
static void group_values(const struct run *r, const struct rep_group *g, const char *param,
                         struct rep_strs *out)
{
	for (size_t i = 0; param && i < g->n; i++)
		rep_strs_add(out, run_cell_param(&r->cells[g->cells[i]], param));
	rep_strs_sort_values(out);
}

static const char *unit_of(struct rep_ctx *cx, const char *step, const char *metric)
{
	for (size_t i = 0; i < cx->run->ncells; i++) {
		const struct metric_summary *ms = cell_summary_metric(cx->sum[i], step, metric);
		if (ms)
			return ms->unit;
	}
	return "";
}

static void section_pivots(struct rep_ctx *cx, struct md *m, const struct node *pv)
{
	const struct run *r = cx->run;
	FILE *f = m->rf.f;
	char buf[128];

	if (list_len(pv))
		fputs("## Pivot tables\n\n", f);
	for (size_t pi = 0; pi < list_len(pv); pi++) {
		const struct node *cfg = list_at(pv, pi);
		struct pivot_cfg p;
		char step[128];
		const char *metric;
		if (parse_pivot(cfg, &p, cx->d) < 0) {
			m->bad_config = true;
			fputs("*(invalid pivot skipped)*\n\n", f);
			continue;
		}
		results_split_ref(p.value, step, sizeof(step), &metric);
		if (!param_known(m, p.rows)) {
			unknown_param(m, cx, cfg, "rows", p.rows);
			continue;
		}
		if (p.cols && !param_known(m, p.cols)) {
			unknown_param(m, cx, cfg, "cols", p.cols);
			continue;
		}
		const char *used[] = {p.rows, p.cols};
		struct rep_group *g;
		size_t ng;
		if (rep_group_cells(r, p.where, used, 2, &g, &ng) < 0)
			continue;
		const char *unit = unit_of(cx, step, metric);
		for (size_t gi = 0; gi < ng; gi++) {
			struct rep_strs rows = {0}, cols = {0};
			group_values(r, &g[gi], p.rows, &rows);
			if (p.cols)
				group_values(r, &g[gi], p.cols, &cols);
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
			for (size_t c = 0; c < cols.n; c++) {
				fputc(' ', f);
				rep_md_cell(f, cols.v[c]);
				fputs(" |", f);
			}
			fputc('\n', f);
			md_row_sep(f, cols.n + 1);
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
							fmt_metric(ms, buf, sizeof(buf));
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

static int write_svg(struct rep_ctx *cx, struct md *m, const struct svg_chart *ch)
{
	char name[64];
	struct rep_file rf;
	snprintf(name, sizeof(name), "chart-%d.svg", ++m->nchart);
	int rc = rep_file_open(&rf, cx->outdir, name, cx->d);
	if (rc < 0)
		return rc;
	rc = svg_write(rf.f, ch);
	if (rc < 0) {
		rep_file_abort(&rf);
		return rc;
	}
	rc = rep_file_commit(&rf, cx->d);
	if (rc < 0)
		return rc;
	fputs("![", m->rf.f);
	rep_md_cell(m->rf.f, ch->title);
	fprintf(m->rf.f, "](%s)\n\n", name);
	return 0;
}

/* A metric over time: one line per cell of the group (first repetition). */
static int chart_time(struct rep_ctx *cx, struct md *m, const struct chart_cfg *c, const char *step,
                      const char *metric, const struct rep_group *g, const char *title)
{
	const struct run *r = cx->run;
	struct svg_series *s = calloc(g->n ? g->n : 1, sizeof(*s));
	char **labels = calloc(g->n ? g->n : 1, sizeof(*labels));
	const char *unit = "";
	size_t ns = 0;
	int rc = 0;
	if (!s || !labels) {
		free(s);
		free(labels);
		return -ENOMEM;
	}
	for (size_t k = 0; k < g->n; k++) {
		const struct step_summary *ss = cell_summary_step(cx->sum[g->cells[k]], step);
		const struct series *se = ss ? result_series(ss->first, metric) : NULL;
		if (!se)
			continue;
		const struct run_cell *cell = &r->cells[g->cells[k]];
		const char *v = c->series ? run_cell_param(cell, c->series) : NULL;
		char lab[256];
		if (v)
			snprintf(lab, sizeof(lab), "%s", v);
		else if (g->n > 1)
			run_cell_label(cell, lab, sizeof(lab));
		else
			snprintf(lab, sizeof(lab), "%s", metric);
		labels[ns] = strdup(lab);
		s[ns] = (struct svg_series){labels[ns], se->n, se->t, se->v};
		if (se->unit && *se->unit)
			unit = se->unit;
		ns++;
	}
	if (ns == 0) {
		fprintf(m->rf.f, "*(no time series %s for this chart)*\n\n", c->y);
	} else {
		char ylabel[160];
		snprintf(ylabel, sizeof(ylabel), "%s%s%s%s", c->y, *unit ? " (" : "", unit, *unit ? ")" : "");
		struct svg_chart ch = {.kind = c->kind == 1 ? SVG_BAR : SVG_LINE,
		                       .title = title,
		                       .subtitle = *g->label ? g->label : NULL,
		                       .xlabel = "time (s)",
		                       .x_zero = true,
		                       .ylabel = ylabel,
		                       .s = s,
		                       .ns = ns};
		rc = write_svg(cx, m, &ch);
	}
	for (size_t k = 0; k < ns; k++)
		free(labels[k]);
	free(labels);
	free(s);
	return rc;
}

/* A metric against a parameter: categories = x values, one line per series value. */
static int chart_param(struct rep_ctx *cx, struct md *m, const struct chart_cfg *c, const char *step,
                       const char *metric, const struct rep_group *g, const char *title)
{
	const struct run *r = cx->run;
	struct rep_strs xs = {0}, sv = {0};
	group_values(r, g, c->x, &xs);
	if (c->series)
		group_values(r, g, c->series, &sv);
	else
		rep_strs_add(&sv, "");
	size_t nx = xs.n, nsv = sv.n;
	struct svg_series *s = calloc(nsv ? nsv : 1, sizeof(*s));
	double *x = calloc(nx ? nx : 1, sizeof(*x)), *y = calloc((nx ? nx : 1) * (nsv ? nsv : 1), sizeof(*y));
	int rc = 0;
	bool numeric = true;
	if (!s || !x || !y) {
		rc = -ENOMEM;
		goto out;
	}
	for (size_t i = 0; i < nx; i++) {
		double v;
		x[i] = (double)i;
		numeric &= units_is_number(xs.v[i], &v) || units_has_size_suffix(xs.v[i]);
	}
	for (size_t j = 0; j < nsv; j++) {
		for (size_t i = 0; i < nx; i++) {
			y[j * nx + i] = NAN;
			for (size_t k = 0; k < g->n; k++) {
				const struct run_cell *cell = &r->cells[g->cells[k]];
				const char *xv = run_cell_param(cell, c->x),
				           *sval = c->series ? run_cell_param(cell, c->series) : "";
				if (!xv || strcmp(xv, xs.v[i]) != 0 || !sval || strcmp(sval, sv.v[j]) != 0)
					continue;
				const struct metric_summary *ms =
				    cell_summary_metric(cx->sum[g->cells[k]], step, metric);
				if (ms)
					y[j * nx + i] = ms->st.mean;
				break;
			}
		}
		s[j] = (struct svg_series){*sv.v[j] ? sv.v[j] : metric, nx, x, y + j * nx};
	}
	const char *unit = unit_of(cx, step, metric);
	char ylabel[160];
	snprintf(ylabel, sizeof(ylabel), "%s%s%s%s", c->y, *unit ? " (" : "", unit, *unit ? ")" : "");
	struct svg_chart ch = {.kind = c->kind == 1 || (c->kind < 0 && !numeric) ? SVG_BAR : SVG_LINE,
	                       .title = title,
	                       .subtitle = *g->label ? g->label : NULL,
	                       .xlabel = c->x,
	                       .ylabel = ylabel,
	                       .categories = (const char *const *)xs.v,
	                       .ncat = nx,
	                       .s = s,
	                       .ns = nsv};
	if (nx == 0)
		fprintf(m->rf.f, "*(no values of %s for this chart)*\n\n", c->x);
	else
		rc = write_svg(cx, m, &ch);
out:
	free(s);
	free(x);
	free(y);
	rep_strs_free(&xs);
	rep_strs_free(&sv);
	return rc;
}

static int section_charts(struct rep_ctx *cx, struct md *m, const struct node *chs)
{
	if (list_len(chs))
		fputs("## Charts\n\n", m->rf.f);
	for (size_t ci = 0; ci < list_len(chs); ci++) {
		const struct node *cfg = list_at(chs, ci);
		struct chart_cfg c;
		char step[128], title[256];
		const char *metric;
		if (parse_chart(cfg, &c, cx->d) < 0) {
			m->bad_config = true;
			fputs("*(invalid chart skipped)*\n\n", m->rf.f);
			continue;
		}
		results_split_ref(c.y, step, sizeof(step), &metric);
		bool over_time = strcmp(c.x, "time") == 0 || strcmp(c.x, "t") == 0;
		if (!over_time && !param_known(m, c.x)) {
			unknown_param(m, cx, cfg, "x", c.x);
			continue;
		}
		if (c.series && !param_known(m, c.series)) {
			unknown_param(m, cx, cfg, "series", c.series);
			continue;
		}
		const char *used[] = {over_time ? NULL : c.x, c.series};
		struct rep_group *g;
		size_t ng;
		if (rep_group_cells(cx->run, c.where, used, 2, &g, &ng) < 0)
			return -ENOMEM;
		if (c.title)
			snprintf(title, sizeof(title), "%s", c.title);
		else if (over_time)
			snprintf(title, sizeof(title), "%s over time%s%s", c.y, c.series ? " by " : "",
			         c.series ? c.series : "");
		else
			snprintf(title, sizeof(title), "%s by %s%s%s", c.y, c.x, c.series ? " and " : "",
			         c.series ? c.series : "");
		int rc = 0;
		for (size_t gi = 0; gi < ng && rc == 0; gi++)
			rc = over_time ? chart_time(cx, m, &c, step, metric, &g[gi], title)
			               : chart_param(cx, m, &c, step, metric, &g[gi], title);
		if (ng == 0)
			fprintf(m->rf.f, "*(no cell matches the chart of %s)*\n\n", c.y);
		rep_groups_free(g, ng);
		if (rc < 0)
			return rc;
	}
	return 0;
}

static void bound_text(double v, char *buf, size_t len)
{
	if (isinf(v))
		snprintf(buf, len, "%s", v < 0 ? "-inf" : "inf");
	else
		rep_fmt_human(v, buf, len);
}

static void section_expect(struct rep_ctx *cx, struct md *m)
{
	const struct run *r = cx->run;
	FILE *f = m->rf.f;
	struct expect_result res;
	char a[64], b[64], c[64], d[64];

	if (!r->expect_cfg || r->expect_cfg->kind == NODE_NULL)
		return;
	if (expect_evaluate(r->expect_cfg, r, cx->sum, &res, cx->d) < 0)
		m->bad_config = true;
	fputs("## Published vs measured\n\n", f);
	fprintf(f, "%zu PASS, %zu FAIL, %zu XFAIL, %zu XPASS, %zu SKIP", res.count[EXPECT_PASS],
	        res.count[EXPECT_FAIL], res.count[EXPECT_XFAIL], res.count[EXPECT_XPASS],
	        res.count[EXPECT_SKIP]);
	if (res.nstrict)
		fprintf(f, "; %zu strict failure%s", res.nstrict, res.nstrict == 1 ? "" : "s");
	fputs(".\n\n| # | cell | metric | expected | bounds | measured | diff % | status | note |\n", f);
	md_row_sep(f, 9);
	for (size_t i = 0; i < res.n; i++) {
		const struct expect_row *row = &res.rows[i];
		char label[512];
		if (row->cell >= 0)
			run_cell_label(&r->cells[row->cell], label, sizeof(label));
		else
			snprintf(label, sizeof(label), "-");
		rep_fmt_human(row->expected, a, sizeof(a));
		bound_text(row->lower, b, sizeof(b));
		bound_text(row->upper, c, sizeof(c));
		if (row->cell >= 0)
			fprintf(f, "| %zu | ", r->cells[row->cell].index);
		else
			fputs("| - | ", f);
		rep_md_cell(f, label);
		fputs(" | ", f);
		rep_md_cell(f, row->ref);
		fprintf(f, " | %s | [%s, %s] | ", a, b, c);
		rep_fmt_human(row->measured, d, sizeof(d));
		fprintf(f, "%s%s%s | ", d, row->unit && *row->unit && isfinite(row->measured) ? " " : "",
		        isfinite(row->measured) && row->unit ? row->unit : "");
		if (isfinite(row->diff_pct))
			fprintf(f, "%+.1f%%", row->diff_pct);
		else
			fputc('-', f);
		fprintf(f, " | %s%s | ", expect_status_name(row->status),
		        row->strict && (row->status == EXPECT_FAIL || row->status == EXPECT_XPASS)
		            ? " (strict)"
		            : "");
		rep_md_cell(f, row->note ? row->note : "");
		fputs(" |\n", f);
	}
	fputc('\n', f);
	expect_result_free(&res);
}

static void warn_line(void *arg, const char *msg)
{
	FILE *f = arg;
	fputs("  - ", f);
	rep_md_cell(f, msg);
	fputc('\n', f);
}

static void section_warnings(struct rep_ctx *cx, struct md *m)
{
	const struct run *r = cx->run;
	FILE *f = m->rf.f;
	bool any = false;
	char label[512];
	for (size_t i = 0; i < r->ncells; i++) {
		if (run_cell_warnings(cx->sum[i], NULL, NULL) == 0)
			continue;
		if (!any)
			fputs("## Warnings\n\n", f);
		any = true;
		run_cell_label(&r->cells[i], label, sizeof(label));
		fprintf(f, "- cell %zu (", r->cells[i].index);
		rep_md_cell(f, label);
		fputs("):\n", f);
		run_cell_warnings(cx->sum[i], warn_line, f);
	}
	if (any)
		fputc('\n', f);
}

static void section_failed(struct rep_ctx *cx, struct md *m)
{
	const struct run *r = cx->run;
	FILE *f = m->rf.f;
	bool any = false;
	char label[512];
	for (size_t i = 0; i < r->ncells; i++) {
		const struct run_cell *c = &r->cells[i];
		if (c->status != RUN_FAILED)
			continue;
		if (!any)
			fputs("## Failed cells\n\n", f);
		any = true;
		run_cell_label(c, label, sizeof(label));
		fprintf(f, "- cell %zu `%s` (", c->index, c->id);
		rep_md_cell(f, label);
		fputs("):\n\n  ```\n", f);
		const char *e = c->error ? c->error : "(no error recorded)";
		/* indent every line of the error into the fenced block */
		fputs("  ", f);
		for (const char *p = e; *p; p++) {
			fputc(*p, f);
			if (*p == '\n' && p[1])
				fputs("  ", f);
		}
		fputs("\n  ```\n\n", f);
	}
}

/* `benchgrid report` after editing report.charts may draw fewer charts than
 * before: remove the numbered ones that report.md no longer links. */
static void remove_stale_charts(const char *outdir, int from)
{
	char path[4096];
	for (int i = from;; i++) {
		snprintf(path, sizeof(path), "%s/chart-%d.svg", outdir, i);
		if (unlink(path) != 0)
			break;
	}
}

static int md_end(struct rep_ctx *cx, bool ok)
{
	struct md *m = cx->priv;
	int rc = 0;
	if (!m)
		return 0;
	if (ok && m->rf.f) {
		FILE *f = m->rf.f;
		fputc('\n', f);
		section_steps(cx, m);
		section_facts(cx, m);
		const struct node *rep = cx->run->report_cfg;
		if (rep && rep->kind == NODE_MAP) {
			section_pivots(cx, m, node_get(rep, "pivot"));
			rc = section_charts(cx, m, node_get(rep, "charts"));
		} else if (rep && rep->kind != NODE_NULL) {
			diag_error(cx->d, &rep->pos, "report: must be a map with pivot and charts");
			m->bad_config = true;
		}
		section_expect(cx, m);
		section_warnings(cx, m);
		section_failed(cx, m);
	}
	if (ok && rc == 0 && m->rf.f) {
		rc = rep_file_commit(&m->rf, cx->d);
		remove_stale_charts(cx->outdir, m->nchart + 1);
	} else {
		rep_file_abort(&m->rf);
	}
	if (rc == 0 && m->bad_config)
		rc = -EINVAL;
	rep_strs_free(&m->params);
	free(m);
	cx->priv = NULL;
	return rc;
}

const struct reporter_ops rep_md_ops = {
    .name = "markdown",
    .file = "report.md",
    .begin = md_begin,
    .cell = md_cell,
    .end = md_end,
};
