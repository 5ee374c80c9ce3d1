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
#include "hash.h"
#include "run_order.h"
#include "spec_hooks.h"
#include "units.h"

/* Which steps of a cell's tree its `when:` skips (NULL when none has one). */
static bool *steps_skipped(const struct spec *s, const struct node *tree)
{
	const struct node *steps = node_get(tree, "steps");
	if (!spec_has_when(s) || !steps || steps->kind != NODE_SEQ)
		return NULL;
	bool *skip = calloc(steps->n ? steps->n : 1, sizeof(*skip));
	char why[256];
	for (size_t k = 0; skip && k < steps->n; k++)
		skip[k] = spec_step_skipped(s, tree, k, why, sizeof(why));
	return skip;
}

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
	const struct node *steps = node_get(tree ? tree : s->root, "steps");
	bool *skip = tree ? steps_skipped(s, tree) : NULL;
	double t = 0;
	for (size_t k = 0; steps && steps->kind == NODE_SEQ && k < steps->n; k++)
		if (!(skip && skip[k]))
			t += estimate_declared_seconds(steps->items[k]);
	free(skip);
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
	return hash_fnv1a(HASH_FNV1A_INIT, s, strlen(s));
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
/* Transactions at the tps the step had in the last run (or rate: when
 * lower, as its schedule holds it there). */
static void history_rates(struct cell_cost *cc, const struct estimate_history *h)
{
	for (size_t k = 0; h && k < cc->nsteps; k++) {
		struct step_cost *sc = &cc->steps[k];
		for (size_t i = 0; i < h->ntps && !strcmp(sc->basis, "transactions"); i++) {
			if (strcmp(h->tps_step[i], sc->name) || !(h->tps[i] > 0))
				continue;
			sc->tx_at = sc->rate > 0 && sc->rate < h->tps[i] ? sc->rate : h->tps[i];
			sc->tps_hist = sc->tx_at == h->tps[i];
			sc->seconds = sc->tx / sc->tx_at;
			break;
		}
	}
}

static const struct cell_cost *combos_get(struct combos *C, const struct spec *s, const struct cell *c,
                                          char *key, const struct estimate_rates *r,
                                          const struct estimate_history *h)
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
	bool *skip = tree ? steps_skipped(s, tree) : NULL;
	cell_cost_read(tree ? tree : s->root, skip, r, &C->costs[C->n]);
	free(skip);
	history_rates(&C->costs[C->n], h);
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
		*st = (struct estimate_step){strdup(sc->name), sc->basis, 0, sc->tx_at, sc->tps_hist};
		e->undeclared += !strcmp(sc->basis, "not declared");
	} else if (strcmp(st->basis, sc->basis)) {
		st->basis = "mixed";
	}
	st->seconds += sc->seconds * runs;
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

/* The slots' costs: set-ups where a slot opens another cell than the one
 * before (its before-cell set-up: fixtures kept or rebuilt as the runner
 * does), its steps once, and its warm-ups with its first slot. */
struct walk {
	const struct spec *s;
	const struct cell *cells;
	const struct estimate_rates *r;
	const struct estimate_history *h;
	struct combos C;
	char **refs;
	size_t nrefs;
	bool every_cell;
	bool *seen; /* per cell: its first slot came */
};

static const struct cell_cost *cost_of(struct walk *W, const struct cell *c)
{
	char *key = cell_key(c, W->refs, W->nrefs, W->every_cell);
	return key ? combos_get(&W->C, W->s, c, key, W->r, W->h) : NULL;
}

static void walk_free(struct walk *W)
{
	combos_free(&W->C);
	for (size_t k = 0; k < W->nrefs; k++)
		free(W->refs[k]);
	free(W->refs);
	free(W->seen);
}

static void add_setups(struct setups *all, const struct setups *u)
{
	all->mkfs += u->mkfs;
	all->made += u->made;
	all->initdb += u->initdb;
	all->restarts += u->restarts;
	all->loads += u->loads;
	all->scale += u->scale;
}

/* Walk the slots; each's set-ups into each[j], its steps' seconds into
 * e->slot_s[j]. */
