/* rep_md_noise: repetitions and noise in report.md (see rep_md_noise.h). */
#include "rep_md_noise.h"

#include <stdlib.h>
#include <string.h>

#include "rep_text.h"

#define NOISE_MAX_ROWS 40

static bool info_num(const struct step_result *r, const char *key, double *v)
{
	const char *s = result_info_get(r, key);
	char *end;
	if (!s)
		return false;
	*v = strtod(s, &end);
	return end != s;
}

void rep_md_noise_reasons(const struct step_result *r, char *buf, size_t len)
{
	size_t used = 0;
	double v, cpus = 1;
	buf[0] = 0;
#define ADD(...)                                                                                             \
	do {                                                                                                 \
		if (used < len)                                                                              \
			used += (size_t)snprintf(buf + used, len - used, "%s", used ? "; " : "");            \
		if (used < len)                                                                              \
			used += (size_t)snprintf(buf + used, len - used, __VA_ARGS__);                       \
	} while (0)
	if (info_num(r, "noise.foreign_cpu_pct", &v) && v > NOISE_FOREIGN_PCT) {
		const char *top = result_info_get(r, "noise.foreign_top");
		ADD("other processes used %.0f%% of the CPUs%s%s", v, top ? ", most " : "", top ? top : "");
	}
	if (info_num(r, "noise.steal_pct", &v) && v > NOISE_STEAL_PCT)
		ADD("CPU steal %.1f%%", v);
	if (info_num(r, "noise.psi_mem_some_avg10", &v) && v > NOISE_PSI_PCT)
		ADD("memory pressure (PSI some avg10) %.1f%%", v);
	info_num(r, "noise.cpus", &cpus);
	if (info_num(r, "noise.load1_start", &v) && v > NOISE_LOAD_PER_CPU * cpus)
		ADD("load average %.2f on %.0f CPUs at the start", v, cpus);
#undef ADD
}

static void section_repetitions(struct rep_ctx *cx, FILE *f)
{
	const struct run *r = cx->run;
	bool any = false;
	char label[512];
	for (size_t i = 0; i < r->ncells; i++) {
		const struct run_cell *c = &r->cells[i];
		const char *stopped = result_info_get(&c->facts, "repeat.stopped");
		const char *partial = result_info_get(&c->facts, "repeat.partial");
		if (!stopped && !partial)
			continue;
		if (!any)
			fputs("## Repetitions\n\n| cell | runs | stopped | widest 95% CI of the mean "
			      "|\n|---|---|---|---|\n",
			      f);
		any = true;
		run_cell_label(c, label, sizeof(label));
		fprintf(f, "| %zu ", c->index);
		rep_md_cell(f, label);
		fprintf(f, " | %zu | ", c->nreps);
		rep_md_cell(f, stopped ? stopped : "unfinished (run interrupted)");
		fputs(" | ", f);
		const char *ci = result_info_get(&c->facts, "repeat.ci_pct");
		if (ci) {
			rep_md_cell(f, "±");
			rep_md_cell(f, ci);
		}
		fputs(" |\n", f);
	}
	if (any)
		fputs("\nCI: the half-width as a percent of the mean, of the metric named.\n\n", f);
}

void rep_md_noise(struct rep_ctx *cx, struct md *m)
{
	const struct run *r = cx->run;
	FILE *f = m->rf.f;
	section_repetitions(cx, f);
	size_t rows = 0;
	char why[1024], label[512];
	for (size_t i = 0; i < r->ncells; i++) {
		const struct run_cell *c = &r->cells[i];
		for (size_t k = 0; k < c->nreps; k++)
			for (size_t s = 0; s < c->reps[k].nsteps; s++) {
				const struct step_result *st = &c->reps[k].steps[s];
				rep_md_noise_reasons(st, why, sizeof(why));
				if (!why[0])
					continue;
				if (rows == 0)
					fputs("## Noise\n\nThe machine was busy with other work during these "
					      "steps: "
					      "their figures may be off.\n\n| cell | rep | step | what "
					      "|\n|---|---|---|---|\n",
					      f);
				if (++rows > NOISE_MAX_ROWS)
					continue;
				run_cell_label(c, label, sizeof(label));
				fprintf(f, "| %zu ", c->index);
				rep_md_cell(f, label);
				fprintf(f, " | %zu | ", k + 1);
				rep_md_cell(f, st->step ? st->step : "");
				fputs(" | ", f);
				rep_md_cell(f, why);
				fputs(" |\n", f);
			}
	}
	if (rows > NOISE_MAX_ROWS)
		fprintf(f, "\nand %zu more noisy steps (the noise.* info of results.json).\n",
		        rows - NOISE_MAX_ROWS);
	if (rows)
		fputc('\n', f);
}
