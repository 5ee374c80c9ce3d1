/* rep_timeseries: timeseries.csv, the sampled series of every step.
 *
 * Columns: index, id, repeat (1-based), step, t (seconds since the step
 * started), then one column per series name (first-seen order over the run,
 * e.g. mb_s, iops, tps, lat_ms). A step's series are merged on their time
 * stamps: one row per distinct t of the step, an empty field where a series
 * has no sample at that t. Steps without series write no rows. */
#include "rep_timeseries.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rep_file.h"
#include "rep_fmt.h"
#include "rep_text.h"
#include "rep_group.h"

struct ts {
	struct rep_file rf;
	struct rep_strs names;
};

static int ts_begin(struct rep_ctx *cx)
{
	struct ts *t = calloc(1, sizeof(*t));
	if (!t)
		return -ENOMEM;
	cx->priv = t;
	for (size_t i = 0; i < cx->run->ncells; i++) {
		const struct run_cell *c = &cx->run->cells[i];
		for (size_t r = 0; r < c->nreps; r++)
			for (size_t k = 0; k < c->reps[r].nsteps; k++)
				for (size_t s = 0; s < c->reps[r].steps[k].ns; s++)
					rep_strs_add(&t->names, c->reps[r].steps[k].s[s].name);
	}
	int rc = rep_file_open(&t->rf, cx->outdir, "timeseries.csv", cx->d);
	if (rc < 0)
		return rc;
	fputs("index,id,repeat,step,t", t->rf.f);
	for (size_t i = 0; i < t->names.n; i++) {
		fputc(',', t->rf.f);
		rep_csv_field(t->rf.f, t->names.v[i]);
	}
	fputs("\r\n", t->rf.f);
	return 0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static int write_step(struct ts *t, const struct run_cell *c, size_t rep, const struct step_result *sr)
{
	size_t total = 0, nt = 0;
	for (size_t s = 0; s < sr->ns; s++)
		total += sr->s[s].n;
	if (total == 0)
		return 0;
	double *times = malloc(total * sizeof(*times));
	long *col = malloc(sr->ns * sizeof(*col));
	size_t *cur = calloc(sr->ns, sizeof(*cur));
	if (!times || !col || !cur) {
		free(times);
		free(col);
		free(cur);
		return -ENOMEM;
	}
	for (size_t s = 0; s < sr->ns; s++) {
		col[s] = rep_strs_find(&t->names, sr->s[s].name);
		for (size_t k = 0; k < sr->s[s].n; k++)
			if (isfinite(sr->s[s].t[k]))
				times[nt++] = sr->s[s].t[k];
	}
	qsort(times, nt, sizeof(*times), cmp_double);

	FILE *f = t->rf.f;
	char buf[64];
	double *vals = malloc((t->names.n ? t->names.n : 1) * sizeof(*vals));
	if (!vals) {
		free(times);
		free(col);
		free(cur);
		return -ENOMEM;
	}
	for (size_t i = 0; i < nt; i++) {
		if (i > 0 && times[i] == times[i - 1])
			continue;
		for (size_t k = 0; k < t->names.n; k++)
			vals[k] = NAN;
		bool any = false;
		for (size_t s = 0; s < sr->ns; s++) {
			const struct series *se = &sr->s[s];
			if (se->n == 0 || col[s] < 0)
				continue;
			/* Series are in time order; a linear scan per series also
			 * copes with unordered samples. */
			for (size_t k = 0; k < se->n; k++) {
				size_t j = (cur[s] + k) % se->n;
				if (se->t[j] == times[i]) {
					vals[col[s]] = se->v[j];
					cur[s] = j + 1;
					any = true;
					break;
				}
			}
		}
		if (!any)
			continue;
		fprintf(f, "%zu,", c->index);
		rep_csv_field(f, c->id);
		fprintf(f, ",%zu,", rep + 1);
		rep_csv_field(f, sr->step ? sr->step : "");
		rep_fmt_exact(times[i], buf, sizeof(buf));
		fprintf(f, ",%s", buf);
		for (size_t k = 0; k < t->names.n; k++) {
			rep_fmt_exact(vals[k], buf, sizeof(buf));
			fprintf(f, ",%s", buf);
		}
		fputs("\r\n", f);
	}
	free(vals);
	free(times);
	free(col);
	free(cur);
	return 0;
}

static int ts_cell(struct rep_ctx *cx, size_t i)
{
	struct ts *t = cx->priv;
	const struct run_cell *c = &cx->run->cells[i];
	for (size_t r = 0; r < c->nreps; r++)
		for (size_t k = 0; k < c->reps[r].nsteps; k++) {
			int rc = write_step(t, c, r, &c->reps[r].steps[k]);
			if (rc < 0)
				return rc;
		}
	return 0;
}

static int ts_end(struct rep_ctx *cx, bool ok)
{
	struct ts *t = cx->priv;
	int rc = 0;
	if (!t)
		return 0;
	if (ok && t->rf.f)
		rc = rep_file_commit(&t->rf, cx->d);
	else
		rep_file_abort(&t->rf);
	rep_strs_free(&t->names);
	free(t);
	cx->priv = NULL;
	return rc;
}

const struct reporter_ops rep_timeseries_ops = {
    .name = "timeseries",
    .file = "timeseries.csv",
    .begin = ts_begin,
    .cell = ts_cell,
    .end = ts_end,
};
