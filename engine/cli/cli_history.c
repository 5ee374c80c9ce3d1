/* cli_history: `benchgrid history NAME`.
 *
 * A point (one cell of one run) is flagged when its value falls outside
 * the 95% prediction interval of the same cell's values on the same host
 * in the `--window` (5) runs before it, given at least 3 of them. The
 * prediction interval, mean ± t * s * sqrt(1 + 1/n), is where the next
 * single run is expected; the confidence interval of the mean, narrower by
 * sqrt(n + 1), would flag ordinary run-to-run noise. */
#include "cli_history.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdbool.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli_history_core.h"
#include "cli_history_html.h"
#include "cli_store.h"
#include "node.h"
#include "stats.h"
#include "stats_ci.h"
#include "store.h"
#include "store_query.h"
#include "svg.h"
#include "term_escape.h"

struct hist_opts {
	const char *scenario, *metric, *svg, *store, *html;
	struct store_where where[16];
	size_t nwhere;
	long last, window;
	bool list;      /* --list */
	bool by_commit; /* --by commit */
};

/* The facts that differ between the two runs, one indented line each. */
static void print_changed(struct store *s, const struct store_point *now, const struct store_point *before)
{
	struct store_fact *a = NULL, *b = NULL;
	size_t na = 0, nb = 0, shown = 0;
	char err[512];
	if (store_facts(s, before->run_id, before->cell_id, &a, &na, err, sizeof(err)) < 0 ||
	    store_facts(s, now->run_id, now->cell_id, &b, &nb, err, sizeof(err)) < 0) {
		printf("    (facts not read: %s)\n", err);
		goto out;
	}
	for (size_t i = 0; i < nb; i++) {
		const char *old = hist_fact_find(a, na, b[i].key);
		if (hist_fact_ignored(b[i].key) || (old && !strcmp(old, b[i].value)))
			continue;
		char ek[256], eo[512], ev[512];
		printf("    %s: %s -> %s\n", TERM_ESC(ek, b[i].key), TERM_ESC(eo, old ? old : "(none)"),
		       TERM_ESC(ev, b[i].value));
		shown++;
	}
	for (size_t i = 0; i < na; i++)
		if (!hist_fact_ignored(a[i].key) && !hist_fact_find(b, nb, a[i].key)) {
			char ek[256], ev[512];
			printf("    %s: %s -> (none)\n", TERM_ESC(ek, a[i].key), TERM_ESC(ev, a[i].value));
			shown++;
		}
	if (!shown)
		printf("    no recorded fact changed since the run before\n");
out:
	store_facts_free(a, na);
	store_facts_free(b, nb);
}

static void print_table(const struct store_point *p, size_t n, size_t from, const struct judged *j,
                        const char *metric)
{
	char head[600];
	snprintf(head, sizeof(head), "%s%s%s%s", metric, *p[from].unit ? " (" : "", p[from].unit,
	         *p[from].unit ? ")" : "");
	char eh[700], ehost[256], elabel[512];
	printf("%-16s  %-12s  %-30s  %14s  %s\n", "run", "host", "cell", TERM_ESC(eh, head), "flag");
	for (size_t i = from; i < n; i++) {
		char date[32], val[32], flag[128] = "";
		hist_date_text(p[i].started, date, sizeof(date));
		snprintf(val, sizeof(val), "%.6g", p[i].value);
		if (j[i].flag)
			snprintf(flag, sizeof(flag), "%s: outside [%.6g, %.6g] of the %zu runs before",
			         j[i].flag < 0 ? "LOW" : "HIGH", j[i].lo, j[i].hi, j[i].nbefore);
		printf("%-16s  %-12s  %-30s  %14s  %s\n", date, TERM_ESC(ehost, p[i].host),
		       TERM_ESC(elabel, *p[i].label ? p[i].label : "-"), val, flag);
	}
}

/* The chart's layout: the runs shown (categories, in time order) and one
 * series per cell and host, each point's run and series. */
