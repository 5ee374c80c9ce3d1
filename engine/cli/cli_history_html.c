/* cli_history_html: history.html from the store (see cli_history_html.h).
 *
 * Which metrics: `--metric`, else each step's headline metrics as the
 * store recorded them (the facts headline.STEP, by headline.h's rule); for
 * a step stored before those were: the first of tps, iops, mb_s, ops_s
 * (else elapsed_s, seconds), and the first of lat_p99_ms, lat_p99_us. A run's link is its folder's report.html,
 * relative to the page; a folder since removed or moved shows "run folder
 * gone" instead, one without a report.html "no report.html". */
#include "cli_history_html.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "cli_history_core.h"
#include "diag.h"
#include "hist_html.h"
#include "rep_file.h"
#include "stats.h"

/* Everything the page points to, freed together at the end. */
struct build {
	struct hist_html_chart *c;
	size_t nc, capc;
	void **own;
	size_t nown, capown;
	char base[PATH_MAX]; /* the page's folder, resolved */
	size_t nflag;
	bool oom;
	struct kept_points {
		struct store_point *p;
		size_t n;
	} * pl;
	size_t npl;
};

static void *keep(struct build *b, void *p)
{
	if (!p ||
	    (b->nown == b->capown &&
	     !(b->own = realloc(b->own, (b->capown = b->capown ? 2 * b->capown : 64) * sizeof(void *))))) {
		free(p);
		b->oom = true;
		return NULL;
	}
	b->own[b->nown++] = p;
	return p;
}

static char *keep_str(struct build *b, const char *s)
{
	return s ? keep(b, strdup(s)) : NULL;
}

