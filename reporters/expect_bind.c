/* expect_bind: INCONCLUSIVE when no model limited a compared cell, or it
 * was CPU-bound (see expect_bind.h). */
#include "expect_bind.h"

#include "rep_md_noise.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int expect_bind_parse(const struct node *v, double *thr, struct diag *d)
{
	*thr = EXPECT_BIND_DEFAULT;
	if (!v)
		return 0;
	if (v->kind == NODE_SCALAR && !strcmp(v->text, "none")) {
		*thr = 0;
		return 0;
	}
	const char *t = v->kind == NODE_SCALAR ? v->text : "";
	char *end = NULL;
	double x = strtod(t, &end);
	bool pct = end && end != t && *end == '%' && end[1] == '\0';
	bool ok = end && end != t && (pct || *end == '\0') && isfinite(x);
	if (ok && pct)
		x /= 100;
	if (!ok || !(x > 0) || x > 1) {
		diag_error(d, &v->pos,
		           "expect: bind: '%s' must be a utilisation such as 80%% (or 0.8), above 0 and at "
		           "most 100%%, or none",
		           v->kind == NODE_SCALAR ? t : node_kind_name(v->kind));
		return -EINVAL;
	}
	*thr = x;
	return 0;
}

static double median_of(const struct cell_summary *s, const char *step, const char *metric)
{
	const struct metric_summary *m = cell_summary_metric(s, step, metric);
	return m ? m->st.median : NAN;
}

/* The target whose model was most used in the step, and its busiest limit:
 * NAME of model.NAME.utilisation into name, LIMIT of model.NAME.LIMIT_util
 * into limit. NaN when the step has no utilisation. */
static double top_model(const struct step_summary *ss, char *name, size_t nlen, char *limit, size_t llen)
{
	static const char util[] = ".utilisation", lu[] = "_util";
	double top = NAN;
	name[0] = limit[0] = '\0';
	for (size_t i = 0; ss && i < ss->nm; i++) {
		const char *mn = ss->m[i].name;
		size_t n = strlen(mn);
		if (strncmp(mn, "model.", 6) || n <= 6 + sizeof(util) - 1 ||
		    strcmp(mn + n - (sizeof(util) - 1), util) || !isfinite(ss->m[i].st.median))
			continue;
		if (isfinite(top) && ss->m[i].st.median <= top)
			continue;
		top = ss->m[i].st.median;
		snprintf(name, nlen, "%.*s", (int)(n - 6 - (sizeof(util) - 1)), mn + 6);
	}
	if (!isfinite(top))
		return top;
	/* its busiest limit: model.NAME.LIMIT_util */
	size_t pre = 6 + strlen(name) + 1;
	double best = -1;
	for (size_t i = 0; i < ss->nm; i++) {
		const char *mn = ss->m[i].name;
		size_t n = strlen(mn);
		if (n <= pre + sizeof(lu) - 1 || strncmp(mn, "model.", 6) || strncmp(mn + 6, name, pre - 7) ||
		    mn[pre - 1] != '.' || strcmp(mn + n - (sizeof(lu) - 1), lu) ||
		    !(ss->m[i].st.median > best))
			continue;
		best = ss->m[i].st.median;
		snprintf(limit, llen, "%.*s", (int)(n - pre - (sizeof(lu) - 1)), mn + pre);
	}
	return top;
}

/* The step's whole-machine idle + iowait (the monitor's) and the share of
 * the CPUs other processes took (the noise watch's; NaN when not known). */
static void cpu_shares(const struct cell_summary *s, const char *step, double *spare, double *other)
{
	*spare = median_of(s, step, "sys_idle_pct") + median_of(s, step, "sys_iowait_pct");
	const struct step_summary *ss = cell_summary_step(s, step);
	const char *o = ss && ss->first ? result_info_get(ss->first, "noise.foreign_cpu_pct") : NULL;
	*other = o ? atof(o) : NAN;
}

bool expect_bind_cell(const struct run_cell *c, const struct cell_summary *s, const char *step, double thr,
                      char *why, size_t len)
{
	const char *models = result_info_get(&c->facts, "models");
	if (!models)
		return true;
	bool on = !strcmp(models, "on");
	if (on && thr > 0) {
		/* with its models: a model at the threshold limited the step */
		char name[128], limit[64];
		double top = top_model(cell_summary_step(s, step), name, sizeof(name), limit, sizeof(limit));
		if (!isfinite(top)) {
			snprintf(why, len,
			         "models did not bind: no model utilisation measured (cell %zu, step %s)",
			         c->index, step);
			return false;
		}
		if (top < thr) {
			snprintf(
			    why, len,
			    "models did not bind: %s at %.0f %% of %s (cell %zu, step %s; bind: %.0f %%)",
			    name, top * 100, limit[0] ? limit : "its limits", c->index, step, thr * 100);
			return false;
		}
	}
	double spare, other;
	cpu_shares(s, step, &spare, &other);
	/* A CPU-bound step while other processes took a share of the CPUs: a
	 * busy machine, whatever the arm (a starved CPU can hide a model's fast
	 * stretch, or slow a control cell). A control cell that is CPU-bound by
	 * its own work is what a control arm is: no device limits it. Where
	 * the other processes' share is not known, a CPU-bound control cell
	 * cannot be told apart from a busy machine. */
	if (isfinite(spare) && spare < EXPECT_CPU_BOUND_PCT &&
	    (other > NOISE_FOREIGN_PCT || (!on && !isfinite(other)))) {
		char fo[64] = "";
		if (isfinite(other))
			snprintf(fo, sizeof(fo), ", other processes %.0f %%", other);
		snprintf(why, len, "%s: idle + iowait %.0f %%%s (cell %zu, step %s)",
		         isfinite(other) ? "a busy machine" : "CPU-bound", spare, fo, c->index, step);
		return false;
	}
	return true;
}

void expect_bind_judge(struct expect_row *row, const struct run *r, struct cell_summary *const *sums,
                       const char *step, const char *to_step, double thr)
{
	if (row->status == EXPECT_SKIP || row->status == EXPECT_INCONCLUSIVE)
		return;
	char why[512] = "";
	for (size_t i = 0; i < row->npairs && !why[0]; i++) {
		const struct expect_pair *p = &row->pairs[i];
		if (p->note) /* not measured: not part of the verdict */
			continue;
		if (!expect_bind_cell(&r->cells[p->a], sums[p->a], step, thr, why, sizeof(why)))
			break;
		expect_bind_cell(&r->cells[p->b], sums[p->b], to_step ? to_step : step, thr, why,
		                 sizeof(why));
	}
	if (!why[0])
		return;
	char *note = NULL;
	if (asprintf(&note, "%s; the shape alone: %s", why, expect_status_name(row->status)) < 0)
		note = NULL;
	free(row->note);
	row->note = note;
	row->status = EXPECT_INCONCLUSIVE;
}
