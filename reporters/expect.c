/* expect: evaluation of published figures (see expect.h). */
#include "expect.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "rep_group.h"
#include "units.h"

static const char *const status_names[] = {"PASS", "FAIL", "XFAIL", "XPASS", "SKIP"};

const char *expect_status_name(enum expect_status s)
{
	return (unsigned)s < 5 ? status_names[s] : "?";
}

static const char *const entry_keys[] = {"where", "xfail", "strict", "note", NULL};

int expect_parse_tolerance(const struct node *n, double value, bool lower, double *offset, struct diag *d)
{
	const char *side = lower ? "lower" : "upper";
	if (!n || n->kind == NODE_NULL ||
	    (n->kind == NODE_SCALAR && !n->quoted &&
	     (strcmp(n->text, "null") == 0 || strcmp(n->text, "~") == 0 || n->text[0] == '\0'))) {
		*offset = lower ? -INFINITY : INFINITY;
		return 0;
	}
	if (n->kind != NODE_SCALAR) {
		diag_error(d, &n->pos, "expect: %s tolerance must be a number, a percentage or null", side);
		return -EINVAL;
	}
	char *text = strdup(n->text), *end;
	if (!text)
		return -ENOMEM;
	size_t len = strlen(text);
	bool pct = len > 0 && text[len - 1] == '%';
	if (pct)
		text[--len] = '\0';
	double v = strtod(text, &end);
	bool ok = len > 0 && *end == '\0' && isfinite(v);
	free(text);
	if (!ok) {
		diag_error(d, &n->pos, "expect: %s tolerance '%s' is not a number or a percentage like -20%%",
		           side, n->text);
		return -EINVAL;
	}
	if ((lower && v > 0) || (!lower && v < 0)) {
		diag_error(d, &n->pos, "expect: %s tolerance '%s' must be %s (write %s%s)", side, n->text,
		           lower ? "<= 0" : ">= 0", lower ? "-" : "+",
		           n->text + (n->text[0] == '+' || n->text[0] == '-'));
		return -EINVAL;
	}
	*offset = pct ? v / 100.0 * fabs(value) : v;
	return 0;
}

/* Parse `[value, lower, upper]` or `[value, tol]`. */
static int parse_ref(const struct node *n, const char *ref, double *value, double *lo, double *hi,
                     struct diag *d)
{
	if (n->kind != NODE_SEQ || n->n < 2 || n->n > 3) {
		diag_error(d, &n->pos,
		           "expect: %s must be [value, lower, upper] (e.g. [7000, -20%%, +20%%]) "
		           "or [value, tolerance]",
		           ref);
		return -EINVAL;
	}
	if (node_as_double(n->items[0], ref, value, d) < 0)
		return -EINVAL;
	if (n->n == 2) {
		double t;
		const struct node *tn = n->items[1];
		/* Symmetric: read it as the upper side, mirror for the lower. */
		if (tn->kind == NODE_SCALAR && tn->text[0] == '-') {
			diag_error(d, &tn->pos, "expect: a symmetric tolerance must be positive ('%s')",
			           tn->text);
			return -EINVAL;
		}
		if (expect_parse_tolerance(tn, *value, false, &t, d) < 0)
			return -EINVAL;
		*lo = *value - t;
		*hi = *value + t;
		return 0;
	}
	double a, b;
	if (expect_parse_tolerance(n->items[1], *value, true, &a, d) < 0 ||
	    expect_parse_tolerance(n->items[2], *value, false, &b, d) < 0)
		return -EINVAL;
	*lo = *value + a;
	*hi = *value + b;
	return 0;
}

/* Check one entry; fills xfail/strict/reason. */
static int check_entry(const struct node *e, bool *xfail, const char **reason, bool *strict, struct diag *d)
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
			if (v->kind != NODE_MAP) {
				diag_error(d, &v->pos, "expect: where must be a map of parameter: value");
				rc = -EINVAL;
				continue;
			}
			for (size_t w = 0; w < v->n; w++) {
				const struct node *x = v->items[w];
				bool ok = x->kind == NODE_SCALAR;
				if (x->kind == NODE_SEQ) {
					ok = true;
					for (size_t q = 0; q < x->n; q++)
						ok &= x->items[q]->kind == NODE_SCALAR;
				}
				if (!ok) {
					diag_error(d, &x->pos,
					           "expect: where.%s must be a value or a list of values",
					           v->keys[w]);
					rc = -EINVAL;
				}
			}
		} else if (strcmp(k, "xfail") == 0) {
			struct diag tmp;
			diag_init(&tmp);
			if (node_as_bool(v, "xfail", xfail, &tmp) < 0) {
				if (v->kind == NODE_SCALAR && v->text[0]) {
					*xfail = true;
					*reason = v->text;
				} else {
					diag_error(d, &v->pos,
					           "expect: xfail must be true, false or a reason");
					rc = -EINVAL;
				}
			}
			diag_free(&tmp);
		} else if (strcmp(k, "strict") == 0) {
			if (node_as_bool(v, "strict", strict, d) < 0)
				rc = -EINVAL;
		} else if (strcmp(k, "note") == 0) {
			if (v->kind != NODE_SCALAR) {
				diag_error(d, &v->pos, "expect: note must be text");
				rc = -EINVAL;
			}
		} else {
			const char *s = node_suggest(k, entry_keys);
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
		if (check_entry(expect->items[i], &xf, &reason, &st, d) < 0)
			rc = -EINVAL;
	return rc;
}

