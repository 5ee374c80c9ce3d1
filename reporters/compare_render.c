/* compare_render: verdicts and the table of a comparison (see compare_render.h). */
#include "compare_render.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare_metric.h"
#include "grow.h"
#include "rep_fmt.h"
#include "rep_text.h"

struct cmp_row {
	size_t pair;
	char ref[300]; /* step.metric */
	const char *unit;
	bool headline; /* one of its step's headline metrics: decides the verdict line */
	struct cmp_metric m;
};

struct rows {
	struct cmp_row *v;
	size_t n, cap;
};

static struct cmp_row *rows_add(struct rows *r)
{
	if (GROW(r->v, r->cap, r->n + 1, 64) < 0)
		return NULL;
	return &r->v[r->n++];
}

/* The rows of one pair: every metric both cells have (or the headline
 * ones of A's steps). */
static int pair_rows(const struct cmp_pair *p, size_t pi, const struct compare_opts *o, struct rows *rows)
{
	/* The ratio's interval is computed here; the medians' own are not needed. */
	struct cell_summary *sa = run_cell_summarize_opt(p->a, false),
	                    *sb = run_cell_summarize_opt(p->b, false);
	int rc = sa && sb ? 0 : -ENOMEM;
	for (size_t s = 0; rc == 0 && s < sa->nsteps; s++) {
		const struct step_summary *ss = &sa->steps[s];
		for (size_t k = 0; rc == 0 && k < ss->nm; k++) {
			const struct metric_summary *ma = &ss->m[k];
			const struct metric_summary *mb = cell_summary_metric(sb, ss->step, ma->name);
			if (!mb || (!o->all && !step_is_headline(ss, ma->name)))
				continue;
			struct cmp_row *r = rows_add(rows);
			if (!r) {
				rc = -ENOMEM;
				break;
			}
			r->pair = pi;
			snprintf(r->ref, sizeof(r->ref), "%s.%s", ss->step, ma->name);
			r->unit = ma->unit;
			r->headline = step_is_headline(ss, ma->name);
			cmp_metric_compute(ma->v, ma->n, mb->v, mb->n, ma->unit, o->alpha, &r->m);
		}
	}
	cell_summary_free(sa);
	cell_summary_free(sb);
	return rc;
}

static void fmt_p(double p, char *buf, size_t len)
{
	if (!isfinite(p))
		snprintf(buf, len, "-");
	else if (p < 0.0001)
		snprintf(buf, len, "<0.0001");
	else
		snprintf(buf, len, "%.2g", p);
}

/* "ro.tps -15.0% (p = 0.008)" */
static void change_text(FILE *out, const struct cmp_row *r)
{
	char p[32];
	fmt_p(r->m.p, p, sizeof(p));
	rep_md_cell(out, r->ref);
	if (isfinite(r->m.ratio))
		fprintf(out, " %+.1f%%", (r->m.ratio - 1) * 100);
	else if (r->m.med_a == 0 && r->m.med_b != 0) {
		char vb[64];
		rep_fmt_human(r->m.med_b, vb, sizeof(vb));
		fprintf(out, " from 0 to %s", vb);
	}
	fprintf(out, " (p %s%s)", *p == '<' ? "" : "= ", p);
}

/* One line per pair from its headline metrics (testing every metric of a
 * step would turn up a false difference in one of 20 at alpha 0.05): the
 * verdict, then the significant changes, worst news first. */
