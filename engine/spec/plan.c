/* plan: matrix expansion plus validation of each cell (see plan.h).
 *
 * Checking 100,000 cells one by one would interpolate the whole scenario
 * 100,000 times; instead, cells whose referenced parameters are equal give
 * the same interpolated tree, so each distinct combination is checked once
 * and the diagnostics of a position are reported once. */
#include "plan.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "estimate.h"
#include "grow.h"
#include "jsonio.h"
#include "matrix.h"
#include "spec_hooks.h"
#include "spec_load.h"
#include "term_escape.h"

/* Defined in spec.c. */

static const struct node *var_lookup(void *ud, const char *name, bool *defer)
{
	const struct spec *s = ud;
	(void)defer;
	return node_get(s->vars, name);
}

/* A small open-addressing set of strings, each with a number. */
struct strset {
	char **v;
	size_t *ids;
	size_t cap, n;
};

static uint64_t str_hash(const char *s)
{
	uint64_t h = 1469598103934665603ULL;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ULL;
	return h;
}

static size_t strset_probe(char **v, size_t cap, const char *s)
{
	size_t j = str_hash(s) & (cap - 1);
	while (v[j] && strcmp(v[j], s))
		j = (j + 1) & (cap - 1);
	return j;
}

/* Add s (taking ownership). Returns true when it was new; *id receives the
 * number stored with s (new_id for a new string). */
static bool strset_add_id(struct strset *S, char *s, size_t new_id, size_t *id)
{
	if ((S->n + 1) * 2 > S->cap) {
		size_t cap = S->cap ? S->cap * 2 : 64;
		char **v = calloc(cap, sizeof(*v));
		size_t *ids = calloc(cap, sizeof(*ids));
		for (size_t i = 0; i < S->cap; i++) {
			if (!S->v[i])
				continue;
			size_t j = strset_probe(v, cap, S->v[i]);
			v[j] = S->v[i];
			ids[j] = S->ids[i];
		}
		free(S->v);
		free(S->ids);
		S->v = v;
		S->ids = ids;
		S->cap = cap;
	}
	size_t j = strset_probe(S->v, S->cap, s);
	if (S->v[j]) {
		free(s);
		*id = S->ids[j];
		return false;
	}
	S->v[j] = s;
	S->ids[j] = new_id;
	S->n++;
	*id = new_id;
	return true;
}

static bool strset_add(struct strset *S, char *s)
{
	size_t id;
	return strset_add_id(S, s, 0, &id);
}

static void strset_free(struct strset *S)
{
	for (size_t i = 0; i < S->cap; i++)
		free(S->v[i]);
	free(S->v);
	free(S->ids);
}

/* Keep only the first diagnostic of each (position, message). */
static void dedupe_into(struct diag *dst, struct diag *src, struct strset *seen)
{
	for (size_t i = 0; i < src->n; i++) {
		struct diag_entry *e = &src->v[i];
		char *key = NULL;
		if (asprintf(&key, "%s:%d:%d:%s", e->pos.file ? e->pos.file : "", e->pos.line, e->pos.col,
		             e->msg) < 0)
			continue;
		if (strset_add(seen, key))
			diag_add(dst, e->level, e->pos.file ? &e->pos : NULL, "%s", e->msg);
	}
	diag_free(src);
}

/* Does a target of the cell's tree ask for `fresh: per-cell`? (spec cannot
 * read fixtures/fs's tables: the value is the one fs_opts_table names.) */
static bool fresh_per_cell(const struct node *tree)
{
	const struct node *t = node_get(node_get(tree, "target"), "fresh"), *ts = node_get(tree, "targets");
	bool per_cell = t && t->kind == NODE_SCALAR && !strcmp(t->text, "per-cell");
	for (size_t i = 0; ts && ts->kind == NODE_MAP && i < ts->n && !per_cell; i++) {
		t = node_get(ts->items[i], "fresh");
		per_cell = t && t->kind == NODE_SCALAR && !strcmp(t->text, "per-cell");
	}
	return per_cell;
}

/* Sort keys for plan_order: [fs_key, pg_key, position] triples. */
struct order_key {
	uint64_t fs, pg;
	size_t pos, rank_fs, rank_pg;
};

static int cmp_fs(const void *a, const void *b)
{
	const struct order_key *x = a, *y = b;
	if (x->fs != y->fs)
		return x->fs < y->fs ? -1 : 1;
	return x->pos < y->pos ? -1 : x->pos > y->pos;
}

static int cmp_fs_pg(const void *a, const void *b)
{
	const struct order_key *x = a, *y = b;
	if (x->fs != y->fs)
		return x->fs < y->fs ? -1 : 1;
	if (x->pg != y->pg)
		return x->pg < y->pg ? -1 : 1;
	return x->pos < y->pos ? -1 : x->pos > y->pos;
}

