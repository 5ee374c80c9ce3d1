/* svg: chart drawing (see svg.h). */
#include "svg.h"

#include <errno.h>
#include <math.h>
#include <string.h>

#include "utf8.h"

static const char *const palette[] = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd",
                                      "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"};
#define NPALETTE (sizeof(palette) / sizeof(palette[0]))

double svg_nice_number(double x, bool round)
{
	if (!(x > 0) || !isfinite(x))
		return 1;
	double e = floor(log10(x));
	double f = x / pow(10, e), nf;
	if (round)
		nf = f < 1.5 ? 1 : f < 2.25 ? 2 : f < 3.5 ? 2.5 : f < 7.5 ? 5 : 10;
	else
		nf = f <= 1 ? 1 : f <= 2 ? 2 : f <= 2.5 ? 2.5 : f <= 5 ? 5 : 10;
	return nf * pow(10, e);
}

void svg_nice_ticks(double lo, double hi, int target, struct svg_ticks *t)
{
	if (!isfinite(lo) || !isfinite(hi)) {
		lo = 0;
		hi = 1;
	}
	if (hi < lo) {
		double x = lo;
		lo = hi;
		hi = x;
	}
	if (hi == lo) {
		double pad = lo == 0 ? 1 : fabs(lo) * 0.1;
		lo -= lo == 0 ? 0 : pad;
		hi += pad;
	}
	if (target < 2)
		target = 2;
	double range = svg_nice_number(hi - lo, false);
	double step = svg_nice_number(range / (target - 1), true);
	t->step = step;
	t->start = floor(lo / step + 1e-9) * step;
	double end = ceil(hi / step - 1e-9) * step;
	t->n = (int)llround((end - t->start) / step) + 1;
	if (t->n < 2)
		t->n = 2;
}

void svg_tick_label(double v, double step, char *buf, size_t len)
{
	static const struct {
		double div;
		const char *suffix;
	} si[] = {{1e12, "T"}, {1e9, "G"}, {1e6, "M"}, {1e3, "k"}};
	const char *suffix = "";
	double a = fabs(v) > fabs(step) ? fabs(v) : fabs(step);
	if (fabs(v) < step * 1e-9) {
		snprintf(buf, len, "0"); /* not "0k" */
		return;
	}
	if (a >= 1e4)
		for (size_t i = 0; i < sizeof(si) / sizeof(si[0]); i++)
			if (a >= si[i].div) {
				v /= si[i].div;
				step /= si[i].div;
				suffix = si[i].suffix;
				break;
			}
	int dec = step > 0 ? (int)ceil(-log10(step) - 1e-9) : 0;
	if (dec < 0)
		dec = 0;
	/* steps like 2.5 need one more digit */
	if (dec < 6 && fabs(step * pow(10, dec) - llround(step * pow(10, dec))) > 1e-6)
		dec++;
	snprintf(buf, len, "%.*f%s", dec, v, suffix);
}

void svg_escape(FILE *f, const char *s)
{
	size_t n = s ? strlen(s) : 0;
	for (size_t i = 0, k; i < n; i += k) {
		k = utf8_char_len(s + i, n - i, 0);
		if (k == 0) { /* invalid UTF-8 */
			fputs(UTF8_REPLACEMENT, f);
			k = 1;
			continue;
		}
		if (k > 1) {
			fwrite(s + i, 1, k, f);
			continue;
		}
		switch (s[i]) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		case '\'': fputs("&apos;", f); break;
		default:
			/* XML 1.0 forbids most control characters. */
			if ((unsigned char)s[i] >= 0x20 || s[i] == '\t' || s[i] == '\n')
				fputc(s[i], f);
		}
	}
}

struct frame {
	int W, H;            /* the whole image */
	double x0, y0, w, h; /* plot area in pixels (y0 = top) */
	double xlo, xhi, ylo, yhi;
	bool cat;
	size_t ncat;
	struct svg_ticks yt, xt; /* xt unused on a categorical axis */
	double legend_w;         /* 0: no legend */
};

static double px(const struct frame *fr, double x)
{
	if (fr->cat)
		return fr->x0 + (x + 0.5) * fr->w / (double)(fr->ncat ? fr->ncat : 1);
	return fr->x0 + (x - fr->xlo) / (fr->xhi - fr->xlo) * fr->w;
}