static int walk_slots(struct walk *W, size_t n, const struct run_slot *seq, size_t ns, struct setups *each,
                      struct estimate *e)
{
	struct server_state S = {0};
	const struct cell *prev = NULL;
	for (size_t j = 0; j < ns; j++) {
		const struct cell *c = &W->cells[seq[j].cell];
		const struct cell_cost *cc = seq[j].cell < n ? cost_of(W, c) : NULL;
		if (!cc)
			return -ENOMEM;
		if (c != prev) { /* the runner's test: the interpolated target(s) differ */
			bool new_fs = cell_new_fs(prev, c);
			if (new_fs) {
				e->fs_setups++;
				each[j].mkfs = cc->nmkfs;
				each[j].made = cc->nmkfs > 0;
			}
			server_cell(&S, cc, new_fs, &each[j]);
		}
		if (cc->pg)
			S.dirty |= cc->writes;
		double runs = 1;
		if (!W->seen[seq[j].cell]) {
			W->seen[seq[j].cell] = true;
			runs += (double)e->warmup;
			e->ncells++;
			if (cc->disk > e->disk_need || e->ncells == 1) {
				e->disk_need = cc->disk;
				e->disk_cell = c->index;
			}
			e->disk_outside |= cc->disk_outside;
		}
		for (size_t k = 0; k < cc->nsteps; k++) {
			add_step(e, &cc->steps[k], runs);
			e->slot_s[j] += cc->steps[k].seconds * runs;
		}
		e->steps_s += e->slot_s[j];
		prev = c;
	}
	return 0;
}

int estimate_slots(const struct spec *s, const struct cell *cells, size_t n, const struct run_slot *seq,
                   size_t ns, const struct estimate_rates *r, const struct estimate_history *h,
                   struct estimate *e)
{
	memset(e, 0, sizeof(*e));
	struct diag d;
	diag_init(&d);
	struct repeat_spec rs;
	bool has_seed;
	uint64_t seed = 0;
	e->repeat = 1;
	if (repeat_spec_read(s->root, &rs, &d) == 0) {
		e->repeat = rs.max;
		e->repeat_until = rs.until_pct > 0;
	}
	repeat_spec_free(&rs);
	const struct node *v = node_get(s->root, "warmup");
	if (v && node_as_int(v, "warmup", 0, 1000000, &e->warmup, &d) < 0)
		e->warmup = 0;
	run_order_read(s->root, &e->order, &has_seed, &seed, &d);
	diag_free(&d);
	struct walk W = {.s = s, .cells = cells, .r = r, .h = h, .seen = calloc(n ? n : 1, sizeof(bool))};
	static const char *const secs[] = {"target", "targets", "postgres", "steps", NULL};
	for (int i = 0; secs[i]; i++)
		W.every_cell |= spec_hooks_has_lua(node_get(s->root, secs[i]));
	spec_cell_refs(s, NULL, &W.refs, &W.nrefs);
	struct setups all = {0}, *each = calloc(ns ? ns : 1, sizeof(*each));
	e->slot_s = calloc(ns ? ns : 1, sizeof(*e->slot_s));
	e->slot_loads = calloc(ns ? ns : 1, sizeof(*e->slot_loads));
	e->nslots = ns;
	int rc = each && e->slot_s && e->slot_loads && W.seen ? walk_slots(&W, n, seq, ns, each, e) : -ENOMEM;
	walk_free(&W);
	for (size_t j = 0; rc == 0 && j < ns; j++) {
		add_setups(&all, &each[j]);
		e->slot_loads[j] = each[j].loads;
	}
	e->mkfs = all.mkfs;
	e->fs_setups_made = all.made;
	e->initdb = all.initdb;
	e->restarts = all.restarts;
	e->loads = all.loads;
	e->scale_loaded = all.scale;
	price_setups(e, &all, r, h);
	for (size_t j = 0; rc == 0 && j < ns; j++) {
		double part[4];
		e->slot_s[j] += price(&each[j], r, e, h, part);
	}
	free(each);
	return rc;
}

