/* fixture_set: the fixtures that stay up from one cell to the next.
 *
 * A cell asks for its filesystem(s), knobs and server in that order; each
 * is kept when the cell's interpolated section equals the one it was set
 * up from, and torn down (with everything that lives on it) otherwise. */
#ifndef BENCHGRID_FIXTURE_SET_H
#define BENCHGRID_FIXTURE_SET_H

#include <stdbool.h>
#include <stddef.h>

#include "diag.h"
#include "node.h"
#include "result.h"

struct named_target {
	char *name;
	struct fx_fs *fs;
};

struct fixture_set {
	struct node *target;  /* interpolated `target:` the filesystem was built from */
	struct node *targets; /* interpolated `targets:` */
	struct fx_fs *fs;
	struct named_target *named;
	size_t nnamed;
	struct node *knob_sysctl, *knob_queue;
	struct knobs *knobs;
	struct fx_pg *pg;
	struct devmodel *dm; /* the targets' device models (fixtures/devmodel) */
	/* Wall seconds of what the current cell set up, < 0 for what it reused
	 * or does not have (run_cell's setup_*_s): fs the filesystems made
	 * (loop, mkfs, mount), pg a new cluster (initdb, start), data the
	 * pgbench data load. fixture_set_fs starts a cell: it resets them. */
	double setup_fs_s, setup_pg_s, setup_data_s;
	/* Teardowns that did not undo everything (a folder left behind, a
	 * setting not restored; the errors are in the diag): the run fails. */
	int down_failures;
};

/* Set up or reuse the filesystem(s) of a cell's tree (`target:`, a
 * temporary directory when absent, and `targets:`) under work_dir. */
int fixture_set_fs(struct fixture_set *fx, const struct node *tree, const char *work_dir, bool allow_destroy,
                   struct diag *d);
/* The cell's device models (`model:` of its targets), after fixture_set_fs;
 * those with `model_during: all` are applied now. */
int fixture_set_models(struct fixture_set *fx, const struct node *tree, struct diag *d);
/* Apply or reuse the cell's `sysctl:` and `queue:`. */
int fixture_set_knobs(struct fixture_set *fx, const struct node *tree, struct diag *d);
/* Bring the server to the cell's `postgres:` section (or stop it when the
 * cell has none); facts of the server go to facts. */
int fixture_set_pg(struct fixture_set *fx, const struct node *tree, const char *cell_dir,
                   struct step_result *facts, struct diag *d);
/* The facts of the filesystems, those of named targets prefixed NAME. */
void fixture_set_facts(const struct fixture_set *fx, struct step_result *facts);

/* Put the run-time names of the fixtures into the map m: target.path,
 * targets.NAME.path, pg.conninfo and pg.log (those that exist). */
void fixture_set_names(const struct fixture_set *fx, struct node *m);

/* The directory a step works in: the cell's filesystem or else dflt. */
const char *fixture_set_dir(const struct fixture_set *fx, const char *dflt);
/* The raw device of the cell's target (fs: none), or NULL; *refuse: why
 * writing to it is refused, or NULL. */
const char *fixture_set_device(const struct fixture_set *fx, const char **refuse);
/* After a failed step: drop a server that died, so the next cell starts one. */
void fixture_set_check_pg(struct fixture_set *fx);

/* Everything down, in reverse order of setup. */
void fixture_set_down(struct fixture_set *fx, struct diag *d);

#endif
