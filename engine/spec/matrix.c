/* matrix: expansion of `matrix:` into cells (see matrix.h). */
#include "matrix.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "spec_load.h"
#include "units.h"

void param_json(const struct node *v, char *buf, size_t len)
{
	if (!v || v->kind == NODE_NULL) {
		snprintf(buf, len, "null");
		return;
	}
	if (v->kind != NODE_SCALAR) {
		snprintf(buf, len, "null");
		return;
	}
	const char *t = v->text;
	if (!v->quoted) {
		int64_t i;
		double x;
		uint64_t sz;
		if (strcmp(t, "true") == 0 || strcmp(t, "false") == 0) {
			snprintf(buf, len, "%s", t);
			return;
		}
		if (units_is_int(t, &i)) {
			snprintf(buf, len, "%lld", (long long)i);
			return;
		}
		if (units_is_number(t, &x)) {
			snprintf(buf, len, "%.15g", x);
			return;
		}
		if (units_has_size_suffix(t) && units_parse_size(t, &sz, NULL, 0) == 0) {
			snprintf(buf, len, "%llu", (unsigned long long)sz);
			return;
		}
		if (units_has_duration_suffix(t) && units_parse_duration(t, &x, NULL, 0) == 0) {
			snprintf(buf, len, "%.15g", x);
			return;
		}
	}
	/* A JSON string literal, escaped (no FILE: this runs for every cell). */
	size_t o = 0;
	if (len < 8) {
		snprintf(buf, len, "\"\"");
		return;
	}
	buf[o++] = '"';
	for (const unsigned char *p = (const unsigned char *)t; *p && o + 8 < len; p++) {
		if (*p == '"' || *p == '\\') {
			buf[o++] = '\\';
			buf[o++] = (char)*p;
		} else if (*p < 0x20) {
			o += (size_t)snprintf(buf + o, len - o, "\\u%04x", *p);
		} else {
			buf[o++] = (char)*p;
		}
	}
	buf[o++] = '"';
	buf[o] = 0;
}

bool param_equal(const struct node *a, const struct node *b)
{
	char x[512], y[512];
	param_json(a, x, sizeof(x));
	param_json(b, y, sizeof(y));
	return strcmp(x, y) == 0;
}

static int cmp_idx(const void *a, const void *b, void *keys)
{
	char **k = keys;
	return strcmp(k[*(const size_t *)a], k[*(const size_t *)b]);
}

void matrix_cell_id(const struct node *params, char out[13])
{
	uint64_t h = 1469598103934665603ULL;
	size_t n = params ? params->n : 0;
	size_t *order = malloc((n ? n : 1) * sizeof(*order));
	for (size_t i = 0; i < n; i++)
		order[i] = i;
	if (n)
		qsort_r(order, n, sizeof(*order), cmp_idx, params->keys);
	char val[512];
	for (size_t j = 0; j < n; j++) {
		size_t i = order[j];
		param_json(params->items[i], val, sizeof(val));
		for (const char *p = params->keys[i]; *p; p++)
			h = (h ^ (unsigned char)*p) * 1099511628211ULL;
		h = (h ^ '=') * 1099511628211ULL;
		for (const char *p = val; *p; p++)
			h = (h ^ (unsigned char)*p) * 1099511628211ULL;
		h = (h ^ '\n') * 1099511628211ULL;
	}
	free(order);
	snprintf(out, 13, "%012llx", (unsigned long long)(h >> 16));
}

/* ---- axes ---- */

struct axis {
	size_t nkeys;        /* >1 for a zip */
	const char **keys;   /* borrowed from the matrix node */
	size_t nvals;        /* length of each list */
	size_t *lens;        /* lens[k]: values read for key k (for freeing) */
	struct node ***vals; /* vals[k][i]: interpolated value i of key k */
};

static struct node *value_of(const struct node *v, const struct matrix_opts *o, struct diag *d)
{
	if (o && o->lookup) {
		struct spec_budget own;
		if (!o->budget)
			interp_budget_for(&own, NULL);
		return interp_tree(v, o->lookup, o->lookup_ud, o->budget ? o->budget : &own, d);
	}
	return node_clone(v);
}