static void verdict_lines(FILE *out, const struct cmp_pair *p, size_t n, const struct rows *rows)
{
	static const enum cmp_verdict order[] = {CMP_SLOWER, CMP_FASTER, CMP_HIGHER, CMP_LOWER};
	fputs("## Verdicts\n\n", out);
	for (size_t i = 0; i < n; i++) {
		size_t cnt[CMP_UNTESTED + 1] = {0}, total = 0;
		for (size_t k = 0; k < rows->n; k++)
			if (rows->v[k].pair == i && rows->v[k].headline) {
				cnt[rows->v[k].m.verdict]++;
				total++;
			}
		const char *word = "no significant difference";
		bool one_way = false;
		if (cnt[CMP_SLOWER] && cnt[CMP_FASTER])
			word = "**mixed**";
		else if (cnt[CMP_SLOWER] || cnt[CMP_FASTER]) {
			word = cnt[CMP_SLOWER] ? "**slower**" : "**faster**";
			one_way = true;
		} else if (cnt[CMP_HIGHER] || cnt[CMP_LOWER])
			word = "**different**";
		else if (total && cnt[CMP_UNTESTED] == total)
			word = "too few repetitions to test (n < 2)";
		else if (!total)
			word = "no shared headline metric";
		fprintf(out, "- %s: %s", p[i].label, word);
		const char *sep = ": ";
		for (size_t o = 0; o < sizeof(order) / sizeof(order[0]); o++)
			for (size_t k = 0; k < rows->n; k++) {
				const struct cmp_row *r = &rows->v[k];
				if (r->pair != i || !r->headline || r->m.verdict != order[o])
					continue;
				fputs(sep, out);
				/* a higher/lower row is named even beside faster/slower ones */
				if (!one_way || order[o] == CMP_HIGHER || order[o] == CMP_LOWER)
					fprintf(out, "%s ", cmp_verdict_name(order[o]));
				change_text(out, r);
				sep = "; ";
			}
		fputc('\n', out);
	}
	fputc('\n', out);
}

static void table(FILE *out, const struct cmp_pair *p, const struct rows *rows, const char *head,
                  size_t ncols)
{
	char va[64], vb[64], vr[64], pv[32];
	bool welch = false, none = false;
	fprintf(out, "## Metrics\n\n| %s | metric | A | B | n | B/A | 95%% CI | p | test | verdict |\n|",
	        head);
	for (size_t i = 0; i < ncols + 9; i++)
		fputs("---|", out);
	fputc('\n', out);
	for (size_t k = 0; k < rows->n; k++) {
		const struct cmp_row *r = &rows->v[k];
		rep_fmt_human(r->m.med_a, va, sizeof(va));
		rep_fmt_human(r->m.med_b, vb, sizeof(vb));
		if (isfinite(r->m.ratio))
			snprintf(vr, sizeof(vr), "%.3f", r->m.ratio);
		else
			snprintf(vr, sizeof(vr), "-");
		fmt_p(r->m.p, pv, sizeof(pv));
		fprintf(out, "| %s | ", p[r->pair].row_head);
		rep_md_cell(out, r->ref);
		if (r->unit && *r->unit) {
			fputs(" (", out);
			rep_md_cell(out, r->unit);
			fputs(")", out);
		}
		fprintf(out, " | %s | %s | %zu/%zu | %s | ", *va ? va : "-", *vb ? vb : "-", r->m.na, r->m.nb,
		        vr);
		if (isfinite(r->m.lo) && isfinite(r->m.hi))
			fprintf(out, "%.3f-%.3f", r->m.lo, r->m.hi);
		else
			fputs("-", out);
		fprintf(out, " | %s | %s%s | %s |\n", pv, cmp_test_name(r->m.test),
		        r->m.test == CMP_TEST_WELCH ? "*" : "", cmp_verdict_name(r->m.verdict));
		welch |= r->m.test == CMP_TEST_WELCH;
		none |= r->m.test == CMP_TEST_NONE;
	}
	fputc('\n', out);
	if (welch)
		fprintf(out,
		        "\\* Welch's t: fewer than %d repetitions on a side. It assumes normally "
		        "distributed samples; a rank test cannot be significant with so few (3 against "
		        "3: p >= 0.1). `repeat: 5` or more gives the Mann-Whitney U test and the "
		        "interval of B/A.\n\n",
		        CMP_MW_MIN_N);
	if (none)
		fputs("A metric with fewer than 2 repetitions on a side has no test (`repeat:`).\n\n", out);
}

/* The fair single figure for "B is x times A" per metric: the geometric
 * mean of the positive ratios over the pairs. */