struct chart {
	size_t nrun, ns, np;
	char (*dates)[32];
	const char **cats;
	size_t *run_of, *series_of; /* per point shown */
	size_t *first;              /* per series: its first point */
	char (*labels)[160];
	double *xs, *ys; /* ys: ns rows of nrun values */
	struct svg_series *s;
};

static void chart_free(struct chart *c)
{
	free(c->dates);
	free(c->cats);
	free(c->run_of);
	free(c->series_of);
	free(c->first);
	free(c->labels);
	free(c->xs);
	free(c->ys);
	free(c->s);
}

static int chart_layout(struct chart *c, const struct store_point *p, size_t n, size_t from)
{
	size_t np = c->np = n - from, m = np ? np : 1;
	c->dates = calloc(m, sizeof(*c->dates));
	c->cats = calloc(m, sizeof(*c->cats));
	c->run_of = calloc(m, sizeof(size_t));
	c->series_of = calloc(m, sizeof(size_t));
	c->first = calloc(m, sizeof(size_t));
	c->labels = calloc(m, sizeof(*c->labels));
	c->xs = calloc(m, sizeof(double));
	if (!c->dates || !c->cats || !c->run_of || !c->series_of || !c->first || !c->labels || !c->xs)
		return -1;
	for (size_t i = from; i < n; i++) {
		if (i == from || strcmp(p[i].run_id, p[i - 1].run_id)) {
			hist_date_text(p[i].started, c->dates[c->nrun], sizeof(c->dates[c->nrun]));
			c->cats[c->nrun] = c->dates[c->nrun];
			c->xs[c->nrun] = (double)c->nrun;
			c->nrun++;
		}
		c->run_of[i - from] = c->nrun - 1;
		size_t k = 0;
		while (k < c->ns && !hist_same_series(&p[c->first[k]], &p[i]))
			k++;
		if (k == c->ns) {
			bool other_host = strcmp(p[i].host, p[from].host) != 0;
			c->first[k] = i;
			snprintf(c->labels[k], sizeof(c->labels[k]), "%s%s%s",
			         *p[i].label ? p[i].label : "all", other_host ? " @" : "",
			         other_host ? p[i].host : "");
			c->ns++;
		}
		c->series_of[i - from] = k;
	}
	size_t ny = c->ns * c->nrun;
	c->ys = malloc(sizeof(double) * (ny > 0 ? ny : 1));
	c->s = calloc(c->ns ? c->ns : 1, sizeof(*c->s));
	if (!c->ys || !c->s)
		return -1;
	for (size_t k = 0; k < ny; k++)
		c->ys[k] = NAN;
	for (size_t i = from; i < n; i++)
		c->ys[c->series_of[i - from] * c->nrun + c->run_of[i - from]] = p[i].value;
	for (size_t k = 0; k < c->ns; k++)
		c->s[k] = (struct svg_series){
		    .label = c->labels[k], .n = c->nrun, .x = c->xs, .y = c->ys + k * c->nrun};
	return 0;
}

/* One line per cell (and host) over the runs shown, the runs evenly
 * spaced in time order. The file is replaced, never written through a
 * symbolic link. */
static int write_svg(const char *path, const struct store_point *p, size_t n, size_t from,
                     const char *scenario, const char *metric)
{
	struct chart c = {0};
	int rc = -1;
	if (chart_layout(&c, p, n, from) == 0) {
		char title[1024], ylabel[1024];
		const char *unit = n > from ? p[from].unit : "";
		snprintf(title, sizeof(title), "%s: %s across runs", scenario, metric);
		snprintf(ylabel, sizeof(ylabel), "%s%s%s%s", metric, *unit ? " (" : "", unit,
		         *unit ? ")" : "");
		struct svg_chart ch = {.kind = SVG_LINE,
		                       .title = title,
		                       .xlabel = "run",
		                       .ylabel = ylabel,
		                       .categories = c.cats,
		                       .ncat = c.nrun,
		                       .s = c.s,
		                       .ns = c.ns};
		int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0644);
		FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
		if (f) {
			rc = svg_write(f, &ch) < 0 ? -EIO : 0;
			if (fclose(f) != 0)
				rc = -errno;
		} else {
			rc = -errno;
			if (fd >= 0)
				close(fd);
		}
	} else {
		rc = -ENOMEM;
	}
	chart_free(&c);
	return rc;
}