static double py(const struct frame *fr, double y)
{
	return fr->y0 + fr->h - (y - fr->ylo) / (fr->yhi - fr->ylo) * fr->h;
}

static void text(FILE *f, double x, double y, const char *anchor, const char *cls, const char *s)
{
	fprintf(f, "<text class=\"%s\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\">", cls, x, y, anchor);
	svg_escape(f, s);
	fputs("</text>\n", f);
}

/* Image and plot area, legend width, data range and ticks. */
static void layout(const struct svg_chart *c, struct frame *fr)
{
	*fr = (struct frame){.W = c->width > 0 ? c->width : 760,
	                     .H = c->height > 0 ? c->height : 420,
	                     .x0 = 80,
	                     .y0 = 48,
	                     .cat = c->categories != NULL,
	                     .ncat = c->ncat};
	for (size_t i = 0; i < c->ns; i++) {
		double w = 30 + 7.0 * (double)(c->s[i].label ? strlen(c->s[i].label) : 0);
		fr->legend_w = fmax(fr->legend_w, fmin(w, 220));
	}
	if (c->no_legend || (c->ns <= 1 && !(c->ns == 1 && c->s[0].label && *c->s[0].label)))
		fr->legend_w = 0;
	fr->w = fr->W - fr->x0 - 20 - fr->legend_w;
	fr->h = fr->H - fr->y0 - 60;

	/* Data range. */
	double xlo = INFINITY, xhi = -INFINITY, ylo = INFINITY, yhi = -INFINITY;
	for (size_t i = 0; i < c->ns; i++)
		for (size_t k = 0; k < c->s[i].n; k++) {
			if (!isfinite(c->s[i].y[k]) || !isfinite(c->s[i].x[k]))
				continue;
			xlo = fmin(xlo, c->s[i].x[k]);
			xhi = fmax(xhi, c->s[i].x[k]);
			double y = c->s[i].y[k];
			double e = c->s[i].err && isfinite(c->s[i].err[k]) ? fabs(c->s[i].err[k]) : 0;
			/* an error bar of a positive value stops at 0 (write_err_bars) */
			ylo = fmin(ylo, y >= 0 ? fmax(y - e, 0) : y - e);
			yhi = fmax(yhi, y + e);
		}
	if (isfinite(c->y_lo) && isfinite(c->y_hi) && c->y_hi > c->y_lo && isfinite(ylo)) {
		ylo = fmin(ylo, c->y_lo);
		yhi = fmax(yhi, c->y_hi);
	}
	for (size_t i = 0; i < c->nmarks; i++)
		if (isfinite(c->marks[i].y)) {
			bool had = isfinite(ylo);
			ylo = fmin(ylo, c->marks[i].y);
			yhi = fmax(yhi, c->marks[i].y);
			if (!had && !fr->cat) {
				xlo = 0;
				xhi = 1;
			}
		}
	if (!isfinite(ylo)) {
		ylo = 0;
		yhi = 1;
		xlo = 0;
		xhi = 1;
	}
	ylo = fmin(ylo, 0);
	yhi = fmax(yhi, 0);
	svg_nice_ticks(ylo, yhi, 6, &fr->yt);
	fr->ylo = fr->yt.start;
	fr->yhi = fr->yt.start + fr->yt.step * (fr->yt.n - 1);
	if (!fr->cat) {
		if (c->x_zero && xlo > 0)
			xlo = 0;
		svg_nice_ticks(xlo, xhi, 8, &fr->xt);
		fr->xlo = xlo < fr->xt.start ? xlo : fr->xt.start;
		fr->xhi = fr->xt.start + fr->xt.step * (fr->xt.n - 1);
		if (fr->xhi <= fr->xlo)
			fr->xhi = fr->xlo + 1;
	}
}

static void write_head(FILE *f, const struct svg_chart *c, const struct frame *fr)
{
	if (!c->inline_svg)
		fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", f);
	fprintf(f,
	        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
	        "font-family=\"sans-serif\" font-size=\"12\">\n",
	        fr->W, fr->H, fr->W, fr->H);
	fputs("<title>", f);
	svg_escape(f, c->title ? c->title : "");
	fputs("</title>\n", f);
	fprintf(f, "<rect class=\"background\" x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" fill=\"white\"/>\n",
	        fr->W, fr->H);
	if (c->title) {
		fputs("<g font-size=\"15\" font-weight=\"bold\">", f);
		text(f, fr->W / 2.0, 24, "middle", "title", c->title);
		fputs("</g>\n", f);
	}
}

