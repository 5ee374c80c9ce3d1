/* estimate_cell: one cell's costs from its tree (see estimate_cell.h).
 *
 * The tree was validated by plan_build; a value that is still not what its
 * section wants (a run-time ${...}) is read as absent, which prices it at the
 * option's default. */
#include "estimate_cell.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

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

static double seconds_of(const struct node *n, double dflt)
{
	double t;
	return text(n) && units_parse_duration(text(n), &t, NULL, 0) == 0 ? t : dflt;
}

static double bytes_of(const struct node *n, double dflt)
{
	uint64_t b;
	return text(n) && units_parse_size(text(n), &b, NULL, 0) == 0 ? (double)b : dflt;
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

/* A pgbench script that may write: a builtin other than select-only, a
 * script text with a statement that changes rows, or a file (not read). */
static bool script_writes(const char *s)
{
	if (!s)
		return true;
	if (strchr(s, '\n') || strchr(s, ';') || s[0] == '\\') {
		static const char *const verbs[] = {"insert", "update", "delete", "copy", "merge", NULL};
		for (const char *p = s; *p; p++)
			for (int v = 0; verbs[v]; v++)
				if (!strncasecmp(p, verbs[v], strlen(verbs[v])) &&
				    (p == s || !isalnum((unsigned char)p[-1])))
					return true;
		return false;
	}
	return strncmp(s, "select-only", strlen("select-only")) != 0;
}

static bool pgbench_writes(const struct node *o)
{
	const struct node *scripts = node_get(o, "scripts");
	if (node_get(o, "init"))
		return true;
	if (node_get(o, "script"))
		return script_writes(text(node_get(o, "script")));
	if (scripts && scripts->kind == NODE_SEQ) {
		for (size_t i = 0; i < scripts->n; i++)
			if (script_writes(text(scripts->items[i])))
				return true;
		return false;
	}
	return script_writes(text(node_get(o, "builtin")) ? text(node_get(o, "builtin")) : "tpcb-like");
}

static double init_scale(const struct node *init)
{
	return init && init->kind == NODE_MAP ? number_of(node_get(init, "scale"), 1) : 1;
}

static void pgbench_cost(const struct node *o, const struct estimate_rates *r, struct step_cost *sc)
{
	const struct node *init = node_get(o, "init");
	if (init) {
		sc->basis = "init";
		sc->seconds = r->load_s_scale * init_scale(init) + r->load_s_fixed;
	} else if (node_get(o, "duration")) {
		sc->basis = "duration";
		sc->seconds = seconds_of(node_get(o, "duration"), 0);
	} else {
		sc->basis = "transactions";
		sc->rate = number_of(node_get(o, "rate"), 0);
		sc->tx = number_of(node_get(o, "transactions"), 10) * number_of(node_get(o, "clients"), 1);
		sc->tx_at = sc->rate > 0 && sc->rate < r->tps ? sc->rate : r->tps;
		sc->seconds = sc->tx / sc->tx_at;
	}
}

static bool io_reads(const struct node *o)
{
	const char *rw = text(node_get(o, "rw"));
	return !rw || !strcmp(rw, "read") || !strcmp(rw, "randread") || !strcmp(rw, "randrw");
}

/* Bytes of an io step's files in its target (0 on a raw device). */
static double io_file_bytes(const struct node *o)
{
	if (is_text(node_get(o, "file"), "@device") || node_get(o, "op"))
		return 0;
	return bytes_of(node_get(o, "size"), 1073741824.0) * number_of(node_get(o, "jobs"), 1);
}

static void io_cost(const struct node *o, const struct estimate_rates *r, struct step_cost *sc)
{
	double ramp = seconds_of(node_get(o, "ramp"), 0);
	if (node_get(o, "runtime")) {
		sc->basis = "runtime";
		sc->seconds = seconds_of(node_get(o, "runtime"), 0) + ramp;
		return;
	}
	double files = io_file_bytes(o);
	if (node_get(o, "op") || (is_text(node_get(o, "file"), "@device") && !node_get(o, "size"))) {
		sc->basis = "not declared";
		return;
	}
	double jobs = number_of(node_get(o, "jobs"), 1);
	double moved = node_get(o, "io_size") ? bytes_of(node_get(o, "io_size"), 0) * jobs
	                                      : bytes_of(node_get(o, "size"), 1073741824.0) * jobs;
	/* files read are written first (prepare: auto) */
	if (io_reads(o) && !is_text(node_get(o, "prepare"), "none"))
		moved += files;
	sc->basis = "size";
	sc->seconds = moved / r->io_bytes_s + ramp;
}

static void step_cost_read(const struct node *st, size_t k, const struct estimate_rates *r,
                           struct cell_cost *cc, double *io_max, double *io_kept)
{
	struct step_cost *sc = &cc->steps[cc->nsteps++];
	const struct node *io = node_get(st, "io"), *pgb = node_get(st, "pgbench");
	char dflt[32];
	snprintf(dflt, sizeof(dflt), "%s#%zu", io ? "io" : pgb ? "pgbench" : "exec", k + 1);
	sc->name = strdup(text(node_get(st, "name")) ? text(node_get(st, "name")) : dflt);
	sc->basis = "not declared";
	if (io) {
		io_cost(io, r, sc);
		double b = io_file_bytes(io);
		if (truthy(node_get(io, "keep")))
			*io_kept += b;
		else if (b > *io_max)
			*io_max = b;
	} else if (pgb) {
		pgbench_cost(pgb, r, sc);
		cc->writes |= pgbench_writes(pgb);
		if (node_get(pgb, "init") && init_scale(node_get(pgb, "init")) > cc->disk_scale)
			cc->disk_scale = init_scale(node_get(pgb, "init"));
	} else {
		cc->writes = true; /* a command may write anything */
	}
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

static bool raw_io(const struct node *steps)
{
	for (size_t i = 0; steps && steps->kind == NODE_SEQ && i < steps->n; i++)
		if (is_text(node_get(node_get(steps->items[i], "io"), "file"), "@device"))
			return true;
	return false;
}

void cell_cost_read(const struct node *tree, const bool *skip, const struct estimate_rates *r,
                    struct cell_cost *cc)
{
	memset(cc, 0, sizeof(*cc));
	const struct node *target = node_get(tree, "target"), *targets = node_get(tree, "targets"),
	                  *pg = node_get(tree, "postgres"), *steps = node_get(tree, "steps");
	bool raw = raw_io(steps);
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