static void history_usage(FILE *out)
{
	fprintf(out, "usage: benchgrid history NAME [--metric STEP.METRIC] [--where name=value ...]\n"
	             "                         [--last N] [--window N] [--by date|commit] [--svg FILE]\n"
	             "                         [--html FILE] [--store PATH|URL]\n"
	             "       benchgrid history [--html FILE] [--metric STEP.METRIC] [--by date|commit] ...\n"
	             "       benchgrid history [NAME] --list [--store PATH|URL]\n\n"
	             "Print a metric of scenario NAME across the runs in the results history: one\n"
	             "line per cell per run (run date, host, cell, value, flag), oldest first. A\n"
	             "value outside the 95%% prediction interval of the same cell's values on the\n"
	             "same host in the runs before it (at least 3) is flagged LOW or HIGH, with the\n"
	             "facts that changed since the run before (kernel, PostgreSQL, mount options,\n"
	             "benchgrid version, ...). Without NAME, write the dashboard of every stored\n"
	             "scenario, history.html (docs/reports.md): each step's headline metrics per\n"
	             "cell over the runs, the intervals, the flagged runs, links to the runs'\n"
	             "report.html.\n\n"
	             "  --list                without NAME: the stored scenarios (runs, latest run);\n"
	             "                        with NAME: its metrics (with units) and its cells\n"
	             "  --metric STEP.METRIC  e.g. ro.tps (default: the first step's headline metric;\n"
	             "                        in the dashboard, each step's headline metrics)\n"
	             "  --where name=value    only the cells with that parameter value (repeatable)\n"
	             "  --last N              show the last N runs (the flags use all of them)\n"
	             "  --window N            judge each run against the N runs before it (default 5,\n"
	             "                        at least 3)\n"
	             "  --by date|commit      order the runs by date (default) or by the git commit\n"
	             "                        they record (a `commit` or `*.commit` fact, else\n"
	             "                        benchgrid.commit), commits in order of their first run\n"
	             "  --svg FILE            also write the series as an SVG line chart\n"
	             "  --html FILE           write the dashboard to FILE (default without NAME:\n"
	             "                        history.html); with NAME, of that scenario only\n"
	             "  --store PATH|URL      the store (default $BENCHGRID_STORE, else\n"
	             "                        ~/.local/share/benchgrid/results.db); opened read-only\n\n"
	             "Exit status: 0 shown; 1 the store could not be read or FILE written; 2 bad\n"
	             "arguments, no store at PATH, or no stored run of NAME has the metric.\n");
}

static int parse_count(const char *opt, const char *arg, long *out)
{
	char *end;
	long v = strtol(arg, &end, 10);
	if (*arg && !*end && v > 0 && v < 1000000) {
		*out = v;
		return 0;
	}
	fprintf(stderr, "benchgrid history: %s expects a positive whole number, got '%s'\n", opt, arg);
	return -1;
}

