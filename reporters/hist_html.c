/* hist_html: history.html (see hist_html.h). */
#include "hist_html.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "rep_html_page.h"
#include "svg.h"

/* What the shared style does not have: flagged rows and the facts' lines. */
static const char extra_style[] =
    "<style>\n"
    "tr.flag-slower td{background:#fde2e1}tr.flag-faster td{background:#e3f4e1}\n"
    "tr.flag-other td{background:#fff3cd}\n"
    "td.facts{white-space:pre-line;font-size:12px;color:#333}\n"
    "p.meta{color:#555}span.gone{color:#888}\n"
    "</style>\n";

static void esc(FILE *f, const char *s)
{
	svg_escape(f, s ? s : "");
}

static const char *verdict(const struct hist_html_point *p)
{
	if (!p->flag)
		return "";
	if (p->dir < 0)
		return p->flag < 0 ? "LOW (slower)" : "HIGH (slower)";
	if (p->dir > 0)
		return p->flag < 0 ? "LOW (faster)" : "HIGH (faster)";
	return p->flag < 0 ? "LOW" : "HIGH";
}

static const char *row_class(const struct hist_html_point *p)
{
	return !p->flag     ? ""
	       : p->dir < 0 ? " class=\"flag-slower\""
	       : p->dir > 0 ? " class=\"flag-faster\""
	                    : " class=\"flag-other\"";
}

static void num_cell(FILE *f, double v)
{
	if (isfinite(v))
		fprintf(f, "<td data-v=\"%.17g\">%.6g</td>", v, v);
	else
		fputs("<td></td>", f);
}

/* The interval a run was judged against, or why it was not. */
static void interval_cell(FILE *f, const struct hist_html_point *p)
{
	if (isfinite(p->lo) && isfinite(p->hi))
		fprintf(f, "<td data-v=\"%.17g\">[%.6g, %.6g] of %zu runs</td>", p->lo, p->lo, p->hi,
		        p->nbefore);
	else
		fprintf(f, "<td>not judged (%zu run%s before)</td>", p->nbefore, p->nbefore == 1 ? "" : "s");
}

static void link_cell(FILE *f, const struct hist_html_point *p)
{
	fputs("<td>", f);
	if (p->href) {
		fputs("<a href=\"", f);
		esc(f, p->href);
		fputs("\">report.html</a>", f);
	} else {
		fputs("<span class=\"gone\">", f);
		esc(f, p->no_link ? p->no_link : "no folder recorded");
		fputs("</span>", f);
	}
	fputs("</td>", f);
}

static void facts_cell(FILE *f, const char *changed)
{
	fputs("<td class=\"facts\">", f);
	esc(f, changed);
	fputs("</td>", f);
}

static const char *cell_name(const struct hist_html_chart *c)
{
	return c->cell && *c->cell ? c->cell : "all";
}

/* "w.iops (IOPS)" */
static void metric_text(FILE *f, const struct hist_html_chart *c)
{
	esc(f, c->metric);
	if (c->unit && *c->unit) {
		fputs(" (", f);
		esc(f, c->unit);
		fputc(')', f);
	}
}

/* The values, the centre of each run's interval with the interval as a
 * bar, and the flagged runs once more as points of their own. */
struct drawn {
	const char **cats;
	double *x, *y, *mid, *half, *flagged, *fx;
	struct svg_series s[3];
	size_t ns, every;
	int width;
};

static void drawn_free(struct drawn *d)
{
	free(d->cats);
	free(d->x);
	free(d->y);
	free(d->mid);
	free(d->half);
	free(d->flagged);
	free(d->fx);
}

static int drawn_layout(struct drawn *d, const struct hist_html_chart *c)
{
	size_t m = c->n ? c->n : 1;
	d->width = c->n * 80 + 220 < 760 ? 760 : c->n * 80 + 220 > 1240 ? 1240 : (int)(c->n * 80 + 220);
	d->every = (c->n * 80 + 1020) / 1020;
	d->cats = calloc(m, sizeof(*d->cats));
	d->x = calloc(m, sizeof(double));
	d->y = calloc(m, sizeof(double));
	d->mid = calloc(m, sizeof(double));
	d->half = calloc(m, sizeof(double));
	d->flagged = calloc(2 * m, sizeof(double));
	d->fx = calloc(2 * m, sizeof(double));
	if (!d->cats || !d->x || !d->y || !d->mid || !d->half || !d->flagged || !d->fx)
		return -ENOMEM;
	bool judged = false, flagged = false;
	for (size_t i = 0; i < c->n; i++) {
		const struct hist_html_point *p = &c->p[i];
		/* every k-th label, about 80 pixels apart on the widest chart */
		d->cats[i] = i % d->every ? "" : p->x;
		d->x[i] = (double)i;
		d->y[i] = p->value;
		bool in = isfinite(p->lo) && isfinite(p->hi);
		d->mid[i] = in ? (p->lo + p->hi) / 2 : NAN;
		d->half[i] = in ? (p->hi - p->lo) / 2 : NAN;
		/* each flagged point followed by a gap, so that two flagged runs
		 * in a row are not joined by a line */
		d->fx[2 * i] = (double)i;
		d->fx[2 * i + 1] = (double)i + 0.5;
		d->flagged[2 * i] = p->flag ? p->value : NAN;
		d->flagged[2 * i + 1] = NAN;
		judged |= in;
		flagged |= p->flag != 0;
	}
	/* the same colours on every chart: value, flagged, expected */
	d->s[d->ns++] = (struct svg_series){.label = "value", .n = c->n, .x = d->x, .y = d->y};
	if (judged) {
		d->s[d->ns++] = (struct svg_series){.label = flagged ? "flagged" : "flagged (none)",
		                                    .n = 2 * c->n,
		                                    .x = d->fx,
		                                    .y = d->flagged};
		d->s[d->ns++] = (struct svg_series){.label = "expected, 95% prediction interval",
		                                    .n = c->n,
		                                    .x = d->x,
		                                    .y = d->mid,
		                                    .err = d->half};
	}
	return 0;
}

