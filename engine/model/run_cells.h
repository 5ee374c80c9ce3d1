/* run_cells: the model of one run.
 *
 * A run is the scenario's identity (file, name, description), its `report:`
 * and `expect:` sections, machine facts (env), and one run_cell per cell
 * that has finished (or failed, or was skipped). A cell holds one run_rep per
 * recorded repetition (`repeat: N` gives N of them; warmup runs are not
 * recorded); each rep holds the step_results of that repetition in order.
 * results_write.h and results_read.h store it as results.json and as the
 * runner's journal lines. */
#ifndef BENCHGRID_RUN_CELLS_H
#define BENCHGRID_RUN_CELLS_H

#include <stdbool.h>
#include <stddef.h>

#include "cell.h"
#include "node.h"
#include "result.h"

/* results.json: its "format" and "version" */
#define RESULTS_FORMAT  "benchgrid-results"
#define RESULTS_VERSION 1

enum run_status { RUN_OK, RUN_FAILED, RUN_SKIPPED };

/* One recorded repetition of a cell: its steps in order. */
struct run_rep {
	struct step_result *steps;
	size_t nsteps, cap;
};

struct run_cell {
	size_t index;        /* position in the expansion */
	char id[13];         /* stable hash of the parameters */
	struct node *params; /* NODE_MAP of scalars (owned) */
	enum run_status status;
	char *error;             /* first error of the cell, or NULL */
	double started, elapsed; /* unix seconds; wall seconds of the cell */
	struct run_rep *reps;    /* recorded repetitions */
	size_t nreps;
	struct step_result facts; /* cell facts: fs type, device, pg settings (info + metrics) */
	/* Wall seconds of the set-ups this cell did (results.json
	 * "setup_seconds"), < 0 for a part it reused or did not have: fs the
	 * filesystems (loop, mkfs, mount), pg a new cluster (initdb, start),
	 * data a pgbench data load. */
	double setup_fs_s, setup_pg_s, setup_data_s;
};

struct run {
	char *scenario_file;
	char *name;
	char *description;
	char *scenario_hash;      /* lead's fingerprint of the scenario, or NULL */
	char *tool_version;       /* BENCHGRID_VERSION when written */
	double started, finished; /* unix seconds; finished 0 while running */
	size_t nplanned;          /* cells in the plan (after --only) */
	size_t repeat, warmup;
	struct node *report_cfg; /* the `report:` node (owned clone) or NULL */
	struct node *expect_cfg; /* the `expect:` node (owned clone) or NULL */
	struct node *notes_cfg;  /* the `notes:` node (owned clone) or NULL */
	struct step_result env;  /* machine facts: kernel, cpu, pg version (info + metrics) */
	struct run_cell *cells;
	size_t ncells, cap;
	/* Set by the runner while it rewrites results.json after every cell:
	 * those rewrites leave out the bootstrap intervals of the median (a
	 * cost per cell that made a run quadratic in its cells); the final
	 * file has them. */
	bool in_progress;
};

/* ---- building a run ---- */
void run_init(struct run *r);
void run_free(struct run *r);
/* Set a string field (strdup, replacing): run_set(&r->name, "x"). */
void run_set(char **field, const char *value);
/* A run's id: 16 hex digits of the scenario's name and hash, the run's
 * start and host (machine.host); the store keys runs by it, and the state
 * journal names the run with it. */
void run_id(const struct run *r, char out[17]);
/* Append a cell with index, id and a clone of params from c. The returned
 * pointer is valid until the next run_add_cell/run_take_cell. */
struct run_cell *run_add_cell(struct run *r, const struct cell *c);
/* Move a cell (e.g. parsed from the journal) into the run; *c is emptied. */
struct run_cell *run_take_cell(struct run *r, struct run_cell *c);
struct run_cell *run_find_cell(const struct run *r, const char *id);
/* Sort cells by index (the journal may hold them in finishing order). */
void run_sort_cells(struct run *r);

void run_cell_init(struct run_cell *c);
void run_cell_free(struct run_cell *c);
/* Repetition `rep` (0-based), created empty with all before it as needed;
 * NULL when out of memory. */
struct run_rep *run_cell_rep(struct run_cell *c, size_t rep);
/* Move a finished step result into repetition `rep` (created as needed,
 * 0-based). *res is left empty; result_init it again before reuse. */
void run_cell_take_step(struct run_cell *c, size_t rep, struct step_result *res);
/* Set status and (first) error, printf-style; fmt NULL keeps the error. */
void run_cell_set_status(struct run_cell *c, enum run_status st, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Parameter text or NULL. */
const char *run_cell_param(const struct run_cell *c, const char *name);
/* "fs=ext4, bs=4k" of all parameters into buf. */
void run_cell_label(const struct run_cell *c, char *buf, size_t len);

const char *run_status_name(enum run_status s);
int run_status_parse(const char *s, enum run_status *out);

#endif