/* Read one list of scalar values; 0 or -EINVAL. */
static int read_list(const struct node *list, const char *key, const struct src_pos *kpos,
                     const struct matrix_opts *o, struct node ***out, size_t *n, struct diag *d)
{
	if (!list || list->kind != NODE_SEQ) {
		diag_error(d, list ? &list->pos : kpos,
		           "matrix: '%s' must be a list of values (write [x] for a single value), found %s",
		           key, list ? node_kind_name(list->kind) : "nothing");
		return -EINVAL;
	}
	if (list->n == 0) {
		diag_error(d, &list->pos,
		           "matrix: '%s' is an empty list: a matrix axis needs at least one value", key);
		return -EINVAL;
	}
	int bad = 0;
	*out = calloc(list->n, sizeof(**out));
	for (size_t i = 0; i < list->n; i++) {
		const struct node *it = list->items[i];
		if (it->kind == NODE_SEQ || it->kind == NODE_MAP) {
			diag_error(d, &it->pos, "matrix: values of '%s' must be plain values, found %s", key,
			           node_kind_name(it->kind));
			bad = -EINVAL;
			continue;
		}
		(*out)[i] = value_of(it, o, d);
		if (!(*out)[i])
			bad = -EINVAL;
	}
	*n = list->n;
	return bad;
}

static void axis_free(struct axis *a)
{
	for (size_t k = 0; k < a->nkeys; k++) {
		for (size_t i = 0; a->vals[k] && i < a->lens[k]; i++)
			node_free(a->vals[k][i]);
		free(a->vals[k]);
	}
	free(a->vals);
	free(a->lens);
	free(a->keys);
}

static int add_zip(const struct node *zip, const struct matrix_opts *o, struct axis *a, struct diag *d)
{
	if (zip->kind != NODE_MAP || zip->n == 0) {
		diag_error(d, &zip->pos, "matrix: zip must be a map of lists of equal length");
		return -EINVAL;
	}
	a->nkeys = zip->n;
	a->keys = calloc(zip->n, sizeof(*a->keys));
	a->vals = calloc(zip->n, sizeof(*a->vals));
	a->lens = calloc(zip->n, sizeof(*a->lens));
	int bad = 0;
	size_t first = 0;
	for (size_t k = 0; k < zip->n; k++) {
		size_t n = 0;
		a->keys[k] = zip->keys[k];
		int rc = read_list(zip->items[k], zip->keys[k], &zip->kpos[k], o, &a->vals[k], &n, d);
		a->lens[k] = n;
		if (rc < 0) {
			bad = -EINVAL;
			continue;
		}
		if (k == 0) {
			first = n;
			a->nvals = n;
		} else if (n != first) {
			diag_error(
			    d, &zip->kpos[k],
			    "matrix: zip lists must have equal length: '%s' has %zu values but '%s' has %zu",
			    zip->keys[k], n, zip->keys[0], first);
			bad = -EINVAL;
		}
	}
	return bad;
}

/* Does `entry` (a map) match the combination: every pair equal? */
static bool entry_matches(const struct node *entry, const struct node *params)
{
	for (size_t i = 0; i < entry->n; i++) {
		const struct node *v = node_get(params, entry->keys[i]);
		if (!v || !param_equal(v, entry->items[i]))
			return false;
	}
	return true;
}

static int check_entry_keys(const struct node *entry, const char *what, const char *const *keys, bool any_key,
                            struct diag *d)
{
	if (entry->kind != NODE_MAP || entry->n == 0) {
		diag_error(d, &entry->pos,
		           "matrix: each %s entry must be a non-empty map of parameter values", what);
		return -EINVAL;
	}
	int bad = 0;
	for (size_t i = 0; i < entry->n; i++) {
		const struct node *v = entry->items[i];
		if (v->kind == NODE_SEQ || v->kind == NODE_MAP) {
			diag_error(d, &v->pos, "matrix: %s values must be plain values, found %s", what,
			           node_kind_name(v->kind));
			bad = -EINVAL;
		}
		if (any_key)
			continue;
		bool known = false;
		for (size_t k = 0; keys[k]; k++)
			if (!strcmp(keys[k], entry->keys[i]))
				known = true;
		if (!known) {
			const char *sug = node_suggest(entry->keys[i], keys);
			if (sug)
				diag_error(
				    d, &entry->kpos[i],
				    "matrix: %s key '%s' is not a matrix parameter; did you mean '%s'?", what,
				    entry->keys[i], sug);
			else
				diag_error(d, &entry->kpos[i],
				           "matrix: %s key '%s' is not a matrix parameter", what,
				           entry->keys[i]);
			bad = -EINVAL;
		}
	}
	return bad;
}

