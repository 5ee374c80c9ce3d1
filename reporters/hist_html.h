/* hist_html: history.html, the results history as one self-contained page
 * (docs/reports.md, "history.html"): per scenario and cell, each metric
 * over the runs (x: the run's date or commit) with the 95% prediction
 * interval each run was judged against and the flagged runs marked, a
 * folded table of the runs (value, interval, the facts that changed since
 * the run before, a link to the run's report.html), and a Regressions
 * section listing every flagged run of every scenario. The caller (`benchgrid
 * history`) reads the store and judges; this file only draws, with
 * rep_html_page's head, style and script (no script is needed to see the
 * charts). */
#ifndef BENCHGRID_HIST_HTML_H
#define BENCHGRID_HIST_HTML_H

#include <stddef.h>
#include <stdio.h>

/* One run of one chart. */
struct hist_html_point {
	const char *x;       /* the x axis' label: the run's date, or its commit */
	const char *date;    /* the run's start, "2026-12-07 14:05" */
	const char *commit;  /* the commit the run records, or NULL */
	double value;        /* the mean over the repetitions */
	double lo, hi;       /* the interval it was judged against; NaN: not judged */
	size_t nbefore;      /* runs in that interval */
	int flag;            /* -1 below the interval, +1 above, 0 neither */
	int dir;             /* with flag: -1 slower, +1 faster, 0 the unit does not tell */
	const char *href;    /* the run's report.html, relative to the page, or NULL */
	const char *no_link; /* with href NULL: why ("run folder gone") */
	const char *changed; /* "key: old -> new" lines since the series' run before, or NULL */
};

/* One metric of one cell (on one host) over the runs, oldest first. */
struct hist_html_chart {
	const char *scenario, *cell, *host, *metric, *unit;
	const struct hist_html_point *p;
	size_t n;
};

struct hist_html_page {
	const char *store;               /* as shown to the user */
	const char *order;               /* "run date" or "commit" */
	const char *note;                /* one more sentence under the title, or NULL */
	double level;                    /* 0.95 */
	long window;                     /* the runs each run is judged against, at most */
	const struct hist_html_chart *c; /* grouped by scenario, then cell and host */
	size_t nc;
};

/* Write the page to f; 0 or -EIO. */
int hist_html_write(FILE *f, const struct hist_html_page *pg);

#endif
