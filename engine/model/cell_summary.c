/* cell_summary: statistics over the repetitions of a cell (see cell_summary.h). */
#include "cell_summary.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool results_split_ref(const char *ref, char *step, size_t steplen, const char **metric)
{
	const char *dot = ref ? strchr(ref, '.') : NULL;
	if (!dot || dot == ref || !dot[1] || (size_t)(dot - ref) >= steplen)
		return false;
	memcpy(step, ref, (size_t)(dot - ref));
	step[dot - ref] = '\0';
	*metric = dot + 1;
	return true;
}

struct occ {
	const struct step_result **r; /* the step in each rep that has it */
	size_t n;
};

void cell_summary_free(struct cell_summary *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->nsteps; i++) {
		for (size_t k = 0; k < s->steps[i].nm; k++)
			free(s->steps[i].m[k].v);
		free(s->steps[i].m);
	}
	free(s->steps);
	free(s);
}

struct cell_summary *run_cell_summarize(const struct run_cell *c)
{
	return run_cell_summarize_opt(c, true);
}

struct cell_summary *run_cell_summarize_opt(const struct run_cell *c, bool median_ci)
{
	struct cell_summary *s = calloc(1, sizeof(*s));
	size_t maxsteps = 0;
	struct occ *occ = NULL;

	if (!s)
		return NULL;
	for (size_t r = 0; r < c->nreps; r++)
		maxsteps += c->reps[r].nsteps;
	s->steps = calloc(maxsteps ? maxsteps : 1, sizeof(*s->steps));
	occ = calloc(maxsteps ? maxsteps : 1, sizeof(*occ));
	if (!s->steps || !occ)
		goto oom;

	/* Group step results by step name, in first-seen order. */
	for (size_t r = 0; r < c->nreps; r++) {
		for (size_t k = 0; k < c->reps[r].nsteps; k++) {
			const struct step_result *sr = &c->reps[r].steps[k];
			const char *name = sr->step ? sr->step : "";
			size_t i;
			for (i = 0; i < s->nsteps; i++)
				if (strcmp(s->steps[i].step, name) == 0)
					break;
			if (i == s->nsteps) {
				s->steps[i].step = name;
				s->steps[i].workload = sr->workload ? sr->workload : "";
				s->steps[i].first = sr;
				occ[i].r = calloc(c->nreps, sizeof(*occ[i].r));
				if (!occ[i].r)
					goto oom;
				s->nsteps++;
			}
			if (occ[i].n < c->nreps)
				occ[i].r[occ[i].n++] = sr;
		}
	}

	for (size_t i = 0; i < s->nsteps; i++) {
		struct step_summary *ss = &s->steps[i];
		size_t cap = 0;
		double el = 0;
		for (size_t o = 0; o < occ[i].n; o++) {
			const struct step_result *sr = occ[i].r[o];
			if (sr->failed && !ss->failed) {
				ss->failed = true;
				ss->error = sr->error;
			}
			ss->skipped = o ? ss->skipped && sr->skipped : sr->skipped;
			if (sr->skipped && !ss->skip_reason)
				ss->skip_reason = sr->skip_reason;
			el += sr->elapsed;
			cap += sr->nm;
		}
		ss->elapsed = occ[i].n ? el / (double)occ[i].n : 0;
		ss->m = calloc(cap ? cap : 1, sizeof(*ss->m));
		if (!ss->m)
			goto oom;
		for (size_t o = 0; o < occ[i].n; o++) {
			const struct step_result *sr = occ[i].r[o];
			for (size_t k = 0; k < sr->nm; k++) {
				size_t j;
				for (j = 0; j < ss->nm; j++)
					if (strcmp(ss->m[j].name, sr->m[k].name) == 0)
						break;
				if (j == ss->nm) {
					struct metric_summary *ms = &ss->m[j];
					ms->name = sr->m[k].name;
					ms->unit = sr->m[k].unit ? sr->m[k].unit : "";
					ms->n = occ[i].n;
					ms->v = malloc(ms->n * sizeof(*ms->v));
					if (!ms->v)
						goto oom;
					for (size_t q = 0; q < ms->n; q++)
						ms->v[q] = NAN;
					ss->nm++;
				}
				ss->m[j].v[o] = sr->m[k].value;
			}
		}
		for (size_t j = 0; j < ss->nm; j++) {
			struct metric_summary *ms = &ss->m[j];
			stats_compute(ms->v, ms->n, &ms->st);
			stats_mean_ci(ms->v, ms->n, STATS_CI_LEVEL, &ms->ci_half);
			ms->med_lo = ms->med_hi = NAN;
			if (median_ci)
				stats_median_ci_bootstrap(ms->v, ms->n, STATS_CI_LEVEL, STATS_BOOT_SEED,
				                          STATS_BOOT_RESAMPLES, &ms->med_lo, &ms->med_hi);
			ms->warned = stats_check(ms->v, ms->n, ms->unit, &ms->warn);
		}
	}
	for (size_t i = 0; i < s->nsteps; i++)
		free(occ[i].r);
	free(occ);
	return s;
oom:
	if (occ)
		for (size_t i = 0; i < maxsteps; i++)
			free(occ[i].r);
	free(occ);
	cell_summary_free(s);
	return NULL;
}