static int parse_args(int argc, char **argv, struct hist_opts *o)
{
	static const struct option longopts[] = {
	    {"metric", required_argument, NULL, 'm'},
	    {"where", required_argument, NULL, 'w'},
	    {"last", required_argument, NULL, 'l'},
	    {"window", required_argument, NULL, 'W'},
	    {"svg", required_argument, NULL, 'g'},
	    {"store", required_argument, NULL, 's'},
	    {"list", no_argument, NULL, 'L'},
	    {"html", required_argument, NULL, 'H'},
	    {"by", required_argument, NULL, 'b'},
	    {"help", no_argument, NULL, 'h'},
	    {NULL, 0, NULL, 0},
	};
	int c;
	optind = 1;
	o->window = 5;
	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case 'm': o->metric = optarg; break;
		case 'w': {
			char *eq = strchr(optarg, '=');
			if (!eq || eq == optarg || o->nwhere == 16) {
				fprintf(
				    stderr,
				    "benchgrid history: --where expects name=value (at most 16), got '%s'\n",
				    optarg);
				return -1;
			}
			*eq = 0;
			o->where[o->nwhere++] = (struct store_where){optarg, eq + 1};
			break;
		}
		case 'l':
			if (parse_count("--last", optarg, &o->last) < 0)
				return -1;
			break;
		case 'W':
			if (parse_count("--window", optarg, &o->window) < 0)
				return -1;
			if (o->window < HISTORY_MIN_BEFORE) {
				fprintf(stderr,
				        "benchgrid history: --window needs at least %d runs, got %ld\n",
				        HISTORY_MIN_BEFORE, o->window);
				return -1;
			}
			break;
		case 'g': o->svg = optarg; break;
		case 'L': o->list = true; break;
		case 'H': o->html = optarg; break;
		case 'b':
			if (strcmp(optarg, "commit") && strcmp(optarg, "date")) {
				fprintf(stderr, "benchgrid history: --by expects date or commit, got '%s'\n",
				        optarg);
				return -1;
			}
			o->by_commit = !strcmp(optarg, "commit");
			break;
		case 's': o->store = optarg; break;
		case 'h': history_usage(stdout); return 1;
		default: history_usage(stderr); return -1;
		}
	}
	if (optind == argc && o->list)
		return 0; /* the scenarios */
	if (optind > argc - 1 && !o->svg) {
		o->html = o->html ? o->html : "history.html"; /* the page of every scenario */
	} else if (optind != argc - 1) {
		fprintf(stderr, "benchgrid history: expected one scenario name\n");
		history_usage(stderr);
		return -1;
	} else {
		o->scenario = argv[optind];
	}
	if (o->metric && (!strchr(o->metric, '.') || o->metric[0] == '.')) {
		fprintf(stderr, "benchgrid history: --metric expects STEP.METRIC (e.g. ro.tps), got '%s'\n",
		        o->metric);
		return -1;
	}
	return 0;
}

/* The flagged points shown, each with the facts that changed. */
static size_t print_flagged(struct store *s, const struct store_point *p, size_t n, size_t from,
                            const struct judged *j, const char *metric)
{
	size_t nflag = 0;
	for (size_t i = from; i < n; i++) {
		if (!j[i].flag)
			continue;
		char date[32], elabel[512], ehost[256], emetric[256], eunit[64];
		hist_date_text(p[i].started, date, sizeof(date));
		/* A rate (tps, MB/s) that fell or a duration that grew is slower. */
		int dir = stats_unit_direction(p[i].unit) * j[i].flag;
		printf("%s%s%s run of %s, cell %s on %s: %s %.6g %s, outside the %.0f%% prediction interval "
		       "[%.6g, %.6g] of the %zu runs before\n",
		       nflag ? "" : "\n", j[i].flag < 0 ? "LOW" : "HIGH",
		       dir < 0   ? " (slower):"
		       : dir > 0 ? " (faster):"
		                 : ":",
		       date, TERM_ESC(elabel, *p[i].label ? p[i].label : "-"), TERM_ESC(ehost, p[i].host),
		       TERM_ESC(emetric, metric), p[i].value, TERM_ESC(eunit, p[i].unit), 100 * HISTORY_LEVEL,
		       j[i].lo, j[i].hi, j[i].nbefore);
		if (j[i].prev >= 0)
			print_changed(s, &p[i], &p[j[i].prev]);
		nflag++;
	}
	return nflag;
}

