/* rep_md_steps: see rep_md_steps.h. */
#include "rep_md_steps.h"

#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "rep_text.h"

/* Columns the Steps tables leave to other sections: the other devices'
 * monitor columns (nine per device; see Devices, results.csv) and the
 * per-statement latencies (their own section, with the SQL text). */
static bool steps_table_skips(const char *metric)
{
	if (strncmp(metric, "disk.", 5) == 0 || strncmp(metric, "pg_wait.", 8) == 0)
		return true;
	if (strncmp(metric, "stmt", 4) != 0)
		return false;
	size_t digits = strspn(metric + 4, "0123456789");
	return digits > 0 && strcmp(metric + 4 + digits, "_ms") == 0;
}

/* Under a step's table: the cells its `when:` skipped, and why. */
static void skipped_note(struct rep_ctx *cx, FILE *f, const char *step)
{
	const char *why = NULL;
	size_t n = 0;
	for (size_t i = 0; i < cx->run->ncells; i++) {
		const struct step_summary *ss = cell_summary_step(cx->sum[i], step);
		if (!ss || !ss->skipped || ss->failed)
			continue;
		if (!n++) {
			why = ss->skip_reason;
			fputs("Skipped (not run, not failed) in cell", f);
		}
		fprintf(f, "%s %zu", n == 1 ? "" : ",", cx->run->cells[i].index);
	}
	if (!n)
		return;
	fputs(": ", f);
	rep_md_cell(f, why && *why ? why : "when: false");
	fputs(".\n\n", f);
}

/* One step's table: #, parameters, status, and the metrics whose show[]
 * is set (all of them when show is NULL). */
static void steps_table(struct rep_ctx *cx, struct md *m, const char *step, const struct rep_strs *metrics,
                        const struct rep_strs *units, const bool *show)
{
	const struct run *r = cx->run;
	FILE *f = m->rf.f;
	size_t nshow = 0;
	char buf[128];
	fputs("| # |", f);
	rep_md_param_heads(f, &m->params);
	fputs(" status |", f);
	for (size_t j = 0; j < metrics->n; j++) {
		if (show && !show[j])
			continue;
		nshow++;
		fputc(' ', f);
		rep_md_cell(f, metrics->v[j]);
		if (j < units->n && units->v[j] && *units->v[j]) {
			fputs(" (", f);
			rep_md_cell(f, units->v[j]);
			fputc(')', f);
		}
		fputs(" |", f);
	}
	fputc('\n', f);
	rep_md_row_sep(f, 2 + m->params.n + nshow);
	for (size_t i = 0; i < r->ncells; i++) {
		const struct run_cell *c = &r->cells[i];
		const struct step_summary *ss = cell_summary_step(cx->sum[i], step);
		if (!ss)
			continue;
		fputs("| ", f);
		rep_md_mark_cell(m, f, (long)c->index);
		fprintf(f, "%zu |", c->index);
		rep_md_param_cells(m, f, c, &m->params);
		fprintf(f, " %s |", ss->failed ? "failed" : ss->skipped ? "skipped" : "ok");
		for (size_t j = 0; j < metrics->n; j++) {
			if (show && !show[j])
				continue;
			const struct metric_summary *ms =
			    cell_summary_metric(cx->sum[i], step, metrics->v[j]);
			if (ms)
				rep_md_fmt_metric(ms, buf, sizeof(buf));
			else
				snprintf(buf, sizeof(buf), "-");
			fputc(' ', f);
			if (ms)
				rep_md_mark_value(m, f, ms->st.mean);
			fprintf(f, "%s |", buf);
		}
		fputc('\n', f);
	}
	fputc('\n', f);
}

/* The groups a step's metrics are shown in, so that no table is wider
 * than STEP_TABLE_COLS metric columns (results.csv has them all in one). */
enum metric_group { MG_RATE, MG_CPU, MG_DEVICE, MG_PG, MG_COUNT };
enum { STEP_TABLE_COLS = 10 };
static const char *const metric_group_names[MG_COUNT] = {"Throughput and latency", "CPU and system", "Device",
                                                         "PostgreSQL"};

static enum metric_group metric_group_of(const char *name)
{
	if (!strncmp(name, "sys_", 4) || !strncmp(name, "cpu_", 4) || !strncmp(name, "noise.", 6))
		return MG_CPU;
	if (!strncmp(name, "disk_", 5) || !strncmp(name, "model.", 6))
		return MG_DEVICE;
	if (!strncmp(name, "pg_", 3))
		return MG_PG;
	return MG_RATE;
}