const struct step_summary *cell_summary_step(const struct cell_summary *s, const char *step)
{
	for (size_t i = 0; s && i < s->nsteps; i++)
		if (strcmp(s->steps[i].step, step) == 0)
			return &s->steps[i];
	return NULL;
}

const struct metric_summary *cell_summary_metric(const struct cell_summary *s, const char *step,
                                                 const char *metric)
{
	const struct step_summary *ss = cell_summary_step(s, step);
	for (size_t i = 0; ss && i < ss->nm; i++)
		if (strcmp(ss->m[i].name, metric) == 0)
			return &ss->m[i];
	return NULL;
}

size_t step_headlines(const struct step_summary *ss, const struct metric_summary **out)
{
	/* The rule reads a step result: one with the summary's metric names
	 * and the first repetition's infos (a workload's rule reads its own). */
	struct step_result v;
	result_init(&v, ss->step, ss->workload);
	for (size_t j = 0; j < ss->nm; j++)
		result_metric(&v, ss->m[j].name, 0, "");
	for (size_t k = 0; ss->first && k < ss->first->ni; k++)
		result_info(&v, ss->first->info[k].key, "%s", ss->first->info[k].value);
	const char *names[HEADLINE_MAX];
	size_t nn = headline_names(&v, names, HEADLINE_MAX), n = 0;
	for (size_t i = 0; i < nn; i++)
		for (size_t j = 0; j < ss->nm; j++)
			if (!strcmp(ss->m[j].name, names[i])) {
				out[n++] = &ss->m[j];
				break;
			}
	result_free(&v);
	return n;
}

bool step_is_headline(const struct step_summary *ss, const char *metric)
{
	const struct metric_summary *h[HEADLINE_MAX];
	size_t n = step_headlines(ss, h);
	for (size_t i = 0; i < n; i++)
		if (strcmp(h[i]->name, metric) == 0)
			return true;
	return false;
}

size_t run_cell_warnings(const struct cell_summary *s, void (*fn)(void *arg, const char *msg), void *arg)
{
	size_t count = 0;
	/* One message per step, naming every metric concerned. */
	for (size_t i = 0; s && i < s->nsteps; i++) {
		const struct step_summary *ss = &s->steps[i];
		char *msg = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&msg, &len);
		size_t nout = 0, nslow = 0;
		if (!f)
			return count;
		fprintf(f, "%s:", ss->step);
		for (size_t j = 0; j < ss->nm; j++) {
			const struct metric_summary *ms = &ss->m[j];
			if (ms->warned && ms->warn.noutliers) {
				fprintf(f, "%s %s (sample %zu%s)", nout ? "," : " statistical outliers in",
				        ms->name, ms->warn.first_outlier + 1,
				        ms->warn.noutliers > 1 ? " and more" : "");
				nout++;
			}
		}
		if (nout)
			fputs(" (a busy machine? consider more repeats)", f);
		for (size_t j = 0; j < ss->nm; j++) {
			const struct metric_summary *ms = &ss->m[j];
			if (ms->warned && ms->warn.first_slow) {
				fprintf(f, "%s %s",
				        nslow  ? ","
				        : nout ? "; the first run was much slower in"
				               : " the first run was much slower in",
				        ms->name);
				nslow++;
			}
		}
		if (nslow)
			fputs(" (cold caches? consider `warmup:`)", f);
		fclose(f);
		if ((nout || nslow) && fn)
			fn(arg, msg);
		count += nout || nslow;
		free(msg);
		/* what the step itself warned of (its first repetition's): a
		 * fallback, figures that measure a cache */
		for (size_t k = 0; ss->first && k < ss->first->ni; k++) {
			const struct info *in = &ss->first->info[k];
			if (strcmp(in->key, "warning"))
				continue;
			char line[2048];
			snprintf(line, sizeof(line), "%s: %s", ss->step, in->value);
			if (fn)
				fn(arg, line);
			count++;
		}
	}
	return count;
}