/* A cell whose loop device read its image with direct I/O in one run and
 * through the page cache in the run before (the default changed: issue
 * 27): said for every shown run, flagged or not, since the two measure
 * different things. */
static void print_loop_dio_changes(struct store *s, const struct store_point *p, size_t n, size_t from)
{
	char err[512], date[32], elabel[512];
	for (size_t i = from; i < n; i++) {
		size_t k = i;
		while (k-- > 0 && strcmp(p[k].cell_id, p[i].cell_id))
			;
		if (k >= i)
			continue; /* the cell's first run */
		struct store_fact *a = NULL, *b = NULL;
		size_t na = 0, nb = 0;
		if (store_facts(s, p[k].run_id, p[k].cell_id, &a, &na, err, sizeof(err)) == 0 &&
		    store_facts(s, p[i].run_id, p[i].cell_id, &b, &nb, err, sizeof(err)) == 0) {
			const char *was = hist_fact_find(a, na, "dev.loop_direct_io"),
			           *now = hist_fact_find(b, nb, "dev.loop_direct_io");
			if (was && now && strcmp(was, now)) {
				char ewas[64], enow[64];
				hist_date_text(p[i].started, date, sizeof(date));
				printf("\nnote: run of %s, cell %s: the loop device %s (dev.loop_direct_io "
				       "%s -> %s): "
				       "its figures and the run's before measure different things\n",
				       date, TERM_ESC(elabel, *p[i].label ? p[i].label : "-"),
				       strcmp(now, "1") ? "reads its image through the host's page cache"
				                        : "reaches its disk with direct I/O",
				       TERM_ESC(ewas, was), TERM_ESC(enow, now));
			}
		}
		store_facts_free(a, na);
		store_facts_free(b, nb);
	}
}

/* `--by commit`: the points in the order of the commits their runs record. */
static int order_by_commit(struct store *s, const char *scenario, struct store_point *p, size_t n)
{
	struct store_run_meta *m;
	size_t nm;
	char err[1024];
	if (store_runs_meta(s, scenario, &m, &nm, err, sizeof(err)) < 0) {
		fprintf(stderr, "benchgrid history: %s\n", err);
		return -1;
	}
	size_t none = hist_order_by_commit(p, n, m, nm);
	/* the commits in their order, each with its runs */
	printf("by commit:");
	for (size_t i = 0, runs = 0; i < n; i++) {
		const struct store_run_meta *r = hist_run_meta(m, nm, p[i].run_id), *next = NULL;
		if (i + 1 < n && strcmp(p[i + 1].run_id, p[i].run_id) == 0)
			continue; /* the run's last point */
		runs++;
		for (size_t k = i + 1; k < n && !next; k++)
			if (strcmp(p[k].run_id, p[i].run_id))
				next = hist_run_meta(m, nm, p[k].run_id);
		const char *c = r && r->commit ? r->commit : "(none)",
		           *nc = next && next->commit ? next->commit : "(none)";
		if (!next || strcmp(c, nc)) {
			char ec[128];
			printf(" %s (%zu run%s)", TERM_ESC(ec, c), runs, runs == 1 ? "" : "s");
			runs = 0;
		}
	}
	printf("\n");
	if (none)
		printf("(%zu run%s record%s no commit: in date order among the commits' first runs)\n", none,
		       none == 1 ? "" : "s", none == 1 ? "s" : "");
	store_runs_meta_free(m, nm);
	return 0;
}

