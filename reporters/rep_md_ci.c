/* rep_md_ci: the confidence intervals of the headline metrics (see rep_md_ci.h). */
#include "rep_md_ci.h"

#include <math.h>

#include "rep_fmt.h"
#include "rep_text.h"

/* Is there any headline metric with 2 samples or more? */
static bool any_interval(const struct rep_ctx *cx)
{
	for (size_t i = 0; i < cx->run->ncells; i++) {
		const struct cell_summary *s = cx->sum[i];
		for (size_t k = 0; s && k < s->nsteps; k++) {
			const struct metric_summary *h[HEADLINE_MAX];
			size_t nh = step_headlines(&s->steps[k], h);
			for (size_t j = 0; j < nh; j++)
				if (h[j]->st.n >= 2)
					return true;
		}
	}
	return false;
}

static void ci_row(FILE *f, const struct md *m, const struct run_cell *c, const char *step,
                   const struct metric_summary *ms)
{
	char a[32], b[32], lo[32], hi[32];
	fprintf(f, "| %zu |", c->index);
	rep_md_param_cells(m, f, c, &m->vary);
	fputc(' ', f);
	rep_md_cell(f, step);
	fputc('.', f);
	rep_md_cell(f, ms->name);
	if (*ms->unit) {
		fputs(" (", f);
		rep_md_cell(f, ms->unit);
		fputc(')', f);
	}
	rep_fmt_human(ms->st.mean, a, sizeof(a));
	rep_fmt_human(ms->ci_half, b, sizeof(b));
	fprintf(f, " | %zu | %s", ms->st.n, *a ? a : "-");
	if (ms->st.n == 2) { /* t's interval from 2 samples is wider than the data */
		rep_fmt_human(ms->st.min, lo, sizeof(lo));
		rep_fmt_human(ms->st.max, hi, sizeof(hi));
		fprintf(f, " (range %s to %s; n < 3: no interval)", lo, hi);
	} else if (isfinite(ms->ci_half)) {
		fprintf(f, " ± %s", b);
	} else {
		fputs(" (n < 2: no interval)", f);
	}
	rep_fmt_human(ms->st.median, a, sizeof(a));
	rep_fmt_human(ms->med_lo, lo, sizeof(lo));
	rep_fmt_human(ms->med_hi, hi, sizeof(hi));
	fprintf(f, " | %s | ", *a ? a : "-");
	if (isfinite(ms->med_lo) && isfinite(ms->med_hi))
		fprintf(f, "%s to %s |\n", lo, hi);
	else
		fputs("not meaningful (n < 5) |\n", f);
}

void rep_md_ci(struct rep_ctx *cx, struct md *m)
{
	FILE *f = m->rf.f;
	if (!any_interval(cx))
		return;
	fputs("## Confidence intervals\n\n95% intervals of each step's headline metrics: the mean "
	      "± the half-width of its interval (Student's t, n >= 3; for 2 samples their range), the "
	      "median's interval by a "
	      "seeded percentile bootstrap (n >= 5; with fewer repetitions it is not meaningful). "
	      "See docs/statistics.md.\n\n| # |",
	      f);
	rep_md_param_heads(f, &m->vary);
	fputs(" metric | n | mean ± 95% CI | median | median 95% CI |\n", f);
	rep_md_row_sep(f, 6 + m->vary.n);
	for (size_t i = 0; i < cx->run->ncells; i++) {
		const struct cell_summary *s = cx->sum[i];
		for (size_t k = 0; s && k < s->nsteps; k++) {
			const struct metric_summary *h[HEADLINE_MAX];
			size_t nh = step_headlines(&s->steps[k], h);
			for (size_t j = 0; j < nh; j++)
				ci_row(f, m, &cx->run->cells[i], s->steps[k].step, h[j]);
		}
	}
	fputc('\n', f);
}
