/* results: the model of one run, and results.json.
 *
 * A run is the scenario's identity (file, name, description), its `report:`
 * and `expect:` sections, machine facts (env), and one run_cell per cell
 * that has finished (or failed, or was skipped). A cell holds one run_rep per
 * recorded repetition (`repeat: N` gives N of them; warmup runs are not
 * recorded); each rep holds the step_results of that repetition in order.
 *
 * Statistics are derived, never stored as truth: run_cell_summarize() groups
 * the reps by step name and every metric by name into samples, and computes
 * mean, stddev, median, min, max, n, cv. The mean is the metric's value in
 * every report.
 *
 * results.json (format "benchgrid-results", version 1) is the contract; see
 * docs/results.md. It is written as tmp file, fsync, rename, fsync(dir), so a
 * kill at any moment leaves either the old or the new file. The same cell
 * object, on one line, is what the runner's journal appends per finished
 * cell (results_cell_write_line / results_cell_parse_line). */
#ifndef BENCHGRID_RESULTS_H
#define BENCHGRID_RESULTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "cell.h"
#include "diag.h"
#include "json.h"
#include "json_parse.h"
#include "node.h"
#include "result.h"
#include "stats.h"

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
	struct step_result env;  /* machine facts: kernel, cpu, pg version (info + metrics) */
	struct run_cell *cells;
	size_t ncells, cap;
};

/* ---- building a run ---- */
void run_init(struct run *r);
void run_free(struct run *r);
/* Set a string field (strdup, replacing): run_set(&r->name, "x"). */
void run_set(char **field, const char *value);
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

/* ---- statistics over repetitions ---- */
struct metric_summary {
	const char *name, *unit; /* point into the run's step results */
	double *v;               /* one sample per rep (NaN when a rep lacks it) */
	size_t n;
	struct stats st; /* st.mean is the reported value */
	struct stats_check warn;
	bool warned;
};

struct step_summary {
	const char *step, *workload;
	bool failed;                     /* failed in any repetition */
	const char *error;               /* first error */
	double elapsed;                  /* mean wall seconds */
	const struct step_result *first; /* first repetition (series, info) */
	struct metric_summary *m;
	size_t nm;
};

struct cell_summary {
	struct step_summary *steps;
	size_t nsteps;
};

struct cell_summary *run_cell_summarize(const struct run_cell *c);
void cell_summary_free(struct cell_summary *s);
const struct step_summary *cell_summary_step(const struct cell_summary *s, const char *step);
const struct metric_summary *cell_summary_metric(const struct cell_summary *s, const char *step,
                                                 const char *metric);
/* Split "step.metric" at the first dot. Returns false when there is none. */
bool results_split_ref(const char *ref, char *step, size_t steplen, const char **metric);
/* Every warning text (outliers, cold first run) of a cell, one per call of
 * fn; returns how many. */
size_t run_cell_warnings(const struct cell_summary *s, void (*fn)(void *arg, const char *msg), void *arg);

/* ---- JSON ---- */
/* Write the whole run as results.json: path.tmp, fsync, rename, fsync dir. */
int results_write_json(const struct run *r, const char *path, struct diag *d);
/* The run as JSON into f (pretty or compact). */
void results_write_run(struct json_w *w, const struct run *r);
/* Read results.json into r (initialised by the call). */
int results_read_json(struct run *r, const char *path, struct diag *d);
/* Fill r from a parsed tree (r initialised by the call). */
int results_from_jv(struct run *r, const struct jv *v, const char *name, struct diag *d);

/* One cell as a single-line JSON object followed by '\n' (journal record). */
int results_cell_write_line(FILE *f, const struct run_cell *c);
void results_write_cell(struct json_w *w, const struct run_cell *c);
/* Parse one journal line back into c (initialised by the call). */
int results_cell_parse_line(const char *line, size_t len, struct run_cell *c, struct diag *d);
int results_cell_from_jv(const struct jv *v, struct run_cell *c, const char *name, struct diag *d);

/* A scenario node as JSON (maps, sequences; unquoted scalars that are JSON
 * numbers or true/false/null are written as such) and back. */
void results_write_node(struct json_w *w, const struct node *n);
struct node *results_node_from_jv(const struct jv *v, const char *file);

#endif