/* `--list NAME`, after the metrics: the cells, with the runs of each. */
static int print_cells(struct store *s, const char *scenario)
{
	char **v, err[1024];
	size_t n;
	if (store_list_cells(s, scenario, &v, &n, err, sizeof(err)) < 0) {
		fprintf(stderr, "benchgrid history: %s\n", err);
		return -1;
	}
	printf("\n%-40s %-16s %s\n", "cell", "host", "runs");
	for (size_t i = 0; i < n; i++) {
		char *f[3] = {v[i], NULL, NULL};
		for (int k = 1; k < 3 && f[k - 1] && (f[k] = strchr(f[k - 1], '\t'));)
			*f[k]++ = '\0', k++;
		char e0[512], e1[256], e2[64];
		printf("%-40s %-16s %s\n", TERM_ESC(e0, f[0]), TERM_ESC(e1, f[1] ? f[1] : ""),
		       TERM_ESC(e2, f[2] ? f[2] : ""));
	}
	store_names_free(v, n);
	return 0;
}

/* `--list`: the stored scenarios, or NAME's metrics and cells. */
static int print_list(struct store *s, const char *scenario, const char *shown)
{
	char **v, err[1024];
	size_t n;
	if ((scenario ? store_list_metrics(s, scenario, &v, &n, err, sizeof(err))
	              : store_list_scenarios(s, &v, &n, err, sizeof(err))) < 0) {
		fprintf(stderr, "benchgrid history: %s\n", err);
		return CLI_EXIT_FAIL;
	}
	if (!n)
		fprintf(stderr, "benchgrid history: %s in %s\n",
		        scenario ? "no stored run of that scenario" : "no stored run", shown);
	if (n && !scenario)
		printf("%-32s %6s  %s\n", "scenario", "runs", "latest run");
	for (size_t i = 0; i < n; i++) {
		char *f[3] = {v[i], NULL, NULL};
		for (int k = 1; k < 3 && f[k - 1] && (f[k] = strchr(f[k - 1], '\t'));)
			*f[k]++ = '\0', k++;
		char date[32] = "";
		if (!scenario && f[2])
			hist_date_text(strtod(f[2], NULL), date, sizeof(date));
		char e0[512], e1[256];
		if (scenario)
			printf("%-40s %s\n", TERM_ESC(e0, f[0]), TERM_ESC(e1, f[1] ? f[1] : ""));
		else
			printf("%-32s %6s  %s\n", TERM_ESC(e0, f[0]), TERM_ESC(e1, f[1] ? f[1] : ""), date);
	}
	store_names_free(v, n);
	if (n && scenario && print_cells(s, scenario) < 0)
		return CLI_EXIT_FAIL;
	return n ? 0 : CLI_EXIT_USAGE;
}

/* NAME has no `want` (a step.metric), or NAME is not stored (want NULL,
 * or NAME has no metric at all): the nearest stored name, as "; did you
 * mean 'X'?", or "". */
static const char *suggest(struct store *s, const char *scenario, const char *want, char *buf, size_t len)
{
	char **v, err[1024];
	size_t n = 0;
	buf[0] = '\0';
	if (want && store_list_metrics(s, scenario, &v, &n, err, sizeof(err)) < 0)
		return buf;
	if (!n) {
		if (want)
			store_names_free(v, n);
		want = NULL;
		if (store_list_scenarios(s, &v, &n, err, sizeof(err)) < 0)
			return buf;
	}
	const char **names = calloc(n + 1, sizeof(*names));
	for (size_t i = 0; names && i < n; i++) {
		char *tab = strchr(v[i], '\t');
		if (tab)
			*tab = '\0';
		names[i] = v[i];
	}
	const char *best = names ? node_suggest(want ? want : scenario, names) : NULL;
	if (best)
		snprintf(buf, len, "; did you mean %s'%s'?", want ? "" : "the scenario ", best);
	else if (want && n)
		snprintf(buf, len, "; `benchgrid history %s --list` lists its metrics", scenario);
	free(names);
	store_names_free(v, n);
	return buf;
}

