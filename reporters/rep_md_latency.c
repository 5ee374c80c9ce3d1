/* rep_md_latency: see rep_md_latency.h. */
#include "rep_md_latency.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hist.h"
#include "rep_config.h"
#include "rep_md_doc.h"
#include "rep_text.h"
#include "svg.h"

void rep_md_vary_label(const struct run *r, const struct rep_group *g, size_t ci, char *buf, size_t len)
{
	const struct run_cell *cell = &r->cells[ci];
	const struct node *p = cell->params;
	size_t k = 0;
	buf[0] = '\0';
	for (size_t i = 0; p && p->kind == NODE_MAP && i < p->n; i++) {
		const char *name = p->keys[i], *v = run_cell_param(cell, name);
		bool differs = false;
		for (size_t j = 0; j < g->n && !differs; j++) {
			const char *o = run_cell_param(&r->cells[g->cells[j]], name);
			differs = !o || !v || strcmp(o, v) != 0;
		}
		if (!differs)
			continue;
		int w = snprintf(buf + k, len - k, "%s%s=%s", k ? ", " : "", name, v ? v : "");
		k = w > 0 && k + (size_t)w < len ? k + (size_t)w : k;
	}
	if (!buf[0])
		run_cell_label(cell, buf, len);
}

static const char *const kind_name[] = {[CHART_CDF] = "CDF",
                                        [CHART_HISTOGRAM] = "histogram",
                                        [CHART_HEATMAP] = "heatmap",
                                        [CHART_PERCENTILES] = "percentiles over time"};

int rep_md_latency_family(const char *metric, char *buf, size_t len)
{
	const char *l = strstr(metric, "lat_");
	if (!l || len < 16)
		return 0;
	const char *dir = !strncmp(metric, "read", 4)    ? "read."
	                  : !strncmp(metric, "write", 5) ? "write."
	                                                 : "";
	const char *sched = strstr(metric, "sched_lat_") ? "sched_" : "";
	snprintf(buf, len, "%s%slat", dir, sched);
	return 1;
}

void rep_md_latency_title(const struct chart_cfg *c, size_t repeat, char *buf, size_t len)
{
	char step[128], fam[64];
	const char *metric;
	results_split_ref(c->y, step, sizeof(step), &metric);
	if (!rep_md_latency_family(metric, fam, sizeof(fam)))
		snprintf(fam, sizeof(fam), "%s", metric);
	/* the distributions are of each cell's first repetition (review B6) */
	snprintf(buf, len, "%s.%s: latency %s%s", step, fam, kind_name[c->kind],
	         repeat > 1 ? " (first repetition)" : "");
}

/* The distribution of family fam in step result r into hs: its own key, or
 * for io's "lat" both directions summed. 0, or -ENOENT when not kept. */
static int load(const struct step_result *r, const char *fam, struct hist_series *hs)
{
	char key[80];
	snprintf(key, sizeof(key), "%s_hist", fam);
	const char *t = r ? result_info_get(r, key) : NULL;
	if (t)
		return hist_series_parse(hs, t);
	if (strcmp(fam, "lat") != 0 || !r)
		return -ENOENT;
	int rc = -ENOENT;
	static const char *const dirs[] = {"read.lat_hist", "write.lat_hist"};
	for (size_t i = 0; i < 2; i++)
		if ((t = result_info_get(r, dirs[i]))) {
			int e = hist_series_parse(hs, t);
			if (e < 0)
				return e;
			rc = 0;
		}
	return rc;
}

/* One cell's distribution, summed over the intervals. */
static void total(const struct hist_series *hs, uint64_t *sum)
{
	memset(sum, 0, HIST_COARSE_N * sizeof(*sum));
	for (size_t i = 0; i < hs->nivl; i++)
		for (unsigned b = 0; b < HIST_COARSE_N; b++)
			sum[b] += hs->c[i * HIST_COARSE_N + b];
}

struct lat_cell {
	size_t ci; /* index into run->cells */
	char label[256];
	struct hist_series hs;
	uint64_t sum[HIST_COARSE_N];
	const char *what; /* "I/Os", "transactions" */
};

/* Lower and upper non-empty coarse buckets of the cells. */
static void span(const struct lat_cell *lc, size_t n, unsigned *lo, unsigned *hi)
{
	*lo = HIST_COARSE_N;
	*hi = 0;
	for (size_t k = 0; k < n; k++)
		for (unsigned b = 0; b < HIST_COARSE_N; b++)
			if (lc[k].sum[b]) {
				*lo = b < *lo ? b : *lo;
				*hi = b > *hi ? b : *hi;
			}
}

/* The bucket edges in the chart's unit. */
static double edge(unsigned b, double scale)
{
	return (double)hist_coarse_low(b) / scale;
}

