/* compare_render: verdicts and the table of a comparison (see compare_render.h). */
#include "compare_render.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare_chart.h"
#include "compare_metric.h"
#include "grow.h"
#include "rep_fmt.h"
#include "rep_text.h"
#include "stats.h"

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

/* The cell summaries of one side of a pair (one per run). */
struct side {
	struct cell_summary **s;
	size_t n;
};

static int side_load(struct side *sd, const struct run_cell *first, const struct run_cell *const *cells,
                     size_t n)
{
	if (!cells) {
		cells = &first;
		n = 1;
	}
	sd->n = 0;
	sd->s = calloc(n, sizeof(*sd->s));
	if (!sd->s)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		/* The ratio's interval is computed here; the medians' own are not needed. */
		sd->s[i] = run_cell_summarize_opt(cells[i], false);
		if (!sd->s[i])
			return -ENOMEM;
		sd->n++;
	}
	return 0;
}

static void side_free(struct side *sd)
{
	for (size_t i = 0; i < sd->n; i++)
		cell_summary_free(sd->s[i]);
	free(sd->s);
}

/* Every repetition of step.metric over the side's runs into *v (NaN-free
 * order kept), and each run's median into run[] (*k of them). */
static int side_values(const struct side *sd, const char *step, const char *metric, double **v, size_t *n,
                       double *run, size_t *k)
{
	size_t total = 0;
	*v = NULL;
	*n = *k = 0;
	for (size_t i = 0; i < sd->n; i++) {
		const struct metric_summary *m = cell_summary_metric(sd->s[i], step, metric);
		total += m ? m->n : 0;
	}
	*v = malloc((total ? total : 1) * sizeof(double));
	if (!*v)
		return -ENOMEM;
	for (size_t i = 0; i < sd->n; i++) {
		const struct metric_summary *m = cell_summary_metric(sd->s[i], step, metric);
		if (!m)
			continue;
		memcpy(*v + *n, m->v, m->n * sizeof(double));
		*n += m->n;
		double med = stats_median(m->v, m->n);
		if (isfinite(med))
			run[(*k)++] = med;
	}
	return 0;
}

/* The earlier runs of cell `id` (on host) from the store into g; g->n = 0
 * when there is no store or it could not answer. Only runs started before
 * p->hist->before, the baseline's start (compare A B: A's first run; --by:
 * the run itself): runs between A and B may be of B's code. */
static void hist_group(const struct cmp_pair *p, const struct compare_opts *o, const struct run_cell *c,
                       const char *host, const char *step, const char *metric, struct stats_group *g,
                       double **keep)
{
	*g = (struct stats_group){0};
	*keep = NULL;
	if (!o->history || !p->hist || !p->hist->scenario || !host)
		return;
	struct cmp_hist_key k = {.scenario = p->hist->scenario,
	                         .cell_id = c->id,
	                         .host = host,
	                         .fingerprint = result_info_get(&c->facts, "fingerprint"),
	                         .step = step,
	                         .metric = metric,
	                         .before = p->hist->before,
	                         .skip = p->hist->skip,
	                         .nskip = p->hist->nskip,
	                         .max = o->window};
	double *v = NULL;
	size_t n = 0;
	if (o->history->values(o->history->ctx, &k, &v, &n) < 0) {
		free(v);
		return;
	}
	*keep = v;
	*g = (struct stats_group){v, n};
}

/* One row: the within-run judgement on every repetition, replaced by the
 * between-run one when a spread between runs is known. */
static int row_judge(const struct cmp_pair *p, const struct compare_opts *o, const struct side *A,
                     const struct side *B, const char *step, const char *metric, const char *unit,
                     struct cmp_metric *m)
{
	double *va = NULL, *vb = NULL, *h[2] = {NULL, NULL};
	double *ra = malloc((A->n + 1) * sizeof(double)), *rb = malloc((B->n + 1) * sizeof(double));
	size_t na, nb, ka, kb;
	int rc = ra && rb ? 0 : -ENOMEM;
	if (rc == 0)
		rc = side_values(A, step, metric, &va, &na, ra, &ka);
	if (rc == 0)
		rc = side_values(B, step, metric, &vb, &nb, rb, &kb);
	if (rc == 0) {
		cmp_metric_compute(va, na, vb, nb, unit, o->alpha, m);
		struct stats_group g[2];
		size_t ng = 0;
		/* the baseline's (A's) earlier runs: its host, its configuration */
		hist_group(p, o, p->a, p->host_a, step, metric, &g[0], &h[0]);
		ng += g[0].v != NULL;
		/* --by: the two cells differ; each brings its own earlier runs */
		if (ng && strcmp(p->a->id, p->b->id) != 0) {
			hist_group(p, o, p->b, p->host_b, step, metric, &g[1], &h[1]);
			ng += g[1].v != NULL;
			if (ng < 2)
				ng = 0;
		}
		cmp_metric_between(m, ra, ka, rb, kb, ng ? g : NULL, ng, o->alpha);
	}
	free(va);
	free(vb);
	free(ra);
	free(rb);
	free(h[0]);
	free(h[1]);
	return rc;
}