static void geo_means(FILE *out, const struct rows *rows)
{
	bool any = false;
	for (size_t k = 0; k < rows->n; k++) {
		bool first = true;
		for (size_t j = 0; j < k; j++)
			first &= strcmp(rows->v[j].ref, rows->v[k].ref) != 0;
		if (!first)
			continue;
		double logsum = 0;
		size_t n = 0;
		for (size_t j = k; j < rows->n; j++) {
			double r = rows->v[j].m.ratio;
			if (strcmp(rows->v[j].ref, rows->v[k].ref) == 0 && r > 0 && isfinite(r)) {
				logsum += log(r);
				n++;
			}
		}
		if (!any)
			fputs("## Geometric mean of B/A per metric\n\n| metric | cells | B/A "
			      "|\n|---|---|---|\n",
			      out);
		any = true;
		fputs("| ", out);
		rep_md_cell(out, rows->v[k].ref);
		if (n)
			fprintf(out, " | %zu | %.3f |\n", n, exp(logsum / (double)n));
		else
			fputs(" | 0 | - |\n", out);
	}
	if (any)
		fputc('\n', out);
}

static bool threshold(FILE *out, const struct cmp_pair *p, const struct rows *rows,
                      const struct compare_opts *o)
{
	size_t nf = 0;
	for (size_t k = 0; k < rows->n; k++)
		nf += cmp_metric_fails(&rows->v[k].m, o->fail_above);
	fprintf(out, "## Threshold\n\n");
	if (!nf) {
		fprintf(out, "- Pass: no metric got worse by more than %g%% with p < %g\n\n",
		        o->fail_above * 100, o->alpha);
		return false;
	}
	fprintf(out, "- **Fail:** %zu metric%s got worse by more than %g%% with p < %g:\n", nf,
	        nf == 1 ? "" : "s", o->fail_above * 100, o->alpha);
	for (size_t k = 0; k < rows->n; k++)
		if (cmp_metric_fails(&rows->v[k].m, o->fail_above)) {
			fprintf(out, "  - %s: ", p[rows->v[k].pair].label);
			change_text(out, &rows->v[k]);
			if (isfinite(rows->v[k].m.worse))
				fprintf(out, ", %.1f%% worse\n", rows->v[k].m.worse * 100);
			else
				fputs(", worse from 0\n", out);
		}
	fputc('\n', out);
	return true;
}

int cmp_render(FILE *out, const struct cmp_pair *p, size_t n, const struct compare_opts *o, const char *head,
               size_t ncols, bool *failed)
{
	struct rows rows = {0};
	int rc = 0;
	if (failed)
		*failed = false;
	for (size_t i = 0; rc == 0 && i < n; i++)
		rc = pair_rows(&p[i], i, o, &rows);
	if (rc < 0) {
		free(rows.v);
		return rc;
	}
	fprintf(out,
	        "- Statistics: A and B are medians over the repetitions; B/A is their ratio with its "
	        "95%% bootstrap interval (n >= %d on each side); p from the Mann-Whitney U test (n >= "
	        "%d on each side, else Welch's t); significant when p < %g "
	        "(docs/statistics.md)\n- Metrics: %s\n\n",
	        CMP_MW_MIN_N, CMP_MW_MIN_N, o->alpha,
	        o->all ? "all" : "each step's headline metrics (`--all` for every metric)");
	if (n) {
		verdict_lines(out, p, n, &rows);
		table(out, p, &rows, head, ncols);
		geo_means(out, &rows);
	}
	if (isfinite(o->fail_above)) {
		bool f = threshold(out, p, &rows, o);
		if (failed)
			*failed = f;
	}
	free(rows.v);
	return 0;
}

void cmp_pairs_free(struct cmp_pair *p, size_t n)
{
	for (size_t i = 0; p && i < n; i++) {
		free(p[i].label);
		free(p[i].row_head);
	}
	free(p);
}

void cmp_md_id(FILE *f, const char *id, bool code)
{
	size_t n = strlen(id);
	bool plain = n > 0;
	for (size_t i = 0; i < n; i++)
		plain &= (id[i] >= '0' && id[i] <= '9') || (id[i] >= 'a' && id[i] <= 'z') ||
		         (id[i] >= 'A' && id[i] <= 'Z') || id[i] == '_' || id[i] == '-';
	if (plain) {
		fprintf(f, code ? "`%s`" : "%s", id);
		return;
	}
	rep_md_text(f, id); /* escapes ` and \ too */
}