static int cmp_rank(const void *a, const void *b)
{
	const struct order_key *x = a, *y = b;
	if (x->rank_fs != y->rank_fs)
		return x->rank_fs < y->rank_fs ? -1 : 1;
	if (x->rank_pg != y->rank_pg)
		return x->rank_pg < y->rank_pg ? -1 : 1;
	return x->pos < y->pos ? -1 : x->pos > y->pos;
}

/* Order cells so that those sharing a filesystem (then a cluster) run one
 * after another; groups keep the order of their first cell, and cells keep
 * their order within a group. O(n log n). */
void plan_order(struct cell *cells, size_t n)
{
	if (n < 2)
		return;
	struct order_key *k = malloc(n * sizeof(*k));
	for (size_t i = 0; i < n; i++)
		k[i] = (struct order_key){cells[i].fs_key, cells[i].pg_key, i, 0, 0};
	qsort(k, n, sizeof(*k), cmp_fs);
	for (size_t i = 0; i < n; i++)
		k[i].rank_fs = (i && k[i].fs == k[i - 1].fs) ? k[i - 1].rank_fs : k[i].pos;
	qsort(k, n, sizeof(*k), cmp_fs_pg);
	for (size_t i = 0; i < n; i++)
		k[i].rank_pg =
		    (i && k[i].fs == k[i - 1].fs && k[i].pg == k[i - 1].pg) ? k[i - 1].rank_pg : k[i].pos;
	qsort(k, n, sizeof(*k), cmp_rank);
	struct cell *tmp = malloc(n * sizeof(*tmp));
	for (size_t i = 0; i < n; i++)
		tmp[i] = cells[k[i].pos];
	memcpy(cells, tmp, n * sizeof(*tmp));
	free(tmp);
	free(k);
}

/* The cell's steps as its tree names them, and which its `when:` skips. */
static int plan_steps(const struct spec *s, const struct node *tree, struct cell *c)
{
	const struct node *steps = node_get(tree, "steps");
	if (!steps || steps->kind != NODE_SEQ || !steps->n)
		return 0;
	c->steps = calloc(steps->n, sizeof(*c->steps));
	if (!c->steps)
		return -ENOMEM;
	char why[256], name[128];
	for (size_t i = 0; i < steps->n; i++) {
		spec_step_name(steps->items[i], i, name, sizeof(name));
		c->steps[i].skipped = spec_step_skipped(s, tree, i, why, sizeof(why));
		c->steps[i].name = strdup(name);
		c->nsteps = i + 1;
		if (!c->steps[i].name) {
			cell_steps_free(c);
			return -ENOMEM;
		}
	}
	return 0;
}

int plan_build(struct spec *s, struct cell **cells, size_t *n, struct diag *d)
{
	struct spec_budget b; /* what ${var} in the matrix's values may copy */
	interp_budget_for(&b, s->root);
	struct matrix_opts mo = {var_lookup, s, spec_hooks_filter, s, &b};
	size_t errs0 = d->nerrors;
	if (matrix_expand(node_get(s->root, "matrix"), &mo, cells, n, d) < 0)
		return -EINVAL;

	/* Which parameters change the per-cell tree? With !lua anywhere, all. */
	char **refs = NULL;
	size_t nrefs = 0;
	bool every_cell = false;
	static const char *const secs[] = {"target", "targets", "postgres",    "sysctl", "queue",
	                                   "steps",  "models",  "model_scale", NULL};
	for (int i = 0; secs[i]; i++)
		every_cell |= spec_hooks_has_lua(node_get(s->root, secs[i]));
	spec_cell_refs(s, NULL, &refs, &nrefs);

	struct strset combos = {0}, seen = {0};
	/* The first cell of each distinct combination, to copy fixture keys. */
	size_t *first_of = NULL;
	size_t nfirst = 0;
	for (size_t c = 0; c < *n; c++) {
		char *key = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&key, &len);
		for (size_t r = 0; r < nrefs && !every_cell; r++) {
			const struct node *v = node_get((*cells)[c].params, refs[r]);
			fprintf(f, "%s\x1f", v ? v->text : "\x1e");
		}
		if (every_cell)
			fprintf(f, "%zu", c);
		fclose(f);
		size_t combo;
		if (!strset_add_id(&combos, key, nfirst, &combo)) {
			/* Same referenced values as an earlier cell: same tree, same fixtures. */
			size_t twin = first_of[combo];
			(*cells)[c].fs_key = (*cells)[twin].fs_key;
			(*cells)[c].pg_key = (*cells)[twin].pg_key;
			(*cells)[c].fresh_fs = (*cells)[twin].fresh_fs;
			cell_steps_copy(&(*cells)[c], &(*cells)[twin]);
			continue;
		}
		first_of = realloc(first_of, (nfirst + 1) * sizeof(*first_of));
		first_of[nfirst++] = c;
		struct diag one;
		diag_init(&one);
		struct node *tree = spec_cell_tree(s, &(*cells)[c], true, &one);
		if (tree) {
			spec_check_cell(s, tree, &one);
			plan_steps(s, tree, &(*cells)[c]);
			(*cells)[c].fs_key =
			    node_hash(node_get(tree, "target")) ^ (node_hash(node_get(tree, "targets")) * 31);
			(*cells)[c].pg_key = node_hash(node_get(tree, "postgres"));
			(*cells)[c].fresh_fs = fresh_per_cell(tree);
		}
		node_free(tree);
		dedupe_into(d, &one, &seen);
	}
	strset_free(&combos);
	strset_free(&seen);
	free(first_of);
	if (d->nerrors == errs0)
		plan_order(*cells, *n);
	for (size_t r = 0; r < nrefs; r++)
		free(refs[r]);
	free(refs);
	return d->nerrors != errs0 ? -EINVAL : 0;
}

