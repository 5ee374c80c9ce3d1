/* rep_md_headline: see rep_md_headline.h. */
#include "rep_md_headline.h"

#include <stdio.h>
#include <string.h>

#include "rep_text.h"
#include "units.h"

/* The steps in first-seen order, and for each its headline metrics (the
 * union over cells, in the rule's order): "step.metric" in refs. */
static void headline_refs(const struct rep_ctx *cx, struct rep_strs *refs, struct rep_strs *steps)
{
	char ref[400];
	for (size_t i = 0; i < cx->run->ncells; i++)
		for (size_t k = 0; cx->sum[i] && k < cx->sum[i]->nsteps; k++)
			rep_strs_add(steps, cx->sum[i]->steps[k].step);
	for (size_t s = 0; s < steps->n; s++)
		for (size_t i = 0; i < cx->run->ncells; i++) {
			const struct step_summary *ss = cell_summary_step(cx->sum[i], steps->v[s]);
			const struct metric_summary *h[HEADLINE_MAX];
			size_t nh = ss ? step_headlines(ss, h) : 0;
			for (size_t j = 0; j < nh; j++) {
				snprintf(ref, sizeof(ref), "%s.%s", steps->v[s], h[j]->name);
				rep_strs_add(refs, ref);
			}
		}
}

/* The value of step.metric in cell i: the metric, "failed", "skipped" or "-". */
static void headline_value(const struct rep_ctx *cx, const struct md *m, FILE *f, size_t i, const char *ref)
{
	char step[256], buf[128];
	const char *metric;
	if (!results_split_ref(ref, step, sizeof(step), &metric)) {
		fputs(" - |", f);
		return;
	}
	const struct step_summary *ss = cell_summary_step(cx->sum[i], step);
	const struct metric_summary *ms = cell_summary_metric(cx->sum[i], step, metric);
	fputc(' ', f);
	if (ms) {
		rep_md_mark_value(m, f, ms->st.mean);
		rep_md_fmt_metric(ms, buf, sizeof(buf));
	} else {
		snprintf(buf, sizeof(buf), "%s",
		         !ss           ? "-"
		         : ss->failed  ? "failed"
		         : ss->skipped ? "skipped"
		                       : "-");
	}
	fprintf(f, "%s |", buf);
}

/* Distinct values of param over every cell (rep_md_group_values wants a
 * group: one of all cells). */
static void all_values(const struct run *r, const char *param, struct rep_strs *out)
{
	for (size_t i = 0; i < r->ncells; i++) {
		const char *v = run_cell_param(&r->cells[i], param);
		if (v)
			rep_strs_add(out, v);
	}
}

void rep_md_headline(struct rep_ctx *cx, struct md *m, FILE *f)
{
	const struct run *r = cx->run;
	struct rep_strs refs = {0}, steps = {0};
	headline_refs(cx, &refs, &steps);
	bool any_bad = false;
	for (size_t i = 0; i < r->ncells; i++)
		any_bad |= r->cells[i].status != RUN_OK;
	if (refs.n == 0 || r->ncells == 0)
		goto out;
	fputs("## Headline\n\nEach step's headline metrics (throughput and p99 latency; a step's "
	      "`headline:` chooses others), one row per cell; every metric is in the step tables "
	      "below and in results.csv.\n\n| # |",
	      f);
	rep_md_param_heads(f, &m->vary);
	if (any_bad)
		fputs(" status |", f);
	for (size_t j = 0; j < refs.n; j++) {
		char step[256];
		const char *metric;
		const char *unit = results_split_ref(refs.v[j], step, sizeof(step), &metric)
		                       ? rep_md_unit_of(cx, step, metric)
		                       : "";
		fputc(' ', f);
		rep_md_cell(f, refs.v[j]);
		if (*unit) {
			fputs(" (", f);
			rep_md_cell(f, unit);
			fputc(')', f);
		}
		fputs(" |", f);
	}
	fputc('\n', f);
	rep_md_row_sep(f, 1 + m->vary.n + any_bad + refs.n);
	for (size_t i = 0; i < r->ncells; i++) {
		const struct run_cell *c = &r->cells[i];
		fputs("| ", f);
		rep_md_mark_cell(m, f, (long)c->index);
		fprintf(f, "%zu |", c->index);
		rep_md_param_cells(m, f, c, &m->vary);
		if (any_bad)
			fprintf(f, " %s |", run_status_name(c->status));
		for (size_t j = 0; j < refs.n; j++)
			headline_value(cx, m, f, i, refs.v[j]);
		fputc('\n', f);
	}
	fputc('\n', f);
	if (!r->report_cfg || r->report_cfg->kind == NODE_NULL) {
		bool varies = false;
		struct rep_strs vals = {0};
		for (size_t k = 0; k < m->vary.n && !varies; k++) {
			all_values(r, m->vary.v[k], &vals);
			varies = vals.n >= 2;
			rep_strs_free(&vals);
		}
		if (varies)
			fputs("No `report:` block: below, a pivot table and a chart of each step's first "
			      "headline metric by each parameter that varies (`report:` chooses others: "
			      "docs/results.md).\n\n",
			      f);
	}
out:
	rep_strs_free(&refs);
	rep_strs_free(&steps);
}

