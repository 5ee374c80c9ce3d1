/* svg: chart drawing (see svg.h). */
#include "svg.h"

#include <errno.h>
#include <math.h>
#include <string.h>

#include "svg_legend.h"
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
	double xlo, xhi, ylo, yhi, y2lo, y2hi;
	bool cat, xlog, ylog, y2;
	size_t ncat;
	struct svg_ticks yt, xt, y2t; /* xt unused on a categorical axis */
	double legend_w;              /* 0: no legend */
};

/* Position of v in [lo, hi] as a fraction, on a log or linear scale. */
static double frac(double v, double lo, double hi, bool lg)
{
	if (lg)
		return (log10(v) - log10(lo)) / (log10(hi) - log10(lo));
	return (v - lo) / (hi - lo);
}

static double px(const struct frame *fr, double x)
{
	if (fr->cat)
		return fr->x0 + (x + 0.5) * fr->w / (double)(fr->ncat ? fr->ncat : 1);
	return fr->x0 + frac(x, fr->xlo, fr->xhi, fr->xlog) * fr->w;
}

static double py(const struct frame *fr, double y)
{
	return fr->y0 + fr->h - frac(y, fr->ylo, fr->yhi, fr->ylog) * fr->h;
}

static double py2(const struct frame *fr, double y)
{
	return fr->y0 + fr->h - frac(y, fr->y2lo, fr->y2hi, false) * fr->h;
}

/* A series point's y in pixels, on its axis. */
static double sy(const struct frame *fr, bool on_y2, double y)
{
	return on_y2 && fr->y2 ? py2(fr, y) : py(fr, y);
}

static bool is_y2(const struct svg_chart *c, size_t i)
{
	return c->y2 && c->y2[i];
}

/* A value that can be placed on an axis (log: positive). */
static bool on_axis(double v, bool lg)
{
	return isfinite(v) && (!lg || v > 0);
}

static void text(FILE *f, double x, double y, const char *anchor, const char *cls, const char *s)
{
	fprintf(f, "<text class=\"%s\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\">", cls, x, y, anchor);
	svg_escape(f, s);
	fputs("</text>\n", f);
}

/* The range of the values on one axis, and its nice ticks. */
static void axis_range(double lo, double hi, bool lg, bool zero, int target, struct svg_ticks *t, double *alo,
                       double *ahi)
{
	if (lg) {
		if (!(lo > 0) || !isfinite(lo)) {
			lo = 1;
			hi = 10;
		}
		*alo = pow(10, floor(log10(lo) + 1e-9));
		*ahi = pow(10, ceil(log10(hi) - 1e-9));
		if (*ahi <= *alo)
			*ahi = *alo * 10;
		*t = (struct svg_ticks){*alo, 10, 0};
		return;
	}
	if (zero) {
		lo = fmin(lo, 0);
		hi = fmax(hi, 0);
	}
	svg_nice_ticks(lo, hi, target, t);
	*alo = t->start;
	*ahi = t->start + t->step * (t->n - 1);
}

/* The ticks of a log axis [lo, hi]: 1, 2, 5 x 10^k over up to 3 decades,
 * else each decade. n at most max. */
static int log_ticks(double lo, double hi, double *v, int max)
{
	int n = 0;
	bool fine = log10(hi / lo) <= 3.01;
	for (double d = lo; d <= hi * 1.0001 && n < max; d *= 10) {
		static const double m[] = {1, 2, 5};
		for (int k = 0; k < (fine ? 3 : 1) && n < max; k++)
			if (d * m[k] <= hi * 1.0001)
				v[n++] = d * m[k];
	}
	return n;
}

/* [*lo, *hi] widened to hold [a, b]. */
static void widen(double *lo, double *hi, double a, double b)
{
	*lo = fmin(*lo, a);
	*hi = fmax(*hi, b);
}