/* A parameter as plan JSON: the value param_json() gives (the one cell ids
 * hash), with strings taken whole from the scenario. */
static json_t *param_value_json(const struct node *v)
{
	char val[512];
	param_json(v, val, sizeof(val));
	if (val[0] == '"')
		return jsonio_str(v->text);
	if (!strcmp(val, "null"))
		return json_null();
	if (!strcmp(val, "true") || !strcmp(val, "false"))
		return json_boolean(val[0] == 't');
	return jsonio_number_text(val);
}

/* The names of the steps `when:` skips in cell c. */
static json_t *skipped_json(const struct cell *c)
{
	json_t *a = json_array();
	for (size_t i = 0; i < c->nsteps; i++)
		if (c->steps[i].skipped)
			jsonio_push(a, jsonio_str(c->steps[i].name));
	return a;
}

/* Cell c's steps for the table: "a b -c", a skipped one with a minus. */
static void steps_text(const struct cell *c, char *buf, size_t len)
{
	size_t used = 0;
	buf[0] = 0;
	for (size_t i = 0; i < c->nsteps && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s%s", used ? " " : "",
		                         c->steps[i].skipped ? "-" : "", c->steps[i].name);
}

/* Under the table: each step's `when:` as written, and where. */
static void print_whens(const struct spec *s, FILE *out)
{
	const struct node *steps = node_get(s->root, "steps");
	for (size_t i = 0; steps && steps->kind == NODE_SEQ && i < steps->n; i++) {
		const struct node *w = node_get(steps->items[i], "when");
		if (!w)
			continue;
		char name[128];
		spec_step_name(steps->items[i], i, name, sizeof(name));
		char en[256], ew[1024];
		fprintf(out, "# -%s: skipped where its when: is false: %s%s (%s:%d:%d)\n", TERM_ESC(en, name),
		        w->tag && !strcmp(w->tag, "!lua") ? "!lua " : "",
		        TERM_ESC(ew, w->kind == NODE_SCALAR ? w->text : "?"), w->pos.file ? w->pos.file : "?",
		        w->pos.line, w->pos.col);
	}
}

/* One cell per line inside the array: easy to read and to diff. */
static void print_json(const struct spec *s, const struct cell *cells, size_t n, FILE *out)
{
	bool whens = spec_has_when(s);
	fputc('[', out);
	for (size_t i = 0; i < n; i++) {
		const struct cell *c = &cells[i];
		json_t *o = json_object(), *params = json_object(), *text = json_object();
		fputs(i ? ",\n" : "\n", out);
		jsonio_set(o, "index", json_integer((json_int_t)c->index));
		jsonio_set(o, "id", jsonio_str(c->id));
		for (size_t k = 0; k < c->params->n; k++) {
			jsonio_set(params, c->params->keys[k], param_value_json(c->params->items[k]));
			jsonio_set(text, c->params->keys[k], jsonio_str(c->params->items[k]->text));
		}
		jsonio_set(o, "params", params);
		jsonio_set(o, "text", text);
		if (whens) /* only then: plans without when: are unchanged */
			jsonio_set(o, "skipped_steps", skipped_json(c));
		jsonio_dump(o, out, false);
		json_decref(o);
	}
	fputs(n ? "\n]\n" : "]\n", out);
}