static void write_x_ticks(FILE *f, const struct svg_chart *c, const struct frame *fr)
{
	char buf[64];
	fputs("<g class=\"axis x\">\n", f);
	if (fr->cat) {
		size_t every = c->ncat > 12 ? (c->ncat + 11) / 12 : 1;
		for (size_t i = 0; i < c->ncat; i++) {
			double x = px(fr, (double)i);
			fprintf(f,
			        "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#333\"/>\n",
			        x, fr->y0 + fr->h, x, fr->y0 + fr->h + 5);
			if (i % every == 0)
				text(f, x, fr->y0 + fr->h + 18, "middle", "tick", c->categories[i]);
		}
	} else {
		for (int i = 0; i < fr->xt.n; i++) {
			double v = fr->xt.start + fr->xt.step * i;
			if (v < fr->xlo - 1e-9 * fr->xt.step)
				continue;
			double x = px(fr, v);
			fprintf(f,
			        "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#333\"/>\n",
			        x, fr->y0 + fr->h, x, fr->y0 + fr->h + 5);
			svg_tick_label(v, fr->xt.step, buf, sizeof(buf));
			text(f, x, fr->y0 + fr->h + 18, "middle", "tick", buf);
		}
	}
	fputs("</g>\n", f);
}

/* Grid, y ticks, x ticks, the frame and the axis labels. */
static void write_axes(FILE *f, const struct svg_chart *c, const struct frame *fr)
{
	char buf[64];
	fputs("<g class=\"axis y\" stroke-width=\"1\">\n", f);
	for (int i = 0; i < fr->yt.n; i++) {
		double v = fr->yt.start + fr->yt.step * i, y = py(fr, v);
		fprintf(f,
		        "<line class=\"grid\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
		        "stroke=\"#e0e0e0\"/>\n",
		        fr->x0, y, fr->x0 + fr->w, y);
		svg_tick_label(v, fr->yt.step, buf, sizeof(buf));
		text(f, fr->x0 - 6, y + 4, "end", "tick", buf);
	}
	fputs("</g>\n", f);
	write_x_ticks(f, c, fr);
	/* Axis lines on top of the grid. */
	fprintf(f, "<path class=\"frame\" d=\"M%.1f %.1fV%.1fH%.1f\" fill=\"none\" stroke=\"#333\"/>\n",
	        fr->x0, fr->y0, fr->y0 + fr->h, fr->x0 + fr->w);
	if (c->xlabel)
		text(f, fr->x0 + fr->w / 2, fr->y0 + fr->h + 40, "middle", "xlabel", c->xlabel);
	if (c->ylabel) {
		fprintf(f,
		        "<text class=\"ylabel\" transform=\"translate(18 %.1f) rotate(-90)\" "
		        "text-anchor=\"middle\">",
		        fr->y0 + fr->h / 2);
		svg_escape(f, c->ylabel);
		fputs("</text>\n", f);
	}
}

/* The bars of series i, side by side with the other series' in each slot. */
static void write_bars(FILE *f, const struct svg_chart *c, const struct frame *fr, size_t i)
{
	const struct svg_series *s = &c->s[i];
	double slot = fr->w / (double)(fr->ncat ? fr->ncat : 1);
	double bw = c->ns ? slot * 0.8 / (double)c->ns : 0;
	char buf[64];
	for (size_t k = 0; k < s->n; k++) {
		if (!isfinite(s->y[k]) || !isfinite(s->x[k]))
			continue;
		double x = (fr->cat ? px(fr, s->x[k]) - slot * 0.4 : px(fr, s->x[k]) - bw * c->ns / 2) +
		           bw * (double)i;
		double y1 = py(fr, fmax(s->y[k], 0)), y2 = py(fr, fmin(s->y[k], 0));
		fprintf(f,
		        "<rect class=\"bar\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
		        "height=\"%.1f\" "
		        "stroke=\"none\"><title>",
		        x, y1, bw, y2 - y1);
		svg_escape(f, s->label);
		svg_tick_label(s->y[k], fabs(s->y[k]) / 1000 + 1e-12, buf, sizeof(buf));
		fprintf(f, ": %s</title></rect>\n", buf);
	}
}

