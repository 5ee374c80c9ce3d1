/* expect_row: the rows of an expect: evaluation and what every kind of entry
 * shares (see expect_row.h). */
#include "expect_row.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "report_opts_table.h"

static const char *const status_names[] = {"PASS", "FAIL", "XFAIL", "XPASS", "SKIP", "INCONCLUSIVE"};

const char *expect_status_name(enum expect_status s)
{
	return (unsigned)s < EXPECT_NSTATUS ? status_names[s] : "?";
}

const char *expect_role_name(enum expect_role r)
{
	return (unsigned)r <= EXPECT_INFO ? expect_role_values[r] : "?";
}

int expect_entry_role(const struct node *e, enum expect_kind kind, enum expect_role *role, struct diag *d)
{
	const struct node *v = node_get(e, "role");
	*role = kind == EXPECT_ABSOLUTE ? EXPECT_INFO : EXPECT_HEADLINE;
	int k = 0;
	if (!v)
		return 0;
	if (node_as_enum(v, "expect: role", expect_role_values, &k, d) < 0)
		return -EINVAL;
	*role = (enum expect_role)k;
	return 0;
}

int expect_parse_minmax(const struct node *map, const char *what, double *lo, double *hi, struct diag *d)
{
	const struct node *mn = node_get(map, "min"), *mx = node_get(map, "max");
	char w[160];
	*lo = -INFINITY;
	*hi = INFINITY;
	snprintf(w, sizeof(w), "expect: %s.min", what);
	if (mn && node_as_double(mn, w, lo, d) < 0)
		return -EINVAL;
	snprintf(w, sizeof(w), "expect: %s.max", what);
	if (mx && node_as_double(mx, w, hi, d) < 0)
		return -EINVAL;
	if (mn && mx && *lo > *hi) {
		diag_error(d, &mx->pos, "expect: %s: max (%s) is below min (%s)", what, mx->text, mn->text);
		return -EINVAL;
	}
	return mn || mx ? 1 : 0;
}

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

int expect_parse_bounds(const struct node *tn, double value, double *lo, double *hi, struct diag *d)
{
	if (tn->kind == NODE_SEQ) {
		double a, b;
		if (tn->n != 2) {
			diag_error(d, &tn->pos,
			           "expect: a tolerance list must be [lower, upper] (e.g. [-10%%, +30%%])");
			return -EINVAL;
		}
		if (expect_parse_tolerance(tn->items[0], value, true, &a, d) < 0 ||
		    expect_parse_tolerance(tn->items[1], value, false, &b, d) < 0)
			return -EINVAL;
		*lo = value + a;
		*hi = value + b;
		return 0;
	}
	double t;
	/* Symmetric: read it as the upper side, mirror for the lower. */
	if (tn->kind == NODE_SCALAR && tn->text[0] == '-') {
		diag_error(d, &tn->pos, "expect: a symmetric tolerance must be positive ('%s')", tn->text);
		return -EINVAL;
	}
	if (expect_parse_tolerance(tn, value, false, &t, d) < 0)
		return -EINVAL;
	*lo = value - t;
	*hi = value + t;
	return 0;
}

int expect_check_where(const struct node *v, const char *what, struct diag *d)
{
	int rc = 0;
	if (v->kind != NODE_MAP) {
		diag_error(d, &v->pos, "expect: %s must be a map of parameter: value", what);
		return -EINVAL;
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
			diag_error(d, &x->pos, "expect: %s.%s must be a value or a list of values", what,
			           v->keys[w]);
			rc = -EINVAL;
		}
	}
	return rc;
}

/* Check one entry; fills xfail/strict/reason. */
int expect_entry_common(const struct node *e, const char *k, bool *xfail, const char **reason, bool *strict,
                        struct diag *d)
{
	const struct node *v = node_get(e, k);
	if (strcmp(k, "xfail") == 0) {
		struct diag tmp;
		int rc = 0;
		diag_init(&tmp);
		if (node_as_bool(v, "xfail", xfail, &tmp) < 0) {
			if (v->kind == NODE_SCALAR && v->text[0]) {
				*xfail = true;
				*reason = v->text;
			} else {
				diag_error(d, &v->pos, "expect: xfail must be true, false or a reason");
				rc = -EINVAL;
			}
		}
		diag_free(&tmp);
		return rc;
	}
	if (strcmp(k, "strict") == 0)
		return node_as_bool(v, "strict", strict, d) < 0 ? -EINVAL : 0;
	if (v->kind != NODE_SCALAR) { /* note */
		diag_error(d, &v->pos, "expect: note must be text");
		return -EINVAL;
	}
	return 0;
}

struct expect_row *expect_add_row(struct expect_result *res)
{
	if (GROW(res->rows, res->cap, res->n + 1, 16) < 0)
		return NULL;
	struct expect_row *row = &res->rows[res->n++];
	memset(row, 0, sizeof(*row));
	return row;
}

/* "{fs: btrfs, bs: [4k, 8k]}" for notes. */
void expect_where_text(const struct node *where, char *buf, size_t len)
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

void expect_finish_row(struct expect_result *res, struct expect_row *row)
{
	res->count[row->status]++;
	if (expect_row_strict_fail(row))
		res->nstrict++;
}

void expect_row_free(struct expect_row *row)
{
	free(row->ref);
	free(row->unit);
	free(row->note);
	free(row->check);
	free(row->claim);
	free(row->to_ref);
	free(row->unit_to);
	for (size_t k = 0; k < row->npairs; k++)
		free(row->pairs[k].note);
	free(row->pairs);
	memset(row, 0, sizeof(*row));
}

void expect_result_free(struct expect_result *res)
{
	for (size_t i = 0; i < res->n; i++)
		expect_row_free(&res->rows[i]);
	free(res->rows);
	memset(res, 0, sizeof(*res));
}
