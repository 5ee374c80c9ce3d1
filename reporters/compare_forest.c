/* compare_forest: the forest plot of compare.html (compare_html.h): one row
 * per compared metric, its ratio B/A as a square and its 95% interval as a
 * line, on a log axis around 1, the largest change (|log B/A|) first.
 *
 *   <svg class="forest"> ... <g class="series" data-label="0 k=x · w.mb_s"
 *        data-ratio="0.85" data-verdict="slower"> text.row-label line.ci
 *        rect.ratio text.ratio-text </g> ... </svg>
 *
 * Drawn here and not by svg.c: its rows are metrics, not series over x. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare_forest.h"
#include "svg.h"

enum { F_W = 1080, F_LEFT = 300, F_PLOT = 330, F_TOP = 48, F_ROW = 22, F_BOTTOM = 44 };

struct order {
	size_t k;
	double effect;
};

static int by_effect(const void *x, const void *y)
{
	const struct order *a = x, *b = y;
	if (a->effect != b->effect)
		return a->effect > b->effect ? -1 : 1;
	return a->k < b->k ? -1 : a->k > b->k;
}

static bool drawable(const struct cmp_html_row *r)
{
	return isfinite(r->m.ratio) && r->m.ratio > 0;
}

static bool has_ci(const struct cmp_html_row *r)
{
	return isfinite(r->m.lo) && isfinite(r->m.hi) && r->m.lo > 0 && r->m.hi >= r->m.lo;
}

struct scale {
	double l0, l1; /* log10 of the axis' ends */
};

static double xpos(const struct scale *s, double v)
{
	return F_LEFT + (log10(v) - s->l0) / (s->l1 - s->l0) * F_PLOT;
}

/* Ticks at ratios people read (..., 0.5, 0.8, 0.9, 1, 1.1, 1.25, 2, ...),
 * at least 40 px apart, outwards from 1. */
static void ticks(FILE *f, const struct scale *s, double y0, double y1)
{
	static const double below[] = {0.95, 0.9,  0.8,  0.67,  0.5,  0.2, 0.1,
	                               0.05, 0.02, 0.01, 0.001, 1e-4, 1e-6};
	static const double above[] = {1.05, 1.1, 1.25, 1.5, 2, 5, 10, 20, 50, 100, 1000, 1e4, 1e6};
	double lo = pow(10, s->l0), hi = pow(10, s->l1);
	for (int side = 0; side < 3; side++) {
		const double *v = side == 1 ? below : above;
		size_t n = side == 0 ? 1 : 13;
		double last = xpos(s, 1);
		for (size_t i = 0; i < n; i++) {
			double t = side == 0 ? 1 : v[i];
			if (t < lo || t > hi)
				continue;
			double x = xpos(s, t);
			if (side && fabs(x - last) < 40)
				continue;
			last = x;
			fprintf(f,
			        "<line class=\"%s\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
			        "stroke=\"%s\"%s/>"
			        "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%g</text>\n",
			        t == 1 ? "one" : "grid", x, y0, x, y1, t == 1 ? "#444" : "#e5e5e5",
			        t == 1 ? " stroke-dasharray=\"4 3\"" : "", x, y1 + 16, t);
		}
	}
}

/* "+12.3% [-3.1%, +25.0%] slower, within run" */
static void row_text(FILE *f, const struct cmp_html_row *r)
{
	fprintf(f, "%+.1f%%", (r->m.ratio - 1) * 100);
	if (has_ci(r))
		fprintf(f, " [%+.1f%%, %+.1f%%]", (r->m.lo - 1) * 100, (r->m.hi - 1) * 100);
	fprintf(f, " %s", cmp_verdict_name(r->m.verdict));
	if (r->m.test != CMP_TEST_NONE)
		fputs(r->m.noise == CMP_NOISE_WITHIN ? ", within run" : ", between runs", f);
}