/* map[key] = value; false when out of memory (map keeps what it had). */
static bool put(struct node *map, const char *key, const char *value)
{
	struct node *v = map ? node_new_scalar(value, NULL) : NULL;
	if (!v)
		return false;
	node_map_put(map, key, NULL, v);
	return true;
}

struct node *rep_md_default_report(struct rep_ctx *cx, const struct md *m)
{
	const struct run *r = cx->run;
	struct rep_strs refs = {0}, steps = {0}, axes = {0};
	struct node *rep = NULL;
	for (size_t k = 0; k < m->vary.n; k++) {
		struct rep_strs vals = {0};
		all_values(r, m->vary.v[k], &vals);
		if (vals.n >= 2)
			rep_strs_add(&axes, m->vary.v[k]);
		rep_strs_free(&vals);
	}
	headline_refs(cx, &refs, &steps);
	if (axes.n == 0 || steps.n == 0)
		goto out;
	rep = node_new(NODE_MAP, NULL);
	struct node *pivots = node_new(NODE_SEQ, NULL), *charts = node_new(NODE_SEQ, NULL);
	if (!rep || !pivots || !charts) {
		node_free(pivots);
		node_free(charts);
		goto oom;
	}
	node_map_put(rep, "pivot", NULL, pivots);
	node_map_put(rep, "charts", NULL, charts);
	for (size_t a = 0; a < axes.n; a++) {
		const char *x = axes.v[a], *next = axes.n > 1 ? axes.v[(a + 1) % axes.n] : NULL;
		struct rep_strs vals = {0};
		all_values(r, x, &vals);
		bool numeric = vals.n >= 3;
		for (size_t i = 0; i < vals.n && numeric; i++) {
			double v;
			numeric = units_is_number(vals.v[i], &v);
		}
		rep_strs_free(&vals);
		for (size_t s = 0; s < steps.n; s++) {
			/* the step's first headline metric: its rate, as compare leads with */
			size_t len = strlen(steps.v[s]);
			const char *ref = NULL;
			for (size_t j = 0; j < refs.n && !ref; j++)
				if (!strncmp(refs.v[j], steps.v[s], len) && refs.v[j][len] == '.')
					ref = refs.v[j];
			if (!ref)
				continue;
			struct node *p = node_new(NODE_MAP, NULL), *c = node_new(NODE_MAP, NULL);
			bool ok = p && c && put(p, "value", ref) && put(p, "rows", x) &&
			          (!next || put(p, "cols", next)) && put(c, "y", ref) && put(c, "x", x) &&
			          (!next || put(c, "series", next)) && (numeric || put(c, "kind", "bar"));
			if (!ok) {
				node_free(p);
				node_free(c);
				goto oom;
			}
			node_seq_push(pivots, p);
			node_seq_push(charts, c);
		}
	}
	goto out;
oom: /* no default report rather than half of one */
	node_free(rep);
	rep = NULL;
out:
	rep_strs_free(&refs);
	rep_strs_free(&steps);
	rep_strs_free(&axes);
	return rep;
}