/* The x of point k of series i: a line's point, or the middle of its bar. */
static double point_x(const struct svg_chart *c, const struct frame *fr, size_t i, size_t k)
{
	const struct svg_series *s = &c->s[i];
	if (c->kind != SVG_BAR)
		return px(fr, s->x[k]);
	double slot = fr->w / (double)(fr->ncat ? fr->ncat : 1);
	double bw = c->ns ? slot * 0.8 / (double)c->ns : 0;
	double x =
	    (fr->cat ? px(fr, s->x[k]) - slot * 0.4 : px(fr, s->x[k]) - bw * c->ns / 2) + bw * (double)i;
	return x + bw / 2;
}

/* Error bars of series i (see svg.h). */
static void write_err_bars(FILE *f, const struct svg_chart *c, const struct frame *fr, size_t i)
{
	const struct svg_series *s = &c->s[i];
	bool any = false;
	for (size_t k = 0; s->err && k < s->n; k++) {
		double e = s->err[k];
		if (!isfinite(e) || !(e > 0) || !isfinite(s->y[k]) || !isfinite(s->x[k]))
			continue;
		if (!any) /* dark over bars; a line's own colour, to tell lines apart */
			fprintf(f, "<g class=\"err-bars\"%s stroke-width=\"1.2\">\n",
			        c->kind == SVG_BAR ? " stroke=\"#222\"" : "");
		any = true;
		/* series side by side on a line chart, so their bars do not hide
		 * each other; clipped to the plot (a positive value's at 0) */
		double x = point_x(c, fr, i, k) +
		           (c->kind == SVG_BAR ? 0 : 5.0 * ((double)i - (double)(c->ns - 1) / 2));
		double lo = s->y[k] - e, hi = s->y[k] + e;
		if (s->y[k] >= 0 && lo < 0)
			lo = 0;
		double y1 = py(fr, fmax(lo, fr->ylo)), y2 = py(fr, fmin(hi, fr->yhi));
		fprintf(f,
		        "<line class=\"err-bar\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>"
		        "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>"
		        "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n",
		        x, y1, x, y2, x - 4, y1, x + 4, y1, x - 4, y2, x + 4, y2);
	}
	if (any)
		fputs("</g>\n", f);
}

/* A line broken at gaps (non-finite values), with markers. */
static void write_line(FILE *f, const struct svg_series *s, const struct frame *fr)
{
	bool open = false;
	for (size_t k = 0; k < s->n; k++) {
		if (!isfinite(s->y[k]) || !isfinite(s->x[k])) {
			if (open)
				fputs("\"/>\n", f);
			open = false;
			continue;
		}
		if (!open)
			fputs("<polyline fill=\"none\" stroke-width=\"2\" points=\"", f);
		fprintf(f, "%s%.1f,%.1f", open ? " " : "", px(fr, s->x[k]), py(fr, s->y[k]));
		open = true;
	}
	if (open)
		fputs("\"/>\n", f);
	/* Markers only where they stay readable. */
	if (s->n <= 60)
		for (size_t k = 0; k < s->n; k++)
			if (isfinite(s->y[k]) && isfinite(s->x[k]))
				fprintf(f, "<circle class=\"point\" cx=\"%.1f\" cy=\"%.1f\" r=\"3\"/>\n",
				        px(fr, s->x[k]), py(fr, s->y[k]));
}

