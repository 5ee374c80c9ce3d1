/* repeat_until: convergence of a cell's repetitions (see repeat_until.h). */
#include "repeat_until.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "headline.h"
#include "stats_ci.h"

const char *repeat_headline_metric(const struct step_result *r)
{
	const char *h[HEADLINE_MAX];
	if (headline_names(r, h, HEADLINE_MAX) > 0) /* the one rule: headline.h */
		return h[0];
	for (size_t i = 0; i < r->nm; i++)
		if (strcmp(r->m[i].name, "exit_status") && strcmp(r->m[i].name, "elapsed_s") &&
		    strncmp(r->m[i].name, "sys_", 4) && strncmp(r->m[i].name, "disk_", 5))
			return r->m[i].name;
	return result_get(r, "elapsed_s") ? "elapsed_s" : NULL;
}

static const struct step_result *rep_step(const struct run_rep *rp, const char *step, size_t len)
{
	for (size_t i = 0; i < rp->nsteps; i++)
		if (!strncmp(rp->steps[i].step, step, len) && !rp->steps[i].step[len])
			return &rp->steps[i];
	return NULL;
}

/* The half-width of STEP.METRIC's interval as a percent of its mean; NaN
 * with fewer than two samples. */
static double spread_pct(const struct run_cell *rc, const char *step, size_t slen, const char *metric)
{
	double *v = malloc((rc->nreps ? rc->nreps : 1) * sizeof(*v));
	size_t n = 0;
	double sum = 0, half = NAN;
	for (size_t k = 0; v && k < rc->nreps; k++) {
		const struct step_result *r = rep_step(&rc->reps[k], step, slen);
		const struct metric *m = r && !r->failed ? result_get(r, metric) : NULL;
		if (m && isfinite(m->value)) {
			v[n++] = m->value;
			sum += m->value;
		}
	}
	bool ok = v && n >= 2 && stats_mean_ci(v, n, STATS_CI_LEVEL, &half);
	free(v);
	if (!ok)
		return NAN;
	double mean = sum / (double)n;
	if (half == 0)
		return 0;
	return mean != 0 ? 100.0 * half / fabs(mean) : INFINITY;
}

/* Keep the worst spread: NaN (too few samples) before any number. */
static void watch(const struct run_cell *rc, const char *name, double *worst_pct, char *worst, size_t len)
{
	const char *dot = strrchr(name, '.');
	/* metrics are "step.metric"; a step name may hold dots, a metric none */
	double p = dot ? spread_pct(rc, name, (size_t)(dot - name), dot + 1) : NAN;
	bool worse = isnan(p) ? !isnan(*worst_pct) : !isnan(*worst_pct) && p > *worst_pct;
	if (!worst[0] || worse) {
		*worst_pct = p;
		snprintf(worst, len, "%s", name);
	}
}

bool repeat_converged(const struct repeat_spec *rs, const struct run_cell *rc, double *worst_pct, char *worst,
                      size_t len)
{
	*worst_pct = -1;
	worst[0] = 0;
	char name[512];
	if (rs->nmetrics) {
		for (size_t i = 0; i < rs->nmetrics; i++)
			watch(rc, rs->metrics[i], worst_pct, worst, len);
	} else if (rc->nreps) {
		const struct run_rep *rp = &rc->reps[0];
		for (size_t i = 0; i < rp->nsteps; i++) {
			const char *m = repeat_headline_metric(&rp->steps[i]);
			if (!m)
				continue;
			snprintf(name, sizeof(name), "%s.%s", rp->steps[i].step, m);
			watch(rc, name, worst_pct, worst, len);
		}
	}
	if (!worst[0]) { /* nothing to watch: nothing will converge */
		*worst_pct = NAN;
		return false;
	}
	return !isnan(*worst_pct) && *worst_pct < rs->until_pct;
}
