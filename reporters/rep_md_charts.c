/* rep_md_charts: see rep_md_charts.h. */
#include "rep_md_charts.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "rep_config.h"
#include "rep_fmt.h"
#include "rep_text.h"
#include "rep_hosts.h"
#include "rep_md_latency.h"
#include "rep_md_repro.h"
#include "rep_metric_axis.h"
#include "svg.h"
#include "units.h"

/* report.html: the chart's SVG (no XML declaration) in m->svgs, and its
 * mark in the text (rep_md_doc.h). */
static int keep_svg(struct md *m, const struct svg_chart *ch)
{
	char *buf = NULL, num[24];
	size_t len = 0;
	struct svg_chart in = *ch;
	in.inline_svg = true;
	FILE *f = open_memstream(&buf, &len);
	if (!f)
		return -ENOMEM;
	int rc = svg_write(f, &in);
	if (fclose(f) != 0 && rc == 0)
		rc = -ENOMEM;
	char **v = rc == 0 ? realloc(m->svgs, (m->nsvg + 1) * sizeof(*v)) : NULL;
	if (!v) {
		free(buf);
		return rc < 0 ? rc : -ENOMEM;
	}
	m->svgs = v;
	m->svgs[m->nsvg] = buf;
	snprintf(num, sizeof(num), "%zu", m->nsvg++);
	rep_md_mark(m, m->rf.f, "svg", num);
	fputs("\n\n", m->rf.f);
	return 0;
}

