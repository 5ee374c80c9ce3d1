/* rep_md_activity: see rep_md_activity.h. */
#include "rep_md_activity.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "rep_fmt.h"
#include "rep_text.h"
#include "rep_md_charts.h"
#include "svg.h"

#define TOP_WAITS   5
#define WAIT_PREFIX "pg_wait."

/* Steps (first-seen order) with a metric of the sampler in any cell. */
static void activity_steps(const struct rep_ctx *cx, struct rep_strs *out)
{
	for (size_t ci = 0; ci < cx->run->ncells; ci++) {
		const struct cell_summary *s = cx->sum[ci];
		for (size_t k = 0; s && k < s->nsteps; k++)
			if (cell_summary_metric(s, s->steps[k].step, "pg_xacts") ||
			    cell_summary_metric(s, s->steps[k].step, "pg_wait_samples"))
				rep_strs_add(out, s->steps[k].step);
	}
}

/* The mean of step.metric in cell ci as text, "-" when absent. */
static void mean_text(const struct rep_ctx *cx, size_t ci, const char *step, const char *metric, double scale,
                      char *buf, size_t len)
{
	const struct metric_summary *ms = cell_summary_metric(cx->sum[ci], step, metric);
	if (ms && isfinite(ms->st.mean))
		rep_fmt_human(ms->st.mean * scale, buf, len);
	else
		snprintf(buf, len, "-");
}

struct chart_data {
	struct svg_series *s;
	struct svg_event *ev;
	size_t ns, nev, capev;
};

static void add_events(struct chart_data *cd, const struct series *ck, size_t series)
{
	for (size_t k = 0; ck && k < ck->n; k++) {
		if (!(ck->v[k] > 0))
			continue;
		if (GROW(cd->ev, cd->capev, cd->nev + 1, 16) < 0)
			return;
		cd->ev[cd->nev++] = (struct svg_event){ck->t[k], series, "checkpoint"};
	}
}

/* tps over time, one line per cell, checkpoints marked. */
static int tps_chart(struct rep_ctx *cx, struct md *m, const char *step, const struct rep_group *g, size_t ng)
{
	struct chart_data cd = {0};
	cd.s = calloc(ng ? ng : 1, sizeof(*cd.s));
	if (!cd.s)
		return -ENOMEM;
	for (size_t gi = 0; gi < ng; gi++) {
		const struct step_summary *ss = cell_summary_step(cx->sum[g[gi].cells[0]], step);
		const struct series *se = ss && ss->first ? result_series(ss->first, "pg_tps") : NULL;
		if (!se || se->n == 0)
			continue;
		add_events(&cd, result_series(ss->first, "pg_checkpoints"), cd.ns);
		cd.s[cd.ns++] =
		    (struct svg_series){*g[gi].label ? g[gi].label : "tps", se->n, se->t, se->v, NULL};
	}
	int rc = 0;
	if (cd.ns) {
		char title[256];
		snprintf(title, sizeof(title), "Server tps over time, checkpoints dotted — %s", step);
		struct svg_chart ch = {.kind = SVG_LINE,
		                       .title = title,
		                       .xlabel = "time (s)",
		                       .ylabel = "pg_tps (tps)",
		                       .x_zero = true,
		                       .s = cd.s,
		                       .ns = cd.ns,
		                       .events = cd.ev,
		                       .nevents = cd.nev};
		rc = rep_md_write_svg(cx, m, &ch);
	}
	free(cd.s);
	free(cd.ev);
	return rc;
}

static void row_head(FILE *f, const struct run *r, const struct rep_group *g, const char *step)
{
	fprintf(f, "| %zu | ", r->cells[g->cells[0]].index);
	rep_md_cell(f, *g->label ? g->label : "-");
	fputs(" | ", f);
	rep_md_cell(f, step);
	fputs(" |", f);
}

static void writers_table(struct rep_ctx *cx, FILE *f, const struct rep_strs *steps,
                          const struct rep_group *g, size_t ng)
{
	static const struct {
		const char *metric;
		double scale;
	} cols[] = {{"pg_checkpoints_timed", 1},
	            {"pg_checkpoints_req", 1},
	            {"pg_buffers_checkpoint", 1},
	            {"pg_buffers_clean", 1},
	            {"pg_buffers_backend", 1},
	            {"pg_wal_bytes", 1e-6},
	            {"pg_tps", 1},
	            {"pg_cpu_pct", 1}};
	char buf[64];
	fputs("### Buffers written by each writer\n\n| # | cell | step | checkpoints timed | checkpoints "
	      "requested | checkpointer | bgwriter | backends | WAL (MB) | server tps | server CPU (%) |\n",
	      f);
	rep_md_row_sep(f, 11);
	for (size_t si = 0; si < steps->n; si++)
		for (size_t gi = 0; gi < ng; gi++) {
			size_t ci = g[gi].cells[0];
			if (!cell_summary_metric(cx->sum[ci], steps->v[si], "pg_xacts"))
				continue;
			row_head(f, cx->run, &g[gi], steps->v[si]);
			for (size_t k = 0; k < sizeof(cols) / sizeof(cols[0]); k++) {
				mean_text(cx, ci, steps->v[si], cols[k].metric, cols[k].scale, buf,
				          sizeof(buf));
				fprintf(f, " %s |", buf);
			}
			fputc('\n', f);
		}
	fputs("\nBuffers are PostgreSQL's blocks (block_size, 8 kB by default) written during the "
	      "step; means over the repetitions.\n\n",
	      f);
}

