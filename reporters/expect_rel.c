/* expect_rel: ratio and order expectations (see expect_rel.h). */
#include "expect_rel.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "expect_bind.h"
#include "grow.h"
#include "rep_text.h"
#include "rep_group.h"
#include "report_opts_table.h"
#include "stats.h"

enum expect_kind expect_rel_kind(const struct node *e)
{
	if (node_get(e, "ratio"))
		return EXPECT_RATIO;
	if (node_get(e, "order"))
		return EXPECT_ORDER;
	return EXPECT_ABSOLUTE;
}

/* ---- check ---- */

static bool in_list(const char *x, const char *const *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(v[i], x) == 0)
			return true;
	return false;
}

/* "a, b, c" of a list, for messages. */
static void join(const char *const *v, size_t n, char *buf, size_t len)
{
	size_t k = 0;
	buf[0] = '\0';
	for (size_t i = 0; i < n && k + 1 < len; i++) {
		int w = snprintf(buf + k, len - k, "%s%s", i ? ", " : "", v[i]);
		k += w > 0 ? (size_t)w : 0;
	}
}

/* where/to: a map of known parameters. */
static int check_side(const struct node *v, const char *what, const struct expect_names *names,
                      struct diag *d)
{
	if (expect_check_where(v, what, d) < 0)
		return -EINVAL;
	int rc = 0;
	for (size_t i = 0; names && names->params && i < v->n; i++) {
		if (in_list(v->keys[i], names->params, names->nparams))
			continue;
		char list[512];
		join(names->params, names->nparams, list, sizeof(list));
		const char **cands = calloc(names->nparams + 1, sizeof(*cands));
		for (size_t k = 0; cands && k < names->nparams; k++)
			cands[k] = names->params[k];
		const char *s = cands ? node_suggest(v->keys[i], cands) : NULL;
		diag_error(d, &v->kpos[i],
		           "expect: %s names '%s', which is not a parameter of the matrix (%s%s)%s%s%s", what,
		           v->keys[i], names->nparams ? "parameters: " : "it has none", list,
		           s ? "; did you mean '" : "", s ? s : "", s ? "'?" : "");
		free(cands);
		rc = -EINVAL;
	}
	return rc;
}

/* A metric reference: step.metric with a step of the scenario; alt ends the
 * message when it is not step.metric (the other forms allowed there). */
static int check_metric_or(const struct node *v, const char *what, const char *alt,
                           const struct expect_names *names, struct diag *d)
{
	const char *ref, *metric;
	char step[128];
	if (node_as_string(v, what, &ref, d) < 0)
		return -EINVAL;
	if (!results_split_ref(ref, step, sizeof(step), &metric) || !*step || !*metric) {
		diag_error(d, &v->pos, "expect: %s '%s' is not step.metric (e.g. rw.tps)%s", what, ref, alt);
		return -EINVAL;
	}
	if (names && names->steps && !in_list(step, names->steps, names->nsteps)) {
		char list[512];
		join(names->steps, names->nsteps, list, sizeof(list));
		diag_error(d, &v->pos, "expect: %s '%s' names no step of the scenario (steps: %s)", what, ref,
		           list);
		return -EINVAL;
	}
	return 0;
}

static int check_metric(const struct node *v, const char *what, const struct expect_names *names,
                        struct diag *d)
{
	return check_metric_or(v, what, "", names, d);
}

/* A ratio's `to`: a map of parameters (another cell) or step.metric (another
 * metric of the same cell). */
static bool is_metric_side(const struct node *v)
{
	return v && v->kind == NODE_SCALAR;
}