int rep_md_write_svg(struct rep_ctx *cx, struct md *m, const struct svg_chart *ch)
{
	char name[64];
	struct rep_file rf;
	if (m->html) /* kept for the page, an svg:N mark in the text */
		return keep_svg(m, ch);
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

/* Reference marks for the published figures of a chart. */
struct marks {
	struct svg_mark *v;
	char (*label)[96];
	size_t n, cap;
};

static void mark_add(struct marks *mk, const struct md *m, size_t ci, const char *ref, double x,
                     size_t series, const char *what)
{
	double y = rep_md_published(m, ci, ref);
	if (!isfinite(y))
		return;
	size_t capv = mk->cap, capl = mk->cap; /* v and label grow together */
	if (GROW(mk->v, capv, mk->n + 1, 8) < 0 || GROW(mk->label, capl, mk->n + 1, 8) < 0)
		return;
	mk->cap = capv;
	char a[32];
	rep_fmt_human(y, a, sizeof(a));
	snprintf(mk->label[mk->n], sizeof(mk->label[0]), "published %s%s%s%s", a, what ? " (" : "",
	         what ? what : "", what ? ")" : "");
	mk->v[mk->n] = (struct svg_mark){x, y, series, NULL};
	mk->n++;
}

/* Labels point into mk->label, which may move while marks are added. */
static void marks_finish(struct marks *mk)
{
	for (size_t i = 0; i < mk->n; i++)
		mk->v[i].label = mk->label[i];
}

static void marks_free(struct marks *mk)
{
	free(mk->v);
	free(mk->label);
}

/* The unit of a series or metric of a step, "" when unknown. */
static const char *series_unit(struct rep_ctx *cx, const struct rep_group *g, const char *step,
                               const char *metric)
{
	for (size_t k = 0; k < g->n; k++) {
		const struct step_summary *ss = cell_summary_step(cx->sum[g->cells[k]], step);
		const struct series *se = ss ? result_series(ss->first, metric) : NULL;
		if (se && se->unit)
			return se->unit;
	}
	return "";
}

/* An axis label: the metrics of c in unit (every one when c has one), and
 * the unit (of the series of the group series_of; NULL: of the metrics). */
static void unit_names(struct rep_ctx *cx, const struct rep_group *series_of, const struct chart_cfg *c,
                       const char *unit, char *buf, size_t len)
{
	size_t k = 0;
	buf[0] = '\0';
	for (size_t yi = 0; unit && yi < c->ny; yi++) {
		char step[128];
		const char *metric;
		results_split_ref(c->ys[yi], step, sizeof(step), &metric);
		const char *u =
		    series_of ? series_unit(cx, series_of, step, metric) : rep_md_unit_of(cx, step, metric);
		if (c->ny > 1 && strcmp(u && *u ? u : "", unit) != 0)
			continue;
		int w = snprintf(buf + k, len - k, "%s%s", k ? ", " : "", c->ys[yi]);
		k = w > 0 && k + (size_t)w < len ? k + (size_t)w : k;
	}
	if (unit && *unit)
		snprintf(buf + k, len - k, " (%s)", unit);
}

/* The note that stands for a chart of g with nothing to draw: why, when
 * its cells did not run (skipped, failed) or skipped ref's step (its
 * `when:`), so that a facet of such cells is no empty chart; else the
 * metric is missing from cells that ran it (a reference that did not
 * resolve), said as "no value of". */
static void nothing_to_draw(struct rep_ctx *cx, struct md *m, const struct rep_group *g, const char *ref,
                            const char *title)
{
	char step[128];
	const char *metric, *why = NULL;
	size_t skipped = 0, failed = 0, off = 0;
	results_split_ref(ref, step, sizeof(step), &metric);
	for (size_t k = 0; k < g->n; k++) {
		const struct run_cell *cell = &cx->run->cells[g->cells[k]];
		skipped += cell->status == RUN_SKIPPED;
		failed += cell->status == RUN_FAILED;
		for (size_t i = 0; cell->status == RUN_OK && cell->nreps && i < cell->reps[0].nsteps; i++) {
			const struct step_result *sr = &cell->reps[0].steps[i];
			if (!strcmp(sr->step, step) && sr->skipped) {
				off++;
				why = sr->skip_reason;
			}
		}
	}
	FILE *f = m->rf.f;
	fputs("*(", f);
	rep_md_text(f, title);
	if (skipped + failed + off < g->n || !g->n) {
		fputs(": no value of ", f);
		rep_md_text(f, ref);
		fprintf(f, " in its %zu cell%s)*\n\n", g->n, g->n == 1 ? "" : "s");
		return;
	}
	fprintf(f, ": nothing to draw, of its %zu cell%s", g->n, g->n == 1 ? "" : "s");
	if (skipped)
		fprintf(f, ", %zu skipped", skipped);
	if (failed)
		fprintf(f, ", %zu failed", failed);
	if (off) {
		fprintf(f, ", %zu skipped step ", off);
		rep_md_text(f, step);
		if (why) {
			fputs(" (", f);
			rep_md_text(f, why);
			fputs(")", f);
		}
	}
	fputs(")*\n\n", f);
}

/* Metrics over time: one line per cell of the group (first repetition)
 * and metric; metrics in another unit than the first's on a second y axis. */
static int chart_time(struct rep_ctx *cx, struct md *m, const struct chart_cfg *c, const struct rep_group *g,
                      const char *title)
{
	const struct run *r = cx->run;
	size_t cap = (g->n ? g->n : 1) * c->ny;
	struct svg_series *s = calloc(cap, sizeof(*s));
	char **labels = calloc(cap, sizeof(*labels));
	bool *on2 = calloc(cap, sizeof(*on2));
	const char *unit = NULL, *unit2 = NULL;
	size_t ns = 0;
	int rc = 0;
	struct marks mk = {0};
	if (!s || !labels || !on2) {
		free(s);
		free(labels);
		free(on2);
		return -ENOMEM;
	}
	for (size_t yi = 0; yi < c->ny; yi++) {
		char step[128];
		const char *metric;
		results_split_ref(c->ys[yi], step, sizeof(step), &metric);
		const char *u = series_unit(cx, g, step, metric);
		bool second = unit && strcmp(u, unit) != 0;
		if (!unit)
			unit = u;
		else if (second && !unit2)
			unit2 = u;
		else if (second && strcmp(u, unit2) != 0)
			continue; /* a third unit: not drawn (docs/reports.md) */
		for (size_t k = 0; k < g->n; k++) {
			const struct step_summary *ss = cell_summary_step(cx->sum[g->cells[k]], step);
			const struct series *se = ss ? result_series(ss->first, metric) : NULL;
			if (!se)
				continue;
			const struct run_cell *cell = &r->cells[g->cells[k]];
			const char *v = c->series ? run_cell_param(cell, c->series) : NULL;
			char lab[256], full[400];
			if (v)
				snprintf(lab, sizeof(lab), "%s", v);
			else if (g->n > 1)
				rep_md_vary_label(r, g, g->cells[k], lab, sizeof(lab));
			else
				snprintf(lab, sizeof(lab), "%s", c->ny > 1 ? "" : metric);
			snprintf(full, sizeof(full), "%s%s%s", c->ny > 1 ? c->ys[yi] : "",
			         c->ny > 1 && *lab ? " " : "", lab);
			labels[ns] = strdup(full);
			s[ns] = (struct svg_series){.label = labels[ns], .n = se->n, .x = se->t, .y = se->v};
			on2[ns] = second;
			mark_add(&mk, m, g->cells[k], c->ys[yi], NAN, ns, g->n > 1 ? lab : NULL);
			ns++;
		}
	}
	if (ns == 0) {
		nothing_to_draw(cx, m, g, c->y, title);
	} else {
		char ylabel[400], y2label[400];
		unit_names(cx, g, c, unit, ylabel, sizeof(ylabel));
		unit_names(cx, g, c, unit2, y2label, sizeof(y2label));
		marks_finish(&mk);
		struct svg_chart ch = {.kind = c->kind == CHART_BAR ? SVG_BAR : SVG_LINE,
		                       .title = title,
		                       .xlabel = "time (s)",
		                       .x_zero = true,
		                       .ylabel = ylabel,
		                       .y2label = unit2 ? y2label : NULL,
		                       .y2 = on2,
		                       .s = s,
		                       .ns = ns,
		                       .marks = mk.v,
		                       .nmarks = mk.n,
		                       .xlog = c->xlog,
		                       .ylog = c->ylog};
		rc = rep_md_write_svg(cx, m, &ch);
	}
	marks_free(&mk);
	for (size_t k = 0; k < ns; k++)
		free(labels[k]);
	free(labels);
	free(on2);
	free(s);
	return rc;
}

/* Line or bars against a parameter (docs/reports.md): `kind:` when given;
 * else a line when every x value is a plain number (clients 1, 2, 4, 8),
 * bars when one is not: names, and sizes or durations (16MB, 128MB), which
 * are settings picked from a few, so a line between them would suggest
 * values in between that were never run. */
static enum svg_kind chart_kind(const struct chart_cfg *c, bool numeric)
{
	if (c->kind >= 0)
		return c->kind == CHART_BAR ? SVG_BAR : SVG_LINE;
	return numeric ? SVG_LINE : SVG_BAR;
}

/* More series than this in one chart cannot be told apart: one small chart
 * per series instead, on a shared y scale. */
enum { SMALL_MULTIPLES_OVER = 6 };

static int write_multiples(struct rep_ctx *cx, struct md *m, const struct svg_chart *ch, const char *series)
{
	double lo = INFINITY, hi = -INFINITY;
	for (size_t j = 0; j < ch->ns; j++)
		for (size_t k = 0; k < ch->s[j].n; k++) {
			double y = ch->s[j].y[k], e = ch->s[j].err ? ch->s[j].err[k] : NAN;
			if (!isfinite(y))
				continue;
			e = isfinite(e) ? fabs(e) : 0;
			lo = fmin(lo, y >= 0 ? fmax(y - e, 0) : y - e); /* as svg.c's layout */
			hi = fmax(hi, y + e);
		}
	for (size_t i = 0; i < ch->nmarks; i++)
		if (isfinite(ch->marks[i].y)) {
			lo = fmin(lo, ch->marks[i].y);
			hi = fmax(hi, ch->marks[i].y);
		}
	struct svg_mark *mk = calloc(ch->nmarks ? ch->nmarks : 1, sizeof(*mk));
	if (!mk)
		return -ENOMEM;
	if (m->html) {
		rep_md_mark(m, m->rf.f, "multiples", ch->title ? ch->title : "");
	} else {
		fputc('*', m->rf.f);
		rep_md_cell(m->rf.f, ch->title ? ch->title : "");
		fputs(", one chart per value of ", m->rf.f);
		rep_md_cell(m->rf.f, series);
		fputs(":*", m->rf.f);
	}
	fputs("\n\n", m->rf.f);
	int rc = 0;
	for (size_t j = 0; j < ch->ns && rc == 0; j++) {
		char title[600];
		size_t nmk = 0;
		for (size_t i = 0; i < ch->nmarks; i++)
			if (ch->marks[i].series == j) {
				mk[nmk] = ch->marks[i];
				mk[nmk++].series = 0;
			}
		snprintf(title, sizeof(title), "%s = %s", series, ch->s[j].label ? ch->s[j].label : "");
		struct svg_chart one = *ch;
		one.title = title;
		one.s = &ch->s[j];
		one.ns = 1;
		one.marks = mk;
		one.nmarks = nmk;
		one.width = 380;
		one.height = 260;
		one.y_lo = lo;
		one.y_hi = hi;
		one.no_legend = true;
		rc = rep_md_write_svg(cx, m, &one);
	}
	rep_md_mark(m, m->rf.f, "/multiples", NULL);
	fputs("\n\n", m->rf.f);
	free(mk);
	return rc;
}

/* The error bar of a mean: its 95% interval's half-width; for two samples
 * half their range (as the tables), not t's 12.7 standard errors. */
static double err_bar(const struct metric_summary *ms)
{
	return ms->st.n == 2 ? (ms->st.max - ms->st.min) / 2 : ms->ci_half;
}

/* Metrics against a parameter, or a metric against the axis of metric
 * names `ax` (NULL: x is a parameter): categories = x values, one line per
 * series value and metric; a metric in another unit on a second y axis. */
/* chart_param's chart, or a line saying why there is none. */
static int chart_param_write(struct rep_ctx *cx, struct md *m, const struct chart_cfg *c,
                             const struct rep_group *g, const struct svg_chart *ch, const double *y)
{
	size_t nx = ch->ncat, ns = ch->ns;
	bool any = false; /* a value to draw */
	for (size_t i = 0; i < ns * nx && !any; i++)
		any = isfinite(y[i]);
	if (nx == 0) {
		fputs("*(no values of ", m->rf.f);
		rep_md_text(m->rf.f, c->x);
		fputs(" for this chart)*\n\n", m->rf.f);
		return 0;
	}
	if (!any) {
		nothing_to_draw(cx, m, g, c->y, ch->title);
		return 0;
	}
	if (ns > SMALL_MULTIPLES_OVER && c->ny == 1)
		return write_multiples(cx, m, ch, c->series);
	return rep_md_write_svg(cx, m, ch);
}

static int chart_param(struct rep_ctx *cx, struct md *m, const struct chart_cfg *c,
                       const struct metric_axis *ax, const struct rep_group *g, const char *title)
{
	const struct run *r = cx->run;
	struct rep_strs xs = {0}, sv = {0};
	char name[256], ref[400], step[128];
	const char *metric;
	results_split_ref(c->y, step, sizeof(step), &metric);
	if (ax)
		metric_axis_values(cx, g, step, ax, &xs);
	else
		rep_md_group_values(r, g, c->x, &xs);
	if (c->series)
		rep_md_group_values(r, g, c->series, &sv);
	else
		rep_strs_add(&sv, "");
	size_t nx = xs.n, nsv = sv.n, ny = c->ny, nall = (nsv ? nsv : 1) * ny;
	struct svg_series *s = calloc(nall, sizeof(*s));
	char **labels = calloc(nall, sizeof(*labels));
	bool *on2 = calloc(nall, sizeof(*on2));
	double *x = calloc(nx ? nx : 1, sizeof(*x)), *y = calloc((nx ? nx : 1) * nall, sizeof(*y));
	double *err = calloc((nx ? nx : 1) * nall, sizeof(*err));
	const char *unit = NULL, *unit2 = NULL;
	int rc = 0;
	bool numeric = true;
	size_t ns = 0;
	struct marks mk = {0};
	if (!s || !labels || !on2 || !x || !y || !err) {
		rc = -ENOMEM;
		goto out;
	}
	for (size_t i = 0; i < nx; i++) { /* numeric: a line (chart_kind) */
		double v;
		numeric &= units_is_number(xs.v[i], &v), x[i] = (double)i;
	}
	for (size_t yi = 0; yi < ny; yi++) {
		results_split_ref(c->ys[yi], step, sizeof(step), &metric);
		if (ax)
			metric_axis_metric(ax, nx ? xs.v[0] : "", name, sizeof(name));
		const char *u = rep_md_unit_of(cx, step, ax ? name : metric);
		bool second = unit && strcmp(u, unit) != 0;
		if (!unit)
			unit = u;
		else if (second && !unit2)
			unit2 = u;
		else if (second && strcmp(u, unit2) != 0)
			continue; /* a third unit: not drawn (docs/reports.md) */
		for (size_t j = 0; j < nsv; j++, ns++) {
			double *yv = y + ns * nx, *ev = err + ns * nx;
			for (size_t i = 0; i < nx; i++) {
				yv[i] = ev[i] = NAN;
				for (size_t k = 0; k < g->n; k++) {
					const struct run_cell *cell = &r->cells[g->cells[k]];
					const char *xv = ax ? xs.v[i] : run_cell_param(cell, c->x),
					           *sval = c->series ? run_cell_param(cell, c->series) : "";
					if (!xv || strcmp(xv, xs.v[i]) != 0 || !sval ||
					    strcmp(sval, sv.v[j]) != 0)
						continue;
					if (ax)
						metric_axis_metric(ax, xs.v[i], name, sizeof(name));
					snprintf(ref, sizeof(ref), "%s.%s", step, ax ? name : metric);
					const struct metric_summary *ms = cell_summary_metric(
					    cx->sum[g->cells[k]], step, ax ? name : metric);
					if (ms)
						yv[i] = ms->st.mean, ev[i] = err_bar(ms);
					mark_add(&mk, m, g->cells[k], ref, (double)i, ns, NULL);
					break;
				}
			}
			char lab[400];
			if (ny > 1)
				snprintf(lab, sizeof(lab), "%s%s%s", c->ys[yi], *sv.v[j] ? " " : "", sv.v[j]);
			else
				snprintf(lab, sizeof(lab), "%s", *sv.v[j] ? sv.v[j] : metric);
			labels[ns] = strdup(lab);
			s[ns] = (struct svg_series){.label = labels[ns], .n = nx, .x = x, .y = yv, .err = ev};
			on2[ns] = second;
		}
	}
	char ylabel[400], y2label[400];
	unit_names(cx, NULL, c, unit, ylabel, sizeof(ylabel));
	unit_names(cx, NULL, c, unit2, y2label, sizeof(y2label));
	marks_finish(&mk);
	struct svg_chart ch = {.kind = chart_kind(c, numeric),
	                       .title = title,
	                       .marks = mk.v,
	                       .nmarks = mk.n,
	                       .xlabel = c->x,
	                       .ylabel = ylabel,
	                       .y2label = unit2 ? y2label : NULL,
	                       .y2 = on2,
	                       .categories = (const char *const *)xs.v,
	                       .ncat = nx,
	                       .s = s,
	                       .ns = ns,
	                       .ylog = c->ylog};
	rc = chart_param_write(cx, m, c, g, &ch, y);
out:
	marks_free(&mk);
	for (size_t k = 0; labels && k < ns; k++)
		free(labels[k]);
	free(labels);
	free(on2);
	free(err);
	free(s);
	free(x);
	free(y);
	rep_strs_free(&xs);
	rep_strs_free(&sv);
	return rc;
}

/* The metrics of c for a title: "a.iops, a.lat_p99_us". */
static const char *ys_text(const struct chart_cfg *c, char *buf, size_t len)
{
	size_t k = 0;
	buf[0] = '\0';
	for (size_t i = 0; i < c->ny; i++) {
		int w = snprintf(buf + k, len - k, "%s%s", i ? ", " : "", c->ys[i]);
		k = w > 0 && k + (size_t)w < len ? k + (size_t)w : k;
	}
	return buf;
}

int rep_md_charts(struct rep_ctx *cx, struct md *m, const struct node *chs)
{
	if (rep_config_count(chs))
		fputs("## Charts\n\n", m->rf.f);
	for (size_t ci = 0; ci < rep_config_count(chs); ci++) {
		const struct node *cfg = rep_config_at(chs, ci);
		struct chart_cfg c;
		char step[128], title[256], ytext[200];
		const char *metric;
		if (rep_config_chart(cfg, &c, cx->d) < 0) {
			m->bad_config = true;
			fputs("*(invalid chart skipped)*\n\n", m->rf.f);
			continue;
		}
		results_split_ref(c.y, step, sizeof(step), &metric);
		bool over_time =
		    strcmp(c.x, "time") == 0 || strcmp(c.x, "t") == 0 || chart_kind_latency(c.kind);
		struct metric_axis ax;
		bool by_axis =
		    !over_time && metric_axis_parse(metric, &ax, NULL) && strcmp(ax.name, c.x) == 0;
		if (!over_time && !by_axis && !rep_md_param_known(m, c.x)) {
			rep_md_unknown_param(m, cx, cfg, "x", c.x);
			continue;
		}
		if (c.series && !rep_md_param_known(m, c.series)) {
			rep_md_unknown_param(m, cx, cfg, "series", c.series);
			continue;
		}
		/* cdf and histogram draw every cell on one chart: no facets */
		bool all = (c.kind == CHART_CDF || c.kind == CHART_HISTOGRAM) && !c.series;
		size_t nused = all ? m->vary.n : 2;
		const char **used = calloc(nused ? nused : 1, sizeof(*used));
		if (!used)
			return -ENOMEM;
		for (size_t i = 0; all && i < nused; i++)
			used[i] = m->vary.v[i];
		if (!all) {
			used[0] = over_time || by_axis ? NULL : c.x;
			used[1] = c.series;
		}
		struct rep_group *g;
		size_t ng;
		int grc = rep_group_cells(cx->run, c.where, used, nused, &g, &ng);
		free(used);
		if (grc < 0)
			return -ENOMEM;
		if (c.title)
			snprintf(title, sizeof(title), "%s", c.title);
		else if (chart_kind_latency(c.kind))
			rep_md_latency_title(&c, cx->run->repeat, title, sizeof(title));
		else if (over_time)
			snprintf(title, sizeof(title), "%s over time%s%s", ys_text(&c, ytext, sizeof(ytext)),
			         c.series ? " by " : "", c.series ? c.series : "");
		else
			snprintf(title, sizeof(title), "%s by %s%s%s", ys_text(&c, ytext, sizeof(ytext)), c.x,
			         c.series ? " and " : "", c.series ? c.series : "");
		int rc = 0;
		for (size_t gi = 0; gi < ng && rc == 0; gi++) {
			/* the facet (the other parameters' values) in the title */
			char full[512];
			snprintf(full, sizeof(full), "%s%s%s", title, *g[gi].label ? " — " : "", g[gi].label);
			rep_hosts_warn(m->rf.f, cx->run, g[gi].cells, g[gi].n, "chart");
			rc = chart_kind_latency(c.kind)
			         ? rep_md_chart_latency(cx, m, &c, &g[gi], full, rep_md_write_svg)
			     : over_time ? chart_time(cx, m, &c, &g[gi], full)
			                 : chart_param(cx, m, &c, by_axis ? &ax : NULL, &g[gi], full);
		}
		if (ng == 0) {
			fputs("*(no cell matches the chart of ", m->rf.f);
			rep_md_text(m->rf.f, c.y);
			fputs(")*\n\n", m->rf.f);
		}
		rep_groups_free(g, ng);
		if (rc < 0)
			return rc;
	}
	return 0;
}