/* Image and plot area, legend width, data range and ticks. */
static void layout(const struct svg_chart *c, struct frame *fr)
{
	*fr = (struct frame){.W = c->width > 0 ? c->width : 760,
	                     .H = c->height > 0 ? c->height : 420,
	                     .x0 = 80,
	                     .y0 = 48,
	                     .cat = c->categories != NULL,
	                     .ncat = c->ncat,
	                     .xlog = c->xlog && !c->categories,
	                     .ylog = c->ylog};
	for (size_t i = 0; i < c->ns; i++)
		fr->y2 |= is_y2(c, i);
	/* the legend: at most a third of the image wide, whatever the labels */
	double legend_h = LEGEND_TOP - LEGEND_STEP + LEGEND_DESCENT; /* to its bottom */
	for (size_t i = 0; i < c->ns; i++) {
		size_t at[LEGEND_LINES], len[LEGEND_LINES], longest = 0;
		bool cut;
		size_t nl = svg_legend_wrap(c->s[i].label ? c->s[i].label : "", at, len, &cut);
		for (size_t k = 0; k < nl; k++)
			longest = len[k] > longest ? len[k] : longest;
		fr->legend_w = fmax(fr->legend_w, fmin(30 + 7.0 * (double)longest, fr->W / 3.0));
		legend_h += svg_legend_entry_h(nl);
	}
	if (c->no_legend || (c->ns <= 1 && !(c->ns == 1 && c->s[0].label && *c->s[0].label)))
		fr->legend_w = 0;
	if (c->kind == SVG_HEATMAP)
		fr->legend_w = 90; /* the colour scale */
	/* a tiny image (width:, height:) still gets no negative sizes */
	fr->w = fmax(fr->W - fr->x0 - 20 - fr->legend_w - (fr->y2 ? 60 : 0), 20);
	fr->h = fmax(fr->H - fr->y0 - 60, 20);
	/* a legend taller than the plot (many or wrapped entries) makes the
	 * image taller below it: the plot keeps its size, nothing is cut */
	if (fr->legend_w > 0 && c->kind != SVG_HEATMAP) {
		double bottom = fr->y0 + legend_h + 6; /* and a margin */
		if (bottom > fr->H)
			fr->H = (int)ceil(bottom);
	}

	/* Data range. */
	double xlo = INFINITY, xhi = -INFINITY, ylo = INFINITY, yhi = -INFINITY;
	double y2lo = INFINITY, y2hi = -INFINITY;
	for (size_t i = 0; i < c->ns; i++)
		for (size_t k = 0; k < c->s[i].n; k++) {
			const struct svg_series *s = &c->s[i];
			const double *x2 = c->x2 ? c->x2[i] : NULL;
			bool y2 = is_y2(c, i) && fr->y2;
			if (!on_axis(s->y[k], fr->ylog && !y2) || !on_axis(s->x[k], fr->xlog))
				continue;
			widen(&xlo, &xhi, s->x[k], x2 && on_axis(x2[k], fr->xlog) ? x2[k] : s->x[k]);
			double y = s->y[k];
			double e = s->err && isfinite(s->err[k]) ? fabs(s->err[k]) : 0;
			/* an error bar of a positive value stops at 0 (write_err_bars) */
			double lo = fr->ylog && !y2 ? y : y >= 0 ? fmax(y - e, 0) : y - e;
			if (y2) {
				y2lo = fmin(y2lo, lo);
				y2hi = fmax(y2hi, y + e);
			} else {
				ylo = fmin(ylo, lo);
				yhi = fmax(yhi, y + e);
			}
		}
	const struct svg_heat *hm = c->kind == SVG_HEATMAP ? c->heat : NULL;
	for (size_t i = 0; hm && i < hm->nx; i++) /* as write_heat draws them */
		if (on_axis(hm->x0[i], fr->xlog) && on_axis(hm->x1[i], fr->xlog))
			widen(&xlo, &xhi, hm->x0[i], hm->x1[i]);
	for (size_t j = 0; hm && j < hm->ny; j++)
		if (on_axis(hm->y0[j], fr->ylog) && on_axis(hm->y1[j], fr->ylog))
			widen(&ylo, &yhi, hm->y0[j], hm->y1[j]);
	if (isfinite(c->y_lo) && isfinite(c->y_hi) && c->y_hi > c->y_lo && isfinite(ylo))
		widen(&ylo, &yhi, c->y_lo, c->y_hi);
	for (size_t i = 0; i < c->nmarks; i++) {
		/* a mark of a series on the second axis widens that axis (review B1) */
		bool on2 = c->marks[i].series < c->ns && is_y2(c, c->marks[i].series) && fr->y2;
		if (on2 && on_axis(c->marks[i].y, false))
			widen(&y2lo, &y2hi, c->marks[i].y, c->marks[i].y);
		else if (!on2 && on_axis(c->marks[i].y, fr->ylog)) {
			bool had = isfinite(ylo);
			widen(&ylo, &yhi, c->marks[i].y, c->marks[i].y);
			if (!had && !fr->cat) {
				xlo = fr->xlog ? 1 : 0;
				xhi = fr->xlog ? 10 : 1;
			}
		}
	}
	if (!isfinite(ylo)) {
		ylo = fr->ylog ? 1 : 0;
		yhi = fr->ylog ? 10 : 1;
	}
	if (!isfinite(xlo)) { /* no data, or heatmap columns all off a log x */
		xlo = fr->xlog ? 1 : 0;
		xhi = fr->xlog ? 10 : 1;
	}
	axis_range(ylo, yhi, fr->ylog, c->kind != SVG_HEATMAP, 6, &fr->yt, &fr->ylo, &fr->yhi);
	if (fr->y2) {
		if (!isfinite(y2lo)) {
			y2lo = 0;
			y2hi = 1;
		}
		axis_range(y2lo, y2hi, false, true, 6, &fr->y2t, &fr->y2lo, &fr->y2hi);
	}
	if (!fr->cat) {
		if (c->x_zero && xlo > 0 && !fr->xlog)
			xlo = 0;
		if (fr->xlog) {
			axis_range(xlo, xhi, true, false, 8, &fr->xt, &fr->xlo, &fr->xhi);
			return;
		}
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

/* The tick values of a numeric axis: nice steps, or a log axis' marks. */
static int tick_values(const struct svg_ticks *t, bool lg, double lo, double hi, double *v, int max)
{
	if (lg)
		return log_ticks(lo, hi, v, max);
	int n = 0;
	for (int i = 0; i < t->n && n < max; i++) {
		double x = t->start + t->step * i;
		if (x >= lo - 1e-9 * t->step)
			v[n++] = x;
	}
	return n;
}

static void tick_text(double v, const struct svg_ticks *t, bool lg, char *buf, size_t len)
{
	svg_tick_label(v, lg ? v : t->step, buf, len);
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
		double v[64];
		int n = tick_values(&fr->xt, fr->xlog, fr->xlo, fr->xhi, v, 64);
		for (int i = 0; i < n; i++) {
			double x = px(fr, v[i]);
			if (fr->xlog) /* a grid line per tick: log spacing is read from it */
				fprintf(
				    f,
				    "<line class=\"grid\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
				    "stroke=\"#eee\"/>\n",
				    x, fr->y0, x, fr->y0 + fr->h);
			fprintf(f,
			        "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#333\"/>\n",
			        x, fr->y0 + fr->h, x, fr->y0 + fr->h + 5);
			tick_text(v[i], &fr->xt, fr->xlog, buf, sizeof(buf));
			text(f, x, fr->y0 + fr->h + 18, "middle", "tick", buf);
		}
	}
	fputs("</g>\n", f);
}

/* Grid, y ticks (and the second axis' at the right), x ticks, the frame
 * and the axis labels. */
static void write_axes(FILE *f, const struct svg_chart *c, const struct frame *fr)
{
	char buf[64];
	double v[64];
	fputs("<g class=\"axis y\" stroke-width=\"1\">\n", f);
	int n = tick_values(&fr->yt, fr->ylog, fr->ylo, fr->yhi, v, 64);
	for (int i = 0; i < n; i++) {
		double y = py(fr, v[i]);
		fprintf(f,
		        "<line class=\"grid\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
		        "stroke=\"#e0e0e0\"/>\n",
		        fr->x0, y, fr->x0 + fr->w, y);
		tick_text(v[i], &fr->yt, fr->ylog, buf, sizeof(buf));
		text(f, fr->x0 - 6, y + 4, "end", "tick", buf);
	}
	fputs("</g>\n", f);
	if (fr->y2) {
		fputs("<g class=\"axis y2\">\n", f);
		n = tick_values(&fr->y2t, false, fr->y2lo, fr->y2hi, v, 64);
		for (int i = 0; i < n; i++) {
			double y = py2(fr, v[i]);
			fprintf(f,
			        "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#333\"/>\n",
			        fr->x0 + fr->w, y, fr->x0 + fr->w + 5, y);
			tick_text(v[i], &fr->y2t, false, buf, sizeof(buf));
			text(f, fr->x0 + fr->w + 8, y + 4, "start", "tick", buf);
		}
		fputs("</g>\n", f);
	}
	write_x_ticks(f, c, fr);
	/* Axis lines on top of the grid. */
	fprintf(f, "<path class=\"frame\" d=\"M%.1f %.1fV%.1fH%.1f", fr->x0, fr->y0, fr->y0 + fr->h,
	        fr->x0 + fr->w);
	if (fr->y2)
		fprintf(f, "V%.1f", fr->y0);
	fputs("\" fill=\"none\" stroke=\"#333\"/>\n", f);
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
	if (fr->y2 && c->y2label) {
		fprintf(f,
		        "<text class=\"ylabel y2\" transform=\"translate(%.1f %.1f) rotate(90)\" "
		        "text-anchor=\"middle\">",
		        fr->x0 + fr->w + 52, fr->y0 + fr->h / 2);
		svg_escape(f, c->y2label);
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
		bool on2 = is_y2(c, i), lg = fr->ylog && !(on2 && fr->y2);
		if (!on_axis(s->y[k], lg))
			continue;
		double base = lg ? fr->ylo : 0; /* a bar on a log axis starts at its bottom */
		double y1 = sy(fr, on2, fmax(s->y[k], base)), y2 = sy(fr, on2, fmin(s->y[k], base));
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
		if (!isfinite(e) || !(e > 0) || !isfinite(s->y[k]) || !isfinite(s->x[k]) || fr->ylog)
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
		bool on2 = is_y2(c, i) && fr->y2;
		double y1 = on2 ? py2(fr, fmax(lo, fr->y2lo)) : py(fr, fmax(lo, fr->ylo));
		double y2 = on2 ? py2(fr, fmin(hi, fr->y2hi)) : py(fr, fmin(hi, fr->yhi));
		fprintf(f,
		        "<line class=\"err-bar\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>"
		        "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>"
		        "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n",
		        x, y1, x, y2, x - 4, y1, x + 4, y1, x - 4, y2, x + 4, y2);
	}
	if (any)
		fputs("</g>\n", f);
}

/* A line broken at gaps (non-finite values, or not positive on a log
 * axis), with markers; dashed on the second y axis. */
static void write_line(FILE *f, const struct svg_series *s, bool on2, const struct frame *fr)
{
	bool open = false, lg = fr->ylog && !(on2 && fr->y2);
	for (size_t k = 0; k < s->n; k++) {
		if (!on_axis(s->y[k], lg) || !on_axis(s->x[k], fr->xlog)) {
			if (open)
				fputs("\"/>\n", f);
			open = false;
			continue;
		}
		if (!open)
			fprintf(f, "<polyline fill=\"none\" stroke-width=\"2\"%s points=\"",
			        on2 && fr->y2 ? " stroke-dasharray=\"7 3\"" : "");
		fprintf(f, "%s%.1f,%.1f", open ? " " : "", px(fr, s->x[k]), sy(fr, on2, s->y[k]));
		open = true;
	}
	if (open)
		fputs("\"/>\n", f);
	/* Markers only where they stay readable. */
	if (s->n <= 60)
		for (size_t k = 0; k < s->n; k++)
			if (on_axis(s->y[k], lg) && on_axis(s->x[k], fr->xlog))
				fprintf(f, "<circle class=\"point\" cx=\"%.1f\" cy=\"%.1f\" r=\"3\"/>\n",
				        px(fr, s->x[k]), sy(fr, on2, s->y[k]));
}

/* A histogram's buckets [x, x2) as translucent bars (see svg.h). */
static void write_hist(FILE *f, const struct svg_series *s, const double *x2v, const struct frame *fr)
{
	char buf[64], a[32], b[32];
	for (size_t k = 0; k < s->n; k++) {
		double x2 = x2v ? x2v[k] : NAN;
		if (!on_axis(s->y[k], fr->ylog) || !on_axis(s->x[k], fr->xlog) || !on_axis(x2, fr->xlog) ||
		    s->y[k] <= 0)
			continue;
		double xa = px(fr, s->x[k]), xb = px(fr, x2);
		double ya = py(fr, s->y[k]), yb = fr->y0 + fr->h;
		fprintf(f,
		        "<rect class=\"hbar\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
		        "fill-opacity=\"0.35\" stroke-width=\"1\"><title>",
		        xa, ya, fmax(xb - xa, 0.5), fmax(yb - ya, 0.5));
		svg_escape(f, s->label);
		svg_tick_label(s->x[k], s->x[k] / 100 + 1e-12, a, sizeof(a));
		svg_tick_label(x2, x2 / 100 + 1e-12, b, sizeof(b));
		svg_tick_label(s->y[k], fabs(s->y[k]) / 1000 + 1e-12, buf, sizeof(buf));
		fprintf(f, " [%s, %s): %s</title></rect>\n", a, b, buf);
	}
}

/* A colour for t in [0, 1]: light yellow to dark blue (as viridis, read
 * backwards, so that empty is white and many is dark). */
static void ramp(double t, char out[8])
{
	static const double stop[][3] = {
	    {255, 247, 188}, {254, 196, 79}, {236, 112, 20}, {153, 52, 4}, {37, 37, 112}};
	t = fmin(fmax(t, 0), 1) * 4;
	int i = t >= 4 ? 3 : (int)t;
	double u = t - i;
	int rgb[3];
	for (int k = 0; k < 3; k++)
		rgb[k] = (int)lround(stop[i][k] + (stop[i + 1][k] - stop[i][k]) * u);
	snprintf(out, 8, "#%02x%02x%02x", rgb[0], rgb[1], rgb[2]);
}

/* The heatmap's cells, coloured by log(count), and its colour scale. */
static void write_heat(FILE *f, const struct svg_chart *c, const struct frame *fr)
{
	const struct svg_heat *h = c->heat;
	double vmax = 0;
	char col[8], a[32], b[32], n[32];
	for (size_t i = 0; h && i < h->nx * h->ny; i++)
		vmax = fmax(vmax, h->v[i]);
	fputs("<g class=\"heatmap\" stroke=\"none\">\n", f);
	for (size_t i = 0; h && vmax > 0 && i < h->nx; i++)
		for (size_t j = 0; j < h->ny; j++) {
			double v = h->v[i * h->ny + j];
			/* a cell off a log axis (time 0 on log x) would be at -inf */
			if (!(v > 0) || !on_axis(h->y0[j], fr->ylog) || !on_axis(h->y1[j], fr->ylog) ||
			    !on_axis(h->x0[i], fr->xlog) || !on_axis(h->x1[i], fr->xlog))
				continue;
			double xa = px(fr, h->x0[i]), xb = px(fr, h->x1[i]);
			double ya = py(fr, h->y1[j]), yb = py(fr, h->y0[j]);
			ramp(log1p(v) / log1p(vmax), col);
			fprintf(f,
			        "<rect class=\"cell\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
			        "fill=\"%s\"><title>",
			        xa, ya, fmax(xb - xa, 0.5), fmax(yb - ya, 0.5), col);
			svg_tick_label(h->y0[j], h->y0[j] / 100 + 1e-12, a, sizeof(a));
			svg_tick_label(h->y1[j], h->y1[j] / 100 + 1e-12, b, sizeof(b));
			svg_tick_label(v, 1, n, sizeof(n));
			fprintf(f, "%.3g-%.3g s, [%s, %s): %s", h->x0[i], h->x1[i], a, b, n);
			fputs("</title></rect>\n", f);
		}
	fputs("</g>\n<g class=\"colour-scale\">\n", f);
	double lx = fr->x0 + fr->w + 20, top = fr->y0 + 18, hh = fr->h - 36;
	for (int k = 0; k < 20; k++) {
		ramp(1 - k / 19.0, col);
		fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"14\" height=\"%.1f\" fill=\"%s\"/>\n", lx,
		        top + hh * k / 20, hh / 20 + 0.5, col);
	}
	svg_tick_label(vmax, 1, n, sizeof(n));
	text(f, lx + 18, top + 10, "start", "tick", n);
	text(f, lx + 18, top + hh, "start", "tick", "1");
	text(f, lx, top - 6, "start", "legend-label", h && h->vlabel ? h->vlabel : "count");
	fputs("</g>\n", f);
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
		/* on its series' axis; off it (0 on a log axis): no mark, not -inf */
		bool on2 = mk->series < c->ns && is_y2(c, mk->series) && fr->y2;
		if (!on_axis(mk->y, fr->ylog && !on2) ||
		    (isfinite(mk->x) && !fr->cat && !on_axis(mk->x, fr->xlog)))
			continue;
		const char *col = palette[mk->series % NPALETTE];
		double x1 = fr->x0, x2 = fr->x0 + fr->w, y = sy(fr, on2, mk->y);
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

static void write_legend(FILE *f, const struct svg_chart *c, double lx, double top, bool y2)
{
	fputs("<g class=\"legend\">\n", f);
	double ly = top + LEGEND_TOP;
	for (size_t i = 0; i < c->ns; i++) {
		const char *col = palette[i % NPALETTE];
		if (c->kind == SVG_BAR || c->kind == SVG_HIST)
			fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"14\" height=\"10\" fill=\"%s\"/>\n",
			        lx, ly - 9, col);
		else
			fprintf(f,
			        "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
			        "stroke-width=\"2\"%s/>\n",
			        lx, ly - 4, lx + 14, ly - 4, col,
			        y2 && is_y2(c, i) ? " stroke-dasharray=\"5 2\"" : "");
		const char *l = c->s[i].label ? c->s[i].label : "";
		bool cut;
		size_t at[LEGEND_LINES], len[LEGEND_LINES], nl = svg_legend_wrap(l, at, len, &cut);
		fprintf(f, "<text class=\"legend-label\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"start\">",
		        lx + 20, ly);
		for (size_t k = 0; k < nl; k++) {
			char line[LEGEND_COLS + 8]; /* a line, and "..." (U+2026) when cut */
			snprintf(line, sizeof(line), "%.*s%s", (int)len[k], l + at[k],
			         cut && k + 1 == nl ? "\xe2\x80\xa6" : "");
			fprintf(f, "<tspan x=\"%.1f\" dy=\"%d\">", lx + 20, k ? LEGEND_LINE : 0);
			svg_escape(f, line);
			fputs("</tspan>", f);
		}
		fputs("</text>\n", f);
		ly += svg_legend_entry_h(nl);
	}
	fputs("</g>\n", f);
}