static int check_ratio(const struct node *e, const struct expect_names *names, struct diag *d)
{
	const struct node *ra = node_get(e, "ratio"), *pub = node_get(e, "published"),
	                  *tol = node_get(e, "tolerance");
	int rc = 0;
	if (ra->kind != NODE_MAP) {
		diag_error(d, &ra->pos,
		           "expect: ratio must be a map {of: step.metric, where: {...}, to: {...}} "
		           "or {of: step.metric, to: step.metric}");
		return -EINVAL;
	}
	bool steps = is_metric_side(node_get(ra, "to"));
	if (opt_check_keys(ra, "expect.ratio", &expect_ratio_of_table, d) < 0)
		rc = -EINVAL;
	/* A missing (often misspelt) key is one error among the others: what is
	 * there is still checked, and so is the rest of the entry. */
	for (size_t i = 0; i < expect_ratio_of_table.n; i++) {
		const char *inner = expect_ratio_of_table.rows[i].name;
		if (!node_get(ra, inner) && !(steps && strcmp(inner, "where") == 0)) {
			diag_error(
			    d, &ra->pos,
			    "expect: ratio has no '%s' (write {of: step.metric, where: {...}, to: {...}}, "
			    "or {of: step.metric, to: step.metric} for two metrics of each cell)",
			    inner);
			rc = -EINVAL;
		}
	}
	if (node_get(ra, "of"))
		rc |= check_metric(node_get(ra, "of"), "ratio.of", names, d);
	if (node_get(ra, "where"))
		rc |= check_side(node_get(ra, "where"), "ratio.where", names, d);
	if (steps)
		rc |= check_metric_or(node_get(ra, "to"), "ratio.to",
		                      " nor a map of parameters like {wal: data}", names, d);
	else if (node_get(ra, "to"))
		rc |= check_side(node_get(ra, "to"), "ratio.to", names, d);
	double v = 1, lo, hi;
	int mm = expect_parse_minmax(e, "ratio", &lo, &hi, d);
	if (mm < 0)
		return -EINVAL;
	if (mm > 0 && (pub || tol)) {
		diag_error(d, node_key_pos(e, pub ? "published" : "tolerance"),
		           "expect: a ratio takes published: and tolerance:, or min:/max:, not both");
		return -EINVAL;
	}
	if (mm > 0)
		return rc ? -EINVAL : 0;
	if (!pub || !tol) {
		diag_error(d, &e->pos,
		           "expect: a ratio needs published: (the published ratio) and tolerance: (e.g. "
		           "25%%), or min:/max: (bounds of the ratio, e.g. min: 0.9)");
		rc = -EINVAL;
	}
	/* Each of the two that is there is checked, also when the other is
	 * missing or bad (a tolerance's form does not depend on the value). */
	if (pub && node_as_double(pub, "expect.published", &v, d) < 0) {
		v = 1;
		rc = -EINVAL;
	}
	if (tol && expect_parse_bounds(tol, v, &lo, &hi, d) < 0)
		rc = -EINVAL;
	return rc ? -EINVAL : 0;
}

/* [step.metric, "<", step.metric] with an optional where: of the entry. */
static int check_order_steps(const struct node *e, const struct expect_names *names, struct diag *d)
{
	const struct node *o = node_get(e, "order"), *w = node_get(e, "where");
	int rc = 0;
	if (node_get(e, "metric")) {
		diag_error(d, node_key_pos(e, "metric"),
		           "expect: an order of two metrics names them in its sides; it takes no metric:");
		rc = -EINVAL;
	}
	rc |= check_metric(o->items[0], "order's left side", names, d);
	rc |= check_metric(o->items[2], "order's right side", names, d);
	if (w)
		rc |= check_side(w, "where", names, d);
	return rc;
}