static int write_svg(FILE *f, const struct hist_html_chart *c, const char *xlabel)
{
	struct drawn d = {0};
	int rc = drawn_layout(&d, c);
	if (rc == 0) {
		char title[768], ylabel[512];
		snprintf(title, sizeof(title), "%s: %s%s%s", c->metric, cell_name(c), c->host ? " @ " : "",
		         c->host ? c->host : "");
		snprintf(ylabel, sizeof(ylabel), "%s%s%s%s", c->metric, c->unit && *c->unit ? " (" : "",
		         c->unit ? c->unit : "", c->unit && *c->unit ? ")" : "");
		struct svg_chart ch = {.kind = SVG_LINE,
		                       .title = title,
		                       .xlabel = xlabel,
		                       .ylabel = ylabel,
		                       .categories = d.cats,
		                       .ncat = c->n,
		                       .s = d.s,
		                       .ns = d.ns,
		                       .width = d.width,
		                       .inline_svg = true};
		rc = svg_write(f, &ch);
	}
	drawn_free(&d);
	return rc;
}

/* The chart's runs, newest first, folded under the chart. */
static void write_runs(FILE *f, const struct hist_html_chart *c, size_t idx, bool commits)
{
	fprintf(f,
	        "<details><summary>the %zu run%s</summary>\n<div class=\"tw\"><table class=\"sortable\" "
	        "id=\"t-runs-%zu\">\n<thead><tr><th>run</th>%s<th>",
	        c->n, c->n == 1 ? "" : "s", idx, commits ? "<th>commit</th>" : "");
	metric_text(f, c);
	fputs("</th><th>95% prediction interval</th><th>flag</th><th>facts changed since the run "
	      "before</th><th>report</th></tr></thead>\n<tbody>\n",
	      f);
	for (size_t k = c->n; k-- > 0;) {
		const struct hist_html_point *p = &c->p[k];
		fprintf(f, "<tr id=\"c%zu-r%zu\"%s><td>", idx, k, row_class(p));
		esc(f, p->date);
		fputs("</td>", f);
		if (commits) {
			fputs("<td><code>", f);
			esc(f, p->commit ? p->commit : "");
			fputs("</code></td>", f);
		}
		num_cell(f, p->value);
		interval_cell(f, p);
		fprintf(f, "<td>%s</td>", verdict(p));
		facts_cell(f, k ? (p->changed && *p->changed ? p->changed : "none") : "(the first run)");
		link_cell(f, p);
		fputs("</tr>\n", f);
	}
	fputs("</tbody></table></div></details>\n", f);
}

static size_t count_flagged(const struct hist_html_page *pg)
{
	size_t n = 0;
	for (size_t i = 0; i < pg->nc; i++)
		for (size_t k = 0; k < pg->c[i].n; k++)
			n += pg->c[i].p[k].flag != 0;
	return n;
}