/* href: path percent-encoded but for '/' and unreserved characters. */
static char *url_path(const char *path)
{
	char *out = malloc(3 * strlen(path) + 1), *o = out;
	for (const unsigned char *c = (const unsigned char *)path; out && *c; c++) {
		if ((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') ||
		    strchr("/-._~", *c))
			*o++ = (char)*c;
		else
			o += sprintf(o, "%%%02X", *c);
	}
	if (out)
		*o = '\0';
	return out;
}

/* The path of `to` relative to the folder `from` (both absolute, resolved):
 * "../" for each of from's components below the common ones, then the rest
 * of to. */
static char *relative(const char *from, const char *to)
{
	size_t common = 0; /* the length of the common folders, at a '/' */
	for (size_t i = 0;; i++) {
		bool fe = from[i] == '\0' || from[i] == '/', te = to[i] == '\0' || to[i] == '/';
		if (fe && te)
			common = i;
		if (from[i] != to[i] || !from[i])
			break;
	}
	size_t ups = 0;
	for (const char *c = from + common; *c; c++)
		ups += *c == '/' && c[1] != '\0' && c[1] != '/';
	const char *rest = to + common;
	while (*rest == '/')
		rest++;
	char *out = malloc(3 * ups + strlen(rest) + 1), *o = out;
	for (size_t i = 0; out && i < ups; i++)
		o = stpcpy(o, "../");
	if (out)
		strcpy(o, rest);
	return out;
}

/* The run's report.html, relative to the page, or why there is none. */
static void link_of(struct build *b, const struct store_run_meta *m, struct hist_html_point *pt)
{
	char real[PATH_MAX], *report = NULL;
	struct stat st;
	if (!m || !m->dir) {
		pt->no_link = "no folder recorded";
		return;
	}
	if (!realpath(m->dir, real) || stat(real, &st) < 0 || !S_ISDIR(st.st_mode)) {
		pt->no_link = "run folder gone";
		return;
	}
	/* a link planted there is not linked to: a page is a regular file */
	if (asprintf(&report, "%s/report.html", real) < 0 || lstat(report, &st) < 0 || !S_ISREG(st.st_mode) ||
	    access(report, R_OK) != 0) {
		pt->no_link = "no report.html in the run folder";
		free(report);
		return;
	}
	char *rel = relative(b->base, report);
	free(report);
	pt->href = rel ? keep(b, url_path(rel)) : NULL;
	free(rel);
}

/* Whether names[k] ("STEP.METRIC\tUNIT") is step.metric. */
static bool is_name(const char *line, const char *step, size_t steplen, const char *metric)
{
	size_t len = strcspn(line, "\t");
	return !strncmp(line, step, steplen) && line[steplen] == '.' && len == steplen + 1 + strlen(metric) &&
	       !strncmp(line + steplen + 1, metric, strlen(metric));
}

/* Is names[i] one of its step's headline metrics by the rule at the top?
 * head: the recorded ones (store_headlines). */
static bool headline_metric(char *const *names, size_t n, size_t i, char *const *head, size_t nh)
{
	size_t steplen0 = strcspn(names[i], "."), len = strcspn(names[i], "\t");
	bool recorded = false;
	for (size_t k = 0; k < nh; k++) {
		if (strlen(head[k]) == len && !strncmp(head[k], names[i], len))
			return true;
		recorded |= !strncmp(head[k], names[i], steplen0 + 1);
	}
	if (recorded)
		return false; /* the step's recorded headline does not name it */
	static const char *const thr[] = {"tps", "iops", "mb_s", "ops_s", "elapsed_s", "seconds", NULL};
	static const char *const lat[] = {"lat_p99_ms", "lat_p99_us", NULL};
	const char *const *rules[] = {thr, lat};
	size_t steplen = strcspn(names[i], ".");
	for (int r = 0; r < 2; r++)
		for (const char *const *w = rules[r]; *w; w++) {
			size_t k = 0;
			while (k < n && !is_name(names[k], names[i], steplen, *w))
				k++;
			if (k < n) { /* the first of the rule's names the step has */
				if (k == i)
					return true;
				break;
			}
		}
	return false;
}

/* The store's points stay until the page is written: charts point into them. */
static int keep_points(struct build *b, struct store_point *p, size_t n)
{
	void *v = realloc(b->pl, (b->npl + 1) * sizeof(*b->pl));
	if (!v) {
		store_points_free(p, n);
		return -1;
	}
	b->pl = v;
	b->pl[b->npl++] = (struct kept_points){p, n};
	return 0;
}

static int add_chart(struct build *b, const struct hist_html_chart *c)
{
	if (b->nc == b->capc) {
		void *v = realloc(b->c, (b->capc = b->capc ? 2 * b->capc : 32) * sizeof(*b->c));
		if (!v)
			return -1;
		b->c = v;
	}
	b->c[b->nc++] = *c;
	return 0;
}

/* One point of a chart, from the store's point i and its verdict. */
static void fill_point(struct build *b, struct store *s, const struct store_point *p, size_t i,
                       const struct judged *j, const struct store_run_meta *meta, size_t nmeta,
                       bool by_commit, struct hist_html_point *pt)
{
	char date[32], err[512], x[16];
	hist_date_text(p[i].started, date, sizeof(date));
	snprintf(x, sizeof(x), "%.11s", date + 5); /* "12-07 14:05": the axis' label */
	const struct store_run_meta *m = hist_run_meta(meta, nmeta, p[i].run_id);
	*pt = (struct hist_html_point){.date = keep_str(b, date),
	                               .commit = m ? m->commit : NULL,
	                               .value = p[i].value,
	                               .lo = j[i].lo,
	                               .hi = j[i].hi,
	                               .nbefore = j[i].nbefore,
	                               .flag = j[i].flag,
	                               .dir = stats_unit_direction(p[i].unit) * j[i].flag};
	char shortc[13];
	snprintf(shortc, sizeof(shortc), "%s", pt->commit ? pt->commit : "");
	pt->x = keep_str(b, by_commit && pt->commit ? shortc : x);
	link_of(b, m, pt);
	if (j[i].prev >= 0) {
		char *t = hist_changed_text(s, &p[i], &p[j[i].prev], err, sizeof(err));
		pt->changed = t ? keep(b, t) : keep_str(b, err);
	}
	b->nflag += pt->flag != 0;
}

/* The charts of one metric of one scenario, one per cell and host. */
static int metric_charts(struct build *b, struct store *s, const char *scenario, const char *ref,
                         const struct hist_html_opts *o, const struct store_run_meta *meta, size_t nmeta)
{
	char err[1024], step[256];
	const char *dot = strchr(ref, '.'), *unit_end;
	snprintf(step, sizeof(step), "%.*s", (int)(dot - ref), ref);
	unit_end = strchr(dot + 1, '\t');
	char *metric = keep(b, strndup(dot + 1, unit_end ? (size_t)(unit_end - dot - 1) : strlen(dot + 1)));
	char *full = metric ? keep(b, strndup(ref, unit_end ? (size_t)(unit_end - ref) : strlen(ref))) : NULL;
	struct store_point *p = NULL;
	size_t n = 0;
	if (!full ||
	    store_history(s, scenario, step, metric, o->where, o->nwhere, &p, &n, err, sizeof(err)) < 0) {
		fprintf(stderr, "benchgrid history: %s\n", full ? err : "out of memory");
		return -1;
	}
	if (keep_points(b, p, n) < 0)
		return -1;
	if (o->by_commit)
		hist_order_by_commit(p, n, meta, nmeta);
	struct judged *j = keep(b, calloc(n ? n : 1, sizeof(*j)));
	if (!j)
		return -1;
	hist_judge(p, n, o->window, j);
	size_t from = hist_first_shown(p, n, o->last);
	bool hosts = false;
	for (size_t i = from; i < n; i++)
		hosts |= strcmp(p[i].host, p[from].host) != 0;
	for (size_t i = from; i < n; i++) {
		size_t k = from;
		while (k < i && !hist_same_series(&p[k], &p[i]))
			k++;
		if (k < i)
			continue; /* this series' chart is made at its first point */
		size_t np = 0;
		for (size_t q = i; q < n; q++)
			np += hist_same_series(&p[q], &p[i]);
		struct hist_html_point *pts = keep(b, calloc(np, sizeof(*pts)));
		if (!pts)
			return -1;
		np = 0;
		for (size_t q = i; q < n; q++)
			if (hist_same_series(&p[q], &p[i]))
				fill_point(b, s, p, q, j, meta, nmeta, o->by_commit, &pts[np++]);
		struct hist_html_chart c = {.scenario = scenario,
		                            .cell = p[i].label,
		                            .host = hosts ? p[i].host : NULL,
		                            .metric = full,
		                            .unit = p[i].unit,
		                            .p = pts,
		                            .n = np};
		if (add_chart(b, &c) < 0)
			return -1;
	}
	return b->oom ? -1 : 0;
}

struct ordered {
	size_t key, seq;
	struct hist_html_chart c;
};

static int by_cell(const void *a, const void *b)
{
	const struct ordered *x = a, *y = b;
	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* The scenario's charts from index `first` on, by cell (in the order the
 * cells first appear), then metric. */
static void group_by_cell(struct build *b, size_t first)
{
	size_t n = b->nc - first;
	struct ordered *v = calloc(n ? n : 1, sizeof(*v));
	if (!v)
		return; /* by metric then: still every chart */
	for (size_t i = 0; i < n; i++) {
		const struct hist_html_chart *c = &b->c[first + i];
		size_t k = 0;
		while (k < i && !(!strcmp(v[k].c.cell ? v[k].c.cell : "", c->cell ? c->cell : "") &&
		                  !strcmp(v[k].c.host ? v[k].c.host : "", c->host ? c->host : "")))
			k++;
		v[i] = (struct ordered){k < i ? v[k].key : i, i, *c};
	}
	qsort(v, n, sizeof(*v), by_cell);
	for (size_t i = 0; i < n; i++)
		b->c[first + i] = v[i].c;
	free(v);
}

static int scenario_charts(struct build *b, struct store *s, const char *scenario,
                           const struct hist_html_opts *o)
{
	char err[1024], **names = NULL, **head = NULL;
	size_t nn = 0, nh = 0, nmeta = 0, first = b->nc;
	struct store_run_meta *meta = NULL;
	if (store_list_metrics(s, scenario, &names, &nn, err, sizeof(err)) < 0 ||
	    store_headlines(s, scenario, &head, &nh, err, sizeof(err)) < 0 ||
	    store_runs_meta(s, scenario, &meta, &nmeta, err, sizeof(err)) < 0) {
		fprintf(stderr, "benchgrid history: %s\n", err);
		store_names_free(names, nn);
		store_names_free(head, nh);
		return -1;
	}
	const char *sc = keep_str(b, scenario);
	int rc = sc ? 0 : -1;
	for (size_t i = 0; i < nn && rc == 0; i++) {
		size_t len = strcspn(names[i], "\t");
		bool want = o->metric ? strlen(o->metric) == len && !strncmp(names[i], o->metric, len)
		                      : headline_metric(names, nn, i, head, nh);
		if (want)
			rc = metric_charts(b, s, sc, names[i], o, meta, nmeta);
	}
	group_by_cell(b, first);
	store_names_free(names, nn);
	store_names_free(head, nh);
	/* the points' commits point into meta: kept until the end */
	for (size_t i = 0; i < nmeta && rc == 0; i++)
		if (meta[i].commit && !keep(b, meta[i].commit))
			rc = -1;
	for (size_t i = 0; i < nmeta; i++)
		free(meta[i].dir);
	free(meta);
	return rc;
}

static void build_free(struct build *b)
{
	for (size_t i = 0; i < b->nown; i++)
		free(b->own[i]);
	for (size_t i = 0; i < b->npl; i++)
		store_points_free(b->pl[i].p, b->pl[i].n);
	free(b->own);
	free(b->pl);
	free(b->c);
}

/* Write the page to o->path: its folder and file name for rep_file. */
static int write_page(struct build *b, const struct hist_html_opts *o, const char *dir, const char *name)
{
	struct hist_html_page pg = {.store = o->store_shown,
	                            .order = o->by_commit ? "commit" : "run date",
	                            .level = HISTORY_LEVEL,
	                            .window = o->window,
	                            .c = b->c,
	                            .nc = b->nc};
	if (o->by_commit)
		pg.note = "A commit is the first run's place of each commit (as stored, by date); runs "
		          "recording no commit keep theirs.";
	struct diag d;
	struct rep_file rf;
	diag_init(&d);
	int rc = rep_file_open(&rf, dir, name, &d);
	if (rc == 0 && hist_html_write(rf.f, &pg) < 0) {
		rep_file_abort(&rf);
		diag_add(&d, DIAG_ERROR, NULL, "cannot write %s/%s: %s", dir, name, strerror(EIO));
		rc = -EIO;
	} else if (rc == 0) {
		rc = rep_file_commit(&rf, &d);
	}
	if (rc < 0)
		diag_print(&d, stderr);
	diag_free(&d);
	return rc;
}

int cli_history_html(struct store *s, const struct hist_html_opts *o)
{
	struct build b = {0};
	char *path = strdup(o->path), *slash = path ? strrchr(path, '/') : NULL;
	const char *dir = slash ? (slash == path ? "/" : path) : ".", *name = slash ? slash + 1 : path;
	if (!path)
		return CLI_EXIT_FAIL;
	if (slash)
		*slash = '\0';
	int rc = 0;
	if (!*name || !strcmp(name, ".") || !strcmp(name, "..")) {
		fprintf(stderr, "benchgrid history: --html expects a file name, got '%s'\n", o->path);
		rc = CLI_EXIT_USAGE;
	} else if (!realpath(dir, b.base)) {
		fprintf(stderr, "benchgrid history: cannot write %s: %s\n", o->path, strerror(errno));
		rc = CLI_EXIT_FAIL;
	}
	char **scen = NULL, err[1024];
	size_t ns = 0;
	if (rc == 0 && o->scenario) {
		rc = scenario_charts(&b, s, o->scenario, o) < 0 ? CLI_EXIT_FAIL : 0;
	} else if (rc == 0 && store_list_scenarios(s, &scen, &ns, err, sizeof(err)) < 0) {
		fprintf(stderr, "benchgrid history: %s\n", err);
		rc = CLI_EXIT_FAIL;
	}
	for (size_t i = 0; i < ns && rc == 0; i++) {
		scen[i][strcspn(scen[i], "\t")] = '\0';
		rc = scenario_charts(&b, s, scen[i], o) < 0 ? CLI_EXIT_FAIL : 0;
	}
	store_names_free(scen, ns);
	if (rc == 0 && b.nc == 0) {
		fprintf(stderr, "benchgrid history: nothing to draw: no stored run%s%s in %s\n",
		        o->metric ? " has " : "", o->metric ? o->metric : "", o->store_shown);
		rc = CLI_EXIT_USAGE;
	}
	if (rc == 0 && b.oom)
		rc = CLI_EXIT_FAIL;
	if (rc == 0 && write_page(&b, o, dir, name) < 0)
		rc = CLI_EXIT_FAIL;
	if (rc == 0)
		printf("history: wrote %s (%zu chart%s, %zu flagged run%s)\n", o->path, b.nc,
		       b.nc == 1 ? "" : "s", b.nflag, b.nflag == 1 ? "" : "s");
	build_free(&b);
	free(path);
	return rc;
}