static int cdf_or_hist(struct rep_ctx *cx, struct md *m, const struct chart_cfg *c, struct lat_cell *lc,
                       size_t n, const char *title, double scale, const char *unit, rep_md_svg_fn write)
{
	unsigned lo, hi;
	span(lc, n, &lo, &hi);
	size_t nb = hi >= lo ? hi - lo + 1 : 0;
	struct svg_series *s = calloc(n ? n : 1, sizeof(*s));
	double *x = calloc((nb + 1) * (n ? n : 1), sizeof(double));
	double *x2 = calloc((nb + 1) * (n ? n : 1), sizeof(double));
	double *y = calloc((nb + 1) * (n ? n : 1), sizeof(double));
	const double **x2s = calloc(n ? n : 1, sizeof(*x2s));
	int rc = -ENOMEM;
	if (!s || !x || !x2 || !y || !x2s)
		goto out;
	bool cdf = c->kind == CHART_CDF;
	for (size_t k = 0; k < n; k++) {
		double *xk = x + k * (nb + 1), *x2k = x2 + k * (nb + 1), *yk = y + k * (nb + 1);
		uint64_t all = 0, seen = 0;
		for (unsigned b = 0; b < HIST_COARSE_N; b++)
			all += lc[k].sum[b];
		size_t np = 0;
		if (cdf) { /* the CDF starts at 0 at the first bucket's left edge */
			xk[np] = edge(lo, scale);
			yk[np++] = 0;
		}
		for (size_t j = 0; j < nb; j++) {
			unsigned b = lo + (unsigned)j;
			seen += lc[k].sum[b];
			if (!cdf && !lc[k].sum[b])
				continue;
			xk[np] = cdf ? edge(b + 1, scale) : edge(b, scale);
			x2k[np] = edge(b + 1, scale);
			yk[np++] = cdf ? 100.0 * (double)seen / (double)all
			               : 100.0 * (double)lc[k].sum[b] / (double)all;
		}
		s[k] = (struct svg_series){.label = lc[k].label, .n = np, .x = xk, .y = yk};
		x2s[k] = x2k;
	}
	char xlabel[64], ylabel[96];
	snprintf(xlabel, sizeof(xlabel), "latency (%s)", unit);
	snprintf(ylabel, sizeof(ylabel), cdf ? "%% of %s at or below" : "%% of %s",
	         n ? lc[0].what : "values");
	struct svg_chart ch = {.kind = cdf ? SVG_LINE : SVG_HIST,
	                       .title = title,
	                       .xlabel = xlabel,
	                       .ylabel = ylabel,
	                       .s = s,
	                       .ns = n,
	                       .x2 = cdf ? NULL : (const double *const *)x2s,
	                       .xlog = c->xlog,
	                       .ylog = c->ylog};
	rc = write(cx, m, &ch);
out:
	free(s);
	free(x);
	free(x2);
	free(x2s);
	free(y);
	return rc;
}

static int heatmap(struct rep_ctx *cx, struct md *m, const struct chart_cfg *c, struct lat_cell *lc,
                   const char *title, double scale, const char *unit, rep_md_svg_fn write)
{
	unsigned lo, hi;
	span(lc, 1, &lo, &hi);
	const struct hist_series *hs = &lc->hs;
	size_t nx = hs->nivl, ny = hi >= lo ? hi - lo + 1 : 0;
	double *x0 = calloc(nx + 1, sizeof(double)), *x1 = calloc(nx + 1, sizeof(double));
	double *y0 = calloc(ny + 1, sizeof(double)), *y1 = calloc(ny + 1, sizeof(double));
	double *v = calloc((nx + 1) * (ny + 1), sizeof(double));
	int rc = -ENOMEM;
	if (!x0 || !x1 || !y0 || !y1 || !v)
		goto out;
	for (size_t i = 0; i < nx; i++) {
		x0[i] = hs->t0[i];
		x1[i] = hs->t1[i];
		for (size_t j = 0; j < ny; j++)
			v[i * ny + j] = (double)hs->c[i * HIST_COARSE_N + lo + j];
	}
	for (size_t j = 0; j < ny; j++) {
		y0[j] = edge(lo + (unsigned)j, scale);
		y1[j] = edge(lo + (unsigned)j + 1, scale);
	}
	char ylabel[64], vlabel[64];
	snprintf(ylabel, sizeof(ylabel), "latency (%s)", unit);
	snprintf(vlabel, sizeof(vlabel), "%s", lc->what);
	struct svg_heat heat = {nx, ny, x0, x1, y0, y1, v, vlabel};
	struct svg_chart ch = {.kind = SVG_HEATMAP,
	                       .title = title,
	                       .xlabel = "time (s)",
	                       .ylabel = ylabel,
	                       .x_zero = true,
	                       .heat = &heat,
	                       .xlog = c->xlog,
	                       .ylog = c->ylog};
	rc = write(cx, m, &ch);
out:
	free(x0);
	free(x1);
	free(y0);
	free(y1);
	free(v);
	return rc;
}

