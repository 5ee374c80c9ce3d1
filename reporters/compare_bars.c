/* compare_bars: compare.html's bars of one metric (compare_html.h): per
 * pair of cells the median of A and of B side by side, each with its 95%
 * interval when known (an asymmetric bootstrap interval of the median,
 * which svg.c's symmetric error bars cannot draw), B coloured by the
 * verdict and the verdict written under the pair. The same classes as
 * svg.c's bar charts: g.series[data-label=A|B] > rect.bar, g.err-bars >
 * line.err-bar. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare_bars.h"
#include "svg.h"

enum { B_LEFT = 70, B_TOP = 44, B_PLOT_H = 240, B_SLOT_MIN = 70, B_SLOT_MAX = 140 };

struct bars {
	const struct cmp_html_row **r;
	size_t n;
	double y0, y1; /* the axis */
	double slot;
};

static double ypos(const struct bars *b, double v)
{
	return B_TOP + B_PLOT_H - (v - b->y0) / (b->y1 - b->y0) * B_PLOT_H;
}

static void span(double *lo, double *hi, double v)
{
	if (isfinite(v)) {
		*lo = fmin(*lo, v);
		*hi = fmax(*hi, v);
	}
}

static void axis(FILE *f, const struct bars *b, const struct svg_ticks *t, double right)
{
	char lab[64];
	for (int i = 0; i < t->n; i++) {
		double v = t->start + t->step * i;
		if (v < b->y0 - 1e-9 * fabs(t->step) || v > b->y1 + 1e-9 * fabs(t->step))
			continue;
		svg_tick_label(v, t->step, lab, sizeof(lab));
		fprintf(
		    f,
		    "<line class=\"grid\" x1=\"%d\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#e5e5e5\"/>"
		    "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>\n",
		    B_LEFT, ypos(b, v), right, ypos(b, v), B_LEFT - 6, ypos(b, v) + 4, lab);
	}
	fprintf(f, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#444\"/>\n", B_LEFT,
	        ypos(b, fmax(b->y0, fmin(0, b->y1))), right, ypos(b, fmax(b->y0, fmin(0, b->y1))));
}

/* One side's bars: s 0 (A) or 1 (B). */
static void side(FILE *f, const struct bars *b, int s)
{
	fprintf(f, "<g class=\"series\" data-label=\"%s\">\n", s ? "B" : "A");
	double base = ypos(b, fmax(b->y0, fmin(0, b->y1)));
	for (size_t i = 0; i < b->n; i++) {
		const struct cmp_html_row *r = b->r[i];
		double v = s ? r->m.med_b : r->m.med_a;
		if (!isfinite(v))
			continue;
		double x = B_LEFT + b->slot * ((double)i + 0.5) + (s ? 2 : -b->slot * 0.32 - 2);
		double y = ypos(b, v), top = fmin(y, base), h = fmax(fabs(base - y), 1);
		fprintf(
		    f,
		    "<rect class=\"bar\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\">",
		    x, top, b->slot * 0.32, h, s ? cmp_html_colour(r->m.verdict) : "#8da0cb");
		fprintf(f, "<title>%s: %.6g</title></rect>\n", s ? "B" : "A", v);
	}
	fputs("</g>\n", f);
}

static void err_bars(FILE *f, const struct bars *b)
{
	fputs("<g class=\"err-bars\" stroke=\"#222\" stroke-width=\"1.2\">\n", f);
	for (size_t i = 0; i < b->n; i++)
		for (int s = 0; s < 2; s++) {
			const struct cmp_html_row *r = b->r[i];
			double lo = s ? r->lo_b : r->lo_a, hi = s ? r->hi_b : r->hi_a;
			if (!isfinite(lo) || !isfinite(hi) || hi < lo)
				continue;
			double x = B_LEFT + b->slot * ((double)i + 0.5) +
			           (s ? 2 + b->slot * 0.16 : -b->slot * 0.16 - 2);
			fprintf(f,
			        "<line class=\"err-bar\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>"
			        "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>"
			        "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n",
			        x, ypos(b, lo), x, ypos(b, hi), x - 4, ypos(b, lo), x + 4, ypos(b, lo), x - 4,
			        ypos(b, hi), x + 4, ypos(b, hi));
		}
	fputs("</g>\n", f);
}