/* The published figures: dashed lines with a label (see svg.h). */
static void write_marks(FILE *f, const struct svg_chart *c, const struct frame *fr)
{
	if (c->nmarks == 0)
		return;
	double slot = fr->w / (double)(fr->ncat ? fr->ncat : 1);
	fputs("<g class=\"published\" stroke-dasharray=\"6 4\" stroke-width=\"2\">\n", f);
	for (size_t i = 0; i < c->nmarks; i++) {
		const struct svg_mark *mk = &c->marks[i];
		if (!isfinite(mk->y))
			continue;
		const char *col = palette[mk->series % NPALETTE];
		double x1 = fr->x0, x2 = fr->x0 + fr->w, y = py(fr, mk->y);
		if (isfinite(mk->x) && fr->cat && c->kind == SVG_BAR && c->ns) {
			double bw = slot * 0.8 / (double)c->ns;
			x1 = px(fr, mk->x) - slot * 0.4 + bw * (double)mk->series;
			x2 = x1 + bw;
		} else if (isfinite(mk->x) && fr->cat) {
			x1 = px(fr, mk->x) - slot * 0.4;
			x2 = px(fr, mk->x) + slot * 0.4;
		} else if (isfinite(mk->x)) {
			x1 = px(fr, mk->x) - 12;
			x2 = px(fr, mk->x) + 12;
		}
		fputs("<line class=\"ref-mark\" data-series=\"", f);
		svg_escape(f, mk->series < c->ns && c->s[mk->series].label ? c->s[mk->series].label : "");
		fprintf(f, "\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\"/>\n", x1, y, x2,
		        y, col);
		fprintf(f,
		        "<text class=\"ref-label\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\" fill=\"%s\" "
		        "stroke=\"none\" font-size=\"10\">",
		        x2, y - 4, col);
		svg_escape(f, mk->label ? mk->label : "published");
		fputs("</text>\n", f);
	}
	fputs("</g>\n", f);
}

/* Events: dotted vertical lines across the plot (see svg.h). */
static void write_events(FILE *f, const struct svg_chart *c, const struct frame *fr)
{
	if (c->nevents == 0 || fr->cat)
		return;
	fputs("<g class=\"events\" stroke-dasharray=\"2 3\" stroke-width=\"1.5\">\n", f);
	for (size_t i = 0; i < c->nevents; i++) {
		const struct svg_event *e = &c->events[i];
		if (!isfinite(e->x) || e->x < fr->xlo || e->x > fr->xhi)
			continue;
		double x = px(fr, e->x);
		fputs("<line class=\"event-mark\" data-series=\"", f);
		svg_escape(f, e->series < c->ns && c->s[e->series].label ? c->s[e->series].label : "");
		fprintf(f, "\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\"><title>", x,
		        fr->y0, x, fr->y0 + fr->h, palette[e->series % NPALETTE]);
		svg_escape(f, e->label ? e->label : "event");
		fputs("</title></line>\n", f);
	}
	fputs("</g>\n", f);
}

static void write_legend(FILE *f, const struct svg_chart *c, const struct frame *fr)
{
	fputs("<g class=\"legend\">\n", f);
	double lx = fr->x0 + fr->w + 16, ly = fr->y0 + 6;
	for (size_t i = 0; i < c->ns; i++, ly += 18) {
		const char *col = palette[i % NPALETTE];
		if (c->kind == SVG_BAR)
			fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"14\" height=\"10\" fill=\"%s\"/>\n",
			        lx, ly - 9, col);
		else
			fprintf(f,
			        "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
			        "stroke-width=\"2\"/>\n",
			        lx, ly - 4, lx + 14, ly - 4, col);
		char label[40];
		const char *l = c->s[i].label ? c->s[i].label : "";
		if (strlen(l) > 28)
			snprintf(label, sizeof(label), "%.26s..", l);
		else
			snprintf(label, sizeof(label), "%s", l);
		text(f, lx + 20, ly, "start", "legend-label", label);
	}
	fputs("</g>\n", f);
}

int svg_write(FILE *f, const struct svg_chart *c)
{
	struct frame fr;
	layout(c, &fr);
	write_head(f, c, &fr);
	write_axes(f, c, &fr);
	for (size_t i = 0; i < c->ns; i++) {
		const struct svg_series *s = &c->s[i];
		const char *col = palette[i % NPALETTE];
		fputs("<g class=\"series\" data-label=\"", f);
		svg_escape(f, s->label ? s->label : "");
		fprintf(f, "\" stroke=\"%s\" fill=\"%s\">\n", col, col);
		if (c->kind == SVG_BAR)
			write_bars(f, c, &fr, i);
		else
			write_line(f, s, &fr);
		write_err_bars(f, c, &fr, i);
		fputs("</g>\n", f);
	}
	write_marks(f, c, &fr);
	write_events(f, c, &fr);
	if (fr.legend_w > 0)
		write_legend(f, c, &fr);
	fputs("</svg>\n", f);
	return ferror(f) ? -EIO : 0;
}
