/* expect: evaluation of published figures (see expect.h). */
#include "expect.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "expect_rel.h"
#include "rep_group.h"
#include "report_opts_table.h"
#include "units.h"

/* The keys of an absolute entry, then the keys that make it a ratio or an order
 * (for "did you mean"). */
static const char *suggest_key(const char *k)
{
	const char *names[16];
	size_t n = opt_key_names(&expect_table, names, 14);
	names[n++] = expect_ratio_table.rows[0].name;
	names[n++] = expect_order_table.rows[0].name;
	names[n] = NULL;
	return node_suggest(k, names);
}

/* Parse `[value, lower, upper]`, `[value, tol]` or `{min: X, max: Y}` (no
 * published value: NaN). */
static int parse_ref(const struct node *n, const char *ref, double *value, double *lo, double *hi,
                     struct diag *d)
{
	if (n->kind == NODE_MAP) {
		char what[192];
		snprintf(what, sizeof(what), "expect: %s", ref);
		*value = NAN;
		int rc =
		    node_check_keys(n, what, (const char *const[]){"min", "max", NULL}, d) < 0 ? -EINVAL : 0;
		int k = expect_parse_minmax(n, ref, lo, hi, d);
		if (k == 0 && rc == 0) {
			diag_error(d, &n->pos, "expect: %s: give min:, max: or both (e.g. {min: 5000})", ref);
			return -EINVAL;
		}
		return k < 0 ? -EINVAL : rc;
	}
	if (n->kind != NODE_SEQ || n->n < 2 || n->n > 3) {
		diag_error(d, &n->pos,
		           "expect: %s must be [value, lower, upper] (e.g. [7000, -20%%, +20%%]), "
		           "[value, tolerance] or {min: X, max: Y}",
		           ref);
		return -EINVAL;
	}
	if (node_as_double(n->items[0], ref, value, d) < 0)
		return -EINVAL;
	if (n->n == 2)
		return expect_parse_bounds(n->items[1], *value, lo, hi, d);
	double a, b;
	if (expect_parse_tolerance(n->items[1], *value, true, &a, d) < 0 ||
	    expect_parse_tolerance(n->items[2], *value, false, &b, d) < 0)
		return -EINVAL;
	*lo = *value + a;
	*hi = *value + b;
	return 0;
}

static int check_entry(const struct node *e, const struct expect_names *names, bool *xfail,
                       const char **reason, bool *strict, struct diag *d)
{
	int rc = 0;
	size_t nrefs = 0;
	*xfail = *strict = false;
	*reason = NULL;
	if (e->kind != NODE_MAP) {
		diag_error(d, &e->pos,
		           "expect: each entry must be a map like {where: {...}, step.metric: [v, lo, hi]}");
		return -EINVAL;
	}
	if (expect_rel_kind(e) != EXPECT_ABSOLUTE)
		return expect_rel_check(e, names, xfail, reason, strict, d);
	for (size_t i = 0; i < e->n; i++) {
		const char *k = e->keys[i];
		const struct node *v = e->items[i];
		if (strchr(k, '.')) {
			double x, lo, hi;
			char step[128];
			const char *metric;
			if (!results_split_ref(k, step, sizeof(step), &metric)) {
				diag_error(d, &e->kpos[i], "expect: '%s' is not step.metric", k);
				rc = -EINVAL;
			} else if (parse_ref(v, k, &x, &lo, &hi, d) < 0) {
				rc = -EINVAL;
			}
			nrefs++;
		} else if (strcmp(k, "where") == 0) {
			if (expect_check_where(v, "where", d) < 0)
				rc = -EINVAL;
		} else if (strcmp(k, "role") == 0) {
			enum expect_role role;
			if (expect_entry_role(e, EXPECT_ABSOLUTE, &role, d) < 0)
				rc = -EINVAL;
		} else if (strcmp(k, "xfail") == 0 || strcmp(k, "strict") == 0 || strcmp(k, "note") == 0) {
			if (expect_entry_common(e, k, xfail, reason, strict, d) < 0)
				rc = -EINVAL;
		} else {
			const char *s = suggest_key(k);
			if (s)
				diag_error(d, &e->kpos[i], "expect: unknown key '%s' (did you mean '%s'?)", k,
				           s);
			else
				diag_error(
				    d, &e->kpos[i],
				    "expect: unknown key '%s' (metrics are written step.metric, e.g. ro.tps)",
				    k);
			rc = -EINVAL;
		}
	}
	if (nrefs == 0 && rc == 0) {
		diag_error(d, &e->pos, "expect: entry has no step.metric: [value, lower, upper]");
		rc = -EINVAL;
	}
	return rc;
}

