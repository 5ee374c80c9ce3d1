/* estimate_cell: one cell's costs from its tree (see estimate_cell.h).
 *
 * The tree was validated by plan_build; a value that is still not what its
 * section wants (a run-time ${...}) is read as absent, which prices it at the
 * option's default. */
#include "estimate_cell.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "estimate_target.h"
#include "units.h"

static const char *text(const struct node *n)
{
	return n && n->kind == NODE_SCALAR ? n->text : NULL;
}

static bool is_text(const struct node *n, const char *s)
{
	return text(n) && !strcmp(text(n), s);
}

static double number_of(const struct node *n, double dflt)
{
	double x;
	return text(n) && units_is_number(text(n), &x) && x > 0 ? x : dflt;
}

static bool truthy(const struct node *n)
{
	return is_text(n, "true") || is_text(n, "yes") || is_text(n, "on");
}

/* --- steps --- */

/* Each step kind's estimate, registered at start (run/validators.c) since
 * spec may not include the workloads: only the workload reads its options. */
#define ESTIMATE_KINDS_MAX 12

static struct {
	const char *name;
	estimate_step_fn fn;
} kinds[ESTIMATE_KINDS_MAX];
static size_t nkinds;

int estimate_add_step_kind(const char *name, estimate_step_fn fn)
{
	for (size_t i = 0; i < nkinds; i++)
		if (!strcmp(kinds[i].name, name))
			return 0;
	if (nkinds == ESTIMATE_KINDS_MAX)
		return -ENOSPC;
	kinds[nkinds].name = name;
	kinds[nkinds++].fn = fn;
	return 0;
}

/* The step's workload key (its index in st, the kind's in kinds), or -1. */
static long step_kind(const struct node *st, size_t *key)
{
	for (size_t k = 0; k < st->n; k++)
		for (size_t i = 0; i < nkinds; i++)
			if (!strcmp(st->keys[k], kinds[i].name)) {
				*key = k;
				return (long)i;
			}
	return -1;
}

const char *estimate_step_read(const struct node *st, struct step_estimate *e)
{
	size_t key = 0;
	long kind = st && st->kind == NODE_MAP ? step_kind(st, &key) : -1;
	memset(e, 0, sizeof(*e));
	if (kind >= 0 && kinds[kind].fn)
		kinds[kind].fn(st->items[key], e);
	else
		e->writes_db = true;
	return kind >= 0 ? kinds[kind].name : NULL;
}

/* What the step says it does, priced: declared seconds, bytes at the io
 * rate, data loads at the load rates, transactions at the tps (or the
 * schedule's rate when slower). A kind with no estimate declares no time
 * and may write anything. */
static void step_cost_read(const struct node *st, size_t k, const struct estimate_rates *r,
                           struct cell_cost *cc, double *files_max, double *files_kept)
{
	struct step_cost *sc = &cc->steps[cc->nsteps++];
	struct step_estimate e;
	const char *kind = estimate_step_read(st, &e);
	char dflt[32];
	snprintf(dflt, sizeof(dflt), "%s#%zu", kind ? kind : "step", k + 1);
	const char *name = text(node_get(st, "name"));
	sc->name = strdup(name ? name : dflt);
	sc->basis = e.basis ? e.basis : "not declared";
	double s = e.seconds;
	if (e.bytes > 0)
		s = e.bytes / r->io_bytes_s + s;
	if (e.load_scale > 0)
		s = r->load_s_scale * e.load_scale + r->load_s_fixed + s;
	if (e.transactions > 0) {
		sc->rate = e.rate;
		sc->tx = e.transactions;
		sc->tx_at = sc->rate > 0 && sc->rate < r->tps ? sc->rate : r->tps;
		s = sc->tx / sc->tx_at + s;
	}
	sc->seconds = s;
	cc->writes |= e.writes_db;
	if (e.load_scale > cc->disk_scale)
		cc->disk_scale = e.load_scale;
	if (e.files_kept)
		*files_kept += e.file_bytes;
	else if (e.file_bytes > *files_max)
		*files_max = e.file_bytes;
}

static double init_scale(const struct node *init)
{
	return init && init->kind == NODE_MAP ? number_of(node_get(init, "scale"), 1) : 1;
}