static int percentiles(struct rep_ctx *cx, struct md *m, const struct chart_cfg *c, struct lat_cell *lc,
                       const char *title, double scale, const char *unit, rep_md_svg_fn write)
{
	static const double pct[] = {50, 99, 99.9};
	static const char *const names[] = {"p50", "p99", "p99.9"};
	const struct hist_series *hs = &lc->hs;
	size_t n = hs->nivl;
	/* io's tail under a quarter interval (docs/results.md) is in the
	 * distribution but gets no point: its few I/Os are no interval's
	 * percentiles, as io's own series leave it out */
	if (n >= 2 && hs->t1[n - 1] - hs->t0[n - 1] < 0.25 * (hs->t1[n - 2] - hs->t0[n - 2]))
		n--;
	double *t = calloc(n + 1, sizeof(double)), *y = calloc(3 * (n + 1), sizeof(double));
	struct svg_series s[3];
	int rc = -ENOMEM;
	if (!t || !y)
		goto out;
	for (size_t i = 0; i < n; i++)
		t[i] = hs->t1[i];
	for (size_t p = 0; p < 3; p++) {
		for (size_t i = 0; i < n; i++)
			y[p * n + i] = hist_coarse_percentile(hs->c + i * HIST_COARSE_N, pct[p]) / scale;
		s[p] = (struct svg_series){.label = names[p], .n = n, .x = t, .y = y + p * n};
	}
	char ylabel[64];
	snprintf(ylabel, sizeof(ylabel), "latency (%s), per interval", unit);
	struct svg_chart ch = {.kind = SVG_LINE,
	                       .title = title,
	                       .xlabel = "time (s)",
	                       .ylabel = ylabel,
	                       .x_zero = true,
	                       .s = s,
	                       .ns = 3,
	                       .xlog = c->xlog,
	                       .ylog = c->ylog};
	rc = write(cx, m, &ch);
out:
	free(t);
	free(y);
	return rc;
}

int rep_md_chart_latency(struct rep_ctx *cx, struct md *m, const struct chart_cfg *c,
                         const struct rep_group *g, const char *title, rep_md_svg_fn write)
{
	char step[128], fam[64];
	const char *metric;
	results_split_ref(c->y, step, sizeof(step), &metric);
	if (!rep_md_latency_family(metric, fam, sizeof(fam))) {
		fputs("*(", m->rf.f);
		rep_md_text(m->rf.f, c->y);
		fputs(" is not a latency metric: a latency chart draws the distribution behind one, e.g. "
		      "rr.read.lat_p99_us)*\n\n",
		      m->rf.f);
		return 0;
	}
	struct lat_cell *lc = calloc(g->n ? g->n : 1, sizeof(*lc));
	if (!lc)
		return -ENOMEM;
	size_t n = 0;
	int rc = 0;
	double p50 = 0;
	for (size_t k = 0; k < g->n && rc == 0; k++) {
		const struct step_summary *ss = cell_summary_step(cx->sum[g->cells[k]], step);
		struct lat_cell *l = &lc[n];
		int e = load(ss ? ss->first : NULL, fam, &l->hs);
		if (e == -ENOMEM)
			rc = e;
		if (e < 0) {
			hist_series_free(&l->hs);
			continue;
		}
		total(&l->hs, l->sum);
		l->ci = g->cells[k];
		/* the workload names what it counted (lat_hist_of, docs/results.md) */
		l->what = result_info_get(ss->first, "lat_hist_of");
		if (!l->what)
			l->what = "values";
		const char *v = c->series ? run_cell_param(&cx->run->cells[l->ci], c->series) : NULL;
		if (v)
			snprintf(l->label, sizeof(l->label), "%s", v);
		else if (g->n > 1)
			rep_md_vary_label(cx->run, g, l->ci, l->label, sizeof(l->label));
		else
			snprintf(l->label, sizeof(l->label), "%s", fam);
		p50 = fmax(p50, hist_coarse_percentile(l->sum, 50));
		n++;
	}
	/* the unit people read such latencies in: us for storage, ms past 1 ms */
	double scale = p50 >= 1e6 ? 1e6 : 1e3;
	const char *unit = p50 >= 1e6 ? "ms" : "us";
	if (rc == 0 && n == 0) {
		fputs("*(no latency distribution of ", m->rf.f);
		rep_md_text(m->rf.f, c->y);
		fputs(" kept for this chart: results from before benchgrid kept them, or a step that "
		      "measured none)*\n\n",
		      m->rf.f);
	} else if (rc == 0 && (c->kind == CHART_CDF || c->kind == CHART_HISTOGRAM))
		rc = cdf_or_hist(cx, m, c, lc, n, title, scale, unit, write);
	for (size_t k = 0; k < n && rc == 0 && (c->kind == CHART_HEATMAP || c->kind == CHART_PERCENTILES);
	     k++) {
		char full[600];
		snprintf(full, sizeof(full), "%s%s%s", title, n > 1 || g->n > 1 ? " — " : "",
		         n > 1 || g->n > 1 ? lc[k].label : "");
		rc = c->kind == CHART_HEATMAP ? heatmap(cx, m, c, &lc[k], full, scale, unit, write)
		                              : percentiles(cx, m, c, &lc[k], full, scale, unit, write);
	}
	for (size_t k = 0; k < n; k++)
		hist_series_free(&lc[k].hs);
	free(lc);
	return rc;
}