/* A growable array of parameter maps. */
struct combos {
	struct node **v;
	bool *original; /* came from the cross product (include rules need this) */
	size_t n, cap;
};

/* Append params (c owns it from here, also on failure); -ENOMEM, said in d,
 * when there is no room: v and original grow together. */
static int combos_push(struct combos *c, struct node *params, bool original, struct diag *d)
{
	size_t capv = c->cap, capo = c->cap;
	if (GROW(c->v, capv, c->n + 1, 64) < 0 || GROW(c->original, capo, c->n + 1, 64) < 0) {
		node_free(params);
		diag_error(d, NULL, "matrix: out of memory for the combinations");
		return -ENOMEM;
	}
	c->cap = capv;
	c->v[c->n] = params;
	c->original[c->n] = original;
	c->n++;
	return 0;
}

/* Apply one include entry following GitHub Actions' rules. axis_keys lists
 * the original matrix keys. */
static void apply_include(struct combos *c, const struct node *entry, const char *const *axis_keys,
                          const struct matrix_opts *o, struct diag *d)
{
	bool used = false;
	for (size_t j = 0; j < c->n; j++) {
		if (!c->original[j])
			continue;
		struct node *p = c->v[j];
		bool overwrites = false;
		for (size_t i = 0; i < entry->n && !overwrites; i++) {
			bool is_axis = false;
			for (size_t k = 0; axis_keys[k]; k++)
				if (!strcmp(axis_keys[k], entry->keys[i]))
					is_axis = true;
			const struct node *cur = node_get(p, entry->keys[i]);
			if (is_axis && cur && !param_equal(cur, entry->items[i]))
				overwrites = true;
		}
		if (overwrites)
			continue;
		used = true;
		for (size_t i = 0; i < entry->n; i++)
			node_map_put(p, entry->keys[i], &entry->kpos[i], value_of(entry->items[i], o, d));
	}
	if (!used) {
		struct node *p = node_new(NODE_MAP, &entry->pos);
		for (size_t i = 0; i < entry->n; i++)
			node_map_put(p, entry->keys[i], &entry->kpos[i], value_of(entry->items[i], o, d));
		combos_push(c, p, false, d);
	}
}

static int cmp_cell_id(const void *a, const void *b)
{
	const struct cell *x = *(const struct cell *const *)a, *y = *(const struct cell *const *)b;
	int c = strcmp(x->id, y->id);
	return c ? c : (x->index < y->index ? -1 : 1);
}

/* Two cells with the same parameters would share an id (and results). */
static void report_duplicates(struct cell *cells, size_t n, const struct node *m, struct diag *d)
{
	if (n < 2)
		return;
	struct cell **v = malloc(n * sizeof(*v));
	for (size_t i = 0; i < n; i++)
		v[i] = &cells[i];
	qsort(v, n, sizeof(*v), cmp_cell_id);
	size_t dups = 0;
	for (size_t i = 1; i < n; i++) {
		if (strcmp(v[i - 1]->id, v[i]->id))
			continue;
		if (++dups <= 3)
			diag_error(d, m ? &m->pos : NULL,
			           "matrix: cells %zu and %zu have the same parameters (a repeated value, "
			           "include or "
			           "zip; note that 4k and 4KiB are the same value)",
			           v[i - 1]->index, v[i]->index);
	}
	if (dups > 3)
		diag_error(d, m ? &m->pos : NULL, "matrix: %zu more pairs of cells have the same parameters",
		           dups - 3);
	free(v);
}

/* The matrix read into axes, with its exclude/include/filter entries. */
struct grid {
	struct axis *axes;
	size_t naxes;
	const char **keys; /* every parameter name of the axes, NULL-terminated */
	size_t nkeys;
	const struct node *exclude, *include, *filter;
};

static void grid_free(struct grid *g)
{
	for (size_t a = 0; a < g->naxes; a++)
		axis_free(&g->axes[a]);
	free(g->axes);
	free(g->keys);
}

