/* estimate: declared step durations and plan's estimate (see estimate.h).
 *
 * A cell's costs come from its interpolated tree (estimate_cell.c); cells
 * whose referenced parameters are equal have the same tree, so each
 * distinct combination is read once, as plan_build checks it once. The run
 * order then decides what is set up anew, as the runner's fixture_set and
 * the server (fixtures/pg) decide it. */
#include "estimate.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "estimate_cell.h"
#include "spec_hooks.h"
#include "units.h"

double estimate_declared_seconds(const struct node *n)
{
	double sum = 0;
	if (!n)
		return 0;
	if (n->kind == NODE_MAP)
		for (size_t i = 0; i < n->n; i++) {
			double t;
			if ((!strcmp(n->keys[i], "runtime") || !strcmp(n->keys[i], "duration")) &&
			    n->items[i]->kind == NODE_SCALAR &&
			    units_parse_duration(n->items[i]->text, &t, NULL, 0) == 0)
				sum += t;
			else
				sum += estimate_declared_seconds(n->items[i]);
		}
	else if (n->kind == NODE_SEQ)
		for (size_t i = 0; i < n->n; i++)
			sum += estimate_declared_seconds(n->items[i]);
	return sum;
}

double estimate_cell_seconds(const struct spec *s, const struct cell *c, int64_t repeat, int64_t warmup)
{
	struct diag d;
	diag_init(&d);
	struct node *tree = spec_cell_tree(s, c, true, &d);
	/* A tree that cannot be built (a run-time value) falls back to the
	 * scenario's steps as written. */
	double t = estimate_declared_seconds(node_get(tree ? tree : s->root, "steps"));
	node_free(tree);
	diag_free(&d);
	return t * (double)(repeat + warmup);
}

/* The distinct combinations of referenced parameters, each with its costs. */
struct combos {
	char **keys;
	size_t *slot; /* open addressing: index into costs + 1, 0 empty */
	size_t cap;
	struct cell_cost *costs;
	size_t n;
};

static uint64_t key_hash(const char *s)
{
	uint64_t h = 1469598103934665603ULL;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ULL;
	return h;
}

static int combos_grow(struct combos *C)
{
	size_t cap = C->cap ? C->cap * 2 : 64;
	size_t *slot = calloc(cap, sizeof(*slot));
	struct cell_cost *costs = realloc(C->costs, cap / 2 * sizeof(*costs));
	char **keys = realloc(C->keys, cap / 2 * sizeof(*keys));
	if (!slot || !costs || !keys) {
		free(slot);
		if (costs)
			C->costs = costs;
		if (keys)
			C->keys = keys;
		return -ENOMEM;
	}
	C->costs = costs;
	C->keys = keys;
	for (size_t i = 0; i < C->n; i++) {
		size_t j = key_hash(keys[i]) & (cap - 1);
		while (slot[j])
			j = (j + 1) & (cap - 1);
		slot[j] = i + 1;
	}
	free(C->slot);
	C->slot = slot;
	C->cap = cap;
	return 0;
}

/* The costs of cell c, read from its tree the first time its key is seen. */
static const struct cell_cost *combos_get(struct combos *C, const struct spec *s, const struct cell *c,
                                          char *key, const struct estimate_rates *r)
{
	if ((C->n + 1) * 2 > C->cap && combos_grow(C) < 0) {
		free(key);
		return NULL;
	}
	size_t j = key_hash(key) & (C->cap - 1);
	while (C->slot[j] && strcmp(C->keys[C->slot[j] - 1], key))
		j = (j + 1) & (C->cap - 1);
	if (C->slot[j]) {
		free(key);
		return &C->costs[C->slot[j] - 1];
	}
	struct diag d;
	diag_init(&d);
	struct node *tree = spec_cell_tree(s, c, true, &d);
	cell_cost_read(tree ? tree : s->root, r, &C->costs[C->n]);
	node_free(tree);
	diag_free(&d);
	C->keys[C->n] = key;
	C->slot[j] = ++C->n;
	return &C->costs[C->n - 1];
}

static void combos_free(struct combos *C)
{
	for (size_t i = 0; i < C->n; i++) {
		free(C->keys[i]);
		cell_cost_free(&C->costs[i]);
	}
	free(C->keys);
	free(C->costs);
	free(C->slot);
}

/* The key of a cell: the values of the parameters its tree refers to
 * (every cell its own with !lua in the sections, whose values may read any
 * parameter). */