/* The rows of one pair: every metric both cells have (or the headline
 * ones of A's steps). */
static int pair_rows(const struct cmp_pair *p, size_t pi, const struct compare_opts *o, struct rows *rows)
{
	struct side A = {0}, B = {0};
	int rc = side_load(&A, p->a, p->as, p->nas);
	if (rc == 0)
		rc = side_load(&B, p->b, p->bs, p->nbs);
	const struct cell_summary *sa = rc == 0 ? A.s[0] : NULL, *sb = rc == 0 ? B.s[0] : NULL;
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
			rc = row_judge(p, o, &A, &B, ss->step, ma->name, ma->unit, &r->m);
			if (rc == 0 && o->html)
				rc = cmp_html_row(o->html, pi, ss->step, ma->name, ma->unit, r->headline,
				                  &r->m);
		}
	}
	side_free(&A);
	side_free(&B);
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

/* The noise of a row, for the table's test column and the threshold's
 * list: "within run", "store: 5 runs",
 * "runs: 3+3", "store: 5 runs, runs: 3+3". */
static void noise_cell(FILE *out, const struct cmp_metric *m)
{
	if (m->noise == CMP_NOISE_WITHIN) {
		fputs("within run", out);
		return;
	}
	if (m->noise == CMP_NOISE_STORE)
		fprintf(out, "store: %zu runs", m->nhist);
	if (m->runs_a > 1 || m->runs_b > 1)
		fprintf(out, "%sruns: %zu+%zu", m->noise == CMP_NOISE_STORE ? ", " : "", m->runs_a,
		        m->runs_b);
}

/* " (within-run noise only)", " (between runs: 5 earlier runs in the
 * store)", ...: which noise the pair's headline metrics were judged
 * against, after its verdict word. */