/* Allocate for the axes and parameter names (zips hold several). */
static void grid_alloc(const struct node *m, struct grid *g)
{
	size_t max_axes = 1, max_keys = 1;
	for (size_t i = 0; m && i < m->n; i++) {
		const struct node *v = m->items[i];
		if (strcmp(m->keys[i], "zip")) {
			max_axes++;
			max_keys++;
			continue;
		}
		size_t nz = v->kind == NODE_SEQ ? v->n : 1;
		max_axes += nz;
		for (size_t z = 0; z < nz; z++) {
			const struct node *zm = v->kind == NODE_SEQ ? v->items[z] : v;
			max_keys += zm->kind == NODE_MAP ? zm->n : 0;
		}
	}
	g->axes = calloc(max_axes, sizeof(*g->axes));
	g->keys = calloc(max_keys, sizeof(*g->keys));
}

static void grid_read(const struct node *m, const struct matrix_opts *o, struct grid *g, struct diag *d)
{
	grid_alloc(m, g);
	for (size_t i = 0; m && i < m->n; i++) {
		const char *k = m->keys[i];
		const struct node *v = m->items[i];
		if (!strcmp(k, "exclude")) {
			g->exclude = v;
		} else if (!strcmp(k, "include")) {
			g->include = v;
		} else if (!strcmp(k, "filter")) {
			g->filter = v;
		} else if (!strcmp(k, "zip")) {
			/* One zip map, or a list of them for several zipped groups. */
			size_t nz = v->kind == NODE_SEQ ? v->n : 1;
			for (size_t z = 0; z < nz; z++) {
				const struct node *zm = v->kind == NODE_SEQ ? v->items[z] : v;
				struct axis *a = &g->axes[g->naxes++];
				add_zip(zm, o, a, d);
				for (size_t q = 0; q < a->nkeys; q++)
					g->keys[g->nkeys++] = a->keys[q];
			}
		} else {
			struct axis *a = &g->axes[g->naxes++];
			a->nkeys = 1;
			a->keys = calloc(1, sizeof(*a->keys));
			a->vals = calloc(1, sizeof(*a->vals));
			a->lens = calloc(1, sizeof(*a->lens));
			a->keys[0] = k;
			g->keys[g->nkeys++] = k;
			read_list(v, k, &m->kpos[i], o, &a->vals[0], &a->nvals, d);
			a->lens[0] = a->nvals;
		}
	}
}

static void grid_check(const struct node *m, const struct matrix_opts *o, struct grid *g, struct diag *d)
{
	/* A key that appears in two zips or in a zip and as an axis. */
	for (size_t i = 0; i < g->nkeys; i++)
		for (size_t j = i + 1; j < g->nkeys; j++)
			if (!strcmp(g->keys[i], g->keys[j]))
				diag_error(d, m ? &m->pos : NULL, "matrix: parameter '%s' is defined twice",
				           g->keys[i]);
	if (g->exclude && g->exclude->kind != NODE_SEQ) {
		diag_error(d, &g->exclude->pos, "matrix: exclude must be a list of maps");
		g->exclude = NULL;
	}
	if (g->include && g->include->kind != NODE_SEQ) {
		diag_error(d, &g->include->pos, "matrix: include must be a list of maps");
		g->include = NULL;
	}
	for (size_t i = 0; g->exclude && i < g->exclude->n; i++)
		check_entry_keys(g->exclude->items[i], "exclude", g->keys, false, d);
	for (size_t i = 0; g->include && i < g->include->n; i++)
		check_entry_keys(g->include->items[i], "include", g->keys, true, d);
	if (g->filter && !o->filter)
		diag_error(d, &g->filter->pos,
		           "matrix: filter needs Lua, which is not available in this build");
}

/* Cross product: odometer over the axes, the last axis varying fastest;
 * excluded combinations are dropped at once. */
