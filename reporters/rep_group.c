/* rep_group: see rep_group.h. */
#include "rep_group.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "units.h"

bool rep_value_number(const char *s, double *out)
{
	uint64_t sz;
	if (units_is_number(s, out))
		return true;
	if (units_parse_size(s, &sz, NULL, 0) == 0) {
		*out = (double)sz;
		return true;
	}
	return units_parse_duration(s, out, NULL, 0) == 0;
}

bool rep_value_equal(const char *a, const char *b)
{
	double x, y;
	if (!a || !b)
		return false;
	if (strcmp(a, b) == 0)
		return true;
	return rep_value_number(a, &x) && rep_value_number(b, &y) && x == y;
}

bool rep_cell_matches(const struct run_cell *c, const struct node *where)
{
	if (!where || where->kind != NODE_MAP)
		return true;
	for (size_t i = 0; i < where->n; i++) {
		const char *have = run_cell_param(c, where->keys[i]);
		const struct node *want = where->items[i];
		bool ok = false;
		if (!have)
			return false;
		if (want->kind == NODE_SEQ) {
			for (size_t k = 0; k < want->n && !ok; k++)
				ok = want->items[k]->kind == NODE_SCALAR &&
				     rep_value_equal(have, want->items[k]->text);
		} else if (want->kind == NODE_SCALAR) {
			ok = rep_value_equal(have, want->text);
		}
		if (!ok)
			return false;
	}
	return true;
}

/* ---- string sets ---- */

long rep_strs_find(const struct rep_strs *s, const char *x)
{
	for (size_t i = 0; i < s->n; i++)
		if (strcmp(s->v[i], x) == 0)
			return (long)i;
	return -1;
}

void rep_strs_add(struct rep_strs *s, const char *x)
{
	if (!x || rep_strs_find(s, x) >= 0)
		return;
	if (GROW(s->v, s->cap, s->n + 1, 8) < 0)
		return;
	char *c = strdup(x);
	if (c)
		s->v[s->n++] = c;
}

void rep_strs_free(struct rep_strs *s)
{
	for (size_t i = 0; i < s->n; i++)
		free(s->v[i]);
	free(s->v);
	memset(s, 0, sizeof(*s));
}

struct keyed {
	double k;
	size_t pos;
	char *s;
};

static int cmp_keyed(const void *a, const void *b)
{
	const struct keyed *x = a, *y = b;
	if (x->k != y->k)
		return x->k < y->k ? -1 : 1;
	return (x->pos > y->pos) - (x->pos < y->pos);
}

void rep_strs_sort_values(struct rep_strs *s)
{
	struct keyed *k = malloc((s->n ? s->n : 1) * sizeof(*k));
	if (!k)
		return;
	for (size_t i = 0; i < s->n; i++) {
		k[i].pos = i;
		k[i].s = s->v[i];
		if (!rep_value_number(s->v[i], &k[i].k)) {
			free(k);
			return;
		}
	}
	qsort(k, s->n, sizeof(*k), cmp_keyed);
	for (size_t i = 0; i < s->n; i++)
		s->v[i] = k[i].s;
	free(k);
}

void rep_param_names(const struct run *r, struct rep_strs *out)
{
	for (size_t i = 0; i < r->ncells; i++) {
		const struct node *p = r->cells[i].params;
		for (size_t k = 0; p && p->kind == NODE_MAP && k < p->n; k++)
			rep_strs_add(out, p->keys[k]);
	}
}

void rep_groups_free(struct rep_group *g, size_t n)
{
	for (size_t i = 0; g && i < n; i++) {
		free(g[i].label);
		free(g[i].cells);
	}
	free(g);
}

int rep_group_cells(const struct run *r, const struct node *where, const char *const *used, size_t nused,
                    struct rep_group **out, size_t *nout)
{
	struct rep_strs names = {0}, vary = {0};
	size_t *match = malloc((r->ncells ? r->ncells : 1) * sizeof(*match));
	size_t nmatch = 0;
	struct rep_group *g = NULL;
	size_t ng = 0;
	int rc = 0;

	*out = NULL;
	*nout = 0;
	if (!match)
		return -ENOMEM;
	for (size_t i = 0; i < r->ncells; i++)
		if (rep_cell_matches(&r->cells[i], where))
			match[nmatch++] = i;

