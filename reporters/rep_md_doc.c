/* rep_md_doc: the helpers of report.md's sections (see rep_md_doc.h). */
#include "rep_md_doc.h"

#include <math.h>

#include "diag.h"
#include "rep_fmt.h"
#include "rep_text.h"

void rep_md_fmt_metric(const struct metric_summary *m, char *buf, size_t len)
{
	char a[32], b[32];
	rep_fmt_human(m->st.mean, a, sizeof(a));
	if (m->st.n == 2 && isfinite(m->st.min) && isfinite(m->st.max)) {
		/* two samples: their range (a t interval of 2 is 12.7 standard errors) */
		char lo[32], hi[32];
		rep_fmt_human(m->st.min, lo, sizeof(lo));
		rep_fmt_human(m->st.max, hi, sizeof(hi));
		snprintf(buf, len, "%s (%s to %s)", a, lo, hi);
	} else if (m->st.n > 2 && isfinite(m->ci_half)) {
		rep_fmt_human(m->ci_half, b, sizeof(b));
		snprintf(buf, len, "%s ± %s", a, b);
	} else {
		snprintf(buf, len, "%s", a);
	}
}

void rep_md_param_heads(FILE *f, const struct rep_strs *names)
{
	for (size_t k = 0; k < names->n; k++) {
		fputc(' ', f);
		rep_md_cell(f, names->v[k]);
		fputs(" |", f);
	}
}

void rep_md_param_cells(const struct md *m, FILE *f, const struct run_cell *c, const struct rep_strs *names)
{
	for (size_t k = 0; k < names->n; k++) {
		const char *v = run_cell_param(c, names->v[k]);
		fputc(' ', f);
		rep_md_mark_param(m, f, v);
		rep_md_cell(f, v ? v : "");
		fputs(" |", f);
	}
}

void rep_md_row_sep(FILE *f, size_t ncols)
{
	fputc('|', f);
	for (size_t i = 0; i < ncols; i++)
		fputs("---|", f);
	fputc('\n', f);
}

void rep_md_head_rest(FILE *f, char *const *cells, size_t n)
{
	for (size_t k = 0; k < n; k++) {
		fputc(' ', f);
		rep_md_cell(f, cells[k]);
		fputs(" |", f);
	}
	fputc('\n', f);
	rep_md_row_sep(f, n + 1);
}

bool rep_md_param_known(const struct md *m, const char *p)
{
	return p && rep_strs_find(&m->params, p) >= 0;
}

void rep_md_unknown_param(struct md *m, struct rep_ctx *cx, const struct node *cfg, const char *key,
                          const char *p)
{
	const struct node *n = node_get(cfg, key);
	diag_error(cx->d, n ? &n->pos : &cfg->pos, "report: '%s' is not a parameter of this run", p);
	fputs("*(skipped: '", m->rf.f);
	rep_md_text(m->rf.f, p);
	fputs("' is not a parameter of this run)*\n\n", m->rf.f);
	m->bad_config = true;
}

void rep_md_group_values(const struct run *r, const struct rep_group *g, const char *param,
                         struct rep_strs *out)
{
	for (size_t i = 0; param && i < g->n; i++)
		rep_strs_add(out, run_cell_param(&r->cells[g->cells[i]], param));
	rep_strs_sort_values(out);
}

const char *rep_md_unit_of(struct rep_ctx *cx, const char *step, const char *metric)
{
	for (size_t i = 0; i < cx->run->ncells; i++) {
		const struct metric_summary *ms = cell_summary_metric(cx->sum[i], step, metric);
		if (ms)
			return ms->unit;
	}
	return "";
}

void rep_md_mark(const struct md *m, FILE *f, const char *kind, const char *text)
{
	if (m->html)
		fprintf(f, "\x01%s%s%s\x02", kind, text ? ":" : "", text ? text : "");
}

void rep_md_mark_value(const struct md *m, FILE *f, double v)
{
	char buf[40];
	if (!m->html || !isfinite(v))
		return;
	rep_fmt_exact(v, buf, sizeof(buf));
	rep_md_mark(m, f, "v", buf);
}

void rep_md_mark_cell(const struct md *m, FILE *f, long n)
{
	char buf[32];
	if (!m->html || n < 0)
		return;
	snprintf(buf, sizeof(buf), "%ld", n);
	rep_md_mark(m, f, "a", buf);
}

void rep_md_mark_param(const struct md *m, FILE *f, const char *value)
{
	double v;
	if (m->html && value && rep_value_number(value, &v))
		rep_md_mark_value(m, f, v);
}