/* Union of parameter names over all cells, in first-seen order. */
static size_t param_columns(const struct cell *cells, size_t n, const char ***cols)
{
	size_t nc = 0, cap = 0;
	*cols = NULL;
	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < cells[i].params->n; k++) {
			const char *key = cells[i].params->keys[k];
			bool have = false;
			for (size_t j = 0; j < nc && !have; j++)
				have = !strcmp((*cols)[j], key);
			if (have)
				continue;
			if (GROW(*cols, cap, nc + 1, 8) < 0)
				return nc; /* out of memory: the columns so far */
			(*cols)[nc++] = key;
		}
	return nc;
}

void plan_fixture_changes(const struct cell *cells, size_t i, bool has_pg, bool loads, char *buf, size_t len)
{
	bool fs = cell_new_fs(i ? &cells[i - 1] : NULL, &cells[i]);
	bool pg = has_pg && (fs || cells[i].pg_key != cells[i - 1].pg_key);
	const char *what = fs ? (has_pg ? "target+pg" : "target") : pg ? "pg settings" : NULL;
	/* data: pgbench's tables loaded (the estimate's data loads) */
	snprintf(buf, len, "%s%s%s", what ? what : "", what && loads ? "+" : "",
	         loads  ? "data"
	         : what ? ""
	                : "-");
}

void plan_print(const struct spec *s, const struct cell *cells, size_t n, enum plan_format f, FILE *out)
{
	if (f == PLAN_JSON) {
		print_json(s, cells, n, out);
		return;
	}
	const char **cols;
	size_t nc = param_columns(cells, n, &cols);
	if (f == PLAN_TSV) {
		char e[1024];
		fputs("index\tid", out);
		for (size_t j = 0; j < nc; j++)
			fprintf(out, "\t%s", TERM_ESC(e, cols[j]));
		fputc('\n', out);
		for (size_t i = 0; i < n; i++) {
			fprintf(out, "%zu\t%s", cells[i].index, cells[i].id);
			for (size_t j = 0; j < nc; j++) {
				const struct node *v = node_get(cells[i].params, cols[j]);
				fprintf(out, "\t%s", TERM_ESC(e, v ? v->text : ""));
			}
			fputc('\n', out);
		}
		free(cols);
		return;
	}
	/* Aligned table: widths from the header and every value (as shown). */
	char e[1024];
	size_t *w = calloc(nc + 2, sizeof(*w));
	w[0] = strlen("index");
	w[1] = 12;
	for (size_t j = 0; j < nc; j++)
		w[j + 2] = strlen(TERM_ESC(e, cols[j]));
	for (size_t i = 0; i < n; i++) {
		char ix[32];
		size_t l = (size_t)snprintf(ix, sizeof(ix), "%zu", cells[i].index);
		if (l > w[0])
			w[0] = l;
		for (size_t j = 0; j < nc; j++) {
			const struct node *v = node_get(cells[i].params, cols[j]);
			if (v && strlen(TERM_ESC(e, v->text)) > w[j + 2])
				w[j + 2] = strlen(e);
		}
	}
	fprintf(out, "# %s: %zu cell%s in run order; 'sets up' names the fixtures a cell builds anew\n",
	        TERM_ESC(e, s->name), n, n == 1 ? "" : "s");
	bool whens = spec_has_when(s);
	size_t *loads = estimate_cell_loads(s, cells, n);
	bool has_pg = node_get(s->root, "postgres") != NULL;
	int wset = 13;
	for (size_t i = 0; i < n; i++) {
		char what[32];
		plan_fixture_changes(cells, i, has_pg, loads && loads[i], what, sizeof(what));
		wset = (int)strlen(what) > wset ? (int)strlen(what) : wset;
	}
	fprintf(out, "%-*s  %-*s  %-*s", (int)w[0], "index", (int)w[1], "id", wset, "sets up");
	for (size_t j = 0; j < nc; j++)
		fprintf(out, "  %-*s", (int)w[j + 2], TERM_ESC(e, cols[j]));
	fputs(whens ? "  steps\n" : "\n", out);
	for (size_t i = 0; i < n; i++) {
		char what[32];
		plan_fixture_changes(cells, i, has_pg, loads && loads[i], what, sizeof(what));
		fprintf(out, "%*zu  %-*s  %-*s", (int)w[0], cells[i].index, (int)w[1], cells[i].id, wset,
		        what);
		for (size_t j = 0; j < nc; j++) {
			const struct node *v = node_get(cells[i].params, cols[j]);
			fprintf(out, "  %-*s", (int)w[j + 2], TERM_ESC(e, v ? v->text : "-"));
		}
		char steps[1024] = "";
		if (whens) {
			steps_text(&cells[i], steps, sizeof(steps));
			fprintf(out, "  %s", TERM_ESC(e, steps));
		}
		fputc('\n', out);
	}
	if (whens)
		print_whens(s, out);
	free(w);
	free(loads);
	free(cols);
}