static char *cell_key(const struct cell *c, char **refs, size_t nrefs, bool every_cell)
{
	char *key = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&key, &len);
	if (!f)
		return NULL;
	if (every_cell)
		fprintf(f, "%zu", c->index);
	for (size_t r = 0; r < nrefs && !every_cell; r++) {
		const struct node *v = node_get(c->params, refs[r]);
		fprintf(f, "%s\x1f", v && v->kind == NODE_SCALAR ? v->text : "\x1e");
	}
	fclose(f);
	return key;
}

static void add_step(struct estimate *e, const struct step_cost *sc, double runs)
{
	struct estimate_step *st = NULL;
	for (size_t i = 0; i < e->nsteps && !st; i++)
		if (!strcmp(e->steps[i].name, sc->name))
			st = &e->steps[i];
	if (!st) {
		struct estimate_step *v = realloc(e->steps, (e->nsteps + 1) * sizeof(*v));
		if (!v)
			return;
		e->steps = v;
		st = &e->steps[e->nsteps++];
		*st = (struct estimate_step){strdup(sc->name), sc->basis, 0, sc->tx_at};
	} else if (strcmp(st->basis, sc->basis)) {
		st->basis = "mixed";
	}
	st->seconds += sc->seconds * runs;
	e->undeclared += !strcmp(sc->basis, "not declared");
}

/* What the server does between the previous cell and this one (the
 * decisions of fixtures/pg/fx_pg.c, from the scenario alone). */
struct server_state {
	bool up;           /* a server is running (or an external one is used) */
	uint64_t shape;    /* what its initdb fixed */
	uint64_t settings; /* settings, port, memory limit */
	bool loaded;       /* pgbench data is loaded */
	uint64_t init;     /* with which init: options */
	bool dirty;        /* written since the load */
};

/* What one cell sets up. */
struct setups {
	size_t mkfs, made, initdb, restarts, loads;
	double scale;
};

static void server_cell(struct server_state *S, const struct cell_cost *cc, bool new_fs, struct setups *u)
{
	if (!cc->pg) { /* the runner stops the server of a cell without postgres: */
		S->up = false;
		return;
	}
	/* a new filesystem holds a new data directory: the old server goes */
	bool fresh = !S->up || new_fs || S->shape != cc->pg_shape;
	if (fresh && !cc->external)
		u->initdb++;
	else if (!fresh && S->settings != cc->pg_settings && !cc->external)
		u->restarts++;
	if (fresh) {
		S->loaded = false;
		S->dirty = false;
	}
	S->up = true;
	S->shape = cc->pg_shape;
	S->settings = cc->pg_settings;
	bool load = false;
	if (cc->init_on)
		load = fresh || !S->loaded || S->init != cc->init_hash || cc->fresh ||
		       cc->reinit == REINIT_PER_CELL || (cc->reinit == REINIT_WHEN_WRITTEN && S->dirty);
	if (load) {
		u->loads++;
		u->scale += cc->scale;
		S->loaded = true;
		S->init = cc->init_hash;
		S->dirty = false;
	}
	S->dirty |= cc->writes;
}

/* The seconds of set-ups u: from the history where it has them. */
static double price(const struct setups *u, const struct estimate_rates *r, const struct estimate *e,
                    const struct estimate_history *h, double part[4])
{
	part[0] = e->fs_hist ? h->fs_s * (double)u->made : r->mkfs_s * (double)u->mkfs;
	part[1] = (e->pg_hist ? h->pg_s : r->initdb_s) * (double)u->initdb;
	part[2] = e->data_hist ? h->data_s * (double)u->loads
	                       : r->load_s_scale * u->scale + r->load_s_fixed * (double)u->loads;
	part[3] = r->restart_s * (double)u->restarts;
	return part[0] + part[1] + part[2] + part[3];
}

static void price_setups(struct estimate *e, const struct setups *all, const struct estimate_rates *r,
                         const struct estimate_history *h)
{
	e->fs_hist = h && isfinite(h->fs_s) && h->fs_s > 0;
	e->pg_hist = h && isfinite(h->pg_s) && h->pg_s > 0;
	e->data_hist = h && isfinite(h->data_s) && h->data_s > 0;
	double part[4];
	double setups_s = price(all, r, e, h, part);
	e->fs_s = part[0];
	e->pg_s = part[1];
	e->data_s = part[2];
	e->restart_s = part[3];
	e->total_s = e->steps_s + setups_s;
}