static int check_order(const struct node *e, const struct expect_names *names, struct diag *d)
{
	const struct node *o = node_get(e, "order"), *metric = node_get(e, "metric");
	int rc = 0;
	if (o->kind != NODE_SEQ || o->n != 3 || o->items[1]->kind != NODE_SCALAR ||
	    (o->items[0]->kind != NODE_MAP && !is_metric_side(o->items[0])) ||
	    (o->items[2]->kind != NODE_MAP && !is_metric_side(o->items[2]))) {
		diag_error(d, &o->pos,
		           "expect: order must be [{param: value}, \"<\", {param: value}] (or \">\"), "
		           "or [step.metric, \"<\", step.metric] for two metrics of each cell");
		return -EINVAL;
	}
	const char *rel = o->items[1]->text;
	if (strcmp(rel, "<") != 0 && strcmp(rel, ">") != 0) {
		diag_error(d, &o->items[1]->pos,
		           "expect: order's relation must be \"<\" or \">\", found '%s'", rel);
		rc = -EINVAL;
	}
	if (is_metric_side(o->items[0]) != is_metric_side(o->items[2])) {
		const struct node *m = is_metric_side(o->items[0]) ? o->items[0] : o->items[2];
		diag_error(d, &m->pos,
		           "expect: order mixes a metric ('%s') with a map of parameters: compare two cells "
		           "([{param: value}, \"<\", {param: value}] with metric:) or two metrics of each "
		           "cell ([step.metric, \"<\", step.metric])",
		           m->text);
		return -EINVAL;
	}
	if (is_metric_side(o->items[0]))
		return check_order_steps(e, names, d) < 0 || rc ? -EINVAL : 0;
	if (node_get(e, "where")) {
		diag_error(d, node_key_pos(e, "where"),
		           "expect: an order of cells names them in its sides; where: goes with an order of "
		           "two metrics ([step.metric, \"<\", step.metric])");
		rc = -EINVAL;
	}
	rc |= check_side(o->items[0], "order's left side", names, d);
	rc |= check_side(o->items[2], "order's right side", names, d);
	if (!metric) {
		diag_error(d, &e->pos, "expect: an order needs metric: step.metric (e.g. rw.tps)");
		return -EINVAL;
	}
	rc |= check_metric(metric, "metric", names, d);
	return rc ? -EINVAL : 0;
}

int expect_rel_check(const struct node *e, const struct expect_names *names, bool *xfail, const char **reason,
                     bool *strict, struct diag *d)
{
	enum expect_kind kind = expect_rel_kind(e);
	int rc = 0;
	*xfail = *strict = false;
	*reason = NULL;
	if (kind == EXPECT_RATIO && node_get(e, "order")) {
		diag_error(d, node_key_pos(e, "order"), "expect: an entry is a ratio or an order, not both");
		return -EINVAL;
	}
	const char *what = kind == EXPECT_RATIO ? "expect (ratio)" : "expect (order)";
	if (opt_check_keys(e, what, kind == EXPECT_RATIO ? &expect_ratio_table : &expect_order_table, d) < 0)
		rc = -EINVAL;
	for (size_t i = 0; i < e->n; i++)
		if ((strcmp(e->keys[i], "xfail") == 0 || strcmp(e->keys[i], "strict") == 0 ||
		     strcmp(e->keys[i], "note") == 0) &&
		    expect_entry_common(e, e->keys[i], xfail, reason, strict, d) < 0)
			rc = -EINVAL;
	if ((kind == EXPECT_RATIO ? check_ratio(e, names, d) : check_order(e, names, d)) < 0)
		rc = -EINVAL;
	enum expect_role role;
	double bind;
	if (expect_entry_role(e, kind, &role, d) < 0)
		rc = -EINVAL;
	if (expect_bind_parse(node_get(e, "bind"), &bind, d) < 0)
		rc = -EINVAL;
	return rc;
}

/* ---- pairs ---- */

static bool names_param(const struct node *map, const char *p)
{
	return map && map->kind == NODE_MAP && node_get(map, p) != NULL;
}

static bool same_others(const struct run *r, const struct rep_strs *params, size_t a, size_t b,
                        const struct node *to)
{
	for (size_t k = 0; k < params->n; k++) {
		if (names_param(to, params->v[k]))
			continue;
		const char *va = run_cell_param(&r->cells[a], params->v[k]),
		           *vb = run_cell_param(&r->cells[b], params->v[k]);
		if (!va || !vb ? va != vb : !rep_value_equal(va, vb))
			return false;
	}
	return true;
}