int svg_write(FILE *f, const struct svg_chart *c)
{
	struct frame fr;
	layout(c, &fr);
	write_head(f, c, &fr);
	write_axes(f, c, &fr);
	if (c->kind == SVG_HEATMAP)
		write_heat(f, c, &fr);
	for (size_t i = 0; i < c->ns; i++) {
		const struct svg_series *s = &c->s[i];
		const char *col = palette[i % NPALETTE];
		fputs("<g class=\"series\" data-label=\"", f);
		svg_escape(f, s->label ? s->label : "");
		fprintf(f, "\" stroke=\"%s\" fill=\"%s\">\n", col, col);
		if (c->kind == SVG_BAR)
			write_bars(f, c, &fr, i);
		else if (c->kind == SVG_HIST)
			write_hist(f, s, c->x2 ? c->x2[i] : NULL, &fr);
		else
			write_line(f, s, is_y2(c, i), &fr);
		if (c->kind != SVG_HIST)
			write_err_bars(f, c, &fr, i);
		fputs("</g>\n", f);
	}
	write_marks(f, c, &fr);
	write_events(f, c, &fr);
	if (fr.legend_w > 0 && c->kind != SVG_HEATMAP)
		write_legend(f, c, fr.x0 + fr.w + 16 + (fr.y2 ? 60 : 0), fr.y0, fr.y2);
	fputs("</svg>\n", f);
	return ferror(f) ? -EIO : 0;
}