static void row(FILE *f, const struct cmp_html *h, const struct cmp_html_row *r, const struct scale *s,
                double y)
{
	char *label = NULL;
	if (asprintf(&label, "%s \xc2\xb7 %s", r->pair < h->np ? h->label[r->pair] : "?", r->ref) < 0)
		label = NULL;
	const char *col = cmp_html_colour(r->m.verdict);
	fputs("<g class=\"series\" data-label=\"", f);
	svg_escape(f, label ? label : r->ref);
	fprintf(f, "\" data-ratio=\"%.6g\" data-verdict=\"%s\"><title>", r->m.ratio,
	        cmp_verdict_name(r->m.verdict));
	svg_escape(f, label ? label : r->ref);
	fputs(": ", f);
	row_text(f, r);
	fprintf(f, "</title>\n<text class=\"row-label\" x=\"%d\" y=\"%.1f\" text-anchor=\"end\">", F_LEFT - 8,
	        y + 4);
	cmp_html_text(f, label ? label : r->ref, 46);
	fputs("</text>", f);
	if (has_ci(r))
		fprintf(f,
		        "<line class=\"ci\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
		        "stroke-width=\"2\"/>",
		        xpos(s, r->m.lo), y, xpos(s, r->m.hi), y, col);
	fprintf(f,
	        "<rect class=\"ratio\" x=\"%.1f\" y=\"%.1f\" width=\"9\" height=\"9\" fill=\"%s\"/>"
	        "<text class=\"ratio-text\" x=\"%d\" y=\"%.1f\" fill=\"%s\">",
	        xpos(s, r->m.ratio) - 4.5, y - 4.5, col, F_LEFT + F_PLOT + 12, y + 4, col);
	row_text(f, r);
	fputs("</text></g>\n", f);
	free(label);
}

size_t cmp_forest_svg(FILE *f, const struct cmp_html *h)
{
	struct order *o = calloc(h->nr + 1, sizeof(*o));
	size_t n = 0;
	double lo = 1, hi = 1;
	for (size_t k = 0; o && k < h->nr; k++) {
		const struct cmp_html_row *r = &h->r[k];
		if (!drawable(r))
			continue;
		o[n++] = (struct order){k, fabs(log(r->m.ratio))};
		lo = fmin(lo, r->m.ratio);
		hi = fmax(hi, r->m.ratio);
		if (has_ci(r)) {
			lo = fmin(lo, r->m.lo);
			hi = fmax(hi, r->m.hi);
		}
	}
	if (!n) {
		free(o);
		return 0;
	}
	qsort(o, n, sizeof(*o), by_effect);
	struct scale s = {log10(lo), log10(hi)};
	double pad = fmax((s.l1 - s.l0) * 0.06, 0.01);
	s.l0 -= pad;
	s.l1 += pad;
	int height = F_TOP + (int)n * F_ROW + F_BOTTOM;
	fprintf(f,
	        "<svg class=\"forest\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
	        "viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"12\" role=\"img\">\n"
	        "<title>B/A per cell and metric, 95%% intervals, largest change first</title>\n"
	        "<rect width=\"100%%\" height=\"100%%\" fill=\"#fff\"/>\n"
	        "<text x=\"%d\" y=\"22\" font-size=\"15\" font-weight=\"bold\">B/A with 95%% intervals, "
	        "largest change first</text>\n",
	        F_W, height, F_W, height, 12);
	double y0 = F_TOP - 8, y1 = F_TOP + (double)n * F_ROW;
	ticks(f, &s, y0, y1);
	fprintf(
	    f,
	    "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">B/A (log scale; left of 1: B lower)</text>\n",
	    F_LEFT + F_PLOT / 2.0, y1 + 34);
	for (size_t i = 0; i < n; i++)
		row(f, h, &h->r[o[i].k], &s, F_TOP + F_ROW * ((double)i + 0.5));
	fputs("</svg>\n", f);
	free(o);
	return n;
}