static int grid_cross(const struct node *m, const struct grid *g, struct combos *c, struct diag *d)
{
	/* Refused from the axes' lengths alone, before any cell is made. */
	size_t total = 1;
	bool over = false;
	char lens[256] = "";
	size_t o = 0;
	for (size_t a = 0; a < g->naxes; a++) {
		size_t nv = g->axes[a].nvals;
		if (nv && total > MATRIX_MAX_CELLS / nv)
			over = true;
		else
			total *= nv;
		if (o < sizeof(lens) - 32)
			o += (size_t)snprintf(lens + o, sizeof(lens) - o, "%s%zu", a ? " x " : "", nv);
	}
	if (over) {
		diag_error(d, &m->pos,
		           "matrix: its axes (%s values) make more than %d combinations, the limit; split "
		           "the scenario or zip axes that vary together",
		           lens, MATRIX_MAX_CELLS);
		return -EINVAL;
	}
	size_t *idx = calloc(g->naxes + 1, sizeof(*idx));
	for (size_t t = 0; t < total; t++) {
		struct node *p = node_new(NODE_MAP, m ? &m->pos : NULL);
		for (size_t a = 0; a < g->naxes; a++)
			for (size_t k = 0; k < g->axes[a].nkeys; k++) {
				const struct node *v = g->axes[a].vals[k][idx[a]];
				node_map_put(p, g->axes[a].keys[k], &v->pos, node_clone(v));
			}
		bool excluded = false;
		for (size_t e = 0; g->exclude && e < g->exclude->n && !excluded; e++)
			excluded = entry_matches(g->exclude->items[e], p);
		if (excluded) {
			node_free(p);
		} else if (combos_push(c, p, true, d) < 0) {
			free(idx);
			return -ENOMEM;
		}
		for (size_t a = g->naxes; a-- > 0;) {
			if (++idx[a] < g->axes[a].nvals)
				break;
			idx[a] = 0;
		}
	}
	free(idx);
	return 0;
}

/* Filter, then number the survivors (taken out of c). */
static struct cell *number_cells(struct combos *c, const struct node *filter, const struct matrix_opts *o,
                                 size_t *n, struct diag *d)
{
	struct cell *cells = calloc(c->n ? c->n : 1, sizeof(*cells));
	*n = 0;
	for (size_t j = 0; j < c->n; j++) {
		bool keep = true;
		if (filter && o->filter(o->filter_ud, filter, c->v[j], &keep, d) < 0) {
			/* The same expression fails the same way for every cell:
			 * report it once. */
			filter = NULL;
			keep = false;
		}
		if (!keep) {
			node_free(c->v[j]);
			c->v[j] = NULL;
			continue;
		}
		cells[*n].index = *n;
		cells[*n].params = c->v[j];
		c->v[j] = NULL;
		matrix_cell_id(cells[*n].params, cells[*n].id);
		(*n)++;
	}
	return cells;
}

int matrix_expand(const struct node *m, const struct matrix_opts *o, struct cell **cells_out, size_t *ncells,
                  struct diag *d)
{
	*cells_out = NULL;
	*ncells = 0;
	size_t errs0 = d->nerrors;
	if (m && m->kind == NODE_NULL)
		m = NULL;
	if (m && m->kind != NODE_MAP) {
		diag_error(d, &m->pos, "matrix: expected a map of parameter lists, found %s",
		           node_kind_name(m->kind));
		return -EINVAL;
	}
	struct grid g = {0};
	grid_read(m, o, &g, d);
	grid_check(m, o, &g, d);
	struct combos c = {0};
	if (d->nerrors == errs0 && grid_cross(m, &g, &c, d) == 0) {
		g.keys[g.nkeys] = NULL;
		for (size_t i = 0; g.include && i < g.include->n; i++)
			apply_include(&c, g.include->items[i], g.keys, o, d);
		*cells_out = number_cells(&c, g.filter, o, ncells, d);
		report_duplicates(*cells_out, *ncells, m, d);
	}
	for (size_t j = 0; j < c.n; j++)
		node_free(c.v[j]);
	free(c.v);
	free(c.original);
	grid_free(&g);
	if (d->nerrors != errs0) {
		matrix_free(*cells_out, *ncells);
		*cells_out = NULL;
		*ncells = 0;
		return -EINVAL;
	}
	return 0;
}

void matrix_free(struct cell *cells, size_t n)
{
	if (!cells)
		return;
	for (size_t i = 0; i < n; i++) {
		node_free(cells[i].params);
		cell_steps_free(&cells[i]);
	}
	free(cells);
}
