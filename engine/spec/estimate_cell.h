/* estimate_cell: what one cell costs, read from its interpolated tree
 * (target, targets, postgres, steps) without running anything: the
 * filesystems it makes, its server's shape and data, its steps' seconds,
 * and the disk space it needs in the work directory. estimate.c adds them
 * up over the run order. A step's figures come from its workload's
 * estimate (estimate_add_step_kind). */
#ifndef BENCHGRID_ESTIMATE_CELL_H
#define BENCHGRID_ESTIMATE_CELL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "estimate_rates.h"
#include "node.h"
#include "step_estimate.h"

/* postgres.reinit, in the order of fixtures/pg's fxpg_reinits. */
enum { REINIT_WHEN_WRITTEN, REINIT_NEVER, REINIT_PER_CELL };

struct step_cost {
	char *name;
	const char *basis; /* a static string (estimate_step.basis) */
	double seconds;    /* one run of the step */
	double tx_at;      /* transactions: the rate priced with */
	double tx;         /* transactions: transactions x clients */
	double rate;       /* transactions: rate: (the schedule's tps), 0 none */
	bool tps_hist;     /* tx_at comes from the history */
};

struct cell_cost {
	size_t nmkfs;                   /* filesystems made: loop and device targets not used raw */
	bool pg, external;              /* a postgres: section; an external server */
	uint64_t pg_shape, pg_settings; /* what initdb fixes; what a restart or reload changes */
	bool init_on;                   /* postgres.init: loads pgbench data */
	uint64_t init_hash;
	double scale;      /* of init */
	double disk_scale; /* the largest scale loaded in the cell (init, or an init step) */
	bool fresh;
	int reinit;
	bool writes; /* a step may write to the database (reinit: when-written) */
	struct step_cost *steps;
	size_t nsteps;
	uint64_t disk;     /* bytes in the work directory */
	bool disk_outside; /* a loop image_dir or a dir path elsewhere */
};

/* What a step kind's options say its step will do (step_estimate.h). The
 * workloads register theirs at start, as their checks (run/validators.c),
 * since spec may not include them; fn NULL: a step that declares no time
 * and may write anything. Registering a name twice keeps the first;
 * -ENOSPC when the table is full. */
typedef void (*estimate_step_fn)(const struct node *opts, struct step_estimate *e);
int estimate_add_step_kind(const char *name, estimate_step_fn fn);
/* What step st (a map) says it will do, by its kind's estimate, into e
 * (zeroed first; a kind without one, or none: writes_db). Returns the
 * kind's name, or NULL. */
const char *estimate_step_read(const struct node *st, struct step_estimate *e);

/* skip[k] (NULL: none): step k is skipped by its `when:` and costs nothing. */
void cell_cost_read(const struct node *tree, const bool *skip, const struct estimate_rates *r,
                    struct cell_cost *cc);
void cell_cost_free(struct cell_cost *cc);

#endif