int expect_rel_pairs(const struct run *r, const struct node *where, const struct node *to,
                     struct expect_pair **out, size_t *n)
{
	struct rep_strs params = {0};
	size_t cap = 0;
	*out = NULL;
	*n = 0;
	rep_param_names(r, &params);
	for (size_t a = 0; a < r->ncells; a++) {
		if (r->cells[a].status == RUN_SKIPPED || !rep_cell_matches(&r->cells[a], where))
			continue;
		for (size_t b = 0; b < r->ncells; b++) {
			if (b == a || r->cells[b].status == RUN_SKIPPED ||
			    !rep_cell_matches(&r->cells[b], to) || !same_others(r, &params, a, b, to))
				continue;
			if (GROW(*out, cap, *n + 1, 8) < 0) {
				rep_strs_free(&params);
				return -ENOMEM;
			}
			(*out)[(*n)++] = (struct expect_pair){a, b, NAN, NAN, NAN, false, NULL, false};
		}
	}
	rep_strs_free(&params);
	return 0;
}

/* Between two metrics of each cell: every cell matching where (all when
 * NULL) pairs with itself. */
static int same_cell_pairs(const struct run *r, const struct node *where, struct expect_pair **out, size_t *n)
{
	*n = 0;
	*out = calloc(r->ncells + 1, sizeof(**out));
	if (!*out)
		return -ENOMEM;
	for (size_t a = 0; a < r->ncells; a++)
		if (r->cells[a].status != RUN_SKIPPED && rep_cell_matches(&r->cells[a], where))
			(*out)[(*n)++] = (struct expect_pair){a, a, NAN, NAN, NAN, false, NULL, false};
	return 0;
}

/* ---- evaluation ---- */

static char *fmt(const char *f, ...) __attribute__((format(printf, 1, 2)));
static char *fmt(const char *f, ...)
{
	char *s = NULL;
	va_list ap;
	va_start(ap, f);
	if (vasprintf(&s, f, ap) < 0)
		s = NULL;
	va_end(ap);
	return s;
}

/* The median over repeats of step.metric in cell ci, or NaN with why
 * (and *skipped when the step's when: skipped it: meant not to measure). */
static double cell_value(const struct run *r, struct cell_summary *const *sums, size_t ci, const char *step,
                         const char *metric, const char **unit, char **why, bool *skipped)
{
	const struct step_summary *ss = cell_summary_step(sums[ci], step);
	const struct metric_summary *m = cell_summary_metric(sums[ci], step, metric);
	if (ss && ss->skipped && !ss->failed) {
		*why = fmt("cell %zu: step '%s' skipped: %s", r->cells[ci].index, step,
		           ss->skip_reason ? ss->skip_reason : "when:");
		*skipped = true;
		return NAN;
	}
	if (ss && ss->failed) {
		*why = fmt("cell %zu: step failed: %s", r->cells[ci].index, ss->error ? ss->error : "?");
		return NAN;
	}
	if (!m || !isfinite(m->st.median)) {
		*why = !ss ? fmt("cell %zu has no step '%s'", r->cells[ci].index, step)
		           : fmt("cell %zu: '%s' not measured", r->cells[ci].index, metric);
		return NAN;
	}
	if (m->unit && *m->unit)
		*unit = m->unit;
	return m->st.median;
}

struct rel {
	const char *ref, *metric;
	char step[128];
	/* between two metrics of each cell: the right side (to_ref NULL
	 * between cells, where `to` is the map) */
	const char *to_ref, *to_metric;
	char to_step[128];
	const struct node *where, *to;
	double published, lo, hi;
	char rel;    /* order: '<' or '>'; 0 for a ratio */
	double bind; /* expect_bind.h: the threshold, 0 none */
	enum expect_role role;
	bool xfail;
	const char *reason;
};