static int64_t setting(const struct spec *s, const char *name, int64_t dflt)
{
	const struct node *v = node_get(s->root, name);
	int64_t x;
	return v && v->kind == NODE_SCALAR && units_is_int(v->text, &x) && x >= 0 ? x : dflt;
}

int estimate_plan(const struct spec *s, const struct cell *cells, size_t n, const struct estimate_rates *r,
                  const struct estimate_history *h, struct estimate *e)
{
	memset(e, 0, sizeof(*e));
	e->ncells = n;
	e->repeat = setting(s, "repeat", 1);
	e->warmup = setting(s, "warmup", 0);
	double runs = (double)(e->repeat + e->warmup);
	char **refs = NULL;
	size_t nrefs = 0;
	bool every_cell = false;
	static const char *const secs[] = {"target", "targets", "postgres", "steps", NULL};
	for (int i = 0; secs[i]; i++)
		every_cell |= spec_hooks_has_lua(node_get(s->root, secs[i]));
	spec_cell_refs(s, NULL, &refs, &nrefs);
	struct combos C = {0};
	struct server_state S = {0};
	struct setups all = {0}, *each = calloc(n ? n : 1, sizeof(*each));
	e->cell_s = calloc(n ? n : 1, sizeof(*e->cell_s));
	int rc = each && e->cell_s ? 0 : -ENOMEM;
	for (size_t i = 0; i < n && rc == 0; i++) {
		char *key = cell_key(&cells[i], refs, nrefs, every_cell);
		const struct cell_cost *cc = key ? combos_get(&C, s, &cells[i], key, r) : NULL;
		if (!cc) {
			rc = -ENOMEM;
			break;
		}
		/* the runner's test: the interpolated target(s) differ */
		bool new_fs = i == 0 || cells[i].fs_key != cells[i - 1].fs_key;
		struct setups *u = &each[i];
		if (new_fs) {
			e->fs_setups++;
			u->mkfs = cc->nmkfs;
			u->made = cc->nmkfs > 0;
		}
		server_cell(&S, cc, new_fs, u);
		all.mkfs += u->mkfs;
		all.made += u->made;
		all.initdb += u->initdb;
		all.restarts += u->restarts;
		all.loads += u->loads;
		all.scale += u->scale;
		for (size_t k = 0; k < cc->nsteps; k++) {
			add_step(e, &cc->steps[k], runs);
			e->steps_s += cc->steps[k].seconds * runs;
			e->cell_s[i] += cc->steps[k].seconds * runs;
		}
		if (cc->disk > e->disk_need || i == 0) {
			e->disk_need = cc->disk;
			e->disk_cell = cells[i].index;
		}
		e->disk_outside |= cc->disk_outside;
	}
	combos_free(&C);
	for (size_t k = 0; k < nrefs; k++)
		free(refs[k]);
	free(refs);
	e->mkfs = all.mkfs;
	e->fs_setups_made = all.made;
	e->initdb = all.initdb;
	e->restarts = all.restarts;
	e->loads = all.loads;
	e->scale_loaded = all.scale;
	price_setups(e, &all, r, h);
	for (size_t i = 0; rc == 0 && i < n; i++) {
		double part[4];
		e->cell_s[i] += price(&each[i], r, e, h, part);
	}
	free(each);
	return rc;
}

void estimate_free(struct estimate *e)
{
	for (size_t i = 0; i < e->nsteps; i++)
		free(e->steps[i].name);
	free(e->steps);
	free(e->cell_s);
	e->steps = NULL;
	e->cell_s = NULL;
	e->nsteps = 0;
}

double *estimate_cells_seconds(const struct spec *s, const struct cell *cells, size_t n)
{
	struct estimate_rates r = ESTIMATE_DEFAULTS;
	struct estimate e;
	double *v = NULL;
	if (estimate_plan(s, cells, n, &r, NULL, &e) == 0) {
		v = e.cell_s;
		e.cell_s = NULL;
	}
	estimate_free(&e);
	return v;
}

void estimate_format_seconds(double s, char *buf, size_t len)
{
	if (!(s >= 0))
		snprintf(buf, len, "?");
	else if (s < 60)
		snprintf(buf, len, "%.0fs", s);
	else if (s < 3600)
		snprintf(buf, len, "%dm%02ds", (int)(s / 60), (int)s % 60);
	else if (s < 86400)
		snprintf(buf, len, "%dh%02dm", (int)(s / 3600), (int)(s / 60) % 60);
	else
		snprintf(buf, len, "%dd%02dh", (int)(s / 86400), (int)(s / 3600) % 24);
}
