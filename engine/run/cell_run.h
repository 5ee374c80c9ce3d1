/* cell_run: one cell of the sweep: the before_cell hook, the cell's tree
 * interpolated in three rounds as its fixtures come up (what is known at
 * once; then ${target.path} and friends; then ${pg.conninfo}), warmup and
 * repeat runs of its steps, the after_cell and on_error hooks. */
#ifndef BENCHGRID_CELL_RUN_H
#define BENCHGRID_CELL_RUN_H

#include <stdbool.h>
#include <stddef.h>

#include "cell.h"
#include "results.h"
#include "run_env.h"

/* A cell whose folder is open, fixtures up and tree interpolated: the
 * repetitions of a stretch of consecutive slots of the run order run in it
 * (all of a cell's with run_order: grouped, one with interleave). */
struct cell_session {
	const struct cell *c;
	struct node *tree; /* the cell's final tree, NULL when set-up failed */
	int cellfd;
	char dir[4096]; /* OUTDIR/cells/ID */
	bool open;      /* the folder is open: cell_close must be called */
	bool applied;   /* fixtures up and device models applied */
};

/* cell_open's answer when the before_cell hook skipped the cell (rc's
 * status says so). */
enum { CELL_SKIPPED = 3 };

/* Open cell c for repetitions: its folder, the before_cell hook when first
 * (the cell's first slot in this process), fixtures and device models.
 * STEPS_OK, STEPS_FAILED (rc's status says why), STEPS_INTERRUPTED or
 * CELL_SKIPPED; call cell_close in every case. */
int cell_open(struct run_env *E, const struct cell *c, struct run_cell *rc, bool first,
              struct cell_session *S);
/* Recorded repetition `rep` (0-based), after the warm-up runs unless warm
 * (the cell ran already in this process). STEPS_*. */
int cell_rep(struct run_env *E, struct cell_session *S, struct run_cell *rc, size_t rep, bool warm);
/* Lift the device models; when the cell is done (last), the after_cell
 * hook (status STEPS_OK) or on_error (STEPS_FAILED). The status after the
 * hooks. */
int cell_close(struct run_env *E, struct cell_session *S, struct run_cell *rc, int status, bool last);

#endif