/* Fill the pairs' values; the median ratio and (order) difference. */
static void measure(struct expect_row *row, const struct rel *x, const struct run *r,
                    struct cell_summary *const *sums, double *med_diff, size_t *nmeasured)
{
	double *ratios = calloc(row->npairs + 1, sizeof(double)),
	       *diffs = calloc(row->npairs + 1, sizeof(double));
	const char *unit = "", *unit_to = "";
	size_t nm = 0;
	for (size_t i = 0; i < row->npairs; i++) {
		struct expect_pair *p = &row->pairs[i];
		char *why = NULL;
		p->va = cell_value(r, sums, p->a, x->step, x->metric, &unit, &why, &p->skipped);
		if (!why && x->to_ref)
			p->vb =
			    cell_value(r, sums, p->b, x->to_step, x->to_metric, &unit_to, &why, &p->skipped);
		else if (!why)
			p->vb = cell_value(r, sums, p->b, x->step, x->metric, &unit, &why, &p->skipped);
		p->note = why;
		if (why)
			continue;
		p->ratio = p->vb != 0 ? p->va / p->vb : NAN;
		if (x->rel)
			p->holds = x->rel == '<' ? p->va < p->vb : p->va > p->vb;
		else
			p->holds = p->ratio >= x->lo && p->ratio <= x->hi;
		if (ratios && diffs) {
			ratios[nm] = p->ratio;
			diffs[nm] = p->va - p->vb;
		}
		nm++;
	}
	row->unit = strdup(unit);
	row->unit_to = x->to_ref ? strdup(unit_to) : NULL;
	row->measured = ratios ? stats_median(ratios, nm) : NAN;
	*med_diff = diffs ? stats_median(diffs, nm) : NAN;
	*nmeasured = nm;
	free(ratios);
	free(diffs);
}

/* The row's status from what was measured. */
static void judge(struct expect_row *row, const struct rel *x, const struct run *r, double med_diff,
                  size_t nmeasured)
{
	char w[256], t[256];
	expect_where_text(x->where, w, sizeof(w));
	expect_where_text(x->to, t, sizeof(t));
	if (row->npairs == 0 && x->to_ref) {
		row->status = EXPECT_SKIP;
		row->note = x->where ? fmt("no cell of this run matches %s", w)
		                     : strdup("no cell of this run was run (all skipped)");
		return;
	}
	if (row->npairs == 0) {
		size_t nw = 0, nt = 0;
		for (size_t i = 0; i < r->ncells; i++) {
			nw += r->cells[i].status != RUN_SKIPPED && rep_cell_matches(&r->cells[i], x->where);
			nt += r->cells[i].status != RUN_SKIPPED && rep_cell_matches(&r->cells[i], x->to);
		}
		row->status = EXPECT_SKIP;
		row->note =
		    nw == 0 ? fmt("no cell of this run matches %s", w)
		    : nt == 0
		        ? fmt("no cell of this run matches %s", t)
		        : fmt("no cell matching %s has the other parameters of a cell matching %s", t, w);
		return;
	}
	size_t nskipped = 0;
	for (size_t i = 0; i < row->npairs; i++)
		nskipped += row->pairs[i].skipped;
	if (nmeasured == 0 && nskipped == row->npairs) {
		/* every pair has a step its when: skipped: meant not to measure */
		row->status = EXPECT_SKIP;
		row->note = strdup(row->pairs[0].note ? row->pairs[0].note : "step skipped");
		return;
	}
	if (nmeasured == 0) {
		/* why a pair that was meant to measure did not */
		const struct expect_pair *p = &row->pairs[0];
		for (size_t i = 0; i < row->npairs && p->skipped; i++)
			p = &row->pairs[i];
		row->status = EXPECT_FAIL;
		row->note = fmt("no pair measured (%s)", p->note ? p->note : "?");
		return;
	}
	bool within;
	if (x->rel) {
		within = x->rel == '<' ? med_diff < 0 : med_diff > 0;
	} else {
		within = row->measured >= x->lo && row->measured <= x->hi;
		if (x->published != 0 && isfinite(x->published) && isfinite(row->measured))
			row->diff_pct = (row->measured - x->published) / fabs(x->published) * 100.0;
	}
	if (x->xfail)
		row->status = within ? EXPECT_XPASS : EXPECT_XFAIL;
	else
		row->status = within ? EXPECT_PASS : EXPECT_FAIL;
	if (x->reason)
		row->note = strdup(x->reason);
	else if (nmeasured < row->npairs)
		row->note = fmt("%zu of %zu pairs not measured", row->npairs - nmeasured, row->npairs);
}