	/* Parameters that vary among the matching cells and are not used. */
	rep_param_names(r, &names);
	for (size_t k = 0; k < names.n; k++) {
		bool is_used = false, varies = false;
		for (size_t u = 0; u < nused; u++)
			is_used |= used[u] && strcmp(used[u], names.v[k]) == 0;
		if (is_used || nmatch == 0)
			continue;
		const char *v0 = run_cell_param(&r->cells[match[0]], names.v[k]);
		for (size_t i = 1; i < nmatch && !varies; i++) {
			const char *v = run_cell_param(&r->cells[match[i]], names.v[k]);
			varies = (v == NULL) != (v0 == NULL) || (v && strcmp(v, v0) != 0);
		}
		if (varies)
			rep_strs_add(&vary, names.v[k]);
	}

	g = calloc(nmatch ? nmatch : 1, sizeof(*g));
	if (!g) {
		rc = -ENOMEM;
		goto out;
	}
	for (size_t i = 0; i < nmatch; i++) {
		char label[1024];
		size_t len = 0;
		label[0] = '\0';
		for (size_t k = 0; k < vary.n && len < sizeof(label); k++) {
			const char *v = run_cell_param(&r->cells[match[i]], vary.v[k]);
			int w = snprintf(label + len, sizeof(label) - len, "%s%s=%s", k ? ", " : "",
			                 vary.v[k], v ? v : "");
			if (w > 0)
				len += (size_t)w;
		}
		size_t gi;
		for (gi = 0; gi < ng; gi++)
			if (strcmp(g[gi].label, label) == 0)
				break;
		if (gi == ng) {
			g[gi].label = strdup(label);
			g[gi].cells = malloc(nmatch * sizeof(size_t));
			if (!g[gi].label || !g[gi].cells) {
				free(g[gi].label);
				free(g[gi].cells);
				rc = -ENOMEM;
				goto out;
			}
			ng++;
		}
		g[gi].cells[g[gi].n++] = match[i];
	}
	*out = g;
	*nout = ng;
	g = NULL;
out:
	rep_groups_free(g, ng);
	rep_strs_free(&names);
	rep_strs_free(&vary);
	free(match);
	return rc;
}

double rep_stat(const struct metric_summary *m, const char *stat)
{
	if (!m)
		return NAN;
	if (!stat || strcmp(stat, "mean") == 0)
		return m->st.mean;
	if (strcmp(stat, "median") == 0)
		return m->st.median;
	if (strcmp(stat, "min") == 0)
		return m->st.min;
	if (strcmp(stat, "max") == 0)
		return m->st.max;
	if (strcmp(stat, "stddev") == 0)
		return m->st.stddev;
	if (strcmp(stat, "cv") == 0)
		return m->st.cv;
	if (strcmp(stat, "n") == 0)
		return (double)m->st.n;
	return NAN;
}

/* Does parameter `name` take more than one value among r's cells? */
static bool param_varies(const struct run *r, const char *name)
{
	const char *first = NULL;
	for (size_t i = 0; i < r->ncells; i++) {
		const char *v = run_cell_param(&r->cells[i], name);
		if (i == 0)
			first = v;
		else if ((v == NULL) != (first == NULL) || (v && !rep_value_equal(v, first)))
			return true;
	}
	return false;
}

void rep_varying_params(const struct run *r, struct rep_strs *out)
{
	struct rep_strs all = {0};
	rep_param_names(r, &all);
	for (size_t k = 0; k < all.n; k++)
		if (param_varies(r, all.v[k]))
			rep_strs_add(out, all.v[k]);
	if (out->n == 0) /* nothing varies: name cells by everything */
		for (size_t k = 0; k < all.n; k++)
			rep_strs_add(out, all.v[k]);
	rep_strs_free(&all);
}

void rep_cell_label_of(const struct run_cell *c, const struct rep_strs *names, char *buf, size_t len)
{
	size_t k = 0;
	buf[0] = '\0';
	for (size_t i = 0; i < names->n && k < len; i++) {
		const char *v = run_cell_param(c, names->v[i]);
		if (!v)
			continue;
		int w = snprintf(buf + k, len - k, "%s%s=%s", k ? ", " : "", names->v[i], v);
		if (w < 0)
			break;
		k += (size_t)w;
	}
}