/* Every flagged run of every scenario, linked to its row under its chart. */
static void write_regressions(FILE *f, const struct hist_html_page *pg)
{
	size_t nflag = count_flagged(pg);
	fputs("<h2 id=\"regressions\">Regressions</h2>\n", f);
	if (!nflag) {
		fputs("<p>No run is flagged: every judged run fell inside the prediction interval of "
		      "the runs before it.</p>\n",
		      f);
		return;
	}
	fprintf(f,
	        "<p>%zu flagged run%s: each outside the %.0f%% prediction interval of the same cell's "
	        "values on the same host in the runs before it.</p>\n",
	        nflag, nflag == 1 ? "" : "s", 100 * pg->level);
	fputs("<div class=\"tw\"><table class=\"sortable\" id=\"t-regressions\">\n<thead><tr>"
	      "<th>scenario</th><th>cell</th><th>metric</th><th>run</th><th>commit</th><th>value</th>"
	      "<th>95% prediction interval</th><th>change (%)</th><th>flag</th><th>facts changed since the "
	      "run before</th><th>report</th></tr></thead>\n<tbody>\n",
	      f);
	for (size_t i = 0; i < pg->nc; i++) {
		const struct hist_html_chart *c = &pg->c[i];
		for (size_t k = 0; k < c->n; k++) {
			const struct hist_html_point *p = &c->p[k];
			if (!p->flag)
				continue;
			fprintf(f, "<tr%s><td>", row_class(p));
			esc(f, c->scenario);
			fprintf(f, "</td><td><a href=\"#c%zu-r%zu\">", i, k);
			esc(f, cell_name(c));
			if (c->host) {
				fputs(" @ ", f);
				esc(f, c->host);
			}
			fputs("</a></td><td>", f);
			metric_text(f, c);
			fputs("</td><td>", f);
			esc(f, p->date);
			fputs("</td><td><code>", f);
			esc(f, p->commit);
			fputs("</code></td>", f);
			num_cell(f, p->value);
			interval_cell(f, p);
			double mid = (p->lo + p->hi) / 2;
			num_cell(f, mid != 0 ? 100 * (p->value - mid) / fabs(mid) : NAN);
			fprintf(f, "<td>%s</td>", verdict(p));
			facts_cell(f, p->changed && *p->changed ? p->changed : "none");
			link_cell(f, p);
			fputs("</tr>\n", f);
		}
	}
	fputs("</tbody></table></div>\n<p class=\"meta\">change: the value against the middle of the "
	      "interval, in %.</p>\n",
	      f);
}

static bool new_scenario(const struct hist_html_page *pg, size_t i)
{
	return i == 0 || strcmp(pg->c[i].scenario, pg->c[i - 1].scenario) != 0;
}

static bool new_cell(const struct hist_html_page *pg, size_t i)
{
	const struct hist_html_chart *a = &pg->c[i], *b = i ? &pg->c[i - 1] : NULL;
	return new_scenario(pg, i) || strcmp(cell_name(a), cell_name(b)) != 0 ||
	       strcmp(a->host ? a->host : "", b->host ? b->host : "") != 0;
}

static void write_intro(FILE *f, const struct hist_html_page *pg)
{
	size_t nscen = 0;
	for (size_t i = 0; i < pg->nc; i++)
		nscen += new_scenario(pg, i);
	fputs("<h1>Results history</h1>\n<p class=\"meta\">", f);
	fprintf(f, "%zu scenario%s, %zu chart%s from the store <code>", nscen, nscen == 1 ? "" : "s", pg->nc,
	        pg->nc == 1 ? "" : "s");
	esc(f, pg->store);
	fputs("</code>; runs in order of ", f);
	esc(f, pg->order);
	fprintf(f,
	        ". A run is flagged when its value falls outside the %.0f%% prediction interval of the "
	        "same cell's values on the same host in the %ld runs before it (at least 3); the "
	        "interval is drawn at each run as a bar around the value expected.",
	        100 * pg->level, pg->window);
	if (pg->note) {
		fputc(' ', f);
		esc(f, pg->note);
	}
	fputs("</p>\n<nav class=\"toc\"><ul>\n<li><a href=\"#regressions\">Regressions</a></li>\n", f);
	for (size_t i = 0, s = 0; i < pg->nc; i++)
		if (new_scenario(pg, i)) {
			fprintf(f, "<li><a href=\"#s-%zu\">", s++);
			esc(f, pg->c[i].scenario);
			fputs("</a></li>\n", f);
		}
	fputs("</ul></nav>\n", f);
}

int hist_html_write(FILE *f, const struct hist_html_page *pg)
{
	bool commits = !strcmp(pg->order, "commit");
	rep_html_page_start(f, "Results history");
	fputs(extra_style, f);
	write_intro(f, pg);
	write_regressions(f, pg);
	int rc = 0;
	for (size_t i = 0, s = 0; i < pg->nc && rc == 0; i++) {
		const struct hist_html_chart *c = &pg->c[i];
		if (new_scenario(pg, i)) {
			fprintf(f, "<h2 id=\"s-%zu\">", s++);
			esc(f, c->scenario);
			fputs("</h2>\n", f);
		}
		if (new_cell(pg, i)) {
			fputs("<h3>", f);
			esc(f, cell_name(c));
			if (c->host) {
				fputs(" <small>on ", f);
				esc(f, c->host);
				fputs("</small>", f);
			}
			fputs("</h3>\n", f);
		}
		fprintf(f, "<figure class=\"chart\" id=\"c%zu\"><figcaption>", i);
		metric_text(f, c);
		fputs("</figcaption>\n", f);
		rc = write_svg(f, c, commits ? "commit" : "run");
		fputs("</figure>\n", f);
		write_runs(f, c, i, commits);
	}
	rep_html_page_end(f);
	return rc < 0 || ferror(f) ? -EIO : 0;
}