static int history_main(int argc, char **argv)
{
	struct hist_opts o = {0};
	int a = parse_args(argc, argv, &o);
	if (a != 0)
		return a > 0 ? 0 : CLI_EXIT_USAGE;
	char spec[4096], err[1024], step[256], metric[256];
	if (!store_resolve(o.store, spec, sizeof(spec))) {
		fprintf(stderr, "benchgrid history: %s\n", spec);
		return CLI_EXIT_USAGE;
	}
	struct store *s;
	int rc = store_open(spec, true, &s, err, sizeof(err));
	if (rc < 0) {
		fprintf(stderr, "benchgrid history: %s\n", err);
		return rc == -ENOENT ? CLI_EXIT_USAGE : CLI_EXIT_FAIL;
	}
	char sug[600];
	if (o.list) {
		rc = print_list(s, o.scenario, cli_store_shown(spec));
		store_close(s);
		return rc;
	}
	struct hist_html_opts ho = {.path = o.html,
	                            .scenario = o.scenario,
	                            .metric = o.metric,
	                            .where = o.where,
	                            .nwhere = o.nwhere,
	                            .last = o.last,
	                            .window = o.window,
	                            .by_commit = o.by_commit,
	                            .store_shown = cli_store_shown(spec)};
	if (!o.scenario) {
		rc = cli_history_html(s, &ho);
		store_close(s);
		return rc;
	}
	if (o.metric) {
		const char *dot = strchr(o.metric, '.');
		snprintf(step, sizeof(step), "%.*s", (int)(dot - o.metric), o.metric);
		snprintf(metric, sizeof(metric), "%s", dot + 1);
	} else if ((rc = store_default_metric(s, o.scenario, step, sizeof(step), metric, sizeof(metric), err,
	                                      sizeof(err))) < 0) {
		if (rc == -ENOENT)
			fprintf(stderr, "benchgrid history: no stored run of scenario '%s' in %s%s\n",
			        o.scenario, cli_store_shown(spec),
			        suggest(s, o.scenario, NULL, sug, sizeof(sug)));
		else
			fprintf(stderr, "benchgrid history: %s\n", err);
		store_close(s);
		return rc == -ENOENT ? CLI_EXIT_USAGE : CLI_EXIT_FAIL;
	}
	char ref[520];
	snprintf(ref, sizeof(ref), "%s.%s", step, metric);
	struct store_point *p;
	size_t n;
	if (store_history(s, o.scenario, step, metric, o.where, o.nwhere, &p, &n, err, sizeof(err)) < 0) {
		fprintf(stderr, "benchgrid history: %s\n", err);
		store_close(s);
		return CLI_EXIT_FAIL;
	}
	rc = 0;
	if (n == 0) {
		fprintf(stderr, "benchgrid history: no stored run of scenario '%s' has %s%s in %s%s\n",
		        o.scenario, ref, o.nwhere ? " in the cells chosen by --where" : "",
		        cli_store_shown(spec), o.nwhere ? "" : suggest(s, o.scenario, ref, sug, sizeof(sug)));
		rc = CLI_EXIT_USAGE;
		goto out;
	}
	struct judged *j = calloc(n, sizeof(*j));
	if (!j) {
		rc = CLI_EXIT_FAIL;
		goto out;
	}
	if (o.by_commit && order_by_commit(s, o.scenario, p, n) < 0) {
		rc = CLI_EXIT_FAIL;
		free(j);
		goto out;
	}
	hist_judge(p, n, o.window, j);
	size_t from = hist_first_shown(p, n, o.last);
	print_table(p, n, from, j, ref);
	print_flagged(s, p, n, from, j, ref);
	print_loop_dio_changes(s, p, n, from);
	int w = o.svg ? write_svg(o.svg, p, n, from, o.scenario, ref) : 0;
	if (w < 0) {
		fprintf(stderr, "benchgrid history: cannot write %s: %s\n", o.svg, strerror(-w));
		rc = CLI_EXIT_FAIL;
	}
	if (o.html && (w = cli_history_html(s, &ho)) != 0)
		rc = w;
	free(j);
out:
	store_points_free(p, n);
	store_close(s);
	return rc;
}

const struct cli_command cli_history = {
    "history", "a metric across the stored runs, with regressions flagged", history_main};
