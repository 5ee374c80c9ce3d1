/* svg: line and bar charts as standalone SVG, drawn by our own code.
 *
 * A chart has a title, axis labels (with units), nice ticks (1, 2, 2.5, 5 x
 * 10^k, Heckbert's "nice numbers"), light grid lines, a legend at the right,
 * and one group per series:
 *   <g class="series" data-label="ext4"> polyline(s) + circle.point markers </g>
 *   <g class="series" data-label="ext4"> rect.bar ... </g>           (bars)
 * so tests and tools can count series and points. The x axis is numeric
 * (e.g. time in seconds) or categorical (parameter values, evenly spaced in
 * the given order). Non-finite y values are gaps. Large tick values get SI
 * suffixes (12k, 3.5M). The y axis starts at 0 unless a value is negative.
 * Reference marks (published figures) are dashed lines in the colour of
 * their series with a label, in one group after the series:
 *   <g class="published"> line.ref-mark[data-series] text.ref-label </g>
 * over the category slot (over the series' bar in bar charts), or across
 * the plot when x is NaN (time charts). Events on a numeric x axis (e.g.
 * checkpoints) are dotted vertical lines in the colour of their series:
 *   <g class="events"> line.event-mark[data-series] (title: the label) </g>
 * Either axis may be logarithmic (ticks at 1, 2, 5 x 10^k, or decades
 * over a wide range; values <= 0 are gaps). Series on a second y axis
 * (units other than the first's) are drawn dashed against the ticks at the
 * right. Latency charts (issue 31): SVG_HIST draws each series' buckets
 * [x, x2) as translucent rect.hbar, so several cells overlap readably;
 * SVG_HEATMAP draws `heat`, time x value buckets with the count as colour:
 *   <g class="heatmap"> rect.cell (title: the bucket and its count) </g>
 * and a colour scale at the right. */
#ifndef BENCHGRID_SVG_H
#define BENCHGRID_SVG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

enum svg_kind { SVG_LINE, SVG_BAR, SVG_HIST, SVG_HEATMAP };

struct svg_series {
	const char *label;
	size_t n;
	const double *x; /* numeric x, or category index when categories are set */
	const double *y;
	/* Half-widths of y's error bars (the caller's: rep_md_charts' err_bar),
	 * or NULL; a bar is drawn only where it is finite and positive, and
	 * not on a chart with a log y axis:
	 *   <g class="err-bars"> line.err-bar (and its two caps) </g> */
	const double *err;
};

/* A heatmap's cells: column i spans [x0[i], x1[i]), row j [y0[j], y1[j]),
 * count v[i * ny + j] (0: no cell drawn). */
struct svg_heat {
	size_t nx, ny;
	const double *x0, *x1, *y0, *y1;
	const double *v;
	const char *vlabel; /* "I/Os" */
};

struct svg_mark {
	double x;          /* numeric x or category index; NaN: across the plot */
	double y;          /* the published value */
	size_t series;     /* index into the chart's series (colour, bar) */
	const char *label; /* "published 300" */
};

struct svg_event {
	double x;          /* where on the numeric x axis */
	size_t series;     /* index into the chart's series (colour) */
	const char *label; /* "checkpoint" */
};

struct svg_chart {
	enum svg_kind kind;
	const char *title;
	const char *xlabel, *ylabel;
	const char *const *categories; /* categorical x axis when not NULL */
	size_t ncat;
	const struct svg_series *s;
	size_t ns;
	const struct svg_mark *marks;
	size_t nmarks;
	const struct svg_event *events;
	size_t nevents;
	bool x_zero;       /* numeric x axis starts at 0 (time charts) */
	int width, height; /* 0: 760 x 420 */
	/* The y range to cover at least (small multiples share one scale);
	 * ignored unless y_hi > y_lo. */
	double y_lo, y_hi;
	bool inline_svg;             /* inside an HTML page: no XML declaration */
	bool no_legend;              /* one series named in the title (small multiples) */
	bool xlog, ylog;             /* logarithmic axes */
	const char *y2label;         /* the second y axis' label, with its unit */
	const bool *y2;              /* per series: on the second y axis; or NULL */
	const double *const *x2;     /* SVG_HIST, per series: each bucket's right edge */
	const struct svg_heat *heat; /* SVG_HEATMAP */
};

struct svg_ticks {
	double start, step;
	int n;
};

/* Heckbert's nice number: the nice value near x (round) or above x. */
double svg_nice_number(double x, bool round);
/* About `target` nice ticks covering [lo, hi]. */
void svg_nice_ticks(double lo, double hi, int target, struct svg_ticks *t);
/* Tick label: "0.25", "1500", "12k", "3.5M". */
void svg_tick_label(double v, double step, char *buf, size_t len);

int svg_write(FILE *f, const struct svg_chart *c);
/* XML-escape s into f: & < > " ' as entities, control characters but TAB and
 * LF dropped (XML 1.0 forbids them), invalid UTF-8 as U+FFFD. */
void svg_escape(FILE *f, const char *s);

#endif