/* A step's metrics as tables of at most STEP_TABLE_COLS columns, one group
 * after another (a group's first table first: the browser sorts the step's
 * first table, t-step-NAME). report.html folds them (the Headline section
 * at the top has the figures people read first); a table of a few
 * metrics stays open. */
static void steps_tables(struct rep_ctx *cx, struct md *m, const char *step, const struct rep_strs *metrics,
                         const struct rep_strs *units)
{
	size_t n = metrics->n, ngroups = 0, counts[MG_COUNT] = {0};
	bool *show = calloc(n ? n : 1, sizeof(*show));
	if (!show)
		return;
	for (size_t j = 0; j < n; j++)
		ngroups += counts[metric_group_of(metrics->v[j])]++ == 0;
	bool split = n > STEP_TABLE_COLS || ngroups > 1, fold = m->html && split;
	char what[96];
	if (fold) {
		snprintf(what, sizeof(what), "All %zu metrics of this step", n);
		rep_md_mark(m, m->rf.f, "details", what);
		fputs("\n\n", m->rf.f);
	}
	if (!split)
		steps_table(cx, m, step, metrics, units, NULL);
	for (int g = 0; split && g < MG_COUNT; g++) {
		size_t from = 0, part = 0;
		while (from < n) {
			size_t k = 0;
			memset(show, 0, n * sizeof(*show));
			for (size_t j = from; j < n && k < STEP_TABLE_COLS; j++, from = j)
				if (metric_group_of(metrics->v[j]) == (enum metric_group)g)
					show[j] = true, k++;
			if (k == 0)
				break;
			while (from < n && metric_group_of(metrics->v[from]) != (enum metric_group)g)
				from++;
			fprintf(m->rf.f, "**%s%s**\n\n", metric_group_names[g], part++ ? " (continued)" : "");
			steps_table(cx, m, step, metrics, units, show);
		}
	}
	if (fold) {
		rep_md_mark(m, m->rf.f, "/details", NULL);
		fputs("\n\n", m->rf.f);
	}
	free(show);
}

void rep_md_steps(struct rep_ctx *cx, struct md *m)
{
	const struct run *r = cx->run;
	FILE *f = m->rf.f;
	struct rep_strs steps = {0};
	char buf[128];

	for (size_t i = 0; i < r->ncells; i++)
		for (size_t k = 0; k < cx->sum[i]->nsteps; k++)
			rep_strs_add(&steps, cx->sum[i]->steps[k].step);
	if (steps.n)
		fputs("## Steps\n\n", f);
	for (size_t s = 0; s < steps.n; s++) {
		struct rep_strs metrics = {0}, units = {0};
		const char *workload = "";
		size_t hidden = 0;
		for (size_t i = 0; i < r->ncells; i++) {
			const struct step_summary *ss = cell_summary_step(cx->sum[i], steps.v[s]);
			for (size_t j = 0; ss && j < ss->nm; j++) {
				if (steps_table_skips(ss->m[j].name)) {
					hidden++;
					continue;
				}
				if (rep_strs_find(&metrics, ss->m[j].name) < 0) {
					rep_strs_add(&metrics, ss->m[j].name);
					snprintf(buf, sizeof(buf), "%s", ss->m[j].unit);
					/* units keeps one entry per metric (may repeat) */
					if (GROW(units.v, units.cap, units.n + 1, 8) < 0)
						continue;
					units.v[units.n++] = strdup(buf);
				}
			}
			if (ss && !*workload)
				workload = ss->workload;
		}
		fputs("### Step ", f);
		rep_md_code(f, steps.v[s]);
		if (*workload) {
			fputs(" (", f);
			rep_md_text(f, workload);
			fputc(')', f);
		}
		fputs("\n\n", f);
		steps_tables(cx, m, steps.v[s], &metrics, &units);
		skipped_note(cx, f, steps.v[s]);
		if (hidden)
			fputs("Not in this table: the other devices' disk columns (see Devices), the "
			      "per-statement latencies and the wait events (their own sections); all are in "
			      "results.csv.\n\n",
			      f);
		rep_strs_free(&metrics);
		rep_strs_free(&units);
	}
	rep_strs_free(&steps);
}