/* --- the server --- */

static void server_read(const struct node *pg, struct cell_cost *cc)
{
	static const char *const shape[] = {"bin_dir",        "run_as",   "wal_dir", "tablespaces",
	                                    "initdb_options", "external", NULL};
	static const char *const settings[] = {"settings", "port", "memory_limit", NULL};
	cc->pg = true;
	cc->external = node_get(pg, "external") != NULL;
	cc->pg_shape = 1469598103934665603ULL;
	for (int i = 0; shape[i]; i++)
		cc->pg_shape = (cc->pg_shape ^ node_hash(node_get(pg, shape[i]))) * 1099511628211ULL;
	cc->pg_settings = 1469598103934665603ULL;
	for (int i = 0; settings[i]; i++)
		cc->pg_settings = (cc->pg_settings ^ node_hash(node_get(pg, settings[i]))) * 1099511628211ULL;
	const struct node *init = node_get(pg, "init");
	cc->init_on = init && init->kind != NODE_NULL;
	cc->init_hash = node_hash(init);
	cc->scale = cc->init_on ? init_scale(init) : 0;
	cc->fresh = truthy(node_get(pg, "fresh"));
	cc->reinit = is_text(node_get(pg, "reinit"), "never")      ? REINIT_NEVER
	             : is_text(node_get(pg, "reinit"), "per-cell") ? REINIT_PER_CELL
	                                                           : REINIT_WHEN_WRITTEN;
}

/* A step that opens the target's block device raw, as its estimate says
 * (whatever its `when:`: run sets the target up for every step). */
static bool raw_device(const struct node *steps)
{
	for (size_t i = 0; steps && steps->kind == NODE_SEQ && i < steps->n; i++) {
		struct step_estimate e;
		estimate_step_read(steps->items[i], &e);
		if (e.raw_device)
			return true;
	}
	return false;
}

void cell_cost_read(const struct node *tree, const bool *skip, const struct estimate_rates *r,
                    struct cell_cost *cc)
{
	memset(cc, 0, sizeof(*cc));
	const struct node *target = node_get(tree, "target"), *targets = node_get(tree, "targets"),
	                  *pg = node_get(tree, "postgres"), *steps = node_get(tree, "steps");
	bool raw = raw_device(steps);
	struct target_cost tc = estimate_target_cost(target, raw);
	cc->nmkfs = target && tc.mkfs;
	for (size_t i = 0; targets && targets->kind == NODE_MAP && i < targets->n; i++) {
		struct target_cost c = estimate_target_cost(targets->items[i], false);
		cc->nmkfs += c.mkfs;
		cc->disk += c.bytes;
		cc->disk_outside |= c.outside;
	}
	if (pg && pg->kind == NODE_MAP)
		server_read(pg, cc);
	cc->disk_scale = cc->scale;
	double io_max = 0, io_kept = 0;
	size_t nsteps = steps && steps->kind == NODE_SEQ ? steps->n : 0;
	cc->steps = calloc(nsteps ? nsteps : 1, sizeof(*cc->steps));
	for (size_t k = 0; cc->steps && k < nsteps; k++)
		if (steps->items[k]->kind == NODE_MAP && !(skip && skip[k]))
			step_cost_read(steps->items[k], k, r, cc, &io_max, &io_kept);
	/* What lives on the cell's main target, as its kind says
	 * (estimate_target.h): in its image, or in a directory of the work
	 * directory. */
	cc->disk += tc.bytes;
	cc->disk_outside |= tc.outside;
	if (tc.holds_files) {
		double content = io_max + io_kept;
		if (cc->pg && !cc->external) {
			double wal = r->wal_bytes * cc->disk_scale;
			content += r->cluster_bytes + r->scale_bytes * cc->disk_scale +
			           (wal < r->wal_max_bytes ? wal : r->wal_max_bytes);
		}
		cc->disk += (uint64_t)content;
	}
}

void cell_cost_free(struct cell_cost *cc)
{
	for (size_t i = 0; i < cc->nsteps; i++)
		free(cc->steps[i].name);
	free(cc->steps);
	cc->steps = NULL;
	cc->nsteps = 0;
}
