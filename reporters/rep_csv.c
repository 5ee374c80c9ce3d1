/* rep_csv: results.csv, one row per cell and step.
 *
 * Columns: index, id, every parameter (first-seen order over all cells),
 * step, status (ok, failed, or skipped: its when: was false, the error
 * column says why), every metric (first-seen order over all steps), then, when
 * any metric has more than one sample (repeat: N), six columns per metric:
 * <m>_n, <m>_stddev, <m>_median, <m>_min, <m>_max, <m>_cv; last `error`.
 * A metric's column holds its mean over the repetitions; a metric the step
 * does not have is an empty field. A cell without steps (failed before its
 * first step, or skipped) has one row with an empty step. Names that clash
 * with a fixed column get a "param." / "metric." prefix. Fields are quoted
 * per RFC 4180; numbers are written with the fewest digits that read back
 * to the same double. */
#include "rep_csv.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "rep_file.h"
#include "rep_fmt.h"
#include "rep_text.h"
#include "rep_group.h"

static const char *const stat_cols[] = {"n", "stddev", "median", "min", "max", "cv"};
#define NSTAT (sizeof(stat_cols) / sizeof(stat_cols[0]))

struct csv {
	struct rep_file rf;
	struct rep_strs params, metrics;
	bool stats;
};

static bool fixed_name(const char *s)
{
	static const char *const fixed[] = {"index", "id", "step", "status", "error", NULL};
	for (size_t i = 0; fixed[i]; i++)
		if (strcmp(s, fixed[i]) == 0)
			return true;
	return false;
}

static void header_name(FILE *f, const char *prefix, const char *name)
{
	char buf[512];
	snprintf(buf, sizeof(buf), "%s%s", prefix, name);
	fputc(',', f);
	rep_csv_field(f, buf);
}

static int csv_begin(struct rep_ctx *cx)
{
	struct csv *c = calloc(1, sizeof(*c));
	if (!c)
		return -ENOMEM;
	cx->priv = c;
	rep_param_names(cx->run, &c->params);
	for (size_t i = 0; i < cx->run->ncells; i++) {
		const struct cell_summary *s = cx->sum[i];
		for (size_t k = 0; k < s->nsteps; k++)
			for (size_t j = 0; j < s->steps[k].nm; j++) {
				rep_strs_add(&c->metrics, s->steps[k].m[j].name);
				c->stats |= s->steps[k].m[j].n > 1;
			}
	}
	int rc = rep_file_open(&c->rf, cx->outdir, "results.csv", cx->d);
	if (rc < 0)
		return rc;
	FILE *f = c->rf.f;
	fputs("index,id", f);
	for (size_t i = 0; i < c->params.n; i++)
		header_name(f, fixed_name(c->params.v[i]) ? "param." : "", c->params.v[i]);
	fputs(",step,status", f);
	for (size_t i = 0; i < c->metrics.n; i++) {
		const char *m = c->metrics.v[i];
		bool clash = fixed_name(m) || rep_strs_find(&c->params, m) >= 0;
		header_name(f, clash ? "metric." : "", m);
	}
	if (c->stats)
		for (size_t i = 0; i < c->metrics.n; i++)
			for (size_t k = 0; k < NSTAT; k++) {
				char buf[512];
				snprintf(buf, sizeof(buf), "%s_%s", c->metrics.v[i], stat_cols[k]);
				header_name(f, "", buf);
			}
	fputs(",error\r\n", f);
	return 0;
}

static void num_field(FILE *f, double v)
{
	char buf[64];
	rep_fmt_exact(v, buf, sizeof(buf));
	fputc(',', f);
	fputs(buf, f);
}

static void row(struct csv *c, const struct run_cell *cell, const struct step_summary *ss)
{
	FILE *f = c->rf.f;
	const char *status = ss ? (ss->failed    ? "failed"
	                           : ss->skipped ? "skipped"
	                                         : "ok")
	                        : run_status_name(cell->status);
	const char *error = ss ? (ss->skipped && !ss->failed ? ss->skip_reason : ss->error) : cell->error;

	fprintf(f, "%zu,", cell->index);
	rep_csv_field(f, cell->id);
	for (size_t i = 0; i < c->params.n; i++) {
		fputc(',', f);
		rep_csv_field(f, run_cell_param(cell, c->params.v[i]));
	}
	fputc(',', f);
	rep_csv_field(f, ss ? ss->step : "");
	fputc(',', f);
	rep_csv_field(f, status);
	for (size_t i = 0; i < c->metrics.n; i++) {
		const struct metric_summary *m = NULL;
		for (size_t j = 0; ss && j < ss->nm && !m; j++)
			if (strcmp(ss->m[j].name, c->metrics.v[i]) == 0)
				m = &ss->m[j];
		if (m)
			num_field(f, m->st.mean);
		else
			fputc(',', f);
	}
	if (c->stats)
		for (size_t i = 0; i < c->metrics.n; i++) {
			const struct metric_summary *m = NULL;
			for (size_t j = 0; ss && j < ss->nm && !m; j++)
				if (strcmp(ss->m[j].name, c->metrics.v[i]) == 0)
					m = &ss->m[j];
			for (size_t k = 0; k < NSTAT; k++) {
				if (m)
					num_field(f, rep_stat(m, stat_cols[k]));
				else
					fputc(',', f);
			}
		}
	fputc(',', f);
	rep_csv_field(f, error);
	fputs("\r\n", f);
}

static int csv_cell(struct rep_ctx *cx, size_t i)
{
	struct csv *c = cx->priv;
	const struct cell_summary *s = cx->sum[i];
	if (s->nsteps == 0)
		row(c, &cx->run->cells[i], NULL);
	for (size_t k = 0; k < s->nsteps; k++)
		row(c, &cx->run->cells[i], &s->steps[k]);
	return 0;
}

static int csv_end(struct rep_ctx *cx, bool ok)
{
	struct csv *c = cx->priv;
	int rc = 0;
	if (!c)
		return 0;
	if (ok && c->rf.f)
		rc = rep_file_commit(&c->rf, cx->d);
	else
		rep_file_abort(&c->rf);
	rep_strs_free(&c->params);
	rep_strs_free(&c->metrics);
	free(c);
	cx->priv = NULL;
	return rc;
}

const struct reporter_ops rep_csv_ops = {
    .name = "csv",
    .file = "results.csv",
    .begin = csv_begin,
    .cell = csv_cell,
    .end = csv_end,
};