struct wait_mean {
	const char *name; /* after "pg_wait." */
	double mean;
};

static int wait_cmp(const void *pa, const void *pb)
{
	const struct wait_mean *a = pa, *b = pb;
	if (a->mean != b->mean)
		return a->mean > b->mean ? -1 : 1;
	return strcmp(a->name, b->name);
}

/* "Timeout:PgSleep 0.5, IO:WALSync 0.25": the top waits as average
 * backends, most frequent first (by their means over the repetitions). */
static void top_waits(const struct rep_ctx *cx, size_t ci, const char *step, char *out, size_t len)
{
	const struct step_summary *ss = cell_summary_step(cx->sum[ci], step);
	const struct metric_summary *ns = cell_summary_metric(cx->sum[ci], step, "pg_wait_samples");
	struct wait_mean *w = ss ? calloc(ss->nm + 1, sizeof(*w)) : NULL;
	size_t nw = 0, used = 0;
	snprintf(out, len, "(none)");
	if (!w || !ns || !(ns->st.mean > 0)) {
		free(w);
		return;
	}
	for (size_t k = 0; k < ss->nm; k++)
		if (!strncmp(ss->m[k].name, WAIT_PREFIX, strlen(WAIT_PREFIX)) && isfinite(ss->m[k].st.mean))
			w[nw++] = (struct wait_mean){ss->m[k].name + strlen(WAIT_PREFIX), ss->m[k].st.mean};
	qsort(w, nw, sizeof(*w), wait_cmp);
	for (size_t k = 0; k < nw && k < TOP_WAITS && used < len; k++) {
		char ev[128], num[32];
		snprintf(ev, sizeof(ev), "%s", w[k].name);
		char *dot = strchr(ev, '.');
		if (dot)
			*dot = ':';
		rep_fmt_human(w[k].mean / ns->st.mean, num, sizeof(num));
		used += (size_t)snprintf(out + used, len - used, "%s%s %s", k ? ", " : "", ev, num);
	}
	free(w);
}

static void waits_table(struct rep_ctx *cx, FILE *f, const struct rep_strs *steps, const struct rep_group *g,
                        size_t ng)
{
	char buf[1024], n[32];
	fputs("### Top wait events\n\nThe average number of backends in each wait over the samples "
	      "(CPU:running: active, not waiting), without idle backends and background processes "
	      "waiting for work.\n\n| # | cell | step | samples | top wait events |\n",
	      f);
	rep_md_row_sep(f, 5);
	for (size_t si = 0; si < steps->n; si++)
		for (size_t gi = 0; gi < ng; gi++) {
			size_t ci = g[gi].cells[0];
			if (!cell_summary_metric(cx->sum[ci], steps->v[si], "pg_wait_samples"))
				continue;
			row_head(f, cx->run, &g[gi], steps->v[si]);
			mean_text(cx, ci, steps->v[si], "pg_wait_samples", 1, n, sizeof(n));
			top_waits(cx, ci, steps->v[si], buf, sizeof(buf));
			fprintf(f, " %s | ", n);
			rep_md_cell(f, buf);
			fputs(" |\n", f);
		}
	fputc('\n', f);
}

int rep_md_activity(struct rep_ctx *cx, struct md *m)
{
	FILE *f = m->rf.f;
	struct rep_strs steps = {0};
	struct rep_group *g = NULL;
	size_t ng = 0;
	int rc = 0;
	activity_steps(cx, &steps);
	/* every cell a group of its own, labelled by the parameters that vary */
	if (steps.n && rep_group_cells(cx->run, NULL, NULL, 0, &g, &ng) == 0) {
		fputs("## Server activity\n\nWhat the PostgreSQL server did during each pgbench and exec "
		      "step, sampled from its statistics views (docs/server-activity.md).\n\n",
		      f);
		for (size_t si = 0; si < steps.n && rc == 0; si++)
			rc = tps_chart(cx, m, steps.v[si], g, ng);
		writers_table(cx, f, &steps, g, ng);
		waits_table(cx, f, &steps, g, ng);
	}
	rep_groups_free(g, ng);
	rep_strs_free(&steps);
	return rc;
}