int estimate_plan(const struct spec *s, const struct cell *cells, size_t n, const struct estimate_rates *r,
                  const struct estimate_history *h, struct estimate *e)
{
	struct diag d;
	diag_init(&d);
	struct repeat_spec rs;
	enum run_order o = RUN_ORDER_GROUPED;
	bool has_seed = false;
	uint64_t seed = 0; /* a random order without a seed: as plan shows it (run_order.h) */
	size_t reps = repeat_spec_read(s->root, &rs, &d) == 0 ? (size_t)rs.max : 1;
	repeat_spec_free(&rs);
	run_order_read(s->root, &o, &has_seed, &seed, &d);
	diag_free(&d);
	size_t *which = malloc((n ? n : 1) * sizeof(*which)), ns = 0;
	for (size_t i = 0; which && i < n; i++)
		which[i] = i;
	struct run_slot *seq = which && n ? run_order_build(which, n, reps ? reps : 1, o, seed, &ns) : NULL;
	int rc = estimate_slots(s, cells, n, seq, ns, r, h, e);
	e->order_seeded = has_seed;
	if (n && !seq)
		rc = -ENOMEM;
	free(seq);
	free(which);
	return rc;
}

void estimate_free(struct estimate *e)
{
	for (size_t i = 0; i < e->nsteps; i++)
		free(e->steps[i].name);
	free(e->steps);
	free(e->slot_s);
	free(e->slot_loads);
	e->steps = NULL;
	e->slot_s = NULL;
	e->slot_loads = NULL;
	e->nsteps = 0;
}

double *estimate_slots_seconds(const struct spec *s, const struct cell *cells, size_t n,
                               const struct run_slot *seq, size_t ns)
{
	struct estimate_rates r = ESTIMATE_DEFAULTS;
	struct estimate e;
	double *v = NULL;
	if (estimate_slots(s, cells, n, seq, ns, &r, NULL, &e) == 0) {
		v = e.slot_s;
		e.slot_s = NULL;
	}
	estimate_free(&e);
	return v;
}

size_t *estimate_cell_loads(const struct spec *s, const struct cell *cells, size_t n)
{
	struct estimate_rates r = ESTIMATE_DEFAULTS;
	struct estimate e;
	size_t *v = NULL;
	struct run_slot *seq = calloc(n ? n : 1, sizeof(*seq));
	for (size_t i = 0; seq && i < n; i++)
		seq[i].cell = i;
	if (seq && estimate_slots(s, cells, n, seq, n, &r, NULL, &e) == 0) {
		v = e.slot_loads;
		e.slot_loads = NULL;
	}
	if (seq)
		estimate_free(&e);
	free(seq);
	return v;
}

double estimate_eta(const struct estimate_progress *p)
{
	double ratio =
	    p->priced_plan_s > 0 && p->priced_spent_s > 0 ? p->priced_spent_s / p->priced_plan_s : 1;
	double eta = p->left_plan_s * ratio;
	if (p->unpriced_left == 0)
		return eta;
	if (!p->unpriced_done) /* nothing measured to price them by yet */
		return -1;
	return eta + p->unpriced_spent_s / (double)p->unpriced_done * (double)p->unpriced_left;
}

void estimate_format_seconds(double s, char *buf, size_t len)
{
	/* Past the limit (or infinite) the figure means nothing, and the
	 * whole seconds below it fit a long long. */
	const double limit = 100 * 365.25 * 86400;
	long long w = s >= 0 && s <= limit ? (long long)s : 0;
	if (!(s >= 0))
		snprintf(buf, len, "?");
	else if (s > limit)
		snprintf(buf, len, "> 100 years");
	else if (s < 60)
		snprintf(buf, len, "%.0fs", s);
	else if (s < 3600)
		snprintf(buf, len, "%lldm%02llds", w / 60, w % 60);
	else if (s < 86400)
		snprintf(buf, len, "%lldh%02lldm", w / 3600, w / 60 % 60);
	else
		snprintf(buf, len, "%lldd%02lldh", w / 86400, w / 3600 % 24);
}