/* Read a checked entry into x. */
static void read_rel(const struct node *e, struct rel *x)
{
	struct diag quiet;
	diag_init(&quiet);
	memset(x, 0, sizeof(*x));
	if (expect_rel_kind(e) == EXPECT_RATIO) {
		const struct node *ra = node_get(e, "ratio");
		x->ref = node_get(ra, "of")->text;
		x->where = node_get(ra, "where");
		x->to = node_get(ra, "to");
		if (is_metric_side(x->to)) {
			x->to_ref = x->to->text;
			x->to = NULL;
		}
		if (expect_parse_minmax(e, "ratio", &x->lo, &x->hi, &quiet) > 0) {
			x->published = NAN;
		} else {
			node_as_double(node_get(e, "published"), "published", &x->published, &quiet);
			expect_parse_bounds(node_get(e, "tolerance"), x->published, &x->lo, &x->hi, &quiet);
		}
	} else {
		const struct node *o = node_get(e, "order");
		if (is_metric_side(o->items[0])) {
			x->ref = o->items[0]->text;
			x->to_ref = o->items[2]->text;
			x->where = node_get(e, "where");
		} else {
			x->ref = node_get(e, "metric")->text;
			x->where = o->items[0];
			x->to = o->items[2];
		}
		x->rel = o->items[1]->text[0];
		x->published = x->lo = x->hi = NAN;
	}
	expect_entry_role(e, expect_rel_kind(e), &x->role, &quiet);
	expect_bind_parse(node_get(e, "bind"), &x->bind, &quiet);
	results_split_ref(x->ref, x->step, sizeof(x->step), &x->metric);
	if (x->to_ref)
		results_split_ref(x->to_ref, x->to_step, sizeof(x->to_step), &x->to_metric);
	diag_free(&quiet);
}
/* The row's check as Markdown for report.md: the scenario's names and
 * values escaped (rep_md_text), the metrics as code spans. */
static char *check_md(const struct rel *x, const char *w, const char *t)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	if (!f)
		return NULL;
	const char *op = x->rel == '<' ? "<" : x->rel ? ">" : "/";
	if (x->to_ref) {
		rep_md_code(f, x->ref);
		fprintf(f, " %s ", op);
		rep_md_code(f, x->to_ref);
		fputs(" in ", f);
		rep_md_text(f, x->where ? w : "all cells");
	} else {
		rep_md_text(f, w);
		fprintf(f, " %s ", op);
		rep_md_text(f, t);
	}
	if (fclose(f) != 0) {
		free(buf);
		return NULL;
	}
	return buf;
}

int expect_rel_evaluate(const struct node *e, size_t ei, const struct run *r,
                        struct cell_summary *const *sums, bool xfail, const char *reason, bool strict,
                        struct expect_result *out)
{
	struct rel x;
	const struct node *note = node_get(e, "note");
	read_rel(e, &x);
	x.xfail = xfail;
	x.reason = reason;

	struct expect_row *row = expect_add_row(out);
	if (!row)
		return -ENOMEM;
	char w[256], t[256];
	expect_where_text(x.where, w, sizeof(w));
	expect_where_text(x.to, t, sizeof(t));
	row->entry = ei;
	row->cell = -1;
	row->kind = x.rel ? EXPECT_ORDER : EXPECT_RATIO;
	row->rel = x.rel;
	row->ref = strdup(x.ref);
	row->expected = x.published;
	row->lower = x.lo;
	row->upper = x.hi;
	row->strict = strict;
	row->role = x.role;
	row->diff_pct = NAN;
	row->check = check_md(&x, w, t);
	row->to_ref = x.to_ref ? strdup(x.to_ref) : NULL;
	row->claim = note && note->kind == NODE_SCALAR ? strdup(note->text) : NULL;
	if ((x.to_ref ? same_cell_pairs(r, x.where, &row->pairs, &row->npairs)
	              : expect_rel_pairs(r, x.where, x.to, &row->pairs, &row->npairs)) < 0) {
		expect_row_free(row); /* no half-filled row in the counts */
		out->n--;
		return -ENOMEM;
	}
	double med_diff = NAN;
	size_t nm = 0;
	measure(row, &x, r, sums, &med_diff, &nm);
	judge(row, &x, r, med_diff, nm);
	expect_bind_judge(row, r, sums, x.step, x.to_ref ? x.to_step : NULL, x.bind);
	expect_finish_row(out, row);
	return 0;
}