static void categories(FILE *f, const struct cmp_html *h, const struct bars *b)
{
	size_t max = (size_t)(b->slot / 6.5);
	for (size_t i = 0; i < b->n; i++) {
		const struct cmp_html_row *r = b->r[i];
		double x = B_LEFT + b->slot * ((double)i + 0.5), y = B_TOP + B_PLOT_H;
		fprintf(f, "<text class=\"category\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">", x,
		        y + 16);
		cmp_html_text(f, r->pair < h->np ? h->label[r->pair] : "?", max);
		fprintf(f, "<title>");
		svg_escape(f, r->pair < h->np ? h->label[r->pair] : "?");
		fprintf(f,
		        "</title></text><text class=\"verdict\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" "
		        "fill=\"%s\">",
		        x, y + 31, cmp_html_colour(r->m.verdict));
		cmp_html_text(f, cmp_verdict_name(r->m.verdict), max);
		fputs("</text>\n", f);
	}
}

void cmp_bars_svg(FILE *f, const struct cmp_html *h, const char *ref)
{
	struct bars b = {.r = calloc(h->nr + 1, sizeof(*b.r)), .y0 = 0, .y1 = 0};
	const char *unit = "";
	for (size_t k = 0; b.r && k < h->nr; k++)
		if (strcmp(h->r[k].ref, ref) == 0) {
			const struct cmp_html_row *r = b.r[b.n++] = &h->r[k];
			unit = r->unit;
			span(&b.y0, &b.y1, r->m.med_a);
			span(&b.y0, &b.y1, r->m.med_b);
			if (r->hi_a >= r->lo_a)
				span(&b.y0, &b.y1, r->hi_a), span(&b.y0, &b.y1, r->lo_a);
			if (r->hi_b >= r->lo_b)
				span(&b.y0, &b.y1, r->hi_b), span(&b.y0, &b.y1, r->lo_b);
		}
	if (b.y1 <= b.y0)
		b.y1 = b.y0 + 1;
	struct svg_ticks t;
	svg_nice_ticks(b.y0, b.y1, 5, &t);
	b.y0 = fmin(b.y0, t.start);
	b.y1 = fmax(b.y1, t.start + t.step * (t.n - 1));
	b.slot = fmax(B_SLOT_MIN, fmin(B_SLOT_MAX, 900.0 / (double)(b.n ? b.n : 1)));
	double right = B_LEFT + b.slot * (double)b.n;
	int width = (int)fmax(right + 160, 560), height = B_TOP + B_PLOT_H + 62;
	fprintf(f,
	        "<svg class=\"cmp-bars\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
	        "viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"12\" role=\"img\">\n"
	        "<rect width=\"100%%\" height=\"100%%\" fill=\"#fff\"/>\n<title>",
	        width, height, width, height);
	svg_escape(f, ref);
	fputs(": A and B per cell</title>\n<text x=\"12\" y=\"22\" font-size=\"15\" font-weight=\"bold\">",
	      f);
	svg_escape(f, ref);
	if (*unit) {
		fputs(" (", f);
		svg_escape(f, unit);
		fputc(')', f);
	}
	fputs(": median of A and B, 95% intervals</text>\n", f);
	axis(f, &b, &t, right);
	side(f, &b, 0);
	side(f, &b, 1);
	err_bars(f, &b);
	categories(f, h, &b);
	fprintf(f,
	        "<g class=\"legend\"><rect x=\"%.1f\" y=\"%d\" width=\"12\" height=\"12\" fill=\"#8da0cb\"/>"
	        "<text x=\"%.1f\" y=\"%d\">A</text><rect x=\"%.1f\" y=\"%d\" width=\"12\" height=\"12\" "
	        "fill=\"#7f7f7f\"/><text x=\"%.1f\" y=\"%d\">B (colour: verdict)</text></g>\n</svg>\n",
	        right + 14, B_TOP, right + 30, B_TOP + 10, right + 14, B_TOP + 20, right + 30, B_TOP + 30);
	free(b.r);
}