static struct expect_row *add_row(struct expect_result *res)
{
	if (res->n == res->cap) {
		size_t cap = res->cap ? res->cap * 2 : 16;
		struct expect_row *v = realloc(res->rows, cap * sizeof(*v));
		if (!v)
			return NULL;
		res->rows = v;
		res->cap = cap;
	}
	struct expect_row *row = &res->rows[res->n++];
	memset(row, 0, sizeof(*row));
	return row;
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

/* "{fs: btrfs, bs: [4k, 8k]}" for notes. */
static void where_text(const struct node *where, char *buf, size_t len)
{
	size_t k = 0;
	int w = snprintf(buf, len, "{");
	k = w > 0 ? (size_t)w : 0;
	for (size_t i = 0; where && where->kind == NODE_MAP && i < where->n && k < len; i++) {
		const struct node *v = where->items[i];
		w = snprintf(buf + k, len - k, "%s%s: ", i ? ", " : "", where->keys[i]);
		k += w > 0 ? (size_t)w : 0;
		if (v->kind == NODE_SEQ) {
			for (size_t q = 0; q < v->n && k < len; q++) {
				w = snprintf(buf + k, len - k, "%s%s", q ? ", " : "[", v->items[q]->text);
				k += w > 0 ? (size_t)w : 0;
			}
			if (k < len) {
				w = snprintf(buf + k, len - k, "]");
				k += w > 0 ? (size_t)w : 0;
			}
		} else if (k < len) {
			w = snprintf(buf + k, len - k, "%s", v->text ? v->text : "");
			k += w > 0 ? (size_t)w : 0;
		}
	}
	if (k < len)
		snprintf(buf + k, len - k, "}");
}

static void finish(struct expect_result *res, struct expect_row *row)
{
	res->count[row->status]++;
	if (row->strict && (row->status == EXPECT_FAIL || row->status == EXPECT_XPASS))
		res->nstrict++;
}

/* One step.metric of one entry, as every row of it needs it. */
struct expect_ref {
	size_t entry;
	const char *ref, *metric;
	char step[128];
	double value, lo, hi;
	bool xfail, strict;
	const char *reason; /* xfail's reason, or the entry's note, or NULL */
};

static struct expect_row *new_row(struct expect_result *out, const struct expect_ref *x, long cell)
{
	struct expect_row *row = add_row(out);
	if (!row)
		return NULL;
	row->entry = x->entry;
	row->cell = cell;
	row->ref = strdup(x->ref);
	row->expected = x->value;
	row->lower = x->lo;
	row->upper = x->hi;
	row->strict = x->strict;
	row->measured = NAN;
	row->diff_pct = NAN;
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
	if (x->value != 0)
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
		finish(out, row);
	}
	if (!matched) {
		struct expect_row *row = new_row(out, x, -1);
		if (!row)
			return -ENOMEM;
		row->unit = strdup("");
		row->status = EXPECT_SKIP;
		char w[512];
		where_text(where, w, sizeof(w));
		set_note(row, "no cell of this run matches where %s", w);
		finish(out, row);
	}
	return 0;
}

static int evaluate_entry(const struct node *e, size_t ei, const struct run *r,
                          struct cell_summary *const *sums, struct expect_result *out, struct diag *d)
{
	struct expect_ref x = {.entry = ei};
	if (check_entry(e, &x.xfail, &x.reason, &x.strict, d) < 0)
		return -EINVAL;
	const struct node *where = node_get(e, "where");
	/* `note:` (the source of a published figure, say) shows in every
	 * row of the entry unless a more specific note replaces it. */
	const struct node *note_node = node_get(e, "note");
	const char *note = note_node && note_node->kind == NODE_SCALAR ? note_node->text : NULL;
	if (!x.reason)
		x.reason = note;
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

void expect_result_free(struct expect_result *res)
{
	for (size_t i = 0; i < res->n; i++) {
		free(res->rows[i].ref);
		free(res->rows[i].unit);
		free(res->rows[i].note);
	}
	free(res->rows);
	memset(res, 0, sizeof(*res));
}

long expect_strict_failures(const struct run *r, struct diag *d)
{
	struct expect_result res;
	int rc = expect_evaluate(r->expect_cfg, r, NULL, &res, d);
	long n = (long)res.nstrict;
	expect_result_free(&res);
	return rc < 0 && rc != -EINVAL ? rc : n;
}