static void noise_phrase(FILE *out, const struct rows *rows, size_t pair)
{
	const struct cmp_metric *first = NULL;
	bool mixed = false;
	for (size_t k = 0; k < rows->n; k++) {
		const struct cmp_row *r = &rows->v[k];
		if (r->pair != pair || !r->headline || r->m.test == CMP_TEST_NONE)
			continue;
		if (!first)
			first = &r->m;
		else if (r->m.noise != first->noise || r->m.nhist != first->nhist)
			mixed = true;
	}
	if (!first)
		return;
	if (mixed) {
		fputs(" (noise: differs between the metrics, see the table)", out);
		return;
	}
	if (first->noise == CMP_NOISE_WITHIN) {
		fputs(" (within-run noise only)", out);
		return;
	}
	fputs(" (between runs: ", out);
	if (first->noise == CMP_NOISE_STORE)
		fprintf(out, "%zu earlier run%s in the store", first->nhist, first->nhist == 1 ? "" : "s");
	if (first->runs_a > 1 || first->runs_b > 1)
		fprintf(out, "%sthe %zu+%zu runs compared", first->noise == CMP_NOISE_STORE ? ", " : "",
		        first->runs_a, first->runs_b);
	fputc(')', out);
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
		noise_phrase(out, rows, i);
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
		/* the test and the noise it judged against: "U (within run)" */
		fprintf(out, " | %s | %s%s", pv, cmp_test_name(r->m.test),
		        r->m.test == CMP_TEST_WELCH ? "*" : "");
		if (r->m.test != CMP_TEST_NONE) {
			fputs(" (", out);
			noise_cell(out, &r->m);
			fputc(')', out);
		}
		fprintf(out, " | %s |\n", cmp_verdict_name(r->m.verdict));
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

/* "  - label: ro.tps -60.0% (p = 0.0012), 60.0% worse" */
static void threshold_item(FILE *out, const struct cmp_pair *p, const struct cmp_row *r)
{
	fprintf(out, "  - %s: ", p[r->pair].label);
	change_text(out, r);
	if (isfinite(r->m.worse))
		fprintf(out, ", %.1f%% worse", r->m.worse * 100);
	else
		fputs(", worse from 0", out);
	fputs(" (noise: ", out);
	noise_cell(out, &r->m);
	fputs(")\n", out);
}

/* The gate: metrics worse by more than the threshold with significance
 * fail it when judged against the noise between runs (or trusted); those
 * judged against within-run noise only are listed and held. The gate
 * judges many metrics at once (cells x headline metrics), each at alpha
 * alone would fail an unchanged pair more often the more cells it has:
 * Holm-Bonferroni across the metrics it judges keeps the chance of any
 * false fail at alpha. Each row keeps its own p and verdict. */
static int threshold(FILE *out, const struct cmp_pair *p, const struct rows *rows,
                     const struct compare_opts *o, struct cmp_outcome *res)
{
	double *pv = malloc((rows->n + 1) * sizeof(double));
	bool *rej = malloc((rows->n + 1) * sizeof(bool)), *pass = calloc(rows->n + 1, sizeof(bool));
	if (!pv || !rej || !pass) {
		free(pv);
		free(rej);
		free(pass);
		return -ENOMEM;
	}
	size_t fam = 0;
	for (size_t k = 0; k < rows->n; k++)
		if (cmp_metric_gate_judged(&rows->v[k].m, o->trust_within))
			pv[fam++] = rows->v[k].m.p;
	cmp_holm(pv, fam, o->alpha, rej);
	size_t nf = 0, nh = 0, nc = 0;
	for (size_t k = 0, j = 0; k < rows->n; k++) {
		const struct cmp_metric *m = &rows->v[k].m;
		bool judged = cmp_metric_gate_judged(m, o->trust_within);
		bool held_by_holm = judged && !rej[j];
		j += judged;
		bool gates = cmp_metric_gates(m, o->fail_above, o->trust_within);
		pass[k] = gates && !held_by_holm;
		nf += pass[k];
		nc += gates && held_by_holm;
		nh += cmp_metric_fails(m, o->fail_above) && !gates;
	}
	fprintf(out, "## Threshold\n\n");
	fprintf(out,
	        "- Multiple tests: the gate judges %zu metric%s; Holm-Bonferroni across them keeps the "
	        "chance of failing an unchanged pair at %g (a metric fails when it is worse by more "
	        "than %g%% and its p is below alpha over the number of metrics not yet failed; the "
	        "table keeps each metric's own p)\n",
	        fam, fam == 1 ? "" : "s", o->alpha, o->fail_above * 100);
	if (!nf)
		fprintf(out, "- Pass: no metric got worse by more than %g%% with p < %g (Holm-Bonferroni)\n",
		        o->fail_above * 100, o->alpha);
	else
		fprintf(
		    out,
		    "- **Fail:** %zu metric%s got worse by more than %g%% with p < %g (Holm-Bonferroni):\n",
		    nf, nf == 1 ? "" : "s", o->fail_above * 100, o->alpha);
	for (size_t k = 0; k < rows->n; k++)
		if (pass[k])
			threshold_item(out, p, &rows->v[k]);
	if (nc) {
		fprintf(out,
		        "- **Not failed (multiple tests):** %zu metric%s got worse by more than %g%% with "
		        "p < %g on %s own, but not after Holm-Bonferroni across the %zu metrics judged:\n",
		        nc, nc == 1 ? "" : "s", o->fail_above * 100, o->alpha, nc == 1 ? "its" : "their",
		        fam);
		for (size_t k = 0; k < rows->n; k++)
			if (!pass[k] && cmp_metric_gates(&rows->v[k].m, o->fail_above, o->trust_within))
				threshold_item(out, p, &rows->v[k]);
	}
	if (nh) {
		fprintf(out,
		        "- **Not failed:** %zu metric%s got worse by more than %g%% with p < %g against "
		        "within-run noise only, which understates the noise between runs: no spread between "
		        "runs is known for %s (see Noise above; `--trust-within-run-noise` fails on %s):\n",
		        nh, nh == 1 ? "" : "s", o->fail_above * 100, o->alpha, nh == 1 ? "it" : "them",
		        nh == 1 ? "it" : "them");
		for (size_t k = 0; k < rows->n; k++)
			if (cmp_metric_fails(&rows->v[k].m, o->fail_above) &&
			    !cmp_metric_gates(&rows->v[k].m, o->fail_above, o->trust_within))
				threshold_item(out, p, &rows->v[k]);
	}
	fputc('\n', out);
	if (res) {
		res->failed = nf > 0;
		res->held = nh;
	}
	free(pv);
	free(rej);
	free(pass);
	return 0;
}

/* The lines on the statistics and on which noise judged the metrics. */
static void noise_lines(FILE *out, const struct rows *rows, const struct compare_opts *o)
{
	size_t nw = 0, ns = 0, nr = 0, tested = 0;
	for (size_t k = 0; k < rows->n; k++) {
		const struct cmp_metric *m = &rows->v[k].m;
		if (m->test == CMP_TEST_NONE)
			continue;
		tested++;
		nw += m->noise == CMP_NOISE_WITHIN;
		ns += m->noise == CMP_NOISE_STORE;
		nr += m->noise == CMP_NOISE_RUNS;
	}
	fprintf(out,
	        "- Statistics: A and B are medians over the repetitions (with several runs on a side, "
	        "the geometric mean of the runs' medians); B/A is their ratio with its 95%% interval; "
	        "significant when p < %g (docs/statistics.md)\n",
	        o->alpha);
	if (ns)
		fprintf(
		    out,
		    "- Noise: %zu of %zu metrics judged against the spread between runs: the same cell's "
		    "earlier runs on the same host in the results store%s%s%s (at least %d, the latest %zu; "
		    "Student's t of each run's median on a log scale: `t` in the table)\n",
		    ns, tested, o->history && o->history->where ? " (" : "",
		    o->history && o->history->where ? o->history->where : "",
		    o->history && o->history->where ? ")" : "", CMP_HIST_MIN, o->window);
	if (nr)
		fprintf(
		    out,
		    "- Noise: %zu of %zu metrics judged against the spread between the runs given on each "
		    "side (Student's t of each run's median on a log scale: `t` in the table)\n",
		    nr, tested);
	if (nw)
		fprintf(
		    out,
		    "- Noise: **within-run only** for %zu of %zu metrics: judged against the spread of the "
		    "repetitions inside each run (Mann-Whitney U, n >= %d on each side, else Welch's t; "
		    "B/A's interval by bootstrap). Runs vary more than the repetitions of one run do, so "
		    "a difference found this way may be the two runs' own and not a change. For the noise "
		    "between runs: at least %d earlier runs of the cells on this host in the results "
		    "store (every `benchgrid run` records one), or several runs per side (`compare A1 A2 "
		    "A3 -- B1 B2 B3`). `--fail-above` does not fail on within-run noise alone%s\n",
		    nw, tested, CMP_MW_MIN_N, CMP_HIST_MIN,
		    o->trust_within ? "; `--trust-within-run-noise` was given: it does"
		                    : " (`--trust-within-run-noise` makes it)");
}

int cmp_render(FILE *out, const struct cmp_pair *p, size_t n, const struct compare_opts *o, const char *head,
               size_t ncols, struct cmp_outcome *res)
{
	struct rows rows = {0};
	int rc = 0;
	if (res)
		*res = (struct cmp_outcome){0};
	if (o->html) /* compare.html's charts */
		rc = cmp_html_pairs(o->html, n);
	for (size_t i = 0; rc == 0 && o->html && i < n; i++)
		rc = cmp_html_pair(o->html, i, p[i].a, p[i].b, p[i].nas > 1 || p[i].nbs > 1);
	for (size_t i = 0; rc == 0 && i < n; i++)
		rc = pair_rows(&p[i], i, o, &rows);
	if (rc < 0) {
		free(rows.v);
		return rc;
	}
	noise_lines(out, &rows, o);
	fprintf(out, "- Metrics: %s\n\n",
	        o->all ? "all" : "each step's headline metrics (`--all` for every metric)");
	if (n) {
		verdict_lines(out, p, n, &rows);
		table(out, p, &rows, head, ncols);
		geo_means(out, &rows);
	}
	if (isfinite(o->fail_above))
		rc = threshold(out, p, &rows, o, res);
	free(rows.v);
	return rc;
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