int expect_check(const struct node *expect, struct diag *d)
{
	return expect_check_names(expect, NULL, d);
}

int expect_check_names(const struct node *expect, const struct expect_names *names, struct diag *d)
{
	bool xf, st;
	const char *reason;
	int rc = 0;
	if (!expect || expect->kind == NODE_NULL)
		return 0;
	if (expect->kind != NODE_SEQ) {
		diag_error(d, &expect->pos, "expect: must be a list of entries");
		return -EINVAL;
	}
	for (size_t i = 0; i < expect->n; i++)
		if (check_entry(expect->items[i], names, &xf, &reason, &st, d) < 0)
			rc = -EINVAL;
	return rc;
}

static void set_note(struct expect_row *row, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void set_note(struct expect_row *row, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	free(row->note);
	if (vasprintf(&row->note, fmt, ap) < 0)
		row->note = NULL;
	va_end(ap);
}

/* One step.metric of one entry, as every row of it needs it. */
struct expect_ref {
	size_t entry;
	const char *ref, *metric;
	char step[128];
	double value, lo, hi;
	bool xfail, strict;
	enum expect_role role;
	const char *reason; /* xfail's reason, or the entry's note, or NULL */
	const char *claim;  /* the entry's note, or NULL */
};

static struct expect_row *new_row(struct expect_result *out, const struct expect_ref *x, long cell)
{
	struct expect_row *row = expect_add_row(out);
	if (!row)
		return NULL;
	row->entry = x->entry;
	row->cell = cell;
	row->ref = strdup(x->ref);
	row->expected = x->value;
	row->lower = x->lo;
	row->upper = x->hi;
	row->strict = x->strict;
	row->role = x->role;
	row->measured = NAN;
	row->diff_pct = NAN;
	row->claim = x->claim ? strdup(x->claim) : NULL;
	return row;
}

/* The status and note of one cell's row. */
static void judge(struct expect_row *row, const struct expect_ref *x, const struct run_cell *c,
                  const struct cell_summary *sum)
{
	const struct step_summary *ss = sum ? cell_summary_step(sum, x->step) : NULL;
	const struct metric_summary *m = cell_summary_metric(sum, x->step, x->metric);
	row->unit = strdup(m ? m->unit : "");
	if (c->status == RUN_SKIPPED) {
		/* A skipped cell measured nothing, and was meant not to. */
		row->status = EXPECT_SKIP;
		set_note(row, "%s", c->error ? c->error : "cell skipped");
		return;
	}
	if (ss && ss->skipped && !ss->failed) {
		/* A step its when: skipped in this cell: meant not to measure. */
		row->status = EXPECT_SKIP;
		set_note(row, "step '%s' skipped: %s", x->step, ss->skip_reason ? ss->skip_reason : "when:");
		return;
	}
	if (!m || !isfinite(m->st.mean)) {
		row->status = EXPECT_FAIL;
		if (ss && ss->failed)
			set_note(row, "step failed: %s", ss->error ? ss->error : "?");
		else if (c->status == RUN_FAILED && !ss)
			set_note(row, "cell failed: %s", c->error ? c->error : "?");
		else if (!ss)
			set_note(row, "no step '%s' in this cell", x->step);
		else
			set_note(row, "metric '%s' not measured by step '%s'", x->metric, x->step);
		return;
	}
	row->measured = m->st.mean;
	if (x->value != 0 && isfinite(x->value))
		row->diff_pct = (row->measured - x->value) / fabs(x->value) * 100.0;
	bool within = row->measured >= x->lo && row->measured <= x->hi;
	if (x->xfail)
		row->status = within ? EXPECT_XPASS : EXPECT_XFAIL;
	else
		row->status = within ? EXPECT_PASS : EXPECT_FAIL;
	if (x->reason)
		set_note(row, "%s", x->reason);
	if (ss && ss->failed && row->status == EXPECT_PASS) {
		/* a number from a failed step is not a pass */
		row->status = EXPECT_FAIL;
		set_note(row, "step failed: %s", ss->error ? ss->error : "?");
	}
}

/* The rows of one step.metric: one per matching cell, or one SKIP. */
static int evaluate_ref(const struct expect_ref *x, const struct node *where, const struct run *r,
                        struct cell_summary *const *sums, struct expect_result *out)
{
	bool matched = false;
	for (size_t ci = 0; ci < r->ncells; ci++) {
		const struct run_cell *c = &r->cells[ci];
		if (!rep_cell_matches(c, where))
			continue;
		matched = true;
		struct expect_row *row = new_row(out, x, (long)ci);
		if (!row)
			return -ENOMEM;
		judge(row, x, c, sums[ci]);
		expect_finish_row(out, row);
	}
	if (!matched) {
		struct expect_row *row = new_row(out, x, -1);
		if (!row)
			return -ENOMEM;
		row->unit = strdup("");
		row->status = EXPECT_SKIP;
		char w[512];
		expect_where_text(where, w, sizeof(w));
		set_note(row, "no cell of this run matches where %s", w);
		expect_finish_row(out, row);
	}
	return 0;
}

static int evaluate_entry(const struct node *e, size_t ei, const struct run *r,
                          struct cell_summary *const *sums, struct expect_result *out, struct diag *d)
{
	struct expect_ref x = {.entry = ei};
	if (check_entry(e, NULL, &x.xfail, &x.reason, &x.strict, d) < 0)
		return -EINVAL;
	if (expect_rel_kind(e) != EXPECT_ABSOLUTE)
		return expect_rel_evaluate(e, ei, r, sums, x.xfail, x.reason, x.strict, out);
	struct diag quiet; /* checked above */
	diag_init(&quiet);
	expect_entry_role(e, EXPECT_ABSOLUTE, &x.role, &quiet);
	diag_free(&quiet);
	const struct node *where = node_get(e, "where");
	/* `note:` (the source of a published figure, say) shows in every
	 * row of the entry unless a more specific note replaces it. */
	const struct node *note_node = node_get(e, "note");
	const char *note = note_node && note_node->kind == NODE_SCALAR ? note_node->text : NULL;
	if (!x.reason)
		x.reason = note;
	x.claim = note;
	for (size_t k = 0; k < e->n; k++) {
		x.ref = e->keys[k];
		if (!strchr(x.ref, '.'))
			continue;
		results_split_ref(x.ref, x.step, sizeof(x.step), &x.metric);
		parse_ref(e->items[k], x.ref, &x.value, &x.lo, &x.hi, d);
		if (evaluate_ref(&x, where, r, sums, out) < 0)
			return -ENOMEM;
	}
	return 0;
}

int expect_evaluate(const struct node *expect, const struct run *r, struct cell_summary *const *sums,
                    struct expect_result *out, struct diag *d)
{
	struct cell_summary **own = NULL;
	int rc = 0;

	memset(out, 0, sizeof(*out));
	if (!expect || expect->kind == NODE_NULL)
		return 0;
	if (expect->kind != NODE_SEQ) {
		diag_error(d, &expect->pos, "expect: must be a list of entries");
		return -EINVAL;
	}
	if (!sums) {
		own = calloc(r->ncells ? r->ncells : 1, sizeof(*own));
		if (!own)
			return -ENOMEM;
		for (size_t i = 0; i < r->ncells; i++)
			own[i] = run_cell_summarize(&r->cells[i]);
		sums = own;
	}
	for (size_t ei = 0; ei < expect->n; ei++) {
		int k = evaluate_entry(expect->items[ei], ei, r, sums, out, d);
		if (k == -ENOMEM) {
			rc = k;
			break;
		}
		if (k < 0)
			rc = -EINVAL;
	}
	if (own) {
		for (size_t i = 0; i < r->ncells; i++)
			cell_summary_free(own[i]);
		free(own);
	}
	return rc;
}

long expect_strict_failures(const struct run *r, struct diag *d)
{
	struct expect_result res;
	int rc = expect_evaluate(r->expect_cfg, r, NULL, &res, d);
	long n = (long)res.nstrict;
	expect_result_free(&res);
	return rc < 0 && rc != -EINVAL ? rc : n;
}

/* ---- names of a scenario ---- */

static void add_name(const char ***v, size_t *n, const char *name)
{
	for (size_t i = 0; i < *n; i++)
		if (strcmp((*v)[i], name) == 0)
			return;
	const char **nv = realloc(*v, (*n + 1) * sizeof(**v));
	if (!nv)
		return;
	*v = nv;
	(*v)[(*n)++] = name;
}

static void add_keys(const char ***v, size_t *n, const struct node *map)
{
	for (size_t i = 0; map && map->kind == NODE_MAP && i < map->n; i++)
		add_name(v, n, map->keys[i]);
}

int expect_check_scenario(const struct node *scenario, const struct node *cell, struct diag *d)
{
	const struct node *expect = node_get(scenario, "expect"), *m = node_get(scenario, "matrix"),
	                  *steps = node_get(cell, "steps");
	const char **params = NULL, **snames = NULL;
	size_t np = 0, ns = 0;
	char **owned = calloc(steps && steps->kind == NODE_SEQ ? steps->n + 1 : 1, sizeof(*owned));
	for (size_t i = 0; m && m->kind == NODE_MAP && i < m->n; i++) {
		const char *k = m->keys[i];
		const struct node *v = m->items[i];
		if (strcmp(k, "zip") == 0) {
			for (size_t z = 0; z < (v->kind == NODE_SEQ ? v->n : 1); z++)
				add_keys(&params, &np, v->kind == NODE_SEQ ? v->items[z] : v);
		} else if (strcmp(k, "include") == 0) {
			for (size_t z = 0; v->kind == NODE_SEQ && z < v->n; z++)
				add_keys(&params, &np, v->items[z]);
		} else if (strcmp(k, "exclude") != 0 && strcmp(k, "filter") != 0) {
			add_name(&params, &np, k);
		}
	}
	for (size_t i = 0; owned && steps && steps->kind == NODE_SEQ && i < steps->n; i++) {
		const struct node *nn = node_get(steps->items[i], "name");
		if (nn && nn->kind == NODE_SCALAR) {
			add_name(&snames, &ns, nn->text);
		} else if (asprintf(&owned[i], "step%zu", i + 1) >= 0) {
			add_name(&snames, &ns, owned[i]);
		}
	}
	/* Without a steps list the steps' own check says so: names unchecked. */
	static const char *const none[] = {NULL};
	struct expect_names names = {params ? params : none, np, steps ? (snames ? snames : none) : NULL, ns};
	int rc = expect_check_names(expect, &names, d);
	for (size_t i = 0; owned && steps && steps->kind == NODE_SEQ && i < steps->n; i++)
		free(owned[i]);
	free(owned);
	free(params);
	free(snames);
	return rc;
}
